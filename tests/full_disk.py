"""A folder on a full disk: a 64 KiB tmpfs filled to the brim when the test may mount (root on
Linux), else writes fail with ENOSPC after part of the data (monkeypatched), as a disk would."""

from __future__ import annotations

import contextlib
import errno
import os
import pathlib
import subprocess
import sys


def _enospc() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class _HalfWriter:
    """A file that takes half of what it is given, then reports the disk full."""

    def __init__(self, f) -> None:
        self.f = f

    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        raise _enospc()

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


class TinyDisk:
    def __init__(self, folder: pathlib.Path, monkeypatch) -> None:
        self.folder = folder
        self.monkeypatch = monkeypatch
        folder.mkdir(parents=True, exist_ok=True)
        self.mounted = sys.platform.startswith("linux") and self._mount()

    def _mount(self) -> bool:
        try:
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(self.folder)],
                                  capture_output=True, timeout=10)  # fmt: skip
        except (OSError, subprocess.SubprocessError):
            return False
        return done.returncode == 0

    def fill(self) -> None:
        """No room left from now on."""
        if self.mounted:
            fd = os.open(self.folder / ".filler", os.O_WRONLY | os.O_CREAT)
            try:
                while os.write(fd, b"\0" * 4096):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
            finally:
                os.close(fd)
            return
        real_fdopen, real_write_text = os.fdopen, pathlib.Path.write_text
        inside = str(self.folder)

        def write_text(path, data, *args, **kwargs):
            if not str(path).startswith(inside):
                return real_write_text(path, data, *args, **kwargs)
            real_write_text(path, data[: len(data) // 2], *args, **kwargs)
            raise _enospc()

        self.monkeypatch.setattr(os, "fdopen", lambda *a, **k: _HalfWriter(real_fdopen(*a, **k)))
        self.monkeypatch.setattr(pathlib.Path, "write_text", write_text)

    def files(self) -> list[str]:
        return sorted(p.name for p in self.folder.iterdir() if p.name != ".filler")

    def release(self) -> None:
        self.monkeypatch.undo()
        if self.mounted:
            subprocess.run(["umount", "-l", str(self.folder)], capture_output=True, timeout=10)


@contextlib.contextmanager
def tiny_disk(folder: pathlib.Path, monkeypatch):
    disk = TinyDisk(folder, monkeypatch)
    try:
        yield disk
    finally:
        disk.release()
