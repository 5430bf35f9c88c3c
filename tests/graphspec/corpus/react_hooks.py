# Follows: LangGraph docs, "Agents" — a prebuilt ReAct agent with a pre-model hook (trims what the
# model sees), a post-model hook, its own state and context schemas and structured output
# (https://langchain-ai.github.io/langgraph/agents/agents, "Manage message history",
# "Structured output").
import warnings
from dataclasses import dataclass

from _scripted import ScriptedModel
from langchain_core.messages import AIMessage
from langgraph.prebuilt import create_react_agent
from langgraph.prebuilt.chat_agent_executor import AgentState
from pydantic import BaseModel


class Forecast(BaseModel):
    city: str
    sky: str


@dataclass
class Traveller:
    name: str = "guest"


class TripState(AgentState):
    trimmed: int
    structured_response: Forecast


def keep_last_three(state: TripState) -> dict:
    messages = state["messages"]
    return {"llm_input_messages": messages[-3:], "trimmed": max(len(messages) - 3, 0)}


def count_replies(state: TripState) -> dict:
    return {"trimmed": state.get("trimmed", 0) + 100}


def sky_over(city: str) -> str:
    """Say what the sky over a city looks like."""
    return f"Clear skies over {city}."


model = ScriptedModel(
    responses=[
        AIMessage(
            content="",
            tool_calls=[{"name": "sky_over", "args": {"city": "Lima"}, "id": "call_lima"}],
        ),
        AIMessage(content="Clear over Lima."),
        AIMessage(content='{"city": "Lima", "sky": "clear"}'),
    ]
)

with warnings.catch_warnings():  # create_react_agent is deprecated in favour of create_agent
    warnings.simplefilter("ignore")
    agent = create_react_agent(
        model,
        [sky_over],
        prompt="You are a helpful assistant",
        pre_model_hook=keep_last_three,
        post_model_hook=count_replies,
        state_schema=TripState,
        context_schema=Traveller,
        response_format=Forecast,
    )

INPUT = {"messages": [{"role": "user", "content": "how is the sky in Lima?"}], "trimmed": 0}
