"""Differential tests: bulk_update_state and update_state's special nodes (__end__, __input__,
__copy__), on both backends."""

import operator
import uuid
from typing import Annotated, TypedDict

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    foo: str
    log: Annotated[list[str], operator.add]


def build(b):
    saver = b.mod("checkpoint.memory").InMemorySaver()
    graph = b.graph.StateGraph(State)
    graph.add_node("a", lambda s: {"foo": "a", "log": ["a"]})
    graph.add_node("b", lambda s: {"foo": "b", "log": ["b"]})
    graph.add_edge(b.graph.START, "a")
    graph.add_edge("a", "b")
    return graph.compile(checkpointer=saver, interrupt_before=["b"]), saver


def thread() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


def history(graph, config) -> list:
    return [
        (h.metadata["source"], h.metadata["step"], h.next, h.values)
        for h in graph.get_state_history(config)
    ]


def test_updates_in_one_superstep_share_a_checkpoint_and_each_superstep_makes_one():
    def scenario(b):
        graph, saver = build(b)
        Update = b.types.StateUpdate  # noqa: N806
        config = thread()
        graph.bulk_update_state(config, [[Update({"foo": "x", "log": ["x"]}, "a")]])
        graph.bulk_update_state(
            config, [[Update({"foo": "y", "log": ["y"]}, "a"), Update({"log": ["z"]}, "b")]]
        )
        other = thread()
        graph.bulk_update_state(
            other,
            [[Update({"foo": "1"}, "a")], [Update({"foo": "2"}, "b"), ({"log": ["3"]}, "a", None)]],
        )
        return (
            graph.get_state(config).values,
            len(list(saver.list(config))),
            history(graph, config),
            history(graph, other),
        )

    assert_same(scenario)


def test_bulk_update_refuses_what_langgraph_refuses():
    def scenario(b):
        graph, _ = build(b)
        Update = b.types.StateUpdate  # noqa: N806
        config = thread()
        graph.update_state(config, {"foo": "seed"}, as_node="a")
        attempts = {
            "no supersteps": [],
            "empty superstep": [[], []],
            "two without as_node": [[Update({"foo": "1"}), Update({"foo": "2"})]],
            "unknown node": [[Update({"foo": "1"}, "nope"), Update({"foo": "2"}, "a")]],
            "end and copy together": [[Update(None, "__end__"), Update(None, "__copy__")]],
            "input twice": [[Update({"foo": "1"}, "__input__"), Update({"foo": "2"}, "__input__")]],
            "copy twice": [[Update(None, "__copy__"), Update(None, "__copy__")]],
            "a pair, not a triple": [[({"foo": "1"}, "a")]],
        }
        out = {}
        for name, supersteps in attempts.items():
            try:
                graph.bulk_update_state(config, supersteps)
                out[name] = "accepted"
            except Exception as exc:
                out[name] = (type(exc).__name__, str(exc))
        try:
            graph.update_state(thread(), None, as_node="__copy__")
        except Exception as exc:
            out["copy of nothing"] = (type(exc).__name__, str(exc))
        return out

    assert_same(scenario)


def test_ending_pending_tasks_keeps_their_finished_writes():
    def scenario(b):
        graph, _ = build(b)
        config = thread()
        graph.invoke({"foo": "in", "log": []}, config)
        before = graph.get_state(config)
        graph.update_state(config, None, as_node="__end__")
        after = graph.get_state(config)
        return (before.next, before.values), (after.next, after.values), history(graph, config)

    assert_same(scenario)


def test_an_update_as_input_starts_the_graph_again():
    def scenario(b):
        graph, _ = build(b)
        config = thread()
        graph.update_state(config, {"foo": "typed in", "log": ["in"]}, as_node="__input__")
        state = graph.get_state(config)
        result = graph.invoke(None, config)
        return state.next, state.values, result, history(graph, config)

    assert_same(scenario)


def test_copy_forks_a_checkpoint_and_can_update_the_fork():
    def scenario(b):
        graph, _ = build(b)
        config = thread()
        graph.invoke({"foo": "in", "log": []}, config)
        forked = graph.update_state(config, None, as_node="__copy__")
        fork_state = graph.get_state(forked)
        updated = graph.update_state(
            config, [({"foo": "edited", "log": ["edit"]}, "a")], as_node="__copy__"
        )
        return (
            fork_state.metadata["source"],
            fork_state.values,
            fork_state.next,
            graph.get_state(updated).values,
            graph.invoke(None, updated),
            [h[:2] for h in history(graph, config)],
        )

    assert_same(scenario)


def test_an_update_on_a_new_thread_is_step_zero():
    def scenario(b):
        graph, _ = build(b)
        config = thread()
        graph.update_state(config, {"foo": "first"}, as_node="a")
        return history(graph, config)

    assert_same(scenario)


class Doubled(TypedDict):
    num: int
    text: str


