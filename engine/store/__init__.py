"""Long-term key-value stores shared across threads (mirrors `langgraph.store`).

`engine.store.base` holds the item, operation and store interfaces; `engine.store.memory`
holds the dictionary-backed `InMemoryStore`.
"""
