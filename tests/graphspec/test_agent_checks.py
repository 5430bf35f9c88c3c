"""Validator findings for agent middleware. The warnings are mistakes LangChain is silent about:
the exported agent runs on real langchain without a word; the errors are what create_agent or a
middleware constructor refuses, found by `validate` before anything runs."""

from __future__ import annotations

import pytest

from graphspec.agent_checks import jump_targets
from graphspec.validator import validate
from tests.graphspec.helpers import graph, load_exported

ADD = "def add(a: int, b: int) -> int:\n    return a + b\n"


def agent_spec(*middleware, tools=("add",)):
    return graph(
        state=[{"name": "messages", "type": "messages", "reducer": "add_messages"}],
        nodes=[{"id": "assistant", "kind": "agent", "agent": "helper"}],
        entry=["assistant"],
        finish=["assistant"],
        agents=[{
            "id": "helper",
            "model": {"responses": [
                {"tool_calls": [{"name": "add", "args": {"a": 1, "b": 2}, "id": "c1"}]},
                {"content": "3"},
            ]},
            "tools": [{"code": ADD, "function": t, "name": t} for t in tools],
            "middleware": list(middleware),
        }],
    )  # fmt: skip


def prebuilt(name, **settings):
    return {"kind": "prebuilt", "name": name, "settings": settings}


def hook(name, code, hook_kind="before_model", **extra):
    fn = code.split("def ", 1)[1].split("(", 1)[0]
    return {"kind": "custom", "name": name, "hooks": {hook_kind: {"code": code, "function": fn}},
            **extra}  # fmt: skip


JUMP_END = "def stop(state, runtime):\n    return {'jump_to': 'end'}\n"


def findings(spec):
    return [(f.severity, f.code, f.element_id, f.path) for f in validate(spec)]


def run_on_langchain(spec, tmp_path):
    """The exported module on real langgraph/langchain: the final message types."""
    module = load_exported(spec, tmp_path, "agent_checks")
    out = module.graph.invoke({"messages": [{"role": "user", "content": "1 + 2?"}]})
    return [m.type for m in out["messages"]]


FULL_RUN = ["human", "ai", "tool", "ai"]

