"""The offline chat model of `scripted` model settings, as the exported module writes it."""

from __future__ import annotations

from graphspec.compiler import scripted_tool_calls
from graphspec.export.python_module import PythonModule
from graphspec.model import ModelSettings
from graphspec.pysource import literal

SCRIPTED_MODEL_SOURCE = '''
class ScriptedModel(FakeMessagesListChatModel):
    """Replies with responses[n], n being the number of AI messages already in the conversation
    (cycling): a run resumed in another process picks up where it stopped. Binding tools changes
    nothing."""

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.i = sum(1 for m in messages if m.type == "ai") % len(self.responses)
        return super()._generate(messages, stop, run_manager, **kwargs)
'''
"""The offline chat model of `scripted` settings, written into the module: it runs on langchain
alone, where the compiler's ScriptedChatModel (engine.agents) is not available."""


def scripted_model(module: PythonModule, settings: ModelSettings) -> str:
    """The expression that builds the scripted model of `settings`; the class goes into `module`
    once, first, so every graph of the module can use it."""
    module.need(
        "from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel"
    )
    module.need("from langchain_core.messages import AIMessage")
    block = SCRIPTED_MODEL_SOURCE.strip() + "\n"
    if block not in module.blocks:
        module.blocks.insert(0, block)
    calls = scripted_tool_calls(settings)
    responses = [
        f"AIMessage(content={r.content!r}, tool_calls={literal(calls[i])})"
        for i, r in enumerate(settings.responses)
    ] or ["AIMessage(content='')"]
    return f"ScriptedModel(responses=[{', '.join(responses)}])"


__all__ = ["SCRIPTED_MODEL_SOURCE", "scripted_model"]
