"""Call references: a value a library call made, kept as that call (`graphspec.model.Call`).

A graph often runs what a library's factory returned: a handoff tool `create_handoff_tool(
agent_name="bob")` makes (a closure inside a tool), a node `_make_call_agent(agent, ...)` returns,
a reducer `add_messages(format="langchain-openai")` (a `functools.partial`). No import path
reaches such a value, but the call that made it can be written down: an importable callable with
arguments that are JSON data or objects a module-level name holds. `call_ref` recovers it from
the object:

- a partial: a module-level function of its function's module that, called with the partial's
  arguments, returns the same partial (`add_messages(format=...)`); else `partial(func, ...)`;
- a closure `factory.<locals>.fn` (or a tool or runnable wrapping one): the module-level
  `factory`, its parameters read back from the closure's cells (and those of the closures made
  beside it) and, for a wrapper, its same-named attributes (a tool's `description`).

The call is then VERIFIED by making the value again and comparing it with the one the graph
holds (`equivalent`: same code, same closure values, same attributes, a tool's schema); an
argument that can be left to its default is left out. What cannot be reproduced is refused,
naming the element. Two neighbours keep what no call returns: `closure_code`, a closure of JSON
values as its own source (a router a factory adds to a builder), and `built_node_code`, a node
a graph factory made inside the builder the program's own call returned (`create_codeact`'s),
as code taking that node from the graph the call makes again (verified too). A library's
middleware written in the program's source is `source_call`: the call as written, its
arguments JSON data, module-level objects or the program's own expressions as code.

Import paths are written as on langgraph (`engine.x` is `langgraph.x`, the engine's promise),
so the spec says the same on both runtimes; `graphspec.trust.load_ref` makes the value on the
engine, the exporter writes the call in the LangGraph module.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import math
import re
import sys
import textwrap
from typing import Any

from graphspec.errors import SpecError
from graphspec.import_refs import called_name, defined_as, ref, target_of
from graphspec.program_code import compile_user_code

_RUNTIME_NAMES = (("engine.agents", "langchain.agents"), ("engine", "langgraph"))
"""The engine's modules under langgraph's names (`graphspec.engine_world` maps them back)."""


def neutral(path: str) -> str:
    """`path` with an engine module named as langgraph's (the same on both runtimes)."""
    for ours, theirs in _RUNTIME_NAMES:
        if path == ours or path.startswith((f"{ours}.", f"{ours}:")):
            return theirs + path[len(ours) :]
    return path


def call_ref(obj: Any, element_id: str, modules: list[Any] = ()) -> dict[str, Any]:
    """`obj` as a spec code reference with `call`: the importable call that makes it again,
    verified by making it; SpecError naming `element_id` when there is none."""
    if isinstance(obj, functools.partial):
        return _partial_call(obj, element_id, list(modules))
    fn = _function_of(obj)
    if fn is not None and ".<locals>." in defined_as(fn):
        return _factory_call(obj, fn, element_id, list(modules))
    label = getattr(fn, "__qualname__", None) or type(obj).__name__
    raise SpecError(f"{element_id}: {label} is no module-level object, partial or closure a "
                    "module-level factory makes, so no import path or call reaches it",
                    element_id=element_id)  # fmt: skip


def _function_of(obj: Any) -> Any:
    """The function `obj` runs: itself, a tool's function or a runnable's."""
    if inspect.isfunction(obj):
        return obj
    inner = target_of(obj)
    if inspect.isfunction(inner):
        return inner
    inner = getattr(obj, "func", None) or getattr(obj, "coroutine", None)
    return inner if inspect.isfunction(inner) else None


# ------------------------------------------------------------------ partials


