"""Differential tests: `stream_events(version="v3")` runs, their protocol event log and the
run-level results (output, interrupts, errors, subgraph handles), on langgraph and engine."""

from __future__ import annotations

import pytest

from tests.engine.stream.scenarios import (
    chain,
    event_view,
    parent_with_child,
    quiet,
    thread,
)
from tests.oracle import PREFIXES, Backend, assert_same

pytestmark = pytest.mark.differential


def test_the_main_log_numbers_values_and_lifecycle_events_and_hides_tasks():
    def scenario(b):
        child = chain(b, "inner1", "inner2")
        graph = parent_with_child(b, child)
        run = quiet(lambda: graph.stream_events({"items": []}, version="v3"))
        return [event_view(e) for e in run], run.output

    events, output = assert_same(scenario)
    assert output == {"items": ["pre", "pre", "inner1", "inner2"]}
    assert [e[0] for e in events] == list(range(1, len(events) + 1))
    assert {e[1] for e in events} == {"values", "lifecycle"}


def test_output_interrupted_and_interrupts_after_an_interrupt_then_resume():
    def scenario(b):
        graph, types = b.graph, b.types

        def ask(state):
            answer = types.interrupt("name?")
            return {"items": [answer]}

        builder = graph.StateGraph(dict)
        builder.add_node("ask", ask)
        builder.add_edge(graph.START, "ask")
        app = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = thread()
        first = quiet(lambda: app.stream_events({"items": []}, config, version="v3"))
        paused = (first.output, first.interrupted, first.interrupts)
        resumed = quiet(
            lambda: app.stream_events(types.Command(resume="ada"), config, version="v3")
        )
        return paused, (resumed.output, resumed.interrupted, resumed.interrupts)

    paused, resumed = assert_same(scenario)
    assert paused[1] is True and resumed[1] is False


def test_a_failing_node_fails_every_projection_and_the_run_results():
    def scenario(b):
        graph = b.graph

        def boom(state):
            raise ValueError("no luck")

        builder = graph.StateGraph(dict)
        builder.add_node("boom", boom)
        builder.add_edge(graph.START, "boom")
        run = quiet(lambda: builder.compile().stream_events({"x": 1}, version="v3"))
        seen, failures = [], []
        try:
            for snapshot in run.values:
                seen.append(snapshot)
        except ValueError as exc:
            failures.append(("values", str(exc)))
        for attr in ("output", "interrupted", "interrupts"):
            try:
                getattr(run, attr)
            except ValueError as exc:
                failures.append((attr, str(exc)))
        return seen, failures

    seen, failures = assert_same(scenario)
    assert len(failures) == 4


def test_subgraph_handles_carry_their_own_values_and_status():
    def scenario(b):
        grandchild = chain(b, "leaf")
        child = parent_with_child(b, grandchild)
        graph = parent_with_child(b, child)
        run = quiet(lambda: graph.stream_events({"items": []}, version="v3"))
        seen = []
        for handle in run.subgraphs:
            # projections buffer only once subscribed: read the grandchildren first
            nested = [(h.graph_name, h.status, list(h.values)) for h in handle.subgraphs]
            values = list(handle.values)
            seen.append((handle.graph_name, handle.status, values, nested, len(handle.path)))
        return seen, run.output

    seen, _ = assert_same(scenario)
    assert seen[0][1] == "completed" and seen[0][3][0][0] == "child"


def test_lifecycle_reports_every_depth_and_interrupted_subgraphs():
    def scenario(b):
        graph, types = b.graph, b.types

        def ask(state):
            return {"items": [types.interrupt("ok?")]}

        inner = graph.StateGraph(dict)
        inner.add_node("ask", ask)
        inner.add_edge(graph.START, "ask")
        child = parent_with_child(b, inner.compile())
        app = parent_with_child(b, child, checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        run = quiet(lambda: app.stream_events({"items": []}, thread(), version="v3"))
        return [(p["event"], len(p["namespace"]), p.get("graph_name")) for p in run.lifecycle]

    payloads = assert_same(scenario)
    assert ("interrupted", 2, None) in payloads


def test_abort_stops_the_run_and_closes_the_projections():
    def scenario(b):
        graph = chain(b, "a", "b", "c")
        calls = []
        with quiet(lambda: graph.stream_events({"items": []}, version="v3")) as run:
            for snapshot in run.values:
                calls.append(snapshot)
                if len(calls) == 2:
                    break
        run.abort()
        return calls, run.extensions["values"]._closed, run._exhausted

    calls, closed, exhausted = assert_same(scenario)
    assert len(calls) == 2 and closed and exhausted


def test_invariant_kwargs_and_prebuilt_transformers_are_refused():
    def scenario(b):
        graph = chain(b, "a")
        errors = []
        for kwargs in ({"stream_mode": "values"}, {"subgraphs": True}):
            try:
                graph.stream_events({"items": []}, version="v3", **kwargs)
            except TypeError as exc:
                errors.append(str(exc))
        transformer = b.mod("stream.transformers").UpdatesTransformer(())
        try:
            quiet(
                lambda: graph.stream_events({"items": []}, version="v3", transformers=[transformer])
            )
        except TypeError as exc:
            errors.append(str(exc))
        return errors

    assert len(assert_same(scenario)) == 3


@pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")
async def test_async_run_streams_values_and_subgraph_handles():
    async def run_async(b):
        child = chain(b, "inner")
        graph = parent_with_child(b, child)
        run = await graph.astream_events({"items": []}, version="v3")
        handles = []
        async for handle in run.subgraphs:
            handles.append((handle.graph_name, [v async for v in handle.values], handle.status))
        return handles, await run.output(), await run.interrupted()

    results = {prefix: await run_async(Backend(prefix)) for prefix in PREFIXES}
    assert results["engine"] == results["langgraph"]
    assert results["engine"][0][0][0] == "child"
