"""What a run yields: queued (namespace, mode, payload) items formatted as stream chunks (v1
tuples or v2 parts), and invoke's result collected from them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine._constants import INTERRUPT
from engine.pregel.debug import get_bolded_text, get_colored_text
from engine.pregel.run_setup import Run, coerce_checkpoint_values
from engine.types import GraphOutput, Interrupt


def drain(run: Run) -> Iterator[Any]:
    queue = run.queue
    own_ns = run.loop.checkpoint_ns
    while queue:
        ns, mode, payload = queue.popleft()
        if mode in run.print_modes and (ns == own_ns or run.subgraphs):
            print_chunk(ns, mode, payload, run.subgraphs)
        if mode not in run.modes or (ns != own_ns and not run.subgraphs):
            continue
        if run.version == "v2":
            part = {"type": mode, "ns": ns, "data": payload}
            if mode == "values":
                # the interrupts move out of the state into their own field
                part["interrupts"] = ()
                if isinstance(payload, dict) and INTERRUPT in payload:
                    part["interrupts"] = payload[INTERRUPT]
                    part["data"] = {k: v for k, v in payload.items() if k != INTERRUPT}
                if run.mappers[0] is not None and isinstance(part["data"], dict):
                    part["data"] = run.mappers[0](part["data"])
            elif run.mappers[1] is not None and mode in ("checkpoints", "debug"):
                coerce_checkpoint_values(payload, run.mappers[1])
            yield part
        elif run.single:
            yield (ns, payload) if run.subgraphs else payload
        else:
            yield (ns, mode, payload) if run.subgraphs else (mode, payload)


def collect(chunks: Any, stream_mode: Any, version: str, run: Run | None = None) -> Any:
    """invoke's result from its chunks (an iterator over them first runs the graph); `run`'s
    loop kept the last values chunk instead of queueing each (`last_values_only`)."""
    if stream_mode != "values":
        return list(chunks)
    latest: Any = None
    interrupts: list[Interrupt] = []
    for chunk in chunks:
        if version == "v2":
            latest = chunk["data"]
            interrupts.extend(chunk["interrupts"])
            continue
        mode, payload = chunk
        if mode == "values":
            latest = payload
        elif isinstance(payload, dict) and (found := payload.get(INTERRUPT)) is not None:
            interrupts.extend(found)
    if run is not None and run.loop.last_values_only:
        latest = run.loop.last_values
    return invoke_output(latest, interrupts, version)


def invoke_output(latest: Any, interrupts: list, version: str) -> Any:
    if version == "v2":
        return GraphOutput(latest, tuple(interrupts))
    if interrupts:
        return (
            {**latest, INTERRUPT: interrupts}
            if isinstance(latest, dict)
            else {INTERRUPT: interrupts}
        )
    return latest


def print_chunk(ns: tuple[str, ...], mode: str, payload: Any, subgraphs: bool) -> None:
    """A print_mode chunk on the console, as langgraph prints it: `[mode]` in bold, a
    subgraph's namespace in yellow, then the payload's repr."""
    parts = [get_bolded_text(f"[{mode}]")]
    if subgraphs and ns:
        parts.append(get_colored_text(f"[graph={ns}]", color="yellow"))
    print(" ".join([*parts, repr(payload)]))
