"""Caches for node results (mirrors `langgraph.cache`).

`engine.cache.base` defines the `BaseCache` interface; `engine.cache.memory` holds the
in-process `InMemoryCache`.
"""
