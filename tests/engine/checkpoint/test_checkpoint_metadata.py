"""The metadata a saver stores: the loop's, plus the run's scalar config values."""

from engine.checkpoint.base import get_checkpoint_metadata


def test_scalar_config_values_join_and_private_or_id_keys_stay_out():
    config = {
        "metadata": {"user": "ann\x00", "thread_id": "t", "tries": 2},
        "configurable": {
            "thread_id": "t",
            "checkpoint_ns": "",
            "__pregel_x": "private",
            "__other": 1,
            "model": "m",
            "user": "not this one",
            "ratio": 0.5,
            "flag": True,
            "objects": ["not", "scalar"],
        },
    }
    loop_metadata = {"source": "loop", "step": 3, "parents": {}, "note": "a\x00b"}
    expected = {
        "source": "loop",
        "step": 3,
        "parents": {},
        "note": "ab",
        "user": "ann",
        "tries": 2,
        "model": "m",
        "ratio": 0.5,
        "flag": True,
    }
    # twice: the private keys seen the first time are skipped from memory the second
    for _ in range(2):
        out = get_checkpoint_metadata(config, loop_metadata)
        assert out == expected and list(out) == list(expected)
    # a key is private by its name alone, whatever its value
    config["configurable"]["__other"] = "text"
    assert get_checkpoint_metadata(config, {}) == {
        k: v for k, v in expected.items() if k in ("user", "tries", "model", "ratio", "flag")
    }


def test_a_run_stores_the_config_part_at_every_checkpoint_without_overriding_the_loops():
    # the loop works the config's part out once a run: every checkpoint must still carry it,
    # and a config key named like one of the loop's keys must not replace the loop's value
    from typing import TypedDict

    from engine.checkpoint.memory import InMemorySaver
    from engine.graph import END, START, StateGraph

    class State(TypedDict):
        x: int

    builder = StateGraph(State)
    builder.add_node("inc", lambda s: {"x": s["x"] + 1})
    builder.add_edge(START, "inc")
    builder.add_edge("inc", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {
        "configurable": {"thread_id": "1", "user_id": "u", "step": 99, "source": "zz"},
        "metadata": {"m": 1, "tag": "a\x00b"},
    }
    graph.invoke({"x": 1}, config)
    history = [s.metadata for s in graph.get_state_history({"configurable": {"thread_id": "1"}})]
    extras = {"m": 1, "tag": "ab", "user_id": "u"}
    assert history == [
        {"source": "loop", "step": 1, "parents": {}, **extras},
        {"source": "loop", "step": 0, "parents": {}, **extras},
        {"source": "input", "step": -1, "parents": {}, **extras},
    ]
    assert all(list(m)[:3] == ["source", "step", "parents"] for m in history)
