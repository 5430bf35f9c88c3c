"""`superstep export SPEC --to langgraph-project -o DIR`: the files, their requirements, and the
project served by a real `langgraph dev` (langgraph-cli[inmem]) giving `superstep run`'s states."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from graphspec.commands import load
from graphspec.export_project import graph_id, requirements
from studio.cli import main
from tests.graphspec.helpers import graph, setter

SERVED = ("router", "map_reduce", "approval")
"""Templates served by langgraph dev: two plain runs and an interrupt (approval) resumed."""


def _export(name: str, out: Path, capsys) -> None:
    assert main(["export", name, "--to", "langgraph-project", "-o", str(out)]) == 0
    capsys.readouterr()


def test_the_project_has_the_module_its_config_requirements_and_readme(tmp_path, capsys):
    _export("approval", tmp_path, capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "README.md", "graph.py", "langgraph.json", "requirements.txt",
    ]  # fmt: skip
    config = json.loads((tmp_path / "langgraph.json").read_text())
    assert config["graphs"] == {"approval": "./graph.py:graph"}
    assert config["dependencies"] == ["."]
    code = (tmp_path / "graph.py").read_text()
    assert "from langgraph.graph import" in code and "import engine" not in code
    # no langchain for a graph that does not use it
    assert (tmp_path / "requirements.txt").read_text() == "langgraph>=1.2,<1.3\n"
    readme = (tmp_path / "README.md").read_text()
    assert "langgraph dev" in readme and "langgraph up" in readme
    assert "Postgres" in readme and "Redis" in readme


def test_an_agent_project_requires_langchain_and_a_provider_its_package(tmp_path, capsys):
    _export("react_agent", tmp_path, capsys)
    assert "langchain>=1.2" in (tmp_path / "requirements.txt").read_text().splitlines()
    spec, path = load("react_agent")
    agent = spec.agents[0].model_copy(
        update={"model": spec.agents[0].model.model_copy(update={"provider": "anthropic"})}
    )
    reqs, unknown = requirements(
        "import langgraph.graph\n", spec.model_copy(update={"agents": [agent]})
    )
    assert reqs == ["langgraph>=1.2,<1.3", "langchain>=1.2", "langchain-anthropic"]
    assert unknown == []


def test_imported_modules_beside_the_spec_are_copied(tmp_path):
    from graphspec.export_project import write_project

    (tmp_path / "helpers_mod.py").write_text("def f(state):\n    return {}\n")
    spec = graph(state=[{"name": "x", "type": "str"}], nodes=[setter("a", x="'1'")], entry=["a"])
    code = "import helpers_mod\nimport missing_mod\nimport json\n"
    out = tmp_path / "out"
    write_project(spec, code, out, base_dir=tmp_path, name="My Graph")
    assert (out / "helpers_mod.py").is_file()
    assert json.loads((out / "langgraph.json").read_text())["graphs"] == {
        "my_graph": "./graph.py:graph"
    }
    assert "missing_mod" in (out / "README.md").read_text()
    assert graph_id("2 steps") == "graph_2_steps"


def test_links_beside_the_spec_are_copied_only_to_files_inside_its_folder(tmp_path, capsys):
    # a project is committed and deployed: a link to ~/.ssh must not carry the key into it
    outside = tmp_path / "home"
    (outside / ".ssh").mkdir(parents=True)
    (outside / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    here = tmp_path / "spec"
    (here / "pkg").mkdir(parents=True)
    (here / "creds.py").symlink_to(outside / ".ssh" / "id_rsa")  # a file link leading out
    (here / "pkg" / "__init__.py").write_text("def f(state):\n    return {}\n")
    (here / "pkg" / "home").symlink_to(outside, target_is_directory=True)  # a folder out
    (here / "pkg" / "loop_a").symlink_to(here / "pkg" / "loop_b")
    (here / "pkg" / "loop_b").symlink_to(here / "pkg" / "loop_a")
    (here / "real_mod.py").write_text("def f(state):\n    return {}\n")
    (here / "inner.py").symlink_to(here / "real_mod.py")  # a link to a file inside: copied
    (here / "pkg" / "sub").symlink_to(here / "pkg", target_is_directory=True)  # folder inside
    nodes = [
        {"id": m, "kind": "function", "import_path": f"{m}:f"} for m in ("creds", "pkg", "inner")
    ]
    (here / "spec.json").write_text(json.dumps({"version": 2, "nodes": nodes, "entry": ["creds"]}))
    out = tmp_path / "out"
    assert (
        main(["export", str(here / "spec.json"), "--to", "langgraph-project", "-o", str(out)]) == 0
    )
    printed = capsys.readouterr().out
    copied = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    assert copied == ["README.md", "graph.py", "inner.py", "langgraph.json", "pkg",
                      "pkg/__init__.py", "requirements.txt"]  # fmt: skip
    assert not (out / "inner.py").is_symlink()
    assert "PRIVATE KEY" not in "".join(p.read_text() for p in out.rglob("*") if p.is_file())
    readme = (out / "README.md").read_text()
    for name, why in [
        ("creds.py", "a link that leads out of the spec's folder"),
        ("pkg/home", "a link that leads out of the spec's folder"),
        ("pkg/loop_a", "a link that leads nowhere or in a loop"),
        ("pkg/sub", "a link to a folder"),
    ]:
        assert f"not copied: {name} ({why})" in printed.splitlines()
        assert f"{name} ({why})" in readme


def test_a_project_needs_an_output_folder(capsys):
    assert main(["export", "router", "--to", "langgraph-project"]) == 2
    assert "needs -o DIR" in capsys.readouterr().err


# ------------------------------------------------------------------ a real langgraph dev server


def _langgraph_cli() -> str | None:
    beside = Path(sys.executable).with_name("langgraph")
    return str(beside) if beside.is_file() else shutil.which("langgraph")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, log: Path, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"langgraph dev did not answer in {timeout}s:\n{log.read_text()[-3000:]}")


def langgraph_cli_or_skip() -> str:
    """The `langgraph` command; skips the test when langgraph-cli[inmem] is not installed."""
    pytest.importorskip("langgraph_api", reason="needs langgraph-cli[inmem]")
    pytest.importorskip("langgraph_sdk")
    cli = _langgraph_cli()
    if cli is None:
        pytest.skip("langgraph-cli is not installed")
    return cli


def start_server(cli: str, project: Path) -> tuple[str, subprocess.Popen, Path]:
    """`langgraph dev` serving `project` on a free 127.0.0.1 port: its URL, process and log."""
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGSMITH_TRACING": "false",
        "PYTHONPATH": "",
    }  # fmt: skip  (the server imports the project, not the source tree)
    port, log = _free_port(), project / "server.log"
    argv = [cli, "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("w") as sink:
        proc = subprocess.Popen(argv, cwd=project, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
    return f"http://127.0.0.1:{port}", proc, log


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, 15)  # the server and its reloader/workers
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)


@contextlib.contextmanager
def serving(names, tmp_path_factory):
    """One `langgraph dev` per exported template, started together: name -> base URL."""
    cli = langgraph_cli_or_skip()
    started = {}
    for name in names:
        project = tmp_path_factory.mktemp(name)
        assert main(["export", name, "--to", "langgraph-project", "-o", str(project)]) == 0
        started[name] = start_server(cli, project)
    try:
        for url, proc, log in started.values():
            _wait_ready(url, proc, log)
        yield {name: url for name, (url, _, _) in started.items()}
    finally:
        for _, proc, _ in started.values():
            stop_server(proc)


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    with serving(SERVED, tmp_path_factory) as urls:
        yield urls


def _superstep(*argv: str, cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "studio.cli", "run", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _first_input(name: str) -> dict:
    spec, _ = load(name)
    return dict(spec.inputs[0].value) if spec.inputs else {}


@pytest.mark.parametrize("name", ["router", "map_reduce"])
def test_the_server_ends_in_superstep_runs_state(servers, name, tmp_path):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=servers[name])
    thread = client.threads.create()
    final = client.runs.wait(thread["thread_id"], graph_id(name), input=_first_input(name))
    expected = json.loads(_superstep(name, cwd=tmp_path)[0])
    assert final == expected
    assert client.threads.get_state(thread["thread_id"])["values"] == expected


def test_an_interrupt_on_the_server_asks_and_resumes_as_superstep_run(servers, tmp_path):
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=servers["approval"])
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "approval", input=_first_input("approval"))
    paused = client.threads.get_state(tid)
    db = str(tmp_path / "t.sqlite")
    lines = _superstep("approval", "--db", db, "--thread", "t", cwd=tmp_path)
    assert paused["next"] == ["ask"]
    assert paused["values"] == json.loads(lines[0])
    [task] = paused["tasks"]
    asked = json.loads(lines[1].removeprefix("interrupted: "))
    assert [i["value"] for i in task["interrupts"]] == [asked]

    final = client.runs.wait(tid, "approval", command={"resume": True})
    resumed = _superstep("approval", "--db", db, "--thread", "t", "--resume", "true", cwd=tmp_path)
    assert final == json.loads(resumed[0])
    assert final["status"] == "published"
    assert client.threads.get_state(tid)["next"] == []


SIBLING_GRAPH = 'SUFFIX = " (checked)"\n'
"""A program's own sibling named `graph.py`, as the project's module is named by default."""
USES_GRAPH_PY = """\
from typing_extensions import TypedDict

