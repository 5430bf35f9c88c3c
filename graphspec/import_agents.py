"""Agents in an imported graph: `create_agent` graphs (langchain.agents or engine.agents) and
`create_react_agent` graphs (langgraph.prebuilt or engine.prebuilt) become agent specs, a
`ToolNode` a tools node with its tools.

The model, system prompt, tools, response_format and context schema are read from the compiled
agent (the model node's closure and its ToolNode); the ordered middleware list, the state schema
and a non-scripted model's `init_chat_model(...)` arguments from the module-level
`name = create_agent(...)` call in the module's source (or the call a module-level factory
returns). Middleware: prebuilt ones with literal settings, custom hooks as `hook(fn)` on
module-level functions, and the program's own AgentMiddleware by import path (a module-level
instance, a `@before_model`-style decorated function, or a subclass the module defines built
with literal keyword settings). Without that source, only the prebuilt middleware that have
graph nodes come back, with the settings their instances keep as JSON. A model of a class no
provider names (the program's own) becomes a `factory`: code making it as the program wrote it
in the call, or returning the module-level variable holding it. A middleware's own tools are
left to the middleware, which brings them back.
A `create_react_agent(model, tools, prompt=...)` is read from its call: without its own
arguments (response_format, pre/post model hooks, state and context schemas, each a
module-level name) it is create_agent's loop and is built with create_agent; with them it is
built with create_react_agent again. Arguments the spec has no place for are refused, naming
them.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import re
import sys
import textwrap
from typing import Any

from engine.agents.hooks import HOOKS
from graphspec.call_refs import call_ref, source_call
from graphspec.engine_world import WORLD_PACKAGES
from graphspec.errors import SpecError
from graphspec.import_deep_agents import deep_agent_spec
from graphspec.import_refs import called_name as _called
from graphspec.import_refs import (
    code_ref,
    expression_code,
    made_by_call,
    module_assignments,
    ref,
    target_of,
    top_statements,
)
from graphspec.import_refs import literal_setting as _literal
from graphspec.model import PREBUILT_MIDDLEWARE
from graphspec.providers import PROVIDER_PACKAGES

_PREBUILT_BY_CLASS = {cls: name for name, cls in PREBUILT_MIDDLEWARE.items()}


class Scope:
    """Where a graph's agents were built: the modules of its state schema and tools, whose source
    holds the `create_agent(...)` calls (middleware list, model construction) as written."""

    def __init__(self, builder: Any, made: tuple[Any, Any, ast.expr] | None = None) -> None:
        schema = getattr(builder, "state_schema", None)
        self.modules = [sys.modules.get(getattr(schema, "__module__", ""))]
        self.seen: dict[int, str] = {}
        self._trees: dict[str, dict[str, ast.expr]] = {}
        self._made = {id(made[0]): made[1:]} if made is not None else {}

    def assignment(self, obj: Any, extra: list[Any]) -> tuple[Any, ast.expr] | None:
        """The module-level `name = <expression>` that made `obj`, with its module; through a
        module-level factory (`graph = make_graph()`), the call its function returns."""
        if id(obj) in self._made:
            module, expr = self._made[id(obj)]
            return module, _returned(module, expr)
        for module in [*self.modules, *extra]:
            if module is None:
                continue
            for name, value in vars(module).items():
                if value is obj and (expr := self.module_assignments(module).get(name)) is not None:
                    return module, _returned(module, expr)
        return None

    def module_assignments(self, module: Any) -> dict[str, ast.expr]:
        """Each module-level `name = <expression>` of `module`'s source, by name (read once)."""
        if module.__name__ not in self._trees:
            self._trees[module.__name__] = module_assignments(module)
        return self._trees[module.__name__]


def _returned(module: Any, expr: ast.expr) -> ast.expr:
    """For `factory()` of a module-level function whose one `return` gives a call (or a name
    its body assigns a call to), that call; else `expr` itself."""
    factory = vars(module).get(_called(expr)) if not getattr(expr, "args", None) else None
    if not inspect.isfunction(factory) or factory.__module__ != module.__name__:
        return expr
    try:
        [tree] = ast.parse(textwrap.dedent(inspect.getsource(factory))).body
    except (OSError, TypeError, SyntaxError, ValueError):
        return expr
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return) and n.value is not None]
    if len(returns) != 1:
        return expr
    value = returns[0].value
    if isinstance(value, ast.Name):
        calls = [s.value for s in top_statements(tree.body) if isinstance(s, ast.Assign) and
                 any(isinstance(t, ast.Name) and t.id == value.id for t in s.targets)]  # fmt: skip
        value = calls[0] if len(calls) == 1 else value
    return value if isinstance(value, ast.Call) else expr


