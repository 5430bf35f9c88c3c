# Source: langchain-ai/langgraph-supervisor-py, README.md, the "Message Forwarding" example (a
#   forward_message tool that hands a worker's last message straight to the output), with the
#   README quickstart's research and math agents, as released in langgraph-supervisor 0.0.31
#   (https://pypi.org/project/langgraph-supervisor/0.0.31/, its sdist); the langgraph_supervisor
#   package beside it is that release's, unchanged.
# License: MIT, (c) LangChain, Inc. (langgraph_supervisor/LICENSE)
# Adapted: ChatOpenAI(model="gpt-4o") replaced by a scripted model shared by the supervisor and
#   both agents, as the README shares its model (research, then the supervisor forwards the
#   research expert's answer); the compile and the run are the quickstart's, the run left to the
#   manifest.
from _offline import ScriptedChatModel, calls

from langgraph_supervisor import create_supervisor
from langgraph.prebuilt import create_react_agent
from langgraph_supervisor.handoff import create_forward_message_tool

model = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("transfer_to_research_expert", {})),
        calls(("web_search", {"query": "FAANG headcounts 2024"})),
        "Meta 67,317; Apple 164,000; Amazon 1,551,000; Netflix 14,000; Google 181,269.",
        calls(("forward_message", {"from_agent": "research_expert"})),
    ]
)

# Create specialized agents

def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b

def multiply(a: float, b: float) -> float:
    """Multiply two numbers."""
    return a * b

def web_search(query: str) -> str:
    """Search the web for information."""
    return (
        "Here are the headcounts for each of the FAANG companies in 2024:\n"
        "1. **Facebook (Meta)**: 67,317 employees.\n"
        "2. **Apple**: 164,000 employees.\n"
        "3. **Amazon**: 1,551,000 employees.\n"
        "4. **Netflix**: 14,000 employees.\n"
        "5. **Google (Alphabet)**: 181,269 employees."
    )

math_agent = create_react_agent(
    model=model,
    tools=[add, multiply],
    name="math_expert",
    prompt="You are a math expert. Always use one tool at a time."
)

research_agent = create_react_agent(
    model=model,
    tools=[web_search],
    name="research_expert",
    prompt="You are a world class researcher with access to web search. Do not do any math."
)

forwarding_tool = create_forward_message_tool("supervisor") # The argument is the name to assign to the resulting forwarded message
workflow = create_supervisor(
    [research_agent, math_agent],
    model=model,
    # Pass the forwarding tool along with any other custom or default handoff tools
    tools=[forwarding_tool]
)

app = workflow.compile()  # adapted: the quickstart's compile
