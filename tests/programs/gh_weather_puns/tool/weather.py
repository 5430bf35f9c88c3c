# Source: fancier21/ai-langchain, src/tool/weather.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/tool/weather.py),
#   the app's weather tool.
# License: none found (no license file among the repository's indexed files).
# Adapted: nothing.
from langchain.tools import tool


@tool
def get_weather_for_location(city: str) -> str:
    """Get weather for a given city."""
    return f"It's always sunny in {city}!"
