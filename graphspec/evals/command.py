"""`superstep eval`: an experiment of a spec over a dataset, compared with another version.

`studio.cli` parses the arguments; `evaluate` runs the experiments, writes their results
files, prints the summary (or JSON) and says whether the gate holds: no regression against the
baseline, and a pass rate not under `fail_under`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TextIO

from graphspec import commands
from graphspec.errors import BadInput
from graphspec.evals.compare import Comparison, compare
from graphspec.evals.datasets import Dataset, datasets_beside, load_dataset
from graphspec.evals.experiment import run_experiment
from graphspec.evals.results import Experiment, load_experiment, save_experiment
from graphspec.evals.scorers import default_scorers, parse_scorer
from graphspec.templates import is_bundled


def default_db(spec_path: Path) -> Path:
    """The studio's `<spec>.checkpoints.sqlite` beside the spec; for a bundled template (its
    folder is only read) the same name in the current folder."""
    folder = Path.cwd() if is_bundled(spec_path) else spec_path.parent
    return folder / f"{spec_path.stem}.checkpoints.sqlite"


def results_path(spec_path: Path, db: str | Path, experiment_id: str) -> Path:
    """`<spec>.experiments/ID.json` beside the checkpoint database."""
    return Path(db).parent / f"{spec_path.stem}.experiments" / f"{experiment_id}.json"


@dataclass
class EvalOptions:
    dataset: str | None = None
    against: str | None = None
    baseline: str | None = None
    replay: str | None = None
    scorers: tuple[str, ...] = ()
    db: str | None = None
    output: str | None = None
    concurrency: int = 4
    on_change: str = "fail"
    trusted: bool = False
    as_json: bool = False
    fail_under: float | None = None


def scorers_for(dataset: Dataset, texts: tuple[str, ...] | list[str], *, trusted: bool,
                base_dir: Path | None = None) -> list:  # fmt: skip
    """The scorers named, else the dataset's, else exact match on its expected keys."""
    names = scorer_names(dataset, texts)
    return [parse_scorer(n, base_dir=base_dir, trusted=trusted) for n in names]


def scorer_names(dataset: Dataset, texts: tuple[str, ...] | list[str] = ()) -> list[str]:
    names = list(texts) or dataset.scorers or default_scorers(dataset.examples)
    if not names:
        raise BadInput(f"{dataset.path}: no scorer: its examples expect nothing (give --scorer)")
    return names


def _dataset_beside(spec_path: Path) -> Path:
    """Without --dataset: the spec's one dataset (`SPEC.*.jsonl` or `.csv` beside it)."""
    found = datasets_beside(spec_path)
    if len(found) != 1:
        which = f"it has {len(found)}: {', '.join(p.name for p in found)}" if found else (
            f"there is no {spec_path.stem}.*.jsonl or .csv beside it")  # fmt: skip
        raise BadInput(f"give --dataset FILE for {spec_path.name} ({which})")
    return found[0]


def _fail_under(value: float | None) -> float | None:
    if value is None:
        return None
    rate = value / 100 if value > 1 else value
    if not 0 <= rate <= 1:
        raise BadInput(f"--fail-under {value}: give a pass rate from 0 to 1 (or a percentage)")
    return rate


def evaluate(spec_name: str, options: EvalOptions, out: TextIO, err: TextIO) -> bool:
    """Run the experiment(s), write the results, print; True when the gate holds."""
    fail_under = _fail_under(options.fail_under)
    if options.against and options.baseline:
        raise BadInput("give one of --against and --baseline")
    spec, path = commands.load(spec_name)
    dataset = load_dataset(options.dataset or _dataset_beside(path))
    scorers = scorers_for(dataset, options.scorers, trusted=options.trusted)
    replay = load_experiment(options.replay) if options.replay else None
    if replay is not None and not Path(replay.db).is_file():
        raise BadInput(f"{options.replay}: its recorded calls were in {replay.db}, which is gone")
    db = options.db or (replay.db if replay is not None else str(default_db(path)))
    run = dict(db=db, trusted=options.trusted, replay=replay, on_change=options.on_change,
               concurrency=options.concurrency)  # fmt: skip
    before: Experiment | None = None
    if options.against:
        other, other_path = commands.load(options.against)
        before = run_experiment(other, other_path, dataset, scorers, **run)
        save_experiment(before, results_path(other_path, db, before.id))
    elif options.baseline:
        before = load_experiment(options.baseline)
    after = run_experiment(spec, path, dataset, scorers, **run)
    written = save_experiment(after, options.output or results_path(path, db, after.id))
    comparison = compare(before, after) if before is not None else None
    _print(after, comparison, written, options.as_json, out)
    holds = True
    if comparison is not None and comparison.regressions:
        print(f"superstep eval: {len(comparison.regressions)} regression(s) against "
              f"{before.spec if before else ''}", file=err)  # fmt: skip
        holds = False
    rate = after.summary().pass_rate
    if fail_under is not None and rate < fail_under:
        print(f"superstep eval: pass rate {rate:.0%} is under --fail-under {fail_under:.0%}",
              file=err)  # fmt: skip
        holds = False
    return holds


def _print(after: Experiment, comparison: Comparison | None, written: Path, as_json: bool,
           out: TextIO) -> None:  # fmt: skip
    if as_json:
        summary = after.summary()
        data = {"results": str(written), "experiment": after.id,
                "summary": {**asdict(summary), "pass_rate": summary.pass_rate},
                "comparison": comparison.to_json() if comparison is not None else None}  # fmt: skip
        print(json.dumps(data, ensure_ascii=False), file=out)
        return
    lines = comparison.lines() if comparison is not None else after.summary().lines()
    if comparison is None:
        lines += [f"failed   {r.id}" + (f"  (error: {r.error})" if r.error else "")
                  for r in after.examples if not r.passed]  # fmt: skip
    for line in lines:
        print(line, file=out)
    print(f"wrote {written}", file=out)


__all__ = ["EvalOptions", "default_db", "evaluate", "results_path", "scorer_names", "scorers_for"]
