"""Structured output for create_agent: ToolStrategy (an extra tool the model must call),
ProviderStrategy (the provider's native JSON mode) and AutoStrategy (pick by model capability).

Mirrors `langchain.agents.structured_output`.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, is_dataclass
from types import UnionType
from typing import Any, Generic, Literal, TypeVar, Union, get_args, get_origin

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, TypeAdapter
from typing_extensions import is_typeddict

SchemaT = TypeVar("SchemaT")
SchemaKind = Literal["pydantic", "dataclass", "typeddict", "json_schema"]
STRUCTURED_OUTPUT_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."


class StructuredOutputError(Exception):
    """The model's structured output could not be used."""

    ai_message: AIMessage


class MultipleStructuredOutputsError(StructuredOutputError):
    def __init__(self, tool_names: list[str], ai_message: AIMessage) -> None:
        self.tool_names = tool_names
        self.ai_message = ai_message
        super().__init__(
            f"Model incorrectly returned multiple structured responses ({', '.join(tool_names)}) "
            "when only one is expected."
        )


class StructuredOutputValidationError(StructuredOutputError):
    def __init__(self, tool_name: str, source: Exception, ai_message: AIMessage) -> None:
        self.tool_name = tool_name
        self.source = source
        self.ai_message = ai_message
        super().__init__(f"Failed to parse structured output for tool '{tool_name}': {source}.")


def _parse_with_schema(schema: Any, kind: SchemaKind, data: dict[str, Any]) -> Any:
    if kind == "json_schema":
        return data
    try:
        return TypeAdapter(schema).validate_python(data)
    except Exception as e:
        raise ValueError(
            f"Failed to parse data to {getattr(schema, '__name__', str(schema))}: {e}"
        ) from e


def _fallback_name() -> str:
    return f"response_format_{str(uuid.uuid4())[:4]}"


@dataclass(init=False)
class _SchemaSpec(Generic[SchemaT]):
    schema: Any
    name: str
    description: str
    schema_kind: SchemaKind
    json_schema: dict[str, Any]
    strict: bool | None = None

    def __init__(
        self,
        schema: Any,
        *,
        name: str | None = None,
        description: str | None = None,
        strict: bool | None = None,
    ) -> None:
        self.schema = schema
        self.strict = strict
        if isinstance(schema, dict):
            self.name = name or str(schema.get("title", _fallback_name()))
            self.description = description or schema.get("description", "")
            self.schema_kind, self.json_schema = "json_schema", schema
            return
        self.name = name or str(getattr(schema, "__name__", _fallback_name()))
        self.description = description or getattr(schema, "__doc__", None) or ""
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            self.schema_kind, self.json_schema = "pydantic", schema.model_json_schema()
        elif is_dataclass(schema):
            self.schema_kind, self.json_schema = "dataclass", TypeAdapter(schema).json_schema()
        elif is_typeddict(schema):
            self.schema_kind, self.json_schema = "typeddict", TypeAdapter(schema).json_schema()
        else:
            raise ValueError(
                f"Unsupported schema type: {type(schema)}. Supported types: Pydantic models, "
                "dataclasses, TypedDicts, and JSON schema dicts."
            )


def _variants(schema: Any) -> list[Any]:
    if get_origin(schema) in (UnionType, Union):
        return [v for arg in get_args(schema) for v in _variants(arg)]
    if isinstance(schema, dict) and "oneOf" in schema:
        return [v for sub in schema.get("oneOf", []) for v in _variants(sub)]
    return [schema]


@dataclass(init=False)
class ToolStrategy(Generic[SchemaT]):
    """Structured output as a tool call the model is forced to make."""

    schema: Any
    schema_specs: list[_SchemaSpec]
    tool_message_content: str | None
    handle_errors: Any

    def __init__(
        self, schema: Any, *, tool_message_content: str | None = None, handle_errors: Any = True
    ) -> None:
        self.schema = schema
        self.tool_message_content = tool_message_content
        self.handle_errors = handle_errors
        self.schema_specs = [_SchemaSpec(s) for s in _variants(schema)]


