"""Writes schema_v2.sqlite: `python -m tests.engine.checkpoint.data.make_schema_v2` with the saver of schema 2 (main at
d8aa4ee, before `checkpoints.step`); kept to show how the file was made, not to rerun.

Threads: 'grow' (30 steps of a growing list, then an interrupt, pending) and 'odd' (checkpoints
put by hand whose metadata `step` is missing, a bool, a float, text, null or an int; schema 2
could not store a huge one).
"""

import os
import sqlite3

from engine.checkpoint.base import empty_checkpoint
from engine.checkpoint.sqlite import SCHEMA_VERSION, SqliteSaver
from tests.engine.checkpoint.old_db_graph import build

assert SCHEMA_VERSION == 2, "this file records schema 2; write it with that version's saver"
PATH = os.path.join(os.path.dirname(__file__), "schema_v2.sqlite")
ODD_STEPS = [None, True, 2.0, "3", 4, 1, False, -1]
"""The 'odd' thread's metadata steps, oldest first (None: no `step` key, then one of null)."""

if os.path.exists(PATH):
    os.remove(PATH)
with SqliteSaver.from_conn_string(PATH) as saver:
    build(saver, 30).invoke(
        {"items": [], "n": 0}, {"configurable": {"thread_id": "grow"}, "recursion_limit": 100}
    )
    config = {"configurable": {"thread_id": "odd", "checkpoint_ns": ""}}
    for n, step in enumerate([*ODD_STEPS, "null"]):
        checkpoint = empty_checkpoint()
        checkpoint["channel_versions"] = {"v": saver.get_next_version(None)}
        checkpoint["channel_values"] = {"v": n}
        metadata = {"source": "loop"} if step is None else {"source": "loop", "step": step}
        if step == "null":
            metadata["step"] = None
        config = saver.put(config, checkpoint, metadata, checkpoint["channel_versions"])
conn = sqlite3.connect(PATH)
conn.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
conn.execute("VACUUM")
conn.close()
