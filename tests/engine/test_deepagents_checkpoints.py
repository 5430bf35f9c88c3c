"""Deep Agents' DeltaChannel keys (messages, files) in checkpoints, on the engine and on
langgraph: the same checkpoints store a value (a snapshot every 50 updates), the same history
is rebuilt from ancestors' writes, and the stored bytes are within 10% of langgraph's."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from tests.engine.deepagents_helpers import ai, assert_same_deep, checkpoint_shapes, model

pytestmark = pytest.mark.differential

CONFIG = {"configurable": {"thread_id": "long"}}
ROUNDS = 30  # a model and a tool message each: past the snapshot every 50 updates


def _long_session() -> list:
    replies = [
        ai("", ("write_file", {"file_path": f"/f{i}.txt", "content": f"line {i}\n"}, f"w{i}"))
        for i in range(ROUNDS)
    ]
    return [*replies, ai("all written")]


def _stored_size(saver, config) -> int:
    """Bytes of the thread's stored channel values as the saver's serializer writes them (the
    consumed Send topic left out, see checkpoint_shapes)."""
    return sum(
        len(saver.serde.dumps_typed(v)[1])
        for t in saver.list(config)
        for k, v in t.checkpoint["channel_values"].items()
        if k != "__pregel_tasks"
    )


def _saver(kind: str, tmp_path):
    if kind == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        return InMemorySaver()
    import sqlite3

    from langgraph.checkpoint.sqlite import SqliteSaver

    # one file per world: the two runs must not share a thread
    path = tmp_path / f"{len(list(tmp_path.iterdir()))}.sqlite"
    return SqliteSaver(sqlite3.connect(path, check_same_thread=False))


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_snapshots_history_and_size_of_a_long_session(kind, tmp_path):
    sizes = []  # langgraph's, then the engine's

    def scenario():
        from deepagents import create_deep_agent

        saver = _saver(kind, tmp_path)
        agent = create_deep_agent(model=model(*_long_session()), checkpointer=saver)
        out = agent.invoke({"messages": [HumanMessage("write them all")]}, CONFIG)
        history = [
            (
                s.metadata["step"],
                len(s.values.get("messages", [])),
                sorted(s.values.get("files", {})),
            )
            for s in agent.get_state_history(CONFIG)
        ]
        sizes.append(_stored_size(saver, CONFIG))
        return out, history, checkpoint_shapes(saver, CONFIG)

    out, history, shapes = assert_same_deep(scenario)
    assert len(out["files"]) == ROUNDS
    stored = [row for row in shapes if "messages" in row[2]]
    # a snapshot of messages once 50 updates have gone by, not in every checkpoint
    assert 0 < len(stored) < 5 < len(shapes)
    # the same values are stored; the engine's serializer spends ~18 bytes more a message (it
    # keeps a pydantic model's set fields, for an exact round trip)
    langgraph_bytes, engine_bytes = sizes
    assert engine_bytes <= langgraph_bytes * 1.1, sizes


def test_a_fork_from_the_middle_replays_ancestor_writes():
    def scenario():
        from deepagents import create_deep_agent
        from langgraph.checkpoint.memory import InMemorySaver

        agent = create_deep_agent(model=model(*_long_session()), checkpointer=InMemorySaver())
        agent.invoke({"messages": [HumanMessage("write them all")]}, CONFIG)
        middle = next(s for s in agent.get_state_history(CONFIG) if s.metadata["step"] == 21)
        forked = agent.update_state(
            middle.config, {"files": {"/f0.txt": None}, "messages": [HumanMessage("skip")]}
        )
        after = agent.get_state(forked)
        return (
            len(middle.values["messages"]),
            sorted(middle.values["files"]),
            len(after.values["messages"]),
            sorted(after.values["files"]),
            after.next,
        )

    middle_messages, middle_files, after_messages, after_files, _ = assert_same_deep(scenario)
    assert after_messages == middle_messages + 1
    assert after_files == [f for f in middle_files if f != "/f0.txt"]
