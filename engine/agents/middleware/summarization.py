"""SummarizationMiddleware: when the conversation grows past a trigger, replace older messages by
a model-written summary and keep the recent ones (never splitting an AI message from its tool results).

Mirrors `langchain.agents.middleware.summarization`, down to the private steps other packages
call (deepagents drives them one by one): trigger by ("messages", n), ("tokens", n) or
("fraction", f) of the model's max input tokens, where a token trigger also fires on the token
count the provider reported for the last AI message; a dict clause's conditions must all hold, a
list of clauses needs any. Keep ("messages", n) / ("tokens", n) / ("fraction", f); the summary
arrives as a HumanMessage after removing all messages. The summary call is retried (three
attempts) and, on a context overflow, tried once more with the middle of the history cut out.
The default prompt is our own wording.
"""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Callable, Coroutine, Iterable, Mapping
from functools import partial
from typing import Any

from langchain_core.exceptions import ContextOverflowError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.messages.utils import (
    MessageLikeRepresentation,
    count_tokens_approximately,
    get_buffer_string,
    trim_messages,
)
from langchain_core.runnables import Runnable
from langchain_core.runnables.base import coerce_to_runnable
from typing_extensions import TypedDict

from engine._constants import TAG_NOSTREAM
from engine.agents.chat_models import init_chat_model
from engine.agents.middleware._retry import default_retry_on
from engine.agents.middleware.internal_call_transformer import internal_call_metadata
from engine.agents.middleware.types import AgentMiddleware
from engine.graph.message import REMOVE_ALL_MESSAGES

ContextSize = tuple[str, float]
TokenCounter = Callable[[Iterable[MessageLikeRepresentation]], int]
Summarizer = (
    str
    | BaseChatModel
    | Runnable[list[AnyMessage], str]
    | Callable[[list[AnyMessage]], str]
    | Callable[[list[AnyMessage]], Coroutine[Any, Any, str]]
)
"""A chat model prompted with the summary prompt, or anything taking the messages to summarize
and returning the summary text."""

_DEFAULT_MESSAGES_TO_KEEP = 20
_DEFAULT_TRIM_TOKEN_LIMIT = 4000
_DEFAULT_FALLBACK_MESSAGE_COUNT = 15
_KINDS = ("messages", "tokens", "fraction")
# a message's model_provider that is another name for the model's ls_provider
_PROVIDER_ALIASES = {
    "amazon_bedrock": frozenset({"bedrock", "bedrock_converse"}),
    "openai-mantle": frozenset({"openai"}),
    "anthropic-mantle": frozenset({"anthropic"}),
}

DEFAULT_SUMMARY_PROMPT = """You condense conversations so work can continue with less context.

Write a summary of the conversation below that keeps what is needed to carry on: the user's goals
and constraints, decisions made, facts and results obtained (tool outputs included), open questions
and the next steps. Be concise and factual; do not add anything that is not in the conversation.

<messages>
{messages}
</messages>

Reply with the summary only."""
"""Packages splice text in before the `\\n<messages>\\n` marker, so it stays."""


def _summary_config() -> dict[str, Any]:
    # summary calls are not streamed in stream_mode="messages"
    return {
        "metadata": {"lc_source": "summarization", **internal_call_metadata()},
        "tags": [TAG_NOSTREAM],
    }


def _check_summary(summary: object) -> str:
    if not isinstance(summary, str):
        raise TypeError(f"`summarizer` must return a str, got {type(summary).__name__}.")
    return summary.strip()


def _approximate_counter(model: Any) -> TokenCounter:
    """count_tokens_approximately scaled by reported usage; Anthropic models count 3.3 chars a token."""
    llm_type = getattr(model, "_llm_type", "")
    if isinstance(llm_type, str) and llm_type.startswith("anthropic-chat"):
        return partial(
            count_tokens_approximately, use_usage_metadata_scaling=True, chars_per_token=3.3
        )
    return partial(count_tokens_approximately, use_usage_metadata_scaling=True)


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
    return size


def _clause(mapping: Mapping[str, Any]) -> dict[str, float]:
    if not mapping:
        raise ValueError(
            "trigger clause must specify at least one of 'tokens', 'messages', 'fraction'"
        )
    out: dict[str, float] = {}
    for kind, value in mapping.items():
        if kind not in _KINDS:
            raise ValueError(f"Unsupported trigger metric: {kind!r}")
        if isinstance(value, bool):  # not a threshold of 1
            raise ValueError(f"{kind} trigger value must be numeric, got {value!r}")
        if kind == "fraction" and not isinstance(value, int | float):
            raise ValueError(f"Fraction trigger values must be numeric, got {value!r}")
        if kind != "fraction" and not isinstance(value, int):
            raise ValueError(f"{kind} trigger values must be integers, got {value!r}")
        _validated((kind, value), "trigger")
        out[kind] = value
    return out


