"""Each recorded call keeps when it started and ended (its latency, on the studio's timeline);
a recording written before calls were timed opens with the two columns added, empty."""

from __future__ import annotations

import sqlite3
import time

from engine.record import RecordingStore
from tests.engine.record.conftest import recorded_run

OLD_TABLE = """CREATE TABLE record_calls (
    thread_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL, kind TEXT NOT NULL,
    node TEXT NOT NULL, task_id TEXT, step INTEGER, call_index INTEGER NOT NULL,
    checkpoint_id TEXT, input_hash TEXT NOT NULL, input TEXT NOT NULL, output TEXT,
    error TEXT, served TEXT NOT NULL DEFAULT 'live',
    PRIMARY KEY (thread_id, seq)) WITHOUT ROWID"""


def test_each_call_is_timed(server, saver):
    before = time.time()
    recorded_run(server, saver)
    calls = RecordingStore.for_saver(saver).calls("t")
    assert [c.kind for c in calls] == ["model", "tool", "model"]
    for call in calls:
        assert before <= call.started <= call.ended <= time.time()
        assert call.latency == call.ended - call.started
    assert calls[0].ended <= calls[1].started and calls[1].ended <= calls[2].started


def test_a_recording_from_before_timing_opens_with_its_calls_untimed(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute(OLD_TABLE)
        conn.execute("INSERT INTO record_calls VALUES "
                     "('t', 0, 'r', 'tool', 'tools', NULL, 1, 0, NULL, 'h', '{}', '5', NULL, 'live')")  # fmt: skip
    store = RecordingStore(str(path))
    [call] = store.calls("t")
    assert (call.output, call.started, call.ended, call.latency) == ("5", None, None, None)
    store.add_call(call.__class__(**{**call.__dict__, "seq": 1, "started": 1.0, "ended": 1.5}))
    assert [c.latency for c in store.calls("t")] == [None, 0.5]
