# Source: langchain-ai/langgraph-swarm-py, README.md, the quickstart, as released in
#   langgraph-swarm 0.1.0 (https://pypi.org/project/langgraph-swarm/0.1.0/, its sdist); the
#   langgraph_swarm package beside it is that release's, unchanged.
# License: MIT, (c) LangChain, Inc. (langgraph_swarm/LICENSE)
# Adapted: ChatOpenAI(model="gpt-4o") replaced by a scripted model shared by both agents, as
#   the README shares its model (Alice hands off to Bob, Bob answers; then Bob hands back to
#   Alice, who adds and answers); the README's two demo turns and prints left to the manifest.
from _offline import ScriptedChatModel, calls

from langgraph.checkpoint.memory import InMemorySaver
from langchain.agents import create_agent
from langgraph_swarm import create_handoff_tool, create_swarm

model = ScriptedChatModel(
    responses=[
        calls(("transfer_to_bob", {})),
        "Ahoy, matey! Bob here.",
        calls(("transfer_to_alice", {})),
        calls(("add", {"a": 5, "b": 7})),
        "5 + 7 is 12.",
    ]
)

def add(a: int, b: int) -> int:
    """Add two numbers"""
    return a + b

alice = create_agent(
    model,
    tools=[
        add,
        create_handoff_tool(
            agent_name="Bob",
            description="Transfer to Bob",
        ),
    ],
    system_prompt="You are Alice, an addition expert.",
    name="Alice",
)

bob = create_agent(
    model,
    tools=[
        create_handoff_tool(
            agent_name="Alice",
            description="Transfer to Alice, she can help with math",
        ),
    ],
    system_prompt="You are Bob, you speak like a pirate.",
    name="Bob",
)

checkpointer = InMemorySaver()
workflow = create_swarm(
    [alice, bob],
    default_active_agent="Alice"
)
app = workflow.compile(checkpointer=checkpointer)
