# Source: lalanikarim/langgraph-func-api-hil-sqlite, hil-func.py at commit
#   49a0b19d51d03743b5a3dd6ad6f2a631719ebfa6
#   (https://github.com/lalanikarim/langgraph-func-api-hil-sqlite/blob/49a0b19d51d03743b5a3dd6ad6f2a631719ebfa6/hil-func.py),
#   a functional-API workflow whose middle @task interrupts for feedback (an interrupt inside a
#   task, not in the entrypoint), with the entrypoint's own MemorySaver.
# License: none found (no license file among the repository's indexed files).
# Adapted: the demo streams at the end (the input "foo", then Command(resume="baz")) dropped
#   (the manifest makes the same calls).
# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "langgraph",
# ]
# ///
from langgraph.checkpoint.memory import MemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import Command, interrupt


@task
def step_1(input_query):
    """Append bar."""
    return f"{input_query} bar"


@task
def human_feedback(input_query):
    """Append user input."""
    feedback = interrupt(f"Please provide feedback: {input_query}")
    return f"{input_query} {feedback}"


@task
def step_3(input_query):
    """Append qux."""
    return f"{input_query} qux"


checkpointer = MemorySaver()


@entrypoint(checkpointer=checkpointer)
def graph(input_query):
    result_1 = step_1(input_query).result()
    result_2 = human_feedback(result_1).result()
    result_3 = step_3(result_2).result()

    return result_3
