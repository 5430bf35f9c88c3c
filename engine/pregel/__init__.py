"""langgraph.pregel's names, loaded on first use (PEP 562): `engine.pregel.trace_format` and the
other leaf modules are read by the command line without building the whole Pregel runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine._lazy import lazy_names

if TYPE_CHECKING:
    from engine.pregel.main import NodeBuilder, Pregel, SuperstepStepper


# langgraph.pregel exports only Pregel and NodeBuilder; SuperstepStepper is ours (step-by-step runs).
__all__ = ("Pregel", "NodeBuilder", "SuperstepStepper")
__getattr__ = lazy_names(__name__, dict.fromkeys(__all__, "engine.pregel.main"), globals())