@dataclass(init=False)
class ProviderStrategy(Generic[SchemaT]):
    """Structured output through the provider's native JSON-schema response format."""

    schema: Any
    schema_spec: _SchemaSpec

    def __init__(self, schema: Any, *, strict: bool | None = None) -> None:
        self.schema = schema
        self.schema_spec = _SchemaSpec(schema, strict=strict)

    def to_model_kwargs(self) -> dict[str, Any]:
        json_schema: dict[str, Any] = {
            "name": self.schema_spec.name,
            "schema": self.schema_spec.json_schema,
        }
        if self.schema_spec.strict:
            json_schema["strict"] = True
        return {"response_format": {"type": "json_schema", "json_schema": json_schema}}


@dataclass
class OutputToolBinding(Generic[SchemaT]):
    schema: Any
    schema_kind: SchemaKind
    tool: BaseTool

    @classmethod
    def from_schema_spec(cls, spec: _SchemaSpec) -> OutputToolBinding:
        tool = StructuredTool(
            args_schema=spec.json_schema, name=spec.name, description=spec.description
        )
        return cls(schema=spec.schema, schema_kind=spec.schema_kind, tool=tool)

    def parse(self, tool_args: dict[str, Any]) -> Any:
        return _parse_with_schema(self.schema, self.schema_kind, tool_args)


@dataclass
class ProviderStrategyBinding(Generic[SchemaT]):
    schema: Any
    schema_kind: SchemaKind

    @classmethod
    def from_schema_spec(cls, spec: _SchemaSpec) -> ProviderStrategyBinding:
        return cls(schema=spec.schema, schema_kind=spec.schema_kind)

    def parse(self, response: AIMessage) -> Any:
        content = response.content
        if isinstance(content, str):
            text = content
        else:
            parts = []
            for c in content:
                if isinstance(c, dict):
                    if c.get("type") == "text" and "text" in c:
                        parts.append(str(c["text"]))
                    elif isinstance(c.get("content"), str):
                        parts.append(c["content"])
                else:
                    parts.append(str(c))
            text = "".join(parts)
        try:
            data = json.loads(text)
        except Exception as e:
            schema_name = getattr(self.schema, "__name__", "response_format")
            raise ValueError(
                f"Native structured output expected valid JSON for {schema_name}, but parsing failed: {e}."
            ) from e
        return _parse_with_schema(self.schema, self.schema_kind, data)


