# Source: fancier21/ai-langchain, src/model/response.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/model/response.py),
#   the app's structured response (a pydantic model).
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from pydantic import BaseModel, Field


class ResponseFormat(BaseModel):
    """Response schema for the agent."""

    # A punny response (always required)
    punny_response: str = Field(..., description="A punny response")
    # Any interesting information about the weather if available
    weather_conditions: str | None = Field(
        None, description="Any interesting information about the weather if available"
    )
