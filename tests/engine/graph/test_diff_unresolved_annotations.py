"""A state schema whose annotations are strings (`from __future__ import annotations`, which this
file has) naming something its module cannot see (a reducer defined in the function beside the
class) is refused as langgraph refuses it, with the NameError of resolving it: the engine used to
take the raw strings and make plain last-value channels, dropping the reducer without a word."""

from __future__ import annotations

import dataclasses
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