def _partial_call(part: functools.partial, element_id: str, modules: list[Any]) -> dict:
    func = part.func
    where = getattr(func, "__globals__", {})
    for name, maker in list(where.items()):
        if name.startswith("_") or maker is func or not inspect.isfunction(maker):
            continue
        if maker.__module__ != where.get("__name__") or not _mentions(maker, func):
            continue
        args, keywords = _rebuilt(part.args), _rebuilt(part.keywords)
        try:
            inspect.signature(maker).bind(*args, **keywords)
            with world_of(maker):
                made = maker(*args, **keywords)
        except Exception:  # not its maker: another function of the module
            continue
        if equivalent(made, part):
            return _written(f"{maker.__module__}:{name}", args, keywords, element_id, modules,
                            name)  # fmt: skip
    try:
        func_path = ref(func, element_id, modules)
    except SpecError as exc:
        raise SpecError(f"{element_id}: functools.partial of {func.__qualname__}: no import path "
                        f"reaches its function ({exc.line()})", element_id=element_id) from None  # fmt: skip
    args = [_Ref(func_path), *part.args]
    return _written("functools:partial", args, part.keywords, element_id, modules, "partial")


def _mentions(maker: Any, func: Any) -> bool:
    """`maker` makes partials of `func`: it wraps it or names it in its code."""
    return getattr(maker, "__wrapped__", None) is func or func.__name__ in maker.__code__.co_names


class _Ref:
    """An argument already known as an import path."""

    def __init__(self, path: str) -> None:
        self.path = path


# ------------------------------------------------------------------ closures


def _factory_call(obj: Any, fn: Any, element_id: str, modules: list[Any]) -> dict:
    head = defined_as(fn).split(".<locals>.")[0]
    home = fn.__globals__.get("__name__", "?")
    factory = fn.__globals__.get(head) if head.isidentifier() else None

    def refuse(why: str) -> SpecError:
        return SpecError(f"{element_id}: {defined_as(fn)} is not a module-level function, and "
                         f"as a closure made by {home}:{head} the spec cannot make it again: "
                         f"{why}; move it to module level", element_id=element_id)  # fmt: skip

    # a decorated factory (langchain's @beta) is called as the module has it, but defines
    # the closure in the function it wraps
    defining = inspect.unwrap(factory) if inspect.isfunction(factory) else None
    if defining is None or defining.__code__ is not _outer_code(fn, defining):
        raise refuse(f"{head} is not a module-level function of {home}")
    known = _cells(fn, head)
    params = inspect.signature(factory).parameters.values()
    wrapped = obj is not fn
    values: dict[str, Any] = {}
    missing = []
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in known:
            values[p.name] = known[p.name]
        elif wrapped and p.name in _attributes(obj):
            values[p.name] = _attributes(obj)[p.name]
        elif p.default is p.empty:
            missing.append(p.name)
    if missing:
        raise refuse(f"neither its closure nor the object it runs in keeps its argument(s) "
                     f"{', '.join(missing)}")  # fmt: skip
    defaults = {p.name: p.default for p in params if p.default is not p.empty}
    values = {
        k: v for k, v in values.items() if not (k in defaults and _same_value(v, defaults[k]))
    }
    positional = [p.name for p in params if p.kind == p.POSITIONAL_ONLY]

    values = {k: _rebuilt(v) for k, v in values.items()}  # as the spec will give them

    def made_by(chosen: dict[str, Any]) -> bool:
        args = [chosen[n] for n in positional if n in chosen]
        kwargs = {k: v for k, v in chosen.items() if k not in positional}
        try:
            with world_of(factory):
                made = factory(*args, **kwargs)
        except Exception:  # the factory refuses these arguments: not how it was called
            return False
        return _matches(made, obj)

    if not made_by(values):
        shown = ", ".join(f"{k}={_short(v)}" for k, v in values.items())
        raise refuse(f"{head}({shown}), called with what its closure keeps, does not return "
                     "the same object")  # fmt: skip
    for name in [n for n in values if n in defaults]:  # what the factory works out itself
        fewer = {k: v for k, v in values.items() if k != name}
        if made_by(fewer):
            values = fewer
    args = [values.pop(n) for n in positional if n in values]
    return _written(f"{home}:{head}", args, values, element_id, modules, head)