from langgraph.graph import END, START, StateGraph

from graph import SUFFIX


class State(TypedDict):
    topic: str


def check(state: State) -> dict:
    return {"topic": state["topic"] + SUFFIX}


builder = StateGraph(State)
builder.add_node("check", check)
builder.add_edge(START, "check")
builder.add_edge("check", END)
app = builder.compile()
"""


def test_a_copied_graph_py_is_kept_and_the_project_serves_the_programs_result(tmp_path, capsys):
    from tests.cli.module_named_programs import as_langgraph_dev

    folder = tmp_path / "prog"
    folder.mkdir()
    (folder / "graph.py").write_text(SIBLING_GRAPH, encoding="utf-8")
    (folder / "checker.py").write_text(USES_GRAPH_PY, encoding="utf-8")
    run = "print(json.dumps(module.{}.invoke({{'topic': 'owls'}})))"
    expected = as_langgraph_dev(folder, "checker.py", run.format("app"), tmp_path)
    assert expected == {"topic": "owls (checked)"}
    spec, project = folder / "spec.json", tmp_path / "project"
    assert main(["import", f"{folder / 'checker.py'}:app", "--trust", "-o", str(spec)]) == 0
    assert main(["export", str(spec), "--to", "langgraph-project", "-o", str(project)]) == 0
    capsys.readouterr()
    assert (project / "graph.py").read_text(encoding="utf-8") == SIBLING_GRAPH  # not overwritten
    [where] = json.loads((project / "langgraph.json").read_text(encoding="utf-8"))[
        "graphs"
    ].values()
    file, _, attr = where.partition(":")
    assert file == "./graph_export.py" and (project / file).is_file()
    assert "`graph_export.py` is plain langgraph code" in (project / "README.md").read_text()
    assert as_langgraph_dev(project, file, run.format(attr), tmp_path) == expected
