"""Differential tests of get_graph(): nodes (with metadata), edges and Mermaid text.

Each test runs on both backends (`backend` fixture) and asserts what langgraph 1.2.24 draws.
"""

import asyncio
import operator
from typing import Annotated, Literal, TypedDict

from tests.engine.graphs import _cond_app, _join_app, route_literal

HEADER = "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n"
FOOTER = (
    "\tclassDef default fill:#f2f0ff,line-height:1.2\n"
    "\tclassDef first fill-opacity:0\n"
    "\tclassDef last fill:#bfb6fc\n"
)


class S(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _nodes(graph):
    return [(n.id, n.metadata) for n in graph.nodes.values()]


def _edges(graph):
    """The edges, sorted, as Mermaid-like text: `a --> b`, `a -.-> b`, `a -.label.-> b`."""
    out = []
    for e in sorted(graph.edges, key=lambda e: (e.source, e.target, e.conditional, e.data or "")):
        arrow = f"-.{e.data or ''}.->" if e.conditional else "-->"
        out.append(f"{e.source} {arrow} {e.target}")
    return "; ".join(out)


def _noop(state):
    return {}


def _chain(b, names):
    G = b.graph
    g = G.StateGraph(S)
    for name in names:
        g.add_node(name, _noop)
    g.add_edge(G.START, names[0])
    for a, c in zip(names, names[1:], strict=False):
        g.add_edge(a, c)
    return g


def test_loop_with_conditional_back_edge(backend):
    G = backend.graph
    g = _chain(backend, ["a", "b"])
    g.add_conditional_edges(
        "b", lambda s: "again" if s["n"] < 3 else "stop", {"again": "a", "stop": G.END}
    )
    graph = g.compile().get_graph()
    assert _edges(graph) == ("__start__ --> a; a --> b; b -.stop.-> __end__; b -.again.-> a")
    assert graph.draw_mermaid() == (
        HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\ta(a)\n"
        "\tb(b)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> a;\n"
        "\ta --> b;\n"
        "\tb -. &nbsp;stop&nbsp; .-> __end__;\n"
        "\tb -. &nbsp;again&nbsp; .-> a;\n" + FOOTER
    )


def test_self_loop_labels(backend):
    G = backend.graph
    g = _chain(backend, ["a"])
    g.add_conditional_edges("a", lambda s: G.END, {"more": "a", "done": G.END})
    assert _edges(g.compile().get_graph()) == (
        "__start__ --> a; a -.done.-> __end__; a -.more.-> a"
    )


def test_interrupt_markers(backend):
    saver = backend.mod("checkpoint.memory").InMemorySaver()
    app = _chain(backend, ["a", "b", "c"]).compile(
        checkpointer=saver, interrupt_before=["a", "b"], interrupt_after=["b", "c"]
    )
    graph = app.get_graph()
    assert _nodes(graph) == [
        ("__start__", None),
        ("a", {"__interrupt": "before"}),
        ("b", {"__interrupt": "before,after"}),
        ("c", {"__interrupt": "after"}),
        ("__end__", None),
    ]
    assert graph.draw_mermaid() == (
        HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\ta(a<hr/><small><em>__interrupt = before</em></small>)\n"
        "\tb(b<hr/><small><em>__interrupt = before,after</em></small>)\n"
        "\tc(c<hr/><small><em>__interrupt = after</em></small>)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> a;\n"
        "\ta --> b;\n"
        "\tb --> c;\n"
        "\tc --> __end__;\n" + FOOTER
    )
    # "*" marks no node
    star = _chain(backend, ["a"]).compile(checkpointer=saver, interrupt_before="*")
    assert _nodes(star.get_graph()) == [("__start__", None), ("a", None), ("__end__", None)]


def test_deferred_node_metadata(backend):
    G = backend.graph
    g = G.StateGraph(S)
    for name in ("a", "b", "b2"):
        g.add_node(name, _noop)
    g.add_node("c", _noop, defer=True)
    g.add_edge(G.START, "a")
    g.add_edge(G.START, "b")
    g.add_edge("b", "b2")
    g.add_edge("a", "c")
    g.add_edge("b2", "c")
    graph = g.compile().get_graph()
    assert ("c", {"defer": True}) in _nodes(graph)
    assert _edges(graph) == (
        "__start__ --> a; __start__ --> b; a --> c; b --> b2; b2 --> c; c --> __end__"
    )


def test_conditional_edge_without_path_map_draws_edge_to_end(backend):
    g = _chain(backend, ["a"])
    g.add_node("b", _noop)
    g.add_node("c", _noop)
    g.add_conditional_edges("a", lambda s: "b")
    g.add_edge("b", "c")
    graph = g.compile().get_graph()
    assert list(graph.nodes) == ["__start__", "a", "b", "c", "__end__"]
    assert _edges(graph) == "__start__ --> a; a --> __end__"


def test_command_return_hint_with_end(backend):
    G = backend.graph
    Command = backend.types.Command

    def a(s) -> Command[Literal["b", "__end__"]]:
        return Command(goto="b")

    g = G.StateGraph(S)
    g.add_node("a", a)
    g.add_node("b", _noop)
    g.add_edge(G.START, "a")
    assert _edges(g.compile().get_graph()) == (
        "__start__ --> a; a -..-> __end__; a -..-> b; b --> __end__"
    )


def test_send_from_node_branch(backend):
    Send = backend.types.Send
    g = _chain(backend, ["a"])
    g.add_node("w", _noop)
    g.add_node("z", _noop)
    g.add_conditional_edges("a", lambda s: [Send("w", s)], ["w"])
    g.add_edge("w", "z")
    assert _edges(g.compile().get_graph()) == ("__start__ --> a; a -..-> w; w --> z; z --> __end__")


def _three_levels(b):
    leaf = _chain(b, ["l1", "l2"]).compile()
    mid = _chain(b, ["m"])
    mid.add_node("leaf", leaf)
    mid.add_edge("m", "leaf")
    top = _chain(b, ["pre"])
    top.add_node("mid", mid.compile())
    top.add_node("post", _noop)
    top.add_edge("pre", "mid")
    top.add_edge("mid", "post")
    return top.compile()


def test_xray_levels(backend):
    app = _three_levels(backend)
    assert _edges(app.get_graph()) == (
        "__start__ --> pre; mid --> post; post --> __end__; pre --> mid"
    )
    one = app.get_graph(xray=1)
    assert list(one.nodes) == ["__start__", "pre", "post", "__end__", "mid:m", "mid:leaf"]
    assert _edges(one) == (
        "__start__ --> pre; mid:leaf --> post; mid:m --> mid:leaf; post --> __end__; pre --> mid:m"
    )
    assert one.draw_mermaid() == (
        HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\tpre(pre)\n"
        "\tpost(post)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> pre;\n"
        "\tmid\\3aleaf --> post;\n"
        "\tpre --> mid\\3am;\n"
        "\tpost --> __end__;\n"
        "\tsubgraph mid\n"
        "\tmid\\3am(m)\n"
        "\tmid\\3aleaf(leaf)\n"
        "\tmid\\3am --> mid\\3aleaf;\n"
        "\tend\n" + FOOTER
    )
    two = app.get_graph(xray=2)
    assert _edges(two) == (
        "__start__ --> pre; mid:leaf:l1 --> mid:leaf:l2; mid:leaf:l2 --> post; "
        "mid:m --> mid:leaf:l1; post --> __end__; pre --> mid:m"
    )
    assert two.draw_mermaid() == app.get_graph(xray=True).draw_mermaid()
    assert "\tsubgraph leaf\n" in two.draw_mermaid()


def test_xray_subgraph_with_conditional_end(backend):
    G = backend.graph
    sg = _chain(backend, ["s1"])
    sg.add_node("s2", _noop)
    sg.add_conditional_edges("s1", lambda s: "s2", {"go": "s2", "stop": G.END})
    g = G.StateGraph(S)
    g.add_node("sub", sg.compile())
    g.add_node("q", _noop)
    g.add_edge(G.START, "sub")
    g.add_edge("sub", "q")
    graph = g.compile().get_graph(xray=1)
    assert list(graph.nodes) == ["__start__", "q", "__end__", "sub:s1", "sub:s2", "sub:__end__"]
    assert _edges(graph) == (
        "__start__ --> sub:s1; q --> __end__; sub:__end__ --> q; "
        "sub:s1 -.stop.-> sub:__end__; sub:s1 -.go.-> sub:s2; sub:s2 --> sub:__end__"
    )


def test_xray_finds_subgraph_invoked_inside_node(backend):
    G = backend.graph
    sub = _chain(backend, ["s1"]).compile()

    def call(state):
        return sub.invoke(state)

    g = G.StateGraph(S)
    g.add_node("call", call)
    g.add_edge(G.START, "call")
    app = g.compile()
    assert list(app.get_graph().nodes) == ["__start__", "call", "__end__"]
    assert _edges(app.get_graph(xray=True)) == ("__start__ --> call:s1; call:s1 --> __end__")


def test_low_level_pregel_graph(backend):
    P = backend.pregel
    EphemeralValue = backend.channels.EphemeralValue
    app = P.Pregel(
        nodes={
            "one": P.NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b"),
            "two": P.NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c"),
        },
        channels={k: EphemeralValue(str) for k in "abc"},
        input_channels="a",
        output_channels="c",
    )
    graph = app.get_graph()
    assert list(graph.nodes) == ["one", "two", "__start__", "__end__"]
    assert _edges(graph) == ("__start__ --> one; one --> two; two --> __end__")


def test_aget_graph_matches_get_graph(backend):
    app = _three_levels(backend)
    graph = asyncio.run(app.aget_graph(xray=1))
    assert graph.draw_mermaid() == app.get_graph(xray=1).draw_mermaid()


MERMAID_HEADER = "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n"


MERMAID_FOOTER = (
    "\tclassDef default fill:#f2f0ff,line-height:1.2\n"
    "\tclassDef first fill-opacity:0\n"
    "\tclassDef last fill:#bfb6fc\n"
)


def test_get_graph_nodes(backend):
    app = _cond_app(backend, route_literal)
    graph = app.get_graph()
    assert list(graph.nodes) == ["__start__", "start", "x", "y", "__end__"]
    assert [(n.id, n.name) for n in graph.nodes.values()] == [
        ("__start__", "__start__"),
        ("start", "start"),
        ("x", "x"),
        ("y", "y"),
        ("__end__", "__end__"),
    ]


def test_draw_mermaid_linear_with_join(backend):
    app = _join_app(backend, joined=False)
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\ta(a)\n"
        "\tb(b)\n"
        "\tb2(b2)\n"
        "\tc(c)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> a;\n"
        "\t__start__ --> b;\n"
        "\ta --> c;\n"
        "\tb --> b2;\n"
        "\tb2 --> c;\n"
        "\tc --> __end__;\n" + MERMAID_FOOTER
    )


