"""Validator findings: each with severity, element id, JSON path and, where there is one, a fix."""

from __future__ import annotations

from graphspec.validator import validate
from tests.graphspec.helpers import graph, setter


def _codes(spec):
    return {(f.severity, f.code, f.element_id, f.path) for f in validate(spec)}


def test_parallel_writes_without_reducer_with_the_fix():
    spec = graph(
        state=[{"name": "total", "type": "int"}, {"name": "log", "type": "list", "reducer": "add"}],
        nodes=[setter("a", total="1", log="['a']"), setter("b", total="2", log="['b']")],
        entry=["a", "b"],
        finish=["a", "b"],
    )
    [finding] = validate(spec)
    assert (finding.severity, finding.code, finding.element_id, finding.path) == (
        "error",
        "parallel-write",
        "total",
        "$.state[0].reducer",
    )
    assert "a and b" in finding.message and "reducer" in finding.fix


def test_exclusive_router_branches_do_not_conflict_but_list_routers_do():
    doc = dict(
        state=[{"name": "total", "type": "int"}],
        nodes=[setter("a", total="1"), setter("b", total="2"), setter("c", total="3")],
        conditional_edges=[
            {
                "id": "route",
                "source": "a",
                "router": {"kind": "expression", "expression": "'b' if total else 'c'"},
            }
        ],
        entry=["a"],
        finish=["b", "c"],
    )
    assert validate(graph(**doc)) == []
    doc["conditional_edges"][0]["router"]["expression"] = "['b', 'c']"
    assert ("error", "parallel-write", "total", "$.state[0].reducer") in _codes(graph(**doc))


def test_sent_node_writing_a_plain_key_conflicts_with_itself():
    spec = graph(
        state=[{"name": "items", "type": "list"}, {"name": "last"}],
        nodes=[setter("work", last="item")],
        conditional_edges=[
            {
                "id": "fan",
                "source": "__start__",
                "router": {"kind": "send", "target": "work", "over": "items"},
            }
        ],
        finish=["work"],
    )
    [finding] = [f for f in validate(spec) if f.code == "parallel-write"]
    assert "several Send tasks" in finding.message


def test_joined_branches_of_different_length_are_checked_step_by_step():
    # entry a and c: a and c share step 1; b runs alone in step 2, d (the join) in step 3
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("a", x="1"), setter("b", x="2"), setter("c", x="3"), setter("d", x="4")],
        edges=[
            {"id": "ab", "sources": ["a"], "target": "b"},
            {"id": "join", "sources": ["b", "c"], "target": "d"},
        ],
        entry=["a", "c"],
        finish=["d"],
    )
    conflicts = [f for f in validate(spec) if f.code == "parallel-write"]
    assert len(conflicts) == 1 and conflicts[0].message.startswith("a and c can run")


def test_unknown_targets_with_a_suggestion_and_duplicates():
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("Alpha", x="1"), setter("beta", x="2"), setter("beta", x="3")],
        edges=[{"id": "e", "sources": ["beta"], "target": "alpha"}],
        entry=["Alpha"],
    )
    findings = {f.code: f for f in validate(spec)}
    assert findings["unknown-target"].path == "$.edges[0].target"
    assert findings["unknown-target"].fix == "did you mean 'Alpha'?"
    assert findings["duplicate-id"].path == "$.nodes[2]"


def test_unreachable_dead_end_endless_loop_and_no_entry():
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("a", x="1"), setter("b", x="2"), setter("c", x="3"), setter("lost", x="0")],
        edges=[
            {"id": "ab", "sources": ["a"], "target": "b"},
            {"id": "bc", "sources": ["b"], "target": "c"},
            {"id": "cb", "sources": ["c"], "target": "b"},
        ],
        entry=["a"],
    )
    codes = _codes(spec)
    assert ("warning", "unreachable", "lost", "$.nodes[3]") in codes
    assert ("warning", "dead-end", "b", "$.nodes[1]") in codes
    assert ("error", "endless-loop", "b", "$.nodes[1]") in codes
    no_entry = graph(state=[{"name": "x"}], nodes=[setter("a", x="1")])
    assert ("error", "no-entry", None, "$.entry") in _codes(no_entry)


def test_loop_with_conditional_exit_is_fine():
    doc = {
        "state": [{"name": "n", "type": "int"}],
        "nodes": [setter("inc", n="n + 1")],
        "conditional_edges": [
            {
                "id": "again",
                "source": "inc",
                "router": {"kind": "expression", "expression": "'inc' if n < 3 else END"},
            }
        ],
        "entry": ["inc"],
    }
    assert validate(graph(**doc)) == []


