"""What the studio keeps about threads beside the checkpoint database: a display name, when the
thread was created and last run, the run input last used on it and what the studio last saw of
it (`<db>.threads.json`). Opening the spec again starts on the thread run last.

The saver keys checkpoints by thread id and has no rename, so a rename changes the name shown,
never the id the checkpoints live under. A missing, unreadable or hostile file is an empty book.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

MAX_BOOK_BYTES = 4_000_000
LIVE_STATUSES = frozenset({"running", "paused", "stale"})
"""Statuses true only while the session that saw them holds the run."""


@dataclass
class ThreadInfo:
    thread_id: str
    name: str = ""
    created: str = ""
    input: Any = None
    status: str = ""
    """What the studio last saw of the thread: running, paused, interrupted, finished, failed."""
    last_step: int | None = None
    used: str = ""
    """When a run last started on it (ISO time)."""

    @property
    def label(self) -> str:
        return self.name or self.thread_id


def book_path(db: Path) -> Path:
    return db.with_name(db.name + ".threads.json")


class ThreadBook:
    def __init__(self, db: Path | None = None) -> None:
        self.path = book_path(db) if db is not None else None
        self.threads: dict[str, ThreadInfo] = {}
        if self.path is not None:
            self._read()

    def _read(self) -> None:
        try:
            if self.path.stat().st_size > MAX_BOOK_BYTES:
                return
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return
        if not isinstance(data, dict):
            return
        for thread_id, info in data.items():
            if isinstance(thread_id, str) and isinstance(info, dict):
                step = info.get("last_step")
                self.threads[thread_id] = ThreadInfo(
                    thread_id, str(info.get("name") or ""), str(info.get("created") or ""), info.get("input"),
                    str(info.get("status") or ""), step if type(step) is int else None,
                    str(info.get("used") or ""))  # fmt: skip

    def save(self) -> None:
        if self.path is None:
            return
        data = {t: {"name": i.name, "created": i.created, "input": i.input, "status": i.status,
                    "last_step": i.last_step, "used": i.used} for t, i in self.threads.items()}  # fmt: skip
        tmp = self.path.with_name(self.path.name + ".tmp")
        # a full disk or a read-only folder loses the names, never the checkpoints: say nothing
        with contextlib.suppress(OSError, TypeError, ValueError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)

    def get(self, thread_id: str) -> ThreadInfo:
        info = self.threads.get(thread_id)
        if info is None:
            info = self.threads[thread_id] = ThreadInfo(
                thread_id, created=datetime.now().isoformat(timespec="seconds")
            )
        return info

    def note(self, thread_id: str, **fields: Any) -> None:
        info = self.get(thread_id)
        for key, value in fields.items():
            setattr(info, key, value)
        self.save()

    def ran(self, thread_id: str) -> None:
        """A run starts on the thread now."""
        self.note(thread_id, used=datetime.now().isoformat())

    def last_run(self, among: list[str]) -> str | None:
        """Of the threads `among`, the one a run started on last (None: no run the book saw)."""
        used = [(info.used, t) for t in among if (info := self.threads.get(t)) and info.used]
        return max(used)[1] if used else None

    def forget(self, thread_id: str) -> None:
        if self.threads.pop(thread_id, None) is not None:
            self.save()
