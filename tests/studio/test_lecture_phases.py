"""PhaseBook: the engine's trace events of real runs of the lessons, read as phases."""

from __future__ import annotations

from engine.checkpoint.memory import InMemorySaver
from engine.types import Command
from graphspec.compiler import compile_spec, run_config
from graphspec.io import read_spec
from graphspec.templates import TEMPLATES_DIR
from studio.lecture.phases import PhaseBook


def run(stem: str, resume=None) -> tuple[PhaseBook, BaseException | None]:
    spec = read_spec(TEMPLATES_DIR / f"{stem}.json")
    graph = compile_spec(spec, trusted=True, checkpointer=InMemorySaver())
    config = run_config(spec, "t")
    book, error = PhaseBook(), None
    inputs = [spec.inputs[0].value] + ([Command(resume=resume)] if resume is not None else [])
    for value in inputs:
        stepper = graph.stepper(value, config)
        try:
            while not stepper.done:
                stepper.step()
        except Exception as exc:  # the conflict lesson
            error = exc
        book.add(stepper.events)
    return book, error


def find(book: PhaseBook, kind: str, step: int, nth: int = 0):
    return [p for p in book.phases if p.kind == kind and p.step == step][nth]


def test_a_plan_says_which_version_woke_a_node_against_the_one_it_saw():
    book, _ = run("lesson_03_why_fired")
    first, again = find(book, "plan", 1), find(book, "plan", 2)
    ((channel, now, seen),) = first.woke["step"]
    assert channel == "branch:to:step" and seen is None
    ((channel, later, seen),) = again.woke["step"]
    assert seen == now and later != now, "it saw the version that woke it last time"
    assert [p.kind for p in book.phases[:3]] == ["plan", "execute", "barrier"]


def test_parallel_writes_merge_at_the_barrier_and_a_checkpoint_holds_pending_writes():
    book, _ = run("lesson_06_reducer")
    execute, barrier = find(book, "execute", 1), find(book, "barrier", 1)
    assert sorted(p.task for p in execute.packets if p.channel == "items") == [
        "apples",
        "pears",
        "plums",
    ]
    assert sorted(p.value[0] for p in barrier.merges["items"]) == ["apple", "pear", "plum"]
    assert barrier.checkpoint is not None
    assert sorted(t for _s, t in book.pending[execute.pending_for]) == ["apples", "pears", "plums"]
    assert execute.pending_for == book.checkpoints[1][1], "saved against step 0's checkpoint"


def test_a_lastvalue_conflict_becomes_the_barrier_that_raised():
    book, error = run("lesson_07_conflict")
    assert type(error).__name__ == "InvalidUpdateError"
    assert book.failed(f"vote: InvalidUpdateError: {error}")
    barrier = book.phases[-1]
    assert barrier.kind == "barrier" and barrier.conflict[0] == "winner"
    assert [p.value for p in barrier.merges["winner"]] in (["alice", "bob"], ["bob", "alice"])


def test_a_conflict_naming_no_key_is_the_channel_the_step_wrote_twice():
    # a channel built by hand (Pregel) has no key: langgraph's message says "At key ''"
    book, error = run("lesson_07_conflict")
    unnamed = str(error).replace("At key 'winner'", "At key ''")
    assert "At key ''" in unnamed
    assert book.failed(f"vote: InvalidUpdateError: {unnamed}")
    assert book.phases[-1].conflict[0] == "winner"


def test_send_packets_become_tasks_with_their_payloads():
    book, _ = run("lesson_08_send")
    assert [p.kind for p in find(book, "execute", 0).packets].count("send") == 2
    assert find(book, "plan", 1).sends["forecast"] == [{"city": "Oslo"}, {"city": "Lima"}]


def test_an_interrupted_node_is_planned_again_after_resume():
    book, _ = run("lesson_10_interrupt", resume=True)
    assert list(find(book, "execute", 2).interrupts) == ["ask"]
    assert find(book, "plan", 2, nth=1).resumed == {"ask"}


def test_a_subgraph_task_names_its_namespace():
    book, _ = run("lesson_12_subgraph")
    execute = find(book, "execute", 2)
    (space,) = execute.namespaces["shout"]
    assert space.startswith("shout:")
    assert execute.inner["shout"] == [
        "inner step 0: __start__",
        "inner step 1: upper",
        "inner step 2: exclaim",
    ]
