# Follows: LangGraph docs, "Use the functional API" — a simple workflow: an entrypoint calling
# tasks, with a checkpointer (https://langchain-ai.github.io/langgraph/how-tos/use-functional-api).
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from typing_extensions import TypedDict


class Number(TypedDict):
    number: int


class Verdict(TypedDict):
    message: str


@task
def is_even(number: int) -> bool:
    return number % 2 == 0


@task
def format_message(even: bool) -> str:
    return "The number is even." if even else "The number is odd."


@entrypoint(checkpointer=InMemorySaver())
def workflow(inputs: Number) -> Verdict:
    even = is_even(inputs["number"]).result()
    return {"message": format_message(even).result()}


INPUT = {"number": 7}
