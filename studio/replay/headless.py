"""`superstep replay`: a recorded thread of a spec run again headless, and the run diff.

The spec is compiled as it is now (edited code included), the source thread's recorded calls
are served (`engine.record`), and the new thread is compared with the source step by step.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TextIO

from engine.record import RecordingStore, free_thread_id, plan_from, plan_thread
from graphspec import commands
from graphspec.errors import BadInput
from graphspec.model import GraphSpec
from graphspec.providers import keyless_models
from studio.replay.run_diff import diff_threads

SERVE = {"all": ("model", "tool"), "models": ("model",)}


def replay_spec(spec: GraphSpec, path: Path, *, db: str, thread: str, into: str | None,
                checkpoint: str | None, on_change: str, serve: str, trusted: bool,
                out: TextIO) -> bool:  # fmt: skip
    """Replay `thread` of the spec's `db` into `into` (default `THREAD-replay-N`), print the
    report, the new state and the run diff; True when the replay ran to its end."""
    from engine.pregel.trace_format import to_json
    from graphspec.compiler import run_config

    with commands.open_checkpointer(db) as saver:
        store = RecordingStore.for_saver(saver)
        if not store.runs(thread):
            raise BadInput(f"thread {thread!r} of {db} has no recording (run it with --record)")
        # a replay that never goes live needs no key: the recording answers the model calls
        with keyless_models() if on_change != "live" else contextlib.nullcontext():
            graph = commands.compile_for_run(spec, path, trusted=trusted, checkpointer=saver)
        into = into or free_thread_id(saver, f"{thread}-replay")
        base = run_config(spec)
        options = dict(on_change=on_change, serve=SERVE[serve], config=base, store=store)
        try:  # an unknown checkpoint, a target thread that exists: bad input, said in one line
            plan = (plan_from(graph, thread, checkpoint, into, **options) if checkpoint
                    else plan_thread(graph, thread, into, **options))  # fmt: skip
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        report = plan.run()
        print(report.summary(), file=out)
        for decision in report.changed:
            print(decision.describe(), file=out)
        state = graph.get_state({"configurable": {"thread_id": into}})
        print(to_json(state.values), file=out)
        for line in diff_threads(graph, thread, into).lines():
            print(line, file=out)
    return report.error is None
