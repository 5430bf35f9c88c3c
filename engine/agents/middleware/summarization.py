"""SummarizationMiddleware: when the conversation grows past a trigger, replace older messages by
a model-written summary and keep the recent ones (never splitting an AI message from its tool results).

Mirrors the core of `langchain.agents.middleware.summarization`: trigger by ("messages", n),
("tokens", n) or ("fraction", f) of the model's max input tokens (a tuple, a dict clause whose
conditions must all hold, or a list of them: any clause), keep ("messages", n) / ("tokens", n) /
("fraction", f); the summary arrives as a HumanMessage after removing all messages. Not reproduced:
provider-reported token counts, the context-overflow retry, deprecated keyword arguments; the
default prompt is our own wording.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.messages.utils import (
    count_tokens_approximately,
    get_buffer_string,
    trim_messages,
)
from typing_extensions import TypedDict

from engine._constants import TAG_NOSTREAM
from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.types import AgentMiddleware
from engine.graph.message import REMOVE_ALL_MESSAGES

ContextSize = tuple[str, float]
_MESSAGES_TO_KEEP = 20
_TRIM_TOKEN_LIMIT = 4000
_FALLBACK_MESSAGE_COUNT = 15
_KINDS = ("messages", "tokens", "fraction")
# summary calls are not streamed in stream_mode="messages"
_SUMMARY_CONFIG = {"metadata": {"lc_source": "summarization"}, "tags": [TAG_NOSTREAM]}

DEFAULT_SUMMARY_PROMPT = """You condense conversations so work can continue with less context.

Write a summary of the conversation below that keeps what is needed to carry on: the user's goals
and constraints, decisions made, facts and results obtained (tool outputs included), open questions
and the next steps. Be concise and factual; do not add anything that is not in the conversation.

<messages>
{messages}
</messages>

