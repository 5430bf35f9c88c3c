"""An edge never runs through a card: a program's tool loop (model node -> tool node -> back up)
and its route to END past the tool node are drawn around the cards, back edges on the left,
edges down on the right, with their labels off the cards. Before, every edge was a straight
curve down the column, so the route to END crossed the tool node (reading as "tools -> END"),
its label sat on that card, and the loop back up ran through both cards."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF

from tests.programs.test_programs import HERE
from tests.studio.code_programs import open_program
from tests.studio.helpers import drag

pytestmark = pytest.mark.gui


def crossed(window, key: str) -> list[str]:
    """The cards (not the edge's own ends, unless it goes back up) the edge's line runs inside,
    away from its ports."""
    edge = window.scene.edges[key]
    first, last = edge._path.pointAtPercent(0), edge._path.pointAtPercent(1)
    back = last.y() < first.y()
    points = [edge._path.pointAtPercent(i / 100) for i in range(4, 97)]
    ends = {*edge.look.sources, edge.look.target}
    cards = {**window.scene.nodes, **window.scene.terminals}
    return [
        name
        for name, card in cards.items()
        if (back or name not in ends)
        and any(card.sceneBoundingRect().adjusted(8, 8, -8, -8).contains(p) for p in points)
    ]


def labels_on_cards(window) -> list[tuple[str, str]]:
    cards = {**window.scene.nodes, **window.scene.terminals}
    return [
        (key, name)
        for key, edge in window.scene.edges.items()
        if edge.look.label
        for name, card in cards.items()
        if edge.label_rect().intersects(card.sceneBoundingRect().adjusted(4, 4, -4, -4))
    ]


def open_corpus(qtbot, window, monkeypatch, file: str, attr: str) -> None:
    path = HERE / file
    monkeypatch.syspath_prepend(str(HERE))  # the corpus's offline model
    monkeypatch.syspath_prepend(str(path.parent))
    open_program(qtbot, window, path, attr)


def test_a_tool_loop_and_its_route_to_end_go_around_the_cards(qtbot, window, monkeypatch):
    open_corpus(qtbot, window, monkeypatch, "gh_deep_research/app.py", "agent")
    scene = window.scene
    assert {k: crossed(window, k) for k in scene.edges} == {k: [] for k in scene.edges}
    assert labels_on_cards(window) == []
    tools, llm = scene.nodes["tools"].sceneBoundingRect(), scene.nodes["llm"].sceneBoundingRect()
    back = scene.edges["tools_to_llm"]._path.boundingRect()
    assert back.left() < min(tools.left(), llm.left())  # back up: on the left
    to_end = next(e for e in scene.edges.values() if e.look.target == "__end__")
    assert to_end._path.boundingRect().right() > tools.right()  # past the tool node: right


def test_nested_detours_of_a_review_loop_keep_apart(qtbot, window, monkeypatch):
    """Two loops back up to the model node (from the review node and from the tool node below
    it) and the model's route to END past both: none crosses a card, and the longer loop runs
    further out than the shorter."""
    open_corpus(qtbot, window, monkeypatch, "gh_human_audit.py", "graph")
    scene = window.scene
    assert {k: crossed(window, k) for k in scene.edges} == {k: [] for k in scene.edges}
    assert labels_on_cards(window) == []
    short = scene.edges["human_review_node>call_llm"]._path.boundingRect()
    long = scene.edges["run_tool_to_call_llm"]._path.boundingRect()
    assert long.left() < short.left() - 20


def test_a_card_dragged_out_of_the_way_lets_the_edge_go_straight(qtbot, window, monkeypatch):
    open_corpus(qtbot, window, monkeypatch, "gh_deep_research/app.py", "agent")
    scene = window.scene
    to_end = next(k for k, e in scene.edges.items() if e.look.target == "__end__")
    assert scene.edges[to_end]._path.elementCount() == 7  # two curves: around the tool node
    tools = scene.nodes["tools"]
    start = tools.sceneBoundingRect().topLeft() + QPointF(40, 12)
    drag(window.view, start, start + QPointF(400, 0))
    assert crossed(window, to_end) == []
    assert scene.edges[to_end]._path.elementCount() == 4  # one curve, straight to END again


def test_the_timeline_path_follows_the_drawn_detour(qtbot, window, monkeypatch):
    """The path overlay (the timeline's nodes and edges run so far) draws the loop back up along
    the edge as drawn, beside the cards, not through them."""
    from collections import Counter

    from studio.timeline.path_overlay import PathOverlay

    open_corpus(qtbot, window, monkeypatch, "gh_deep_research/app.py", "agent")
    PathOverlay(window.scene).show(Counter({"llm": 2, "tools": 1}), Counter({("tools", "llm"): 1}))
    [line] = [i for i in window.scene.items() if i.data(0) == "path:tools->llm"]
    drawn = window.scene.edges["tools_to_llm"].shape().boundingRect()
    assert (
        line.path().boundingRect().left() < window.scene.nodes["tools"].sceneBoundingRect().left()
    )
    assert drawn.contains(line.path().boundingRect())


def test_the_value_carried_back_up_glows_along_the_drawn_loop(qtbot, window, monkeypatch):
    """Stepping the agent to its tool step: what the tool node wrote, carried back up to the
    model node, glows along the loop as drawn, left of the cards."""
    import json

    from PySide6.QtCore import Qt

    open_corpus(qtbot, window, monkeypatch, "gh_deep_research/app.py", "agent")
    runner = window.runner
    runner.new_thread()
    runner.input_panel.editor.setPlainText(
        json.dumps({"messages": [{"role": "user", "content": "What is LangGraph?"}]})
    )
    for _ in range(3):  # input, llm, tools
        qtbot.mouseClick(runner.step_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not runner.session.busy, timeout=20000)
    [glow] = [i for i in window.scene.items() if i.data(0) == "carried:tools->llm"]
    cards = [window.scene.nodes[n].sceneBoundingRect() for n in ("llm", "tools")]
    assert glow.path().boundingRect().left() < min(card.left() for card in cards)
