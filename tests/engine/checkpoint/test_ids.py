"""Checkpoint ids sort by creation; checkpoint timestamps read as datetime.isoformat writes them."""

import random
import uuid
from datetime import UTC, datetime

import pytest

from engine.checkpoint import ids
from engine.checkpoint.base import create_checkpoint, empty_checkpoint


def test_ids_are_version_6_and_increase():
    made = [ids.uuid6() for _ in range(2000)]
    assert made == sorted(made) and len(set(made)) == len(made)
    assert {uuid.UUID(i).version for i in made} == {6}
    assert {uuid.UUID(i).variant for i in made} == {uuid.RFC_4122}


@pytest.mark.parametrize("clock_seq", [None, -2, 0, 7, 0x4001])
def test_an_id_is_langgraphs_uuid6_from_the_same_time_and_random_draws(monkeypatch, clock_seq):
    """The same text as langgraph's uuid6 for the same clock and seed, and the global `random`
    left in the same state (getrandbits(14) unless the clock sequence is given, then 48)."""
    from langgraph.checkpoint.base import id as lg_id

    monkeypatch.setattr(ids, "_last", 0)
    monkeypatch.setattr(lg_id, "_last_v6_timestamp", None)
    # two times in one prefix window, then one in the next (the prefix text is kept between)
    for ns in (1_700_000_000_123_456_700, 1_700_000_000_123_456_800, 1_700_000_000_623_456_700):
        monkeypatch.setattr(ids.time, "time_ns", lambda ns=ns: ns)
        random.seed(ns)
        expected = str(lg_id.uuid6(clock_seq=clock_seq))
        after = random.random()
        monkeypatch.setattr(lg_id, "_last_v6_timestamp", None)
        random.seed(ns)
        assert ids.uuid6(clock_seq) == expected
        assert random.random() == after


@pytest.mark.parametrize(
    "ns",
    [
        0,
        1_700_000_000_000_000_000,  # a whole second: no microseconds written
        1_700_000_000_000_001_999,  # nanoseconds are dropped, not rounded
        1_700_000_000_123_456_789,
        1_700_000_000_999_999_999,
        1_700_000_001_000_000_000,  # the next second after one already formatted
        1_709_251_199_999_999_000,  # the end of a leap-year February
    ],
)
def test_timestamps_match_datetime_isoformat(monkeypatch, ns):
    monkeypatch.setattr(ids.time, "time_ns", lambda: ns)
    micros = ns // 1000
    expected = datetime.fromtimestamp(micros // 1_000_000, UTC)
    expected = expected.replace(microsecond=micros % 1_000_000).isoformat()
    assert ids.utc_now_iso() == expected


def test_a_checkpoint_timestamp_is_now():
    before = datetime.now(UTC)
    ts = create_checkpoint(empty_checkpoint(), None, 1)["ts"]
    assert before <= datetime.fromisoformat(ts) <= datetime.now(UTC)


def test_channel_versions_are_langgraphs_for_the_same_seed():
    """The in-memory saver's next versions, counter and random suffix, have langgraph's text
    (20,000 draws reach suffixes written with an exponent, such as 1.2e-05)."""
    from langgraph.checkpoint.memory import InMemorySaver as LgSaver

    from engine.checkpoint.memory import InMemorySaver

    def versions(saver) -> list[str]:
        random.seed(11)
        made, current = [], None
        for _ in range(20_000):
            current = saver.get_next_version(current, None)
            made.append(current)
        return made

    ours, theirs = versions(InMemorySaver()), versions(LgSaver())
    assert ours == theirs
    assert any("e-" in v for v in ours)


def test_next_versions_from_any_current_are_langgraphs():
    """Drawn from the last version drawn, an older one, one of another saver, a copy of a
    drawn one, an int or None: the same versions as langgraph's for the same seed."""
    from langgraph.checkpoint.memory import InMemorySaver as LgSaver

    from engine.checkpoint.memory import InMemorySaver

    def versions(saver) -> list[str]:
        random.seed(5)
        pick = random.Random(8)
        made: list = [None]
        for _ in range(3000):
            kind = pick.random()
            if kind < 0.5:
                current = made[-1]
            elif kind < 0.7:
                current = pick.choice(made)
            elif kind < 0.8:
                current = "".join(str(pick.choice(made[1:] or ["7.0"])))  # equal, not the same
            elif kind < 0.9:
                current = pick.randint(0, 99)
            else:
                current = f"{pick.randint(0, 10**6):032}.0.5"
            made.append(saver.get_next_version(current, None))
        return made

    assert versions(InMemorySaver()) == versions(LgSaver())
