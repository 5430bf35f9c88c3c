"""An experiment's results: one record per example, a summary, and the JSON file they live in.

{"format": "superstep-experiment", "version": 1, "id": ..., "spec": ..., "dataset": ...,
 "db": ..., "models": "live" | "recorded", "scorers": [...], "started": ...,
 "stopped": false, "examples": [{"id", "thread", "input", "output", "scores", "passed",
 "latency_s", "model_calls", "tokens", "trajectory", "tools", "error", "traceback"}]}
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from graphspec.errors import BadInput
from graphspec.evals.scorers import PASS
from graphspec.io import write_atomic

FORMAT = "superstep-experiment"


@dataclass
class ExampleResult:
    id: str
    thread: str
    input: Any = None
    output: Any = None
    scores: dict[str, float | None] = field(default_factory=dict)
    """Each scorer's score; None when it could not score (its reason in `score_errors`)."""
    score_errors: dict[str, str] = field(default_factory=dict)
    latency_s: float = 0.0
    model_calls: int = 0
    tokens: int | None = None
    """Total tokens the models reported; None when none did."""
    trajectory: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    error: str | None = None
    traceback: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and all(s is not None and s >= PASS
                                          for s in self.scores.values())  # fmt: skip


@dataclass
class Experiment:
    id: str
    spec: str
    dataset: str
    db: str
    models: str
    scorers: list[str]
    started: str
    examples: list[ExampleResult] = field(default_factory=list)
    stopped: bool = False
    """Stopped before every example ran."""

    def by_id(self) -> dict[str, ExampleResult]:
        return {e.id: e for e in self.examples}

    def summary(self) -> Summary:
        return Summary.of(self)

    def to_json(self) -> dict[str, Any]:
        data = {"format": FORMAT, "version": 1, **asdict(self)}
        for row, example in zip(data["examples"], self.examples, strict=True):
            row["passed"] = example.passed
        return data


@dataclass
class Summary:
    examples: int
    passed: int
    errors: int
    mean_scores: dict[str, float | None]
    mean_latency_s: float
    model_calls: int
    tokens: int | None

    @property
    def pass_rate(self) -> float:
        return self.passed / self.examples if self.examples else 0.0

    @classmethod
    def of(cls, experiment: Experiment) -> Summary:
        rows = experiment.examples
        means: dict[str, float | None] = {}
        for name in experiment.scorers:
            got = [r.scores[name] for r in rows if r.scores.get(name) is not None]
            means[name] = sum(got) / len(got) if got else None
        tokens = [r.tokens for r in rows if r.tokens is not None]
        return cls(len(rows), sum(r.passed for r in rows), sum(r.error is not None for r in rows),
                   means, sum(r.latency_s for r in rows) / len(rows) if rows else 0.0,
                   sum(r.model_calls for r in rows), sum(tokens) if tokens else None)  # fmt: skip

    def lines(self) -> list[str]:
        out = [f"{self.passed}/{self.examples} passed ({self.pass_rate:.0%}), "
               f"{self.errors} error(s), mean latency {self.mean_latency_s * 1000:.0f} ms, "
               f"{self.model_calls} model call(s), "
               f"{'no' if self.tokens is None else self.tokens} tokens reported"]  # fmt: skip
        for name, mean in self.mean_scores.items():
            out.append(f"  {name}: mean {'-' if mean is None else f'{mean:.2f}'}")
        return out


def save_experiment(experiment: Experiment, path: str | Path) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(experiment.to_json(), indent=2, ensure_ascii=False, default=str)
        write_atomic(path, (text + "\n").encode("utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def load_experiment(path: str | Path) -> Experiment:
    """A results file; BadInput naming the file when it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise BadInput(
            f"{path}: cannot read the results: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInput(f'{path}: not an experiment\'s results (no "format": "{FORMAT}")')
    try:
        rows = [ExampleResult(**{k: v for k, v in row.items() if k != "passed"})
                for row in data["examples"]]  # fmt: skip
        fields = {k: data[k] for k in ("id", "spec", "dataset", "db", "models", "scorers",
                                       "started")}  # fmt: skip
        return Experiment(**fields, examples=rows, stopped=bool(data.get("stopped")))
    except (KeyError, TypeError) as exc:
        raise BadInput(f"{path}: malformed results: {exc}") from None


__all__ = ["ExampleResult", "Experiment", "Summary", "load_experiment",
           "save_experiment"]  # fmt: skip
