"""The on-disk form of a spec: JSON text, versions and migrations, atomic saves.

    load_spec(text)        -> GraphSpec, or SpecValidationError listing every problem by JSON path
    read_spec_bytes(path)  a spec file's bytes: a regular file under MAX_SPEC_BYTES, or an error
    read_spec(path)        the same as load_spec, from a file
    dumps_spec(spec)       byte-stable JSON: fields in model order, defaults left out, version first
    save_spec(spec, path)  writes a temporary file beside `path` and renames it over: never partial
    write_atomic(path, b)  the same for any bytes (export -o)

Older documents are upgraded by `migrate` one version at a time before validation.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graphspec.errors import Finding, SpecError, SpecValidationError
from graphspec.model import SPEC_VERSION, GraphSpec

MAX_SPEC_BYTES = 20_000_000


# ------------------------------------------------------------------ JSON paths


def json_path(parts: tuple[Any, ...] | list[Any]) -> str:
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(str(part))}]"
    return out


def _doc_location(loc: tuple[Any, ...], doc: Any) -> tuple[list[Any], str | None]:
    """The pydantic error location as a path in the document (union tags such as `function` or
    `list[str]` dropped), and the id of the innermost element on the way that has one."""
    parts: list[Any] = []
    element_id = None
    current = doc
    missing = False
    for part in loc:
        if isinstance(current, dict) and isinstance(current.get("id"), str):
            element_id = current["id"]
        if missing:
            parts.append(part)
        elif isinstance(current, dict) and part == current.get("kind"):
            continue  # the tag of a discriminated union member
        elif isinstance(current, dict) and part in current:
            parts.append(part)
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current):
            parts.append(part)
            current = current[part]
        elif isinstance(part, str) and not (isinstance(current, dict) and part.isidentifier()):
            continue  # a union member's tag (`list[str]`), not a place in the document
        else:
            parts.append(part)
            missing = True
    if isinstance(current, dict) and isinstance(current.get("id"), str):
        element_id = current["id"]
    return parts, element_id


def _message(err: dict[str, Any]) -> str:
    """pydantic's message, reworded where it speaks of its internals rather than the file."""
    if err["type"] == "union_tag_not_found":
        field = str(err.get("ctx", {}).get("discriminator", "kind")).strip("'")
        return f"has no '{field}' field saying what kind of element it is"
    if err["type"] == "value_error":  # our own validators' words, without pydantic's prefix
        return err["msg"].removeprefix("Value error, ")
    return err["msg"]


def problems_from(error: ValidationError, doc: Any) -> list[Finding]:
    problems = []
    seen = set()
    for err in error.errors(include_url=False):
        parts, element_id = _doc_location(tuple(err["loc"]), doc)
        problem = Finding(json_path(parts), _message(err), element_id)
        if (problem.path, problem.message) not in seen:
            seen.add((problem.path, problem.message))
            problems.append(problem)
    return problems


# ------------------------------------------------------------------ migrations


def _dicts(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = doc.get(key)
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 1 named a node's kind `type` and gave each edge a single `source`."""
    for node in _dicts(doc, "nodes"):
        if "type" in node and "kind" not in node:
            node["kind"] = node.pop("type")
    for edge in _dicts(doc, "edges"):
        if "source" in edge and "sources" not in edge:
            edge["sources"] = [edge.pop("source")]
    for sub in _dicts(doc, "subgraphs"):
        if isinstance(sub.get("graph"), dict):
            sub["graph"].setdefault("version", 1)
            sub["graph"] = migrate(sub["graph"])
    return doc


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}
"""version -> function upgrading a document of that version to the next."""


