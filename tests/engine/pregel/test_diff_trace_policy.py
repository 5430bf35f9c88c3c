"""TracePolicy on a node (add_node(trace_policy=...)) and on agent middleware, against langgraph:
tracers record the processed input and output of the node's own run, while other handlers, the
node itself and its child runs see the real values; a failing processor records the raw value."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers.base import BaseTracer
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class Tracer(BaseTracer):
    """A tracer (what LangSmith's is): the runs it persisted, as (name, inputs, outputs)."""

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[tuple] = []

    def _persist_run(self, run: Any) -> None:
        pass

    def _end_trace(self, run: Any) -> None:
        super()._end_trace(run)
        self.runs.append((run.name, run.inputs, run.outputs))

    def chain_runs(self) -> list[tuple]:
        """Every chain run started, inputs and outputs as recorded (parents after children)."""
        return sorted((r.name, repr(r.inputs), repr(r.outputs)) for r in self.run_map.values())


class Plain(BaseCallbackHandler):
    """A handler that is not a tracer: the chain inputs and outputs it was given."""

    def __init__(self) -> None:
        self.seen: dict[UUID, list] = {}

    def on_chain_start(self, serialized, inputs, *, run_id, **kw):
        self.seen[run_id] = [kw.get("name"), inputs, None]

    def on_chain_end(self, outputs, *, run_id, **kw):
        self.seen[run_id][2] = outputs

    def calls(self) -> list:
        return sorted(repr(v) for v in self.seen.values())


class State(TypedDict):
    text: str
    n: int


def _boom(value: Any) -> Any:
    raise RuntimeError("processor failed")


def _graph(b, policy_kwargs: dict):
    types = b.types

    def shout(state: State) -> dict:
        return {"text": state["text"].upper(), "n": state["n"] + 1}

    def tail(state: State) -> dict:
        return {"n": state["n"] * 10}

    builder = b.graph.StateGraph(State)
    builder.add_node("shout", shout, trace_policy=types.TracePolicy(**policy_kwargs))
    builder.add_node("tail", tail)
    builder.add_edge(b.graph.START, "shout")
    builder.add_edge("shout", "tail")
    return builder.compile()


def _processors(b) -> dict[str, dict]:
    return {
        "omit_inputs": {"process_inputs": b.types.omit_payload},
        "both": {
            "process_inputs": lambda v: {"len": len(v["text"])},
            "process_outputs": lambda v: sorted(v),
        },
        "failing": {"process_inputs": _boom, "process_outputs": _boom},
    }


@pytest.mark.parametrize("which", ["omit_inputs", "both", "failing"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_node_trace_policy_shapes_what_tracers_record(which, mode):
    def scenario(b):
        tracer, plain = Tracer(), Plain()
        graph = _graph(b, _processors(b)[which])
        config = {"callbacks": [tracer, plain]}
        if mode == "sync":
            out = graph.invoke({"text": "hi", "n": 1}, config)
        else:
            out = asyncio.run(graph.ainvoke({"text": "hi", "n": 1}, config))
        return out, sorted(repr(r) for r in tracer.runs), plain.calls()

    out, traced, plain = assert_same(scenario)
    assert out == {"text": "HI", "n": 20}
    shout = [r for r in traced if r.startswith("('shout'")]
    assert len(shout) == 1
    if which == "omit_inputs":
        assert shout[0].startswith("('shout', {}, ")
    # the other handler saw the real input
    assert any("'shout', {'text': 'hi', 'n': 1}" in p for p in plain)


def test_agent_middleware_trace_policy_and_the_process_default():
    from tests.engine.agents.conftest import AgentBackend
    from tests.engine.agents.helpers import ai, fake

    def run(b):
        mw = b.middleware
        types = b.types

        class Quiet(mw.AgentMiddleware):
            trace_policy = types.TracePolicy(process_inputs=types.omit_payload)

            def before_model(self, state, runtime):
                return None

        class Loud(mw.AgentMiddleware):
            def after_model(self, state, runtime):
                return None

        tracer = Tracer()
        agent = b.agents.create_agent(fake(ai("hello")), middleware=[Quiet(), Loud()])
        mw.configure_trace_policy(types.TracePolicy(process_outputs=lambda v: "<hidden>"))
        try:
            agent.invoke({"messages": [("user", "hi")]}, {"callbacks": [tracer]})
        finally:
            mw.configure_trace_policy(None)
        return [
            (name, inputs if name.startswith("Quiet") else "-", outputs)
            for name, inputs, outputs in tracer.runs
            if name.startswith(("Quiet", "Loud"))
        ]

    def scenario(b):
        return run(AgentBackend(b.prefix))

    runs = assert_same(scenario)
    assert ("Quiet.before_model", {}, None) in runs or runs[0][1] == {}
    assert ("Loud.after_model", "-", {"output": "<hidden>"}) in runs
