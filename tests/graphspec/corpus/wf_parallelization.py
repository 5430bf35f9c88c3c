# Follows: LangGraph tutorial "Workflows and agents" — parallelization: three calls at once and
# an aggregator (https://langchain-ai.github.io/langgraph/tutorials/workflows).
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    topic: str
    joke: str
    story: str
    poem: str
    combined_output: str


def call_llm_1(state: State):
    return {"joke": f"joke about {state['topic']}"}


def call_llm_2(state: State):
    return {"story": f"story about {state['topic']}"}


def call_llm_3(state: State):
    return {"poem": f"poem about {state['topic']}"}


def aggregator(state: State):
    combined = f"Here's a story, joke, and poem about {state['topic']}!\n\n"
    combined += f"STORY:\n{state['story']}\n\nJOKE:\n{state['joke']}\n\nPOEM:\n{state['poem']}"
    return {"combined_output": combined}


parallel_builder = StateGraph(State)
parallel_builder.add_node("call_llm_1", call_llm_1)
parallel_builder.add_node("call_llm_2", call_llm_2)
parallel_builder.add_node("call_llm_3", call_llm_3)
parallel_builder.add_node("aggregator", aggregator)
for name in ("call_llm_1", "call_llm_2", "call_llm_3"):
    parallel_builder.add_edge(START, name)
    parallel_builder.add_edge(name, "aggregator")
parallel_builder.add_edge("aggregator", END)
parallel_workflow = parallel_builder.compile()

INPUT = {"topic": "cats"}
