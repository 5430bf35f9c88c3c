"""Differential tests: ModelRefusalMiddleware (langchain 1.5) turns a standard refusal block in
the model's answer into ModelRefusalError; without it, or for ordinary answers, nothing changes."""

import asyncio

import pytest
from langchain_core.exceptions import ModelRefusalError
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from tests.engine.agents.helpers import same

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "please"}]}
REFUSED_BLOCK = AIMessage(content_blocks=[{"type": "refusal", "refusal": "not allowed"}])
REFUSED_STOP = AIMessage(
    "No.", response_metadata={"stop_reason": "refusal", "model_provider": "anthropic"}
)


def _model(*messages):
    return GenericFakeChatModel(messages=iter(messages))


def _outcome(agent, run_async=False):
    try:
        out = asyncio.run(agent.ainvoke(USER)) if run_async else agent.invoke(USER)
    except ModelRefusalError as exc:
        return ("refused", str(exc), exc.is_retryable, exc.raw_message.content)
    return ("answer", out["messages"][-1].content)


@pytest.mark.parametrize("run_async", [False, True])
@pytest.mark.parametrize(
    "reply", [REFUSED_BLOCK, REFUSED_STOP, AIMessage("I cannot help with that.")]
)
def test_refusal_raises_only_with_the_middleware(agent_backend, reply, run_async):
    def scenario(b):
        plain = b.agents.create_agent(_model(reply))
        guarded = b.agents.create_agent(
            _model(reply), middleware=[b.middleware.ModelRefusalMiddleware()]
        )
        return _outcome(plain, run_async), _outcome(guarded, run_async)

    plain, guarded = same(agent_backend, scenario)
    assert plain[0] == "answer"
    assert guarded[0] == ("answer" if reply.content == "I cannot help with that." else "refused")


def test_fallback_and_retry_see_the_refusal(agent_backend):
    def scenario(b):
        mw = b.middleware
        fallback = b.agents.create_agent(
            _model(REFUSED_BLOCK),
            middleware=[
                mw.ModelFallbackMiddleware(_model(AIMessage("from fallback"))),
                mw.ModelRefusalMiddleware(),
            ],
        )
        retry = b.agents.create_agent(
            _model(REFUSED_STOP, AIMessage("retried")),
            middleware=[mw.ModelRetryMiddleware(max_retries=2), mw.ModelRefusalMiddleware()],
        )
        return _outcome(fallback), _outcome(retry)

    fell_back, retried = same(agent_backend, scenario)
    assert fell_back == ("answer", "from fallback") and retried[0] == "refused"
