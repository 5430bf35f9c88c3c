"""Trace events and run values for reading: the text the CLI prints and the studio shows.

short_version(v)    a channel version as its counter: "3" (the studio's column, the CLI's v3)
to_jsonable(obj)    dataclasses to dicts, tuples to lists, recursively
to_json(value)      one line of JSON for any run value (pydantic models, interrupts, sets...)
event_json(event)   a trace event as one JSON object, its class name under "event"
TextPrinter(out)    an `Observer` printing each superstep: plan, task writes, barrier, checkpoint
trace_run(...)      steps a compiled graph and hands every trace event to an observer
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any, TextIO

from engine.pregel import trace


def short_version(version: Any) -> str:
    """Engine versions look like `0000000000000003.61000…`; show the counter, `—` for none."""
    if version is None:
        return "—"
    text = str(version)
    head = text.split(".", 1)[0]
    return str(int(head)) if head.isdigit() else text


def short_value(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def to_jsonable(obj: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively; anything else json can't take is
    left for `to_json`'s fallback."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    return obj


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if hasattr(obj, "value") and type(obj).__name__ == "Interrupt":
        return {"value": obj.value, "id": obj.id}
    return repr(obj)


def to_json(value: Any) -> str:
    return json.dumps(to_jsonable(value), default=_json_default, ensure_ascii=False)


def event_json(event: trace.TraceEvent) -> str:
    """One event as a JSON line; without its clock time (`at`), so a run's trace reads the same
    on every run."""
    fields = {k: v for k, v in to_jsonable(event).items() if k != "at"}
    return to_json({"event": type(event).__name__, **fields})


def _version(version: Any) -> str:
    # a real version reads as v3 (as in the studio's trace); none stays a bare dash
    return short_version(version) if version is None else f"v{short_version(version)}"


class TextPrinter:
    """Prints trace events as indented plain text; bold headers only on a colour terminal."""

    def __init__(self, out: TextIO):
        self.out = out
        self.color = out.isatty() and not os.environ.get("NO_COLOR")

    def _bold(self, text: str) -> str:
        return f"\033[1m{text}\033[0m" if self.color else text

    def _line(self, indent: int, text: str) -> None:
        print("  " * indent + text, file=self.out)

    def __call__(self, event: trace.TraceEvent) -> None:
        ns = f"[{'|'.join(event.ns)}] " if event.ns else ""
        if isinstance(event, trace.StepPlanned):
            self._line(0, self._bold(f"{ns}step {event.step}"))
            self._line(1, "plan:")
            for task in event.tasks:
                if task.trigger_versions:
                    woke = ", ".join(
                        f"{ch}@{_version(v)}" for ch, v in task.trigger_versions.items()
                    )
                    self._line(2, f"{task.name}  woken by {woke}")
                else:
                    self._line(2, f"{task.name}  woken by Send({short_value(task.input)})")
        elif isinstance(event, trace.TaskFinished):
            cached = " (cached)" if event.cached else ""
            if event.error is not None:
                self._line(1, f"task {event.name}{cached}: error {event.error!r}")
            elif event.interrupts:
                values = ", ".join(short_value(getattr(i, "value", i)) for i in event.interrupts)
                self._line(1, f"task {event.name}{cached}: interrupt {values}")
            else:
                self._line(1, f"task {event.name}{cached} wrote:")
                for channel, value in event.writes:
                    self._line(2, f"{channel} = {short_value(value)}")
                if not event.writes:
                    self._line(2, "(nothing)")
        elif isinstance(event, trace.TaskRetried):
            self._line(
                1,
                f"task {event.name}: attempt {event.attempt} failed with {event.error!r}, "
                f"retrying in {event.delay:.2f}s",
            )
        elif isinstance(event, trace.BarrierApplied):
            self._line(1, "barrier:")
            for ch in event.changes:
                self._line(
                    2,
                    f"{ch.channel}: {_version(ch.old_version)} -> {_version(ch.new_version)}, "
                    f"{short_value(ch.old_value, 60)} -> {short_value(ch.new_value, 60)}",
                )
            if not event.changes:
                self._line(2, "(no channel changed)")
        elif isinstance(event, trace.CheckpointSaved):
            indent = 0 if event.step < 0 else 1
            self._line(
                indent,
                f"{ns}checkpoint: source={event.source} step={event.step} id={event.checkpoint_id}",
            )
        # TaskStarted adds nothing the plan and TaskFinished don't already say.


def trace_run(
    graph: Any, run_input: Any, config: dict, observer: trace.Observer
) -> Exception | None:
    """Run `graph` one superstep at a time, handing each step's events to `observer`; returns
    what a node raised (after the events of the step it failed in), or None."""
    stepper = graph.stepper(run_input, config)
    seen = 0
    while not stepper.done:
        failure: Exception | None = None
        try:
            stepper.step()
        except Exception as exc:  # a node raised: report what the step traced first
            failure = exc
        for event in stepper.events[seen:]:
            observer(event)
        seen = len(stepper.events)
        if failure is not None:
            return failure
    return None


__all__ = [
    "TextPrinter",
    "event_json",
    "short_value",
    "short_version",
    "to_json",
    "to_jsonable",
    "trace_run",
]
