"""langgraph._internal._constants: the engine's reserved names under langgraph's private path."""

from engine._constants import *  # noqa: F403
from engine._constants import CONFIG_KEY_READ, CONFIG_KEY_SEND  # noqa: F401  (deepagents uses)
