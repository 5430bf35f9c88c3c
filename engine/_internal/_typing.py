"""langgraph._internal._typing: the "no value" sentinel at langgraph's private path."""

from engine._constants import MISSING  # noqa: F401
