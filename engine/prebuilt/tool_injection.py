"""What a tool gets besides the model's arguments: the graph state (InjectedState), the store
(InjectedStore) and its ToolRuntime, found from the tool's annotations."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import (
    Annotated,
    Any,
    Generic,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from langchain_core.tools import BaseTool, InjectedToolArg
from langchain_core.tools.base import (
    _DirectlyInjectedToolArg,
    _is_injected_arg_type,
    get_all_basemodel_annotations,
)
from typing_extensions import TypeVar

from engine.pregel.tools_stream import emit_output_delta

# defaults as langgraph's, so `ToolRuntime[MyContext]` names the context alone
ContextT = TypeVar("ContextT", default=None)
StateT = TypeVar("StateT", default=dict)


@dataclass
class ToolRuntime(_DirectlyInjectedToolArg, Generic[ContextT, StateT]):
    """What a tool sees of its run; a parameter annotated with it is injected, hidden from the model."""

    state: Any
    context: Any
    config: dict
    stream_writer: Callable[[Any], None]
    tool_call_id: str | None
    store: Any
    tools: list[BaseTool] = field(default_factory=list)
    execution_info: Any = None
    server_info: Any = None

    def emit_output_delta(self, delta: Any) -> None:
        """Stream a partial output on stream_mode="tools" (nothing when no run streams it)."""
        emit_output_delta(delta)


class InjectedState(InjectedToolArg):
    """Annotation for a tool argument filled with the graph state (or one `field` of it)."""

    def __init__(self, field: str | None = None) -> None:
        self.field = field


class InjectedStore(InjectedToolArg):
    """Annotation for a tool argument filled with the graph's store."""


@dataclass
class _InjectedArgs:
    state: dict[str, str | None]
    store: str | None
    runtime: str | None
    all_injected_keys: set[str]
    optional_state_args: set[str]
    runtime_type: type = ToolRuntime
    """The ToolRuntime class the tool's annotation names: ours, or langgraph's own when a
    program takes it from `langchain.tools` while its agent runs on the engine."""

    def names(self) -> set[str]:
        out = set(self.state)
        out.update(n for n in (self.store, self.runtime) if n)
        return out


def _twins(kind: type) -> tuple[type, ...]:
    """`kind` and, when real langgraph is loaded too, its class of that name: `langchain.tools`
    hands a program langgraph's ToolRuntime and Injected* even when the agent is the engine's
    (langgraph is looked up, never imported)."""
    theirs = getattr(sys.modules.get("langgraph.prebuilt.tool_node"), kind.__name__, None)
    return (kind, theirs) if isinstance(theirs, type) and theirs is not kind else (kind,)


def _is_injection(type_arg: Any, kind: type) -> bool:
    kinds = _twins(kind)
    if isinstance(type_arg, kinds) or (isinstance(type_arg, type) and issubclass(type_arg, kinds)):
        return True
    origin = get_origin(type_arg)
    if origin is Union or origin is Annotated:
        return any(_is_injection(a, kind) for a in get_args(type_arg))
    return origin is not None and isinstance(origin, type) and issubclass(origin, kinds)


def _runtime_class(type_: Any) -> type | None:
    """The ToolRuntime class an annotation names (through Annotated, Optional, [Context])."""
    for candidate in (type_, get_origin(type_)):
        if isinstance(candidate, type) and issubclass(candidate, _twins(ToolRuntime)):
            return candidate
    if get_origin(type_) in (Union, Annotated):
        return next((c for a in get_args(type_) if (c := _runtime_class(a))), None)
    return None


def runtime_as(runtime: ToolRuntime, cls: type) -> Any:
    """The tool's runtime as the class its annotation names (the same values)."""
    if isinstance(runtime, cls):
        return runtime
    return cls(
        **{f.name: getattr(runtime, f.name) for f in fields(cls) if hasattr(runtime, f.name)}
    )


def _injection(type_: Any, kind: type) -> Any:
    matches = [a for a in get_args(type_) if _is_injection(a, kind)]
    if len(matches) > 1:
        raise ValueError(
            f"A tool argument should not be annotated with {kind.__name__} more than once. "
            f"Found: {matches}"
        )
    if matches:
        return matches[0]
    return True if _is_injection(type_, kind) else None


def _get_all_injected_args(tool: BaseTool) -> _InjectedArgs:
    schema = tool.get_input_schema()
    func = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    annotations = {
        **(get_type_hints(func, include_extras=True) if func else {}),
        **get_all_basemodel_annotations(schema),
    }
    out = _InjectedArgs({}, None, None, set(), set())
    for name, type_ in annotations.items():
        if _is_injected_arg_type(type_):
            out.all_injected_keys.add(name)
        if name == "runtime":
            out.runtime = name
        if state := _injection(type_, InjectedState):
            if isinstance(state, _twins(InjectedState)) and state.field:
                out.state[name] = state.field
                info = schema.model_fields.get(name)
                if info and not info.is_required():
                    out.optional_state_args.add(name)
            else:
                out.state[name] = None
        if _injection(type_, InjectedStore):
            out.store = name
        if _injection(type_, ToolRuntime):
            out.runtime = name
        if out.runtime == name:
            out.runtime_type = _runtime_class(type_) or ToolRuntime
    return out