def test_draw_mermaid_conditional(backend):
    app = _cond_app(backend, route_literal)
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\tstart(start)\n"
        "\tx(x)\n"
        "\ty(y)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> start;\n"
        "\tstart -.-> x;\n"
        "\tstart -.-> y;\n"
        "\tx --> __end__;\n"
        "\ty --> __end__;\n" + MERMAID_FOOTER
    )


def test_draw_mermaid_path_map_labels_and_unreachable_node(backend):
    END = backend.graph.END
    app = _cond_app(backend, lambda s: s["n"] > 0, {True: "x", False: END})
    # y is unreachable: it is still drawn, without edges, and the start/end nodes then lose
    # their :::first / :::last classes
    assert app.get_graph().draw_mermaid() == (
        MERMAID_HEADER + "\t__start__(<p>__start__</p>)\n"
        "\tstart(start)\n"
        "\tx(x)\n"
        "\ty(y)\n"
        "\t__end__(<p>__end__</p>)\n"
        "\t__start__ --> start;\n"
        "\tstart -. &nbsp;False&nbsp; .-> __end__;\n"
        "\tstart -. &nbsp;True&nbsp; .-> x;\n"
        "\tx --> __end__;\n" + MERMAID_FOOTER
    )


def test_to_json_names_node_runnables_as_langgraph_does(backend):
    """The graph's JSON (what LangGraph Studio and the server's graph endpoint read) shows
    each node's runnable by langgraph's class path: functions, subgraphs, a low-level
    Pregel's nodes, a user's own runnable as it is."""
    from langchain_core.runnables import RunnableLambda

    graph_mod = backend.graph
    sub = graph_mod.StateGraph(S)
    sub.add_node("inner", lambda s: {"n": 1})
    sub.add_edge(graph_mod.START, "inner")
    g = graph_mod.StateGraph(S)
    g.add_node("a", lambda s: {"n": 1})
    g.add_node("sub", sub.compile())
    g.add_node("user", RunnableLambda(lambda s: {"n": 2}))
    g.add_edge(graph_mod.START, "a")
    g.add_edge("a", "sub")
    g.add_edge("sub", "user")
    nodes = g.compile().get_graph().to_json()["nodes"]
    assert [(n["id"], n.get("type"), (n.get("data") or {}).get("id")) for n in nodes] == [
        ("__start__", "runnable", ["langgraph", "_internal", "_runnable", "RunnableCallable"]),
        ("a", "runnable", ["langgraph", "_internal", "_runnable", "RunnableCallable"]),
        ("sub", "runnable", ["langgraph", "graph", "state", "CompiledStateGraph"]),
        ("user", "runnable", ["langchain_core", "runnables", "base", "RunnableLambda"]),
        ("__end__", None, None),
    ]


def test_a_loop_without_end_ends_at_the_node_its_last_simulated_step_ran(backend):
    # the drawing simulates steps -1 .. 249; in a cycle without END the node that ran last
    # gets the dotted edge to END, so the cycle's length decides which one it is
    drawn = []
    for names in (["human", "agent"], ["a", "b", "c"], ["a", "b", "c", "d"]):
        g = _chain(backend, names)
        g.add_edge(names[-1], names[0])
        drawn.append(_edges(g.compile().get_graph()))
    assert drawn == [
        "__start__ --> human; agent -..-> __end__; agent --> human; human --> agent",
        "__start__ --> a; a -..-> __end__; a --> b; b --> c; c --> a",
        "__start__ --> a; a --> b; b -..-> __end__; b --> c; c --> d; d --> a",
    ]
