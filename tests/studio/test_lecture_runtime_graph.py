"""The compiled view's graph against langgraph's: each template's exported code compiled by
real langgraph has the same channels (name and class), the same triggers per node and the
same channel writes (edges, joins, Command destinations, router path maps) as the engine's
compiled graph that runtime_graph() reads."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver as LgSaver

from engine.checkpoint.memory import InMemorySaver
from graphspec.compiler import compile_spec
from studio.lecture.runtime_graph import runtime_graph
from tests.graphspec.helpers import TEMPLATE_NAMES, load_exported, template

NAMES = [n for n in TEMPLATE_NAMES if not n.startswith(("react_", "agent_"))]


def langgraph_arrows(app) -> set[tuple[str, str, str]]:
    """(source, target, kind) from langgraph's compiled graph, read as runtime_graph reads
    ours: triggers, ChannelWriteEntry writes, declared Command writes, and the routers'
    path maps (langgraph keeps those on the builder's branches)."""
    arrows = set()
    for name, node in app.nodes.items():
        arrows |= {(t, name, "trigger") for t in node.triggers}
        for writer in node.writers:
            for entry in getattr(writer, "writes", ()):
                if hasattr(entry, "channel"):
                    arrows.add((name, entry.channel, "write"))
                for channel, _value, _label in getattr(entry, "static", None) or ():
                    if channel in app.channels:
                        arrows.add((name, channel, "command"))
    for source, branches in app.builder.branches.items():
        for branch in branches.values():
            for end in (branch.ends or {}).values():
                if f"branch:to:{end}" in app.channels:
                    arrows.add((source, f"branch:to:{end}", "declared"))
    return arrows


@pytest.mark.parametrize("name", NAMES)
def test_the_compiled_view_shows_what_langgraph_compiles(name, tmp_path):
    spec = template(name)
    ours = compile_spec(spec, trusted=True, checkpointer=InMemorySaver())
    theirs = load_exported(spec, tmp_path, name).compile_graph(checkpointer=LgSaver())
    drawn = runtime_graph(ours)
    assert {c.name for c in drawn.channels} == set(ours.channels)
    # langgraph lists managed values (RemainingSteps...) among its channels, as classes: no mailbox
    mailboxes = {
        n: type(ch).__name__ for n, ch in theirs.channels.items() if not isinstance(ch, type)
    }
    assert {n: type(ch).__name__ for n, ch in ours.channels.items()} == mailboxes
    assert {n.name: set(n.triggers) for n in drawn.nodes} == {
        n: set(node.triggers) for n, node in theirs.nodes.items()
    }
    assert {(a.source, a.target, a.kind) for a in drawn.arrows} == langgraph_arrows(theirs)
