"""When a tool call fails: the messages the model sees and which errors become them.

By default only argument-validation errors (ToolInvocationError) become error ToolMessages;
`handle_tool_errors` widens that to all errors, some types, a fixed text or a function.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import (
    Any,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from langchain_core.tools import ToolException
from pydantic import ValidationError

from engine.prebuilt.tool_injection import _InjectedArgs

INVALID_TOOL_NAME_ERROR_TEMPLATE = (
    "Error: {requested_tool} is not a valid tool, try one of [{available_tools}]."
)


TOOL_CALL_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."


# langgraph defines it beside the others without using it; programs import it with them
TOOL_EXECUTION_ERROR_TEMPLATE = (
    "Error executing tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)


TOOL_INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)


class ToolInvocationError(ToolException):
    """The model called a tool with arguments that fail its schema."""

    def __init__(
        self,
        tool_name: str,
        source: ValidationError,
        tool_kwargs: dict,
        filtered_errors: list | None = None,
    ) -> None:
        if filtered_errors is not None:
            shown = "\n".join(
                f"{'.'.join(str(p) for p in err.get('loc', ()))}: {err.get('msg', 'Unknown error')}"
                for err in filtered_errors
            )
        else:
            shown = str(source)
        self.message = TOOL_INVOCATION_ERROR_TEMPLATE.format(
            tool_name=tool_name, tool_kwargs=tool_kwargs, error=shown
        )
        self.tool_name = tool_name
        self.tool_kwargs = tool_kwargs
        self.source = source
        self.filtered_errors = filtered_errors
        super().__init__(self.message)


def _default_handle_tool_errors(e: Exception) -> str:
    if isinstance(e, ToolInvocationError):
        return e.message
    raise e


def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    if isinstance(flag, (bool, tuple)) or (isinstance(flag, type) and issubclass(flag, Exception)):
        return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
    if isinstance(flag, str):
        return flag
    if callable(flag):
        return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. "
        f"Received: {flag}"
    )


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    params = list(inspect.signature(handler).parameters.values())
    if not params:
        return (Exception,)
    first = params[1] if params[0].name in ("self", "cls") and len(params) == 2 else params[0]
    hints = get_type_hints(handler)
    if first.name not in hints:
        return (Exception,)
    if get_origin(first.annotation) in (Union, UnionType):
        args = get_args(first.annotation)
        if all(issubclass(a, Exception) for a in args):
            return tuple(args)
        raise ValueError(
            "All types in the error handler error annotation must be Exception types. For "
            "example, `def custom_handler(e: Union[ValueError, TypeError])`. "
            f"Got '{first.annotation}' instead."
        )
    exc_type = hints[first.name]
    if Exception in exc_type.__mro__:
        return (exc_type,)
    raise ValueError(
        "Arbitrary types are not supported in the error handler signature. Please annotate the "
        "error with either a specific Exception type or a union of Exception types. For example, "
        "`def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, "
        f"TypeError])`. Got '{exc_type}' instead."
    )


def _filter_validation_errors(error: ValidationError, injected: _InjectedArgs | None) -> list:
    hidden = injected.names() if injected else set()
    kept = []
    for err in error.errors():
        if err["loc"] and err["loc"][0] not in hidden:
            err = dict(err)
            if isinstance(err.get("input"), dict):
                err["input"] = {k: v for k, v in err["input"].items() if k not in hidden}
            kept.append(err)
    return kept