Reply with the summary only."""


class TriggerClause(TypedDict, total=False):
    messages: int
    tokens: int
    fraction: float


def _validated(size: Any, parameter: str) -> ContextSize:
    kind, value = size
    if kind not in _KINDS:
        raise ValueError(f"Unsupported context size type {kind} for {parameter}.")
    if kind == "fraction" and not 0 < value <= 1:
        raise ValueError(f"Fractional {parameter} values must be between 0 and 1, got {value}.")
    if kind != "fraction" and value <= 0:
        raise ValueError(f"{parameter} thresholds must be greater than 0, got {value}.")
    return kind, value


class SummarizationMiddleware(AgentMiddleware):
    """Summarizes older messages before a model call once a trigger is met."""

    def __init__(
        self,
        model: Any,
        *,
        trigger: Any = None,
        keep: ContextSize = ("messages", _MESSAGES_TO_KEEP),
        token_counter: Callable[[list[AnyMessage]], int] = count_tokens_approximately,
        summary_prompt: str = DEFAULT_SUMMARY_PROMPT,
        trim_tokens_to_summarize: int | None = _TRIM_TOKEN_LIMIT,
        summarizer: Any = None,
    ) -> None:
        super().__init__()
        self.model = init_chat_model(model) if isinstance(model, str) else model
        self.trigger = trigger
        self._trigger_clauses = self._clauses(trigger)
        self.keep = _validated(keep, "keep")
        self.token_counter = token_counter
        self.summary_prompt = summary_prompt
        self.trim_tokens_to_summarize = trim_tokens_to_summarize
        self.summarizer = summarizer
        if self.keep[0] == "fraction" and self._max_input_tokens() is None:
            raise ValueError(
                "Model profile information is required to use fractional token limits, and is "
                "unavailable for the specified model."
            )

    @staticmethod
    def _clauses(trigger: Any) -> list[dict[str, float]]:
        if trigger is None:
            return []
        items = trigger if isinstance(trigger, list) else [trigger]
        clauses = []
        for item in items:
            if isinstance(item, Mapping):
                clauses.append({k: _validated((k, v), "trigger")[1] for k, v in item.items()})
            else:
                kind, value = _validated(item, "trigger")
                clauses.append({kind: value})
        return clauses

    def _max_input_tokens(self) -> int | None:
        profile = getattr(self.model, "profile", None)
        value = profile.get("max_input_tokens") if isinstance(profile, Mapping) else None
        return value if isinstance(value, int) else None

    def _threshold(self, kind: str, value: float) -> int | None:
        if kind != "fraction":
            return int(value)
        limit = self._max_input_tokens()
        return None if limit is None else max(1, int(limit * value))

    def _should_summarize(self, messages: list[AnyMessage], tokens: int) -> bool:
        for clause in self._trigger_clauses:
            met = True
            for kind, value in clause.items():
                if kind == "messages":
                    met = len(messages) >= value
                else:
                    threshold = self._threshold(kind, value)
                    met = threshold is not None and tokens >= threshold
                if not met:
                    break
            if met:
                return True
        return False

    # ------------------------------------------------------------------ where to cut
    @staticmethod
    def _safe_cutoff(messages: list[AnyMessage], cutoff: int) -> int:
        """Move a cut that would orphan tool results back to their AI message (or past them)."""
        if cutoff >= len(messages) or not isinstance(messages[cutoff], ToolMessage):
            return cutoff
        ids: set[str] = set()
        end = cutoff
        while end < len(messages) and isinstance(messages[end], ToolMessage):
            ids.add(messages[end].tool_call_id)
            end += 1
        for i in range(cutoff - 1, -1, -1):
            m = messages[i]
            if isinstance(m, AIMessage) and ids & {
                c.get("id") for c in m.tool_calls if c.get("id")
            }:
                return i
        return end

    def _keep_messages(self, messages: list[AnyMessage], count: int) -> int:
        return 0 if len(messages) <= count else self._safe_cutoff(messages, len(messages) - count)

    def _cutoff(self, messages: list[AnyMessage]) -> int:
        kind, value = self.keep
        if kind == "messages":
            return self._keep_messages(messages, int(value))
        budget = self._threshold(kind, value)
        if budget is None:
            return self._keep_messages(messages, _MESSAGES_TO_KEEP)
        if self.token_counter(messages) <= budget:
            return 0
        start = len(messages)
        while start > 0 and self.token_counter(messages[start - 1 :]) <= budget:
            start -= 1
        return self._safe_cutoff(messages, start)

    # ------------------------------------------------------------------ the summary
    def _trimmed(self, messages: list[AnyMessage]) -> list[AnyMessage]:
        if self.trim_tokens_to_summarize is None:
            return messages
        try:
            return trim_messages(
                messages,
                max_tokens=self.trim_tokens_to_summarize,
                token_counter=self.token_counter,
                start_on="human",
                strategy="last",
                allow_partial=True,
                include_system=True,
            )
        except Exception:
            return messages[-_FALLBACK_MESSAGE_COUNT:]

    def _summary_input(self, messages: list[AnyMessage]) -> tuple[Any, str | None]:
        """(what to send, or None with the fixed summary to use instead)."""
        if not messages:
            return None, "No previous conversation history."
        trimmed = self._trimmed(messages)
        if not trimmed:
            return None, "Previous conversation was too long to summarize."
        if self.summarizer is not None:
            return trimmed, None
        return self.summary_prompt.format(messages=get_buffer_string(trimmed)).rstrip(), None

    @staticmethod
    def _text(response: Any) -> str:
        if isinstance(response, str):
            return response.strip()
        if self_text := getattr(response, "text", None):
            return self_text.strip()
        raise TypeError(f"`summarizer` must return a str, got {type(response).__name__}.")

    def _plan(self, state: Any) -> tuple[list[AnyMessage], list[AnyMessage]] | None:
        messages = state["messages"]
        for m in messages:
            if m.id is None:
                m.id = str(uuid.uuid4())
        if not self._should_summarize(messages, self.token_counter(messages)):
            return None
        cutoff = self._cutoff(messages)
        return (messages[:cutoff], messages[cutoff:]) if cutoff > 0 else None

    @staticmethod
    def _update(summary: str, preserved: list[AnyMessage]) -> dict[str, Any]:
        note = HumanMessage(
            content=f"Here is a summary of the conversation to date:\n\n{summary}",
            additional_kwargs={"lc_source": "summarization"},
        )
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), note, *preserved]}

    def _runner(self) -> Any:
        return self.summarizer if self.summarizer is not None else self.model

    def _prepare(self, state: Any) -> tuple[Any, str | None, list[AnyMessage]] | None:
        """None when nothing is summarized, else (summarizer input, fixed summary, kept messages)."""
        plan = self._plan(state)
        if plan is None:
            return None
        old, preserved = plan
        payload, fixed = self._summary_input(old)
        return payload, fixed, preserved

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (prepared := self._prepare(state)) is None:
            return None
        payload, fixed, preserved = prepared
        summary = fixed or self._text(self._runner().invoke(payload, config=_SUMMARY_CONFIG))
        return self._update(summary, preserved)

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (prepared := self._prepare(state)) is None:
            return None
        payload, fixed, preserved = prepared
        summary = fixed or self._text(await self._runner().ainvoke(payload, config=_SUMMARY_CONFIG))
        return self._update(summary, preserved)


__all__ = ["SummarizationMiddleware", "TriggerClause"]
