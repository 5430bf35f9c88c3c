# Source: CZZGH/LangChainDoc, DynamicModel.py at commit b543bf8cf06a6ec3ecda9400f6e8684edf33c074
#   (https://github.com/CZZGH/LangChainDoc/blob/b543bf8cf06a6ec3ecda9400f6e8684edf33c074/DynamicModel.py),
#   a learner's dynamic model selection: a @wrap_model_call middleware swapping the request's
#   model (request.override(model=...)) by the number of messages.
# License: none found (no license file among the repository's indexed files).
# Adapted: `from my_llm import create_llm` (the author's OpenAI-compatible models) replaced by
#   two scripted models, each answering with its own name, so the run shows which one the
#   middleware picked; the __main__ demo and the recorded output after it dropped (the manifest
#   makes the same two calls).
'''
To use a dynamic model, create middleware using the @wrap_model_call 
decorator that modifies the model in the request:
'''
from langchain.agents import create_agent
from langchain.agents.middleware import wrap_model_call,ModelRequest, ModelResponse
from _offline import ScriptedChatModel

basic_model = ScriptedChatModel(responses=["deepseek-v3.2: Why don't scientists trust atoms? Because they make up everything!"])
advanced_model = ScriptedChatModel(responses=["deepseek-r1-0528: Which location do you mean?"])

@wrap_model_call
def dynamic_model_selection(request: ModelRequest, handler) -> ModelResponse:
    """Choose model based on conversation complexity."""
    message_count = len(request.state["messages"])
    print(f"Message count: {message_count}")
    if message_count > 1:
        # Use an advanced model for longer conversations
        model = advanced_model
    else:
        model = basic_model

    return handler(request.override(model=model))

agent = create_agent(
    model=basic_model,  # Default model
    tools=[],
    middleware=[dynamic_model_selection]
)
