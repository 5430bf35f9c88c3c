"""Differential test: ModelFallbackMiddleware drops the prompt-cache settings a fallback model's
provider would reject (Anthropic cache_control in settings, content blocks, system message and
tools; OpenAI/Fireworks prompt_cache_key; Fireworks' session-affinity header), and keeps those
it accepts. The primary attempt is sent unchanged."""

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import tool

from tests.engine.agents.helpers import FakeToolModel, same

pytestmark = pytest.mark.differential

MARK = {"type": "ephemeral"}


@tool(extras={"cache_control": MARK})
def cached_tool(x: int) -> int:
    """Echo x."""
    return x


@tool
def plain_tool(x: int) -> int:
    """Echo x."""
    return x


def _model(llm_type: str) -> FakeToolModel:
    cls = type(
        f"Fake_{llm_type.replace('-', '_')}",
        (FakeToolModel,),
        {"_llm_type": property(lambda self: llm_type)},
    )
    return cls(responses=[AIMessage("ok")])


def _request(b):
    return b.middleware.ModelRequest(
        model=_model("primary"),
        system_message=SystemMessage(
            content=[{"type": "text", "text": "sys", "cache_control": MARK}]
        ),
        messages=[
            HumanMessage(
                content=[{"type": "text", "text": "hi", "extras": {"cache_control": MARK, "k": 1}}]
            ),
            HumanMessage("plain"),
        ],
        tools=[
            cached_tool,
            plain_tool,
            {"name": "d", "cache_control": MARK, "extras": {"cache_control": MARK}},
        ],
        model_settings={
            "cache_control": MARK,
            "prompt_cache_key": "thread-1",
            "extra_headers": {"X-Session-Affinity": "thread-1", "X-Request-ID": "r1"},
            "temperature": 0.2,
        },
    )


def _seen(req):
    tools = [getattr(t, "extras", None) if not isinstance(t, dict) else t for t in req.tools]
    return (
        req.model_settings,
        req.system_message.content,
        [m.content for m in req.messages],
        tools,
    )


@pytest.mark.parametrize(
    "llm_type", ["anthropic-chat", "openai-chat", "fireworks-chat", "google_genai"]
)
def test_fallback_attempt_keeps_only_accepted_cache_settings(agent_backend, llm_type):
    def scenario(b):
        attempts = []

        def handler(req):
            attempts.append(req)
            if len(attempts) == 1:
                raise RuntimeError("primary down")
            return b.middleware.ModelResponse(result=[AIMessage("from fallback")])

        request = _request(b)
        b.middleware.ModelFallbackMiddleware(_model(llm_type)).wrap_model_call(request, handler)
        return (
            attempts[0] is request,
            _seen(attempts[1]),
            attempts[1].messages[1] is request.messages[1],
        )

    primary_untouched, (settings, system, messages, tools), same_plain = same(
        agent_backend, scenario
    )
    assert primary_untouched and same_plain
    assert ("cache_control" in settings) == (llm_type == "anthropic-chat")
    assert ("prompt_cache_key" in settings) == (llm_type in ("openai-chat", "fireworks-chat"))
    assert ("X-Session-Affinity" in settings["extra_headers"]) == (llm_type == "fireworks-chat")
    assert ("cache_control" in system[0]) == (llm_type == "anthropic-chat")
