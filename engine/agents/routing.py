"""The agent graph's edges: model -> tools (one Send per pending call) -> model, the hook nodes
of each middleware in run order, jump_to, return_direct and structured-output exits."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage

from engine._constants import END, START
from engine.agents.middleware.types import AgentMiddleware
from engine.graph.state import StateGraph
from engine.prebuilt.tool_node import ToolNode
from engine.pregel.callable import RunnableCallable
from engine.types import Send


def _resolve_jump(jump_to: Any, *, model_destination: str, end_destination: str) -> str | None:
    return {"model": model_destination, "end": end_destination, "tools": "tools"}.get(jump_to)


def _last_ai_and_tool_messages(messages: list) -> tuple[AIMessage | None, list[ToolMessage]]:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], AIMessage):
            return messages[i], [m for m in messages[i + 1 :] if isinstance(m, ToolMessage)]
    return None, []


def _make_model_to_tools_edge(
    *, model_destination: str, structured_output_tools: dict, end_destination: str
) -> Callable:
    def model_to_tools(state: dict[str, Any]) -> Any:
        if jump_to := state.get("jump_to"):
            return _resolve_jump(
                jump_to, model_destination=model_destination, end_destination=end_destination
            )
        ai, tool_messages = _last_ai_and_tool_messages(state["messages"])
        if ai is None or not ai.tool_calls:
            return end_destination
        answered = {m.tool_call_id for m in tool_messages}
        pending = [
            c
            for c in ai.tool_calls
            if c["id"] not in answered and c["name"] not in structured_output_tools
        ]
        if pending:
            return [Send("tools", [call]) for call in pending]
        if state.get("structured_response") is not None:
            return end_destination
        return model_destination

    return model_to_tools


def _make_model_to_model_edge(*, model_destination: str, end_destination: str) -> Callable:
    def model_to_model(state: dict[str, Any]) -> Any:
        if jump_to := state.get("jump_to"):
            return _resolve_jump(
                jump_to, model_destination=model_destination, end_destination=end_destination
            )
        if state.get("structured_response") is not None:
            return end_destination
        return model_destination

    return model_to_model


def _make_tools_to_model_edge(
    *,
    tool_node: ToolNode,
    model_destination: str,
    structured_output_tools: dict,
    end_destination: str,
) -> Callable:
    tools = tool_node.tools_by_name

    def tools_to_model(state: dict[str, Any]) -> Any:
        ai, tool_messages = _last_ai_and_tool_messages(state["messages"])
        if ai is None:
            return model_destination
        executed_by_id = {t.tool_call_id: t.name for t in tool_messages if t.name in tools}
        executed = [
            name
            for c in ai.tool_calls
            if (name := executed_by_id.get(c["id"] or "", c["name"])) in tools
        ]
        if executed and all(tools[name].return_direct for name in executed):
            return end_destination
        if any(t.name in structured_output_tools and t.status != "error" for t in tool_messages):
            return end_destination
        return model_destination

    return tools_to_model


def _add_middleware_edge(
    graph: StateGraph,
    *,
    name: str,
    default_destination: str,
    model_destination: str,
    end_destination: str,
    can_jump_to: list[str] | None,
) -> None:
    if not can_jump_to:
        graph.add_edge(name, default_destination)
        return

    def jump_edge(state: dict[str, Any]) -> str:
        return (
            _resolve_jump(
                state.get("jump_to"),
                model_destination=model_destination,
                end_destination=end_destination,
            )
            or default_destination
        )

    destinations = [default_destination]
    if "end" in can_jump_to:
        destinations.append(end_destination)
    if "tools" in can_jump_to:
        destinations.append("tools")
    if "model" in can_jump_to and name != model_destination:
        destinations.append(model_destination)
    graph.add_conditional_edges(name, _untraced(jump_edge), destinations)


def _untraced(router: Callable) -> RunnableCallable:
    """As langchain's create_agent: the agent's routers are not callback runs of their own."""
    return RunnableCallable(router, trace=False, off_loop=False)


def _can_jump_to(m: AgentMiddleware, hook: str) -> list[str]:
    for name in (hook, f"a{hook}"):
        method = getattr(type(m), name, None)
        if method is not getattr(AgentMiddleware, name, None) and hasattr(
            method, "__can_jump_to__"
        ):
            return list(method.__can_jump_to__)
    return []


def wire_agent(
    graph: StateGraph,
    *,
    with_hook: dict[str, list[AgentMiddleware]],
    tool_node: ToolNode | None,
    structured_output_tools: dict,
    loops_back: bool,
) -> None:
    """Add the agent's edges. `loops_back`: the model may be called again without tool calls
    (a response format, after_model hooks or wrap_model_call middleware can ask for it)."""
    before_agent, before_model = with_hook["before_agent"], with_hook["before_model"]
    after_model, after_agent = with_hook["after_model"], with_hook["after_agent"]
    if before_agent:
        entry_node = f"{before_agent[0].name}.before_agent"
    elif before_model:
        entry_node = f"{before_model[0].name}.before_model"
    else:
        entry_node = "model"
    loop_entry_node = f"{before_model[0].name}.before_model" if before_model else "model"
    loop_exit_node = f"{after_model[0].name}.after_model" if after_model else "model"
    exit_node = f"{after_agent[-1].name}.after_agent" if after_agent else END

    graph.add_edge(START, entry_node)
    if tool_node is not None:
        tools_to_model_destinations = [loop_entry_node]
        if (
            any(t.return_direct for t in tool_node.tools_by_name.values())
            or structured_output_tools
        ):
            tools_to_model_destinations.append(exit_node)
        graph.add_conditional_edges(
            "tools",
            _untraced(
                _make_tools_to_model_edge(
                    tool_node=tool_node,
                    model_destination=loop_entry_node,
                    structured_output_tools=structured_output_tools,
                    end_destination=exit_node,
                )
            ),
            tools_to_model_destinations,
        )
        model_to_tools_destinations = ["tools", exit_node]
        if loops_back or loop_exit_node != "model":
            model_to_tools_destinations.append(loop_entry_node)
        graph.add_conditional_edges(
            loop_exit_node,
            _untraced(
                _make_model_to_tools_edge(
                    model_destination=loop_entry_node,
                    structured_output_tools=structured_output_tools,
                    end_destination=exit_node,
                )
            ),
            model_to_tools_destinations,
        )
    elif structured_output_tools:
        graph.add_conditional_edges(
            loop_exit_node,
            _untraced(
                _make_model_to_model_edge(
                    model_destination=loop_entry_node, end_destination=exit_node
                )
            ),
            [loop_entry_node, exit_node],
        )
    elif loop_exit_node == "model":
        graph.add_edge(loop_exit_node, exit_node)
    else:
        _add_middleware_edge(
            graph,
            name=loop_exit_node,
            default_destination=exit_node,
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_can_jump_to(after_model[0], "after_model"),
        )

    def chain(hook: str, ordered: list[AgentMiddleware], last_destination: str) -> None:
        """Edges between consecutive hook nodes in run order, then from the last to its exit."""
        pairs = list(itertools.pairwise(ordered))
        if last_destination:
            pairs.append((ordered[-1], None))
        for m1, m2 in pairs:
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.{hook}",
                default_destination=f"{m2.name}.{hook}" if m2 is not None else last_destination,
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_can_jump_to(m1, hook),
            )

    if before_agent:
        chain("before_agent", before_agent, loop_entry_node)
    if before_model:
        chain("before_model", before_model, "model")
    if after_model:
        graph.add_edge("model", f"{after_model[-1].name}.after_model")
        chain("after_model", after_model[::-1], "")
    if after_agent:
        chain("after_agent", after_agent[::-1], END)
