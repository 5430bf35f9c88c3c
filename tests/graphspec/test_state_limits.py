"""A code-free loop cannot grow a state key without bound through its reducer (issue 26.7):
`superstep run` ends the run naming the key, quickly, and a --db file stays small; engine graphs
built in code keep langgraph's unbounded reducers."""

from __future__ import annotations

import operator
import time
from typing import Annotated, TypedDict

import pytest

from engine.graph import START, StateGraph
from graphspec.compiler import compile_spec
from graphspec.errors import LimitError
from graphspec.expression_limits import MAX_SIZE
from studio.cli import main
from tests.graphspec.helpers import graph, setter, write_spec

DOUBLING = {
    "state": [{"name": "log", "type": "list", "reducer": "add"}, {"name": "n", "type": "int"}],
    "nodes": [setter("grow", log="log", n="n + 1")],  # log + log, every superstep
    "entry": ["grow"],
    "conditional_edges": [{
        "id": "again", "source": "grow",
        "router": {"kind": "expression", "expression": "'grow' if n < 16 else '__end__'"},
    }],
}  # fmt: skip
"""Unbounded, 16 supersteps reach 65,536 items of 1,000 characters: 65 MB written out (each
checkpoint, the --db file), held in little memory as the items are one shared string."""


@pytest.mark.parametrize("db", [False, True])
def test_a_reducer_doubling_a_list_ends_the_run_naming_the_key(tmp_path, capsys, db):
    path = write_spec(tmp_path, **DOUBLING)
    args = ["run", str(path), "--input", '{"log": ["' + "x" * 1000 + '"], "n": 0}']
    if db:
        args += ["--db", str(tmp_path / "runs.sqlite")]
    start = time.monotonic()
    assert main(args) == 1
    assert time.monotonic() - start < 10
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        "superstep run: run failed: $.state[0].reducer (log): state key 'log' grew past "
        "10,000,000 characters written out after its reducer 'add'"
    )
    if db:  # the thread's checkpoints and writes, each step's at most the bound (was > 130 MB)
        assert (tmp_path / "runs.sqlite").stat().st_size < 4 * MAX_SIZE


def test_merge_and_add_messages_are_bounded_too():
    spec = graph(
        state=[{"name": "d", "type": "dict", "reducer": "merge"}],
        nodes=[setter("grow", d="{str(len(d)): 'x' * 1000000}")],
        entry=["grow"],
        conditional_edges=[{"id": "again", "source": "grow",
                            "router": {"kind": "expression",
                                       "expression": "'grow' if len(d) < 50 else '__end__'"}}],
        recursion_limit=100,
    )  # fmt: skip
    with pytest.raises(LimitError, match="state key 'd' grew past .* reducer 'merge'"):
        compile_spec(spec).invoke({"d": {}})
    messages = graph(state=[{"name": "m", "type": "messages", "reducer": "add_messages"}],
                     nodes=[setter("a")], entry=["a"], finish=["a"])  # fmt: skip
    with pytest.raises(LimitError, match="state key 'm' grew past"):
        compile_spec(messages).invoke({"m": [("user", "x" * 11_000_000)]})


def test_an_engine_graph_built_in_code_keeps_langgraphs_unbounded_reducer():
    class State(TypedDict):
        log: Annotated[list, operator.add]

    builder = StateGraph(State)
    builder.add_node("grow", lambda state: {"log": ["x" * 6_000_000]})
    builder.add_edge(START, "grow")
    out = builder.compile().invoke({"log": ["y" * 6_000_000]})
    assert len(out["log"]) == 2
