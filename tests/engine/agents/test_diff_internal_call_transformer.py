"""Differential tests: create_agent registers the stream transformers its middleware declare
(then the caller's), each factory once; InternalCallTransformer (langchain's
`internal_call_transformer` module) keeps a middleware's own model calls out of `run.messages`."""

import importlib
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from tests.engine.agents.helpers import ai, fake, same

pytestmark = pytest.mark.differential

USER = {"messages": [HumanMessage("hi")]}


def _module(b):
    package = "langchain" if b.prefix == "langgraph" else "engine"
    return importlib.import_module(f"{package}.agents.middleware.internal_call_transformer")


def _side_call_middleware(b, tagged: bool):
    """Asks a second model something before each turn, tagged internal or not."""
    meta = _module(b).internal_call_metadata() if tagged else {"lc_source": "mine"}

    class SideCall(b.middleware.AgentMiddleware):
        transformers = (_module(b).InternalCallTransformer,)

        def before_model(self, state, runtime):
            side = GenericFakeChatModel(messages=iter([AIMessage("side answer")]))
            side.invoke([HumanMessage("check")], config={"metadata": meta})

    return SideCall()


def _texts(run) -> list[str]:
    return [stream.output.text for stream in run.messages]


@pytest.mark.parametrize("tagged", [True, False])
def test_internal_calls_are_left_out_of_run_messages(agent_backend, tagged):
    def scenario(b):
        agent = b.agents.create_agent(
            fake(ai("main answer")), [], middleware=[_side_call_middleware(b, tagged)]
        )
        run = agent.stream_events(USER, version="v3")
        return _texts(run), run.output["messages"][-1].content

    texts, final = same(agent_backend, scenario)
    assert final == "main answer"
    assert texts == (["main answer"] if tagged else ["side answer", "main answer"])


def test_transformers_of_middleware_then_caller_each_once(agent_backend):
    def scenario(b):
        seen: list[Any] = []
        base = importlib.import_module(f"{b.prefix}.stream").StreamTransformer

        class Recorder(base):
            def init(self):
                return {}

            def process(self, event):
                seen.append(type(self).__name__)
                return True

        class First(Recorder):
            pass

        class Second(Recorder):
            pass

        internal = _module(b).InternalCallTransformer

        class Declares(b.middleware.AgentMiddleware):
            transformers = (First, internal)

        class AlsoDeclares(b.middleware.AgentMiddleware):
            transformers = (internal, First)

        agent = b.agents.create_agent(
            fake(ai("ok")),
            [],
            middleware=[Declares(), AlsoDeclares()],
            transformers=[Second, First],
        )
        run = agent.stream_events(USER, version="v3")
        names = [type(t).__name__ for t in run._mux._transformers]
        run.output  # noqa: B018 - drains the run
        mine = [n for n in names if n in ("First", "Second", "InternalCallTransformer")]
        return (
            mine,
            names.index("InternalCallTransformer") < names.index("MessagesTransformer"),
            seen[:2],
        )

    mine, internal_first, seen = same(agent_backend, scenario)
    assert mine == ["InternalCallTransformer", "First", "Second"] and internal_first
    assert seen == ["First", "Second"]
