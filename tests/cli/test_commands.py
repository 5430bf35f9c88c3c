"""`superstep run | validate | export | templates | demo`: output, exit codes, one line per problem."""

from __future__ import annotations

import json

import pytest

from studio.cli import main
from tests.graphspec.helpers import TEMPLATES, setter, write_spec


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_prints_the_final_state(capsys):
    code, out, err = _run(capsys, "run", "router", "--input", '{"total": 1, "visited": []}')
    assert (code, err) == (0, "")
    assert json.loads(out) == {"total": 0, "visited": ["a", "c"]}


def test_run_uses_the_first_saved_input_and_streams(capsys):
    code, out, _ = _run(capsys, "run", "essay_writer", "--stream", "updates,values")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert {line["mode"] for line in lines[:-1]} == {"updates", "values"}
    updates = [line["data"] for line in lines if line.get("mode") == "updates"]
    assert updates == [
        {"write_essay": {"content": "Essay about water"}},
        {"score_essay": {"score": 10}},
    ]
    assert lines[-1] == {"topic": "water", "content": "Essay about water", "score": 10}


def test_interrupt_prints_payload_and_resume_command_then_resumes(capsys, tmp_path):
    db = str(tmp_path / "threads.db")
    code, out, _ = _run(capsys, "run", "approval", "--db", db, "--thread", "t1")
    assert code == 0
    assert 'interrupted: {"prompt": "Publish this draft?", "payload": "A post about owls"}' in out
    assert f"resume with: superstep run approval --thread t1 --db {db} --resume '<JSON>'" in out
    code, out, _ = _run(
        capsys, "run", "approval", "--db", db, "--thread", "t1", "--resume", "false"
    )
    assert code == 0
    assert json.loads(out.splitlines()[0])["status"] == "rejected"
    code, _, err = _run(capsys, "run", "approval", "--db", db, "--thread", "t1", "--resume", "1")
    assert code == 2 and "nothing pending" in err


def test_untrusted_code_is_bad_input_naming_the_node(capsys):
    code, out, err = _run(capsys, "run", "flaky_retry")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "call_service" in err and "--trust" in err
    code, out, _ = _run(capsys, "run", "flaky_retry", "--trust")
    assert code == 0 and json.loads(out)["attempts"] == 3


def test_failed_run_exits_1(capsys, tmp_path):
    spec = write_spec(
        tmp_path, state=[{"name": "n"}], nodes=[setter("divide", n="n / 0")], entry=["divide"]
    )
    code, out, err = _run(capsys, "run", str(spec), "--input", '{"n": 1}')
    assert (code, out) == (1, "")
    assert err.startswith("superstep run: run failed: $.nodes[0].values.n (divide):")
    assert "ZeroDivisionError" in err


def test_recursion_limit_is_a_failed_run(capsys, tmp_path):
    spec = tmp_path / "loop.json"
    doc = json.loads((TEMPLATES / "counter_loop.json").read_text())
    doc["state"] = doc["state"][:2]
    doc["conditional_edges"][0]["router"]["expression"] = "'increment' if count < limit else END"
    spec.write_text(json.dumps(doc))
    code, _, err = _run(capsys, "run", str(spec), "--input", '{"count": 0, "limit": 100}')
    assert code == 1 and "GraphRecursionError" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "router", "--input", "{"], "--input is not JSON"),
        (["run", "router", "--input", "[]"], "must be a JSON object"),
        (["run", "router", "--input", "{}", "--resume", "1"], "give one of"),
        (["run", "router", "--stream", "loud"], "unknown stream mode 'loud'"),
        (["run", "no_such_template"], "cannot read no_such_template"),
        (["validate", "no_such.json"], "cannot read no_such.json"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and message in err


def test_validate_lists_each_problem_by_path(capsys, tmp_path):
    spec = write_spec(
        tmp_path,
        state=[{"name": "x"}],
        nodes=[setter("a", x="1"), setter("b", x="2")],
        edges=[{"id": "a_c", "sources": ["a"], "target": "c"}],
        entry=["a", "b"],
    )
    code, out, _ = _run(capsys, "validate", str(spec))
    assert code == 2
    assert "error: $.edges[0].target (a_c): unknown node 'c'" in out
    assert out.rstrip().endswith("1 error(s), 0 warning(s)")
    spec.write_text(json.dumps({"version": 2, "nodes": [{"id": "a b", "kind": "x"}]}))
    code, _, err = _run(capsys, "validate", str(spec))
    assert code == 2
    assert err.splitlines() == [
        f"superstep validate: {spec}: $.nodes[0] (a b): Input tag 'x' found using 'kind' does "
        "not match any of the expected tags: 'function', 'set_state', 'model', 'tools', "
        "'agent', 'interrupt', 'subgraph'"
    ]


def test_validate_clean_template(capsys):
    code, out, _ = _run(capsys, "validate", "map_reduce")
    assert code == 0 and out.rstrip().endswith("0 error(s), 0 warning(s)")


def test_templates_lists_the_gallery(capsys):
    code, out, _ = _run(capsys, "templates")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert "hello_world" in names and "map_reduce" in names and names == sorted(names)


def test_demo_is_still_there(capsys):
    code, out, _ = _run(capsys, "demo", "--template", "router")
    assert code == 0 and "result {'total': 21, 'visited': ['a', 'b']}" in out


def test_console_script_points_at_studio_cli():
    # studio.cli owns the whole command line: `superstep studio` imports Qt, the rest never do
    import tomllib

    with open(TEMPLATES.parent / "pyproject.toml", "rb") as f:
        assert tomllib.load(f)["project"]["scripts"]["superstep"] == "studio.cli:main"


def test_headless_commands_never_import_qt():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['PySide6'] = None; from studio.cli import main; "
        "assert main(['validate', 'router']) == 0 and main(['demo', '--json']) == 0; "
        "assert not any(m.startswith(('PySide6.', 'qasync')) for m in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=TEMPLATES.parent, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_validate_warns_about_a_debugger_breakpoint_without_its_node(capsys, tmp_path):
    """A breakpoint of the Breakpoints dock never stops a run from starting: a warning."""
    spec = write_spec(
        tmp_path,
        state=[{"name": "x"}],
        nodes=[setter("a", x="1")],
        entry=["a"],
        breakpoints={"points": [{"node": "gone"}, {"node": "a", "condition": "x ++"}]},
    )
    code, out, _ = _run(capsys, "validate", str(spec))
    assert code == 0
    assert "$.breakpoints.points[0].node (gone): a breakpoint is on 'gone'" in out
    assert "$.breakpoints.points[1].condition (a): breakpoint condition:" in out
    assert out.rstrip().endswith("0 error(s), 2 warning(s)")