def _model_fn(builder: Any) -> Any:
    runnable = getattr(builder.nodes.get("model"), "runnable", None)
    return getattr(runnable, "func", None) or getattr(runnable, "afunc", None)


def is_agent(builder: Any) -> bool:
    """A create_agent graph: langchain's model node is a closure in create_agent, the engine's a
    bound `ModelCall.node`."""
    fn = _model_fn(builder)
    if type(getattr(fn, "__self__", None)).__name__ == "ModelCall":
        return True
    return getattr(fn, "__qualname__", "").startswith("create_agent.<locals>.")


def _agent_parts(builder: Any) -> dict[str, Any]:
    """model, system_message and the structured-output settings of a create_agent graph."""
    fn = _model_fn(builder)
    call = getattr(fn, "__self__", None)
    if type(call).__name__ == "ModelCall":
        return {name: getattr(call, name, None) for name in
                ("model", "system_message", "response_format", "structured_output_tools",
                 "name")}  # fmt: skip
    found = _closure(fn)
    found["response_format"] = found.get("initial_response_format")
    return found


def _closure(fn: Any, depth: int = 3) -> dict[str, Any]:
    """Free variables of `fn` and of the nested create_agent functions it closes over."""
    found: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=False):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        found.setdefault(name, value)
        if depth and inspect.isfunction(value):
            for inner, v in _closure(value, depth - 1).items():
                found.setdefault(inner, v)
    return found


Written = tuple[Any, ast.expr] | None
"""Where the program wrote something: its module and the expression, when known."""


def _model_settings(model: Any, source: Written, owner: str, written: Written = None,
                    modules: tuple[Any, ...] = ()) -> dict:  # fmt: skip
    """The spec's settings for a chat model object: `source` is the assignment that made it (an
    `init_chat_model(...)` call), `written` the expression the agent's call gives for it."""
    responses = getattr(model, "responses", None)
    if type(model).__name__ == "ScriptedModel" and isinstance(responses, list):
        out = []
        for i, message in enumerate(responses):
            calls = [
                {
                    "name": c["name"],
                    "args": dict(c.get("args") or {}),
                    # the exporter fills in missing ids as call_<response>_<call>
                    **({"id": c["id"]} if c.get("id") and c["id"] != f"call_{i}_{j}" else {}),
                }
                for j, c in enumerate(getattr(message, "tool_calls", None) or [])
            ]
            content = message.content if isinstance(message.content, str) else ""
            out.append({k: v for k, v in (("content", content), ("tool_calls", calls)) if v})
        return {"provider": "scripted", "responses": out}
    if source is not None and _called(source[1]) == "init_chat_model" and source[1].args:
        call = source[1]
        provider, _, name = str(_literal(call.args[0], owner)).partition(":")
        params = {k.arg: _literal(k.value, owner) for k in call.keywords if k.arg}
        return {"provider": provider, "model": name, "params": params}
    params = model._get_ls_params() if hasattr(model, "_get_ls_params") else {}
    provider = str(params.get("ls_provider") or "")
    if provider not in PROVIDER_PACKAGES and (
        factory := _model_factory(model, written, owner, [*modules])
    ):
        return {"factory": factory}
    return {
        "provider": re.sub(r"[^a-z0-9_\-]", "_", provider or "unknown")[:40],
        "model": str(params.get("ls_model_name") or ""),
    }


def _model_factory(model: Any, written: Written, owner: str, modules: list[Any]) -> dict | None:
    """A model of a class no provider names (the program's own) as code making it as the
    program did: the expression it wrote for it, else the module-level variable holding it;
    None when the program holds it nowhere the spec can point."""
    if written is None:
        held = [(m, ast.Name(id=n, ctx=ast.Load())) for m in modules if m is not None
                for n, v in vars(m).items() if v is model and not n.startswith("_")]  # fmt: skip
        if not held:
            return None
        written = held[0]
    module, expr = written
    digest = hashlib.sha1(ast.unparse(expr).encode("utf-8")).hexdigest()[:6]
    return expression_code(expr, module, f"{owner[:40]}_model_{digest}", owner, "the model")


