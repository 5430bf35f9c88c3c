"""Differential tests of persistence (issue 3): state snapshots, history, update_state, replay,
fork, static interrupts, subgraph checkpointer modes, thread deletion and parallel interrupts.

Each scenario runs on the `backend` fixture's library and, as the oracle, on langgraph (cached
per scenario and saver), with an InMemorySaver and with a SqliteSaver on a file. Everything it
observes is turned into plain data: every field of each StateSnapshot (values, next, config,
metadata, created_at, parent_config, tasks with their errors and interrupts, interrupts),
results, exceptions (type and message), call logs. Ids (checkpoint, task, interrupt ids) are
relabelled by order of first appearance, so "this parent_config is that checkpoint's config"
is compared too; timestamps are checked to be ISO times, then masked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import operator
import re
import sqlite3
import threading
from typing import Annotated, Any, TypedDict

import pytest

from tests.oracle import Backend

pytestmark = pytest.mark.differential

SAVERS = ("memory", "sqlite")
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b")
_TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?$")


class Log(TypedDict):
    log: Annotated[list[str], operator.add]
    n: int


def cfg(thread: str = "t") -> dict:
    return {"configurable": {"thread_id": thread}}


# ------------------------------------------------------------------------------- plumbing


class Run:
    """One scenario run: a backend, a saver kind, a folder for files, and observations."""

    def __init__(self, b: Backend, kind: str, folder):
        self.b, self.kind, self.folder = b, kind, folder
        self.seen: list = []
        self._conns: list = []

    def saver(self, name: str = "db"):
        if self.kind == "memory":
            return self.b.mod("checkpoint.memory").InMemorySaver()
        conn = sqlite3.connect(self.folder / f"{name}.sqlite", check_same_thread=False)
        self._conns.append(conn)
        return self.b.mod("checkpoint.sqlite").SqliteSaver(conn)

    def see(self, label: str, fn, *args, **kwargs) -> Any:
        """Record what fn(*args) returns (or raises); return the value (None on error)."""
        try:
            value = fn(*args, **kwargs)
        except Exception as exc:  # an outcome to compare, like any value
            self.seen.append((label, "raised", type(exc).__name__, str(exc)))
            return None
        self.seen.append((label, plain(value)))
        return value

    def note(self, label: str, value: Any) -> None:
        self.seen.append((label, plain(value)))

    def close(self) -> None:
        for conn in self._conns:
            conn.close()


def plain(value: Any) -> Any:
    """Snapshots, tasks, interrupts, configs... as plain dicts/lists/tuples."""
    if isinstance(value, BaseException):
        return ("error", type(value).__name__, str(value))
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # StateSnapshot, PregelTask...
        return (type(value).__name__, {f: plain(getattr(value, f)) for f in value._fields})
    if isinstance(value, (list, tuple)):
        items = [plain(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    cls = type(value).__name__
    if cls == "Interrupt":
        return ("Interrupt", plain(value.value), plain(value.id))
    if cls in ("Send", "Command"):
        return (cls, repr(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (cls, {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)})
    if isinstance(value, str) and _TS.match(value):
        dt.datetime.fromisoformat(value)  # a real time
        return "<ts>"
    return value


def relabel(value: Any, labels: dict) -> Any:
    if isinstance(value, str):
        return _ID.sub(lambda m: labels.setdefault(m.group(), f"<id{len(labels)}>"), value)
    if isinstance(value, dict):
        return {relabel(k, labels): relabel(v, labels) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [relabel(v, labels) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


_ORACLE: dict = {}


def observe(scenario, prefix: str, kind: str, folder) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    run = Run(Backend(prefix), kind, folder)
    try:
        scenario(run)
    finally:
        run.close()
    return relabel(run.seen, {})


def check(scenario, backend: Backend, kind: str, tmp_path, key: Any = None) -> list:
    """Observations of `scenario` on `backend` must equal langgraph's; return them."""
    got = observe(scenario, backend.prefix, kind, tmp_path / backend.prefix)
    oracle_key = (scenario.__name__, kind, key)
    if oracle_key not in _ORACLE:
        if backend.prefix == "langgraph":
            _ORACLE[oracle_key] = got
        else:
            _ORACLE[oracle_key] = observe(scenario, "langgraph", kind, tmp_path / "oracle")
    expected = _ORACLE[oracle_key]
    for i, (mine, theirs) in enumerate(zip(got, expected, strict=False)):
        assert mine == theirs, f"observation {i} ({theirs[0]}) differs from langgraph"
    assert len(got) == len(expected)
    return got


