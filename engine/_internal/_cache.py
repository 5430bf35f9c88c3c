"""langgraph._internal._cache: the cache-key helpers a program's own CachePolicy key_func can
delegate to, at langgraph's private path."""

from __future__ import annotations

from engine.types import _freeze, default_cache_key

__all__ = ["_freeze", "default_cache_key"]
