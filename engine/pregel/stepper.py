"""SuperstepStepper: a run advanced one superstep per call, recording the structured trace."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.pregel import trace
from engine.pregel.loop import PregelLoop
from engine.pregel.run_setup import STEP_DONE

if TYPE_CHECKING:
    from engine.pregel.main import Pregel


class SuperstepStepper:
    """Drives a run one superstep at a time; between steps the caller reads `events` and `chunks`.

    Works with or without a checkpointer: the run's state lives in a suspended generator.
    """

    def __init__(
        self,
        graph: Pregel,
        input: Any,
        config: dict | None,
        *,
        context: Any,
        stream_mode: Any,
        durability: str | None = None,
    ):
        self.events: list[trace.TraceEvent] = []
        self.chunks: list[Any] = []
        self.done = False
        self._run = graph._prepare(
            input,
            config,
            context=context,
            stream_mode=list(stream_mode),
            output_keys=None,
            interrupt_before=None,
            interrupt_after=None,
            subgraphs=True,
            version="v2",
            observer=self.events.append,
            durability=durability,
            # a step's chunks are read when it ends: no thread per task to stream them sooner
            eager=False,
        )
        self._gen = graph._run(self._run, mark_steps=True)

    @property
    def loop(self) -> PregelLoop:
        return self._run.loop

    def step(self) -> list[trace.TraceEvent]:
        """Run the next superstep; return the trace events it produced."""
        start = len(self.events)
        if self.done:
            return []
        for item in self._gen:
            if item is STEP_DONE:
                return self.events[start:]
            self.chunks.append(item)
        self.done = True
        return self.events[start:]

    def run_to_end(self) -> list[trace.TraceEvent]:
        while not self.done:
            self.step()
        return self.events

    @property
    def output(self) -> Any:
        return self._run.loop.output
