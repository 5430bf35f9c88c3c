# Source: Userwzc/langchain_learning, core_components/Agents/AdvancedConcepts/tool_strategy.py at
#   commit 9baa0df813fd82bdf6fe2bb925a3984377cebe84
#   (https://github.com/Userwzc/langchain_learning/blob/9baa0df813fd82bdf6fe2bb925a3984377cebe84/core_components/Agents/AdvancedConcepts/tool_strategy.py),
#   a learner's structured output on create_agent: response_format=ToolStrategy(ContactInfo), a
#   pydantic model the agent answers through an artificial tool call (structured_response).
# License: none found (no license file among the repository's indexed files).
# Adapted: the model string "deepseek-chat" replaced by a scripted model (it calls the
#   ContactInfo tool with the contact); the demo invoke and the print of its structured_response
#   dropped (the manifest makes the call).
# ToolStrategy 使用人工工具调用来生成结构化输出。这适用于任何支持工具调用的模型：
from pydantic import BaseModel
from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from dotenv import load_dotenv
import os

from _offline import ScriptedChatModel, calls

load_dotenv()
os.getenv("DeepSeek_API_KEY")

class ContactInfo(BaseModel):
    name: str
    email: str
    phone: str

agent = create_agent(
    model = ScriptedChatModel(responses=[
        calls(("ContactInfo", {"name": "John Doe", "email": "john@example.com", "phone": "(555) 123-4567"}))
    ]),
    tools = [],
    response_format=ToolStrategy(ContactInfo)
)
