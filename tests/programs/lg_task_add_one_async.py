# Source: langchain-ai/langgraph, libs/langgraph/langgraph/func/__init__.py, the task docstring's async example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's demo call (await add_one.ainvoke([1, 2, 3])) left to the manifest.
import asyncio
from langgraph.func import entrypoint, task


@task
async def add_one_task(a: int) -> int:
    return a + 1


@entrypoint()
async def add_one(numbers: list[int]) -> list[int]:
    futures = [add_one_task(n) for n in numbers]
    return asyncio.gather(*futures)