def _middleware_from_source(call: ast.expr, module: Any, owner: str) -> list[dict[str, Any]]:
    items = next((k.value for k in call.keywords if k.arg == "middleware"), None)
    if isinstance(items, ast.Name):  # a module-level list: `middleware=MIDDLEWARE`
        items = module_assignments(module).get(items.id, items)
    if items is None:
        return []
    if not isinstance(items, ast.List):
        raise SpecError(f"{owner}: the middleware is not a list written out", element_id=owner)
    out: list[dict[str, Any]] = []
    for item in items.elts:
        cls = _called(item)
        if cls in _PREBUILT_BY_CLASS and not any(k.arg is None for k in item.keywords):
            prebuilt = vars(module).get(cls)
            try:
                settings = {**_positional(item, prebuilt, owner),
                            **{k.arg: _literal(k.value, owner) for k in item.keywords}}  # fmt: skip
            except SpecError:  # a setting that is code (ToolErrorMiddleware's on_error): the
                out.append({"kind": "custom", "name": _PREBUILT_BY_CLASS[cls],  # call as written
                            **source_call(item, prebuilt, module, owner),
                            "overrides": _overrides(prebuilt)})  # fmt: skip
                continue
            out.append({"kind": "prebuilt", "name": _PREBUILT_BY_CLASS[cls], "settings": settings})
            continue
        if (imported := _program_middleware(item, module, owner)) is not None:
            out.append(imported)
            continue
        # a custom hook: hook(fn) or hook(can_jump_to=[...])(fn), fn a module-level function
        decorator = item.func if isinstance(item, ast.Call) else None
        hook, jumps = _called(item), []
        if isinstance(decorator, ast.Call):
            hook = _called(decorator)
            jumps = next(
                (_literal(k.value, owner) for k in decorator.keywords if k.arg == "can_jump_to"),
                [],
            )
        fn_name = (
            item.args[0].id
            if hook in HOOKS and len(item.args) == 1 and isinstance(item.args[0], ast.Name)
            else None
        )
        fn = vars(module).get(fn_name) if fn_name else None
        if fn is None:
            raise SpecError(
                f"{owner}: middleware {ast.unparse(item)} is neither a prebuilt middleware nor a "
                "hook decorator on a module-level function",
                element_id=owner,
            )
        middleware = {
            "kind": "custom",
            "name": fn_name,
            "hooks": {hook: code_ref(fn, owner, [module])},
        }
        if jumps:
            middleware["can_jump_to"] = list(jumps)
        out.append(middleware)
    return out


def _positional(call: ast.Call, cls: Any, owner: str) -> dict[str, Any]:
    """A middleware call's positional arguments by the names of its class's parameters (the
    spec's settings are keyword arguments): `PIIMiddleware("email")` is `pii_type="email"`."""
    if not call.args:
        return {}
    try:
        params = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(call.args) > len(names) or any(isinstance(a, ast.Starred) for a in call.args):
        raise SpecError(f"{owner}: middleware {ast.unparse(call)} takes positional arguments its "
                        "class does not name; the spec builds it from keyword settings",
                        element_id=owner)  # fmt: skip
    return {name: _literal(arg, owner) for name, arg in zip(names, call.args, strict=False)}


def _is_middleware(obj: Any) -> bool:
    """An AgentMiddleware (langchain's or the engine's) instance, or with `cls`, subclass."""
    cls = obj if isinstance(obj, type) else type(obj)
    return any(c.__name__ == "AgentMiddleware" for c in cls.__mro__[1:])


def _overrides(cls: type) -> list[str]:
    """The hooks (sync or async) `cls` defines over AgentMiddleware's own."""
    base = next(c for c in cls.__mro__ if c.__name__ == "AgentMiddleware")
    return [h for h in HOOKS
            if any(getattr(cls, n, None) is not getattr(base, n, None) for n in (h, f"a{h}"))]  # fmt: skip


_AGENT_LAYERS = ("langchain.agents.middleware", "engine.agents.middleware")
_RUNTIMES = {"langgraph", "langchain"}
"""The packages whose middleware is the agent layer's own (prebuilt or decorators)."""
"""Where the agent layer's middleware lives, on langgraph and on the engine."""


