"""The corpus's offline chat model: the real programs' LLM calls replaced by scripted replies.

It answers with responses[n], n being how many AI messages the conversation already holds
(cycling), the same rule as the model the langgraph export writes, so a program and its round
trip get the same replies. Binding tools changes nothing: the script already says which to call.
"""

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel


class ScriptedModel(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.i = sum(1 for m in messages if m.type == "ai") % len(self.responses)
        return super()._generate(messages, stop, run_manager, **kwargs)
