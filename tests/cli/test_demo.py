"""`superstep demo`: the supersteps of bundled templates, as text and as JSON lines."""

from __future__ import annotations

import json
import re

from studio.cli import main


def test_demo_essay_text(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out

    # input checkpoint, then three supersteps: __start__, write_essay, score_essay
    assert re.findall(r"^step (\d+)$", out, re.MULTILINE) == ["0", "1", "2"]
    plans = re.findall(r"^    (\w+)  woken by (\S+)$", out, re.MULTILINE)
    assert [name for name, _ in plans] == ["__start__", "write_essay", "score_essay"]
    assert plans[1][1].startswith("branch:to:write_essay@v")
    assert plans[2][1].startswith("branch:to:score_essay@v")

    assert "task write_essay wrote:\n    content = 'Essay about water'" in out
    assert "task score_essay wrote:\n    score = 10" in out
    assert re.search(r"^    content: — -> v\d+, None -> 'Essay about water'$", out, re.MULTILINE)
    assert re.search(r"^    score: — -> v\d+, None -> 10$", out, re.MULTILINE)

    checkpoints = re.findall(r"checkpoint: source=(\w+) step=(-?\d+) id=\S+", out)
    assert checkpoints == [("input", "-1"), ("loop", "0"), ("loop", "1"), ("loop", "2")]
    assert out.rstrip().endswith(
        "result {'topic': 'water', 'content': 'Essay about water', 'score': 10}"
    )


def test_demo_fanout_json(capsys):
    assert main(["demo", "--template", "fanout", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_kind: dict[str, list[dict]] = {}
    for event in events:
        by_kind.setdefault(event["event"], []).append(event)

    plans = by_kind["StepPlanned"]
    assert [p["step"] for p in plans] == [0, 1, 2]
    assert [[t["name"] for t in p["tasks"]] for p in plans] == [
        ["__start__"],
        ["write_joke"] * 3,
        ["pick_best"],
    ]
    # Send tasks carry their own input and no trigger versions; pull tasks name what woke them
    assert [t["input"] for t in plans[1]["tasks"]] == [
        {"subject": "cats"},
        {"subject": "dogs"},
        {"subject": "owls"},
    ]
    assert all(t["trigger_versions"] == {} for t in plans[1]["tasks"])
    assert list(plans[2]["tasks"][0]["trigger_versions"]) == ["branch:to:pick_best"]

    finished = [e for e in by_kind["TaskFinished"] if e["step"] == 1]
    assert sorted(w[1] for e in finished for w in e["writes"] if w[0] == "jokes") == [
        ["Joke about cats"],
        ["Joke about dogs"],
        ["Joke about owls"],
    ]

    # the reducer merged the three parallel writes at the step-1 barrier
    changes = {
        (b["step"], c["channel"]): c for b in by_kind["BarrierApplied"] for c in b["changes"]
    }
    assert changes[(1, "jokes")]["new_value"] == [
        "Joke about cats",
        "Joke about dogs",
        "Joke about owls",
    ]
    assert changes[(2, "best")]["new_value"] == "Joke about cats"

    saved = by_kind["CheckpointSaved"]
    assert [(c["source"], c["step"]) for c in saved] == [
        ("input", -1),
        ("loop", 0),
        ("loop", 1),
        ("loop", 2),
    ]
    assert all(c["config"]["configurable"]["thread_id"] == "demo-fanout" for c in saved)


def test_demo_router_text(capsys):
    assert main(["demo", "--template", "router"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^    (\w+)  woken by", out, re.MULTILINE) == ["__start__", "a", "b"]
    assert "task c" not in out
    # the router template: a doubles total (10 -> 20), route() picks b (total > 5), b adds 1
    assert out.rstrip().endswith("result {'total': 21, 'visited': ['a', 'b']}")


def test_demo_unknown_template(capsys):
    assert main(["demo", "--template", "nope"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert "'nope'" in lines[0]
    assert "essay, fanout, router" in lines[0]