def _on_both_runtimes(cls: type, module: Any, label: str, owner: str) -> None:
    """The spec points at middleware that runs on the engine and on langgraph: classes the
    program defines (loaded on the engine, its langchain imports are the engine's), the classes
    langchain's hook decorators make, and the prebuilt ones; a class another package defines
    keeps langchain's agent layer, which the engine does not run."""
    home = cls.__module__
    if home == module.__name__ or home in (f"{layer}.types" for layer in _AGENT_LAYERS):
        return
    if cls.__name__ in _PREBUILT_BY_CLASS and home.startswith(_AGENT_LAYERS):
        return
    raise SpecError(f"{owner}: middleware {label} is {home}.{cls.__name__}, defined outside the "
                    "program: the spec holds the program's own middleware and the prebuilt ones "
                    "(define it in the module, or subclass it there)", element_id=owner)  # fmt: skip


def _library_class(item: ast.expr, module: Any) -> Any:
    """The middleware class a package built on langgraph defines (deepagents') that `item`, an
    entry of the middleware list, calls; None for anything else."""
    cls = vars(module).get(_called(item))
    top = getattr(cls, "__module__", "").partition(".")[0]
    if isinstance(cls, type) and _is_middleware(cls) and top in WORLD_PACKAGES - _RUNTIMES:
        return cls
    return None


def _library_homes(call: ast.expr, module: Any) -> set[str]:
    """The modules of the library middleware classes a create_agent call's list calls."""
    items = next((k.value for k in getattr(call, "keywords", []) if k.arg == "middleware"), None)
    found = [_library_class(item, module) for item in getattr(items, "elts", [])]
    return {cls.__module__ for cls in found if cls is not None}


def _program_middleware(item: ast.expr, module: Any, owner: str) -> dict[str, Any] | None:
    """The program's own middleware by import path: a module-level instance (`mw`, a
    `@before_model`-style decorated function, `mw = MyMiddleware(...)`) or a subclass the
    module defines, built with literal keyword arguments (`MyMiddleware(limit=2)`)."""
    if isinstance(item, ast.Name):
        obj = vars(module).get(item.id)
        if obj is None or isinstance(obj, type) or not _is_middleware(obj):
            return None
        _on_both_runtimes(type(obj), module, item.id, owner)
        return {"kind": "custom", "name": item.id, "import_path": ref(obj, owner, [module]),
                "overrides": _overrides(type(obj))}  # fmt: skip
    if (library := _library_class(item, module)) is not None:  # made by its call, as written
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", library.__name__).lower()
        return {"kind": "custom", "name": name if name.isidentifier() else "middleware",
                **source_call(item, library, module, owner), "overrides": _overrides(library)}  # fmt: skip
    cls = vars(module).get(_called(item))
    if not (isinstance(cls, type) and _is_middleware(cls)):
        return None
    _on_both_runtimes(cls, module, cls.__name__, owner)
    if any(k.arg is None for k in item.keywords):
        raise SpecError(f"{owner}: middleware {ast.unparse(item)} takes ** arguments; the spec "
                        "builds it from keyword settings (name them)", element_id=owner)  # fmt: skip
    settings = {**_positional(item, cls, owner),
                **{k.arg: _literal(k.value, owner) for k in item.keywords}}  # fmt: skip
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    out = {"kind": "custom", "name": name if name.isidentifier() else "middleware",
           "import_path": ref(cls, owner, [module]), "build": True, "settings": settings,
           "overrides": _overrides(cls)}  # fmt: skip
    return {k: v for k, v in out.items() if v or k == "build"}


def _middleware_from_nodes(builder: Any) -> list[dict[str, Any]]:
    """Without the source: the prebuilt middleware that have graph nodes, with the settings their
    instances keep under the names of their constructor's arguments."""
    out, seen = [], set()
    for name, node in builder.nodes.items():
        instance = getattr(getattr(node.runnable, "func", None), "__self__", None)
        cls = type(instance).__name__
        if "." not in name or id(instance) in seen or cls not in _PREBUILT_BY_CLASS:
            continue
        seen.add(id(instance))
        params = inspect.signature(type(instance).__init__).parameters
        settings = {
            k: vars(instance)[k]
            for k, p in params.items()
            if k in vars(instance) and vars(instance)[k] != p.default and _plain(vars(instance)[k])
        }
        out.append({"kind": "prebuilt", "name": _PREBUILT_BY_CLASS[cls], "settings": settings})
    return out


