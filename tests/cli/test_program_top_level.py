"""A program whose top-level code builds and runs its graphs, with no `if __name__ ==
"__main__":` guard (`asyncio.run(main())` as the file's last line): importing it runs them, and
`superstep run SCRIPT.py` takes the graphs it ran (`__main__`, `__main__2`...), as it takes a
__main__ block's, instead of saying the file holds no graph. Their results are langgraph's."""

from __future__ import annotations

import asyncio
import json

import pytest

from graphspec.program_run import load_graph
from graphspec.program_script import MAIN_BLOCK, STOPPED, TOP_LEVEL
from studio.cli import main
from tests.cli.program_scripts import (
    TOP_LEVEL_ASYNC,
    TOP_LEVEL_SYNC,
    script_output_on_langgraph,
    write_top_level,
)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_graph_an_async_main_runs_at_top_level_is_run_with_the_given_input(tmp_path, capsys):
    script = write_top_level(tmp_path, TOP_LEVEL_ASYNC, "top_async.py")
    printed = script_output_on_langgraph(script)  # {"n": 2}
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 41}')
    assert code == 0, err
    assert json.loads(out) == {"n": 42}
    assert json.dumps(printed) in err.splitlines()  # its printing on stderr: stdout is the result


def test_the_graph_opens_where_the_top_level_code_left_it_while_an_event_loop_runs(tmp_path):
    # the studio imports programs on its running (qasync) loop: the import's asyncio.run works
    script = write_top_level(tmp_path, TOP_LEVEL_ASYNC, "top_async.py")

    async def opened():
        return load_graph(script, None, lambda *_: pytest.fail("one graph: nothing to pick"))

    found = asyncio.run(opened())
    assert found.name == "__main__" and found.script.part == TOP_LEVEL and found.script.ran
    assert found.script.thread == "top-1" and found.script.stopped == ""
    state = found.graph.get_state({"configurable": {"thread_id": "top-1"}})
    assert state.values == {"n": 2}


def test_the_graphs_a_sync_main_runs_at_top_level_are_named_in_the_order_they_ran(tmp_path, capsys):
    script = write_top_level(tmp_path, TOP_LEVEL_SYNC, "top_sync.py")
    printed = script_output_on_langgraph(script)  # [{"n": 6}, {"n": -6}]
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 4}')
    assert code != 0 and "top_sync.py defines 2 graphs: __main__, __main__2" in err
    code, out, err = run(capsys, f"{script}:__main__", "--trust", "--input", '{"n": 2}')
    assert code == 0, err
    assert json.loads(out) == printed[0]
    code, out, err = run(capsys, f"{script}:__main__2", "--trust", "--input", '{"n": 6}')
    assert code == 0, err
    assert json.loads(out) == printed[1]


def test_top_level_code_that_fails_after_its_runs_still_gives_its_graphs(tmp_path, capsys):
    stop = "raise ValueError('the report could not be sent')"
    script = write_top_level(tmp_path, TOP_LEVEL_ASYNC, "top_async.py", stop=stop)
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 1}')
    assert code == 0, err
    assert json.loads(out) == {"n": 2}
    assert "its top-level code stopped: ValueError: the report could not be sent" in err


def test_top_level_code_that_fails_before_any_graph_ran_says_why_it_cannot_be_imported(
    tmp_path, capsys
):
    broken = tmp_path / "broken.py"
    broken.write_text("raise ValueError('no key')\n", encoding="utf-8")
    code, out, err = run(capsys, str(broken), "--trust")
    assert code != 0 and "cannot import" in err and "ValueError: no key" in err


def test_top_level_code_that_never_ends_is_stopped_when_the_caller_stops_waiting(tmp_path):
    # a chat loop or a server started at import, after the runs
    stop = "while True: __import__('time').sleep(0.02)"
    script = write_top_level(tmp_path, TOP_LEVEL_SYNC, "top_sync.py", stop=stop)
    asked: list[tuple[int, str]] = []

    def keep_waiting(graphs: int, part: str) -> bool:
        asked.append((graphs, part))
        return graphs < 2

    found = load_graph(script, "__main__2", pytest.fail, keep_waiting)
    assert found.script.stopped == STOPPED and found.script.stopped_in == TOP_LEVEL
    assert asked[-1] == (2, TOP_LEVEL)
    assert found.graph.invoke({"n": 4}) == {"n": -4}


def test_top_level_code_that_only_makes_its_graph_gives_the_graph_it_made(tmp_path, capsys):
    drawing = TOP_LEVEL_SYNC.replace(
        "main()\n", "print(build(triple).get_graph().draw_mermaid())\n"
    )
    script = write_top_level(tmp_path, drawing, "draw_top.py")
    found = load_graph(script, None, pytest.fail)
    assert found.name == "__main__" and not found.script.ran and found.script.part == TOP_LEVEL
    code, out, err = run(capsys, str(script), "--trust", "--input", '{"n": 2}')
    assert code == 0, err
    assert json.loads(out) == {"n": 6}


def test_graphs_run_at_top_level_come_before_those_of_the_main_block(tmp_path, capsys):
    # top level: triple only; the block: negate
    text = TOP_LEVEL_SYNC.replace("\nmain()\n", "\n") + (
        'if __name__ == "__main__":\n    print(build(negate).invoke({"n": 5}))\n'
    )
    script = write_top_level(tmp_path, text, "both.py", stop="build(triple).invoke({'n': 1})")
    first = load_graph(script, "__main__", pytest.fail)
    second = load_graph(script, "__main__2", pytest.fail)
    assert (first.script.part, second.script.part) == (TOP_LEVEL, MAIN_BLOCK)
    assert first.graph.invoke({"n": 2}) == {"n": 6} and second.graph.invoke({"n": 2}) == {"n": -2}


def test_a_graph_at_module_level_is_still_the_one_taken_when_top_level_code_runs_it(
    tmp_path, capsys
):
    program = tmp_path / "module_graph.py"
    program.write_text(
        TOP_LEVEL_SYNC.replace("STOP", "graph = build(negate)\nprint(graph.invoke({'n': 3}))"),
        encoding="utf-8",
    )
    code, out, err = run(capsys, str(program), "--trust", "--input", '{"n": 8}')
    assert code == 0, err
    assert json.loads(out) == {"n": -8}
    assert "{'n': -3}" in err  # what its top-level code printed stays off the result's stdout
