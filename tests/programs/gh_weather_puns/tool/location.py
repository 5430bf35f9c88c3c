# Source: fancier21/ai-langchain, src/tool/location.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/tool/location.py),
#   the app's tool reading the run's context through ToolRuntime.
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from langchain.tools import ToolRuntime, tool

from model.context import Context


@tool
def get_user_location(runtime: ToolRuntime[Context]) -> str:
    """Retrieve user information based on user ID."""
    user_id = runtime.context.user_id
    return "Florida" if user_id == "1" else "SF"
