# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/pii.py, the
#   PIIMiddleware docstring's example (three agents, the module keeping the last), as released
#   in langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the model "openai:gpt-5.5" replaced by a scripted model in each agent (it answers).
from _offline import ScriptedChatModel
from langchain.agents.middleware import PIIMiddleware
from langchain.agents import create_agent

# Redact all emails in user input
agent = create_agent(
    ScriptedChatModel(responses=["Noted."]),
    middleware=[
        PIIMiddleware("email", strategy="redact"),
    ],
)

# Use different strategies for different PII types
agent = create_agent(
    ScriptedChatModel(responses=["Noted."]),
    middleware=[
        PIIMiddleware("credit_card", strategy="mask"),
        PIIMiddleware("url", strategy="redact"),
        PIIMiddleware("ip", strategy="hash"),
    ],
)

# Custom PII type with regex
agent = create_agent(
    ScriptedChatModel(responses=["Noted."]),
    middleware=[
        PIIMiddleware("api_key", detector=r"sk-[a-zA-Z0-9]{32}", strategy="block"),
    ],
)
