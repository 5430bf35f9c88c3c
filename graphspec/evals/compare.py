"""Two experiments compared example by example: the outputs' diff, the scores' changes and
both summaries, regressions first.

An example regressed when it passed before and does not now, a score went down, or it ran
before and fails with an error now; it improved the other way round; it changed when only its
output differs.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from graphspec.evals.results import ExampleResult, Experiment, Summary

BUCKETS = 5
"""The score distribution's ranges: 0-0.2, 0.2-0.4, ... 0.8-1."""
ORDER = ("regressed", "improved", "changed", "same", "added", "removed")


@dataclass
class ExampleChange:
    id: str
    status: str
    """One of ORDER."""
    before: ExampleResult | None
    after: ExampleResult | None
    score_changes: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    output_diff: list[str] = field(default_factory=list)

    def line(self) -> str:
        scores = ", ".join(f"{name} {_num(a)} -> {_num(b)}"
                           for name, (a, b) in self.score_changes.items())  # fmt: skip
        error = self.after.error if self.after is not None and self.after.error else ""
        parts = [p for p in (scores, f"error: {error}" if error else "") if p]
        return f"{self.status:9} {self.id}" + (f"  ({'; '.join(parts)})" if parts else "")


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


@dataclass
class Comparison:
    before: Experiment
    after: Experiment
    changes: list[ExampleChange]

    @property
    def regressions(self) -> list[ExampleChange]:
        return [c for c in self.changes if c.status == "regressed"]

    def counts(self) -> dict[str, int]:
        return {s: n for s in ORDER if (n := sum(c.status == s for c in self.changes))}

    def lines(self) -> list[str]:
        return [*self.summary_lines(), *(c.line() for c in self.changes if c.status != "same")]

    def summary_lines(self) -> list[str]:
        """Both summaries, each scorer's mean before and after, and the count of each status."""
        out = [
            f"before ({self.before.id}): " + self.before.summary().lines()[0],
            f"after  ({self.after.id}): " + self.after.summary().lines()[0],
        ]
        out += _score_means(self.before.summary(), self.after.summary())
        out.append(", ".join(f"{n} {s}" for s, n in self.counts().items()))
        return out

    def distributions(self, buckets: int = BUCKETS) -> dict[str, tuple[list[int], list[int]]]:
        """Per scorer, how many examples scored in each of `buckets` equal ranges from 0 to 1
        (1 falls in the last), before and after; examples it could not score are left out."""
        names = dict.fromkeys([*self.before.scorers, *self.after.scorers])
        return {name: (_histogram(self.before, name, buckets),
                       _histogram(self.after, name, buckets)) for name in names}  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before.id, "after": self.after.id, "counts": self.counts(),
                "examples": [{"id": c.id, "status": c.status,
                              "scores": {k: list(v) for k, v in c.score_changes.items()},
                              "output_diff": c.output_diff} for c in self.changes]}  # fmt: skip


def _histogram(experiment: Experiment, name: str, buckets: int) -> list[int]:
    counts = [0] * buckets
    for result in experiment.examples:
        if (score := result.scores.get(name)) is not None:
            counts[min(buckets - 1, max(0, int(score * buckets)))] += 1
    return counts


def _score_means(before: Summary, after: Summary) -> list[str]:
    names = [*before.mean_scores, *(n for n in after.mean_scores if n not in before.mean_scores)]
    return [f"  {name}: mean {_mean(before.mean_scores.get(name))} -> "
            f"{_mean(after.mean_scores.get(name))}" for name in names]  # fmt: skip


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


VOLATILE = ("id", "response_metadata", "usage_metadata")
"""A message's fields that differ from run to run (a new id, a served call's cost): not part of
what an output says, so the comparison leaves them out."""


def comparable(value: Any) -> Any:
    """The output without its messages' volatile fields."""
    if isinstance(value, dict):
        message = "content" in value and "type" in value
        return {k: comparable(v) for k, v in value.items() if not (message and k in VOLATILE)}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def output_diff(before: Any, after: Any) -> list[str]:
    """A unified diff of the two outputs as indented JSON (messages' volatile fields left
    out); empty when they are the same."""
    before, after = comparable(before), comparable(after)
    if before == after:
        return []
    a = json.dumps(before, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    b = json.dumps(after, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    return list(difflib.unified_diff(a, b, "before", "after", lineterm="", n=1))


def _status(before: ExampleResult, after: ExampleResult,
            changes: dict[str, tuple[float | None, float | None]]) -> str:  # fmt: skip
    down = any(b is None and a is not None or a is not None and b is not None and b < a
               for a, b in changes.values())  # fmt: skip
    up = any(a is None and b is not None or a is not None and b is not None and b > a
             for a, b in changes.values())  # fmt: skip
    if before.passed and not after.passed or down or after.error and not before.error:
        return "regressed"
    if after.passed and not before.passed or up or before.error and not after.error:
        return "improved"
    return "changed" if output_diff(before.output, after.output) else "same"


def compare(before: Experiment, after: Experiment) -> Comparison:
    """Each example of either experiment, regressions first, then improvements, changes..."""
    old, new = before.by_id(), after.by_id()
    changes = []
    for example_id in [*old, *(i for i in new if i not in old)]:
        a, b = old.get(example_id), new.get(example_id)
        if a is None or b is None:
            changes.append(ExampleChange(example_id, "added" if a is None else "removed", a, b))
            continue
        scores = {name: (a.scores.get(name), b.scores.get(name))
                  for name in dict.fromkeys([*a.scores, *b.scores])}  # fmt: skip
        moved = {name: pair for name, pair in scores.items() if pair[0] != pair[1]}
        changes.append(ExampleChange(example_id, _status(a, b, scores), a, b, moved,
                                     output_diff(a.output, b.output)))  # fmt: skip
    changes.sort(key=lambda c: ORDER.index(c.status))
    return Comparison(before, after, changes)


__all__ = ["Comparison", "ExampleChange", "ORDER", "compare", "output_diff"]
