"""A Command destination is a possible next node, not a certain one (langgraph draws it as a
dashed, conditional edge): a node annotated `-> Command[Literal["x"]]` that returns a plain
update ends the run when nothing else follows it. A cycle through such destinations is no
endless loop; a cycle of plain edges still is."""

from __future__ import annotations

from graphspec.validator import validate
from tests.graphspec.helpers import graph, setter


def function(node_id: str, *destinations: str) -> dict:
    code = f"def {node_id}(state):\n    return {{'x': {node_id!r}}}\n"
    return {"id": node_id, "kind": "function", "code": code, "function": node_id,
            "destinations": list(destinations)}  # fmt: skip


def _codes(spec) -> set[tuple[str, str | None]]:
    return {(f.code, f.element_id) for f in validate(spec)}


def test_a_node_whose_only_destination_is_itself_is_no_endless_loop():
    # node_c: `-> Command[Literal["node_c"]]`, returning {"x": ...}: the run ends after it
    spec = graph(
        state=[{"name": "x"}],
        nodes=[
            function("node_a", "node_b", "node_c"),
            function("node_b", "node_b"),
            function("node_c", "node_c"),
        ],  # fmt: skip
        entry=["node_a"],
    )
    assert validate(spec) == []


def test_two_nodes_that_may_hand_over_to_each_other_are_no_endless_loop():
    spec = graph(
        state=[{"name": "x"}],
        nodes=[function("ping", "pong"), function("pong", "ping")],
        entry=["ping"],
    )
    codes = _codes(spec)
    assert ("endless-loop", "ping") not in codes and ("dead-end", "ping") not in codes


def test_a_cycle_of_plain_edges_is_endless_though_its_node_may_also_command():
    # a static edge always fires, whatever the node returns: the Command adds, never replaces
    spec = graph(
        state=[{"name": "x"}],
        nodes=[setter("a", x="0"), function("b", "c"), setter("c", x="1")],
        edges=[
            {"id": "ab", "sources": ["a"], "target": "b"},
            {"id": "bc", "sources": ["b"], "target": "c"},
            {"id": "cb", "sources": ["c"], "target": "b"},
        ],
        entry=["a"],
    )
    assert ("endless-loop", "b") in _codes(spec)


def test_a_set_state_goto_always_goes_so_its_cycle_is_still_endless():
    loop = {"id": "loop", "kind": "set_state", "values": {"x": "1"}, "goto": "'loop'",
            "destinations": ["loop"]}  # fmt: skip
    spec = graph(state=[{"name": "x"}], nodes=[loop], entry=["loop"])
    assert ("endless-loop", "loop") in _codes(spec)
