"""A graph is a langchain Runnable, but langchain-core's Runnable module (with the tracers and
langsmith it loads: a third of a second) loads only when something uses it (issue 32.1:
`superstep run router` in half a second). engine.pregel.protocol puts Runnable under every graph
the moment its module loads, by anyone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LATE = ("langchain_core.runnables.base", "langchain_core.tracers.base", "langsmith.client",
        "langsmith.run_trees", "langchain_core.language_models.chat_models")  # fmt: skip


def run_child(*code: str, env: dict | None = None) -> dict:
    """Run the `code` pieces in a fresh interpreter (nothing loaded yet); it prints one JSON line last."""
    env = {**os.environ, **(env or {}),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    for name in ("LANGCHAIN_TRACING_V2", "LANGSMITH_TRACING", "LANGCHAIN_TRACING"):
        if env.get(name) == "":
            env.pop(name)
    done = subprocess.run([sys.executable, "-c", "\n".join(map(textwrap.dedent, code))], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def late_loaded(modules: list[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in LATE))


def test_superstep_run_loads_no_runnable_tracers_or_langsmith():
    result = run_child(
        """
        import contextlib, io, json, sys
        import studio.cli
        with contextlib.redirect_stdout(io.StringIO()) as out:
            rc = studio.cli.main(["run", "router"])
        print(json.dumps({"rc": rc, "out": out.getvalue(), "modules": sorted(sys.modules)}))
        """,
        env={"LANGCHAIN_TRACING_V2": "", "LANGSMITH_TRACING": "", "LANGCHAIN_TRACING": ""},
    )
    assert result["rc"] == 0 and '"total"' in result["out"]
    assert late_loaded(result["modules"]) == []


GRAPH = """
    import json, sys, operator
    from typing import Annotated, TypedDict
    from engine.graph import StateGraph

    class State(TypedDict):
        n: Annotated[int, operator.add]

    builder = StateGraph(State)
    builder.add_node("one", lambda s: {"n": 1})
    builder.set_entry_point("one")
    graph = builder.compile()
    ran = graph.invoke({"n": 1})
    before = "langchain_core.runnables.base" in sys.modules
"""


def test_a_graph_is_a_runnable_once_runnable_loads():
    result = run_child(
        GRAPH,
        """
        from langchain_core.runnables import Runnable, RunnableLambda
        piped = (graph | RunnableLambda(lambda s: s["n"] * 10)).invoke({"n": 1})
        fed = (RunnableLambda(lambda x: {"n": x}) | graph).invoke(5)
        print(json.dumps({
            "ran": ran, "before": before, "isinstance": isinstance(graph, Runnable),
            "subclass": issubclass(type(graph), Runnable),
            "mro": [c.__name__ for c in type(graph).__mro__], "piped": piped, "fed": fed,
            "retry": type(graph.with_retry()).__name__,
        }))
        """,
    )
    assert result["ran"] == {"n": 2} and result["before"] is False
    assert result["isinstance"] and result["subclass"]
    assert "Runnable" in result["mro"] and "RunnableToCome" not in result["mro"]
    assert result["piped"] == 20 and result["fed"] == {"n": 6}
    assert result["retry"] == "RunnableRetry"


def test_runnable_methods_work_on_a_graph_made_before_runnable_loads():
    """batch, `|` and the event stream are Runnable's: asking for them loads it."""
    result = run_child(
        GRAPH,
        """
        import asyncio
        # threads at once: the first run of each loads langchain's tracing modules, once
        batched = graph.batch([{"n": i} for i in range(1, 7)])
        piped = (graph | (lambda s: s["n"])).invoke({"n": 3})
        async def events():
            return [e["event"] async for e in graph.astream_events({"n": 1}, version="v2")]
        print(json.dumps({"batched": batched, "piped": piped, "events": asyncio.run(events()),
                          "missing": hasattr(graph, "no_such_thing")}))
        """,
    )
    assert result["batched"] == [{"n": i + 1} for i in range(1, 7)] and result["piped"] == 4
    assert result["events"][0] == "on_chain_start" and result["events"][-1] == "on_chain_end"
    assert result["missing"] is False


def test_langchain_debug_still_prints_a_graph_run():
    """set_debug adds langchain's console handler to every run: the check that skips configuring
    callbacks for a plain run must see it."""
    result = run_child(
        """
        import contextlib, io, json
        from typing import TypedDict
        from langchain_core.globals import set_debug
        from engine.graph import StateGraph

        class State(TypedDict):
            n: int

        builder = StateGraph(State)
        builder.add_node("one", lambda s: {"n": s["n"] + 1})
        builder.set_entry_point("one")
        set_debug(True)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            builder.compile().invoke({"n": 1})
        print(json.dumps(out.getvalue()))
        """
    )
    assert "[chain/start]" in result and "[chain/end]" in result


def test_with_langchain_runnables_loaded_a_run_configures_callbacks_up_front():
    """As langgraph does: the graph's run configures callbacks (langsmith's last modules load
    there, at the top of the run) rather than leaving the first configure to a Runnable deep in
    a node (which, importing langsmith inside a node under pytest on CPython 3.11.7, tripped
    "AST constructor recursion depth mismatch" in LangGraph's own suite)."""
    result = run_child(
        "from langchain_core.runnables import RunnableLambda",
        GRAPH,
        'print(json.dumps("langsmith.run_helpers" in sys.modules))',
        env={"LANGCHAIN_TRACING_V2": "", "LANGSMITH_TRACING": "", "LANGCHAIN_TRACING": ""},
    )
    assert result is True
