# Follows: LangGraph tutorial "Workflows and agents" — prompt chaining: generate, gate on a
# check, improve and polish (https://langchain-ai.github.io/langgraph/tutorials/workflows).
# The LLM calls are replaced by deterministic string edits.
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    topic: str
    joke: str
    improved_joke: str
    final_joke: str


def generate_joke(state: State):
    return {"joke": f"Why did the {state['topic']} cross the road?"}


def check_punchline(state: State):
    return "Pass" if "?" in state["joke"] or "!" in state["joke"] else "Fail"


def improve_joke(state: State):
    return {"improved_joke": state["joke"] + " To get to the other side!"}


def polish_joke(state: State):
    return {"final_joke": state["improved_joke"].upper()}


workflow = StateGraph(State)
workflow.add_node("generate_joke", generate_joke)
workflow.add_node("improve_joke", improve_joke)
workflow.add_node("polish_joke", polish_joke)
workflow.add_edge(START, "generate_joke")
workflow.add_conditional_edges(
    "generate_joke", check_punchline, {"Fail": "improve_joke", "Pass": END}
)
workflow.add_edge("improve_joke", "polish_joke")
workflow.add_edge("polish_joke", END)
chain = workflow.compile()

INPUT = {"topic": "chicken"}
