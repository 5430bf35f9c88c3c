"""`superstep eval`: the ticket_triage template over its dataset, two versions compared, the
exit status following regressions and --fail-under, offline runs on recorded model calls, and
bad datasets and scorers refused in one line naming the file."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest

from graphspec.templates import SOURCE_TEMPLATES
from studio.cli import main
from tests.openai_server import OpenAIServer
from tests.providers.test_cli_providers import agent_spec


@pytest.fixture
def triage(tmp_path):
    """The template and its dataset copied to a project folder."""
    for name in ("ticket_triage.json", "ticket_triage.tickets.jsonl"):
        shutil.copy(SOURCE_TEMPLATES / name, tmp_path / name)
    return tmp_path / "ticket_triage.json", tmp_path / "ticket_triage.tickets.jsonl"


def _eval(capsys, *argv):
    code = main(["eval", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def _edited(spec, name, old, new):
    """A copy of the spec with its classify expression edited."""
    doc = json.loads(spec.read_text())
    values = doc["nodes"][0]["values"]
    assert old in values["category"]
    values["category"] = values["category"].replace(old, new)
    path = spec.with_name(name)
    path.write_text(json.dumps(doc))
    return path


def test_eval_prints_the_summary_writes_results_and_keeps_each_example_thread(triage, capsys):
    spec, dataset = triage
    code, lines, err = _eval(capsys, spec, "--dataset", dataset)
    assert (code, err) == (0, "")
    assert lines[0].startswith("10/12 passed (83%), 0 error(s), mean latency ")
    assert lines[1:4] == ["  exact:category: mean 0.83", "  exact:priority: mean 0.83",
                          "  trajectory: mean 0.83"]  # fmt: skip
    assert lines[4:6] == ["failed   fraud", "failed   password"]
    written = lines[-1].removeprefix("wrote ")
    results = json.loads(open(written).read())
    assert results["format"] == "superstep-experiment" and len(results["examples"]) == 12
    fraud = next(e for e in results["examples"] if e["id"] == "fraud")
    assert fraud["output"]["category"] == "general" and fraud["trajectory"] == [
        "classify", "general"] and fraud["passed"] is False  # fmt: skip
    # each example ran on its own thread of the spec's checkpoint database, for the debugger
    db = spec.with_name("ticket_triage.checkpoints.sqlite")
    threads = {r[0] for r in sqlite3.connect(db).execute("SELECT thread_id FROM checkpoints")}
    assert {e["thread"] for e in results["examples"]} <= threads


def test_eval_against_another_version_reports_regressions_first_and_exits_1(triage, capsys):
    spec, dataset = triage
    # the candidate learns 'password' but forgets 'refund'
    better = _edited(spec, "v2.json", "'login' in", "'password' in ticket.lower() or 'login' in")
    worse = _edited(
        better, "v3.json", "'refund' in ticket.lower() or 'invoice' in ticket.lower() or ", ""
    )
    code, lines, err = _eval(capsys, worse, "--dataset", dataset, "--against", spec)
    assert code == 1
    assert "superstep eval: 1 regression(s) against" in err
    assert lines[0].startswith("before (") and "10/12 passed" in lines[0]
    assert lines[1].startswith("after  (") and "10/12 passed" in lines[1]
    assert "1 regressed, 1 improved, 10 same" in lines
    changed = [line for line in lines if line.startswith(("regressed", "improved"))]
    assert changed == [
        "regressed refund  (exact:category 1 -> 0, exact:priority 1 -> 0, trajectory 1 -> 0)",
        "improved  password  (exact:category 0 -> 1, exact:priority 0 -> 1, trajectory 0 -> 1)",
    ]
    code, lines, err = _eval(capsys, better, "--dataset", dataset, "--against", spec, "--json")
    assert (code, err) == (0, "")
    data = json.loads(lines[0])
    assert data["comparison"]["counts"] == {"improved": 1, "same": 11}
    diff = data["comparison"]["examples"][0]["output_diff"]
    assert '- "category": "general",' in diff and '+ "category": "technical",' in diff


def test_the_exit_status_follows_fail_under(triage, capsys):
    spec, dataset = triage
    assert _eval(capsys, spec, "--dataset", dataset, "--fail-under", "0.8")[0] == 0
    code, _, err = _eval(capsys, spec, "--dataset", dataset, "--fail-under", "90")
    assert code == 1 and "pass rate 83% is under --fail-under 90%" in err


def test_a_baseline_results_file_is_compared_without_running_it_again(triage, capsys):
    spec, dataset = triage
    baseline = spec.with_name("baseline.json")
    assert _eval(capsys, spec, "--dataset", dataset, "-o", baseline)[0] == 0
    worse = _edited(
        spec, "v3.json", "'refund' in ticket.lower() or 'invoice' in ticket.lower() or ", ""
    )
    code, lines, _ = _eval(capsys, worse, "--dataset", dataset, "--baseline", baseline)
    assert code == 1 and "1 regressed, 11 same" in lines


DATASET = [{"id": f"q{i}", "input": {"messages": [{"role": "user", "content": f"q{i}"}]},
            "expected": {"messages": f"echo: q{i}"}} for i in range(3)]  # fmt: skip


def test_offline_on_recorded_calls(tmp_path, monkeypatch, capsys):
    """Live once against the model server; then, the server stopped, the same spec and an
    edited one replay the recorded calls: the edit that changes a model's input regresses."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    dataset = tmp_path / "agent.qa.jsonl"
    dataset.write_text("\n".join(json.dumps(e) for e in DATASET) + "\n")
    spec = tmp_path / "agent.json"
    with OpenAIServer() as server:
        doc = agent_spec(server.base_url)
        spec.write_text(json.dumps(doc))
        live = tmp_path / "live.json"
        code, lines, err = _eval(capsys, spec, "--dataset", dataset, "--scorer",
                                 "contains:messages", "--trust", "-o", live)  # fmt: skip
        assert (code, err) == (0, ""), err
        assert len(server.requests) == 3
    results = json.loads(live.read_text())
    assert [e["model_calls"] for e in results["examples"]] == [1, 1, 1]
    assert all(e["tokens"] for e in results["examples"])  # the server reports usage
    assert lines[0].startswith("3/3 passed (100%), 0 error(s)") and "3 model call(s)" in lines[0]
    code, lines, err = _eval(capsys, spec, "--dataset", dataset, "--scorer", "contains:messages",
                             "--trust", "--replay", live, "--baseline", live)  # fmt: skip
    assert (code, err) == (0, ""), err
    assert "3 same" in lines
    doc["agents"][0]["system_prompt"] = "Answer in French."
    edited = tmp_path / "agent_v2.json"
    edited.write_text(json.dumps(doc))
    code, lines, err = _eval(capsys, edited, "--dataset", dataset, "--scorer",
                             "contains:messages", "--trust", "--replay", live, "--baseline",
                             live)  # fmt: skip
    assert code == 1 and "3 regression(s)" in err
    assert (
        lines[3] == "3 regressed"
        and "error: ReplayMismatch: replay: the 1st model call" in lines[4]
    )


