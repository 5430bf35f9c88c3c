# Source: langchain-ai/langgraph, libs/langgraph/langgraph/func/__init__.py, the task docstring's sync example,
#   as released in langgraph 1.2.24 (https://pypi.org/project/langgraph/1.2.24/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the example's demo call (add_one.invoke([1, 2, 3])) left to the manifest.
from langgraph.func import entrypoint, task


@task
def add_one_task(a: int) -> int:
    return a + 1


@entrypoint()
def add_one(numbers: list[int]) -> list[int]:
    futures = [add_one_task(n) for n in numbers]
    results = [f.result() for f in futures]
    return results
