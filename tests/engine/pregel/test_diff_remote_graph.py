"""RemoteGraph compared with langgraph's: against a scripted sdk client (what is sent, how
events come back) and against one real `langgraph dev` serving exported templates."""

from __future__ import annotations

import copy
from typing import TypedDict

import pytest

from tests.oracle import assert_same, normalize

pytest.importorskip("langgraph_sdk")
from langgraph_sdk.schema import StreamPart  # noqa: E402


class _Runs:
    def __init__(self, events):
        self.events, self.calls = events, []

    def stream(self, **kwargs):
        self.calls.append(kwargs)
        yield from (StreamPart(e, d) for e, d in copy.deepcopy(self.events))


class _Threads:
    def __init__(self):
        self.calls = []

    def get_state(self, **kwargs):
        self.calls.append(("get_state", kwargs))
        return _STATE

    def get_history(self, **kwargs):
        self.calls.append(("get_history", kwargs))
        return [_STATE, _STATE]

    def update_state(self, **kwargs):
        self.calls.append(("update_state", kwargs))
        return {"checkpoint": _STATE["checkpoint"]}


class _Assistants:
    def get_graph(self, **kwargs):
        return {
            "nodes": [
                {"id": "__start__", "type": "schema", "data": "__start__"},
                {"id": "a", "type": "runnable", "data": {"id": ["x"], "name": "a"}},
                {"id": "__end__", "type": "schema", "data": "__end__"},
            ],
            "edges": [
                {"source": "__start__", "target": "a"},
                {"source": "a", "target": "__end__", "conditional": True},
            ],
        }


class _Client:
    def __init__(self, events=()):
        self.runs, self.threads, self.assistants = _Runs(list(events)), _Threads(), _Assistants()


_CKPT = {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "c2", "checkpoint_map": {}}
_STATE = {
    "values": {"x": 1},
    "next": ["b"],
    "checkpoint": _CKPT,
    "metadata": {"step": 1, "source": "loop"},
    "created_at": "2026-01-01T00:00:00+00:00",
    "parent_checkpoint": {**_CKPT, "checkpoint_id": "c1"},
    "tasks": [
        {
            "id": "t1",
            "name": "b",
            "error": None,
            "interrupts": [{"value": "q?", "id": "i1"}],
            "checkpoint": {"thread_id": "t", "checkpoint_ns": "b:t1"},
            "state": None,
            "result": None,
        },
        {"id": "t2", "name": "c", "error": "boom", "interrupts": [], "checkpoint": None,
         "state": None},
    ],
}  # fmt: skip

_EVENTS = [
    ("metadata", {"run_id": "r"}),
    ("values", {"x": 1}),
    ("updates", {"a": {"x": 2}}),
    ("updates|sub:1", {"c": {"x": 3}}),
    ("messages", [{"content": "hi"}, {"langgraph_node": "a"}]),
    ("custom", "note"),
    ("values", {"x": 2, "__interrupt__": [{"value": "q?", "id": "i1"}]}),
]


def _remote(b, client, **kw):
    return b.mod("pregel.remote").RemoteGraph("agent", sync_client=client, **kw)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"stream_mode": "values"},
        {"stream_mode": ["values", "updates", "messages"]},
        {"stream_mode": ["updates", "custom"], "subgraphs": True},
        {"stream_mode": "values", "version": "v2"},
        {"stream_mode": "messages-tuple"},
    ],
)
def test_stream_requests_and_parts(kwargs):
    def scenario(b):
        client = _Client(_EVENTS)
        remote = _remote(b, client, config={"configurable": {"a": 1}, "tags": ["t", 3]})
        config = {
            "configurable": {"thread_id": "t", "checkpoint_id": "x", "obj": object(), "n": [1]},
            "metadata": {"m": {"k": object(), "v": 2}},
            "recursion_limit": 7,
        }
        parts = [normalize(p) for p in remote.stream({"x": 0}, config, **kwargs)]
        return parts, client.runs.calls

    assert_same(scenario)


def test_invoke_command_state_history_update_graph():
    def scenario(b):
        client = _Client(_EVENTS)
        remote = _remote(b, client, name="named")
        config = {"configurable": {"thread_id": "t", "checkpoint_id": "c2"}}
        out = remote.invoke(b.types.Command(resume="yes"), config)
        v2 = remote.invoke({"x": 0}, config, version="v2")
        state = remote.get_state(config, subgraphs=True)
        history = list(remote.get_state_history(config, limit=2, before=config))
        updated = remote.update_state(config, {"x": 5}, as_node="a")
        graph = remote.get_graph(xray=True)
        drawn = (sorted(graph.nodes), [(e.source, e.target, e.conditional) for e in graph.edges])
        empty = _remote(b, _Client([])).invoke({}, config)
        return (remote.name, out, v2, state, history, updated, drawn, empty,
                client.runs.calls, client.threads.calls)  # fmt: skip

    assert_same(scenario)


def test_errors_and_interrupts_as_a_node():
    def scenario(b):
        errors = _remote(b, _Client([("error", {"message": "bad"})]))
        try:
            list(errors.stream({}))
        except Exception as exc:
            raised = (type(exc).__name__, exc.args)
        asked = _remote(b, _Client([("updates", {"__interrupt__": [{"value": "v", "id": "i"}]})]))
        config = {"configurable": {"checkpoint_ns": "node:1"}}
        try:
            list(asked.stream({}, config))
        except b.errors.GraphInterrupt as exc:
            interrupted = exc.args
        no_client = b.mod("pregel.remote").RemoteGraph("x")
        try:
            no_client.invoke({})
        except ValueError as exc:
            missing = str(exc)
        return raised, interrupted, missing, list(asked.stream({}))

    assert_same(scenario)


