# Follows: LangGraph docs, "Add memory" — long-term memory shared across threads in a store,
# read and written by nodes through the runtime (https://langchain-ai.github.io/langgraph/how-tos/memory/add-memory).
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.memory import InMemoryStore
from typing_extensions import TypedDict


class State(TypedDict):
    user: str
    fact: str
    remembered: list


def remember(state: State):
    get_store().put(("memories", state["user"]), state["fact"], {"text": state["fact"]})
    return {}


def recall(state: State):
    items = get_store().search(("memories", state["user"]))
    return {"remembered": sorted(item.value["text"] for item in items)}


builder = StateGraph(State)
builder.add_node(remember)
builder.add_node(recall)
builder.add_edge(START, "remember")
builder.add_edge("remember", "recall")
builder.add_edge("recall", END)
graph = builder.compile(checkpointer=InMemorySaver(), store=InMemoryStore())

INPUTS = [{"user": "ada", "fact": "likes tea"}, {"user": "ada", "fact": "plays chess"}]