def _outer_code(fn: Any, factory: Any) -> Any:
    """The factory's code object when `fn` is defined in it (else None)."""
    for const in factory.__code__.co_consts:
        if inspect.iscode(const) and _defines(const, fn.__code__):
            return factory.__code__
    return None


def _defines(code: Any, target: Any) -> bool:
    if code is target:
        return True
    return any(inspect.iscode(c) and _defines(c, target) for c in code.co_consts)


def _cells(fn: Any, head: str) -> dict[str, Any]:
    """The values `fn`'s closure keeps, with those of the closures its factory made beside it."""
    found: dict[str, Any] = {}
    todo, seen = [fn], set()
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        for name, cell in zip(
            current.__code__.co_freevars, current.__closure__ or (), strict=False
        ):
            try:
                value = cell.cell_contents
            except ValueError:  # not yet bound
                continue
            found.setdefault(name, value)
            inner = _function_of(value)
            if inner is not None and defined_as(inner).startswith(f"{head}.<locals>."):
                todo.append(inner)
    return found


def _attributes(obj: Any) -> dict[str, Any]:
    """A wrapper's own attributes (a tool's fields)."""
    try:
        return dict(vars(obj))
    except TypeError:
        return {}


def world_of(fn: Any) -> Any:
    """Where `fn` runs: the engine's world when its module is the copy a program loaded on the
    engine imported (`graphspec.engine_world`), so what it imports while it runs is too."""
    from contextlib import nullcontext

    from graphspec.engine_world import on_engine

    where = getattr(fn, "__globals__", None)
    home = sys.modules.get((where or {}).get("__name__", ""))
    return (
        nullcontext()
        if where is None or (home is not None and vars(home) is where)
        else on_engine()
    )


def _rebuilt(value: Any) -> Any:
    """`value` as the spec gives it back: its tuples of data are lists."""
    if isinstance(value, (list, tuple)) and type(value) in (list, tuple):
        return [_rebuilt(v) for v in value]
    if type(value) is dict:
        return {k: _rebuilt(v) for k, v in value.items()}
    return value


def _matches(made: Any, obj: Any) -> bool:
    """The factory's value is the graph's: the same object, or a runnable around the same
    function (a node the graph holds by its function)."""
    if equivalent(made, obj):
        return True
    return type(made).__name__ == "RunnableCallable" and equivalent(target_of(made), obj)


def _same_value(a: Any, b: Any) -> bool:
    try:
        return a is b or (type(a) is type(b) and bool(a == b))
    except Exception:
        return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def closure_code(fn: Any, element_id: str) -> dict[str, str] | None:
    """A closure no call makes again (its factory returns something else, such as the builder
    it added the closure to) as inline code: its own source inside a function binding its free
    variables to the values they hold, when each is JSON data, after imports of the globals it
    reads from where they are defined. None when it cannot be kept so."""
    if not inspect.isfunction(fn) or not fn.__closure__:
        return None
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        [tree] = ast.parse(source).body
    except (OSError, TypeError, SyntaxError, ValueError):
        return None
    cells = dict(zip(fn.__code__.co_freevars, map(_content, fn.__closure__), strict=True))
    if (not isinstance(tree, (ast.FunctionDef, ast.AsyncFunctionDef)) or tree.decorator_list
            or tree.name != fn.__name__ or not all(map(_plain, cells.values()))):  # fmt: skip
        return None
    from graphspec.trust import runtime_names

    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(cells)
    names = sorted(n for n in read if n in fn.__globals__ and n not in runtime_names())
    imports = [_import_line(n, fn.__globals__) for n in names]
    if None in imports:
        return None
    maker = f"_make_{fn.__name__}"
    bound = "".join(f"    {name} = {value!r}\n" for name, value in cells.items())
    body = textwrap.indent(source.strip(), "    ")
    code = "\n".join([*sorted(set(imports)), "", ""]) if imports else ""
    code += f"def {maker}():\n{bound}\n{body}\n\n    return {fn.__name__}\n\n\n"
    return {"code": f"{code}{fn.__name__} = {maker}()\n", "function": fn.__name__}