def _doubler(b):
    graph_mod = b.graph
    g = graph_mod.StateGraph(Doubled)
    g.add_node("double", lambda s: {"num": s["num"] * 2, "text": s["text"] * 2})
    g.add_edge(graph_mod.START, "double")
    return g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())


def _results(graph, config):
    return [
        (s.metadata["source"], s.next, [(t.name, t.result) for t in s.tasks])
        for s in graph.get_state_history(config)
    ]


def test_updates_show_as_the_planned_tasks_results_in_the_history():
    """Each update's writes are kept on the checkpoint it updated, under the id of the task
    that checkpoint planned for the node, so the history reads like the real run's."""

    def scenario(b):
        graph, update = _doubler(b), b.types.StateUpdate
        run = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"num": 1, "text": "one"}, run)
        bulk = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.bulk_update_state(
            bulk,
            [
                [update(values={}, as_node="__input__")],
                [update(values={"num": 1, "text": "one"}, as_node="__start__")],
                [update(values={"num": 2, "text": "oneone"}, as_node="double")],
            ],
        )
        return _results(graph, run), _results(graph, bulk)

    assert_same(scenario)


def test_an_update_of_a_past_checkpoint_keeps_its_writes_off_it():
    """The thread moved past the checkpoint updated: its other child must not see the update's
    writes, so they are not kept there (the fork holds them applied)."""

    def scenario(b):
        graph = _doubler(b)
        config = {"configurable": {"thread_id": str(uuid.uuid4())}}
        graph.invoke({"num": 1, "text": "one"}, config)
        first = list(graph.get_state_history(config))[-1]
        graph.update_state(first.config, {"num": 5, "text": "five"}, as_node="__start__")
        return _results(graph, config), graph.invoke(None, config)

    assert_same(scenario)


def _async_router_graph(b, saver):
    graph_mod = b.graph

    class Q(TypedDict):
        q: str
        docs: Annotated[list, operator.add]

    async def rewrite(state):
        return {"q": "rewritten " + state["q"]}

    async def retrieve(state):
        return {"docs": ["doc"]}

    async def decide(state):  # an async router: only the async API can call it
        return "retrieve"

    g = graph_mod.StateGraph(Q)
    g.add_node("rewrite", rewrite)
    g.add_node("retrieve", retrieve)
    g.add_edge(graph_mod.START, "rewrite")
    g.add_conditional_edges("rewrite", decide, {"retrieve": "retrieve"})
    return g.compile(checkpointer=saver, interrupt_after=["rewrite"])


@pytest.mark.parametrize("saver", ["memory", "sqlite"])
def test_aupdate_state_runs_an_async_router_of_the_node(saver, tmp_path):
    """aupdate_state writes as a node whose conditional edge is async: the router is awaited
    (update_state, sync, could not call it)."""
    import asyncio

    def scenario(b):
        async def run():
            if saver == "memory":
                return await steps(b.mod("checkpoint.memory").InMemorySaver())
            aio = b.mod("checkpoint.sqlite.aio").AsyncSqliteSaver
            async with aio.from_conn_string(str(tmp_path / f"{b.prefix}.db")) as conn:
                return await steps(conn)

        async def steps(checkpointer):
            graph = _async_router_graph(b, checkpointer)
            config = {"configurable": {"thread_id": "t"}}
            first = [c async for c in graph.astream({"q": "x", "docs": []}, config)]
            await graph.aupdate_state(config, {"docs": ["given"]}, as_node="rewrite")
            state = await graph.aget_state(config)
            rest = [c async for c in graph.astream(None, config)]
            bulk = await graph.abulk_update_state(
                config, [[b.types.StateUpdate({"docs": ["bulk"]}, "retrieve")]]
            )
            after = await graph.aget_state(bulk)
            return first, state.values, state.next, rest, after.values, after.metadata

        return asyncio.run(run())

    assert_same(scenario)


def test_a_router_reading_remaining_steps_routes_an_update():
    """update_state as a node whose conditional edge reads a managed value (the studio's
    re-run with edited state): the router sees two steps left, as langgraph shows it."""

    def scenario(b):
        class Counting(TypedDict):
            count: int
            left: b.mod("managed").RemainingSteps

        graph = b.graph.StateGraph(Counting)
        graph.add_node("inc", lambda s: {"count": s["count"] + 1})
        graph.add_edge(b.graph.START, "inc")
        graph.add_conditional_edges(
            "inc", lambda s: "inc" if s["count"] < 3 and s["left"] > 1 else b.graph.END
        )
        graph = graph.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = thread()
        graph.invoke({"count": 0}, config)
        past = next(h for h in graph.get_state_history(config) if h.metadata["step"] == 1)
        forked = graph.update_state(past.config, {"count": 1}, as_node="inc")
        return graph.get_state(forked).next, graph.invoke(None, forked), history(graph, config)[:2]

    assert_same(scenario)