@pytest.fixture(params=SAVERS)
def kind(request) -> str:
    return request.param


def history(app, config, **kwargs) -> list:
    return list(app.get_state_history(config, **kwargs))


# ------------------------------------------------------------------------------- graphs


def abc_graph(run: Run, calls: list, saver=None, **compile_kwargs):
    g = run.b.graph

    def node(name: str):
        def fn(state: Log) -> dict:
            calls.append(name)
            return {"log": [name], "n": state.get("n", 0) + 1}

        return fn

    builder = g.StateGraph(Log)
    for name in "abc":
        builder.add_node(name, node(name))
    builder.add_edge(g.START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    builder.add_edge("c", g.END)
    return builder.compile(checkpointer=saver or run.saver(), **compile_kwargs)


# ------------------------------------------------------------------------------- get_state


def scenario_get_state_fields(run: Run) -> None:
    calls: list = []
    app = abc_graph(run, calls, interrupt_after=["a"])
    run.see("first invoke", app.invoke, {"log": ["in"], "n": 0}, cfg())
    run.see("paused state", app.get_state, cfg())
    run.see("resume", app.invoke, None, cfg())
    run.see("final state", app.get_state, cfg())
    run.see("history", history, app, cfg())
    run.see("missing thread", app.get_state, cfg("nobody"))
    run.note("calls", calls)


def test_get_state_fields(backend, kind, tmp_path):
    check(scenario_get_state_fields, backend, kind, tmp_path)


def scenario_task_errors(run: Run) -> None:
    g = run.b.graph
    calls: list = []
    fail = [True]
    ok_ran = threading.Event()

    def ok(state: Log) -> dict:
        calls.append("ok")
        ok_ran.set()
        return {"log": ["ok"]}

    def boom(state: Log) -> dict:
        calls.append("boom")
        if fail[0]:
            # fail once the sibling finished: langgraph cancels siblings that have not started
            ok_ran.wait(timeout=5)
            raise ValueError("boom failed")
        return {"log": ["boom"]}

    builder = g.StateGraph(Log)
    builder.add_node("ok", ok)
    builder.add_node("boom", boom)
    builder.add_node("after", lambda s: {"n": len(s["log"])})
    builder.add_edge(g.START, "ok")
    builder.add_edge(g.START, "boom")
    builder.add_edge(["ok", "boom"], "after")
    app = builder.compile(checkpointer=run.saver())
    run.see("failing invoke", app.invoke, {"log": [], "n": 0}, cfg())
    run.see("state after error", app.get_state, cfg())
    run.see("history after error", history, app, cfg())
    fail[0] = False
    run.see("retry", app.invoke, None, cfg())
    run.see("state after retry", app.get_state, cfg())
    run.note("calls", calls)


def test_get_state_tasks_with_errors(backend, kind, tmp_path):
    check(scenario_task_errors, backend, kind, tmp_path)


def scenario_interrupts_in_state(run: Run) -> None:
    g, interrupt = run.b.graph, run.b.types.interrupt
    Command = run.b.types.Command
    calls: list = []

    def ask(state: Log) -> dict:
        calls.append("ask")
        first = interrupt("first?")
        second = interrupt({"q": "second?", "after": first})
        return {"log": [f"{first}/{second}"]}

    builder = g.StateGraph(Log)
    builder.add_node("ask", ask)
    builder.add_node("side", lambda s: {"n": 1})
    builder.add_edge(g.START, "ask")
    builder.add_edge(g.START, "side")
    app = builder.compile(checkpointer=run.saver())
    run.see("invoke", app.invoke, {"log": []}, cfg())
    run.see("state, first interrupt", app.get_state, cfg())
    run.see("resume 1", app.invoke, Command(resume="one"), cfg())
    run.see("state, second interrupt", app.get_state, cfg())
    run.see("resume 2", app.invoke, Command(resume="two"), cfg())
    run.see("state, done", app.get_state, cfg())
    run.see("history", history, app, cfg())
    run.note("calls", calls)


def test_get_state_tasks_with_interrupts(backend, kind, tmp_path):
    check(scenario_interrupts_in_state, backend, kind, tmp_path)


class Pairs(TypedDict):
    pair: Any
    items: Annotated[list, operator.add]


def scenario_tuples_after_a_round_trip(run: Run) -> None:
    """A tuple in state is a tuple while the run holds it, and a list once it comes back from
    the saver: in get_state, in history, and in the node a resume runs again."""
    g, types = run.b.graph, run.b.types
    seen: list = []

    def make(state: Pairs) -> dict:
        return {"pair": (1, (2, 3)), "items": [("a", 1)]}

    def ask(state: Pairs) -> dict:
        seen.append(("before", type(state["pair"]).__name__, plain(state)))
        answer = types.interrupt("ok?")
        seen.append(("after", type(state["pair"]).__name__, plain(state)))
        return {"items": [(answer, 2)]}

    def fan(state: Pairs) -> list:
        return [types.Send("use", {"pair": state["pair"], "items": []})]

    def use(state: Pairs) -> dict:
        seen.append(("send", type(state["pair"]).__name__, plain(state)))
        return {}

    builder = g.StateGraph(Pairs)
    builder.add_node("make", make)
    builder.add_node("ask", ask)
    builder.add_node("use", use)
    builder.add_edge(g.START, "make")
    builder.add_edge("make", "ask")
    builder.add_conditional_edges("ask", fan, ["use"])
    app = builder.compile(checkpointer=run.saver())
    run.see("invoke", app.invoke, {"pair": None, "items": []}, cfg())
    run.see("state", app.get_state, cfg())
    run.see("resume", app.invoke, types.Command(resume="yes"), cfg())
    run.see("history", history, app, cfg())
    run.note("seen", seen)


def test_tuples_in_state_read_back_as_lists(backend, kind, tmp_path):
    check(scenario_tuples_after_a_round_trip, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- history


def scenario_history_filters(run: Run) -> None:
    calls: list = []
    saver = run.saver()
    app = abc_graph(run, calls, saver)
    app.invoke({"log": [], "n": 0}, cfg())
    app.invoke({"log": ["again"]}, cfg())
    app.invoke({"log": ["other"]}, cfg("other"))

    def steps(items) -> list:
        return [(s.metadata["source"], s.metadata["step"], s.next) for s in items]

    everything = history(app, cfg())
    run.note("all", steps(everything))
    run.note("configs", [(s.config, s.parent_config) for s in everything])
    run.note("inputs", steps(history(app, cfg(), filter={"source": "input"})))
    run.note("step 1", steps(history(app, cfg(), filter={"step": 1})))
    run.note("loop step 2", steps(history(app, cfg(), filter={"source": "loop", "step": 2})))
    run.note("no match", steps(history(app, cfg(), filter={"source": "update"})))
    run.note("limit 3", steps(history(app, cfg(), limit=3)))
    before = everything[3].config
    run.note("before", steps(history(app, cfg(), before=before)))
    run.note("before + limit", steps(history(app, cfg(), before=before, limit=2)))
    run.note("filter + limit", steps(history(app, cfg(), filter={"source": "loop"}, limit=2)))
    run.note(
        "saver.list(None) threads",
        sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)}),
    )
    run.note("saver.list other", steps_of(saver.list(cfg("other"))))
    run.note("saver.list limit", steps_of(saver.list(cfg(), limit=2)))


