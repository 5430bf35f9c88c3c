"""create_react_agent: the tool-calling agent most LangGraph tutorials build.

langgraph deprecates it in favour of langchain's create_agent (engine.agents), but keeps it,
and code written against it must run here too. The graph: an "agent" node calls the model
(after an optional pre_model_hook), a router sends each tool call to the "tools" node (one Send
per call in version "v2", the whole message in "v1") or ends, optionally through a
post_model_hook and a "generate_structured_response" node.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Sequence
from typing import Annotated, Any, NotRequired, TypeVar, get_type_hints

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableBinding, RunnableSequence
from pydantic import BaseModel
from typing_extensions import TypedDict, deprecated

from engine._constants import END
from engine._internal._runnable import RunnableCallable
from engine.errors import ErrorCode, create_error_message
from engine.graph.message import add_messages
from engine.graph.state import StateGraph
from engine.managed import RemainingSteps
from engine.prebuilt.tool_node import ToolCallWithContext, ToolNode  # langgraph exposes both here
from engine.types import Send
from engine.warnings import LangGraphDeprecatedSinceV10

StructuredResponse = dict | BaseModel
StructuredResponseSchema = dict | type[BaseModel]
NEED_MORE_STEPS = "Sorry, need more steps to process this request."


# langgraph 1.0 deprecates these and create_react_agent in favour of langchain.agents: using them
# warns (LangGraphDeprecatedSinceV10) where the program does, with langgraph's messages
_MOVED = "{} has been moved to `langchain.agents`. Please update your import to `from langchain.agents import {}`."
_SUPERSEDED = "{} has been deprecated in favor of AgentState in `langchain.agents`."


@deprecated(_MOVED.format("AgentState", "AgentState"), category=LangGraphDeprecatedSinceV10)
class AgentState(TypedDict):
    """The state of the agent."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: NotRequired[RemainingSteps]


@deprecated(_SUPERSEDED.format("AgentStatePydantic"), category=LangGraphDeprecatedSinceV10)
class AgentStatePydantic(BaseModel):
    """The state of the agent."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: RemainingSteps = 25


with warnings.catch_warnings():  # subclassing here is not the program's use of them
    warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)

    @deprecated(
        _SUPERSEDED.format("AgentStateWithStructuredResponse"),
        category=LangGraphDeprecatedSinceV10,
    )
    class AgentStateWithStructuredResponse(AgentState):
        """The state of the agent with a structured response."""

        structured_response: StructuredResponse

    @deprecated(
        _SUPERSEDED.format("AgentStateWithStructuredResponsePydantic"),
        category=LangGraphDeprecatedSinceV10,
    )
    class AgentStateWithStructuredResponsePydantic(AgentStatePydantic):
        """The state of the agent with a structured response."""

        structured_response: StructuredResponse


StateSchema = TypeVar("StateSchema", bound=AgentState | AgentStatePydantic)
StateSchemaType = type[StateSchema]
PROMPT_RUNNABLE_NAME = "Prompt"
Prompt = (
    SystemMessage
    | str
    | Callable[[StateSchema], LanguageModelInput]
    | Runnable[StateSchema, LanguageModelInput]
)
"""What `prompt=` takes: a system message or its text, a function of the state or a Runnable
returning the model's input."""


def _value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key, default) if isinstance(state, dict) else getattr(state, key, default)


def _prompt_runnable(prompt: Any) -> Runnable:
    """The step before the model: the state's messages, with the prompt in front if any."""
    if prompt is None:
        return _as_runnable(lambda state: _value(state, "messages"))
    if isinstance(prompt, str):
        prompt = SystemMessage(content=prompt)
    if isinstance(prompt, SystemMessage):
        return _as_runnable(lambda state: [prompt, *_value(state, "messages")])
    if isinstance(prompt, Runnable):
        return prompt
    if callable(prompt):
        return _as_runnable(prompt)
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")


def _as_runnable(func: Callable) -> Runnable:
    from langchain_core.runnables import RunnableLambda

    return RunnableLambda(func, name=PROMPT_RUNNABLE_NAME)


