"""A failure's traceback as the developer reads it: from the first frame of their own code.

An exception raised in a node travels up through the engine's superstep runner and the studio's
worker before the studio catches it, and Python records every one of those frames first: the
line that raised came last, below a screenful of machinery. The frames before the first one
outside the studio, the engine, the spec package and the standard library are left out (and
counted); everything from that frame on is kept, library calls included. An error raised by the
machinery itself (no user frame at all) keeps its whole traceback.
"""

from __future__ import annotations

import sysconfig
import traceback
from pathlib import Path

import engine
import graphspec
import studio
from studio.i18n import translate

PACKAGES = tuple(Path(p.__file__).parent.resolve() for p in (engine, graphspec, studio))
STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()
INSTALLED = {"site-packages", "dist-packages"}
"""Where the run's machinery lives: our packages, and the standard library (threads, asyncio)
but not the packages installed inside it on some systems."""


def is_machinery(filename: str) -> bool:
    if filename.startswith("<"):  # a spec's inline code (`<spec node>`) is the user's
        return False
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError):
        return False
    if any(path.is_relative_to(package) for package in PACKAGES):
        return True
    return path.is_relative_to(STDLIB) and not INSTALLED & set(path.parts)


def _trim(te: traceback.TracebackException, seen: set[int]) -> int:
    """Drop the leading machinery frames of `te` and of the exceptions chained to it; how many
    were dropped from `te` itself."""
    dropped = 0
    if id(te) not in seen:
        seen.add(id(te))
        frames = list(te.stack)
        first = next((i for i, f in enumerate(frames) if not is_machinery(f.filename)), None)
        if first:  # None (all machinery) and 0 (starts in user code) keep every frame
            te.stack = traceback.StackSummary.from_list(frames[first:])
            dropped = first
        for chained in (te.__cause__, te.__context__):
            if chained is not None:
                _trim(chained, seen)
    return dropped


def user_frames(exc: BaseException) -> list[traceback.FrameSummary]:
    """The frames of `exc`'s traceback from the first one in the program's code (all of them
    when none is)."""
    te = traceback.TracebackException.from_exception(exc)
    _trim(te, set())
    return list(te.stack)


def user_traceback(exc: BaseException) -> str:
    """`exc` formatted as Python does, without the machinery frames before the program's."""
    te = traceback.TracebackException.from_exception(exc)
    dropped = _trim(te, set())
    text = "".join(te.format())
    if not dropped:
        return text
    note = translate(
        "run.user_frames", "({count} frames of the studio and engine above your code left out)"
    ).format(count=dropped)
    return f"{note}\n{text}"


def where_raised(exc: BaseException) -> str:
    """One line naming the deepest frame of the program's own code (not the machinery's, not an
    installed package's): the line a developer opens first. Empty when there is none."""
    frames = [
        f
        for f in user_frames(exc)
        if not is_machinery(f.filename) and not INSTALLED & set(Path(f.filename).parts)
    ]
    if not frames:
        return ""
    frame = frames[-1]
    return translate("run.user_frames", "at {file}, line {line}, in {function}: {code}").format(
        file=Path(frame.filename).name,
        line=frame.lineno,
        function=frame.name,
        code=(frame.line or "").strip(),
    )
