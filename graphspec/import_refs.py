"""Import paths for the objects an imported graph runs: `module:name` that resolves back to them.

A spec names a function by where it lives, so the path is checked by resolving it: a path that
gives another object is never written. The module's globals are searched for the object itself,
for a tool wrapping it (`name.func`) and for the instance a bound method belongs to
(`name.method`), so async functions, callable objects, `@tool` functions and methods of
module-level objects all get a path. A plain function a later `def` with the same name shadowed
(`code_ref`) becomes inline code: its source after imports of the module globals it reads, which
is what it found when it ran; so do a module-level lambda (`lambda_code`, a function with its
arguments returning its body) and an expression of the module (`expression_code`, a chat model
the program made, as a function returning it). Anything else is refused with the element's id.
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import re
import sys
import textwrap
from collections.abc import Iterable
from typing import Any

from graphspec.errors import SpecError


def split_target(text: str) -> tuple[str, str | None]:
    """`file.py:ATTR` or `pkg.module:ATTR` -> (module, ATTR); a Windows drive colon stays."""
    head, sep, tail = text.rpartition(":")
    if sep and tail.isidentifier() and head and not (len(head) == 1 and head.isalpha()):
        return head, tail
    return text, None


def target_of(runnable: Any) -> Any:
    """What a node or branch runs: a RunnableCallable's function (`afunc` for a coroutine, whose
    `func` is None), else the object itself."""
    if type(runnable).__name__ == "RunnableCallable":
        return getattr(runnable, "func", None) or getattr(runnable, "afunc", None)
    return runnable


def _modules(module_name: str) -> list[Any]:
    """The loaded modules of that name: this world's, and the engine world's copy of a package
    built on langgraph, which a program loaded on the engine sees (`graphspec.engine_world`)."""
    from graphspec.engine_world import engine_module

    return [m for m in (sys.modules.get(module_name), engine_module(module_name)) if m is not None]


def _resolve(module_name: str, attr: str, obj: Any = None) -> Any:
    """`module:attr`'s value: `obj` itself when either world's module of that name holds it."""
    found = None
    for value in _modules(module_name):
        for part in attr.split("."):
            value = getattr(value, part, None)
        if _same(value, obj):
            return value
        found = value if found is None else found
    return found


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    # bound methods are made afresh on each access: equal when function and instance are
    return hasattr(a, "__self__") and hasattr(b, "__func__") and a == b


def _paths_in(module: Any, obj: Any) -> Iterable[str]:
    for name, value in list(vars(module).items()):
        if name.startswith("__"):
            continue
        if _same(value, obj):
            yield f"{module.__name__}:{name}"
        elif type(value).__name__ in ("StructuredTool", "Tool") and obj is not None:
            for attr in ("func", "coroutine"):
                if getattr(value, attr, None) is obj:
                    yield f"{module.__name__}:{name}.{attr}"
        elif (
            value is not None
            and getattr(obj, "__self__", None) is value
            and not isinstance(value, type)
        ):  # a bound method of a module-level object (a module's None is no object of it)
            yield f"{module.__name__}:{name}.{obj.__name__}"


def ref(obj: Any, element_id: str, modules: Iterable[Any] = ()) -> str:
    """`module:attr` naming `obj`, checked by resolving it; SpecError when none does."""
    module_name = getattr(obj, "__module__", None)
    named = inspect.isroutine(obj) or isinstance(obj, type)  # an instance has its class's name
    qualname = getattr(obj, "__qualname__", None) if named else None
    if module_name and qualname and "<" not in qualname:
        if _same(_resolve(module_name, qualname, obj), obj):
            return f"{module_name}:{qualname}"
    search = [*_modules(module_name or ""), *modules]
    seen: set[int] = set()
    for module in search:
        if module is None or id(module) in seen:
            continue
        seen.add(id(module))
        for path in _paths_in(module, obj):
            if not path.startswith("__main__:"):
                return path
    label = qualname or type(obj).__name__
    if qualname and "<" in qualname:
        why = (
            "is not a module-level function, so it cannot be referenced by import path; move it "
            "to module level"
        )
    elif module_name and qualname and _resolve(module_name, qualname) is not None:
        raise Shadowed(
            f"{element_id}: {label} is shadowed: {module_name}:{qualname} names another object "
            "(a later definition with the same name replaced it), so the node would run the "
            "wrong function; give each function its own name",
            element_id=element_id,
        )
    else:
        why = "is not reachable from a module-level name, so it cannot be referenced by import path"
    raise SpecError(f"{element_id}: {label} {why}", element_id=element_id)


class Shadowed(SpecError):
    """The object's own module-level name now names another object."""


