"""What a saved test may run. Its data file is data someone else may have edited: the only thing
taken from it is the spec's relative path, and that must stay inside the test's project; whether
the spec's code may run is never read from it.

The project of a test is the nearest folder at or above the test's folder that holds a project
marker (`PROJECT_MARKERS`: pyproject.toml, setup.cfg, setup.py, pytest.ini, tox.ini, .git);
without one, the folder that holds the test's folder (`tests/` beside the spec: the spec's
folder). The spec must resolve there, symlinks followed, to a file.

A spec with Python code runs only when trusted: `superstep test --trust` (which sets
`TRUST_ENV=1` for the pytest it starts; CI may set it too), or the studio's trust record holds
the spec's exact bytes and those of its subgraph files (opening it in the studio and trusting
it leaves that). The Tests dock asks the record only. A graph from code's test names its program
(the same project rule) and runs only with `--trust`, or in the Tests dock of the studio that has
that program open (the user agreed to run it there).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

TRUST_ENV = "SUPERSTEP_TRUST_SAVED_TESTS"
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", "tox.ini", ".git")
TRUST_HINT = "run `superstep test --trust`, or open the spec in Superstep Studio and trust it"
PROGRAM_TRUST_HINT = "run `superstep test --trust`, or run it from the studio with the program open"


class Refused(ValueError):
    """A saved test that must not run as it is; the message says why."""


def project_root(test_folder: Path) -> Path:
    folder = test_folder.resolve()
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in PROJECT_MARKERS):
            return candidate
    return folder.parent


def spec_in_project(test_folder: Path, spec: Any) -> Path:
    """The spec file `spec` (relative to the test's folder) names, refused outside the project."""
    if not isinstance(spec, str) or not spec:
        raise Refused(f"its spec is {spec!r}, not a path relative to the test")
    from graphspec.model import portable_path

    root = project_root(test_folder)
    path = (test_folder.resolve() / portable_path(spec)).resolve()
    if not path.is_relative_to(root):
        raise Refused(f"its spec {spec!r} resolves to {path}, outside the test's project {root} "
                      "(a saved test's spec must be inside it)")  # fmt: skip
    if not path.is_file():
        raise Refused(f"its spec {spec!r} is not a file ({path})")
    return path


def trusted_by_user(spec_path: Path) -> bool:
    """Whether the studio's trust record holds these very bytes (and its subgraph files'), as
    opening the spec would ask. No studio, no record: not trusted."""
    from graphspec.io import load_spec, read_spec_bytes
    from graphspec.trust import closure, digest

    try:
        from studio import files

        data = read_spec_bytes(spec_path)
        found = closure(load_spec(data), spec_path.parent)
        return files.is_trusted(found.digest(digest(data)))
    except Exception:  # unreadable (the test fails on loading it, saying why), or no Qt
        return False


def may_run_code(spec_path: Path) -> bool:
    """A pytest run's rule: `superstep test --trust` (or the environment) or the trust record."""
    return os.environ.get(TRUST_ENV) == "1" or trusted_by_user(spec_path)


def may_run_program(_path: Path | None = None) -> bool:
    """A program (a graph from code) is all code: only `superstep test --trust` (or the
    environment) runs it from pytest; the studio's Tests dock runs the program it has open."""
    return os.environ.get(TRUST_ENV) == "1"


def refuse_untrusted(spec: Any, spec_path: Path) -> None:
    """Refuse, naming them, a spec's code sites (its subgraph files' too) when not trusted."""
    from graphspec.trust import closure

    sites = closure(spec, spec_path.parent).sites
    if sites:
        names = ", ".join(dict.fromkeys(s.element_id for s in sites))
        what = "Python code" if any(s.code != "folder-access" for s in sites) else "folder access"
        raise Refused(f"spec {spec_path.name} carries {what} ({names}), which a saved test runs "
                      f"only when trusted: {TRUST_HINT}")  # fmt: skip