def _chat_model_in(model: Any) -> Any:
    """The first chat model or binding of a sequence, else the model itself."""
    if isinstance(model, RunnableSequence):
        return next(
            (s for s in model.steps if isinstance(s, (RunnableBinding, BaseChatModel))), model
        )
    return model


def _needs_tools_bound(model: Any, tools: Sequence[Any], builtin: int = 0) -> bool:
    """False if the model is already bound to exactly these tools (checked as langgraph does)."""
    model = _chat_model_in(model)
    if not isinstance(model, RunnableBinding) or "tools" not in model.kwargs:
        return True
    bound = model.kwargs["tools"]
    if len(tools) != len(bound) - builtin:
        raise ValueError(
            "Number of tools in the model.bind_tools() and tools passed to create_react_agent "
            f"must match Got {len(tools)} tools, expected {len(bound) - builtin}"
        )
    bound_names = set()
    for spec in bound:
        if spec.get("type") == "function":
            bound_names.add(spec["function"]["name"])
        elif spec.get("name"):
            bound_names.add(spec["name"])
    if missing := {t.name for t in tools} - bound_names:
        raise ValueError(f"Missing tools '{missing}' in the model.bind_tools()")
    return False


def _base_chat_model(model: Any) -> BaseChatModel:
    model = _chat_model_in(model)
    if isinstance(model, RunnableBinding):
        model = model.bound
    if not isinstance(model, BaseChatModel):
        raise TypeError(
            "Expected `model` to be a ChatModel or RunnableBinding (e.g. model.bind_tools(...)), "
            f"got {type(model)}"
        )
    return model


