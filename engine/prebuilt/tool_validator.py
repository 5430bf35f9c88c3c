"""ValidationNode (langgraph.prebuilt.tool_validator): checks the last AI message's tool calls
against pydantic schemas without running any tool.

Each call becomes a ToolMessage: the validated arguments as JSON, or the formatted validation
error flagged `additional_kwargs["is_error"]`, so a graph can send the model back to fix them
(the extraction-with-retries tutorial loops on that flag). Deprecated in langgraph 1.0, as here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, ToolCall, ToolMessage
from langchain_core.runnables import Runnable
from langchain_core.runnables.config import get_executor_for_config
from langchain_core.tools import BaseTool, create_schema_from_function
from langchain_core.utils.pydantic import is_basemodel_subclass
from pydantic import BaseModel, ValidationError
from pydantic.v1 import BaseModel as BaseModelV1
from pydantic.v1 import ValidationError as ValidationErrorV1
from typing_extensions import deprecated

from engine._internal._config import ensure_config
from engine.pregel.callable import EngineRunnable
from engine.warnings import LangGraphDeprecatedSinceV10

ErrorFormatter = Callable[[BaseException, ToolCall, type], str]


def _default_format_error(error: BaseException, call: ToolCall, schema: type) -> str:
    return f"{repr(error)}\n\nRespond after fixing all validation errors."


def _schema_of_tool(tool: BaseTool) -> type[BaseModel]:
    schema = tool.args_schema
    if schema is None:
        raise ValueError(f"Tool {tool.name} does not have an args_schema defined.")
    if not isinstance(schema, type) or not is_basemodel_subclass(schema):
        raise ValueError(
            "Validation node only works with tools that have a pydantic BaseModel args_schema. "
            f"Got {tool.name} with args_schema: {schema}."
        )
    return schema


def _named_schema(item: Any) -> tuple[str, type]:
    """(tool name, schema) for a tool, a pydantic class (v1 or v2) or a plain function."""
    if isinstance(item, BaseTool):
        return item.name, _schema_of_tool(item)
    if isinstance(item, type) and issubclass(item, (BaseModel, BaseModelV1)):
        return item.__name__, item
    if callable(item):
        return item.__name__, create_schema_from_function("Validation", item)
    raise ValueError(
        "Unsupported input to ValidationNode. Expected BaseModel, tool or function. "
        f"Got: {type(item)}."
    )


@deprecated(
    "ValidationNode is deprecated. Please use `create_agent` from `langchain.agents` with "
    "custom tool error handling.",
    category=LangGraphDeprecatedSinceV10,
)
class ValidationNode(EngineRunnable, Runnable):
    """Validates every tool call of the last AIMessage; runs none of them."""

    def __init__(
        self,
        schemas: Sequence[BaseTool | type[BaseModel] | Callable],
        *,
        format_error: ErrorFormatter | None = None,
        name: str = "validation",
        tags: list[str] | None = None,
    ) -> None:
        self.name = name
        self.tags = tags
        self._format_error = format_error or _default_format_error
        self.schemas_by_name: dict[str, type] = dict(_named_schema(s) for s in schemas)

    def __repr__(self) -> str:
        return f"ValidationNode(schemas={list(self.schemas_by_name)})"

    def invoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        config = ensure_config() if config is None else config
        as_list, message = self._last_ai_message(input)
        with get_executor_for_config(config) as executor:
            outputs = list(executor.map(self._validate, message.tool_calls))
        return outputs if as_list else {"messages": outputs}

    async def ainvoke(self, input: Any, config: dict | None = None, **kwargs: Any) -> Any:
        return self.invoke(input, config, **kwargs)  # no async form: validation is quick

    @staticmethod
    def _last_ai_message(input: Any) -> tuple[bool, AIMessage]:
        if isinstance(input, list):
            as_list, messages = True, input
        elif messages := input.get("messages", []):
            as_list = False
        else:
            raise ValueError("No message found in input")
        message = messages[-1]
        if not isinstance(message, AIMessage):
            raise ValueError("Last message is not an AIMessage")
        return as_list, message

    def _validate(self, call: ToolCall) -> ToolMessage:
        schema = self.schemas_by_name[call["name"]]  # an unknown tool is a KeyError, as there
        reply = {"name": call["name"], "tool_call_id": call["id"]}
        try:
            if issubclass(schema, BaseModel):
                content = schema.model_validate(call["args"]).model_dump_json()
            else:
                content = schema.validate(call["args"]).json()
        except (ValidationError, ValidationErrorV1) as e:
            return ToolMessage(
                content=self._format_error(e, call, schema),
                additional_kwargs={"is_error": True},
                **reply,
            )
        return ToolMessage(content=content, **reply)


__all__ = ["ValidationNode"]
