"""Differential tests for the prebuilt middleware: human-in-the-loop, call limits, retries, fallback."""

import importlib
import warnings

import pytest
from langchain_core.messages import ToolMessage

from tests.engine.agents.helpers import add, ai, dump, explode, fake, graph_shape, same, shout
from tests.oracle import normalize

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "hi"}]}
CFG = {"configurable": {"thread_id": "t"}}


def _saver(b):
    return b.mod("checkpoint.memory").InMemorySaver()


# ------------------------------------------------------------------------------- human in the loop
def _hitl_agent(b, model, **kw):
    mw = b.middleware.HumanInTheLoopMiddleware(
        interrupt_on={
            "add": True,
            "shout": {
                "allowed_decisions": ["approve", "reject"],
                "description": "Shouting needs approval",
            },
        },
        **kw,
    )
    return b.agents.create_agent(model, [add, shout], middleware=[mw], checkpointer=_saver(b))


def _three_calls():
    return fake(
        ai(
            "",
            ("add", {"a": 1, "b": 2}, "c1"),
            ("shout", {"text": "hey"}, "c2"),
            ("add", {"a": 5, "b": 5}, "c3"),
        ),
        ai("all done"),
    )


def test_hitl_batched_interrupt_payload_and_graph(agent_backend):
    def scenario(b):
        agent = _hitl_agent(b, _three_calls())
        out = agent.invoke(USER, CFG)
        state = agent.get_state(CFG)
        return [i.value for i in out["__interrupt__"]], state.next, graph_shape(agent)

    payloads, nxt, _ = same(agent_backend, scenario)
    (payload,) = payloads
    assert [r["name"] for r in payload["action_requests"]] == ["add", "shout", "add"]
    assert payload["review_configs"][1] == {
        "action_name": "shout",
        "allowed_decisions": ["approve", "reject"],
    }
    assert payload["action_requests"][1]["description"] == "Shouting needs approval"
    assert nxt == ("HumanInTheLoopMiddleware.after_model",)


def test_hitl_resume_approve_edit_reject(agent_backend):
    def scenario(b):
        agent = _hitl_agent(b, _three_calls())
        agent.invoke(USER, CFG)
        decisions = [
            {"type": "approve"},
            {"type": "reject", "message": "too loud"},
            {"type": "edit", "edited_action": {"name": "add", "args": {"a": 100, "b": 1}}},
        ]
        out = agent.invoke(b.types.Command(resume={"decisions": decisions}), CFG)
        return sorted_tools(dump(out["messages"]))

    msgs = same(agent_backend, scenario)
    contents = {m[3]: m[1] for m in msgs if m[0] == "tool"}
    assert contents["c1"] == "3"
    assert contents["c2"] == "User rejected the tool call for `shout` with reason: too loud"
    assert contents["c3"].endswith("Tool response:\n101")
    assert msgs[-1][1] == "all done"


def sorted_tools(msgs):
    """Tool results of one batch complete in any order: sort each run of tool messages."""
    out, run = [], []
    for m in msgs + [None]:
        if m is not None and m[0] == "tool":
            run.append(m)
            continue
        out.extend(sorted(run, key=lambda t: t[3]))
        run = []
        if m is not None:
            out.append(m)
    return out


def test_hitl_respond_and_all_rejected_goes_back_to_model(agent_backend):
    def scenario(b):
        model = fake(ai("", ("add", {"a": 1, "b": 2}, "c1")), ai("ok then"))
        agent = _hitl_agent(b, model)
        agent.invoke(USER, CFG)
        out = agent.invoke(
            b.types.Command(resume={"decisions": [{"type": "respond", "message": "it is 3"}]}), CFG
        )
        return dump(out["messages"]), [
            m.response_metadata for m in out["messages"] if isinstance(m, ToolMessage)
        ]

    msgs, meta = same(agent_backend, scenario)
    assert msgs[2][1] == "it is 3" and msgs[2][5] == "success" and msgs[-1][1] == "ok then"


