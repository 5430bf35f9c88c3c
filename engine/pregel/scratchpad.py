"""Per-task scratchpad: the step counters and resume values `interrupt()` consults."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from engine._constants import CONFIG_KEY_CHECKPOINT_NS, CONFIG_KEY_SEND, RESUME
from engine.errors import GraphInterrupt, mark_invalid_resume
from engine.types import Interrupt, interrupt_id


class Scratchpad:
    """What a running task knows about its run: step, stop, and the answers to its interrupts."""

    __slots__ = (
        "step",
        "stop",
        "resume",
        "_null_resume",
        "_counter",
        "ns",
        "send",
        "call_counter",
        "subgraph_counter",
    )

    def __init__(
        self,
        step: int,
        stop: int,
        resume: list[Any],
        null_resume: Callable[[bool], Any],
        ns: str,
        send: Callable[[list[tuple[str, Any]]], None],
    ) -> None:
        self.step = step
        self.stop = stop
        self.resume = resume
        self._null_resume = null_resume
        self._counter = itertools.count()
        self.ns = ns
        self.send = send
        # numbers the task's functional-API calls, so a rerun finds each call's saved result
        self.call_counter = itertools.count()
        # numbers the graphs the task runs: the second and later get their own namespace
        self.subgraph_counter = itertools.count()

    def restart_interrupts(self) -> None:
        """A retried node runs from its first line: its interrupts count from the first."""
        self._counter = itertools.count()

    def interrupt(self, value: Any, response_schema: Any = None) -> Any:
        adapter = _adapter_for(response_schema)
        idx = next(self._counter)
        if idx < len(self.resume):
            answer = _validated(adapter, self.resume[idx])
            self.send([(RESUME, self.resume[: idx + 1])])
            return answer
        answer = self._null_resume(True)
        if answer is not None:
            validated = _validated(adapter, answer)
            self.resume.append(answer)
            self.send([(RESUME, list(self.resume))])
            return validated
        schema = adapter.json_schema() if adapter is not None else response_schema
        raise GraphInterrupt(
            (
                Interrupt(
                    value=value,
                    id=interrupt_id(self.ns, len(self.resume)),
                    response_schema=schema,
                ),
            )
        )


def _adapter_for(response_schema: Any) -> Any:
    """A pydantic TypeAdapter for a typed schema; a dict schema is shown as-is, never enforced."""
    if response_schema is None or isinstance(response_schema, dict):
        return None
    from pydantic import TypeAdapter

    return TypeAdapter(response_schema)


def _validated(adapter: Any, answer: Any) -> Any:
    if adapter is None:
        return answer
    from pydantic import ValidationError

    try:
        return adapter.validate_python(answer)
    except ValidationError as exc:
        mark_invalid_resume(exc)
        raise


__all__ = ["Scratchpad", "CONFIG_KEY_SEND", "CONFIG_KEY_CHECKPOINT_NS"]
