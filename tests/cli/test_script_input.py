"""The input a script's code gives the graph it runs is kept, as the live object, for the
debugger's first run: a tutorial's main() invokes its graph with langchain messages and no
checkpointer, and without that input the studio's run starts from `{}`."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import HumanMessage

from engine.graph import END, START, StateGraph
from engine.pregel.root_runs import watch_root_runs
from graphspec.program_run import load_graph
from studio.cli import main
from tests.cli.program_scripts import write_message_script


def _echo_graph():
    builder = StateGraph(dict)
    builder.add_node("echo", lambda state: {})
    builder.add_edge(START, "echo")
    builder.add_edge("echo", END)
    return builder.compile()


def test_a_root_run_keeps_its_input_as_given():
    graph = _echo_graph()
    given, again = {"messages": [HumanMessage("hi")]}, {"messages": []}
    with watch_root_runs() as runs:
        graph.invoke(given)
        list(graph.stream(again))
    assert runs[0].input is given  # the same object, not a copy nor its JSON
    assert runs[1].input is again
    graph.invoke(given)  # nobody watches now: nothing is kept
    assert len(runs) == 2


def test_the_script_input_of_a_graph_run_twice_is_its_first_runs(tmp_path):
    script = write_message_script(tmp_path / "prog")
    found = load_graph(script, None, pytest.fail)
    ran = found.script
    assert ran is not None and ran.name == "__main__" and ran.runs == 2
    first = ran.script_input
    assert first is not None and first.runs == 2
    assert first.value is found.module.QUESTION  # the live object main() invoked it with
    message = first.value["messages"][0]
    assert isinstance(message, HumanMessage) and message.content == "what is a superstep?"


def test_a_graph_the_script_only_made_has_no_script_input(tmp_path):
    from tests.cli.test_program_script import DRAWING_SCRIPT

    script = tmp_path / "draw_script.py"
    script.write_text(DRAWING_SCRIPT.replace("SERVE", "pass"), encoding="utf-8")
    ran = load_graph(script, None, pytest.fail).script
    assert ran is not None and not ran.ran and ran.script_input is None


def test_superstep_run_starts_a_script_graph_from_the_scripts_input(tmp_path, capsys):
    # as the studio's first run (from `{}` the tutorial's node found no messages)
    script = write_message_script(tmp_path / "prog")
    code = main(["run", str(script), "--trust"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["answer"] == "you asked: what is a superstep?"
    said = [line for line in err.splitlines() if line.startswith("superstep run:")]
    assert said == [
        "superstep run: starts from the script's input, what chat_script.py first ran its graph "
        "with (the first of its 2 runs); --input replaces it"
    ]


def test_superstep_run_input_replaces_the_scripts_input(tmp_path, capsys):
    script = write_message_script(tmp_path / "prog")
    code = main(["run", f"{script}:__main__", "--trust", "--input", '{"messages": []}'])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["answer"] == "No messages found in state"
    assert "script's input" not in err