def _plain(value: Any) -> bool:
    """JSON data (what a prebuilt middleware's settings are), not a resolved object."""
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, int, float, bool))


def tool_specs(runnable: Any, owner: str, modules: list[Any],
               theirs: set[str] = frozenset()) -> list[dict[str, Any]]:  # fmt: skip
    """The tools of a ToolNode as spec tools: name, description, the function by import path
    (or the call that made the tool); those made in the modules `theirs` left out (a library
    middleware's own tools, which the middleware brings back)."""
    by_name = getattr(runnable, "tools_by_name", None) or {}
    tools = []
    for name, tool in by_name.items():
        fn = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
        if getattr(fn, "__module__", None) in theirs:
            continue
        if fn is None:
            raise SpecError(f"{owner}: tool {name!r} wraps no function (a BaseTool subclass); "
                            "the spec holds tools as functions", element_id=owner)  # fmt: skip
        if getattr(tool, "response_format", "content") != "content":
            raise SpecError(f"{owner}: tool {name!r} has response_format="
                            f"{tool.response_format!r}, which the spec cannot hold",
                            element_id=owner)  # fmt: skip
        # a tool a library's factory made (a closure inside): the call that makes the tool
        source = (
            call_ref(tool, owner, modules) if made_by_call(fn) else code_ref(fn, owner, modules)
        )
        entry: dict[str, Any] = {"name": name, **source}
        if tool.description and tool.description != name:
            entry["description"] = tool.description
        if getattr(tool, "return_direct", False):
            entry["return_direct"] = True
        tools.append(entry)
    return tools


def tools_node(name: str, runnable: Any, modules: list[Any]) -> dict[str, Any]:
    """A ToolNode as the spec's tools node kind (its tools by import path)."""
    handle = getattr(runnable, "_handle_tool_errors", None)
    default = handle is None or (callable(handle) and _default_error_handler(handle))
    if not default and not isinstance(handle, bool | str):
        raise SpecError(f"{name}: ToolNode(handle_tool_errors={handle!r}) is not something the "
                        "spec holds (it holds true, false or a message)", element_id=name)  # fmt: skip
    out: dict[str, Any] = {
        "id": name,
        "kind": "tools",
        "tools": tool_specs(runnable, name, modules),
    }
    if not default:  # True (every exception's text) is not the default: keep it as it is
        out["handle_tool_errors"] = handle
    key = getattr(runnable, "_messages_key", "messages")
    if key != "messages":
        out["messages_key"] = key
    return out


def _default_error_handler(handle: Any) -> bool:
    # langgraph >= 1 passes its own default handler function rather than True
    return getattr(handle, "__name__", "") == "_default_handle_tool_errors"


def _react_model_fn(builder: Any) -> Any:
    runnable = getattr(builder.nodes.get("agent"), "runnable", None)
    return getattr(runnable, "func", None) or getattr(runnable, "afunc", None)


def is_react_agent(builder: Any) -> bool:
    """A `create_react_agent` graph: its model node is the prebuilt's `call_model`."""
    fn = _react_model_fn(builder)
    return getattr(fn, "__qualname__", "").startswith("create_react_agent.<locals>.")


_REACT_KEPT = {"model", "tools", "prompt", "name", "checkpointer", "store", "version"}
"""create_react_agent's arguments the spec holds (the model, tools and a literal prompt) or reads
from the compiled graph (checkpointer, store, breakpoints); `version` changes only how tool calls
are batched into tasks, which leaves the final state as it is."""

_REACT_OWN = ("response_format", "pre_model_hook", "post_model_hook", "state_schema",
              "context_schema")  # fmt: skip
"""create_react_agent's arguments kept by building the agent with create_react_agent again
(`builder`), each a module-level name: they run there differently than in create_agent."""


def _module_object(node: ast.expr, module: Any, owner: str, what: str) -> Any:
    """The module-level object a `name` argument names; SpecError for anything else."""
    if isinstance(node, ast.Name) and node.id in vars(module):
        return vars(module)[node.id]
    raise SpecError(f"{owner}: {what} {ast.unparse(node)} is not a module-level name, so the "
                    "spec cannot point at it", element_id=owner)  # fmt: skip