def built_node_code(
    made: tuple[Any, ast.expr], node: str, runnable: Any, element_id: str, branch: str = ""
) -> dict[str, Any] | None:
    """A node a library's graph factory made inside the builder it returns (`create_codeact`'s
    `call_model`), or with `branch` the router of the node's branch of that name (`bigtool`'s
    `should_continue`), when the program made that builder by a call in its source: code
    returning that node (router) of the graph the call makes again
    (`factory(args).nodes[node].runnable`, the program's names read from its module, so each
    runtime gets its own load of the program), verified by making it; None when it cannot be."""
    module, expr = made
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}
    if (
        not isinstance(expr, ast.Call)
        or not names <= set(vars(module))
        or not all(part.isidentifier() for part in module.__name__.split("."))
    ):
        return None

    class _FromModule(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            return ast.parse(f"{module.__name__}.{name.id}", mode="eval").body

    again = ast.unparse(_FromModule().visit(ast.parse(ast.unparse(expr), mode="eval")).body)
    reach = f".branches[{node!r}][{branch!r}].path" if branch else f".nodes[{node!r}].runnable"
    function = re.sub(r"\W", "_", f"{node}_{branch}_router" if branch else f"{node}_node",
                      flags=re.ASCII)[:60]  # fmt: skip
    function = function if function[:1].isalpha() else f"n_{function}"
    for graph in ("", ".builder"):  # a builder, or a graph compiled from one
        code = (f"import {module.__name__}\n\n\ndef {function}():\n    return {again}{graph}"
                f"{reach}\n")  # fmt: skip
        space: dict[str, Any] = {}
        try:
            with world_of(_function_of(runnable) or runnable):
                exec(compile_user_code(code, f"<node {element_id}>"), space)  # the program's call
                again_made = space[function]()
        except Exception:  # not this shape of graph
            continue
        if _matches(again_made, runnable) or equivalent(target_of(again_made), target_of(runnable)):
            return {"code": code, "function": function, "call": {}}
    return None


def _import_line(name: str, where: dict[str, Any]) -> str | None:
    """An import giving `name` what it names in `where`, from the module that defines it (the
    same on both runtimes); None for an object of the graph runtime or one held nowhere."""
    value = where[name]
    if inspect.ismodule(value):
        home = value.__name__
        line = f"import {home}" if home == name else f"import {home} as {name}"
    else:
        home = str(getattr(value, "__module__", None) or where.get("__name__", ""))
        own = getattr(value, "__name__", name)
        if getattr(sys.modules.get(home), own, None) is not value:
            home, own = str(where.get("__name__", "")), name
        line = f"from {home} import {own}" + (f" as {name}" if own != name else "")
    return None if neutral(home) != home or home.startswith("langgraph") else line


# ------------------------------------------------------------------ the spec's form


def source_call(call: ast.Call, callee: Any, module: Any, owner: str) -> dict[str, Any]:
    """`call`, an expression of `module`'s source calling `callee` (a library's class), as a
    code reference with `call`: each argument JSON data, a module-level object by path, a list
    or dict of them, or an expression the program wrote there (a model it made inline) as code
    returning it. The value is made as the program made it, so nothing is compared."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None
                                                                 for k in call.keywords):  # fmt: skip
        raise SpecError(f"{owner}: {ast.unparse(call)[:80]} passes *args or **kwargs; name its "
                        "arguments", element_id=owner)  # fmt: skip
    made: dict[str, Any] = {}
    if call.args:
        made["args"] = [_written_argument(a, module, owner, f"arg{i}")
                        for i, a in enumerate(call.args)]  # fmt: skip
    if call.keywords:
        made["kwargs"] = {k.arg: _written_argument(k.value, module, owner, str(k.arg))
                          for k in call.keywords}  # fmt: skip
    return {"import_path": _public_path(callee), "call": made}


def written_ref(node: ast.expr, module: Any, owner: str, where: str) -> dict[str, Any]:
    """What `node`, an expression of `module`'s source, gives, as a code reference: a
    module-level object by path, the expression as code returning it, or (when it calls the
    graph runtime, whose objects differ by runtime) the call as written."""
    from graphspec.import_refs import expression_code

    if isinstance(node, ast.Name) and node.id in vars(module):
        return {"import_path": neutral(ref(vars(module)[node.id], owner, [module]))}
    digest = hashlib.sha1(ast.unparse(node).encode("utf-8")).hexdigest()[:6]
    name = re.sub(r"\W", "_", f"{owner[:24]}_{where[:24]}_{digest}", flags=re.ASCII)
    try:
        code = expression_code(node, module, name if name[:1].isalpha() else f"v_{name}", owner,
                               f"the argument {where}")  # fmt: skip
        return {**code, "call": {}}
    except SpecError:
        callee = vars(module).get(called_name(node))
        if not callable(callee):
            raise
    return source_call(node, callee, module, owner)  # type: ignore[arg-type]


def _public_path(callee: Any) -> str:
    """`module:name` of `callee` from the highest package that exports it (the engine's
    `engine.agents:create_agent`, not the module defining it), as on langgraph."""
    parts = str(callee.__module__).split(".")
    for i in range(1, len(parts) + 1):
        home = ".".join(parts[:i])
        if getattr(sys.modules.get(home), callee.__name__, None) is callee:
            return neutral(f"{home}:{callee.__name__}")
    return neutral(f"{callee.__module__}:{callee.__qualname__}")


def _written_argument(node: ast.expr, module: Any, owner: str, where: str) -> dict[str, Any]:
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    else:
        if _plain(value):
            return {"value": value} if value is not None else {}
    if isinstance(node, (ast.List, ast.Tuple)):
        return {"items": [_written_argument(e, module, owner, where) for e in node.elts]}
    if isinstance(node, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys
    ):
        return {"entries": {k.value: _written_argument(v, module, owner, f"{where}_{k.value}")
                            for k, v in zip(node.keys, node.values, strict=True)}}  # fmt: skip
    return {"ref": written_ref(node, module, owner, where)}


def _written(path: str, args: Any, kwargs: dict[str, Any], element_id: str, modules: list[Any],
             what: str) -> dict[str, Any]:  # fmt: skip
    """The code reference `path(*args, **kwargs)`, each argument JSON data or a reference."""
    call: dict[str, Any] = {}
    if args:
        call["args"] = [_argument(v, f"{what} argument {i + 1}", element_id, modules)
                        for i, v in enumerate(args)]  # fmt: skip
    if kwargs:
        call["kwargs"] = {k: _argument(v, f"{what} argument {k}", element_id, modules)
                          for k, v in kwargs.items()}  # fmt: skip
    return {"import_path": neutral(path), "call": call}


def _argument(value: Any, where: str, element_id: str, modules: list[Any]) -> dict[str, Any]:
    if isinstance(value, _Ref):
        return {"ref": {"import_path": neutral(value.path)}}
    if _plain(value):
        return {"value": json.loads(json.dumps(value))} if value is not None else {}
    if isinstance(value, (list, tuple)):
        return {"items": [_argument(v, where, element_id, modules) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"entries": {k: _argument(v, where, element_id, modules) for k, v in value.items()}}
    try:
        return {"ref": {"import_path": neutral(ref(value, element_id, modules))}}
    except SpecError as exc:
        held = exc
    if isinstance(value, functools.partial) or _function_of(value) is not None:
        return {"ref": call_ref(value, element_id, modules)}
    raise SpecError(f"{element_id}: the {where} is {_short(value)}: neither JSON data nor an "
                    f"object a module-level name holds ({held.line()})", element_id=element_id)  # fmt: skip


def _plain(value: Any) -> bool:
    """JSON data the call can be written with (a tuple is not: it would come back a list)."""
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


# ------------------------------------------------------------------ made again the same?


_BUDGET = 20_000
"""How many values one comparison may visit (a graph's whole object tree is not compared)."""


def equivalent(a: Any, b: Any) -> bool:
    """`a` and `b` behave the same as far as what they hold shows: the same code, closure
    values, defaults and attributes, a pydantic schema class the same schema; the same object
    anywhere below counts as equal."""
    return _Compare().same(a, b, 0)


class _Compare:
    def __init__(self) -> None:
        self.visited = 0
        self.pairs: set[tuple[int, int]] = set()

    def same(self, a: Any, b: Any, depth: int) -> bool:
        if a is b:
            return True
        self.visited += 1
        if type(a) is not type(b) or depth > 12 or self.visited > _BUDGET:
            return False
        if (id(a), id(b)) in self.pairs:  # a cycle: decided where it started
            return True
        self.pairs.add((id(a), id(b)))
        deeper = depth + 1
        if isinstance(a, (str, bytes, int, float, bool, complex, type(None))):
            return a == b
        if isinstance(a, (list, tuple)):
            return len(a) == len(b) and all(
                self.same(x, y, deeper) for x, y in zip(a, b, strict=True)
            )
        if isinstance(a, dict):
            return a.keys() == b.keys() and all(self.same(a[k], b[k], deeper) for k in a)
        if isinstance(a, (set, frozenset)):
            return _same_value(a, b)
        if inspect.isfunction(a):
            return self.functions(a, b, deeper)
        if inspect.ismethod(a):
            return self.same(a.__func__, b.__func__, deeper) and self.same(
                a.__self__, b.__self__, deeper
            )
        if isinstance(a, functools.partial):
            return (self.same(a.func, b.func, deeper) and self.same(a.args, b.args, deeper)
                    and self.same(a.keywords, b.keywords, deeper))  # fmt: skip
        if isinstance(a, type):
            schema = getattr(a, "model_json_schema", None)
            try:
                return schema is not None and schema() == b.model_json_schema()
            except Exception:  # a field of a type JSON Schema has no words for (a store)
                return self.fields(a, b)
        if inspect.ismodule(a) or inspect.iscode(a):
            return False
        try:
            mine, theirs = vars(a), vars(b)
        except TypeError:
            return _same_value(a, b)
        return self.same(mine, theirs, deeper)

    @staticmethod
    def fields(a: type, b: type) -> bool:
        """Two pydantic models with the same name and fields: each field's annotation, default
        and metadata as its repr shows them (a tool's argument schema, made afresh per tool)."""
        mine, theirs = getattr(a, "model_fields", None), getattr(b, "model_fields", None)
        if not isinstance(mine, dict) or not isinstance(theirs, dict):
            return False
        return (a.__name__ == b.__name__ and mine.keys() == theirs.keys()
                and all(repr(mine[k]) == repr(theirs[k]) for k in mine))  # fmt: skip

    def functions(self, a: Any, b: Any, depth: int) -> bool:
        if a.__code__ is not b.__code__ and a.__code__ != b.__code__:
            return False
        if a.__globals__ is not b.__globals__:
            return False
        cells_a = [_content(c) for c in a.__closure__ or ()]
        cells_b = [_content(c) for c in b.__closure__ or ()]
        return (
            self.same(a.__defaults__, b.__defaults__, depth)
            and self.same(a.__kwdefaults__, b.__kwdefaults__, depth)
            and self.same(cells_a, cells_b, depth)
            and self.same(vars(a), vars(b), depth)
        )


def _content(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _Unbound


class _Unbound:
    """A closure cell not yet bound."""


__all__ = [
    "built_node_code",
    "call_ref",
    "closure_code",
    "equivalent",
    "neutral",
    "source_call",
    "written_ref",
]