def test_unknown_keys_names_and_bad_expressions():
    spec = graph(
        state=[{"name": "x"}, {"name": "left", "type": "remaining_steps"}],
        nodes=[setter("a", y="1", x="nope + 1", left="3"), setter("b", x="open('f')")],
        edges=[{"id": "ab", "sources": ["a"], "target": "b"}],
        entry=["a"],
        finish=["b"],
    )
    codes = _codes(spec)
    assert ("error", "unknown-key", "a", "$.nodes[0].values.y") in codes
    assert ("warning", "unknown-name", "a", "$.nodes[0].values.x") in codes
    assert ("error", "managed-key", "a", "$.nodes[0].values.left") in codes
    assert ("error", "bad-expression", "b", "$.nodes[1].values.x") in codes


def test_router_literals_must_be_mapped():
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("a", x="1"), setter("b", x="2")],
        conditional_edges=[
            {
                "id": "r",
                "source": "a",
                "router": {"kind": "expression", "expression": "'yes' if x else 'no'"},
                "path_map": {"yes": "b"},
            }
        ],
        entry=["a"],
        finish=["b"],
    )
    [finding] = [f for f in validate(spec) if f.code == "unknown-label"]
    assert "'no'" in finding.message and finding.fix == "add 'no' to path_map"


def test_a_listed_route_to_a_missing_node_is_one_finding():
    """A rule returning 'c' with 'c' in its path_map list, and no node c: one finding on the
    route (the rule's literal was checked a second time, the Problems panel listed it twice)."""
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("a", x="1")],
        conditional_edges=[
            {
                "id": "r",
                "source": "a",
                "router": {"kind": "expression", "expression": "'c' if x else END"},
                "path_map": ["c", "__end__"],
            }
        ],
        entry=["a"],
    )
    found = [(f.code, f.path) for f in validate(spec) if f.element_id == "r"]
    assert found == [("unknown-target", "$.conditional_edges[0].path_map[0]")]


def test_subgraph_keys_of_its_own_are_ordinary_but_sharing_none_is_an_error():
    child = {
        "state": [{"name": "text"}, {"name": "extra"}],
        "nodes": [setter("inner", text="text")],
        "entry": ["inner"],
    }
    spec = graph(
        state=[{"name": "text"}],
        nodes=[{"id": "sub", "kind": "subgraph", "subgraph": "child"}],
        subgraphs=[{"id": "child", "graph": child}],
        entry=["sub"],
    )
    # `extra` is the subgraph's private key, as in langgraph's subgraph how-to: nothing to warn
    assert [f for f in validate(spec) if f.code == "subgraph-keys"] == []
    disjoint = graph(
        state=[{"name": "other"}],
        nodes=[{"id": "sub", "kind": "subgraph", "subgraph": "child"}],
        subgraphs=[{"id": "child", "graph": child}],
        entry=["sub"],
    )
    assert ("error", "subgraph-keys", "sub", "$.nodes[0].subgraph") in _codes(disjoint)


def test_subgraph_files_resolve_relative_to_the_spec(tmp_path):
    (tmp_path / "child.json").write_text('{"version": 2, "nodes": [{"id": 1}]}')
    spec = graph(
        state=[{"name": "x"}],
        nodes=[{"id": "sub", "kind": "subgraph", "subgraph": "child"}],
        subgraphs=[{"id": "child", "file": "child.json"}],
        entry=["sub"],
    )
    [finding] = [f for f in validate(spec, base_dir=tmp_path) if f.code == "bad-subgraph"]
    assert "child.json" in finding.message and "$.nodes[0]: " in finding.message


def test_a_python_builtin_outside_the_comprehension_that_binds_it_is_an_error():
    spec = graph(
        state=[{"name": "xs", "type": "list"}, {"name": "out", "type": "list"}],
        nodes=[setter("summarise", out="[1 for eval in []] + sorted(xs, key=eval)"),
               setter("fine", out="[eval for eval in xs]")],
        edges=[{"id": "ab", "sources": ["summarise"], "target": "fine"}],
        entry=["summarise"],
        finish=["fine"],
    )  # fmt: skip
    [finding] = [f for f in validate(spec) if f.code == "forbidden-name"]
    assert (finding.severity, finding.element_id, finding.path) == (
        "error", "summarise", "$.nodes[0].values.out",
    )  # fmt: skip
    assert "'eval'" in finding.message and "summarise" in str(finding)


def test_a_comprehension_variable_read_before_its_for_is_an_error():
    spec = graph(
        state=[{"name": "xs", "type": "list"}],
        nodes=[setter("a", xs="[x for x in xs if y for y in xs]")],
        entry=["a"],
        finish=["a"],
    )
    assert ("error", "unbound-name", "a", "$.nodes[0].values.xs") in _codes(spec)
