"""Names programs import from langgraph's prebuilt modules besides the API: the error-message
templates of langgraph.prebuilt.tool_node (a custom ToolNode formats its own errors with them)
and ToolCallWithContext, which chat_agent_executor holds because it sends it to the tools."""

import pytest
from langchain_core.messages import AIMessage

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

TEMPLATES = (
    "INVALID_TOOL_NAME_ERROR_TEMPLATE",
    "TOOL_CALL_ERROR_TEMPLATE",
    "TOOL_EXECUTION_ERROR_TEMPLATE",
    "TOOL_INVOCATION_ERROR_TEMPLATE",
)


def test_the_templates_import_from_the_tool_node_module():
    def scenario(b):
        module = b.mod("prebuilt.tool_node")
        return {name: getattr(module, name) for name in TEMPLATES}

    assert_same(scenario)


def test_a_handler_formats_errors_with_the_template():
    def scenario(b):
        template = b.mod("prebuilt.tool_node").TOOL_CALL_ERROR_TEMPLATE

        def divide(a: int, b_: int) -> float:
            """Divide a by b_."""
            return a / b_

        node = b.prebuilt.ToolNode(
            [divide], handle_tool_errors=lambda e: template.format(error=f"{type(e).__name__}")
        )
        builder = b.graph.StateGraph(b.graph.MessagesState)
        builder.add_node("tools", node)
        builder.add_edge(b.graph.START, "tools")
        call = {"name": "divide", "args": {"a": 1, "b_": 0}, "id": "c1"}
        result = builder.compile().invoke({"messages": [AIMessage("", tool_calls=[call])]})
        return result["messages"][-1].content, result["messages"][-1].status

    assert_same(scenario)


def test_tool_call_with_context_is_held_by_the_agent_module():
    def scenario(b):
        shape = b.mod("prebuilt.chat_agent_executor").ToolCallWithContext
        return shape.__name__, shape(__type="tool_call_with_context", tool_call={}, state={})

    assert_same(scenario)