def _react_own(args: dict[str, ast.expr], module: Any, owner: str) -> dict[str, Any]:
    """The spec fields of create_react_agent's own arguments (`_REACT_OWN`)."""
    out: dict[str, Any] = {}
    for field in _REACT_OWN:
        if (node := args.get(field)) is None or (
            isinstance(node, ast.Constant) and node.value is None
        ):
            continue
        obj = _module_object(node, module, owner, field)
        if field.endswith("_hook"):
            out[field] = code_ref(target_of(obj), owner, [module])
        elif not isinstance(obj, type):
            raise SpecError(f"{owner}: {field} {node.id} is not a class (a (prompt, schema) "
                            "pair or a JSON schema has no place in the spec)",
                            element_id=owner)  # fmt: skip
        elif field == "response_format":
            out[field] = {"schema_class": ref(obj, owner, [module])}
        else:
            out[field] = ref(obj, owner, [module])
    return {"builder": "create_react_agent", **out} if out else {}


_STRATEGIES = {"AutoStrategy": "auto", "ToolStrategy": "tool", "ProviderStrategy": "provider"}
_STRATEGY_DEFAULTS = {"tool_message_content": None, "handle_errors": True, "strict": None}


def _response_format(fmt: Any, owner: str, modules: list[Any]) -> dict[str, Any] | None:
    """create_agent's response_format (as the compiled agent keeps it) as the spec's."""
    if fmt is None:
        return None
    strategy = _STRATEGIES.get(type(fmt).__name__)
    schema = getattr(fmt, "schema", None)
    changed = [k for k, v in _STRATEGY_DEFAULTS.items() if getattr(fmt, k, v) != v]
    if strategy is None or not isinstance(schema, type) or changed:
        why = (f"its {', '.join(changed)} setting(s)" if changed else
               "only a class (a pydantic model, dataclass or TypedDict) fits")  # fmt: skip
        raise SpecError(f"{owner}: response_format {fmt!r:.80} has no place in the spec: {why}",
                        element_id=owner)  # fmt: skip
    return {"schema_class": ref(schema, owner, modules), "strategy": strategy}


def react_agent(graph: Any, builder: Any, node_id: str, agents: list[dict], scope: Scope) -> str:
    """A create_react_agent graph as an agent spec, read from its module-level call."""
    if id(graph) in scope.seen:
        return scope.seen[id(graph)]
    tools_runnable = getattr(builder.nodes.get("tools"), "runnable", None)
    handle = getattr(tools_runnable, "_handle_tool_errors", None)
    if handle is not None and not (callable(handle) and _default_error_handler(handle)):
        # an agent spec's tools run with the default handling: another would be lost
        raise SpecError(f"{node_id}: the agent's ToolNode(handle_tool_errors={handle!r}) has no "
                        "place in an agent spec (its tools run with langgraph's default "
                        "handling)", element_id=node_id)  # fmt: skip
    modules = [m for m in scope.modules if m is not None]
    tools = tool_specs(tools_runnable, node_id, modules) if tools_runnable is not None else []
    modules += [sys.modules.get(t.get("import_path", "").partition(":")[0]) for t in tools]
    made = scope.assignment(graph, modules)
    if made is None or _called(made[1]) != "create_react_agent":
        agent = _react_from_graph(builder, node_id, modules)
        return _register(graph, {**agent, **({"tools": tools} if tools else {})}, node_id, agents,
                         scope)  # fmt: skip
    module, call = made
    names = [*("model", "tools")[: len(call.args)], *(k.arg for k in call.keywords)]
    extra = [n for n in names if n not in _REACT_KEPT and n not in _REACT_OWN]
    if extra or len(call.args) > 2:
        raise SpecError(f"{node_id}: create_react_agent's {', '.join(extra) or 'extra'} argument(s) "
                        "have no place in the spec (an agent is a model, a system prompt and "
                        "tools)", element_id=node_id)  # fmt: skip
    args = {**dict(zip(("model", "tools"), call.args, strict=False)),
            **{k.arg: k.value for k in call.keywords if k.arg}}  # fmt: skip
    prompt = args.get("prompt")
    system = _literal(prompt, node_id) if prompt is not None else ""
    if not isinstance(system, str):
        raise SpecError(f"{node_id}: the prompt is not a string (a SystemMessage, a function or "
                        "a runnable has no place in the spec)", element_id=node_id)  # fmt: skip
    model_expr = args.get("model")
    if isinstance(model_expr, ast.Constant) and isinstance(model_expr.value, str):
        provider, _, name = model_expr.value.partition(":")
        model = {"provider": provider, "model": name}
    elif isinstance(model_expr, ast.Name) and model_expr.id in vars(module):
        obj = vars(module)[model_expr.id]
        model = _model_settings(obj, scope.assignment(obj, [module]), node_id, (module, model_expr))
    else:
        raise SpecError(f"{node_id}: the model is neither a module-level variable nor a "
                        "'provider:model' string", element_id=node_id)  # fmt: skip
    agent = {k: v for k, v in (("model", model), ("system_prompt", system), ("tools", tools)) if v}
    agent.update(_react_own(args, module, node_id))
    name = args.get("name")
    agent.update(_naming(_literal(name, node_id) if name is not None else None, node_id))
    return _register(graph, agent, node_id, agents, scope)


