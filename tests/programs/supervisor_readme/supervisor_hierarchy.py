# Source: langchain-ai/langgraph-supervisor-py, README.md, the "Multi-level Hierarchies" example
#   (a supervisor managing two supervisors), as released in langgraph-supervisor 0.0.31
#   (https://pypi.org/project/langgraph-supervisor/0.0.31/, its sdist); the research and math
#   agents are the README quickstart's; the langgraph_supervisor package beside it is that
#   release's, unchanged.
# License: MIT, (c) LangChain, Inc. (langgraph_supervisor/LICENSE)
# Adapted: ChatOpenAI(model="gpt-4o") replaced by a scripted model shared by every supervisor and
#   agent, as the README shares its model; writing_agent and publishing_agent, which the README
#   leaves undefined, made as its quickstart makes agents (create_react_agent, no tools); the
#   run is the manifest's.
from _offline import ScriptedChatModel, calls

from langgraph_supervisor import create_supervisor
from langgraph.prebuilt import create_react_agent

model = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("transfer_to_research_team", {})),
        calls(("transfer_to_research_expert", {})),
        calls(("web_search", {"query": "FAANG headcounts 2024"})),
        "Meta 67,317; Apple 164,000; Amazon 1,551,000; Netflix 14,000; Google 181,269.",
        "The research expert found the 2024 headcounts.",
        calls(("transfer_to_writing_team", {})),
        calls(("transfer_to_writing_expert", {})),
        "FAANG employed about 1.98 million people in 2024.",
        "The writing team has a summary.",
        "FAANG employed about 1.98 million people in 2024.",
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

writing_agent = create_react_agent(  # adapted: undefined in the README
    model=model,
    tools=[],
    name="writing_expert",
    prompt="You are a writer. Summarize what the research found.",
)

publishing_agent = create_react_agent(  # adapted: undefined in the README
    model=model,
    tools=[],
    name="publishing_expert",
    prompt="You are a publisher. Format the text for publication.",
)

research_team = create_supervisor(
    [research_agent, math_agent],
    model=model,
    supervisor_name="research_supervisor"
).compile(name="research_team")

writing_team = create_supervisor(
    [writing_agent, publishing_agent],
    model=model,
    supervisor_name="writing_supervisor"
).compile(name="writing_team")

top_level_supervisor = create_supervisor(
    [research_team, writing_team],
    model=model,
    supervisor_name="top_level_supervisor"
).compile(name="top_level_supervisor")
