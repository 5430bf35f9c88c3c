# Follows: LangChain docs, "Multi-agent — subagents": a create_agent agent run as a node of a
# parent graph, after a node that prepares the request
# (https://docs.langchain.com/oss/python/langchain/multi-agent).
from _scripted import ScriptedModel
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import END, START, MessagesState, StateGraph


def translate(text: str) -> str:
    """Translate text to French."""
    return {"hello": "bonjour"}.get(text.lower(), text)


translator_model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "translate", "args": {"text": "hello"}, "id": "call_t"}],
        ),
        AIMessage(content="bonjour"),
    ]
)
translator = create_agent(
    translator_model, [translate], system_prompt="You translate.", name="translator"
)


def prepare(state: MessagesState):
    return {"messages": [HumanMessage("Translate the word: hello")]}


builder = StateGraph(MessagesState)
builder.add_node("prepare", prepare)
builder.add_node("translator", translator)
builder.add_edge(START, "prepare")
builder.add_edge("prepare", "translator")
builder.add_edge("translator", END)
graph = builder.compile()

INPUT = {"messages": []}