_REACT_PLAIN = {"pre_model_hook": None, "post_model_hook": None, "response_format": None}
"""What a create_react_agent graph read without its call must have been built without."""


def _react_from_graph(builder: Any, node_id: str, modules: list[Any]) -> dict[str, Any]:
    """A create_react_agent graph a library built (a supervisor's), read from the compiled
    agent: model, prompt and name from its model node's closure (the tools from its ToolNode);
    refused unless it was given nothing else (hooks, structured output, its own state)."""
    found = _closure(_react_model_fn(builder))
    schema = getattr(builder, "state_schema", None)
    why = (
        "its model node keeps no model and prompt the spec can read" if "model" not in found
        or not isinstance(found.get("prompt"), (str, type(None))) else
        f"it has {', '.join(k for k, v in _REACT_PLAIN.items() if found.get(k, v) is not v)}"
        if any(found.get(k, v) is not v for k, v in _REACT_PLAIN.items()) else
        f"its state schema {getattr(schema, '__qualname__', schema)} is its own"
        if getattr(schema, "__qualname__", "") != "AgentState"
        or not schema.__module__.endswith(".prebuilt.chat_agent_executor") else ""
    )  # fmt: skip
    if why:
        raise SpecError(f"{node_id}: a create_react_agent graph no module-level `name = "
                        f"create_react_agent(...)` call made is read from the graph, and {why}",
                        element_id=node_id)  # fmt: skip
    model = found["model"]
    source = next((made for m in modules if m is not None
                   if (made := Scope(None).assignment(model, [m])) is not None), None)  # fmt: skip
    agent = {"model": _model_settings(model, source, node_id, None, modules),
             "system_prompt": found.get("prompt") or ""}  # fmt: skip
    return {**agent, **_naming(found.get("name"), node_id)}


def agent(graph: Any, builder: Any, node_id: str, agents: list[dict], scope: Scope) -> str:
    """A create_agent graph as an agent spec; returns its id in `agents`."""
    if id(graph) in scope.seen:
        return scope.seen[id(graph)]
    found = _agent_parts(builder)
    modules = [m for m in scope.modules if m is not None]
    deep = scope.assignment(graph, modules)
    if deep is not None and _called(deep[1]) == "create_deep_agent":
        return _deep_agent(graph, found, node_id, agents, scope, deep)
    tools_runnable = getattr(builder.nodes.get("tools"), "runnable", None)
    # a middleware's own tools (TodoListMiddleware's write_todos, a library middleware's) come
    # back with the middleware
    theirs = _library_homes(deep[1], deep[0]) if deep is not None else set()
    tools = tool_specs(tools_runnable, node_id, modules, theirs) if tools_runnable else []
    tools = [t for t in tools if not t.get("import_path", "").startswith(_AGENT_LAYERS)]
    modules += [sys.modules.get(t.get("import_path", "").partition(":")[0]) for t in tools]
    made = scope.assignment(graph, modules)
    call = made[1] if made is not None and _called(made[1]) == "create_agent" else None
    agent_id = node_id
    model_source = None
    if call is not None and call.args and isinstance(call.args[0], ast.Name):
        var = call.args[0].id
        wanted = re.sub(r"_model_*$", "", var)
        agent_id = wanted if wanted.isidentifier() and wanted != var else node_id
        model_source = scope.assignment(found.get("model"), [made[0]])
    written = (made[0], _model_arg(call)) if call is not None and _model_arg(call) else None
    system = found.get("system_message")
    spec: dict[str, Any] = {
        "model": _model_settings(found.get("model"), model_source, node_id, written, modules),
        "system_prompt": getattr(system, "content", None) or "",
        "tools": tools,
        "middleware": (
            _middleware_from_source(call, made[0], node_id)
            if call is not None
            else _middleware_from_nodes(builder)
        ),
        "response_format": _response_format(found.get("response_format"), node_id, modules),
        **_schemas(builder, call, made[0] if made else None, node_id),
    }
    spec = {k: v for k, v in spec.items() if v}
    spec.update(_naming(found.get("name"), node_id))
    return _register(graph, spec, agent_id, agents, scope)


