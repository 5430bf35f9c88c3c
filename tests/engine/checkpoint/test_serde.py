"""JsonPlusSerializer: typed round-trips without pickle, and clear refusals."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import pathlib
import uuid
import zoneinfo
from collections import OrderedDict
from typing import NamedTuple

import ormsgpack
import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel
from pydantic import create_model as pydantic_create_model

from engine.checkpoint.serde.base import SerializerProtocol
from engine.checkpoint.serde.jsonplus import (
    DeserializationError,
    JsonPlusSerializer,
    SerializationError,
)
from engine.errors import GraphRecursionError
from engine.types import Command, Interrupt, Send


class Color(enum.Enum):
    RED = "r"
    BLUE = "b"


class Level(enum.IntEnum):
    LOW = 1


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: tuple


@dataclasses.dataclass
class WithPostInit:
    a: int
    b: int = dataclasses.field(init=False, default=0)
    calls: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        self.calls.append("post_init")


class Pair(NamedTuple):
    left: int
    right: str


class Inner(BaseModel):
    tags: set[str] = set()


class Model(BaseModel):
    name: str
    inner: Inner = Inner()
    when: dt.datetime | None = None
    points: list[Point] = []


class NotAModel:
    def __init__(self, x):
        self.x = x


SERDE = JsonPlusSerializer()

VALUES = [
    None,
    True,
    0,
    -(2**70),
    1.5,
    "text",
    b"\x00raw",
    bytearray(b"ab"),
    [1, [2, "x"], {"k": None}],
    {"a": {"b": [1, 2]}},
    {1: "int key", (1, 2): "tuple key", None: 0},
    {1, 2},
    frozenset({"a"}),
    dt.datetime(2024, 5, 1, 12, 30, 1, 5),
    dt.datetime(2024, 5, 1, tzinfo=dt.UTC),
    dt.datetime(2024, 5, 1, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")),
    dt.datetime(2024, 5, 1, tzinfo=dt.timezone(dt.timedelta(hours=-3))),
    dt.date(2020, 2, 29),
    dt.time(23, 59, 58, 1),
    dt.timedelta(days=-1, seconds=5, microseconds=7),
    uuid.UUID("12345678-1234-5678-1234-567812345678"),
    decimal.Decimal("1.10"),
    Color.BLUE,
    Level.LOW,
    Point(1, 2),
    Pair(1, "r"),
    Model(name="m", inner=Inner(tags={"t"}), when=dt.datetime(2021, 1, 1), points=[Point(0, 1)]),
    HumanMessage("hi", id="h1"),
    AIMessage("", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}], id="a1"),
    ToolMessage("42", tool_call_id="c1", name="f"),
    SystemMessage("rules"),
    Document(page_content="doc", metadata={"source": "s"}),
    Send("node", {"i": 1}),
    Interrupt({"question": "ok?"}, id="int-1"),
    Command(goto="x", update={"a": 1}),
    pathlib.PurePosixPath("/a/b"),
    1 + 2j,
    Model,
    {"nested": [Color.RED, [Point(1, 0), {3}]]},
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_round_trip_keeps_value_and_type(value):
    typed = SERDE.dumps_typed(value)
    assert isinstance(typed[0], str) and isinstance(typed[1], bytes)
    back = SERDE.loads_typed(typed)
    assert back == value
    assert type(back) is type(value)


@pytest.mark.parametrize(
    ("value", "read_back"),
    [
        ((1, (2, 3)), [1, [2, 3]]),
        ((), []),
        (Point(1, (2, 3)), Point(1, [2, 3])),
        (
            {"nested": [Color.RED, (Point(1, ()), {3})]},
            {"nested": [Color.RED, [Point(1, []), {3}]]},
        ),
        (Send("n", {"p": (1, 2)}), Send("n", {"p": [1, 2]})),
        # where a hashable value is needed, a tuple stays one
        ({(1, 2), (3, (4,))}, {(1, 2), (3, (4,))}),
        (frozenset({(1, 2)}), frozenset({(1, 2)})),
        ({(1, 2): [(3, 4)]}, {(1, 2): [[3, 4]]}),
        ((1, {2: "int key inside a tuple"}), [1, {2: "int key inside a tuple"}]),
    ],
    ids=repr,
)
def test_tuples_read_back_as_lists_as_in_langgraph(value, read_back):
    back = SERDE.loads_typed(SERDE.dumps_typed(value))
    assert back == read_back and type(back) is type(read_back)


class Shape(BaseModel):
    corner: tuple[int, int]
    size: tuple | None = None
    path: list = []


def test_a_models_tuple_fields_read_back_as_tuples():
    """As langgraph's rebuild validates the model, a field declared as a tuple is a tuple again;
    a tuple elsewhere in it is a list."""
    back = SERDE.loads_typed(SERDE.dumps_typed(Shape(corner=(1, 2), size=(5,), path=[(3, 4)])))
    assert back.corner == (1, 2) and type(back.corner) is tuple
    assert back.size == (5,) and type(back.size) is tuple  # (an optional tuple too)
    assert back.path == [[3, 4]]


def test_is_a_serializer_protocol():
    assert isinstance(SERDE, SerializerProtocol)


def test_nested_types_survive_inside_containers():
    value = {"k": [(1, 2), {3}], "when": dt.date(2020, 1, 1)}
    back = SERDE.loads_typed(SERDE.dumps_typed(value))
    assert type(back["k"][0]) is list and type(back["k"][1]) is set  # a tuple is a list
    assert type(back["when"]) is dt.date


def test_pydantic_fields_set_is_kept():
    back = SERDE.loads_typed(SERDE.dumps_typed(Model(name="only")))
    assert back.model_fields_set == {"name"}
    assert back.model_dump(exclude_unset=True) == {"name": "only"}
    assert type(back.inner) is Inner


def test_messages_keep_ids_and_tool_calls():
    msg = AIMessage("", tool_calls=[{"name": "f", "args": {"x": 1}, "id": "c1"}], id="a1")
    back = SERDE.loads_typed(SERDE.dumps_typed([msg]))[0]
    assert back.id == "a1" and back.tool_calls[0]["args"] == {"x": 1}
    assert back.tool_calls[0]["name"] == "f"


def test_dataclass_loads_without_running_init():
    value = WithPostInit(1)
    assert value.calls == ["post_init"]
    back = SERDE.loads_typed(SERDE.dumps_typed(value))
    assert back.calls == ["post_init"]  # __post_init__ not run again


def test_exceptions_read_back_as_their_repr_like_langgraph():
    assert SERDE.loads_typed(SERDE.dumps_typed(ValueError("bad", 2))) == "ValueError('bad', 2)"
    error = GraphRecursionError("too deep")
    assert SERDE.loads_typed(SERDE.dumps_typed(error)) == "GraphRecursionError('too deep')"
    assert SERDE.loads_typed(SERDE.dumps_typed(CustomError("x"))) == "CustomError('x')"


class CustomError(Exception):
    pass


@pytest.mark.parametrize(
    "value, type_name",
    [
        (lambda: 1, "builtins.function"),
        (NotAModel(1), "NotAModel"),
        ({"deep": [object()]}, "builtins.object"),
    ],
)
def test_unrepresentable_values_raise_naming_the_type(value, type_name):
    with pytest.raises(SerializationError, match=type_name.replace(".", r"\.")):
        SERDE.dumps_typed(value)
    assert issubclass(SerializationError, TypeError)


def test_values_of_classes_defined_in_a_function_read_back_as_plain_data(caplog):
    class Answer(BaseModel):
        text: str
        inner: Inner  # a module-level model inside: dumped to a dict with the rest

    @dataclasses.dataclass
    class Step:
        n: int
        answer: Answer

    class Mood(enum.Enum):
        GOOD = "g"

    class Span(NamedTuple):
        start: int
        end: int

    class Oops(Exception):
        pass

    value = {
        "step": Step(1, Answer(text="t", inner=Inner(tags={"x"}))),
        "mood": Mood.GOOD,
        "span": Span(2, 5),
        "error": Oops("no"),
    }
    with caplog.at_level("WARNING", logger="engine.checkpoint.serde.jsonplus"):
        back = SERDE.loads_typed(SERDE.dumps_typed(value))
        SERDE.loads_typed(SERDE.dumps_typed(Step(2, Answer(text="u", inner=Inner()))))
    assert back == {
        "step": {"n": 1, "answer": {"text": "t", "inner": {"tags": {"x"}}}},
        "mood": "g",
        "span": {"start": 2, "end": 5},
        "error": "Oops('no')",
    }
    # once per class, none for the pydantic model (as langgraph)
    warned = sorted(r.getMessage().split(" from")[0] for r in caplog.records)
    assert warned == [
        f"Could not reconstruct {__name__}.{name}" for name in ("Mood", "Span", "Step")
    ]


def test_a_class_defined_in_a_function_is_no_value_to_store():
    class Local:
        pass

    with pytest.raises(SerializationError, match="inside a function"):
        SERDE.dumps_typed({"kind": Local})


def test_a_class_its_module_no_longer_holds_reads_back_as_plain_data():
    made = pydantic_create_model("Made", text=(str, ...))  # in this module, by no name
    assert SERDE.loads_typed(SERDE.dumps_typed(made(text="x"))) == {"text": "x"}
    blob = SERDE.dumps_typed(Pair(1, "r"))
    assert SERDE.loads_typed((blob[0], blob[1].replace(b"Pair", b"Pora"))) == {
        "left": 1,
        "right": "r",
    }


def test_allowed_objects_extend_the_allow_list():
    serde = JsonPlusSerializer(allowed_objects=[OrderedDict, NotAModel])
    back = serde.loads_typed(serde.dumps_typed(OrderedDict(a=1)))
    assert type(back) is OrderedDict and back == {"a": 1}
    back = serde.loads_typed(serde.dumps_typed(NotAModel(3)))
    assert type(back) is NotAModel and back.x == 3
    # a serializer without the allow-list entry refuses the stored bytes
    with pytest.raises(DeserializationError, match="allow-list"):
        SERDE.loads_typed(serde.dumps_typed(NotAModel(3)))


def test_pickle_is_refused():
    import pickle

    with pytest.raises(DeserializationError, match="pickle"):
        SERDE.loads_typed(("pickle", pickle.dumps(1)))


def _forged(code: int, module: str, name: str, *rest) -> tuple[str, bytes]:
    payload = ormsgpack.packb([module, name, *rest])
    return "msgpack", ormsgpack.packb(ormsgpack.Ext(code, payload))


@pytest.mark.parametrize(
    "code, module, name, rest",
    [
        (21, "os", "system", [{"x": 1}]),  # "dataclass" that is a function
        (23, "subprocess", "Popen", [{}, [], None, None]),  # "pydantic model" that is not
        (20, "builtins", "eval", ["1+1"]),
        (24, "os", "PathLike", [{}]),  # slot object not on the allow-list
    ],
)
def test_forged_payloads_never_call_arbitrary_callables(code, module, name, rest):
    with pytest.raises(DeserializationError, match="refusing"):
        SERDE.loads_typed(_forged(code, module, name, *rest))


def test_allowed_modules_restricts_user_classes():
    strict = JsonPlusSerializer(allowed_modules=["somewhere.else"])
    typed = SERDE.dumps_typed(Point(1, 2))
    with pytest.raises(DeserializationError, match="allowed_modules"):
        strict.loads_typed(typed)
    # engine and langchain-core classes stay allowed
    assert strict.loads_typed(SERDE.dumps_typed(HumanMessage("x"))) == HumanMessage("x")
    ok = JsonPlusSerializer(allowed_modules=[__name__.split(".")[0]])
    assert ok.loads_typed(typed) == Point(1, 2)


def test_unknown_type_tag():
    with pytest.raises(DeserializationError, match="unknown"):
        SERDE.loads_typed(("yaml", b"x"))
