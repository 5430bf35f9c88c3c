# Source: fancier21/ai-langchain, src/main.py at commit 324bc7f33af2d78713cc9f004c859ccc7ccba45c
#   (https://github.com/fancier21/ai-langchain/blob/324bc7f33af2d78713cc9f004c859ccc7ccba45c/src/main.py),
#   a small app's create_agent across its own packages: two @wrap_tool_call middleware, a
#   dataclass context read by a tool through ToolRuntime, ToolStrategy(ResponseFormat), a saver.
# License: none found (no license file among the repository's indexed files).
# Adapted: init_chat_model("gpt-4o-mini", ...) replaced by a scripted model (it finds the
#   user's location, its weather, answers as ResponseFormat, then answers the thanks as the
#   author's recorded answers read); the demo invoke and its print dropped, and the second
#   turn left commented out as the author had it (the manifest makes both calls).
from dotenv import load_dotenv
from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from _offline import ScriptedChatModel, calls
from langgraph.checkpoint.memory import InMemorySaver

from middleware.error_handling import handle_tool_errors
from middleware.monitoring import monitor_tool
from model.context import Context
from model.response import ResponseFormat
from prompt.system_prompts import SYSTEM_PROMPT
from tool.location import get_user_location
from tool.weather import get_weather_for_location

load_dotenv()


# Configure model
model = ScriptedChatModel(
    responses=[
        calls(("get_user_location", {})),
        calls(("get_weather_for_location", {"city": "Florida"})),
        calls(("ResponseFormat", {
            "punny_response": "Florida is still having a 'sun-derful' day!",
            "weather_conditions": "It's always sunny in Florida!",
        })),
        calls(("ResponseFormat", {
            "punny_response": "You're 'thund-erfully' welcome!",
            "weather_conditions": None,
        })),
    ]
)


# Set up memory
checkpointer = InMemorySaver()

# Create agent
agent = create_agent(
    model=model,
    system_prompt=SYSTEM_PROMPT,
    tools=[get_user_location, get_weather_for_location],
    middleware=[monitor_tool, handle_tool_errors],
    context_schema=Context,
    response_format=ToolStrategy(ResponseFormat),
    checkpointer=checkpointer,
)

# Run agent
# `thread_id` is a unique identifier for a given conversation.
# ResponseFormat(
#     punny_response="Florida is still having a 'sun-derful' day! The sunshine is playing 'ray-dio' hits all day long! I'd say it's the perfect weather for some 'solar-bration'! If you were hoping for rain, I'm afraid that idea is all 'washed up' - the forecast remains 'clear-ly' brilliant!",
#     weather_conditions="It's always sunny in Florida!"
# )


# Note that we can continue the conversation using the same `thread_id`.
# response = agent.invoke(
#     {"messages": [{"role": "user", "content": "thank you!"}]},
#     config=config,
#     context=Context(user_id="1"),
# )

# print(response["structured_response"])
# ResponseFormat(
#     punny_response="You're 'thund-erfully' welcome! It's always a 'breeze' to help you stay 'current' with the weather. I'm just 'cloud'-ing around waiting to 'shower' you with more forecasts whenever you need them. Have a 'sun-sational' day in the Florida sunshine!",
#     weather_conditions=None
# )


def main():
    print("Hello from ai-langchain!")


if __name__ == "__main__":
    main()