def test_an_llm_judge_scores_through_a_configured_model(triage, monkeypatch, capsys):
    spec, dataset = triage
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with OpenAIServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        for i in range(12):
            server.reply(f"{1 if i % 2 else 0.25} because")
        code, lines, _ = _eval(capsys, spec, "--dataset", dataset, "--scorer",
                               "judge:openai:gpt-test", "--concurrency", "1")  # fmt: skip
        assert len(server.requests) == 12
    assert code == 0 and "  judge:openai:gpt-test: mean 0.62" in lines
    prompt = server.requests[0].body["messages"][0]["content"]
    assert "Please refund my last invoice." in prompt and "Reference" in prompt


def test_a_python_scorer_runs_only_when_trusted(triage, capsys):
    spec, dataset = triage
    scorer = spec.with_name("my_scorer.py")
    scorer.write_text("def short(output, example):\n    return len(output['ticket']) < 35\n")
    code, _, err = _eval(capsys, spec, "--dataset", dataset, "--scorer", f"python:{scorer}:short")
    assert code == 2 and "runs Python code from" in err and "--trust" in err
    code, lines, _ = _eval(capsys, spec, "--dataset", dataset, "--scorer",
                           f"python:{scorer}:short", "--trust")  # fmt: skip
    assert code == 0 and lines[0].startswith("5/12 passed")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"id": "a", "input": {}}\nnot json\n', ":2: not JSON"),
        ('{"id": "a", "input": 3}\n', ":1: 'input' must be a JSON object"),
        ('{"id": "a", "input": {}}\n{"id": "a", "input": {}}\n', ":2: id 'a' is used by an"),
        ('{"id": "a", "input": {}, "expect": {}}\n', ":1: unknown field(s) expect"),
        ("\n", ": the dataset has no examples"),
    ],
)
def test_a_bad_dataset_is_refused_naming_the_file_and_line(triage, capsys, text, problem):
    spec, _ = triage
    dataset = spec.with_name("bad.jsonl")
    dataset.write_text(text)
    code, lines, err = _eval(capsys, spec, "--dataset", dataset, "--scorer", "exact:x")
    assert code == 2 and lines == []
    assert f"superstep eval: {dataset}{problem}" in err


