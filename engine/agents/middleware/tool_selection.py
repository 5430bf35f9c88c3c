"""LLMToolSelectorMiddleware: before each model call, a (possibly smaller) model picks the tools
relevant to the last user message, and the call is made with those alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

from engine._constants import TAG_NOSTREAM
from engine.agents.chat_models import init_chat_model
from engine.agents.middleware.internal_call_transformer import internal_call_metadata
from engine.agents.middleware.types import AgentMiddleware, ModelRequest

DEFAULT_SYSTEM_PROMPT = (
    "Your goal is to select the most relevant tools for answering the user's query."
)

OnParsingFailure = Literal["error", "none", "all"] | list[str] | Callable[[Any], list[str]]
"""After `max_retries` malformed replies: raise ValueError, select no tools, every tool, these
names, or the names a function of the last reply returns."""


def _selection_schema(tools: list) -> dict[str, Any]:
    """JSON schema of `{"tools": [name, ...]}`, each name a literal described by its tool."""
    names = [Annotated[Literal[t.name], Field(description=t.description)] for t in tools]
    choice = Union[tuple(names)]  # noqa: UP007 - a union built from a list

    class ToolSelectionResponse(TypedDict):
        """Use to select relevant tools."""

        tools: Annotated[
            list[choice],  # type: ignore[valid-type]
            Field(description="Tools to use. Place the most relevant tools first."),
        ]

    return TypeAdapter(ToolSelectionResponse).json_schema()


def _well_formed(reply: Any) -> bool:
    return isinstance(reply, dict) and isinstance(reply.get("tools"), list)


class LLMToolSelectorMiddleware(AgentMiddleware):
    """Narrows each model call's tools to those a selection model picks (at most `max_tools`,
    plus `always_include`); provider tool dicts are always kept."""

    def __init__(
        self,
        *,
        model: str | BaseChatModel | None = None,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        max_tools: int | None = None,
        always_include: list[str] | None = None,
        max_retries: int = 1,
        on_parsing_failure: OnParsingFailure = "error",
    ) -> None:
        super().__init__()
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.system_prompt = system_prompt
        self.max_tools = max_tools
        self.always_include = always_include or []
        self.max_retries = max_retries
        self.on_parsing_failure = on_parsing_failure
        self.model = model if model is None or isinstance(model, BaseChatModel) else (
            init_chat_model(model))  # fmt: skip

    # ---------------------------------------------------------------- the selection call
    def _selection(self, request: ModelRequest) -> tuple[list, list[Any], Any] | None:
        """(the tools to choose from, the selection messages, the structured model), or None
        when there is nothing to choose."""
        if not request.tools:
            return None
        tools = [t for t in request.tools if not isinstance(t, dict)]
        if self.always_include:
            names = {t.name for t in tools}
            if missing := [n for n in self.always_include if n not in names]:
                raise ValueError(
                    f"Tools in always_include not found in request: {missing}. "
                    f"Available tools: {sorted(names)}"
                )
        choosable = [t for t in tools if t.name not in self.always_include]
        if not choosable:
            return None
        prompt = self.system_prompt
        if self.max_tools is not None:
            prompt += (
                "\nIMPORTANT: List the tool names in order of relevance, with the most relevant "
                "first. If you exceed the maximum number of tools, only the first "
                f"{self.max_tools} will be used."
            )
        last_user = next((m for m in reversed(request.messages) if isinstance(m, HumanMessage)),
                         None)  # fmt: skip
        if last_user is None:
            raise AssertionError("No user message found in request messages")
        model = (self.model or request.model).with_structured_output(_selection_schema(choosable))
        return choosable, [{"role": "system", "content": prompt}, last_user], model

    @staticmethod
    def _config() -> dict[str, Any]:
        metadata = {"lc_source": "tool_selection", **internal_call_metadata()}
        return {"metadata": metadata, "tags": [TAG_NOSTREAM]}

    # ---------------------------------------------------------------- the reply
    def _fallback(self, reply: Any, names: list[str]) -> list[str]:
        failure = self.on_parsing_failure
        if failure == "error":
            raise ValueError(
                "LLMToolSelectorMiddleware: selection model returned a malformed response after "
                f"{self.max_retries} retries (expected a dict with a 'tools' list): {reply!r}"
            )
        if failure == "none":
            return []
        if failure == "all":
            return names
        return failure(reply) if callable(failure) else list(failure)

    def _narrowed(self, request: ModelRequest, choosable: list, reply: Any) -> ModelRequest:
        names = [t.name for t in choosable]
        if _well_formed(reply):
            picked, cap = reply["tools"], self.max_tools
        else:  # a deliberate fallback is not capped by max_tools
            picked, cap = self._fallback(reply, names), None
        if invalid := [n for n in picked if n not in names]:
            raise ValueError(f"Model selected invalid tools: {invalid}")
        chosen: list[str] = []
        for name in picked:
            if name not in chosen and (cap is None or len(chosen) < cap):
                chosen.append(name)
        kept = [t for t in choosable if t.name in chosen]
        kept += [t for t in request.tools if not isinstance(t, dict)
                 and t.name in self.always_include]  # fmt: skip
        return request.override(tools=[*kept, *(t for t in request.tools if isinstance(t, dict))])

    def wrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        selection = self._selection(request)
        if selection is None:
            return handler(request)
        choosable, messages, model = selection
        reply = model.invoke(messages, config=self._config())
        for _ in range(self.max_retries):  # a malformed reply is usually transient
            if _well_formed(reply):
                break
            reply = model.invoke(messages, config=self._config())
        return handler(self._narrowed(request, choosable, reply))

    async def awrap_model_call(self, request: ModelRequest, handler: Callable) -> Any:
        selection = self._selection(request)
        if selection is None:
            return await handler(request)
        choosable, messages, model = selection
        reply = await model.ainvoke(messages, config=self._config())
        for _ in range(self.max_retries):
            if _well_formed(reply):
                break
            reply = await model.ainvoke(messages, config=self._config())
        return await handler(self._narrowed(request, choosable, reply))


__all__ = ["LLMToolSelectorMiddleware"]
