"""Datasets: files of examples a graph runs over (JSONL or CSV), loaded, checked and saved.

A JSONL dataset has one JSON object per line:

    {"id": "refund", "input": {...}, "expected": {"category": "billing"},
     "reference": {...}, "metadata": {"source": "ticket 812"}}

`input` is the graph's input state; `expected` the values scorers check (a key's value, a JSON
path's, a trajectory); `reference` a reference output (a whole final state, or the last
message); `metadata` is free. A line holding only `{"scorers": [...]}` names the scorers the
dataset is scored with by default (the `--scorer` syntax, `graphspec.evals.scorers`).

A CSV dataset has a header row: `id`, then `input.KEY`, `expected.KEY`, `reference.KEY` and
`metadata.KEY` columns (a cell is JSON when it parses as JSON, else text), or whole `input`,
`expected`, `reference` columns holding JSON objects; any other column is metadata.

A spec's datasets are the files beside it named `SPEC.*.jsonl` or `SPEC.*.csv`.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphspec.errors import BadInput
from graphspec.io import write_atomic

SECTIONS = ("input", "expected", "reference", "metadata")
SUFFIXES = (".jsonl", ".csv")


@dataclass
class Example:
    id: str
    input: dict[str, Any]
    expected: dict[str, Any] = field(default_factory=dict)
    reference: Any = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "input": self.input}
        if self.expected:
            out["expected"] = self.expected
        if self.reference is not None:
            out["reference"] = self.reference
        if self.metadata:
            out["metadata"] = self.metadata
        return out


@dataclass
class Dataset:
    path: Path
    examples: list[Example]
    scorers: list[str] = field(default_factory=list)
    """The scorers named in the file (JSONL only); the caller's `--scorer`s replace them."""

    @property
    def name(self) -> str:
        return self.path.stem


def datasets_beside(spec_path: Path) -> list[Path]:
    """The dataset files of a spec: `SPEC.*.jsonl` / `SPEC.*.csv` in its folder."""
    folder, stem = spec_path.parent, spec_path.stem
    return sorted(p for s in SUFFIXES for p in folder.glob(f"{stem}.*{s}") if p.is_file())


def load_dataset(path: str | Path) -> Dataset:
    """The examples of a JSONL or CSV file; BadInput, one line per problem naming the file and
    line, when it cannot be read or an example is malformed."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise BadInput(f"{path}: a dataset is a .jsonl or .csv file")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's CSV starts with a BOM
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(
            f"{path}: cannot read the dataset: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    if path.suffix.lower() == ".csv":
        return _checked(path, *_from_csv(path, text), [])
    return _checked(path, *_from_jsonl(path, text))


def _from_jsonl(path: Path, text: str) -> tuple[list[tuple[int, Any]], list[str], list[str]]:
    rows, problems, scorers = [], [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            problems.append(f"{path}:{number}: not JSON: {exc}")
            continue
        if isinstance(value, dict) and set(value) == {"scorers"}:
            if not (isinstance(value["scorers"], list)
                    and all(isinstance(s, str) for s in value["scorers"])):  # fmt: skip
                problems.append(f"{path}:{number}: 'scorers' must be a list of strings")
            else:
                scorers.extend(value["scorers"])
            continue
        rows.append((number, value))
    return rows, problems, scorers


def _cell(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _from_csv(path: Path, text: str) -> tuple[list[tuple[int, Any]], list[str]]:
    rows, problems = [], []
    reader = csv.DictReader(io.StringIO(text))
    for record in reader:
        number = reader.line_num
        row: dict[str, Any] = {}
        for column, cell in record.items():
            if column is None:
                problems.append(f"{path}:{number}: more cells than the header has columns")
                continue
            if cell is None or cell == "":
                continue
            section, dot, key = column.partition(".")
            if column == "id":
                row["id"] = cell
            elif section in SECTIONS and dot and key:
                row.setdefault(section, {})[key] = _cell(cell)
            elif column in SECTIONS:
                row[column] = _cell(cell)
            else:
                row.setdefault("metadata", {})[column] = cell
        rows.append((number, row))
    return rows, problems


def _checked(path: Path, rows: list[tuple[int, Any]], problems: list[str],
             scorers: list[str]) -> Dataset:  # fmt: skip
    examples, seen = [], set()
    for number, row in rows:
        where = f"{path}:{number}"
        if not isinstance(row, dict):
            problems.append(f"{where}: an example is a JSON object, not {type(row).__name__}")
            continue
        unknown = sorted(set(row) - {"id", *SECTIONS})
        if unknown:
            problems.append(f"{where}: unknown field(s) {', '.join(unknown)} (known: id, "
                            f"{', '.join(SECTIONS)})")  # fmt: skip
        run_input = row.get("input")
        if not isinstance(run_input, dict):
            problems.append(f"{where}: 'input' must be a JSON object (the graph's input state)")
            continue
        for section in ("expected", "metadata"):
            if not isinstance(row.get(section, {}), dict):
                problems.append(f"{where}: '{section}' must be a JSON object")
        example_id = str(row.get("id") or f"example-{len(examples) + 1}")
        if example_id in seen:
            problems.append(f"{where}: id {example_id!r} is used by an earlier example")
        seen.add(example_id)
        examples.append(Example(example_id, run_input, dict(row.get("expected") or {}),
                                row.get("reference"), dict(row.get("metadata") or {})))  # fmt: skip
    if problems:
        raise BadInput(*problems)
    if not examples:
        raise BadInput(f"{path}: the dataset has no examples")
    return Dataset(path, examples, scorers)


def dumps_dataset(dataset: Dataset) -> str:
    """The dataset as JSONL (its scorers line first)."""
    lines = [json.dumps({"scorers": dataset.scorers})] if dataset.scorers else []
    lines += [json.dumps(e.to_json(), ensure_ascii=False) for e in dataset.examples]
    return "\n".join(lines) + "\n"


def save_dataset(dataset: Dataset, path: str | Path | None = None) -> Path:
    """Write the dataset (atomically) as JSONL, or as CSV when the target is a .csv file."""
    target = Path(path or dataset.path)
    if target.suffix.lower() == ".csv":
        text = _to_csv(dataset)
    else:
        text = dumps_dataset(dataset)
    try:
        write_atomic(target, text.encode("utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def _to_csv(dataset: Dataset) -> str:
    columns = ["id"]
    rows = []
    for example in dataset.examples:
        row = {"id": example.id}
        for section in ("input", "expected", "metadata"):
            for key, value in getattr(example, section).items():
                row[f"{section}.{key}"] = value if isinstance(value, str) else json.dumps(value)
        if example.reference is not None:
            row["reference"] = json.dumps(example.reference)
        columns += [c for c in row if c not in columns]
        rows.append(row)
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


__all__ = ["Dataset", "Example", "datasets_beside", "dumps_dataset", "load_dataset",
           "save_dataset"]  # fmt: skip