def test_with_config_and_copy():
    def scenario(b):
        remote = _remote(b, _Client(), config={"configurable": {"a": 1}})
        other = remote.with_config({"configurable": {"b": 2}}, tags=["x"])
        return other.config, other.assistant_id, other.name, other is remote

    assert_same(scenario)


# ------------------------------------------------------------------ a real langgraph dev server
SERVED = ("approval", "router")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from tests.graphspec.test_export_project import serving

    with serving(SERVED, tmp_path_factory) as urls:
        yield urls


def _thread(url: str) -> dict:
    from langgraph_sdk import get_sync_client

    return {"configurable": {"thread_id": get_sync_client(url=url).threads.create()["thread_id"]}}


def _wait_idle(url: str, thread_id: str) -> None:
    """The server finishes a run after its client stopped reading (at an interrupt); a new run
    on the thread before then is refused, so wait for it, whichever RemoteGraph stopped."""
    import time

    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=url)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        runs = client.runs.list(thread_id)
        if all(r["status"] not in ("pending", "running") for r in runs):
            return
        time.sleep(0.05)


def _clean(snapshot) -> tuple:
    # created_at and run ids are per run; the rest must agree
    return (snapshot.values, snapshot.next, snapshot.tasks, snapshot.interrupts,
            {k: v for k, v in snapshot.metadata.items() if k in ("step", "source")})  # fmt: skip


def test_server_router_invoke_stream_state(served):
    url = served["router"]

    def scenario(b):
        remote = b.mod("pregel.remote").RemoteGraph("router", url=url)
        config = _thread(url)
        final = remote.invoke({"total": 10, "visited": []}, config)
        config2 = _thread(url)
        parts = list(remote.stream({"total": 3, "visited": []}, config2, stream_mode="updates"))
        both = list(remote.stream({"total": 1, "visited": []}, stream_mode=["values", "updates"]))
        state = _clean(remote.get_state(config))
        history = [_clean(s) for s in remote.get_state_history(config)]
        graph = remote.get_graph()
        return (final, parts, [tuple(p) for p in both], state, history, sorted(graph.nodes))

    assert_same(scenario)


class Approval(TypedDict, total=False):
    topic: str
    draft: str
    approved: bool
    status: str


def test_server_graph_as_a_node_relays_parts_and_interrupts(served):
    url = served["approval"]

    def scenario(b):
        remote = b.mod("pregel.remote").RemoteGraph("approval", url=url, name="remote")
        g = b.graph.StateGraph(Approval)
        g.add_node("remote", remote)
        g.add_edge(b.graph.START, "remote")
        app = g.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = {"configurable": {"thread_id": "local"}}
        server_thread = _thread(url)["configurable"]["thread_id"]
        config["configurable"]["thread_id"] = server_thread
        first = [
            normalize(p)
            for p in app.stream({"topic": "owls"}, config, stream_mode="updates", subgraphs=True)
        ]
        paused = app.get_state(config)
        _wait_idle(url, server_thread)
        resumed = app.invoke(b.types.Command(resume=True), config)
        _wait_idle(url, server_thread)
        remote_state = _clean(remote.get_state({"configurable": {"thread_id": server_thread}}))
        updated = remote.update_state(
            {"configurable": {"thread_id": server_thread}}, {"status": "edited"}
        )
        return (first, paused.next, [i.value for i in paused.interrupts], resumed,
                remote_state, sorted(updated["configurable"]))  # fmt: skip

    assert_same(scenario)


def test_server_astream(served):
    import asyncio

    url = served["router"]

    def scenario(b):
        remote = b.mod("pregel.remote").RemoteGraph("router", url=url)

        async def run():
            parts = [p async for p in remote.astream({"total": 2, "visited": []})]
            final = await remote.ainvoke({"total": 4, "visited": []})
            return parts, final

        return asyncio.run(run())

    assert_same(scenario)


class _SdkThread:
    """The sdk's v3 thread stream, scripted."""

    def __init__(self, calls):
        self.calls, self.thread_id = calls, "t"
        self.run = self
        self.output, self.interrupted, self.interrupts = {"x": 9}, False, ()
        self.values, self.events = ["v"], ["e1", "e2"]

    def start(self, **kwargs):
        self.calls.append(("start", kwargs))
        return {"run_id": "r"}

    def __enter__(self):
        self.calls.append("enter")

    def __exit__(self, *exc):
        self.calls.append("exit")

    def close(self):
        self.calls.append("close")


def test_v3_run_stream():
    def scenario(b):
        calls = []
        client = _Client()
        client.threads.stream = lambda **kw: calls.append(("stream", kw)) or _SdkThread(calls)
        client.runs.cancel = lambda *a, **kw: calls.append(("cancel", a, kw))
        remote = _remote(b, client, config={"configurable": {"thread_id": "t", "k": 1}})
        with remote.stream_events({"x": 1}, version="v3", metadata={"m": 1}) as run:
            seen = (run.output, run.interrupted, run.interrupts, list(run.values), list(run))
            ext = sorted(run.extensions)
        resume = remote.stream_events(b.types.Command(resume="y"), version="v3")
        with resume as again:
            again.abort()
        refused = []
        for bad in ({"interrupt_before": ["a"]}, {"context": {}}):
            try:
                remote.stream_events({}, version="v3", **bad)
            except NotImplementedError as exc:
                refused.append(str(exc))
        return seen, ext, calls, refused

    assert_same(scenario)