def test_a_csv_dataset_runs_and_an_unknown_scorer_is_refused(triage, capsys):
    spec, _ = triage
    dataset = spec.with_name("ticket_triage.few.csv")
    dataset.write_text("\ufeffid,input.ticket,expected.category,team\nr,Refund me please,"
                       "billing,ops\nh,Hello there,technical,ops\n", encoding="utf-8")  # fmt: skip
    out = spec.with_name("few.json")
    code, lines, _ = _eval(capsys, spec, "--dataset", dataset, "-o", out)
    assert code == 0 and lines[0].startswith("1/2 passed") and "failed   h" in lines
    assert [e["id"] for e in json.loads(out.read_text())["examples"]] == ["r", "h"]  # BOM read
    code, _, err = _eval(capsys, spec, "--dataset", dataset, "--scorer", "fuzzy:x")
    assert code == 2 and "unknown scorer 'fuzzy:x' (known: exact, contains" in err


def test_an_example_that_fails_keeps_its_error_and_traceback(triage, capsys):
    spec, _ = triage
    dataset = spec.with_name("ticket_triage.odd.jsonl")
    dataset.write_text(json.dumps({"id": "number", "input": {"ticket": 5},
                                   "expected": {"category": "general"}}) + "\n"
                       + json.dumps({"id": "fine", "input": {"ticket": "hello"},
                                     "expected": {"category": "general"}}) + "\n")  # fmt: skip
    out = spec.with_name("odd.json")
    code, lines, _ = _eval(capsys, spec, "--dataset", dataset, "-o", out)
    assert code == 0 and lines[0].startswith("1/2 passed (50%), 1 error(s)")
    failed = json.loads(out.read_text())["examples"][0]
    assert failed["error"].startswith("ExpressionError") and "classify" in failed["error"]
    assert failed["traceback"].startswith("Traceback (most recent call last)")
    assert failed["scores"] == {"exact:category": None} and failed["passed"] is False
    assert failed["score_errors"] == {"exact:category": "the run did not finish"}


def test_the_bundled_template_runs_on_its_own_dataset_writing_in_the_current_folder(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    code, lines, err = _eval(capsys, "ticket_triage", "--fail-under", "0.8")
    assert (code, err) == (0, "") and lines[0].startswith("10/12 passed")
    assert lines[-1].startswith(f"wrote {tmp_path / 'ticket_triage.experiments'}/")
    assert (tmp_path / "ticket_triage.checkpoints.sqlite").is_file()
    assert not list(SOURCE_TEMPLATES.glob("ticket_triage.experiments"))  # only read there
    code, _, err = _eval(capsys, "router")
    assert code == 2 and "give --dataset FILE for router.json (there is no router.*.jsonl" in err


def test_a_replay_whose_database_is_gone_is_refused(triage, capsys):
    spec, dataset = triage
    first = spec.with_name("first.json")
    assert _eval(capsys, spec, "--dataset", dataset, "-o", first)[0] == 0
    db = json.loads(first.read_text())["db"]
    assert db == str(spec.with_name("ticket_triage.checkpoints.sqlite"))
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    code, lines, err = _eval(capsys, spec, "--dataset", dataset, "--replay", first)
    assert code == 2 and lines == []
    assert f"{first}: its recorded calls were in {db}, which is gone" in err
