"""Graph lifecycle events of a run (engine.callbacks): the loop records when it resumes from a
checkpoint and when it pauses on interrupts; the run dispatches them to the graph handlers of
its callbacks at the superstep boundaries."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.callbacks import (
    GraphInterruptEvent,
    GraphResumeEvent,
    _AsyncGraphCallbackManager,
    _GraphCallbackManager,
)


def attach(loop: Any, run_manager: Any, asynchronous: bool) -> Any:
    """The run's graph-handler manager, or None when no graph handler listens (then the loop
    records nothing)."""
    cls = _AsyncGraphCallbackManager if asynchronous else _GraphCallbackManager
    run_id = run_manager.run_id if run_manager is not None else None
    manager = cls.configure(loop.config.get("callbacks"), run_id=run_id)
    if not manager.handlers:
        return None
    loop.lifecycle = []
    return manager


def resumed(loop: Any) -> None:
    if loop.lifecycle is not None:
        event = GraphResumeEvent(None, loop.status, loop.checkpoint["id"], loop.checkpoint_ns)
        loop.lifecycle.append(event)


def interrupted(loop: Any, interrupts: tuple) -> None:
    if loop.lifecycle is not None:
        event = GraphInterruptEvent(
            None, loop.status, loop.checkpoint["id"], loop.checkpoint_ns, interrupts
        )
        loop.lifecycle.append(event)


def _pending(loop: Any, manager: Any) -> list[tuple[Any, Any]]:
    events, loop.lifecycle[:] = list(loop.lifecycle), []
    return [
        (
            manager.on_resume if isinstance(event, GraphResumeEvent) else manager.on_interrupt,
            replace(event, run_id=manager.run_id),
        )
        for event in events
    ]


def dispatch(loop: Any, manager: Any) -> None:
    if manager is not None and loop.lifecycle:
        for handle, event in _pending(loop, manager):
            handle(event)


async def adispatch(loop: Any, manager: Any) -> None:
    if manager is not None and loop.lifecycle:
        for handle, event in _pending(loop, manager):
            await handle(event)
