"""Differential tests: a graph's input, output and context JSON schemas."""

import dataclasses
import operator
from typing import Annotated, Any, NotRequired, Optional

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    a: int
    b: Annotated[list[str], operator.add]
    c: NotRequired[str]


class Inp(TypedDict):
    a: int


class Ctx(BaseModel):
    user: str = "x"


class PState(BaseModel):
    a: int
    b: list[str] = []


@dataclasses.dataclass
class DState:
    a: int
    b: str = "x"
    c: Optional[int] = None  # noqa: UP045 (the Optional spelling is part of what is tested)
    d: list[int] = dataclasses.field(default_factory=list)


def schemas(graph) -> tuple:
    return (
        graph.get_input_jsonschema(),
        graph.get_output_jsonschema(),
        graph.get_context_jsonschema(),
    )


@pytest.mark.parametrize(
    "schema", [State, PState, DState], ids=["typeddict", "pydantic", "dataclass"]
)
def test_state_graph_schemas(schema):
    def scenario(b):
        graph = b.graph.StateGraph(schema, context_schema=Ctx)
        graph.add_node("n", lambda s: {})
        graph.add_edge(b.graph.START, "n")
        return schemas(graph.compile()), schemas(graph.compile(name="my_graph"))

    assert_same(scenario)


def test_state_graph_input_and_output_schemas():
    def scenario(b):
        graph = b.graph.StateGraph(State, input_schema=Inp, output_schema=PState)
        graph.add_node("n", lambda s: {})
        graph.add_edge(b.graph.START, "n")
        return schemas(graph.compile())

    assert_same(scenario)


def test_pregel_schemas_follow_its_channels():
    def scenario(b):
        pregel, channels = b.mod("pregel"), b.channels
        node = pregel.NodeBuilder().subscribe_only("input").do(lambda x: x + 1).write_to("output")
        one = pregel.Pregel(
            nodes={"one": node},
            channels={"input": channels.LastValue(int), "output": channels.LastValue(int)},
            input_channels="input",
            output_channels="output",
        )
        many = pregel.Pregel(
            nodes={"one": node},
            channels={"input": channels.LastValue(int), "output": channels.LastValue(str)},
            input_channels=["input"],
            output_channels=["output", "input"],
        )
        return schemas(one), schemas(many)

    assert_same(scenario)


def test_entrypoint_schemas_come_from_its_annotations():
    def scenario(b):
        func = b.func

        @func.entrypoint(context_schema=Inp)
        def typed(x: list[int]) -> dict[str, int]:
            return {}

        @func.entrypoint()
        def untyped(x, *, previous):
            return x

        @func.entrypoint()
        def final(x: str, *, previous: Any) -> func.entrypoint.final[int, list[str]]:
            return func.entrypoint.final(value=1, save=[x])

        @func.entrypoint()
        def bare_final(x: str, *, previous: Any) -> func.entrypoint.final:
            return func.entrypoint.final(value=1, save=[x])

        return [schemas(g) for g in (typed, untyped, final, bare_final)], typed.name

    assert_same(scenario)


def test_a_wrongly_parametrised_final_is_refused():
    def scenario(b):
        try:
            b.func.entrypoint.final[int]
        except TypeError:
            return "TypeError"
        return "accepted"

    assert_same(scenario)


def test_annotated_optional_fields_are_not_required():
    """`Annotated[X | None, ...]` is optional as `X | None` is, in dataclass and TypedDict
    states alike; NotRequired inside or outside Annotated too."""

    @dataclasses.dataclass
    class Fields:
        val1: str
        val2: int | None
        val3: Annotated[float | None, "optional annotated"]
        val4: str | None = None
        val7: str = dataclasses.field(default=...)
        val8: Annotated[int, "some metadata"] = 42

    class Keys(TypedDict):
        a: Annotated[int | None, "x"]
        b: NotRequired[Annotated[str, "y"]]
        c: Annotated[NotRequired[str], "z"]

    def scenario(b):
        out = []
        for schema in (Fields, Keys):
            g = b.graph.StateGraph(schema)
            g.add_node("n", lambda state: state)
            g.add_edge(b.graph.START, "n")
            app = g.compile()
            for js in (app.get_input_jsonschema(), app.get_output_jsonschema()):
                defaults = {k: v.get("default", "-") for k, v in js["properties"].items()}
                out.append((sorted(js.get("required", [])), defaults))
        return out

    assert_same(scenario)