def _trigger_clauses(trigger: Any) -> list[dict[str, float]]:
    """AND within a clause, OR across clauses."""
    if trigger is None:
        return []
    if isinstance(trigger, Mapping):
        return [_clause(trigger)]
    if isinstance(trigger, tuple):
        kind, value = _validated(trigger, "trigger")
        return [{kind: value}]
    if not isinstance(trigger, list):
        raise TypeError(f"Unsupported trigger type: {type(trigger)}")
    clauses = []
    for item in trigger:
        if isinstance(item, Mapping):
            clauses.append(_clause(item))
        elif isinstance(item, tuple):
            kind, value = _validated(item, "trigger")
            clauses.append({kind: value})
        else:
            raise TypeError(f"Unsupported trigger item type: {type(item)}")
    return clauses


def _copy_trigger(trigger: Any) -> Any:
    """The caller's dicts and lists copied, so changing them later changes nothing here."""
    if isinstance(trigger, Mapping):
        return dict(trigger)
    if isinstance(trigger, list):
        return [dict(t) if isinstance(t, Mapping) else t for t in trigger]
    return trigger


def _legacy_settings(trigger: Any, keep: ContextSize, legacy: dict[str, Any]) -> tuple[Any, Any]:
    """The settings' names before trigger/keep, still accepted with a DeprecationWarning, as
    langchain does: they apply where trigger and keep were not given; other names are ignored."""
    if "max_tokens_before_summary" in legacy:
        value = legacy["max_tokens_before_summary"]
        warnings.warn(
            "max_tokens_before_summary is deprecated. Use trigger=('tokens', value) instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        if trigger is None and value is not None:
            trigger = ("tokens", value)
    if "messages_to_keep" in legacy:
        value = legacy["messages_to_keep"]
        warnings.warn(
            "messages_to_keep is deprecated. Use keep=('messages', value) instead.",
            DeprecationWarning,
            stacklevel=3,
        )
        if keep == ("messages", _DEFAULT_MESSAGES_TO_KEEP):
            keep = ("messages", value)
    return trigger, keep


class SummarizationMiddleware(AgentMiddleware):
    """Summarizes older messages before a model call once a trigger is met."""

    def __init__(
        self,
        model: Any,
        *,
        trigger: Any = None,
        keep: ContextSize = ("messages", _DEFAULT_MESSAGES_TO_KEEP),
        token_counter: TokenCounter = count_tokens_approximately,
        summary_prompt: str = DEFAULT_SUMMARY_PROMPT,
        trim_tokens_to_summarize: int | None = _DEFAULT_TRIM_TOKEN_LIMIT,
        summarizer: Summarizer | None = None,
        **deprecated_kwargs: Any,
    ) -> None:
        trigger, keep = _legacy_settings(trigger, keep, deprecated_kwargs)
        super().__init__()
        self.model = init_chat_model(model) if isinstance(model, str) else model
        self.trigger = _copy_trigger(trigger)
        self._trigger_clauses = _trigger_clauses(self.trigger)
        self.keep = _validated(keep, "keep")
        if token_counter is count_tokens_approximately:
            self.token_counter = _approximate_counter(self.model)
            # a suffix of the conversation: the reported usage of the whole does not apply
            self._partial_token_counter = partial(
                self.token_counter, use_usage_metadata_scaling=False
            )
        else:
            self.token_counter = token_counter
            self._partial_token_counter = token_counter
        self.summary_prompt = summary_prompt
        self.trim_tokens_to_summarize = trim_tokens_to_summarize
        if isinstance(summarizer, str):
            summarizer = init_chat_model(summarizer)
        self._summary_chat_model = self.model
        self.summarizer: Runnable | None = None
        if isinstance(summarizer, BaseChatModel):
            self._summary_chat_model = summarizer
        elif summarizer is not None:
            self.summarizer = coerce_to_runnable(summarizer)
        self._summary_model = self._summary_chat_model.with_retry(
            retry_if_exception_type=default_retry_on
        )
        needs_profile = self.keep[0] == "fraction" or any(
            "fraction" in clause for clause in self._trigger_clauses
        )
        if needs_profile and self._get_profile_limits() is None:
            raise ValueError(
                "Model profile information is required to use fractional token limits, and is "
                "unavailable for the specified model. Please use absolute token counts instead, "
                'or pass `\n\nChatModel(..., profile={"max_input_tokens": ...})`.\n\nwith a '
                "desired integer value of the model's maximum input tokens."
            )

    # ------------------------------------------------------------------ when to summarize
    def _get_profile_limits(self, model: Any = None) -> int | None:
        profile = getattr(model or self.model, "profile", None)
        value = profile.get("max_input_tokens") if isinstance(profile, Mapping) else None
        return value if isinstance(value, int) else None

    def _should_summarize_based_on_reported_tokens(
        self, messages: list[AnyMessage], threshold: float
    ) -> bool:
        """The last AI message's reported total, when its provider is the model's own."""
        last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
        if last is None or last.usage_metadata is None:
            return False
        reported = last.usage_metadata.get("total_tokens", -1)
        provider = last.response_metadata.get("model_provider")
        if not reported or reported < threshold or not provider:
            return False
        ls_provider = self.model._get_ls_params().get("ls_provider")
        return ls_provider is not None and (
            provider == ls_provider or provider in _PROVIDER_ALIASES.get(ls_provider, ())
        )

    def _token_threshold(self, kind: str, value: float) -> int | None:
        if kind == "tokens":
            return int(value)
        limit = self._get_profile_limits()
        return None if limit is None else max(1, int(limit * value))

    def _should_summarize(self, messages: list[AnyMessage], total_tokens: int) -> bool:
        for clause in self._trigger_clauses:
            if all(self._clause_met(messages, total_tokens, k, v) for k, v in clause.items()):
                return True
        return False

    def _clause_met(self, messages: list, total_tokens: int, kind: str, value: float) -> bool:
        if kind == "messages":
            return len(messages) >= value
        threshold = self._token_threshold(kind, value)
        if threshold is None:
            return False
        return total_tokens >= threshold or self._should_summarize_based_on_reported_tokens(
            messages, float(threshold)
        )

    # ------------------------------------------------------------------ where to cut
    def _determine_cutoff_index(self, messages: list[AnyMessage]) -> int:
        kind, value = self.keep
        if kind == "messages":
            return self._find_safe_cutoff(messages, int(value))
        cutoff = self._find_token_based_cutoff(messages)
        return cutoff if cutoff is not None else self._find_safe_cutoff(messages, 20)

    def _find_token_based_cutoff(self, messages: list[AnyMessage]) -> int | None:
        """The earliest index whose suffix fits the kept tokens (a binary search)."""
        if not messages:
            return 0
        budget = self._token_threshold(*self.keep)
        if budget is None:
            return None
        budget = max(budget, 1)
        if self.token_counter(messages) <= budget:
            return 0
        low, high, found = 0, len(messages), len(messages)
        while low < high:
            mid = (low + high) // 2
            if self._partial_token_counter(messages[mid:]) <= budget:
                found = high = mid
            else:
                low = mid + 1
        if found == len(messages):
            found = low
        if found >= len(messages):
            if len(messages) == 1:
                return 0
            found = len(messages) - 1
        return self._find_safe_cutoff_point(messages, found)

    def _find_safe_cutoff(self, messages: list[AnyMessage], messages_to_keep: int) -> int:
        if len(messages) <= messages_to_keep:
            return 0
        return self._find_safe_cutoff_point(messages, len(messages) - messages_to_keep)

    @staticmethod
    def _find_safe_cutoff_point(messages: list[AnyMessage], cutoff_index: int) -> int:
        """A cut that would orphan tool results moves back to their AI message (or past them)."""
        if cutoff_index >= len(messages) or not isinstance(messages[cutoff_index], ToolMessage):
            return cutoff_index
        ids: set[str] = set()
        end = cutoff_index
        while end < len(messages) and isinstance(messages[end], ToolMessage):
            if messages[end].tool_call_id:
                ids.add(messages[end].tool_call_id)
            end += 1
        for i in range(cutoff_index - 1, -1, -1):
            m = messages[i]
            if isinstance(m, AIMessage) and ids & {
                c.get("id") for c in m.tool_calls if c.get("id")
            }:
                return i
        return end

    @staticmethod
    def _partition_messages(
        conversation_messages: list[AnyMessage], cutoff_index: int
    ) -> tuple[list[AnyMessage], list[AnyMessage]]:
        return conversation_messages[:cutoff_index], conversation_messages[cutoff_index:]

    @staticmethod
    def _ensure_message_ids(messages: list[AnyMessage]) -> None:
        for m in messages:
            if m.id is None:
                m.id = str(uuid.uuid4())

    # ------------------------------------------------------------------ the summary
    def _trim_messages_for_summary(self, messages: list[AnyMessage]) -> list[AnyMessage]:
        try:
            if self.trim_tokens_to_summarize is None:
                return messages
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
            return messages[-_DEFAULT_FALLBACK_MESSAGE_COUNT:]

    def _format_summary_prompt(self, messages: list[AnyMessage]) -> str:
        # XML keeps URL media blocks visible and message metadata out of the budget
        return self.summary_prompt.format(
            messages=get_buffer_string(messages, format="xml")
        ).rstrip()

    def _overflow_retry_prompt(self, messages: list[AnyMessage]) -> str | None:
        """The prompt with the history's middle cut: its first quarter and recent rest kept,
        within half its tokens and 40% of the summary model's max input tokens."""
        history = get_buffer_string(messages, format="xml")
        tokens = self._partial_token_counter([HumanMessage(content=history)])
        budget = tokens // 2
        if (limit := self._get_profile_limits(self._summary_chat_model)) is not None:
            budget = min(budget, limit * 2 // 5)
        keep_chars = len(history) * budget // max(tokens, 1)
        if keep_chars <= 0:
            return None
        head = keep_chars // 4
        cut = (
            f"{history[:head]}\n\n[... middle of conversation omitted ...]\n\n"
            f"{history[-(keep_chars - head) :]}"
        )
        return self.summary_prompt.format(messages=cut).rstrip()

    def _summary_request(self, messages: list[AnyMessage]) -> tuple[list | None, str | None]:
        """(the trimmed messages to summarize, or None with the fixed text to use instead)."""
        if not messages:
            return None, "No previous conversation history."
        trimmed = self._trim_messages_for_summary(messages)
        if not trimmed:
            return None, "Previous conversation was too long to summarize."
        return trimmed, None

    def _create_summary(self, messages_to_summarize: list[AnyMessage]) -> str:
        trimmed, fixed = self._summary_request(messages_to_summarize)
        if trimmed is None:
            return fixed  # type: ignore[return-value]
        if self.summarizer is not None:
            return _check_summary(self.summarizer.invoke(trimmed, config=_summary_config()))
        try:
            response = self._summary_model.invoke(
                self._format_summary_prompt(trimmed), config=_summary_config()
            )
        except ContextOverflowError:
            if (retry := self._overflow_retry_prompt(trimmed)) is None:
                raise
            response = self._summary_model.invoke(retry, config=_summary_config())
        return response.text.strip()

    async def _acreate_summary(self, messages_to_summarize: list[AnyMessage]) -> str:
        trimmed, fixed = self._summary_request(messages_to_summarize)
        if trimmed is None:
            return fixed  # type: ignore[return-value]
        if self.summarizer is not None:
            summary = await self.summarizer.ainvoke(trimmed, config=_summary_config())
            return _check_summary(summary)
        try:
            response = await self._summary_model.ainvoke(
                self._format_summary_prompt(trimmed), config=_summary_config()
            )
        except ContextOverflowError:
            if (retry := self._overflow_retry_prompt(trimmed)) is None:
                raise
            response = await self._summary_model.ainvoke(retry, config=_summary_config())
        return response.text.strip()

    @staticmethod
    def _build_new_messages(summary: str) -> list[HumanMessage]:
        return [
            HumanMessage(
                content=f"Here is a summary of the conversation to date:\n\n{summary}",
                additional_kwargs={"lc_source": "summarization"},
            )
        ]

    # ------------------------------------------------------------------ the hook
    def _plan(self, state: Any) -> tuple[list[AnyMessage], list[AnyMessage]] | None:
        messages = state["messages"]
        self._ensure_message_ids(messages)
        if not self._should_summarize(messages, self.token_counter(messages)):
            return None
        cutoff = self._determine_cutoff_index(messages)
        return self._partition_messages(messages, cutoff) if cutoff > 0 else None

    def _update(self, summary: str, preserved: list[AnyMessage]) -> dict[str, Any]:
        new = self._build_new_messages(summary)
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *new, *preserved]}

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (plan := self._plan(state)) is None:
            return None
        old, preserved = plan
        return self._update(self._create_summary(old), preserved)

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (plan := self._plan(state)) is None:
            return None
        old, preserved = plan
        return self._update(await self._acreate_summary(old), preserved)


__all__ = ["ContextSize", "SummarizationMiddleware", "TokenCounter", "TriggerClause"]