def code_ref(obj: Any, element_id: str, modules: Iterable[Any] = ()) -> dict[str, Any]:
    """A spec code reference to `obj`: its import path, or for a function a later definition
    shadowed, its source as inline code (`shadowed_code`); for a partial or a closure a
    factory made, the call that makes it again, or a closure of JSON values as code
    (`graphspec.call_refs`)."""
    try:
        return {"import_path": ref(obj, element_id, modules)}
    except Shadowed:
        return shadowed_code(obj, element_id)
    except SpecError:
        if getattr(obj, "__name__", "") == "<lambda>" and obj.__qualname__ == "<lambda>":
            return lambda_code(obj, element_id)
        if not made_by_call(obj):
            raise
    from graphspec.call_refs import call_ref, closure_code  # they build on ref()

    try:
        return call_ref(obj, element_id, list(modules))
    except SpecError:
        kept = closure_code(obj, element_id)
        if kept is None:
            raise
        return kept


def made_by_call(obj: Any) -> bool:
    """A partial, or a closure a function made: a call may make it again (`call_refs`)."""
    return isinstance(obj, functools.partial) or ".<locals>." in defined_as(obj)


def defined_as(fn: Any) -> str:
    """Where a function was defined (`factory.<locals>.wrapper`): its code's qualified name,
    which a wrapper named after what it wraps (`functools.wraps`) keeps; else its own."""
    code = getattr(fn, "__code__", None)
    return str(getattr(code, "co_qualname", None) or getattr(fn, "__qualname__", "") or "")


def lambda_code(fn: Any, element_id: str) -> dict[str, str]:
    """A module-level lambda (`add_node("a", lambda state: ...)`) as inline code: a function
    with its arguments returning its body, after imports of the module globals it reads."""
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    try:
        tree = ast.parse(inspect.getsource(module)) if module is not None else None
    except (OSError, TypeError, SyntaxError):
        tree = None
    line, arity = fn.__code__.co_firstlineno, fn.__code__.co_argcount
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == line
             and len(n.args.posonlyargs) + len(n.args.args) == arity] if tree else []  # fmt: skip
    if len(found) != 1:
        why = "its source cannot be read" if not found else "it is not alone on its line"
        raise SpecError(f"{element_id}: the lambda on line {line} cannot be kept as code: {why}; "
                        "make it a module-level function", element_id=element_id)  # fmt: skip
    name = re.sub(r"\W", "_", element_id, flags=re.ASCII).strip("_")[:50]
    name = f"{name}_lambda" if name[:1].isalpha() else "node_lambda"
    names = [n for n in _globals_read(found[0], module) if n not in _args_of(found[0])]
    if foreign := _of_runtime(names, module):
        raise SpecError(f"{element_id}: the lambda on line {line} cannot be kept as code: it "
                        f"uses {', '.join(foreign)} from the graph runtime, which differs by "
                        "runtime; make it a module-level function", element_id=element_id)  # fmt: skip
    source = f"def {name}({ast.unparse(found[0].args)}):\n    return {ast.unparse(found[0].body)}\n"
    return {"code": _with_imports(source, names, module), "function": name}


def _args_of(node: ast.Lambda) -> set[str]:
    return {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}


_STDLIB = {"operator": "import operator", "Any": "from typing import Any",
           "Annotated": "from typing import Annotated", "TypedDict": "from typing import TypedDict"}  # fmt: skip
"""Names the exported module imports itself: code imports them the same way."""
_RUNTIMES = ("langgraph", "engine", "langchain.agents")
"""Where objects differ by runtime (a program loaded on the engine gets the engine's)."""


def shadowed_code(fn: Any, element_id: str) -> dict[str, str]:
    """A shadowed module-level function as inline code: its source, after imports of the module
    globals it reads from its module (what it would have found there when it ran)."""
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    why = ""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        [tree] = ast.parse(source).body
    except (OSError, TypeError, SyntaxError, ValueError):
        why, tree = "its source cannot be read", None
    if tree is not None and (not inspect.isfunction(fn) or module is None
                             or not isinstance(tree, (ast.FunctionDef, ast.AsyncFunctionDef))
                             or tree.decorator_list or fn.__closure__):  # fmt: skip
        why = ("it is decorated, a method or a closure, so its source is not the object the "
               "graph runs")  # fmt: skip
    names = _globals_read(tree, module) if tree is not None and module is not None else []
    if not why and fn.__name__ in names:
        why = "it refers to its own name, which now names the later function"
    if not why and (foreign := _of_runtime(names, module)):
        why = f"it uses {', '.join(foreign)} from the graph runtime, which differs by runtime"
    if why:
        raise SpecError(f"{element_id}: {fn.__qualname__} is shadowed (a later definition with "
                        f"the same name replaced it) and cannot be kept as code: {why}; give each "
                        "function its own name", element_id=element_id)  # fmt: skip
    return {"code": _with_imports(source, names, module), "function": fn.__name__}