def test_hitl_disallowed_decision_raises_and_sticks(agent_backend):
    """A disallowed decision raises ValueError; the thread stays at the review, and (as in
    langgraph) the failed resume value is kept as the task's pending resume, so a second
    Command(resume=...) replays the same bad decision."""

    def scenario(b):
        model = fake(ai("", ("shout", {"text": "x"}, "c1")), ai("fine"))
        agent = _hitl_agent(b, model)
        agent.invoke(USER, CFG)
        outcomes = []
        for decision in ({"type": "respond", "message": "no"}, {"type": "approve"}):
            try:
                out = agent.invoke(b.types.Command(resume={"decisions": [decision]}), CFG)
                outcomes.append(dump(out["messages"]))
            except ValueError as e:
                outcomes.append(str(e))
            outcomes.append(agent.get_state(CFG).next)
        return outcomes

    outcomes = same(agent_backend, scenario)
    assert outcomes[0].startswith("Unexpected human decision") and outcomes[1] == (
        "HumanInTheLoopMiddleware.after_model",
    )
    assert outcomes[2] == outcomes[0]


def test_hitl_wrong_number_of_decisions(agent_backend):
    def scenario(b):
        agent = _hitl_agent(b, _three_calls())
        agent.invoke(USER, CFG)
        return agent.invoke(b.types.Command(resume={"decisions": [{"type": "approve"}]}), CFG)

    err = same(agent_backend, scenario)
    assert isinstance(err, ValueError) and "does not match" in str(err)


def test_hitl_when_predicate_and_unlisted_tools_run(agent_backend):
    def scenario(b):
        mw = b.middleware.HumanInTheLoopMiddleware(
            interrupt_on={
                "add": {
                    "allowed_decisions": ["approve"],
                    "when": lambda req: req.tool_call["args"]["a"] > 10,
                }
            }
        )
        model = fake(
            ai("", ("add", {"a": 1, "b": 2}, "c1"), ("shout", {"text": "a"}, "c2")), ai("done")
        )
        agent = b.agents.create_agent(model, [add, shout], middleware=[mw], checkpointer=_saver(b))
        out = agent.invoke(USER, CFG)
        return "__interrupt__" in out, sorted_tools(dump(out["messages"]))

    interrupted, msgs = same(agent_backend, scenario)
    assert not interrupted and msgs[-1][1] == "done"


def test_hitl_per_call_mode(agent_backend):
    def scenario(b):
        agent = _hitl_agent(
            b, fake(ai("", ("add", {"a": 1, "b": 2}, "c1")), ai("done")), interrupt_mode="per_call"
        )
        first = agent.invoke(USER, CFG)
        out = agent.invoke(
            b.types.Command(
                resume={"type": "edit", "edited_action": {"name": "add", "args": {"a": 2, "b": 2}}}
            ),
            CFG,
        )
        return [i.value for i in first["__interrupt__"]], dump(out["messages"])

    payloads, msgs = same(agent_backend, scenario)
    assert payloads[0]["type"] == "tool_approval" and msgs[2][1].endswith("\n4")


def test_hitl_invalid_config(agent_backend):
    err = same(
        agent_backend,
        lambda b: b.middleware.HumanInTheLoopMiddleware(
            interrupt_on={"add": {"allowed_decisions": []}}
        ),
    )
    assert isinstance(err, ValueError)


# ------------------------------------------------------------------------------- call limits
def test_model_call_limit_end(agent_backend):
    def scenario(b):
        model = fake(*[ai("", ("add", {"a": i, "b": i}, f"c{i}")) for i in range(5)])
        mw = b.middleware.ModelCallLimitMiddleware(run_limit=2)
        agent = b.agents.create_agent(model, [add], middleware=[mw])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, _ = same(agent_backend, scenario)
    assert msgs[-1][:2] == ("ai", "Model call limits exceeded: run limit (2/2)")


def test_model_call_limit_thread_across_turns_and_error(agent_backend):
    def scenario(b):
        mw = b.middleware.ModelCallLimitMiddleware(thread_limit=2, exit_behavior="error")
        agent = b.agents.create_agent(
            fake(ai("a"), ai("b"), ai("c")), [], middleware=[mw], checkpointer=_saver(b)
        )
        results = []
        for _ in range(3):
            try:
                results.append(dump(agent.invoke(USER, CFG)["messages"])[-1])
            except Exception as e:
                results.append((type(e).__name__, str(e)))
        return results

    results = same(agent_backend, scenario)
    assert results[-1] == (
        "ModelCallLimitExceededError",
        "Model call limits exceeded: thread limit (2/2)",
    )