def migrate(doc: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a raw document to SPEC_VERSION (a document without a version is version 1)."""
    version = doc.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SpecValidationError([Finding("$.version", "version must be a positive integer")])
    if version > SPEC_VERSION:
        raise SpecValidationError(
            [
                Finding(
                    "$.version",
                    f"written by a newer Superstep (spec version {version}; this one reads up to "
                    f"{SPEC_VERSION})",
                )
            ]
        )
    while version < SPEC_VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
        doc["version"] = version
    return doc


# ------------------------------------------------------------------ load and save


def load_spec(text: str | bytes) -> GraphSpec:
    """Parse, migrate and validate a spec document."""
    if len(text) > MAX_SPEC_BYTES:
        raise SpecValidationError([Finding("$", f"larger than {MAX_SPEC_BYTES} bytes")])
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SpecValidationError([Finding("$", f"not JSON: {exc}")]) from None
    return spec_from_dict(doc)


def non_finite_numbers(doc: Any) -> list[Finding]:
    """NaN and ±Infinity anywhere in a document (JSON has neither; Python's parser lets them in,
    and 1e400 reads as infinity): the canvas cannot place an item at NaN."""
    problems: list[Finding] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:  # a loop, not recursion: documents may nest deeply
        value, parts = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            what = "NaN" if math.isnan(value) else "infinite"
            problems.append(Finding(json_path(parts), f"is {what}: numbers must be finite"))
        elif isinstance(value, dict):
            stack += [(v, (*parts, k)) for k, v in reversed(value.items())]
        elif isinstance(value, list):
            stack += [(v, (*parts, i)) for i, v in reversed(list(enumerate(value)))]
    return problems


def spec_from_dict(doc: Any) -> GraphSpec:
    if not isinstance(doc, dict):
        raise SpecValidationError([Finding("$", "a spec is a JSON object")])
    if problems := non_finite_numbers(doc):
        raise SpecValidationError(problems)
    try:
        doc = migrate(json.loads(json.dumps(doc)))  # a private copy: migrations edit in place
        return GraphSpec.model_validate(doc)
    except ValidationError as exc:
        raise SpecValidationError(problems_from(exc, doc)) from None
    except RecursionError:
        raise SpecValidationError([Finding("$", "nested too deeply")]) from None


def read_spec_bytes(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a spec file; the one place spec files are read (CLI, studio, subgraph files,
    trust hashes). Only a regular file, at most MAX_SPEC_BYTES: a device never ends and a FIFO
    without a writer blocks forever (opened non-blocking, so checking it cannot hang)."""
    name = os.fspath(path)

    def refuse(why: str) -> SpecValidationError:
        return SpecValidationError([Finding("$", f"cannot read {name}: {why}")])

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refuse("not a regular file (a folder, device or pipe)")
        if info.st_size > MAX_SPEC_BYTES:
            raise refuse(f"larger than {MAX_SPEC_BYTES} bytes")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):  # the size cap holds even if the file grows
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_SPEC_BYTES:
                raise refuse(f"larger than {MAX_SPEC_BYTES} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise refuse(exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def read_spec(path: str | os.PathLike[str]) -> GraphSpec:
    return load_spec(read_spec_bytes(path))


def spec_to_dict(spec: GraphSpec) -> dict[str, Any]:
    data = spec.model_dump(mode="json", exclude_defaults=True)
    data.pop("version", None)
    return {"version": spec.version, **data}


def dumps_spec(spec: GraphSpec) -> str:
    return json.dumps(spec_to_dict(spec), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def save_spec(spec: GraphSpec, path: str | os.PathLike[str]) -> bytes:
    """Write atomically: the file holds either its old bytes or the whole new spec. Returns the
    bytes written (what a trust digest of the saved file must hash)."""
    data = dumps_spec(GraphSpec.model_validate(spec_to_dict(spec))).encode("utf-8")
    write_atomic(path, data)
    return data


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """A temporary file beside `path`, renamed over it: never a partial file, even when the disk
    fills up (the temporary file is removed and the error raised)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with _suppress_os_error():
            os.unlink(tmp)
        raise


class _suppress_os_error:
    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        return exc_type is not None and issubclass(exc_type, OSError)


MAX_SUBGRAPH_DEPTH = 8


def resolve_subgraph(
    sub: Any, base_dir: str | os.PathLike[str] | None, depth: int = 0
) -> GraphSpec:
    """The graph of a `Subgraph`: inline, or read from `file` relative to `base_dir`."""
    if depth >= MAX_SUBGRAPH_DEPTH:
        raise SpecError(f"subgraphs nested deeper than {MAX_SUBGRAPH_DEPTH}", element_id=sub.id)
    if sub.graph is not None:
        return sub.graph
    if base_dir is None:
        raise SpecError(
            f"subgraph file {sub.file!r} needs the spec's folder to resolve it", element_id=sub.id
        )
    try:
        return read_spec(Path(base_dir) / sub.file)
    except SpecValidationError as exc:
        raise SpecError(f"subgraph file {sub.file}: {exc}", element_id=sub.id) from None


def subgraph_dir(sub: Any, base_dir: str | os.PathLike[str] | None) -> Any:
    """The folder a `Subgraph`'s own subgraph files are relative to: its file's, or the parent's."""
    if sub.file is None or base_dir is None:
        return base_dir
    return os.path.dirname(os.path.join(base_dir, sub.file))


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the spec format (graphspec/schema.json)."""
    schema = GraphSpec.model_json_schema(mode="validation")
    schema["$id"] = "https://superstep.studio/schema/graph-spec.json"
    schema["title"] = f"Superstep graph spec, version {SPEC_VERSION}"
    return schema


def dumps_json_schema() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


SCHEMA_PATH = Path(__file__).with_name("schema.json")


__all__ = [
    "MIGRATIONS",
    "SCHEMA_PATH",
    "migrate",
    "load_spec",
    "read_spec",
    "read_spec_bytes",
    "non_finite_numbers",
    "spec_from_dict",
    "spec_to_dict",
    "dumps_spec",
    "save_spec",
    "write_atomic",
    "json_path",
    "resolve_subgraph",
    "subgraph_dir",
    "json_schema",
    "dumps_json_schema",
]

if __name__ == "__main__":  # python -m graphspec.io: regenerate graphspec/schema.json
    SCHEMA_PATH.write_text(dumps_json_schema(), encoding="utf-8")
