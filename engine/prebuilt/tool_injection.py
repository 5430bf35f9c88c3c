"""What a tool gets besides the model's arguments: the graph state (InjectedState), the store
(InjectedStore) and its ToolRuntime, found from the tool's annotations."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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

    def names(self) -> set[str]:
        out = set(self.state)
        out.update(n for n in (self.store, self.runtime) if n)
        return out


def _is_injection(type_arg: Any, kind: type) -> bool:
    if isinstance(type_arg, kind) or (isinstance(type_arg, type) and issubclass(type_arg, kind)):
        return True
    origin = get_origin(type_arg)
    if origin is Union or origin is Annotated:
        return any(_is_injection(a, kind) for a in get_args(type_arg))
    return origin is not None and isinstance(origin, type) and issubclass(origin, kind)


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
            if isinstance(state, InjectedState) and state.field:
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
    return out
