"""Differential tests: LLMToolSelectorMiddleware (langchain 1.5) on engine.agents and
langchain.agents: which tools each model call gets, what the selection model is asked, retries
and the parsing-failure fallbacks (issue 31)."""

import asyncio

import pytest
from langchain_core.tools import tool
from pydantic import Field

from tests.engine.agents.helpers import FakeToolModel, add, ai, dump, same, shout

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "add 2 and 3"}]}


@tool
def weather(city: str) -> str:
    """Weather in a city."""
    return f"sunny in {city}"


TOOLS = [add, shout, weather]


class BindRecorder(FakeToolModel):
    """Replays its replies; keeps the tool names of each bind_tools and each call's input."""

    bound: list = Field(default_factory=list)
    asked: list = Field(default_factory=list)

    def bind_tools(self, tools, **kwargs):
        self.bound.append(
            [t.name if hasattr(t, "name") else t.get("title", t.get("name")) for t in tools]
        )
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.asked.append([(m.type, m.content) for m in messages])
        return super()._generate(messages, stop, run_manager, **kwargs)


def _pick(*names):
    return ai("", ("ToolSelectionResponse", {"tools": list(names)}, "s"))


def _agent(b, selector_replies, main_replies=(ai("done"),), **options):
    selector = BindRecorder(responses=list(selector_replies))
    main = BindRecorder(responses=list(main_replies))
    mw = b.middleware.LLMToolSelectorMiddleware(model=selector, **options)
    return b.agents.create_agent(main, TOOLS, middleware=[mw]), selector, main


def test_the_selected_tools_are_the_calls_tools(agent_backend):
    def scenario(b):
        agent, selector, main = _agent(
            b,
            [_pick("add", "weather", "add"), _pick("add")],
            [ai("", ("add", {"a": 2, "b": 3}, "c1")), ai("5")],
            max_tools=1,
            always_include=["shout"],
        )
        out = dump(agent.invoke(USER)["messages"])
        return out, selector.asked, selector.bound, main.bound

    out, asked, selector_bound, main_bound = same(agent_backend, scenario)
    assert main_bound[-2:] == [["add", "shout"], ["add", "shout"]]
    assert asked[0][0][1].endswith("only the first 1 will be used.") and asked[0][1] == (
        "human",
        "add 2 and 3",
    )
    assert out[-1][1] == "5"


@pytest.mark.parametrize(
    "failure", ["error", "none", "all", ["weather"], "callable"], ids=lambda f: str(f)
)
def test_malformed_replies_are_retried_then_fall_back(agent_backend, failure):
    def scenario(b):
        on_failure = (lambda reply: ["shout"]) if failure == "callable" else failure
        agent, selector, main = _agent(
            b, [ai("no idea"), ai("still no idea")], max_retries=1, max_tools=1,
            on_parsing_failure=on_failure,
        )  # fmt: skip
        try:
            agent.invoke(USER)
        except ValueError as exc:
            return ("raised", str(exc)), len(selector.asked)
        return main.bound, len(selector.asked)

    result, attempts = same(agent_backend, scenario)
    assert attempts == 2
    if failure == "error":
        assert result[1].startswith(
            "LLMToolSelectorMiddleware: selection model returned a malformed"
        )


def test_invalid_selections_missing_always_include_and_bad_options(agent_backend):
    def scenario(b):
        out = []
        for replies, options in (
            ([_pick("nope")], {}),
            ([_pick("add")], {"always_include": ["ghost"]}),
        ):
            agent, _, _ = _agent(b, replies, **options)
            try:
                agent.invoke(USER)
            except ValueError as exc:
                out.append(str(exc))
        try:
            b.middleware.LLMToolSelectorMiddleware(max_retries=-1)
        except ValueError as exc:
            out.append(str(exc))
        return out

    assert same(agent_backend, scenario) == [
        "Model selected invalid tools: ['nope']",
        "Tools in always_include not found in request: ['ghost']. Available tools: "
        "['add', 'shout', 'weather']",
        "max_retries must be >= 0",
    ]


def test_async_selection_and_the_agents_own_model(agent_backend):
    def scenario(b):
        main = BindRecorder(responses=[_pick("weather"), ai("sunny")])
        mw = b.middleware.LLMToolSelectorMiddleware()
        agent = b.agents.create_agent(main, TOOLS, middleware=[mw])
        out = dump(asyncio.run(agent.ainvoke(USER))["messages"])
        return out, main.bound

    out, bound = same(agent_backend, scenario)
    assert bound[-1] == ["weather"] and out[-1][1] == "sunny"
