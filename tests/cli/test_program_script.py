"""A program whose graphs its `if __name__ == "__main__":` block builds and runs (a tutorial's
script): with no graph at module level, `superstep run SCRIPT.py` runs that block (with consent,
as `python SCRIPT.py` would, no arguments) and takes the graphs it ran: `__main__` the first,
`__main__2` the next; their results are langgraph's."""

from __future__ import annotations

import asyncio
import json
import sys
import threading

import pytest

from graphspec.program_run import load_graph
from graphspec.program_script import STOPPED, STUCK, TOP_LEVEL
from studio.cli import main
from tests.cli.program_scripts import ASYNC_SCRIPT, script_output_on_langgraph, write_script


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_graph_a_script_runs_in_main_is_run_with_the_given_input(tmp_path, capsys):
    script = write_script(tmp_path / "prog")
    printed = script_output_on_langgraph(script)  # [{"n": 2}, {"n": 3}, {"n": 6}]
    code, out, err = run(capsys, f"{script}:__main__", "--trust", "--input", '{"n": 41}')
    assert code == 0, err
    assert json.loads(out) == {"n": 42}
    # the script's own printing went to stderr, the same as on langgraph (stdout is the result)
    assert json.dumps(printed) in err.splitlines()


def test_several_graphs_are_named_and_the_second_runs_as_main2(tmp_path, capsys):
    script = write_script(tmp_path / "prog")
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 4}')
    assert code != 0 and out == ""
    assert "count_script.py defines 2 graphs: __main__, __main__2" in err
    assert f"{script}:__main__" in err
    code, out, err = run(capsys, f"{script}:__main__2", "--trust", "--input", '{"n": 4}')
    assert code == 0, err
    assert json.loads(out) == {"n": 8}
    code, out, err = run(capsys, f"{script}:__main__3", "--trust", "--input", '{"n": 4}')
    assert code != 0 and "ran 2 graph(s): __main__, __main__2; there is no __main__3" in err


def test_a_script_that_fails_after_its_runs_still_gives_its_graphs(tmp_path, capsys):
    script = write_script(
        tmp_path / "prog", stop="raise ValueError('the report could not be sent')"
    )
    code, out, err = run(capsys, f"{script}:__main__", "--trust", "--input", '{"n": 1}')
    assert code == 0, err
    assert json.loads(out) == {"n": 2}
    assert "ValueError: the report could not be sent" in err


def test_a_file_with_no_graph_and_no_main_block_says_both(tmp_path, capsys):
    plain = tmp_path / "helpers.py"
    plain.write_text("def helper():\n    return 1\n", encoding="utf-8")
    code, out, err = run(capsys, str(plain), "--trust")
    assert code != 0
    assert "helpers.py holds no graph" in err
    assert 'runs none, from its top-level code or from an if __name__ == "__main__" block' in err


def test_the_script_is_not_run_without_consent(tmp_path, capsys, monkeypatch):
    script = write_script(tmp_path / "prog")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    code, out, err = run(capsys, str(script), "--input", '{"n": 1}')
    assert code != 0 and "not run" in err
    assert json.dumps([{"n": 2}, {"n": 3}, {"n": 6}]) not in err + out


def test_an_async_script_runs_while_the_callers_event_loop_runs(tmp_path):
    # the studio opens programs on its running (qasync) loop: the script's asyncio.run must work
    script = tmp_path / "async_script.py"
    script.write_text(ASYNC_SCRIPT, encoding="utf-8")

    async def opened():
        return load_graph(script, None, lambda *_: pytest.fail("one graph: nothing to pick"))

    found = asyncio.run(opened())
    assert found.name == "__main__" and found.script.thread == "async-1"
    assert found.script.stopped == ""
    state = found.graph.get_state({"configurable": {"thread_id": "async-1"}})
    assert state.values == {"n": 2}


def test_a_chat_loop_reading_input_ends_instead_of_waiting(tmp_path, capsys):
    # nobody types into a script the studio runs: input() meets the end of its input
    script = write_script(tmp_path / "prog", stop="input('You: ')")
    code, out, err = run(capsys, f"{script}:__main__", "--trust", "--input", '{"n": 1}')
    assert code == 0, err
    assert json.loads(out) == {"n": 2}
    assert "its __main__ block stopped: EOFError" in err


def test_a_graph_the_script_hands_to_debug_is_the_one_opened(tmp_path, capsys):
    # `debug(graph)` in a script opens the studio on it; the studio running that script takes it
    script = write_script(tmp_path / "prog", stop="from studio import debug; debug(build(double))")
    code, out, err = run(capsys, f"{script}:__main__3", "--trust", "--input", '{"n": 7}')
    assert code == 0, err
    assert json.loads(out) == {"n": 14}


def _engine_world_is_free() -> bool:
    """Whether another thread can enter on_engine() now (a block left running would hold it)."""
    from graphspec.engine_world import on_engine

    def enter():
        with on_engine():
            pass

    other = threading.Thread(target=enter, daemon=True)
    other.start()
    other.join(5)
    return not other.is_alive()


