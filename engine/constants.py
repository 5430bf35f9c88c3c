"""langgraph.constants: START, END and the tags; the reserved names are private (engine._constants).

Reading another reserved name from here works but warns, as in langgraph >= 1.0, as do `Send`
and `Interrupt` (now in engine.types).
"""

from __future__ import annotations

from typing import Any
from warnings import warn

from engine import _constants

# Still read without a warning by studio/run (runner, trace_model); langgraph would warn.
from engine._constants import (  # noqa: F401
    CONF,
    CONFIG_KEY_CHECKPOINTER,
    END,
    ERROR,
    INTERRUPT,
    MISSING,
    NO_WRITES,
    NS_END,
    PULL,
    PUSH,
    RETURN,
    START,
    TAG_HIDDEN,
    TAG_NOSTREAM,
    TASKS,
)
from engine.warnings import LangGraphDeprecatedSinceV10

__all__ = ("TAG_NOSTREAM", "TAG_HIDDEN", "START", "END", "CONF", "TASKS", "CONFIG_KEY_CHECKPOINTER")


def __getattr__(name: str) -> Any:
    if name in ("Send", "Interrupt"):
        warn(
            f"Importing {name} from langgraph.constants is deprecated. "
            f"Please use 'from langgraph.types import {name}' instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        from engine import types

        return getattr(types, name)
    if not name.startswith("__") and hasattr(_constants, name):
        warn(
            f"Importing {name} from langgraph.constants is deprecated. "
            "This constant is now private and should not be used directly. "
            "Please let the LangGraph team know if you need this value.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        return getattr(_constants, name)
    raise AttributeError(f"module has no attribute '{name}'")
