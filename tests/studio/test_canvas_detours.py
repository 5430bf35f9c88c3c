"""An edge never runs through a card: a program's tool loop (model node -> tool node -> back up)
and its route to END past the tool node are drawn around the cards, back edges on the left,
edges down on the right, with their labels off the cards. Before, every edge was a straight
curve down the column, so the route to END crossed the tool node (reading as "tools -> END"),
its label sat on that card, and the loop back up ran through both cards."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QLineF, QPointF, Qt

from tests.programs.test_programs import HERE
from tests.studio.code_programs import open_program
from tests.studio.helpers import LEFT, NONE, _send, drag

pytestmark = pytest.mark.gui
NO_KEYS = Qt.KeyboardModifier.NoModifier


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


def test_other_edges_go_around_a_card_while_it_is_dragged(qtbot, window, monkeypatch):
    """Before the button is released: the route to END (an edge of other cards) goes straight
    once the tool node is dragged out of its way, and around it again when it is dragged back
    across it; before, only the dragged card's own edges followed it until the release."""
    open_corpus(qtbot, window, monkeypatch, "gh_deep_research/app.py", "agent")
    scene, view = window.scene, window.view
    to_end = next(k for k, e in scene.edges.items() if e.look.target == "__end__")
    assert "tools" not in scene.edges[to_end].look.sources
    start = scene.nodes["tools"].sceneBoundingRect().topLeft() + QPointF(40, 12)
    _send(view, QEvent.Type.MouseButtonPress, start, LEFT, LEFT, NO_KEYS)
    for step in range(1, 5):
        _send(view, QEvent.Type.MouseMove, start + QPointF(100 * step, 0), NONE, LEFT, NO_KEYS)
    assert scene.edges[to_end]._path.elementCount() == 4  # straight to END, while dragged
    for step in range(3, -1, -1):
        _send(view, QEvent.Type.MouseMove, start + QPointF(100 * step, 0), NONE, LEFT, NO_KEYS)
    assert scene.edges[to_end]._path.elementCount() == 7  # around the card again
    assert crossed(window, to_end) == []
    _send(view, QEvent.Type.MouseButtonRelease, start, LEFT, NONE, NO_KEYS)
    assert crossed(window, to_end) == []


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


def test_in_a_big_graph_other_edges_go_around_when_the_dragged_card_rests(qtbot, window):
    """Above LIVE_DETOURS edges a move of the card routes only its own edges (a drag costs what
    it did); an edge it now lies across goes around it once it rests, still before the release
    (here the detour's way out from its source still cuts the card's corner, as it does after
    the release: the routing's own shape)."""
    from bench.canvas import generated_spec
    from studio.canvas.scene import LIVE_DETOURS

    window._start_editing(generated_spec(300, LIVE_DETOURS + 150), None, trusted=True)
    scene, view = window.scene, window.view
    view.zoom_by(1 / view.zoom())
    view._zoom_settle.stop()
    view._zoom_settled()
    key, edge = next((k, e) for k, e in scene.edges.items()
                     if e.beside is None and e._path.length() > 300)  # fmt: skip
    middle = edge._path.pointAtPercent(0.5)
    ends = {*edge.look.sources, edge.look.target}
    card = min((c for n, c in scene.nodes.items() if n not in ends),
               key=lambda c: QLineF(c.sceneBoundingRect().center(), middle).length())  # fmt: skip
    view.centerOn(card)
    qtbot.wait(100)  # the view settled: no scroll replays the drag's last move later
    start = card.sceneBoundingRect().center()
    _send(view, QEvent.Type.MouseButtonPress, start, LEFT, LEFT, NO_KEYS)
    for step in range(1, 5):
        _send(view, QEvent.Type.MouseMove, start + (middle - start) * (step / 4), NONE, LEFT,
              NO_KEYS)  # fmt: skip
    assert edge._path.elementCount() == 4  # the move itself left it straight through the card
    assert card.node_id in crossed(window, key)
    qtbot.waitUntil(lambda: edge._path.elementCount() == 7, timeout=2000)  # the card rested
    assert edge._path.boundingRect().right() > card.sceneBoundingRect().right()  # around it
    _send(view, QEvent.Type.MouseButtonRelease, middle, LEFT, NONE, NO_KEYS)
