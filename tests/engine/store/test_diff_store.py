"""Differential tests of the store as a graph uses it: put and search, and nodes reading and
writing it through their async Runtime, on both backends (`backend` fixture)."""

import asyncio
import uuid
from dataclasses import dataclass

from tests.engine.graphs import _sg


def test_store_put_search(backend):
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    store = InMemoryStore()
    namespace = ("user_123", "memories")
    store.put(namespace, str(uuid.uuid4()), {"food_preference": "I like pizza"})
    store.put(namespace, "k2", {"food_preference": "I like sushi"})
    memories = store.search(namespace)
    assert len(memories) == 2
    d = memories[-1].dict()
    assert sorted(d) == ["created_at", "key", "namespace", "score", "updated_at", "value"]
    assert d["namespace"] == ["user_123", "memories"]
    assert (
        d["key"] == "k2"
        and d["value"] == {"food_preference": "I like sushi"}
        and d["score"] is None
    )
    assert store.search(("other",)) == []


def test_store_in_graph_async_runtime(backend):
    StateGraph, START = _sg(backend)
    MessagesState = backend.graph.MessagesState
    InMemorySaver = backend.mod("checkpoint.memory").InMemorySaver
    InMemoryStore = backend.mod("store.memory").InMemoryStore
    Runtime = backend.runtime.Runtime

    @dataclass
    class Context:
        user_id: str

    infos = []

    async def update_memory(state: MessagesState, runtime: Runtime[Context]):
        namespace = (runtime.context.user_id, "memories")
        await runtime.store.aput(namespace, str(uuid.uuid4()), {"memory": "用户今天很烦躁"})
        return {}

    async def call_model(state: MessagesState, runtime: Runtime[Context]):
        namespace = (runtime.context.user_id, "memories")
        memories = await runtime.store.asearch(
            namespace, query=state["messages"][-1].content, limit=3
        )
        info = "\n".join([d.value["memory"] for d in memories])
        infos.append(info)
        return {"messages": [{"role": "ai", "content": info or "nothing", "id": f"ai{len(infos)}"}]}

    builder = StateGraph(MessagesState, context_schema=Context)
    builder.add_node("update_memory", update_memory)
    builder.add_node("call_model", call_model)
    builder.add_edge(START, "update_memory")
    builder.add_edge("update_memory", "call_model")

    checkpointer = InMemorySaver()
    store = InMemoryStore()
    graph = builder.compile(checkpointer=checkpointer, store=store)

    async def main():
        config = {"configurable": {"thread_id": "1"}}
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u1"}]},
            config,
            context=Context(user_id="1"),
        )
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u2"}]},
            config,
            context=Context(user_id="1"),
        )
        await graph.ainvoke(
            {"messages": [{"role": "user", "content": "hi", "id": "u3"}]},
            {"configurable": {"thread_id": "2"}},
            context=Context(user_id="2"),
        )

    asyncio.run(main())
    assert infos == ["用户今天很烦躁", "用户今天很烦躁\n用户今天很烦躁", "用户今天很烦躁"]
    assert len(store.search(("1", "memories"))) == 2
    assert len(store.search(("2", "memories"))) == 1
