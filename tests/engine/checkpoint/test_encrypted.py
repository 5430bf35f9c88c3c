"""EncryptedSerializer: AES blobs readable by langgraph's serializer and ours, secrets never
stored in clear, the same key errors as langgraph."""

from __future__ import annotations

import operator
import sqlite3
from typing import Annotated, TypedDict

import pytest

from tests.oracle import Backend

KEY = b"0123456789abcdef"
VALUE = {"text": "a secret note", "n": [1, 2, 3], "nested": {"ok": True}}


def encrypted(b: Backend, **kwargs):
    return b.mod("checkpoint.serde.encrypted").EncryptedSerializer.from_pycryptodome_aes(**kwargs)


@pytest.mark.differential
def test_either_library_reads_what_the_other_encrypted():
    ours, theirs = encrypted(Backend("engine"), key=KEY), encrypted(Backend("langgraph"), key=KEY)
    for writer, reader in ((ours, theirs), (theirs, ours)):
        tag, blob = writer.dumps_typed(VALUE)
        assert tag == "msgpack+aes"
        assert b"secret" not in blob
        assert reader.loads_typed((tag, blob)) == VALUE


def test_plain_blobs_still_load_and_a_wrong_key_fails_verification():
    from engine.checkpoint.serde.jsonplus import JsonPlusSerializer

    serde = encrypted(Backend("engine"), key=KEY)
    assert serde.loads_typed(JsonPlusSerializer().dumps_typed(VALUE)) == VALUE
    blob = serde.dumps_typed(VALUE)
    with pytest.raises(ValueError, match="MAC check failed"):
        encrypted(Backend("engine"), key=b"fedcba9876543210").loads_typed(blob)


@pytest.mark.differential
@pytest.mark.parametrize(
    ("key", "message"),
    [
        (None, "LANGGRAPH_AES_KEY environment variable is not set."),
        ("short", "must be 16, 24, or 32 bytes"),
    ],
)
def test_key_from_the_environment_is_checked_like_langgraph(backend, monkeypatch, key, message):
    if key is None:
        monkeypatch.delenv("LANGGRAPH_AES_KEY", raising=False)
    else:
        monkeypatch.setenv("LANGGRAPH_AES_KEY", key)
    with pytest.raises(ValueError, match=message):
        encrypted(backend)


def test_a_thread_in_sqlite_keeps_its_values_encrypted(tmp_path):
    from engine.checkpoint.sqlite import SqliteSaver
    from engine.graph import START, StateGraph

    class State(TypedDict):
        notes: Annotated[list[str], operator.add]

    builder = StateGraph(State)
    builder.add_node("write", lambda s: {"notes": ["the launch code is 0000"]})
    builder.add_edge(START, "write")
    path = tmp_path / "threads.sqlite"
    config = {"configurable": {"thread_id": "t"}}
    conn = sqlite3.connect(path, check_same_thread=False)
    saver = SqliteSaver(conn, serde=encrypted(Backend("engine"), key=KEY))
    graph = builder.compile(checkpointer=saver)
    graph.invoke({"notes": ["opening words"]}, config)
    assert graph.get_state(config).values == {"notes": ["opening words", "the launch code is 0000"]}
    conn.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"launch code" not in stored and b"opening words" not in stored
