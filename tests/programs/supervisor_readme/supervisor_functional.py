# Source: langchain-ai/langgraph-supervisor-py, README.md, the "functional API" example, as
#   released in langgraph-supervisor 0.0.31 (https://pypi.org/project/langgraph-supervisor/
#   0.0.31/, its sdist); the langgraph_supervisor package beside it is that release's.
# License: MIT, (c) LangChain, Inc. (langgraph_supervisor/LICENSE)
# Adapted: ChatOpenAI(model="gpt-4o") replaced by a scripted model shared by the supervisor and
#   both agents, as the README shares its model (a hand-off to the joke agent, its joke, the
#   answer); the README's demo call and prints left to the manifest.
from _offline import ScriptedChatModel, calls

from langgraph.prebuilt import create_react_agent
from langgraph_supervisor import create_supervisor

from langgraph.func import entrypoint, task
from langgraph.graph import add_messages

model = ScriptedChatModel(
    responses=[
        calls(("transfer_to_joke_agent", {})),
        "Why do programmers prefer dark mode? Because light attracts bugs.",
        "Here is a joke to start: light attracts bugs.",
    ]
)

# Create specialized agents

# Functional API - Agent 1 (Joke Generator)
@task
def generate_joke(messages):
    """First LLM call to generate initial joke"""
    system_message = {
        "role": "system", 
        "content": "Write a short joke"
    }
    msg = model.invoke(
        [system_message] + messages
    )
    return msg

@entrypoint()
def joke_agent(state):
    joke = generate_joke(state['messages']).result()
    messages = add_messages(state["messages"], [joke])
    return {"messages": messages}

joke_agent.name = "joke_agent"

# Graph API - Agent 2 (Research Expert)
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

research_agent = create_react_agent(
    model=model,
    tools=[web_search],
    name="research_expert",
    prompt="You are a world class researcher with access to web search. Do not do any math."
)

# Create supervisor workflow
workflow = create_supervisor(
    [research_agent, joke_agent],
    model=model,
    prompt=(
        "You are a team supervisor managing a research expert and a joke expert. "
        "For current events, use research_agent. "
        "For any jokes, use joke_agent."
    )
)

# Compile and run
app = workflow.compile()
