# Source: fancier21/ai-langchain, src/middleware/monitoring.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/middleware/monitoring.py),
#   the app's @wrap_tool_call middleware printing each tool call and its outcome.
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from typing import Callable

from langchain.agents.middleware import wrap_tool_call
from langchain.messages import ToolMessage
from langchain.tools.tool_node import ToolCallRequest
from langgraph.types import Command


@wrap_tool_call
def monitor_tool(
    request: ToolCallRequest,
    handler: Callable[[ToolCallRequest], ToolMessage | Command],
) -> ToolMessage | Command:
    print(f"Executing tool: {request.tool_call['name']}")
    print(f"Arguments: {request.tool_call['args']}")
    try:
        result = handler(request)
        print(f"Tool {request.tool_call['name']} completed successfully")
        return result
    except Exception as e:
        print(f"Tool {request.tool_call['name']} failed: {e}")
        raise
