"""Writes schema_v1.sqlite: `python -m tests.engine.checkpoint.data.make_schema_v1` with the saver of schema 1 (main at
dc2f7b0, before the read-path layout); kept to show how the file was made, not to rerun.

Threads: 'grow' (40 steps of a growing list, then an interrupt, pending) and 'done' (3 steps,
interrupted, resumed to the end).
"""

import os
import sqlite3

from engine.checkpoint.sqlite import SCHEMA_VERSION, SqliteSaver
from engine.types import Command
from tests.engine.checkpoint.old_db_graph import build

assert SCHEMA_VERSION == 1, "this file records schema 1; write it with that version's saver"
PATH = os.path.join(os.path.dirname(__file__), "schema_v1.sqlite")

if os.path.exists(PATH):
    os.remove(PATH)
with SqliteSaver.from_conn_string(PATH) as saver:
    build(saver, 40).invoke(
        {"items": [], "n": 0}, {"configurable": {"thread_id": "grow"}, "recursion_limit": 100}
    )
    done, config = build(saver, 3), {"configurable": {"thread_id": "done"}}
    done.invoke({"items": [], "n": 0}, config)
    done.invoke(Command(resume="yes"), config)
conn = sqlite3.connect(PATH)
conn.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
conn.execute("VACUUM")
conn.close()
