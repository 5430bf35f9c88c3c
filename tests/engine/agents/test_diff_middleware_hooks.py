"""Differential tests: custom middleware of each hook kind, order, jumps, state schemas, wrap commands."""

import asyncio
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from tests.engine.agents.helpers import add, ai, dump, fake, graph_shape, same

pytestmark = pytest.mark.differential

USER = {"messages": [{"role": "user", "content": "hi"}]}


def _logging_middleware(b, name: str, log: list, *, jumps: dict[str, Any] | None = None):
    """A middleware class overriding every node hook; each appends `name.hook` to log."""
    mw = b.middleware
    jumps = jumps or {}

    def make(hook):
        def method(self, state, runtime):
            log.append(f"{name}.{hook}")
            return jumps.get(hook)

        if hook in jumps:
            method = mw.hook_config(can_jump_to=["end", "model", "tools"])(method)
        return method

    attrs = {h: make(h) for h in ("before_agent", "before_model", "after_model", "after_agent")}
    return type(name, (mw.AgentMiddleware,), attrs)()


def test_node_hooks_order_and_graph_shape(agent_backend):
    def scenario(b):
        log: list = []
        model = fake(ai("", ("add", {"a": 1, "b": 1}, "c1")), ai("done"))
        mws = [_logging_middleware(b, n, log) for n in ("A", "B")]
        agent = b.agents.create_agent(model, [add], middleware=mws)
        msgs = dump(agent.invoke(USER)["messages"])
        return log, graph_shape(agent), msgs

    log, (nodes, edges), _ = same(agent_backend, scenario)
    assert log == [
        "A.before_agent",
        "B.before_agent",
        "A.before_model",
        "B.before_model",
        "B.after_model",
        "A.after_model",
        "A.before_model",
        "B.before_model",
        "B.after_model",
        "A.after_model",
        "B.after_agent",
        "A.after_agent",
    ]
    assert "A.before_agent" in nodes and ("B.after_agent", "A.after_agent", False) in edges


def test_jump_to_end_from_before_model(agent_backend):
    def scenario(b):
        log: list = []
        mws = [_logging_middleware(b, "A", log, jumps={"before_model": {"jump_to": "end"}})]
        model = fake(ai("never"))
        agent = b.agents.create_agent(model, [add], middleware=mws)
        out = agent.invoke(USER)
        return log, dump(out["messages"]), graph_shape(agent)

    log, msgs, _ = same(agent_backend, scenario)
    assert log == ["A.before_agent", "A.before_model", "A.after_agent"] and len(msgs) == 1


def test_jump_without_can_jump_to_is_ignored(agent_backend):
    def scenario(b):
        @b.middleware.before_model
        def stopper(state, runtime):
            return {"jump_to": "end"}

        agent = b.agents.create_agent(fake(ai("answered")), [add], middleware=[stopper])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, _ = same(agent_backend, scenario)
    assert msgs[-1][1] == "answered"


def test_jump_to_target_not_declared(agent_backend):
    def scenario(b):
        @b.middleware.after_model(can_jump_to=["end"])
        def to_model(state, runtime):
            if len(state["messages"]) < 4:
                return {"jump_to": "model"}
            return None

        agent = b.agents.create_agent(fake(ai("one"), ai("two")), [], middleware=[to_model])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    # the router returns a destination missing from its path map: langgraph raises KeyError
    err = same(agent_backend, scenario)
    assert isinstance(err, KeyError) and err.args == ("model",)


def test_jump_to_model_from_after_model(agent_backend):
    def scenario(b):
        @b.middleware.after_model(can_jump_to=["model"])
        def again(state, runtime):
            if len(state["messages"]) < 3:
                return {"messages": [{"role": "user", "content": "more"}], "jump_to": "model"}
            return None

        agent = b.agents.create_agent(fake(ai("one"), ai("two")), [], middleware=[again])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, _ = same(agent_backend, scenario)
    assert [m[1] for m in msgs] == ["hi", "one", "more", "two"]


def test_jump_to_tools_from_before_model(agent_backend):
    def scenario(b):
        @b.middleware.before_model(can_jump_to=["tools"])
        def pre(state, runtime):
            if len(state["messages"]) == 1:
                return {"messages": [ai("", ("add", {"a": 2, "b": 3}, "x1"))], "jump_to": "tools"}
            return None

        agent = b.agents.create_agent(fake(ai("final")), [add], middleware=[pre])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, _ = same(agent_backend, scenario)
    assert [m[1] for m in msgs] == ["hi", "", "5", "final"]