@pytest.mark.parametrize("exit_behavior", ["continue", "end", "error"])
def test_tool_call_limit(agent_backend, exit_behavior):
    def scenario(b):
        model = fake(
            ai(
                "",
                ("add", {"a": 1, "b": 1}, "c1"),
                ("add", {"a": 2, "b": 2}, "c2"),
                ("shout", {"text": "x"}, "c3"),
            ),
            ai("done"),
        )
        mw = b.middleware.ToolCallLimitMiddleware(
            tool_name="add", run_limit=1, exit_behavior=exit_behavior
        )
        agent = b.agents.create_agent(model, [add, shout], middleware=[mw])
        return sorted_tools(dump(agent.invoke(USER)["messages"])), graph_shape(agent)

    result = same(agent_backend, scenario)
    if exit_behavior == "error":
        assert type(result).__name__ == "ToolCallLimitExceededError"
    else:
        msgs, (nodes, _) = result
        assert "ToolCallLimitMiddleware[add].after_model" in nodes
        assert (
            "tool",
            "Tool call limit exceeded. Do not call 'add' again.",
            [],
            "c2",
            "add",
            "error",
        ) in msgs


def test_tool_call_limit_invalid_params(agent_backend):
    err = same(
        agent_backend, lambda b: b.middleware.ToolCallLimitMiddleware(thread_limit=1, run_limit=2)
    )
    assert isinstance(err, ValueError)


# ------------------------------------------------------------------------------- retries, fallback
def _flaky_model(fails: int, *replies):
    """A fake model whose first `fails` calls raise ConnectionError."""
    from tests.engine.agents.helpers import FakeToolModel

    class Flaky(FakeToolModel):
        failures_left: int = fails

        def _generate(self, *args, **kwargs):
            if self.failures_left > 0:
                self.failures_left -= 1
                raise ConnectionError("model down")
            return super()._generate(*args, **kwargs)

    return Flaky(responses=list(replies))


@pytest.mark.parametrize("fails,on_failure", [(1, "continue"), (5, "continue"), (5, "error")])
def test_model_retry(agent_backend, fails, on_failure):
    def scenario(b):
        mw = b.middleware.ModelRetryMiddleware(
            max_retries=2, initial_delay=0, jitter=False, on_failure=on_failure
        )
        agent = b.agents.create_agent(_flaky_model(fails, ai("fine")), [], middleware=[mw])
        return dump(agent.invoke(USER)["messages"])

    result = same(agent_backend, scenario)
    if fails == 1:
        assert result[-1][1] == "fine"
    elif on_failure == "continue":
        assert (
            result[-1][1] == "Model call failed after 3 attempts with ConnectionError: model down"
        )
    else:
        assert isinstance(result, ConnectionError)


def test_model_retry_retry_on_filter(agent_backend):
    def scenario(b):
        mw = b.middleware.ModelRetryMiddleware(
            max_retries=2, initial_delay=0, retry_on=(ValueError,)
        )
        return b.agents.create_agent(_flaky_model(1, ai("fine")), [], middleware=[mw]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), ConnectionError)


def test_tool_retry(agent_backend):
    def scenario(b):
        mw = b.middleware.ToolRetryMiddleware(max_retries=1, initial_delay=0, tools=["explode"])
        model = fake(ai("", ("explode", {"x": 7}, "c1")), ai("gave up"))
        return dump(
            b.agents.create_agent(model, [explode], middleware=[mw]).invoke(USER)["messages"]
        )

    msgs = same(agent_backend, scenario)
    assert (
        msgs[2][1]
        == "Tool 'explode' failed after 2 attempts with RuntimeError: boom 7. Please try again."
    )


def test_tool_retry_on_failure_error(agent_backend):
    def scenario(b):
        mw = b.middleware.ToolRetryMiddleware(max_retries=1, initial_delay=0, on_failure="error")
        model = fake(ai("", ("explode", {"x": 7}, "c1")), ai("gave up"))
        return b.agents.create_agent(model, [explode], middleware=[mw]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), RuntimeError)


def test_model_fallback(agent_backend):
    def scenario(b):
        mw = b.middleware.ModelFallbackMiddleware(
            _flaky_model(9, ai("never")), fake(ai("from fallback"))
        )
        agent = b.agents.create_agent(_flaky_model(9, ai("never")), [], middleware=[mw])
        return dump(agent.invoke(USER)["messages"])

    assert same(agent_backend, scenario)[-1][1] == "from fallback"


def test_model_fallback_all_fail(agent_backend):
    def scenario(b):
        mw = b.middleware.ModelFallbackMiddleware(_flaky_model(9, ai("x")))
        return b.agents.create_agent(_flaky_model(9, ai("x")), [], middleware=[mw]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), ConnectionError)


