"""get_graph(): the drawable graph of a compiled Pregel (nodes, edges, conditional edges)."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables.graph import Graph

from engine.constants import END, START


def draw_pregel_graph(pregel: Any) -> Graph:
    """Use the builder's edges when the graph came from StateGraph; else channel wiring."""
    builder = getattr(pregel, "builder", None)
    graph = Graph()
    if builder is None:
        return _channel_graph(pregel, graph)
    nodes = {START: graph.add_node(None, START)}
    for name, spec in builder.nodes.items():
        nodes[name] = graph.add_node(None, name, metadata=spec.metadata or None)
    needs_end = False

    def node(name: str):
        nonlocal needs_end
        if name == END:
            needs_end = True
            if END not in nodes:
                nodes[END] = graph.add_node(None, END)
        return nodes[name]

    for source, target in sorted(builder.edges):
        graph.add_edge(node(source), node(target))
    for sources, target in sorted(builder.waiting_edges):
        for source in sources:
            graph.add_edge(node(source), node(target))
    for source, branches in builder.branches.items():
        for branch in branches.values():
            ends = branch.ends
            if ends is None:
                targets = {n: n for n in builder.nodes if n != source}
                targets[END] = END
            else:
                targets = ends
            for label, target in targets.items():
                graph.add_edge(
                    node(source), node(target), data=str(label) if label != target else None,
                    conditional=True,
                )
    for name, spec in builder.nodes.items():
        for target in spec.ends or ():
            graph.add_edge(node(name), node(target), conditional=True)
    return graph


def _channel_graph(pregel: Any, graph: Graph) -> Graph:
    ids = {name: graph.add_node(None, name) for name in pregel.nodes}
    writers_of: dict[str, list[str]] = {}
    for name, node in pregel.nodes.items():
        for writer in node.writers:
            for entry in getattr(writer, "writes", []):
                channel = getattr(entry, "channel", None)
                if channel:
                    writers_of.setdefault(channel, []).append(name)
    for name, node in pregel.nodes.items():
        for trigger in node.triggers:
            for source in writers_of.get(trigger, []):
                graph.add_edge(ids[source], ids[name])
    return graph