def test_decorators_async_hooks_via_ainvoke(agent_backend):
    import asyncio

    def scenario(b):
        log: list = []

        @b.middleware.before_model
        async def abm(state, runtime):
            log.append("abm")

        @b.middleware.wrap_model_call
        async def awrap(request, handler):
            log.append("awrap")
            return await handler(request)

        agent = b.agents.create_agent(fake(ai("ok")), [], middleware=[abm, awrap])
        out = asyncio.run(agent.ainvoke(USER))
        return log, dump(out["messages"])

    log, _ = same(agent_backend, scenario)
    assert log == ["abm", "awrap"]


def test_async_only_hook_on_sync_invoke(agent_backend):
    def scenario(b):
        @b.middleware.wrap_model_call
        async def awrap(request, handler):
            return await handler(request)

        return b.agents.create_agent(fake(ai("ok")), [], middleware=[awrap]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), NotImplementedError)


def test_an_agent_with_async_only_wraps_says_it_needs_the_async_api():
    """Its sync call can only raise (above), so the studio and `superstep run`, which ask
    needs_async, run it on the async API as `langgraph dev` does; a sync twin keeps it sync."""
    from engine.agents import create_agent
    from engine.agents.middleware import wrap_model_call, wrap_tool_call
    from engine.pregel.stepper import needs_async

    @wrap_model_call
    async def amodel(request, handler):
        return await handler(request)

    @wrap_tool_call
    async def atool(request, handler):
        return await handler(request)

    @wrap_tool_call
    def stool(request, handler):
        return handler(request)

    def agent(*middleware):
        return create_agent(fake(ai("ok")), [add], middleware=list(middleware))

    assert needs_async(agent(amodel)) and needs_async(agent(atool, stool))
    assert not needs_async(agent(stool)) and not needs_async(agent())


def test_wrap_model_call_nesting_and_request_override(agent_backend):
    def scenario(b):
        log: list = []
        seen: list = []

        @b.middleware.wrap_model_call
        def outer(request, handler):
            log.append("outer>")
            r = handler(request.override(system_message=SystemMessage("from outer")))
            log.append("<outer")
            return r

        @b.middleware.wrap_model_call
        def inner(request, handler):
            log.append("inner>")
            seen.append(request.system_prompt)
            r = handler(request)
            log.append("<inner")
            return AIMessage(content=r.result[0].content + "!")

        agent = b.agents.create_agent(
            fake(ai("hey")), [], system_prompt="base", middleware=[outer, inner]
        )
        return log, seen, dump(agent.invoke(USER)["messages"])

    log, seen, msgs = same(agent_backend, scenario)
    assert log == ["outer>", "inner>", "<inner", "<outer"] and seen == ["from outer"]
    assert msgs[-1][1] == "hey!"


def test_dynamic_prompt(agent_backend):
    def scenario(b):
        prompts: list = []

        @b.middleware.dynamic_prompt
        def prompt(request):
            return f"{len(request.messages)} messages so far"

        @b.middleware.wrap_model_call
        def spy(request, handler):
            prompts.append(request.system_prompt)
            return handler(request)

        agent = b.agents.create_agent(fake(ai("ok")), [], middleware=[prompt, spy])
        agent.invoke(USER)
        return prompts

    assert same(agent_backend, scenario) == ["1 messages so far"]


def _counter_state(b):
    import operator
    from typing import NotRequired

    class CounterState(b.agents.AgentState):
        count: NotRequired[Annotated[int, operator.add]]
        tag: NotRequired[str]

    return CounterState


def test_wrap_model_call_commands_compose_inner_then_outer(agent_backend):
    def scenario(b):
        mw = b.middleware
        CounterState = _counter_state(b)
        Command = b.types.Command

        def make(label, n):
            def wrap(self, request, handler):
                r = handler(request)
                return mw.ExtendedModelResponse(
                    model_response=r, command=Command(update={"count": n})
                )

            return type(
                label,
                (mw.AgentMiddleware,),
                {"state_schema": CounterState, "wrap_model_call": wrap},
            )()

        agent = b.agents.create_agent(
            fake(ai("ok")), [], middleware=[make("Outer", 10), make("Inner", 1)]
        )
        out = agent.invoke(USER)
        return out.get("count"), dump(out["messages"])

    count, _ = same(agent_backend, scenario)
    assert count == 11


def test_wrap_model_call_commands_writing_same_plain_key_conflict(agent_backend):
    def scenario(b):
        mw = b.middleware
        CounterState = _counter_state(b)
        Command = b.types.Command

        def make(label):
            def wrap(self, request, handler):
                return mw.ExtendedModelResponse(
                    model_response=handler(request), command=Command(update={"tag": label})
                )

            return type(
                label,
                (mw.AgentMiddleware,),
                {"state_schema": CounterState, "wrap_model_call": wrap},
            )()

        return b.agents.create_agent(
            fake(ai("ok")), [], middleware=[make("Outer"), make("Inner")]
        ).invoke(USER)

    err = same(agent_backend, scenario)
    assert type(err).__name__ == "InvalidUpdateError"