def expression_code(expr: ast.expr, module: Any, function: str, element_id: str,
                    what: str) -> dict[str, str]:  # fmt: skip
    """`expr`, an expression of `module`'s source, as inline code: a function `function`
    returning it, after imports of the module globals it reads (what it found when it ran)."""
    from graphspec.trust import runtime_names

    bound = {n.arg for n in ast.walk(expr) if isinstance(n, ast.arg)} | {
        n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    unknown = sorted({n.id for n in ast.walk(expr) if isinstance(n, ast.Name)
                      and n.id not in vars(module) and n.id not in bound
                      and n.id not in vars(builtins) and n.id not in runtime_names()})  # fmt: skip
    names = _globals_read(expr, module)
    why = (f"it reads {', '.join(unknown)}, which no module-level name holds" if unknown else
           f"it uses {', '.join(foreign)} from the graph runtime, which differs by runtime"
           if (foreign := _of_runtime(names, module)) else "")  # fmt: skip
    if why:
        raise SpecError(f"{element_id}: {what} {ast.unparse(expr)!r:.100} cannot be kept as "
                        f"code: {why}", element_id=element_id)  # fmt: skip
    source = f"def {function}():\n    return {ast.unparse(expr)}\n"
    return {"code": _with_imports(source, names, module), "function": function}


def _globals_read(tree: ast.AST, module: Any) -> list[str]:
    """The names `tree` reads that `module` holds (the runtime's own names left out: inline code
    gets the runtime's)."""
    from graphspec.trust import runtime_names  # trust imports the model; we are imported first

    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})
    return [n for n in names if n in vars(module) and n not in runtime_names()]


def _of_runtime(names: list[str], module: Any) -> list[str]:
    """Those of `names` whose objects come from the graph runtime (they differ by runtime)."""
    return [n for n in names if n not in _STDLIB
            and str(getattr(vars(module)[n], "__module__", "") or "").startswith(_RUNTIMES)]  # fmt: skip


def _with_imports(source: str, names: list[str], module: Any) -> str:
    """`source` after imports of the module globals `names`."""
    lines = [_STDLIB[n] for n in names if n in _STDLIB]
    rest = [n for n in names if n not in _STDLIB]
    if rest:
        lines.append(f"from {module.__name__} import {', '.join(rest)}")
    code = "\n".join([*lines, "", "", source.strip()]) if lines else source.strip()
    return code + "\n"


def module_assignments(module: Any) -> dict[str, ast.expr]:
    """Each module-level `name = <expression>` of `module`'s source, by name."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return {}
    out = {
        target.id: stmt.value
        for stmt in top_statements(tree.body)
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
    out.update(
        {  # `name: Type = <expression>`
            stmt.target.id: stmt.value
            for stmt in top_statements(tree.body)
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value
        }
    )
    return out


def top_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body run with it: its own and those in its with/if/try blocks (not
    those of the functions and classes it defines)."""
    out = []
    for stmt in body:
        out.append(stmt)
        for field in ("body", "orelse", "finalbody", "handlers"):
            if isinstance(stmt, (ast.With, ast.If, ast.Try, ast.ExceptHandler)):
                out += top_statements(getattr(stmt, field, []))
    return out


def literal_setting(node: ast.expr, element_id: str) -> Any:
    """A setting written as a Python literal in the program's source; SpecError otherwise."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise SpecError(
            f"{element_id}: {ast.unparse(node)} is not a literal setting", element_id=element_id
        ) from None


def called_name(call: ast.expr) -> str:
    """The name a call expression calls (`f` of `f(...)`), or ""."""
    return call.func.id if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) else ""


__all__ = [
    "Shadowed",
    "called_name",
    "code_ref",
    "literal_setting",
    "defined_as",
    "made_by_call",
    "module_assignments",
    "expression_code",
    "lambda_code",
    "ref",
    "shadowed_code",
    "target_of",
    "top_statements",
]
