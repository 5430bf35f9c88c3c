# Source: fancier21/ai-langchain, src/middleware/error_handling.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/middleware/error_handling.py),
#   the app's @wrap_tool_call middleware turning a tool's error into a ToolMessage.
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from langchain.agents.middleware import wrap_tool_call
from langchain.messages import ToolMessage


@wrap_tool_call
def handle_tool_errors(request, handler):
    """Handle tool execution errors with custom messages."""
    try:
        return handler(request)
    except Exception as e:
        # Return a custom error message to the model
        return ToolMessage(
            content=f"Tool error: Please check your input and try again. ({str(e)})",
            tool_call_id=request.tool_call["id"],
        )