def test_wrap_model_call_retry_drops_failed_attempt_commands(agent_backend):
    def scenario(b):
        mw = b.middleware
        CounterState = _counter_state(b)
        Command = b.types.Command
        attempts: list = []

        def retry(self, request, handler):
            for _ in range(3):
                try:
                    return handler(request)
                except ValueError:
                    continue
            raise RuntimeError("gave up")

        def flaky(self, request, handler):
            attempts.append(1)
            r = handler(request)
            if len(attempts) < 2:
                raise ValueError("flaky")
            return mw.ExtendedModelResponse(
                model_response=r, command=Command(update={"count": len(attempts)})
            )

        Retry = type(
            "Retry", (mw.AgentMiddleware,), {"state_schema": CounterState, "wrap_model_call": retry}
        )
        Flaky = type("Flaky", (mw.AgentMiddleware,), {"wrap_model_call": flaky})
        agent = b.agents.create_agent(fake(ai("a"), ai("b")), [], middleware=[Retry(), Flaky()])
        out = agent.invoke(USER)
        return out.get("count"), dump(out["messages"])

    count, msgs = same(agent_backend, scenario)
    assert count == 2 and msgs[-1][1] == "b"


def test_wrap_model_call_command_goto_not_supported(agent_backend):
    def scenario(b):
        mw = b.middleware

        @mw.wrap_model_call
        def bad(request, handler):
            return mw.ExtendedModelResponse(
                model_response=handler(request), command=b.types.Command(goto="model")
            )

        return b.agents.create_agent(fake(ai("ok")), [], middleware=[bad]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), NotImplementedError)


def test_wrap_tool_call_nesting_and_short_circuit(agent_backend):
    def scenario(b):
        from langchain_core.messages import ToolMessage

        log: list = []

        @b.middleware.wrap_tool_call
        def outer(request, handler):
            log.append(f"outer:{request.tool_call['name']}")
            return handler(request)

        @b.middleware.wrap_tool_call
        def inner(request, handler):
            log.append("inner")
            if request.tool_call["args"].get("a") == 0:
                return ToolMessage("cached", tool_call_id=request.tool_call["id"])
            new_call = {**request.tool_call, "args": {"a": 100, "b": 1}}
            return handler(request.override(tool_call=new_call))

        model = fake(
            ai("", ("add", {"a": 0, "b": 0}, "c1"), ("add", {"a": 1, "b": 1}, "c2")), ai("done")
        )
        agent = b.agents.create_agent(model, [add], middleware=[outer, inner])
        return sorted(log), dump(agent.invoke(USER)["messages"])

    log, msgs = same(agent_backend, scenario)
    assert [m[1] for m in msgs[2:4]] == ["cached", "101"]


def test_wrap_tool_call_exception_propagates(agent_backend):
    def scenario(b):
        @b.middleware.wrap_tool_call
        def boom(request, handler):
            raise KeyError("nope")

        model = fake(ai("", ("add", {"a": 0, "b": 0}, "c1")), ai("done"))
        return b.agents.create_agent(model, [add], middleware=[boom]).invoke(USER)

    assert isinstance(same(agent_backend, scenario), KeyError)


def test_middleware_state_schema_merged_and_private_keys(agent_backend):
    def scenario(b):
        from typing import NotRequired

        mw = b.middleware
        from langchain.agents.middleware.types import PrivateStateAttr as LcPrivate

        from engine.agents.middleware.types import PrivateStateAttr as EngPrivate

        private = LcPrivate if b.prefix == "langgraph" else EngPrivate

        class S(b.agents.AgentState):
            visible: NotRequired[str]
            secret: NotRequired[Annotated[str, private]]

        def before(self, state, runtime):
            return {"visible": "v", "secret": "s"}

        M = type("M", (mw.AgentMiddleware,), {"state_schema": S, "before_model": before})
        agent = b.agents.create_agent(fake(ai("ok")), [], middleware=[M()])
        out = agent.invoke(USER)
        builder = agent.builder
        return (
            sorted(out),
            sorted(builder.input_schema.__annotations__),
            sorted(builder.output_schema.__annotations__),
        )

    keys, inp, outp = same(agent_backend, scenario)
    assert keys == ["messages", "visible"] and inp == ["messages", "visible"]
    assert outp == ["messages", "structured_response", "visible"]