def steps_of(tuples) -> list:
    return [(t.metadata["source"], t.metadata["step"]) for t in tuples]


def test_get_state_history_filters_before_limit_order(backend, kind, tmp_path):
    check(scenario_history_filters, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- update_state


def scenario_update_state_as_node(run: Run) -> None:
    g = run.b.graph
    calls: list = []

    def node(name: str):
        def fn(state: Log) -> dict:
            calls.append(name)
            return {"log": [name], "n": state["n"] + 1}

        return fn

    builder = g.StateGraph(Log)
    for name in ("a", "b", "big", "small"):
        builder.add_node(name, node(name))
    builder.add_edge(g.START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", lambda s: "big" if s["n"] > 10 else "small")
    builder.add_edge("big", g.END)
    builder.add_edge("small", g.END)
    app = builder.compile(checkpointer=run.saver(), interrupt_before=["b"])
    run.see("invoke", app.invoke, {"log": [], "n": 0}, cfg())
    # the reducer appends; as_node="a" means b runs next
    config = run.see("update as a", app.update_state, cfg(), {"log": ["edit"], "n": 5}, as_node="a")
    run.see("state after update as a", app.get_state, cfg())
    run.see("get_state(returned config)", app.get_state, config)
    # as_node="b": b's conditional edge reads the updated state and picks what runs next
    run.see("update as b", app.update_state, cfg(), {"n": 50}, as_node="b")
    run.see("state after update as b", app.get_state, cfg())
    run.see("continue", app.invoke, None, cfg())
    # without as_node, on a finished thread: the last node that ran
    run.see("update, default as_node", app.update_state, cfg(), {"log": ["late"]})
    run.see("state after default update", app.get_state, cfg())
    run.see("unknown node", app.update_state, cfg(), {"n": 1}, as_node="nope")
    run.note("history", [(s.metadata, s.next) for s in history(app, cfg())])
    run.note("calls", calls)


def test_update_state_through_reducers_and_as_node(backend, kind, tmp_path):
    check(scenario_update_state_as_node, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- replay / fork


def ran_abc(run: Run):
    """a -> b -> c run once; returns (app, calls cleared, the checkpoint whose next is b)."""
    calls: list = []
    app = abc_graph(run, calls)
    app.invoke({"log": ["in"], "n": 0}, cfg())
    past = next(s for s in history(app, cfg()) if s.next == ("b",))
    calls.clear()
    return app, calls, past


def note_branches(run: Run, app, calls: list) -> None:
    run.note("calls", calls)
    run.see("latest", app.get_state, cfg())
    run.note(
        "history", [(s.metadata, s.next, s.config, s.parent_config) for s in history(app, cfg())]
    )


def scenario_replay(run: Run) -> None:
    app, calls, past = ran_abc(run)
    run.see("replay", app.invoke, None, past.config)
    note_branches(run, app, calls)
    run.see("past checkpoint unchanged", app.get_state, past.config)


def test_replay_from_a_past_checkpoint(backend, kind, tmp_path):
    check(scenario_replay, backend, kind, tmp_path)


def scenario_fork(run: Run) -> None:
    app, calls, past = ran_abc(run)
    original = app.get_state(cfg())
    fork = run.see("fork", app.update_state, past.config, {"log": ["forked"], "n": 100})
    run.see("fork state", app.get_state, fork)
    run.see("continue fork", app.invoke, None, fork)
    note_branches(run, app, calls)
    run.see("old branch", app.get_state, original.config)


def test_fork_from_a_past_checkpoint(backend, kind, tmp_path):
    check(scenario_fork, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- static interrupts


def scenario_static_interrupts(run: Run) -> None:
    calls: list = []
    app = abc_graph(run, calls, interrupt_before=["b"], interrupt_after=["b"])
    run.see("until before b", app.invoke, {"log": [], "n": 0}, cfg())
    run.see("state before b", app.get_state, cfg())
    run.see("until after b", app.invoke, None, cfg())
    run.see("state after b", app.get_state, cfg())
    run.see("to the end", app.invoke, None, cfg())
    run.see("history", history, app, cfg())
    run.note("calls", calls)
    # given to invoke instead of compile
    calls.clear()
    plain_app = abc_graph(run, calls, saver=run.saver("second"))
    run.see("invoke interrupt_after", plain_app.invoke, {"log": [], "n": 0}, cfg("2"),
            interrupt_after=["a"])  # fmt: skip
    run.see("state", plain_app.get_state, cfg("2"))
    run.see("invoke interrupt_before", plain_app.invoke, None, cfg("2"), interrupt_before=["c"])
    run.see("state", plain_app.get_state, cfg("2"))
    run.see("finish", plain_app.invoke, None, cfg("2"))
    run.note("calls", calls)


def test_interrupt_before_and_after(backend, kind, tmp_path):
    check(scenario_static_interrupts, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- subgraphs


class Sub(TypedDict):
    log: Annotated[list[str], operator.add]
    visits: Annotated[int, operator.add]


def subgraph_scenario(mode):
    def scenario(run: Run) -> None:
        g, interrupt = run.b.graph, run.b.types.interrupt
        Command = run.b.types.Command

        def inner(state: Sub) -> dict:
            answer = interrupt(f"visit {state.get('visits', 0)}?")
            return {"log": [f"inner:{answer}"], "visits": 1}

        sub = g.StateGraph(Sub)
        sub.add_node("inner", inner)
        sub.add_edge(g.START, "inner")
        sub_app = sub.compile(checkpointer=mode)

        parent = g.StateGraph(Sub)
        parent.add_node("sub", sub_app)
        parent.add_edge(g.START, "sub")
        saver = run.saver()
        app = parent.compile(checkpointer=saver)
        for round_ in range(2):
            run.see(f"invoke {round_}", app.invoke, {"log": [f"round {round_}"]}, cfg())
            run.see(f"state {round_}", app.get_state, cfg(), subgraphs=True)
            run.see(f"resume {round_}", app.invoke, Command(resume=f"yes{round_}"), cfg())
            run.see(f"state after resume {round_}", app.get_state, cfg(), subgraphs=True)
        saved = sorted(saver.list(None), key=lambda t: t.config["configurable"]["checkpoint_id"])
        namespaces = [t.config["configurable"]["checkpoint_ns"] for t in saved]
        run.note("namespaces saved, oldest first", list(dict.fromkeys(namespaces)))

    scenario.__name__ = f"scenario_subgraph_{mode}"
    return scenario


@pytest.mark.parametrize("mode", [None, True, False], ids=["inherit", "per-thread", "none"])
def test_subgraph_checkpointer_modes(backend, kind, tmp_path, mode):
    check(subgraph_scenario(mode), backend, kind, tmp_path)


# ------------------------------------------------------------------------------- threads


def scenario_delete_thread(run: Run) -> None:
    calls: list = []
    saver = run.saver()
    app = abc_graph(run, calls, saver)
    for thread in ("keep", "drop"):
        app.invoke({"log": [thread], "n": 0}, cfg(thread))
    run.see("delete", saver.delete_thread, "drop")
    run.see("deleted thread state", app.get_state, cfg("drop"))
    run.note("deleted thread history", history(app, cfg("drop")))
    run.see("kept thread state", app.get_state, cfg("keep"))
    run.note(
        "threads left", sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)})
    )
    run.see("run again on the deleted thread", app.invoke, {"log": ["new"], "n": 0}, cfg("drop"))
    run.note("new history", [(s.metadata["step"], s.next) for s in history(app, cfg("drop"))])


def test_delete_thread(backend, kind, tmp_path):
    check(scenario_delete_thread, backend, kind, tmp_path)


# ------------------------------------------------------------------------------- parallel interrupts


def scenario_parallel_interrupts(run: Run) -> None:
    g, interrupt = run.b.graph, run.b.types.interrupt
    Command = run.b.types.Command

    def ask(name: str):
        def fn(state: Log) -> dict:
            return {"log": [f"{name}:{interrupt(f'q-{name}')}"]}

        return fn

    builder = g.StateGraph(Log)
    for name in ("p1", "p2", "p3"):
        builder.add_node(name, ask(name))
        builder.add_edge(g.START, name)
    app = builder.compile(checkpointer=run.saver())
    out = app.invoke({"log": []}, cfg())
    run.note("interrupt values", sorted(i.value for i in out["__interrupt__"]))
    state = run.see("state", app.get_state, cfg())
    ids = {i.value: i.id for i in state.interrupts}
    run.see("single value is rejected", app.invoke, Command(resume="x"), cfg())
    run.see("resume p2 by id", app.invoke, Command(resume={ids["q-p2"]: "two"}), cfg())
    run.see("state after p2", app.get_state, cfg())
    run.see(
        "resume the rest by id",
        app.invoke, Command(resume={ids["q-p1"]: "one", ids["q-p3"]: "three"}), cfg(),
    )  # fmt: skip
    run.see("final state", app.get_state, cfg())
    run.note("history", [(s.metadata, s.next, len(s.interrupts)) for s in history(app, cfg())])


def test_parallel_interrupts_resumed_by_id(backend, kind, tmp_path):
    check(scenario_parallel_interrupts, backend, kind, tmp_path)
