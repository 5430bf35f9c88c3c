"""ValidationNode (langgraph.prebuilt): a node that checks the last AI message's tool calls
against pydantic schemas and answers each with a ToolMessage, the validated arguments or the
error flagged is_error; the extraction-with-retries tutorial re-prompts the model on that flag."""

import warnings
from typing import Annotated, Literal

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import StructuredTool, tool
from pydantic import BaseModel, field_validator
from pydantic.v1 import BaseModel as BaseModelV1

from tests.oracle import assert_same, normalize

pytestmark = [
    pytest.mark.differential,
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


class Pick(BaseModel):
    """Pick a number."""

    n: int

    @field_validator("n")
    def only_37(cls, v: int) -> int:
        if v != 37:
            raise ValueError("Only 37 is allowed")
        return v


class LegacyPoint(BaseModelV1):
    x: int


def area(width: int, height: int) -> int:
    """Area of a rectangle."""
    return width * height


@tool
def shout(text: str) -> str:
    """Shout."""
    return text.upper()


def _ai(*calls: tuple[str, dict]) -> AIMessage:
    return AIMessage(
        "", tool_calls=[{"name": n, "args": a, "id": f"c{i}"} for i, (n, a) in enumerate(calls)]
    )


def _dump(messages: list) -> list:
    return [
        (type(m).__name__, m.content, getattr(m, "name", None), m.additional_kwargs)
        for m in messages
    ]


def test_each_schema_kind_validates_its_calls_in_a_graph():
    def scenario(b):
        node = b.prebuilt.ValidationNode([Pick, LegacyPoint, area, shout])
        builder = b.graph.StateGraph(b.graph.MessagesState)
        builder.add_node("validate", node)
        builder.add_edge(b.graph.START, "validate")
        calls = _ai(
            ("Pick", {"n": 37}),
            ("Pick", {"n": 3}),
            ("LegacyPoint", {"x": "nope"}),
            ("area", {"width": 2, "height": 3}),
            ("shout", {"text": 5}),
        )
        result = builder.compile().invoke({"messages": [HumanMessage("go"), calls]})
        return _dump(result["messages"][2:]), sorted(node.schemas_by_name), node.name

    assert_same(scenario)


def test_a_list_graph_reprompts_until_the_call_validates():
    def scenario(b):
        add_messages = b.mod("graph.message").add_messages
        replies = iter([_ai(("Pick", {"n": 1})), _ai(("Pick", {"n": 37})), AIMessage("done")])
        builder = b.graph.StateGraph(Annotated[list, add_messages])
        builder.add_node("model", lambda state: next(replies))
        builder.add_node(
            "validation",
            b.prebuilt.ValidationNode([Pick], format_error=lambda e, call, s: f"{call['id']} bad"),
        )
        builder.add_edge(b.graph.START, "model")

        def should_validate(state: list) -> Literal["validation", "__end__"]:
            return "validation" if state[-1].tool_calls else b.graph.END

        def should_reprompt(state: list) -> Literal["model", "__end__"]:
            for msg in state[::-1]:
                if msg.type == "ai":
                    return b.graph.END
                if msg.additional_kwargs.get("is_error"):
                    return "model"
            return b.graph.END

        builder.add_conditional_edges("model", should_validate)
        builder.add_conditional_edges("validation", should_reprompt)
        app = builder.compile()
        updates = app.stream([("user", "pick")], stream_mode="updates")
        return [
            (node, _dump(out if isinstance(out, list) else [out]))
            for update in updates
            for node, out in update.items()
        ]

    assert_same(scenario)


@pytest.mark.parametrize(
    "schemas, payload",
    [
        ([Pick], [HumanMessage("not an AI message")]),
        ([Pick], {"messages": []}),
        ([Pick], {"messages": [_ai(("Unknown", {}))]}),
        ([StructuredTool.from_function(area, args_schema={"type": "object"})], None),
        ([42], None),
    ],
    ids=["last-not-ai", "no-messages", "unknown-tool", "tool-without-pydantic-schema", "int"],
)
def test_refusals_match(schemas, payload):
    def scenario(b):
        node = b.prebuilt.ValidationNode(schemas)
        return node.invoke(payload)

    assert_same(scenario)


def test_it_is_deprecated_with_langgraphs_warning(backend):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        backend.prebuilt.ValidationNode([Pick])
    shown = [(type(w.message).__name__, str(w.message)) for w in caught]
    assert normalize(shown) == [
        (
            "LangGraphDeprecatedSinceV10",
            "ValidationNode is deprecated. Please use `create_agent` from `langchain.agents` "
            "with custom tool error handling. Deprecated in LangGraph V1.0 to be removed in V2.0.",
        )
    ]