def test_retry_and_limit_together_normalised_streams(agent_backend):
    def scenario(b):
        mws = [
            b.middleware.ModelCallLimitMiddleware(run_limit=3),
            b.middleware.ModelRetryMiddleware(max_retries=1, initial_delay=0),
        ]
        agent = b.agents.create_agent(
            _flaky_model(1, ai("", ("add", {"a": 1, "b": 1}, "c1")), ai("ok")),
            [add],
            middleware=mws,
        )
        return [normalize(list(chunk)) for chunk in agent.stream(USER, stream_mode="updates")]

    assert same(agent_backend, scenario)[0] == ["ModelCallLimitMiddleware.before_model"]


# ------------------------------------------------------------------------------- PII
PII_TEXT = "mail bob@example.com, card 4111 1111 1111 1111, ip 192.168.1.20, see https://x.io/a and key sk-ABCDEF1234567890"


@pytest.mark.parametrize("pii_type", ["email", "credit_card", "ip", "url"])
@pytest.mark.parametrize("strategy", ["redact", "mask", "hash"])
def test_pii_input_strategies(agent_backend, pii_type, strategy):
    def scenario(b):
        seen = []

        @b.middleware.wrap_model_call
        def spy(request, handler):
            seen.append(request.messages[-1].content)
            return handler(request)

        mw = b.middleware.PIIMiddleware(pii_type, strategy=strategy)
        agent = b.agents.create_agent(fake(ai("ok")), [], middleware=[mw, spy])
        out = agent.invoke({"messages": [{"role": "user", "content": PII_TEXT}]})
        return seen, dump(out["messages"])

    seen, msgs = same(agent_backend, scenario)
    assert seen[0] != PII_TEXT and msgs[0][1] == seen[0]


def test_pii_custom_regex_block_and_output(agent_backend):
    def scenario(b):
        key = b.middleware.PIIMiddleware(
            "api_key", detector=r"sk-[A-Za-z0-9]{16}", strategy="block"
        )
        return b.agents.create_agent(fake(ai("ok")), [], middleware=[key]).invoke(
            {"messages": [{"role": "user", "content": PII_TEXT}]}
        )

    err = same(agent_backend, scenario)
    assert (
        type(err).__name__ == "PIIDetectionError"
        and str(err) == "Detected 1 instance(s) of api_key in text content"
    )


def test_pii_output_and_tool_results(agent_backend):
    def scenario(b):
        from langchain_core.tools import tool

        @tool
        def lookup(name: str) -> str:
            """Find an email."""
            return f"{name} is bob@example.com"

        mw = b.middleware.PIIMiddleware(
            "email",
            strategy="mask",
            apply_to_input=False,
            apply_to_output=True,
            apply_to_tool_results=True,
        )
        model = fake(ai("", ("lookup", {"name": "bob"}, "c1")), ai("write to alice@corp.org"))
        agent = b.agents.create_agent(model, [lookup], middleware=[mw])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, _ = same(agent_backend, scenario)
    assert msgs[2][1] == "bob is bob@****.com" and msgs[-1][1] == "write to alice@****.org"


def test_pii_unknown_type(agent_backend):
    assert isinstance(
        same(agent_backend, lambda b: b.middleware.PIIMiddleware("passport")), ValueError
    )


# ------------------------------------------------------------------------------- to-do list
def test_todo_list(agent_backend):
    def scenario(b):
        todos = [
            {"content": "plan", "status": "in_progress"},
            {"content": "do", "status": "pending"},
        ]
        model = fake(ai("", ("write_todos", {"todos": todos}, "c1")), ai("planned"))
        agent = b.agents.create_agent(model, [], middleware=[b.middleware.TodoListMiddleware()])
        out = agent.invoke(USER)
        return out["todos"], dump(out["messages"]), graph_shape(agent)

    todos, msgs, (nodes, _) = same(agent_backend, scenario)
    assert todos[0]["content"] == "plan" and msgs[2][1].startswith("Updated todo list to [")
    assert "TodoListMiddleware.after_model" in nodes


def test_todo_parallel_calls_rejected(agent_backend):
    def scenario(b):
        t = [{"content": "a", "status": "pending"}]
        model = fake(
            ai("", ("write_todos", {"todos": t}, "c1"), ("write_todos", {"todos": t}, "c2")),
            ai("sorry"),
        )
        agent = b.agents.create_agent(model, [], middleware=[b.middleware.TodoListMiddleware()])
        out = agent.invoke(USER)
        return dump(out["messages"]), out.get("todos")

    msgs, todos = same(agent_backend, scenario)
    assert msgs[2][5] == "error" and msgs[3][5] == "error" and todos is None


