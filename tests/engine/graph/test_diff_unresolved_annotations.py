"""A state schema whose annotations are strings (`from __future__ import annotations`, which this
file has) naming something its module cannot see (a reducer defined in the function beside the
class, a name defined nowhere) is refused when the builder is made, as langgraph refuses it, with
the NameError of resolving it: the engine used to take the raw strings and make plain last-value
channels, dropping the reducer without a word (a multiple-interrupts example then failed later
with "Can receive only one value per step"). A node's input hint that cannot be resolved is only
skipped, as langgraph skips it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_a_typeddict_naming_a_local_reducer_is_refused():
    def scenario(b):
        def keep_all(left: list, right: list) -> list:
            return left + right

        class State(TypedDict):
            log: Annotated[list, keep_all]

        return b.graph.StateGraph(State)

    assert_same(scenario)


def test_a_dataclass_naming_a_local_type_is_refused():
    def scenario(b):
        class Local:
            pass

        @dataclasses.dataclass
        class State:
            item: Local | None = None

        return b.graph.StateGraph(State)

    assert_same(scenario)


class Undefined(TypedDict):
    x: Missing  # noqa: F821


@dataclass
class UndefinedDataclass:
    y: Nope = 1  # noqa: F821


def _local_state():
    import operator  # noqa: F401  (named by the string annotation only)
    from typing import Annotated  # noqa: F401

    class Local(TypedDict):
        answers: Annotated[list[str], operator.add]

    return Local


class Fine(TypedDict):
    n: int


class Odd:
    z: Unknown  # noqa: F821


def test_unresolvable_state_annotations_are_refused_at_once():
    def scenario(b):
        StateGraph, START = b.graph.StateGraph, b.graph.START
        out = {}
        for label, schema in (("typed_dict", Undefined), ("dataclass", UndefinedDataclass),
                              ("local", _local_state())):  # fmt: skip
            try:
                out[label] = sorted(StateGraph(schema).channels)
            except Exception as exc:
                out[label] = (type(exc).__name__, str(exc))

        def node(state: Odd) -> dict:  # an input hint that cannot be resolved: not inferred
            return {"n": 1}

        graph = StateGraph(Fine).add_node("node", node).add_edge(START, "node").compile()
        out["node_hint"] = graph.invoke({"n": 0})
        return out

    out = assert_same(scenario)
    assert out["local"][0] == "NameError" and out["node_hint"] == {"n": 1}
