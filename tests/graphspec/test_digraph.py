"""graphspec.digraph stands in for networkx in the validator and the canvas layout (issue 32.1:
networkx's import was a quarter of `superstep validate`); its answers are networkx's, in
networkx's order, on many random graphs (networkx is still installed for the tests)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from graphspec import digraph
from tests.graphspec.helpers import fresh_process


def random_pair(seed: int) -> tuple[digraph.DiGraph, nx.DiGraph]:
    rng = random.Random(seed)
    names = [f"n{i}" for i in range(rng.randint(1, 14))]
    ours, theirs = digraph.DiGraph(), nx.DiGraph()
    nodes = rng.sample(names, rng.randint(0, len(names)))
    edges = [(rng.choice(names), rng.choice(names)) for _ in range(rng.randint(0, 30))]
    gone_nodes = rng.sample(names, min(len(names), rng.randint(0, 3)))
    gone_edges = [*rng.sample(edges, min(len(edges), rng.randint(0, 5))), ("n0", "nowhere")]
    for graph in (ours, theirs):
        graph.add_nodes_from(nodes)
        graph.add_edges_from(edges)
        graph.remove_nodes_from(gone_nodes)
        graph.remove_edges_from(gone_edges)
    return ours, theirs


@pytest.mark.parametrize("seed", range(300))
def test_the_same_graph_walks_as_networkx(seed):
    ours, theirs = random_pair(seed)
    assert ours.nodes == list(theirs.nodes)
    for node in theirs:
        assert list(ours.successors(node)) == list(theirs.successors(node))
        assert list(ours.predecessors(node)) == list(theirs.predecessors(node))
        assert ours.out_degree(node) == theirs.out_degree(node)
        assert ours.in_edges(node) == list(theirs.in_edges(node))
        assert ours.out_edges(node) == list(theirs.out_edges(node))
        assert digraph.descendants(ours, node) == nx.descendants(theirs, node)
        assert digraph.ancestors(ours, node) == nx.ancestors(theirs, node)
    assert list(digraph.strongly_connected_components(ours)) == list(
        nx.strongly_connected_components(theirs)
    )
    if nx.is_directed_acyclic_graph(theirs):
        order = list(digraph.topological_sort(ours))
        assert sorted(order) == sorted(theirs.nodes)
        place = {node: i for i, node in enumerate(order)}
        assert all(place[a] < place[b] for a, b in theirs.edges)
    else:
        with pytest.raises(ValueError, match="cycle"):
            list(digraph.topological_sort(ours))


def test_checking_a_spec_loads_no_networkx():
    code = ("import sys\nfrom studio.cli import main\nmain(['validate', 'router'])\n"
            "print('networkx' in sys.modules)")  # fmt: skip
    assert fresh_process(code) == "False"