# ------------------------------------------------------------------------------- summarization
def _long_history():
    msgs = []
    for i in range(4):
        msgs += [
            {"role": "user", "content": f"question {i}"},
            {"role": "assistant", "content": f"answer {i}"},
        ]
    return {"messages": [*msgs, {"role": "user", "content": "last question"}]}


@pytest.mark.parametrize(
    "trigger,keep",
    [
        (("messages", 6), ("messages", 3)),
        ({"messages": 5, "tokens": 10}, ("messages", 2)),
        (("messages", 50), ("messages", 2)),
    ],
)
def test_summarization(agent_backend, trigger, keep):
    def scenario(b):
        summarizer = fake(ai("they asked four questions"))
        mw = b.middleware.SummarizationMiddleware(summarizer, trigger=trigger, keep=keep)
        agent = b.agents.create_agent(fake(ai("final")), [], middleware=[mw])
        return dump(agent.invoke(_long_history())["messages"])

    msgs = same(agent_backend, scenario)
    if trigger == ("messages", 50):
        assert len(msgs) == 10
    else:
        assert (
            msgs[0][1]
            == "Here is a summary of the conversation to date:\n\nthey asked four questions"
        )
        assert msgs[-1][1] == "final"


def test_summarization_keeps_tool_results_with_their_call(agent_backend):
    def scenario(b):
        summarizer = fake(ai("summary"))
        mw = b.middleware.SummarizationMiddleware(
            summarizer, trigger=("messages", 4), keep=("messages", 1)
        )
        model = fake(ai("", ("add", {"a": 1, "b": 1}, "c1")), ai("two"))
        agent = b.agents.create_agent(model, [add], middleware=[mw])
        return dump(
            agent.invoke(
                {
                    "messages": [
                        {"role": "user", "content": "q"},
                        {"role": "assistant", "content": "a"},
                        {"role": "user", "content": "add"},
                    ]
                }
            )["messages"]
        )

    msgs = same(agent_backend, scenario)
    assert msgs[-1][1] == "two"


def test_summarization_invalid_keep(agent_backend):
    err = same(
        agent_backend,
        lambda b: b.middleware.SummarizationMiddleware(
            fake(ai("x")), trigger=("messages", 3), keep=("pages", 2)
        ),
    )
    assert isinstance(err, ValueError)


def test_summarization_settings_by_their_old_names(agent_backend):
    """Programs written for langchain 1.0 pass max_tokens_before_summary and messages_to_keep:
    still accepted, with a DeprecationWarning each, and they steer the summary."""

    def scenario(b):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            mw = b.middleware.SummarizationMiddleware(
                fake(ai("short version")), max_tokens_before_summary=10, messages_to_keep=2
            )
        agent = b.agents.create_agent(fake(ai("final")), [], middleware=[mw])
        notes = [(w.category.__name__, str(w.message)) for w in caught]
        return notes, dump(agent.invoke(_long_history())["messages"])

    notes, msgs = same(agent_backend, scenario)
    assert [n[0] for n in notes] == ["DeprecationWarning", "DeprecationWarning"]
    assert msgs[0][1].endswith("short version") and len(msgs) == 4


def test_stand_alone_write_todos_tool(agent_backend):
    """langchain's todo module also exports a plain `write_todos` tool (injected tool_call_id)."""

    def scenario(b):
        package = "langchain" if b.prefix == "langgraph" else "engine"
        write_todos = importlib.import_module(f"{package}.agents.middleware.todo").write_todos
        todos = [{"content": "draft", "status": "in_progress"}]
        call = {"name": "write_todos", "args": {"todos": todos}, "id": "t1", "type": "tool_call"}
        done = write_todos.invoke(call)
        try:
            write_todos.invoke({**call, "args": {"todos": [{"status": "late"}]}})
        except ValueError as exc:
            bad = str(exc).splitlines()[0]
        return (
            write_todos.name,
            sorted(write_todos.tool_call_schema.model_json_schema()["properties"]),
            done.update["todos"],
            done.update["messages"][0].content,
            done.update["messages"][0].tool_call_id,
            bad,
        )

    result = same(agent_backend, scenario)
    assert result[0] == "write_todos" and result[1] == ["todos"]
    assert result[5].startswith("2 validation errors for write_todos")
