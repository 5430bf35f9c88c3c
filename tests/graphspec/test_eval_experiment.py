"""run_experiment's Stop: the examples not yet started are left, and the experiment says it
was stopped; its progress counts up in order however many examples run at once."""

from __future__ import annotations

import threading

from graphspec import commands
from graphspec.evals.command import scorers_for
from graphspec.evals.datasets import load_dataset
from graphspec.evals.experiment import run_experiment
from graphspec.templates import SOURCE_TEMPLATES


def test_stop_leaves_the_examples_not_yet_started(tmp_path):
    spec, path = commands.load(str(SOURCE_TEMPLATES / "ticket_triage.json"))
    dataset = load_dataset(SOURCE_TEMPLATES / "ticket_triage.tickets.jsonl")
    stop = threading.Event()
    seen = []

    def progress(result, done, total):
        seen.append((result.id, done, total))
        stop.set()  # Stop pressed as the first example ends

    experiment = run_experiment(spec, path, dataset, scorers_for(dataset, [], trusted=False),
                                db=str(tmp_path / "t.sqlite"), trusted=False, concurrency=1,
                                progress=progress, stop=stop)  # fmt: skip
    assert seen == [("refund", 1, 12)]
    assert [e.id for e in experiment.examples] == ["refund"] and experiment.stopped


def test_progress_counts_up_in_order_when_examples_run_at_once(tmp_path):
    """The Datasets dock shows the last count it was told: a count told late (example 1's,
    after example 2's) left its progress bar at 11 of 12 once."""
    spec, path = commands.load(str(SOURCE_TEMPLATES / "ticket_triage.json"))
    dataset = load_dataset(SOURCE_TEMPLATES / "ticket_triage.tickets.jsonl")
    second_told = threading.Event()
    told = []

    def progress(result, done, total):
        if done == 1:  # the first to finish is slow to say so: the second may overtake it
            second_told.wait(0.5)
        told.append(done)
        if done == 2:
            second_told.set()

    run_experiment(spec, path, dataset, scorers_for(dataset, [], trusted=False),
                   db=str(tmp_path / "t.sqlite"), trusted=False, concurrency=4,
                   progress=progress)  # fmt: skip
    assert told == list(range(1, 13))


def test_the_score_distributions_of_two_experiments(tmp_path):
    from graphspec.evals.compare import compare
    from graphspec.evals.results import ExampleResult, Experiment

    def experiment(scores):
        rows = [ExampleResult(str(i), f"t{i}", scores={"s": s}) for i, s in enumerate(scores)]
        return Experiment("x", "spec", "data", "db", "live", ["s"], "now", rows)

    before, after = experiment([0.0, 0.5, 1.0, None]), experiment([1.0, 1.0, 0.9, 0.1])
    assert compare(before, after).distributions() == {"s": ([1, 0, 1, 0, 1], [1, 0, 0, 0, 3])}
