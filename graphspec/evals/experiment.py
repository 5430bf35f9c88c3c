"""Running an experiment: a spec's graph over every example of a dataset, scored.

Each example runs on its own thread (`eval-EXPERIMENT-EXAMPLE`) of the spec's checkpoint
database, recorded (`engine.record`), so the debugger can open it and a later experiment can
run offline on its calls: with `replay` (an earlier experiment's results) each example's model
and tool calls are served from that experiment's thread of the same example instead of being
made (and the example runs on the input recorded there). A bounded number of examples run at once; `stop` (a threading.Event) ends the experiment
after the examples already running.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

from graphspec import commands
from graphspec.errors import BadInput
from graphspec.evals.datasets import Dataset, Example
from graphspec.evals.results import ExampleResult, Experiment
from graphspec.evals.scorers import Run, ScoreError, Scorer
from graphspec.model import GraphSpec

Progress = Callable[[ExampleResult, int, int], None]
"""Called (from a worker thread) as each example ends: its result, how many are done, of all."""


def new_experiment_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + uuid4().hex[:4]


def experiment_thread(experiment_id: str, example_id: str) -> str:
    return f"eval-{experiment_id}-{example_id}"


def run_experiment(spec: GraphSpec, path: Path, dataset: Dataset, scorers: list[Scorer], *,
                   db: str, trusted: bool, replay: Experiment | None = None,
                   on_change: str = "fail", concurrency: int = 4,
                   progress: Progress | None = None, stop: threading.Event | None = None,
                   experiment_id: str | None = None) -> Experiment:  # fmt: skip
    """Run every example (at most `concurrency` at once) and score it; the Experiment comes
    back in the dataset's order, `stopped` when `stop` was set before every example ran."""
    from engine.record import RecordingStore
    from graphspec.providers import keyless_models

    db = str(Path(db).resolve())  # a results file read from another folder finds it
    experiment = Experiment(experiment_id or new_experiment_id(), str(path.resolve()),
                            str(dataset.path.resolve()), db, "recorded" if replay else "live", [s.name for s in scorers],
                            datetime.now(UTC).isoformat(timespec="seconds"))  # fmt: skip
    sources = replay.by_id() if replay is not None else {}
    if replay is not None and (missing := [e.id for e in dataset.examples if e.id not in sources]):
        raise BadInput(f"the recorded experiment {replay.id} has no run of example(s) "
                       f"{', '.join(missing)}")  # fmt: skip
    stop = stop or threading.Event()
    results: dict[str, ExampleResult] = {}
    lock = threading.Lock()
    with commands.open_checkpointer(db) as saver:
        # offline on a recording: the models need no key, the recording answers them
        with keyless_models() if replay is not None and on_change != "live" else \
                contextlib.nullcontext():  # fmt: skip
            graph = commands.compile_for_run(spec, path, trusted=trusted, checkpointer=saver)
        store = RecordingStore.for_saver(saver)

        def one(example: Example) -> None:
            if stop.is_set():
                return
            thread = experiment_thread(experiment.id, example.id)
            source = sources[example.id].thread if example.id in sources else None
            result = _run_example(graph, spec, store, example, thread, source, on_change,
                                  scorers)  # fmt: skip
            with lock:  # told in the order counted: a late count never follows a newer one
                results[example.id] = result
                if progress is not None:
                    progress(result, len(results), len(dataset.examples))

        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            for future in [pool.submit(one, e) for e in dataset.examples]:
                future.result()
    experiment.examples = [results[e.id] for e in dataset.examples if e.id in results]
    experiment.stopped = len(experiment.examples) < len(dataset.examples)
    return experiment


def _run_example(graph: Any, spec: GraphSpec, store: Any, example: Example, thread: str,
                 source: str | None, on_change: str, scorers: list[Scorer]) -> ExampleResult:  # fmt: skip
    from engine.pregel.trace_format import to_json
    from engine.record import plan_thread, record
    from graphspec.compiler import run_config

    result = ExampleResult(example.id, thread, input=example.input)
    config = run_config(spec, thread)
    started = time.perf_counter()
    try:
        if source is None:
            record(config, store)
            graph.invoke(dict(example.input), config)
        else:
            report = plan_thread(graph, source, thread, on_change=on_change,
                                 config=run_config(spec), store=store).run()  # fmt: skip
            if report.error is not None:
                raise report.error
    except Exception as exc:  # noqa: BLE001 - the example's error, kept with its traceback
        result.error = f"{type(exc).__name__}: {exc}".splitlines()[0]
        result.traceback = "".join(traceback.format_exception(exc))
    result.latency_s = round(time.perf_counter() - started, 4)
    state = graph.get_state(config)
    result.output = json.loads(to_json(state.values))
    if result.error is None and (state.next or state.interrupts):
        result.error = f"stopped before {', '.join(state.next) or 'an interrupt'} (not finished)"
    result.trajectory = _trajectory(graph, config)
    result.tools = _tools(result.output)
    result.model_calls = sum(c.kind == "model" for c in store.calls(thread))
    result.tokens = _tokens(state.values)
    run = Run(result.output, result.trajectory, result.tools)
    for scorer in scorers:
        if result.error is not None:  # a partial state is not an answer to score
            result.scores[scorer.name] = None
            result.score_errors[scorer.name] = "the run did not finish"
            continue
        try:
            result.scores[scorer.name] = scorer.score(run, example)
        except ScoreError as exc:
            result.scores[scorer.name] = None
            result.score_errors[scorer.name] = str(exc)
        except Exception as exc:  # noqa: BLE001 - a custom scorer's bug is this example's
            result.scores[scorer.name] = None
            result.score_errors[scorer.name] = f"{type(exc).__name__}: {exc}"
    return result


def _trajectory(graph: Any, config: dict) -> list[str]:
    """The nodes run, in order: each checkpoint's tasks but the last's (those have not run)."""
    history = list(graph.get_state_history(config))[::-1]  # oldest first
    names: list[str] = []
    for snapshot in history[:-1]:
        names += sorted(t.name for t in snapshot.tasks if not t.name.startswith("__"))
    return names


def _tools(output: Any) -> list[str]:
    """The tools the model asked for, in order, from the output's messages."""
    names: list[str] = []
    for value in output.values() if isinstance(output, dict) else ():
        for item in value if isinstance(value, list) else ():
            if isinstance(item, dict) and item.get("type") == "ai":
                names += [c.get("name", "") for c in item.get("tool_calls") or []]
    return names


def _tokens(values: Any) -> int | None:
    total, reported = 0, False
    for value in values.values() if isinstance(values, dict) else ():
        for item in value if isinstance(value, list) else ():
            usage = getattr(item, "usage_metadata", None)
            if usage:
                total += int(usage.get("total_tokens") or 0)
                reported = True
    return total if reported else None


__all__ = ["Progress", "experiment_thread", "new_experiment_id", "run_experiment"]
