"""What the SQLite saver says when a database cannot be used: one error naming the file."""

from __future__ import annotations

import os
import sqlite3


class CheckpointDatabaseError(sqlite3.DatabaseError):
    """The checkpoint database cannot be used; the message names the file and why."""


def database_path(conn: sqlite3.Connection) -> str:
    """The file `conn` has open as its main database (":memory:" for none), for messages."""
    try:
        for _, name, file in conn.execute("PRAGMA database_list"):
            if name == "main":
                return file or ":memory:"
    except sqlite3.Error:
        pass
    return "<sqlite database>"


def read_only_folder_note(path: str) -> str:
    """' (the folder F is read-only)' if the file's folder cannot be written, else ''."""
    if path.startswith(":") or path.startswith("<"):
        return ""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(folder) and not os.access(folder, os.W_OK):
        return f" (the folder {folder} is read-only)"
    return ""


def explain(exc: sqlite3.Error, path: str, timeout: float | None) -> CheckpointDatabaseError:
    """SQLite's terse error as one naming the file and what to do; a misuse of the connection
    (a bug to see as it is) is re-raised unchanged."""
    text = str(exc).lower()
    note = read_only_folder_note(path)
    if "locked" in text or "busy" in text:
        waited = f" after waiting {timeout:g}s" if timeout is not None else ""
        msg = f"{path}: the database is locked by another connection or process; gave up{waited}"
    elif "readonly" in text or "read-only" in text:
        msg = f"{path}: the database is read-only; cannot save checkpoints in it{note}"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        msg = f"{path}: not a usable SQLite database (corrupt or another kind of file)"
    elif "unable to open" in text:
        msg = f"{path}: cannot open the database file{note}"
    elif "disk i/o" in text:
        msg = (f"{path}: the disk failed to read or write the database (full disk, a removed "
               f"drive, or its -journal/-wal/-shm files cannot be made){note}")  # fmt: skip
    elif isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError)):
        raise exc
    else:
        msg = f"{path}: the checkpoint database failed"
    return CheckpointDatabaseError(f"{msg} ({exc})")


def connect(path: str, timeout: float) -> sqlite3.Connection:
    """A connection for a saver; a path that cannot be a database file is refused by name."""
    if os.path.isdir(path):
        raise CheckpointDatabaseError(f"{path}: is a directory, not a checkpoint database file")
    try:
        return sqlite3.connect(path, check_same_thread=False, timeout=timeout)
    except sqlite3.Error as exc:
        raise CheckpointDatabaseError(
            f"{path}: cannot open database{read_only_folder_note(path)} ({exc})"
        ) from exc
