# Follows: LangGraph docs, "Use the functional API" — human-in-the-loop: an entrypoint pauses with
# interrupt() for review and resumes with Command(resume=...)
# (https://langchain-ai.github.io/langgraph/how-tos/use-functional-api).
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.types import interrupt
from typing_extensions import TypedDict


class Request(TypedDict):
    topic: str


class Reviewed(TypedDict):
    essay: str
    is_approved: bool


@task
def write_essay(topic: str) -> str:
    return f"An essay about {topic}"


@entrypoint(checkpointer=InMemorySaver())
def review_workflow(inputs: Request) -> Reviewed:
    essay = write_essay(inputs["topic"]).result()
    approved = interrupt({"essay": essay, "action": "Please approve/reject the essay"})
    return {"essay": essay, "is_approved": approved}


INPUT = {"topic": "cats"}
RESUME = [True]
