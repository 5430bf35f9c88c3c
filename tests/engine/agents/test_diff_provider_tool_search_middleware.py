"""Differential tests: ProviderToolSearchMiddleware (langchain 1.5) defers chosen tools behind the
provider's server-side tool search, detecting the provider from the model."""

import asyncio

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import tool

from tests.engine.agents.helpers import add, same, shout

pytestmark = pytest.mark.differential


@tool(extras={"defer_loading": True, "team": "ops"})
def page_oncall(reason: str) -> str:
    """Page whoever is on call."""
    return reason


class LsModel:
    """A model that names its provider only through LangSmith params."""

    def __init__(self, provider):
        self.provider = provider

    def _get_ls_params(self):
        return {"ls_provider": self.provider}


class Configurable:
    """Duck-types langchain's configurable model: defaults plus per-run `configurable`."""

    def __init__(self, defaults):
        self._default_config = defaults

    def _model_params(self, config=None):
        return {} if config is None else dict(config.get("configurable", {}))


class Run:
    def __init__(self, config):
        self.config = config


class ChatOpenAI:
    """Only the class name tells the provider."""


def _sent(b, middleware, model, tools, runtime=None, run_async=False):
    """The tools the model would be bound with, as (name or dict, extras), or the error."""
    request = b.middleware.ModelRequest(
        model=model, messages=[HumanMessage("hi")], tools=tools, runtime=runtime
    )
    seen = []

    def handler(req):
        seen.append(req)
        return b.middleware.ModelResponse(result=[AIMessage("ok")])

    async def ahandler(req):
        return handler(req)

    try:
        if run_async:
            asyncio.run(middleware.awrap_model_call(request, ahandler))
        else:
            middleware.wrap_model_call(request, handler)
    except ValueError as exc:
        return str(exc)
    return [t if isinstance(t, dict) else (t.name, t.extras) for t in seen[0].tools]


@pytest.mark.parametrize("run_async", [False, True])
def test_deferral_and_search_tool_by_provider(agent_backend, run_async):
    def scenario(b):
        mw = b.middleware.ProviderToolSearchMiddleware
        return [
            _sent(
                b,
                mw(searchable_tools=["add", shout]),
                LsModel("Anthropic"),
                [add, shout, page_oncall],
                run_async=run_async,
            ),
            _sent(b, mw(), LsModel("open-ai"), [add], run_async=run_async),  # nothing deferred
            _sent(
                b,
                mw(),
                LsModel("openai"),
                [add, page_oncall, {"type": "web_search"}],
                run_async=run_async,
            ),
            _sent(b, mw(searchable_tools=["add"]), ChatOpenAI(), [add], run_async=run_async),
        ]

    anthropic, untouched, openai, by_class = same(agent_backend, scenario)
    assert anthropic[-1]["type"].startswith("tool_search_tool_bm25")
    assert anthropic[2] == ("page_oncall", {"defer_loading": True, "team": "ops"})
    assert untouched == [("add", None)]
    assert openai[-1] == {"type": "tool_search"} and openai[2] == {"type": "web_search"}
    assert by_class[-1] == {"type": "tool_search"}


def test_provider_from_configurable_settings_and_errors(agent_backend):
    def scenario(b):
        mw = b.middleware.ProviderToolSearchMiddleware(searchable_tools=["add"])
        return [
            _sent(b, mw, Configurable({"model": "anthropic:claude-x"}), [add]),
            _sent(b, mw, Configurable({"model": "gpt-5"}), [add]),
            _sent(
                b,
                mw,
                Configurable({"model_provider": "openai"}),
                [add],
                Run({"configurable": {"model_provider": "anthropic"}}),
            ),
            _sent(b, mw, Configurable({}), [add], Run("not a mapping")),
            _sent(b, mw, Configurable({"model": "llama-3"}), [add]),
            _sent(b, mw, LsModel("mistralai"), [add]),
            _sent(
                b,
                b.middleware.ProviderToolSearchMiddleware(searchable_tools=["zeta", "alpha"]),
                LsModel("openai"),
                [add],
            ),
        ]

    results = same(agent_backend, scenario)
    assert [r[-1]["type"] for r in results[:3]] == [
        "tool_search_tool_bm25_20251119",
        "tool_search",
        "tool_search_tool_bm25_20251119",
    ]
    assert "could not determine the provider" in results[3] and "could not determine" in results[4]
    assert "got 'mistralai'" in results[5] and results[6].endswith("alpha, zeta")


@pytest.mark.parametrize("name", ["sonar-pro", "solar-mini", "grok-4"])
def test_init_chat_model_infers_the_same_providers(agent_backend, name):
    def scenario(b):
        package = "langchain" if b.prefix == "langgraph" else "engine.agents"
        init = __import__(f"{package}.chat_models", fromlist=["init_chat_model"]).init_chat_model
        try:
            return type(init(name)).__name__
        except ImportError as exc:  # the provider's package is not installed here
            return str(exc)

    same(agent_backend, scenario)
