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
