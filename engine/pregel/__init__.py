"""langgraph.pregel's names, loaded on first use (PEP 562): `engine.pregel.trace_format` and the
other leaf modules are read by the command line without building the whole Pregel runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.pregel.main import NodeBuilder, Pregel, SuperstepStepper


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'engine.pregel' has no attribute {name!r}")
    from engine.pregel import main

    value = getattr(main, name)
    globals()[name] = value
    return value


# langgraph.pregel exports only Pregel and NodeBuilder; SuperstepStepper is ours (step-by-step runs).
__all__ = ("Pregel", "NodeBuilder", "SuperstepStepper")
