"""One line (exit 2) where a traceback used to be: model providers, unknown subgraphs, deeply
nested code; Ctrl-C exits 130 without a trace."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from graphspec.providers import PROVIDER_PACKAGES
from studio.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MESSAGES = [{"name": "messages", "type": "messages", "reducer": "add_messages"}]


def write(tmp_path, doc: dict, name: str = "g.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"version": 2, **doc}))
    return str(path)


def model_spec(provider: str, as_agent: bool = False) -> dict:
    model = {"provider": provider, "model": "some-model"}
    if as_agent:
        return {"state": MESSAGES, "agents": [{"id": "ag", "model": model}],
                "nodes": [{"id": "ag", "kind": "agent", "agent": "ag"}], "entry": ["ag"], "finish": ["ag"]}  # fmt: skip
    return {"state": MESSAGES, "nodes": [{"id": "m", "kind": "model", "model": model}], "entry": ["m"],
            "finish": ["m"]}  # fmt: skip


def one_line(capsys, argv: list[str], code: int = 2) -> str:
    assert main(argv) == code
    out, err = capsys.readouterr()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("as_agent", [False, True])
@pytest.mark.parametrize("provider", ["openai", "anthropic", "mistralai", "google_genai"])
def test_an_uninstalled_provider_names_its_package(tmp_path, capsys, provider, as_agent):
    package = PROVIDER_PACKAGES[provider]
    if importlib.util.find_spec(package.replace("-", "_")) is not None:
        pytest.skip(f"{package} is installed here")
    err = one_line(capsys, ["run", write(tmp_path, model_spec(provider, as_agent))])
    assert f"pip install {package}" in err


def test_an_unknown_provider_lists_the_known_ones(tmp_path, capsys):
    err = one_line(capsys, ["run", write(tmp_path, model_spec("nosuchthing"))])
    assert "unknown model provider 'nosuchthing'" in err and "openai" in err


def test_export_of_an_unknown_subgraph_id(tmp_path, capsys):
    path = write(tmp_path, {"nodes": [{"id": "s", "kind": "subgraph", "subgraph": "nope"}], "entry": ["s"],
                            "finish": ["s"]})  # fmt: skip
    err = one_line(capsys, ["export", path, "--to", "langgraph"])
    assert "nope" in err


DEEP = {
    "chain": "def f(state):\n    return {'x': " + "+".join(["1"] * 5000) + "}\n",
    "calls": "def f(state):\n    return " + "f(" * 3000 + ")" * 3000 + "\n",
    "subscripts": "def f(state):\n    return state" + "[0]" * 5000 + "\n",
    "attributes": "def f(state):\n    return state" + ".a" * 300 + "\n",
    "lambdas": "def f(state):\n    return " + "lambda: " * 5000 + "1\n",
}


def function_spec(code: str) -> dict:
    return {"state": [{"name": "x"}], "nodes": [{"id": "a", "kind": "function", "code": code, "function": "f"}],
            "entry": ["a"], "finish": ["a"]}  # fmt: skip


def hook_spec(code: str) -> dict:
    hook = {
        "kind": "custom",
        "name": "m",
        "hooks": {"before_model": {"code": code, "function": "f"}},
    }
    return {"state": MESSAGES, "agents": [{"id": "ag", "middleware": [hook]}],
            "nodes": [{"id": "ag", "kind": "agent", "agent": "ag"}], "entry": ["ag"], "finish": ["ag"]}  # fmt: skip


@pytest.mark.parametrize("make", [function_spec, hook_spec])
@pytest.mark.parametrize("shape", sorted(DEEP))
def test_deeply_nested_code_is_one_line(tmp_path, capsys, make, shape):
    path = write(tmp_path, make(DEEP[shape]))
    for argv in (
        ["validate", path],
        ["run", path, "--trust"],
        ["export", path, "--to", "langgraph"],
    ):
        assert "nested too deeply" in one_line(capsys, argv), argv


def test_ctrl_c_exits_130_without_a_trace(tmp_path):
    started = tmp_path / "started"
    code = f"def f(state):\n    import time\n    open({str(started)!r}, 'w').close()\n    time.sleep(60)\n"
    path = write(tmp_path, function_spec(code))
    proc = subprocess.Popen([sys.executable, "-m", "studio.cli", "run", path, "--trust", "--db", str(tmp_path / "t.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": ROOT})  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not started.exists():
            assert time.monotonic() < deadline and proc.poll() is None, (
                proc.stderr.read() if proc.poll() else ""
            )
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert err.strip() == "superstep run: interrupted", err


TYPOS = ["x)", "(", "'a' if n", "'a' if n else"]
"""Router expressions that do not parse: an unmatched ')', an unclosed '(', an `if` without
`else`, an `else` without a value."""


def typo_spec(tmp_path, expression: str) -> str:
    """A router with a typo, beside another error (a node writing an unknown key)."""
    return write(tmp_path, {
        "state": [{"name": "n", "type": "int"}],
        "nodes": [{"id": "a", "kind": "set_state", "values": {"n": "n + 1"}},
                  {"id": "b", "kind": "set_state", "values": {"zz": "1"}}],
        "entry": ["a"], "finish": ["b"],
        "conditional_edges": [{"id": "pick", "source": "a",
                               "router": {"kind": "expression", "expression": expression}}],
    })  # fmt: skip


@pytest.mark.parametrize("expression", TYPOS)
def test_a_router_typo_is_one_finding_beside_the_others(tmp_path, capsys, expression):
    path = typo_spec(tmp_path, expression)
    assert main(["validate", path]) == 2
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[-1] == f"{path}: 2 error(s), 0 warning(s)"
    assert any(line.startswith("error: $.nodes[1].values.zz (b): ") for line in lines)
    [typo] = [line for line in lines if "conditional_edges" in line]
    assert typo.startswith("error: $.conditional_edges[0].router.expression (pick): invalid ")


@pytest.mark.parametrize("expression", TYPOS)
def test_run_and_export_refuse_a_router_typo_naming_its_path(tmp_path, capsys, expression):
    path = typo_spec(tmp_path, expression)
    where = "$.conditional_edges[0].router.expression (pick): invalid expression"
    assert main(["run", path]) == 2
    assert f"superstep run: error: {where}" in capsys.readouterr().err
    assert one_line(capsys, ["export", path, "--to", "langgraph"]).startswith(
        f"superstep export: {where}"
    )
    out = tmp_path / "project"
    assert one_line(capsys, ["export", path, "--to", "langgraph-project", "-o", str(out)])
    assert not out.exists()


def test_an_error_with_no_message_names_the_error_it_came_from(tmp_path, capsys):
    """A node's RuntimeError with an empty message (as a coroutine turns an exhausted iterator's
    StopIteration into) said only "RuntimeError: "; the error it came from says what happened."""
    program = tmp_path / "exhausted.py"
    program.write_text(
        "from typing import TypedDict\n"
        "from langgraph.graph import StateGraph, START\n"
        "class S(TypedDict):\n    n: int\n"
        "def step(state):\n"
        "    try:\n        next(iter([]))\n"
        "    except StopIteration as exc:\n        raise RuntimeError() from exc\n"
        "def wrapped(state):\n"
        "    raise RuntimeError() from KeyError('answer')\n"
        "graph = StateGraph(S).add_node(step).add_edge(START, 'step').compile()\n"
        "other = StateGraph(S).add_node(wrapped).add_edge(START, 'wrapped').compile()\n"
    )
    assert main(["run", f"{program}:graph", "--trust", "--input", '{"n": 1}']) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == "superstep run: run failed: RuntimeError: (from StopIteration)"
    assert main(["run", f"{program}:other", "--trust", "--input", '{"n": 1}']) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == "superstep run: run failed: RuntimeError: (from KeyError: 'answer')"