class AutoStrategy(Generic[SchemaT]):
    """A raw schema: ProviderStrategy when the model supports it, else ToolStrategy."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema


ResponseFormat = ToolStrategy[SchemaT] | ProviderStrategy[SchemaT] | AutoStrategy[SchemaT]

# Model families assumed to support native structured output when the model has no profile.
# A family name must start a name segment ("openai:gpt-5", "us.anthropic.claude-...").
_ANY_VARIANT = r"($|[-/:])"  # the family and every variant of it ("gpt-5-mini")
_SNAPSHOT_ONLY = r"(-\d{4}-\d{2}-\d{2})?($|[/:])"  # the family or a dated snapshot, no variants
_CLAUDE = r"(?:-\d{8})?(?:-v\d(?::\d)?)?($|[/:])"  # a dated snapshot and a Bedrock version


def _family(name: str, tail: str) -> re.Pattern[str]:
    return re.compile(rf"(^|[/:.]){name}{tail}")


_NATIVE_STRUCTURED_OUTPUT = [
    *(_family(re.escape(n), _ANY_VARIANT) for n in ("gpt-4.1", "gpt-4o", "gpt-5", "gpt-5.1")),
    *(_family(re.escape(n), _ANY_VARIANT) for n in ("gpt-5.3", "gpt-5.5")),
    *(_family(re.escape(n), _SNAPSHOT_ONLY) for n in ("gpt-5.2", "gpt-5.4")),  # not -pro
    _family(r"gpt-5\.2-(chat|codex)", _ANY_VARIANT),
    _family(r"gpt-5\.4-(mini|nano)", _ANY_VARIANT),
    _family(r"gpt-6-(astra|luna|sol)", _ANY_VARIANT),
    _family(r"claude-(fable|mythos)-5", _CLAUDE),
    _family(r"claude-haiku-4-5", _CLAUDE),
    _family(r"claude-opus-4-[5-8]", _CLAUDE),
    _family(r"claude-sonnet-4-[56]", _CLAUDE),
    _family("grok-4", r"($|[-.:/])"),
    _family("grok-build", _ANY_VARIANT),
]


def supports_provider_strategy(model: Any, tools: list | None = None) -> bool:
    name: Any = model if isinstance(model, str) else None
    if not isinstance(model, str):
        name = (
            getattr(model, "model_name", None)
            or getattr(model, "model", None)
            or getattr(model, "model_id", "")
        )
        profile = getattr(model, "profile", None)
        if profile and profile.get("structured_output"):
            gemini_old = (
                tools
                and isinstance(name, str)
                and "gemini" in name.lower()
                and "gemini-3" not in name.lower()
            )
            if not gemini_old:
                return True
    return bool(
        isinstance(name, str)
        and name
        and any(p.search(name.lower()) for p in _NATIVE_STRUCTURED_OUTPUT)
    )


def _handle_error(exception: Exception, fmt: Any) -> tuple[bool, str]:
    """(retry?, message for the model) per ToolStrategy.handle_errors."""
    if not isinstance(fmt, ToolStrategy):
        return False, ""
    flag = fmt.handle_errors
    default = STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(exception))
    if flag is False:
        return False, ""
    if flag is True:
        return True, default
    if isinstance(flag, str):
        return True, flag
    if isinstance(flag, type):
        ok = issubclass(flag, Exception) and isinstance(exception, flag)
        return (True, default) if ok else (False, "")
    if isinstance(flag, tuple):
        return (True, default) if isinstance(exception, flag) else (False, "")
    return True, flag(exception)


def handle_model_output(
    output: AIMessage, fmt: Any, output_tools: dict[str, OutputToolBinding]
) -> dict[str, Any]:
    """The model node's messages (and structured_response) for one model output."""
    if isinstance(fmt, ProviderStrategy):
        if output.tool_calls:
            return {"messages": [output]}
        binding = ProviderStrategyBinding.from_schema_spec(fmt.schema_spec)
        try:
            parsed = binding.parse(output)
        except Exception as exc:
            schema_name = getattr(fmt.schema_spec.schema, "__name__", "response_format")
            raise StructuredOutputValidationError(schema_name, exc, output) from exc
        return {"messages": [output], "structured_response": parsed}
    if not (isinstance(fmt, ToolStrategy) and isinstance(output, AIMessage) and output.tool_calls):
        return {"messages": [output]}
    calls = [tc for tc in output.tool_calls if tc["name"] in output_tools]
    if not calls:
        return {"messages": [output]}
    if len(calls) > 1:
        error = MultipleStructuredOutputsError([tc["name"] for tc in calls], output)
        retry, message = _handle_error(error, fmt)
        if not retry:
            raise error
        return {
            "messages": [
                output,
                *(
                    ToolMessage(content=message, tool_call_id=tc["id"], name=tc["name"])
                    for tc in calls
                ),
            ]
        }
    call = calls[0]
    try:
        parsed = output_tools[call["name"]].parse(call["args"])
    except Exception as exc:
        error = StructuredOutputValidationError(call["name"], exc, output)
        retry, message = _handle_error(error, fmt)
        if not retry:
            raise error from exc
        return {
            "messages": [
                output,
                ToolMessage(content=message, tool_call_id=call["id"], name=call["name"]),
            ]
        }
    content = fmt.tool_message_content or f"Returning structured response: {parsed}"
    return {
        "messages": [
            output,
            ToolMessage(content=content, tool_call_id=call["id"], name=call["name"]),
        ],
        "structured_response": parsed,
    }


__all__ = [
    "AutoStrategy",
    "MultipleStructuredOutputsError",
    "OutputToolBinding",
    "ProviderStrategy",
    "ProviderStrategyBinding",
    "ResponseFormat",
    "StructuredOutputError",
    "StructuredOutputValidationError",
    "ToolStrategy",
]
