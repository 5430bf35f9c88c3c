# Source: langchain-ai/langchain, libs/langchain_v1/langchain/agents/middleware/types.py, the
#   wrap_model_call docstring's examples (retry, fallback, rewrite, simple AIMessage), as
#   released in langchain 1.5.2 (https://pypi.org/project/langchain/1.5.2/).
# License: MIT, (c) LangChain, Inc.
# Adapted: the imports the fragments take for granted added; `model` is a scripted model (it
#   answers); the agent line, which the docstring leaves out, is create_agent(model,
#   middleware=[...]) as the dynamic_prompt docstring writes it, with the retry and rewrite
#   middleware.
from _offline import ScriptedChatModel
from langchain.agents import create_agent
from langchain.agents.middleware import ModelResponse, wrap_model_call
from langchain_core.messages import AIMessage

model = ScriptedChatModel(responses=["the answer is 42"])


@wrap_model_call
def retry_on_error(request, handler):
    max_retries = 3
    for attempt in range(max_retries):
        try:
            return handler(request)
        except Exception:
            if attempt == max_retries - 1:
                raise


@wrap_model_call
def fallback_model(request, handler):
    # Try primary model
    try:
        return handler(request)
    except Exception:
        pass

    # Try fallback model
    request = request.override(model=fallback_model_instance)
    return handler(request)


@wrap_model_call
def uppercase_responses(request, handler):
    response = handler(request)
    ai_msg = response.result[0]
    return ModelResponse(
        result=[AIMessage(content=ai_msg.content.upper())],
        structured_response=response.structured_response,
    )


@wrap_model_call
def simple_response(request, handler):
    # AIMessage is automatically converted to ModelResponse
    return AIMessage(content="Simple response")


agent = create_agent(model, middleware=[retry_on_error, uppercase_responses])