SILENT = {
    "jump without can_jump_to": (
        [hook("guard", JUMP_END)],
        ("warning", "jump-without-can-jump-to", "assistant", "$.agents[0].middleware[0].hooks.before_model"),
    ),
    "interrupt_on an unknown tool": (
        [prebuilt("human_in_the_loop", interrupt_on={"multiply": True, "add": False})],
        ("warning", "unknown-tool", "assistant", "$.agents[0].middleware[0].settings.interrupt_on.multiply"),
    ),
    "tool call limit on an unknown tool": (
        [prebuilt("tool_call_limit", tool_name="multiply", run_limit=0)],
        ("warning", "unknown-tool", "assistant", "$.agents[0].middleware[0].settings.tool_name"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(SILENT))
def test_silent_mistakes_warn(case):
    middleware, expected = SILENT[case]
    assert findings(agent_spec(*middleware)) == [expected]


@pytest.mark.differential
@pytest.mark.parametrize("case", list(SILENT))
def test_langchain_is_silent_about_them(case, tmp_path):
    pytest.importorskip("langchain.agents")
    middleware, _ = SILENT[case]
    assert run_on_langchain(agent_spec(*middleware), tmp_path) == FULL_RUN


def test_jump_with_can_jump_to_is_clean_and_an_undeclared_target_warns():
    assert findings(agent_spec(hook("guard", JUMP_END, can_jump_to=["end"]))) == []
    code = "def stop(state, runtime):\n    out = {}\n    out['jump_to'] = 'model'\n    return out\n"
    assert findings(agent_spec(hook("guard", code, can_jump_to=["end"]))) == [
        ("warning", "undeclared-jump", "assistant", "$.agents[0].middleware[0].can_jump_to")
    ]
    [finding] = validate(agent_spec(hook("guard", code, can_jump_to=["end"])))
    assert "'model'" in finding.message and "can_jump_to" in finding.fix


def test_jump_targets_read_the_code_without_running_it():
    assert jump_targets(JUMP_END) == ["end"]
    assert jump_targets("def f(s, r):\n    return dict(jump_to=r.target)\n") == [None]
    assert jump_targets("def f(s, r):\n    return {'messages': []}\n") == []
    assert jump_targets("def f(:\n") is None


def test_wrap_hooks_and_interrupt_on_middleware_tools_are_not_flagged():
    wrap = hook("wrapper", "def wrap(request, handler):\n    return {'jump_to': 'end'}\n",
                "wrap_model_call")  # fmt: skip
    hitl = prebuilt("human_in_the_loop", interrupt_on={"write_todos": True, "add": True})
    assert findings(agent_spec(wrap, prebuilt("todo_list"), hitl)) == []


def test_call_limits_without_a_limit_are_errors():
    spec = agent_spec(prebuilt("model_call_limit"), prebuilt("tool_call_limit", run_limit=None))
    assert findings(spec) == [
        ("error", "no-limit", "assistant", "$.agents[0].middleware[0].settings"),
        ("error", "no-limit", "assistant", "$.agents[0].middleware[1].settings"),
    ]
    assert findings(agent_spec(prebuilt("model_call_limit", thread_limit=3))) == []


def test_duplicate_middleware_are_errors_named_like_langchain():
    twice = agent_spec(
        prebuilt("model_call_limit", run_limit=3), prebuilt("model_call_limit", run_limit=5)
    )
    assert findings(twice) == [
        ("error", "duplicate-middleware", "assistant", "$.agents[0].middleware[1]")
    ]
    [finding] = validate(twice)
    assert "$.agents[0].middleware[0]" in finding.message
    # a tool call limit per tool, and PII per type, are different middleware
    per_tool = [prebuilt("tool_call_limit", tool_name="add", run_limit=1),
                prebuilt("tool_call_limit", run_limit=4),
                prebuilt("pii", pii_type="email"), prebuilt("pii", pii_type="url")]  # fmt: skip
    assert findings(agent_spec(*per_tool)) == []
    # custom hooks are named after their function
    same_name = [hook("first", JUMP_END, can_jump_to=["end"]),
                 hook("second", JUMP_END, "after_model", can_jump_to=["end"])]  # fmt: skip
    assert findings(agent_spec(*same_name)) == [
        ("error", "duplicate-middleware", "assistant", "$.agents[0].middleware[1].hooks.after_model")
    ]  # fmt: skip


@pytest.mark.differential
def test_langchain_refuses_what_the_errors_report(tmp_path):
    pytest.importorskip("langchain.agents")
    with pytest.raises(ValueError, match="At least one limit"):
        run_on_langchain(agent_spec(prebuilt("model_call_limit")), tmp_path)
    twice = agent_spec(prebuilt("todo_list"), prebuilt("todo_list"))
    with pytest.raises(AssertionError, match="duplicate middleware"):
        run_on_langchain(twice, tmp_path)


def summarization(**settings):
    return prebuilt(
        "summarization", model="scripted:summary", **settings
    )  # offline: validates anywhere


def test_summarization_that_cannot_summarize_warns():
    where = "$.agents[0].middleware[0].settings"
    cases = {
        "no trigger": ({"keep": ["messages", 5]}, ("warning", "summarization-no-trigger", where)),
        "keep >= trigger": (
            {"trigger": {"messages": 10}, "keep": ["messages", 10]},
            ("warning", "summarization-keeps-all", f"{where}.trigger"),
        ),
        "default keep": (
            {"trigger": [{"tokens": 4000}, {"messages": 8}]},
            ("warning", "summarization-keeps-all", f"{where}.trigger[1]"),
        ),
        "pair trigger": ({"trigger": ["messages", 10]}, ("error", "bad-trigger", f"{where}.trigger")),
    }  # fmt: skip
    for case, (settings, (severity, code, path)) in cases.items():
        [finding] = validate(agent_spec(summarization(**settings)))
        assert (finding.severity, finding.code, finding.path) == (severity, code, path), case
    clean = [
        {"trigger": {"messages": 10}, "keep": ["messages", 4]},
        {"trigger": {"tokens": 4000}},  # keeps 20 messages: a different measure
        {"trigger": {"messages": 30, "tokens": 4000}},  # AND clause: not judged
    ]
    for settings in clean:
        assert validate(agent_spec(summarization(**settings))) == [], settings


@pytest.mark.differential
def test_langchain_summarization_with_keep_above_trigger_never_summarizes():
    """The experiment behind summarization-keeps-all and -no-trigger, on real langchain."""
    lc_agents = pytest.importorskip("langchain.agents")
    from langchain.agents.middleware import SummarizationMiddleware
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    class Model(FakeMessagesListChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    def run(**settings):
        calls = [AIMessage("", tool_calls=[{"name": "add", "args": {"a": 1, "b": i}, "id": f"c{i}"}])
                 for i in range(3)]  # fmt: skip
        summarizer = Model(responses=[AIMessage("SUMMARY")])
        middleware = SummarizationMiddleware(model=summarizer, **settings)
        agent = lc_agents.create_agent(
            Model(responses=[*calls, AIMessage("done")]), [tool(add)], middleware=[middleware]
        )
        out = agent.invoke({"messages": [{"role": "user", "content": "sum"}]})
        return any("SUMMARY" in str(m.content) for m in out["messages"])

    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    assert run(trigger={"messages": 3}, keep=("messages", 2))
    assert not run(trigger={"messages": 3}, keep=("messages", 20))
    assert not run(trigger={"messages": 3})
    assert not run(keep=("messages", 2))