def test_a_block_that_never_ends_is_stopped_when_the_caller_stops_waiting(tmp_path):
    # a server or an endless loop after the runs: the studio asks whether to keep waiting
    script = write_script(tmp_path / "prog", stop="while True: __import__('time').sleep(0.02)")
    asked: list[int] = []

    def keep_waiting(graphs: int, part: str) -> bool:
        asked.append(graphs)
        return part == TOP_LEVEL or graphs < 2  # both graphs ran: stop the loop

    stdout = sys.stdout
    found = load_graph(script, "__main__2", pytest.fail, keep_waiting)
    assert found.name == "__main__2" and found.script.stopped == STOPPED
    assert found.graph.invoke({"n": 4}) == {"n": 8}
    assert asked[-1] == 2 and asked[0] <= 2
    assert sys.stdout is stdout  # the block's printing went to stderr until it was stopped
    assert _engine_world_is_free()


def test_a_block_stuck_in_a_call_keeps_what_it_ran_and_is_stopped_once_the_call_returns(
    tmp_path, monkeypatch
):
    monkeypatch.setattr("graphspec.program_script.STOP_GRACE", 0.2)
    gate = "globals().setdefault('GATE', __import__('threading').Event()).wait()"
    script = write_script(tmp_path / "prog", stop=gate)
    found = load_graph(script, "__main__2", pytest.fail, lambda graphs, _part: graphs < 2)
    try:
        assert found.script.stopped == STUCK
        assert found.graph.invoke({"n": 3}) == {"n": 6}
    finally:
        found.module.GATE.set()  # the call returns: the stop lands, the block lets the world go
    assert _engine_world_is_free()


def test_without_a_caller_to_ask_the_block_is_waited_for_as_python_would(tmp_path):
    script = write_script(tmp_path / "prog", stop="__import__('time').sleep(0.3)")
    found = load_graph(script, "__main__", pytest.fail)
    assert found.script.stopped == ""


DRAWING_SCRIPT = '''\
"""Builds a graph (with a subgraph) and prints its drawing: it never runs it."""

from typing import TypedDict

from langgraph.graph import END, START, StateGraph


class Count(TypedDict):
    n: int


def build():
    inner = StateGraph(Count)
    inner.add_node("double", lambda s: {"n": s["n"] * 2})
    inner.add_edge(START, "double")
    outer = StateGraph(Count)
    outer.add_node("add_one", lambda s: {"n": s["n"] + 1})
    outer.add_node("twice", inner.compile())
    outer.add_edge(START, "add_one")
    outer.add_edge("add_one", "twice")
    outer.add_edge("twice", END)
    return outer.compile()


if __name__ == "__main__":
    print(build().get_graph().draw_mermaid())
    SERVE
'''


def test_a_script_that_only_draws_its_graph_gives_the_graph_it_made(tmp_path, capsys):
    script = tmp_path / "draw_script.py"
    script.write_text(DRAWING_SCRIPT.replace("SERVE", "pass"), encoding="utf-8")
    found = load_graph(script, None, pytest.fail)  # one graph: its subgraph is inside it
    assert found.name == "__main__" and not found.script.ran and found.script.thread is None
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 2}')
    assert code == 0, err
    assert json.loads(out) == {"n": 6}
    assert "add_one --> twice" in err  # what the script printed, on stderr


def test_a_script_that_serves_the_graph_it_made_is_stopped_and_gives_it(tmp_path):
    # a web app's block: make the graph, then serve it forever (here: a sleeping loop)
    serve = "while True: __import__('time').sleep(0.02)"
    script = tmp_path / "serve_script.py"
    script.write_text(DRAWING_SCRIPT.replace("SERVE", serve), encoding="utf-8")
    asked: list[int] = []

    def keep_waiting(graphs: int, part: str) -> bool:
        asked.append(graphs)
        return part == TOP_LEVEL or len(asked) < 5  # it ran none: the user stops it after a while

    found = load_graph(script, None, pytest.fail, keep_waiting)
    assert set(asked) == {0}
    assert found.script.stopped == STOPPED and not found.script.ran
    assert found.graph.invoke({"n": 1}) == {"n": 4}


def test_graphs_a_script_runs_in_its_own_thread_pool_are_its_graphs(tmp_path, capsys):
    script = write_script(
        tmp_path / "prog",
        stop="from concurrent.futures import ThreadPoolExecutor as Pool; "
        "print(list(Pool(2).map(build(double).compile().invoke, [{'n': 1}, {'n': 2}])))",
    )
    code, out, err = run(capsys, str(script), "--trust")
    assert "defines 3 graphs: __main__, __main__2, __main__3" in err
    code, out, err = run(capsys, f"{script}:__main__3", "--trust", "--input", '{"n": 4}')
    assert code == 0, err
    assert json.loads(out) == {"n": 8}


def test_debug_stays_the_function_once_the_studio_has_loaded_its_debugger():
    # the studio's own modules import the debugger's module; `from studio import debug` in a
    # script it runs (or a notebook's second cell) must still get the function
    import studio
    import studio.python_open  # noqa: F401 - loads the debugger's module
    from studio import debug

    assert callable(debug) and debug is studio.debug and debug.__module__ == "studio"
