"""The studio's own files: the recent list, trusted specs, and autosaves for crash recovery.

Each window session writes its unsaved spec to `autosave/<session>.json` a moment after each
edit and holds `autosave/<session>.lock` (a QLockFile) while it runs. On start, an autosave
whose lock nobody holds belongs to a session that crashed, was killed, or closed with unsaved
work: it is offered back. Saving removes it. Work the window leaves unsaved (the user chose
Don't save, or another document replaced it) is set aside as `autosave/aside-<time>-<id>.json`,
which no session holds: it is offered back at once and on later starts, until recovered or
discarded in the recovery banner (the newest MAX_ASIDE are kept).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from graphspec.errors import SpecValidationError
from graphspec.io import dumps_spec, load_spec
from graphspec.model import GraphSpec
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.paths import studio_home

MAX_RECENT = 10
MAX_ASIDE = 20
"""Set-aside work kept at most; older ones are deleted when another is set aside."""
WHY_TEXT = {
    "discarded": QT_TRANSLATE_NOOP("files", "you chose not to save"),
    "replaced": QT_TRANSLATE_NOOP("files", "left when another graph opened"),
}


def _read_json(path: Path, default):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default


def _write_json(path: Path, data) -> None:
    """Write beside and rename over: on failure (a full disk) the old file stays, no .tmp left."""
    tmp = path.with_suffix(".tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ------------------------------------------------------------------ recent files and trust


def recent_files() -> list[Path]:
    items = _read_json(studio_home() / "recent.json", [])
    return [Path(p) for p in items if isinstance(p, str) and Path(p).exists()][:MAX_RECENT]


def add_recent(path: Path) -> None:
    path = path.resolve()
    items = [str(path)] + [str(p) for p in recent_files() if p.resolve() != path]
    _write_json(studio_home() / "recent.json", items[:MAX_RECENT])


def is_trusted(digest: str) -> bool:
    """Whether the user trusted these exact bytes before: `Closure.digest`, the spec and every
    subgraph file it pulls in (any of them changed asks again)."""
    return digest in _read_json(studio_home() / "trusted.json", [])


def remember_trust(digest: str) -> None:
    items = _read_json(studio_home() / "trusted.json", [])
    items = items if isinstance(items, list) else []
    items = [*(i for i in items if i != digest), digest][-500:]
    try:
        _write_json(studio_home() / "trusted.json", items)
    except OSError:
        pass  # trust is asked again next time: safe


# ------------------------------------------------------------------ autosave and recovery


@dataclass
class Recovery:
    """Unsaved work left by another session."""

    file: Path
    spec: GraphSpec
    original: Path | None
    saved_at: float
    why: str = ""
    """Why it was set aside ("discarded", "replaced"); empty for a session that ended."""

    def describe(self) -> str:
        name = (
            self.original.name
            if self.original
            else (self.spec.name or translate("files", "an untitled graph"))
        )
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))
        if self.why in WHY_TEXT:
            return translate(
                "files", "Unsaved work on {name} ({value}, {when}) can be recovered."
            ).format(name=name, value=translate("files", WHY_TEXT[self.why]), when=when)
        return translate(
            "files", "Unsaved work on {name} (autosaved {when}) can be recovered."
        ).format(name=name, when=when)

    def discard(self) -> None:
        self.file.unlink(missing_ok=True)


def _lock_file(path: Path):
    """A session's lock. Qt is imported here, not above: saved tests read the trust record
    from pytest, without Qt."""
    from PySide6.QtCore import QLockFile

    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)
    return lock


class AutosaveSession:
    """This window's autosave slot: write, clear, and find other sessions' leftovers."""

    def __init__(self) -> None:
        self.folder = studio_home() / "autosave"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.id = uuid.uuid4().hex[:12]
        self.file = self.folder / f"{self.id}.json"
        self.lock = _lock_file(self.folder / f"{self.id}.lock")
        self.lock.tryLock(0)

    def write(self, spec: GraphSpec, original: Path | None) -> None:
        _write_json(self.file, _record(spec, original))

    def set_aside(self, spec: GraphSpec, original: Path | None, why: str) -> None:
        """Keep work this window leaves unsaved as a leftover no session holds (offered back
        here and on later starts), in place of this session's autosave."""
        file = self.folder / f"aside-{time.time_ns()}-{uuid.uuid4().hex[:6]}.json"
        _write_json(file, {**_record(spec, original), "why": why})
        self.clear()
        for old in sorted(self.folder.glob("aside-*.json"))[:-MAX_ASIDE]:
            old.unlink(missing_ok=True)

    def clear(self) -> None:
        self.file.unlink(missing_ok=True)

    def close(self, keep: bool) -> None:
        """End the session; with `keep`, its unsaved work stays to be offered next time."""
        if not keep:
            self.clear()
        self.lock.unlock()

    def leftovers(self) -> list[Recovery]:
        """Autosaves of sessions that are not running any more, newest first."""
        found = []
        for file in self.folder.glob("*.json"):
            if file == self.file:
                continue
            lock = _lock_file(file.with_suffix(".lock"))
            if not lock.tryLock(0):
                continue  # that session is alive
            lock.unlock()
            data = _read_json(file, None)
            try:
                spec = load_spec(data["spec"])
            except (TypeError, KeyError, SpecValidationError):
                continue  # not ours, or damaged: leave it for a human to look at
            original = Path(data["original"]) if data.get("original") else None
            found.append(Recovery(file, spec, original, float(data.get("saved_at") or 0),
                                  str(data.get("why") or "")))  # fmt: skip
        return sorted(found, key=lambda r: -r.saved_at)


def _record(spec: GraphSpec, original: Path | None) -> dict:
    return {"original": str(original) if original else None, "saved_at": time.time(),
            "pid": os.getpid(), "spec": dumps_spec(spec)}  # fmt: skip
