"""The `superstep` command line: headless, no Qt.

Subcommands:
    demo   build a bundled example graph and print its supersteps from the engine's trace.

Each subcommand is a `_add_<name>(subparsers)` that registers its parser and sets `func`;
`main()` dispatches. Later subcommands (run, validate, export, templates, studio) slot in the same way.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.pregel import trace

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


# ------------------------------------------------------------------ formatting helpers

_VERSION_COUNTER = re.compile(r"^0*(\d+)\.")


def short_version(version: Any) -> Any:
    """A channel version for reading: InMemorySaver's "000...0003.0.123" reads as v3, None as -."""
    if isinstance(version, str):
        m = _VERSION_COUNTER.match(version)
        if m:
            return f"v{int(m.group(1))}"
    return "-" if version is None else f"v{version}"


def short_value(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def to_jsonable(obj: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively; anything else json can't take is
    left for `json.dumps(default=repr)`."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    return obj


def event_json(event: trace.TraceEvent) -> str:
    return json.dumps({"event": type(event).__name__, **to_jsonable(event)}, default=repr)


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
                        f"{ch}@{short_version(v)}" for ch, v in task.trigger_versions.items()
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
        elif isinstance(event, trace.BarrierApplied):
            self._line(1, "barrier:")
            for ch in event.changes:
                self._line(
                    2,
                    f"{ch.channel}: {short_version(ch.old_version)} -> {short_version(ch.new_version)}, "
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


# ------------------------------------------------------------------ demo


def _add_demo(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "demo",
        help="run a bundled example graph and print its supersteps",
        description="Build a bundled example graph headless, run it with an in-memory "
        "checkpointer and print each superstep: plan, task writes, barrier, checkpoint.",
    )
    p.add_argument("--template", default="essay", help="example to run (default: essay)")
    p.add_argument("--json", action="store_true", help="print one JSON object per trace event")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from engine.checkpoint.memory import InMemorySaver
    from engine.examples import EXAMPLES

    example = EXAMPLES.get(args.template)
    if example is None:
        print(
            f"superstep demo: unknown template {args.template!r} (available: {', '.join(EXAMPLES)})",
            file=sys.stderr,
        )
        return EXIT_USAGE

    out = sys.stdout
    graph = example.build().compile(checkpointer=InMemorySaver())
    thread_id = f"demo-{example.name}"
    emit = (lambda e: print(event_json(e), file=out)) if args.json else TextPrinter(out)
    if not args.json:
        print(f"demo {example.name}: {example.description}", file=out)
        print(f"thread {thread_id}, input {short_value(example.input)}", file=out)

    stepper = graph.stepper(example.input, {"configurable": {"thread_id": thread_id}})
    seen = 0
    while not stepper.done:
        failure: Exception | None = None
        try:
            stepper.step()
        except Exception as exc:  # a node raised: print what the step traced, then report it
            failure = exc
        for event in stepper.events[seen:]:
            emit(event)
        seen = len(stepper.events)
        if failure is not None:
            print(f"superstep demo: run failed: {failure!r}", file=sys.stderr)
            return EXIT_ERROR

    if not args.json:
        state = graph.get_state({"configurable": {"thread_id": thread_id}})
        print(f"result {short_value(state.values, 200)}", file=out)
        if state.next:
            print(f"stopped before {', '.join(state.next)}", file=out)
    return EXIT_OK


# ------------------------------------------------------------------ entry point


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="superstep",
        description="Superstep Studio command line: run LangGraph-style graphs headless.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_demo(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `superstep` command line; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # the reader went away (`superstep demo | head`): stop quietly, as other CLI tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR


__all__ = ["main", "build_parser"]

if __name__ == "__main__":
    sys.exit(main())
