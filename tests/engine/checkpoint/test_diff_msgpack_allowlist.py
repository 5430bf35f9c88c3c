"""Differential test: JsonPlusSerializer(allowed_msgpack_modules=...) and with_msgpack_allowlist,
langgraph's allow-list of the classes a stored value may rebuild.

None allows only the built-in safe types, a list also the classes it names, True any class; a
class outside the list reads back as its plain data (a dataclass's fields, an enum's value).
"""

import dataclasses
import datetime
import enum
import uuid

import pytest
from pydantic import BaseModel

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Color(enum.Enum):
    RED = 1


class Card(BaseModel):
    title: str


VALUES = (
    Point(1, 2),
    Color.RED,
    Card(title="t"),
    datetime.date(2020, 1, 2),
    uuid.UUID(int=5),
    {"nested": [Point(3, 4)]},
)
MODULE = __name__


@pytest.mark.parametrize(
    "allowed",
    [None, [(MODULE, "Point")], [Point, Card], True, "not given"],
    ids=["none", "pairs", "classes", "true", "default"],
)
def test_what_an_allow_list_rebuilds(allowed):
    def scenario(b):
        serde_cls = b.mod("checkpoint.serde.jsonplus").JsonPlusSerializer
        serde = (
            serde_cls() if allowed == "not given" else serde_cls(allowed_msgpack_modules=allowed)
        )
        return [serde.loads_typed(serde.dumps_typed(v)) for v in VALUES]

    assert_same(scenario)


def test_with_msgpack_allowlist_adds_classes():
    def scenario(b):
        serde_cls = b.mod("checkpoint.serde.jsonplus").JsonPlusSerializer
        strict = serde_cls(allowed_msgpack_modules=None)
        wider = strict.with_msgpack_allowlist([Point, (MODULE, "Color")])
        permissive = serde_cls()
        return (
            [wider.loads_typed(wider.dumps_typed(v)) for v in VALUES],
            [strict.loads_typed(strict.dumps_typed(v)) for v in VALUES[:2]],
            permissive.with_msgpack_allowlist([Point]) is permissive,
        )

    assert_same(scenario)
