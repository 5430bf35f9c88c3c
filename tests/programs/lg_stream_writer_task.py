# Source: langchain-ai/langgraph, libs/langgraph/langgraph/config.py, the get_stream_writer docstring's functional-API
#   example, as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's entrypoint takes a `store` it never defines: an InMemoryStore is made
#   for it; its demo loop (workflow.stream(1, stream_mode="custom")) left to the manifest, which
#   streams with ["updates", "custom"], the task's update beside its custom chunk.
from langgraph.func import entrypoint, task
from langgraph.config import get_stream_writer
from langgraph.store.memory import InMemoryStore  # adapted: the store the example passes

store = InMemoryStore()  # adapted: undefined in the example


@task
def my_task(value: int):
    my_stream_writer = get_stream_writer()
    my_stream_writer({"custom_data": "Hello!"})
    return value + 1


@entrypoint(store=store)
def workflow(value: int):
    return my_task(value).result()
