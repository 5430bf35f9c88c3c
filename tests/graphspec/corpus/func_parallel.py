# Follows: LangGraph docs, "Use the functional API" — parallel execution: tasks started together
# and their futures gathered (https://langchain-ai.github.io/langgraph/how-tos/use-functional-api).
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from typing_extensions import TypedDict


class Topic(TypedDict):
    topic: str


class Essay(TypedDict):
    essay: str
    parts: int


@task
def write_part(topic: str, angle: str) -> str:
    return f"{topic} from the {angle} angle"


@task
def combine(parts: list) -> str:
    return " / ".join(parts)


@entrypoint(checkpointer=InMemorySaver())
def essay_writer(inputs: Topic) -> Essay:
    futures = [write_part(inputs["topic"], a) for a in ("history", "science", "art")]
    parts = [f.result() for f in futures]
    return {"essay": combine(parts).result(), "parts": len(parts)}


INPUT = {"topic": "bees"}