def test_middleware_tools_registered(agent_backend):
    def scenario(b):
        def before(self, state, runtime):
            return None

        M = type("M", (b.middleware.AgentMiddleware,), {"tools": [add], "before_model": before})
        model = fake(ai("", ("add", {"a": 2, "b": 2}, "c1")), ai("done"))
        agent = b.agents.create_agent(model, [], middleware=[M()])
        return dump(agent.invoke(USER)["messages"]), graph_shape(agent)

    msgs, (nodes, _) = same(agent_backend, scenario)
    assert "tools" in nodes and msgs[2][1] == "4"


def test_unknown_tool_added_by_wrap_model_call(agent_backend):
    def scenario(b):
        from langchain_core.tools import tool

        @tool
        def extra(x: int) -> int:
            """Extra."""
            return x

        @b.middleware.wrap_model_call
        def add_tool(request, handler):
            return handler(request.override(tools=[*request.tools, extra]))

        return b.agents.create_agent(fake(ai("ok")), [add], middleware=[add_tool]).invoke(USER)

    err = same(agent_backend, scenario)
    assert isinstance(err, ValueError) and "Unknown tools: ['extra']" in str(err)


def test_structured_output_tool_strategy(agent_backend):
    def scenario(b):
        from pydantic import BaseModel

        class Weather(BaseModel):
            city: str
            temp: int

        so = b.structured_output
        model = fake(
            ai("", ("Weather", {"city": "Oslo"}, "s1")),
            ai("", ("Weather", {"city": "Oslo", "temp": 3}, "s2")),
        )
        agent = b.agents.create_agent(model, [add], response_format=so.ToolStrategy(Weather))
        out = agent.invoke(USER)
        return out["structured_response"], dump(out["messages"]), graph_shape(agent)

    resp, msgs, _ = same(agent_backend, scenario)
    assert resp.temp == 3 and msgs[2][5] is not None


def test_class_hooks_get_the_arguments_their_signature_names(agent_backend):
    """As langchain builds a hook's node: `runtime`, `config` are passed by name when the hook
    names them, so `before_model(self, state)` gets the state alone and a hook naming its
    runtime otherwise is left without it (issue 31)."""

    def scenario(b):
        seen: list = []

        class StateOnly(b.middleware.AgentMiddleware):
            @b.middleware.hook_config(can_jump_to=["end"])
            def before_model(self, state):
                seen.append(("state only", len(state["messages"])))
                return {"jump_to": "end"} if len(state["messages"]) > 2 else None

        class Named(b.middleware.AgentMiddleware):
            def after_model(self, state, config, runtime):
                seen.append(("named", type(runtime).__name__, "configurable" in config))

        class Async(b.middleware.AgentMiddleware):
            async def abefore_agent(self, state):
                seen.append(("async state only", len(state["messages"])))

        class OtherName(b.middleware.AgentMiddleware):
            def before_agent(self, state, rt):
                seen.append(("never", rt))

        agent = b.agents.create_agent(fake(ai("one")), middleware=[StateOnly(), Named()])
        out = [dump(agent.invoke(USER)["messages"])]
        agent = b.agents.create_agent(fake(ai("two")), middleware=[Async()])
        import asyncio

        out.append(dump(asyncio.run(agent.ainvoke(USER))["messages"]))
        agent = b.agents.create_agent(fake(ai("three")), middleware=[OtherName()])
        try:
            agent.invoke(USER)
        except TypeError as exc:
            out.append(str(exc).split(".")[-1])
        return seen, out

    seen, out = same(agent_backend, scenario)
    assert seen == [("state only", 1), ("named", "Runtime", True), ("async state only", 1)]
    assert out[-1] == "before_agent() missing 1 required positional argument: 'rt'"


@pytest.mark.parametrize("run_async", [False, True])
def test_messages_appended_to_the_request_in_place_are_kept(agent_backend, run_async):
    """langchain writes the request's message list back to the state when it differs after the
    call, so a wrap_model_call that appends to request.messages in place adds to the history."""

    def scenario(b):
        def remind(request, handler):
            request.messages.append(HumanMessage("be brief"))
            return handler(request)

        async def aremind(request, handler):
            request.messages.append(HumanMessage("be brief"))
            return await handler(request)

        mw = b.middleware.wrap_model_call(aremind if run_async else remind)
        model = fake(ai("", ("add", {"a": 1, "b": 2}, "c1")), ai("done"))
        agent = b.agents.create_agent(model, [add], middleware=[mw])
        return dump(
            (asyncio.run(agent.ainvoke(USER)) if run_async else agent.invoke(USER))["messages"]
        )

    messages = same(agent_backend, scenario)
    assert [m[1] for m in messages] == ["hi", "be brief", "", "3", "be brief", "done"]
