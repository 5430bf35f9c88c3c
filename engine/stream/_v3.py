"""The v3 arguments a run accepts: the stream modes the transformers need, transformer factories.

The run itself (its mux and inner stream) is built by engine.pregel.stream_v3, above this package."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.stream._mux import StreamMux
from engine.stream._types import StreamTransformer

Factory = Callable[[tuple[str, ...]], Any]

# v3 decides these itself: the modes come from the transformers, subgraphs is always on
_V3_INVARIANT_KWARGS = ("stream_mode", "subgraphs")


def reject_v3_invariant_kwargs(kwargs: dict[str, Any]) -> None:
    collisions = [k for k in _V3_INVARIANT_KWARGS if k in kwargs]
    if collisions:
        raise TypeError(
            "stream_events(version='v3') / astream_events(version='v3') do "
            f"not accept {', '.join(collisions)}; v3 owns these "
            "(stream_mode is built from the transformer mux, subgraphs is "
            "forced True so nested namespaces flow through scoped muxes)."
        )


def normalize_factories(specs: Sequence[Factory] | None) -> list[Factory]:
    """Scope-aware factories from transformer classes or callables; instances cannot be
    cloned into subgraph scopes, so they are refused."""
    factories: list[Factory] = []
    for spec in specs or ():
        if isinstance(spec, StreamTransformer):
            raise TypeError(
                "stream_events(version='v3') transformers must be scope-aware callables, "
                f"got pre-built instance {type(spec).__name__}. Pass the transformer class or a "
                "factory like `lambda scope: MyTransformer(scope, ...)`."
            )
        if not callable(spec):
            raise TypeError(
                f"stream_events(version='v3') transformers must be scope-aware callables, got {type(spec).__name__}."
            )
        factories.append(lambda scope, _spec=spec: _spec(scope))
    return factories


def collect_stream_modes(mux: StreamMux) -> list[str]:
    """The union of what the registered transformers need, and nothing else."""
    modes: dict[str, None] = {}
    for transformer in mux._transformers:
        modes.update(dict.fromkeys(getattr(transformer, "required_stream_modes", ())))
    return list(modes)