def _check_history(messages: Sequence[BaseMessage]) -> None:
    """Every tool call the model made has its ToolMessage (providers refuse it otherwise)."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    unanswered = [
        call
        for m in messages
        if isinstance(m, AIMessage)
        for call in m.tool_calls
        if call["id"] not in answered
    ]
    if unanswered:
        raise ValueError(
            create_error_message(
                message="Found AIMessages with tool_calls that do not have a corresponding "
                f"ToolMessage. Here are the first few of those tool calls: {unanswered[:3]}.\n\n"
                "Every tool call (LLM requesting to call a tool) in the message history MUST "
                "have a corresponding ToolMessage (result of a tool invocation to return to the "
                "LLM) - this is required by most LLM providers.",
                error_code=ErrorCode.INVALID_CHAT_HISTORY,
            )
        )


def _tool_sends(calls: Sequence[dict], state: Any) -> list[Send]:
    return [
        Send(
            "tools",
            ToolCallWithContext(__type="tool_call_with_context", tool_call=call, state=state),
        )
        for call in calls
    ]


@deprecated(
    _MOVED.format("create_react_agent", "create_agent"), category=LangGraphDeprecatedSinceV10
)
def create_react_agent(  # noqa: C901 - one builder, in the order the graph is drawn
    model: Any,
    tools: Sequence[Any] | ToolNode,
    *,
    prompt: Any = None,
    response_format: Any = None,
    pre_model_hook: Any = None,
    post_model_hook: Any = None,
    state_schema: Any = None,
    context_schema: Any = None,
    checkpointer: Any = None,
    store: Any = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    version: str = "v2",
    name: str | None = None,
    **deprecated_kwargs: Any,
) -> Any:
    """A graph that calls `model` and runs the tools it asks for until it answers."""
    if "config_schema" in deprecated_kwargs:
        warnings.warn(
            "`config_schema` is deprecated and will be removed. Please use `context_schema` instead.",
            category=LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        config_schema = deprecated_kwargs.pop("config_schema")
        context_schema = context_schema if context_schema is not None else config_schema
    if deprecated_kwargs:
        raise TypeError(
            f"create_react_agent() got unexpected keyword arguments: {deprecated_kwargs}"
        )
    if version not in ("v1", "v2"):
        raise ValueError(f"Invalid version {version}. Supported versions are 'v1' and 'v2'.")
    if state_schema is not None:
        required = {"messages", "remaining_steps"} | (
            {"structured_response"} if response_format else set()
        )
        if missing := required - set(get_type_hints(state_schema)):
            raise ValueError(f"Missing required key(s) {missing} in state_schema")
    else:
        state_schema = (
            AgentStateWithStructuredResponse if response_format is not None else AgentState
        )

    if isinstance(tools, ToolNode):
        tool_node, builtin_tools = tools, []
    else:
        builtin_tools = [t for t in tools if isinstance(t, dict)]
        tool_node = ToolNode([t for t in tools if not isinstance(t, dict)])
    tool_classes = list(tool_node.tools_by_name.values())
    return_direct = {t.name for t in tool_classes if t.return_direct}

    dynamic = not isinstance(model, (str, Runnable)) and callable(model)
    async_dynamic = dynamic and inspect.iscoroutinefunction(model)
    static_model = None
    if not dynamic:
        if isinstance(model, str):
            # Reaches up to the agent layer, as langgraph's create_react_agent reaches up to
            # langchain's init_chat_model for a "provider:model" string.
            from engine.agents.chat_models import init_chat_model

            model = init_chat_model(model)
        if tool_classes + builtin_tools and _needs_tools_bound(
            model, tool_classes, len(builtin_tools)
        ):
            model = model.bind_tools(tool_classes + builtin_tools)
        static_model = _prompt_runnable(prompt) | model

    def resolve(state: Any, runtime: Any) -> Any:
        return _prompt_runnable(prompt) | model(state, runtime) if dynamic else static_model

    async def aresolve(state: Any, runtime: Any) -> Any:
        if async_dynamic:
            return _prompt_runnable(prompt) | await model(state, runtime)
        return resolve(state, runtime)

    def refuse_sync_call() -> None:
        if async_dynamic:
            raise RuntimeError(
                "Async model callable provided but agent invoked synchronously. Use "
                "agent.ainvoke() or agent.astream(), or provide a sync model callable."
            )

    def out_of_steps(state: Any, response: BaseMessage) -> bool:
        remaining = _value(state, "remaining_steps")
        if remaining is None or not isinstance(response, AIMessage):
            return False
        all_direct = all(call["name"] in return_direct for call in response.tool_calls)
        return (remaining < 1 and all_direct) or (remaining < 2 and bool(response.tool_calls))

    def model_input(state: Any) -> Any:
        messages = _value(state, "messages")
        expected = "'messages' key"
        if pre_model_hook is not None:
            messages = _value(state, "llm_input_messages") or messages
            expected = "'llm_input_messages' or 'messages' key"
        if messages is None:
            raise ValueError(f"Expected input to call_model to have {expected}, but got {state}")
        _check_history(messages)
        if isinstance(state, BaseModel):
            state.messages = messages
        else:
            state["messages"] = messages
        return state

    def answer(state: Any, response: AIMessage) -> dict:
        response.name = name
        if out_of_steps(state, response):
            response = AIMessage(id=response.id, content=NEED_MORE_STEPS)
        return {"messages": [response]}

    def call_model(state, runtime, config) -> dict:  # runtime, config: injected
        refuse_sync_call()
        return answer(state, resolve(state, runtime).invoke(model_input(state), config))

    async def acall_model(state, runtime, config) -> dict:  # runtime, config: injected
        runnable = await aresolve(state, runtime)
        return answer(state, await runnable.ainvoke(model_input(state), config))

    def structured_request(state: Any, resolved: Any) -> tuple[Any, list]:
        messages, schema = list(_value(state, "messages")), response_format
        if isinstance(response_format, tuple):
            system_prompt, schema = response_format
            messages = [SystemMessage(content=system_prompt), *messages]
        return _base_chat_model(resolved).with_structured_output(schema), messages

    def generate_structured_response(state, runtime, config) -> dict:  # runtime, config: injected
        refuse_sync_call()
        structured, messages = structured_request(state, resolve(state, runtime))
        return {"structured_response": structured.invoke(messages, config)}

    async def agenerate_structured_response(
        state, runtime, config
    ) -> dict:  # runtime, config: injected
        structured, messages = structured_request(state, await aresolve(state, runtime))
        return {"structured_response": await structured.ainvoke(messages, config)}

    graph = StateGraph(state_schema=state_schema, context_schema=context_schema)
    graph.add_node(
        "agent",
        # traced as a run of its own, named call_model, under the node's, as langgraph's
        RunnableCallable(call_model, acall_model),
        input_schema=_model_input_schema(state_schema, pre_model_hook),
    )
    if tool_classes:  # next to the agent, as langgraph adds it: the graph's node order shows it
        graph.add_node("tools", tool_node)
    first = "agent"
    if pre_model_hook is not None:
        graph.add_node("pre_model_hook", pre_model_hook)
        graph.add_edge("pre_model_hook", "agent")
        first = "pre_model_hook"
    graph.set_entry_point(first)
    if post_model_hook is not None:
        graph.add_node("post_model_hook", post_model_hook)
        graph.add_edge("agent", "post_model_hook")
    if response_format is not None:
        graph.add_node(
            "generate_structured_response",
            RunnableCallable(generate_structured_response, agenerate_structured_response),
        )
    after_answer = "generate_structured_response" if response_format is not None else END

    def compiled() -> Any:
        return graph.compile(
            checkpointer=checkpointer,
            store=store,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            debug=debug,
            name=name,
        )

    if not tool_classes:
        if response_format is not None:
            graph.add_edge(
                "post_model_hook" if post_model_hook is not None else "agent", after_answer
            )
        return compiled()

    def should_continue(state: Any) -> Any:
        last = _value(state, "messages")[-1]
        if not isinstance(last, AIMessage) or not last.tool_calls:
            return "post_model_hook" if post_model_hook is not None else after_answer
        if version == "v1":
            return "tools"
        if post_model_hook is not None:
            return "post_model_hook"
        return _tool_sends(last.tool_calls, state)

    if post_model_hook is not None:

        def after_post_model_hook(state: Any) -> Any:
            messages = _value(state, "messages")
            answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
            last_ai = next(m for m in reversed(messages) if isinstance(m, AIMessage))
            if pending := [c for c in last_ai.tool_calls if c["id"] not in answered]:
                return _tool_sends(pending, state)
            if isinstance(messages[-1], ToolMessage):
                return first
            return after_answer

        graph.add_conditional_edges(
            "post_model_hook", after_post_model_hook, path_map=[first, "tools", after_answer]
        )
        graph.add_conditional_edges("agent", should_continue, path_map=["post_model_hook"])
    else:
        graph.add_conditional_edges("agent", should_continue, path_map=["tools", after_answer])

    if return_direct:

        def after_tools(state: Any) -> str:
            message = None
            for message in reversed(_value(state, "messages")):
                if not isinstance(message, ToolMessage):
                    break
                if message.name in return_direct:
                    return END
            # parallel calls: a return_direct tool may have answered in another Send
            if isinstance(message, AIMessage) and any(
                c["name"] in return_direct for c in message.tool_calls
            ):
                return END
            return first

        graph.add_conditional_edges("tools", after_tools, path_map=[first, END])
    else:
        graph.add_edge("tools", first)
    return compiled()


def _model_input_schema(state_schema: Any, pre_model_hook: Any) -> Any:
    """With a pre_model_hook the agent also reads `llm_input_messages`."""
    if pre_model_hook is None:
        return state_schema
    if isinstance(state_schema, type) and issubclass(state_schema, BaseModel):
        from pydantic import create_model

        return create_model(
            "CallModelInputSchema",
            llm_input_messages=(list[AnyMessage], ...),
            __base__=state_schema,
        )

    class CallModelInputSchema(state_schema):  # type: ignore[misc, valid-type]
        llm_input_messages: list[AnyMessage]

    return CallModelInputSchema


create_tool_calling_executor = create_react_agent

# langgraph's private names for the helpers above, which packages built on it import
# (langgraph-supervisor binds its tools only if `_should_bind_tools`)
_should_bind_tools = _needs_tools_bound
_get_model = _base_chat_model
_get_state_value = _value
_get_prompt_runnable = _prompt_runnable
_validate_chat_history = _check_history

__all__ = [
    "AgentState",
    "AgentStatePydantic",
    "AgentStateWithStructuredResponse",
    "AgentStateWithStructuredResponsePydantic",
    "create_react_agent",
    "create_tool_calling_executor",
]
