"""Property-based tests: arbitrary and crafted checkpoint bytes (SECURITY issue 10, item 1).

Through `loads_typed`, and through a SqliteSaver reading a row tampered with, the only outcomes
allowed are a value or our own error (DeserializationError; CheckpointDatabaseError from the
saver), never another exception, and never an import: sys.modules gains nothing and a module
on sys.path that the bytes name never runs. `CI=true` selects the `superstep-ci` profile.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import sys
import uuid
import zoneinfo

import ormsgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from engine.checkpoint.serde.jsonplus import DeserializationError, JsonPlusSerializer
from engine.checkpoint.serde.registry import known_classes
from engine.checkpoint.sqlite import CheckpointDatabaseError, SqliteSaver
from engine.types import Interrupt, Send
from tests.graphspec.test_fuzz import FUZZ

SERDE = JsonPlusSerializer()
TRAP = f"ckpt_fuzz_trap_{uuid.uuid4().hex[:8]}"
CODES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
         25, 26, 27, 0, 5, 99, 127]  # fmt: skip
MODULES = [TRAP, "os", "builtins", "this", "antigravity", "subprocess", "pathlib", "enum",
           "engine.types", "langchain_core.messages.ai", __name__, "venv.__main__"]  # fmt: skip
NAMES = ["Thing", "system", "eval", "Popen", "Send", "Interrupt", "AIMessage", "Path", "Enum",
         "Color", "Point", "Point.x", "__class__", ""]  # fmt: skip
SAMPLES = [
    {"a": [1, (2, 3)], "when": dt.datetime(2024, 1, 1, tzinfo=zoneinfo.ZoneInfo("UTC"))},
    [HumanMessage("hi", id="h"), AIMessage("yo", id="a")],
    Send("node", {"i": 1}),
    Interrupt("ok?", id="i"),
    {1: {2, 3}, (1, 2): frozenset("ab")},
    uuid.UUID(int=5),
]

plain = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=6)
    | st.binary(max_size=6)
)


def _ext(args: tuple) -> ormsgpack.Ext:
    code, payload = args
    return ormsgpack.Ext(code, ormsgpack.packb(payload, option=ormsgpack.OPT_NON_STR_KEYS))


def _trees(inner):
    class_ref = st.tuples(
        st.sampled_from(MODULES), st.sampled_from(NAMES), st.lists(inner, max_size=4)
    )
    return (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
        | st.tuples(st.sampled_from(CODES), st.lists(inner, max_size=4)).map(_ext)
        | st.tuples(st.sampled_from(CODES), class_ref.map(lambda r: [r[0], r[1], *r[2]])).map(_ext)
    )


crafted = st.recursive(plain, _trees, max_leaves=10).map(
    lambda tree: ormsgpack.packb(tree, option=ormsgpack.OPT_NON_STR_KEYS)
)


@st.composite
def mutated(draw) -> bytes:
    """A real stored value with bytes flipped, cut or inserted."""
    data = bytearray(SERDE.dumps_typed(draw(st.sampled_from(SAMPLES)))[1])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["flip", "cut", "insert"]))
        if action == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[at:]
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=5))
    return bytes(data)


blobs = st.binary(max_size=64) | crafted | mutated()


@pytest.fixture(scope="module", autouse=True)
def trap(tmp_path_factory):
    """A module on sys.path that raises if it is ever imported; everything legit preloaded."""
    folder = tmp_path_factory.mktemp("trap")
    (folder / f"{TRAP}.py").write_text("raise SystemExit('the crafted module ran')\n")
    sys.path.insert(0, str(folder))
    known_classes()
    for sample in SAMPLES:  # whatever decoding legitimately touches is imported now
        SERDE.loads_typed(SERDE.dumps_typed(sample))
    yield
    sys.path.remove(str(folder))
    assert TRAP not in sys.modules


def _imports_nothing(call) -> object:
    before = set(sys.modules)
    try:
        return call()
    finally:
        assert set(sys.modules) == before, set(sys.modules) - before


@FUZZ
@given(data=blobs, kind=st.sampled_from(["msgpack", "msgpack", "bytes", "null", "pickle", "x"]))
def test_loads_typed_gives_a_value_or_our_error(data, kind):
    try:
        _imports_nothing(lambda: SERDE.loads_typed((kind, data)))
    except DeserializationError:
        pass


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A database holding one thread with messages, a pending interrupt and a tuple."""
    from tests.engine.checkpoint.test_sqlite_file import run

    db = tmp_path_factory.mktemp("fuzzdb") / "fuzz.sqlite"
    run(db, "t", 3)
    return db


COLUMNS = [
    ("blobs", "value"), ("blobs", "type"), ("blobs", "items"), ("blobs", "base_version"),
    ("checkpoints", "checkpoint"), ("checkpoints", "metadata"),
    ("checkpoints", "parent_checkpoint_id"),
]  # fmt: skip
stored = (
    blobs
    | st.text(max_size=20)
    | st.integers(-(2**63), 2**63 - 1)
    | st.none()
    | st.sampled_from(["msgpack", "delta", "bytes", "null", "pickle", "{}", '{"step": 1}', "[1]"])
)


@FUZZ
@given(column=st.sampled_from(COLUMNS), value=stored, row=st.integers(0, 30))
def test_saver_reading_a_tampered_row_gives_a_checkpoint_or_our_error(saved, column, value, row):
    table, name = column
    conn = sqlite3.connect(saved)
    rowids = (
        [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")] if table == "blobs" else None
    )
    key = "rowid" if rowids else "checkpoint_id"
    keys = rowids or [r[0] for r in conn.execute("SELECT checkpoint_id FROM checkpoints")]
    target = keys[row % len(keys)]
    (original,) = conn.execute(f"SELECT {name} FROM {table} WHERE {key} = ?", (target,)).fetchone()
    try:
        with conn:
            conn.execute(f"UPDATE {table} SET {name} = ? WHERE {key} = ?", (value, target))
    except sqlite3.IntegrityError:  # NOT NULL: the schema itself refuses this tampering
        conn.close()
        return
    try:
        with SqliteSaver.from_conn_string(str(saved)) as saver:
            assert saver.list_threads() == ["t"]
            for read in (
                lambda: saver.get_tuple({"configurable": {"thread_id": "t"}}),
                lambda: list(saver.list({"configurable": {"thread_id": "t"}}, limit=5)),
            ):
                try:
                    _imports_nothing(read)
                except CheckpointDatabaseError as exc:
                    assert str(saved) in str(exc) and "\n" not in str(exc)
    finally:
        with conn:
            conn.execute(f"UPDATE {table} SET {name} = ? WHERE {key} = ?", (original, target))
        conn.close()