def _model_arg(call: ast.Call) -> ast.expr | None:
    """The model a create_agent-like call is given: its first argument or `model=`."""
    return call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "model"), None)  # fmt: skip


def _deep_agent(graph: Any, found: dict, node_id: str, agents: list[dict], scope: Scope,
                made: tuple[Any, ast.Call]) -> str:  # fmt: skip
    """A create_deep_agent graph (graphspec.import_deep_agents) as an agent spec."""
    module, call = made
    if found.get("response_format") is not None:  # the spec's deep agent is built without one
        raise SpecError(f"{node_id}: a deep agent's response_format has no place in the spec",
                        element_id=node_id)  # fmt: skip

    def settings(model: Any, expr: ast.expr | None) -> dict:
        source = scope.assignment(model, [module]) if model is not None else None
        written = (module, expr) if expr is not None else None
        return _model_settings(model, source, node_id, written, (module,))

    spec: dict[str, Any] = {
        "model": settings(found.get("model"), _model_arg(call)),
        "middleware": _middleware_from_source(call, module, node_id),
        **deep_agent_spec(call, module, node_id, settings),
        **_schemas(getattr(graph, "builder", None), call, module, node_id),
    }
    spec = {k: v for k, v in spec.items() if v or k == "deep"}
    spec.update(_naming(found.get("name"), node_id))
    var = next((k.value.id for k in call.keywords if k.arg == "model"
                and isinstance(k.value, ast.Name)), "")  # fmt: skip
    wanted = re.sub(r"_model_*$", "", var)
    agent_id = wanted if wanted.isidentifier() and wanted != var else node_id
    return _register(graph, spec, agent_id, agents, scope)


def _schemas(builder: Any, call: ast.Call | None, module: Any, owner: str) -> dict[str, str]:
    """create_agent's state_schema (read from its call) and context_schema, by import path."""
    out = {}
    node = next((k.value for k in call.keywords if k.arg == "state_schema"), None) if call else None
    if node is not None and not (isinstance(node, ast.Constant) and node.value is None):
        out["state_schema"] = ref(_module_object(node, module, owner, "state_schema"), owner,
                                  [module])  # fmt: skip
    context = getattr(builder, "context_schema", None)
    if context is not None:
        out["context_schema"] = ref(context, owner, [module] if module else [])
    return out


def _naming(name: Any, node_id: str) -> dict[str, Any]:
    """The agent's name: none (`unnamed`), or its node's id, which the spec names it by."""
    if name is None:
        return {"unnamed": True}
    if name != node_id:
        raise SpecError(f"{node_id}: the agent is named {name!r} but runs as node {node_id!r}; the "
                        "spec names an agent after its node (use the same name)",
                        element_id=node_id)  # fmt: skip
    return {}


def _register(graph: Any, agent: dict, agent_id: str, agents: list[dict], scope: Scope) -> str:
    # the exporter writes one create_agent per node: nodes running the same agent share it again
    same = [a["id"] for a in agents if {k: v for k, v in a.items() if k != "id"} == agent]
    if same and re.sub(r"_+$", "", same[0]) == agent_id:
        agent_id = same[0]
    else:
        taken = {a["id"] for a in agents}
        while agent_id in taken:
            agent_id = f"{agent_id}_"
        agents.append({"id": agent_id, **agent})
    scope.seen[id(graph)] = agent_id
    return agent_id


__all__ = [
    "Scope",
    "agent",
    "is_agent",
    "is_react_agent",
    "react_agent",
    "tool_specs",
    "tools_node",
]
