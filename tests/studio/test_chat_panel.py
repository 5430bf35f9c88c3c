"""The chat panel on a spec whose agent uses provider `openai` with a base URL: the real
langchain-openai client against tests/openai_server.py, the key from the keychain (an in-memory
keyring backend), tokens arriving in the panel mid-run, tool calls as cards with their results,
HITL decisions answered on the card, Stop, the chat and graph views of one thread; screenshots
(`SUPERSTEP_SCREENSHOT_DIR=docs python -m pytest tests/studio/test_chat_panel.py`)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from graphspec.credentials import store_key
from tests.providers.conftest import memory_keyring, openai_server  # noqa: F401  (fixtures)
from tests.providers.test_cli_providers import KEY, agent_spec
from tests.studio.test_run_screenshot import save_grab
from tests.studio.test_run_steps import click, idle

pytestmark = pytest.mark.gui


def open_spec(qtbot, win, tmp_path, doc, trusted: bool = True):
    path = tmp_path / "chat_agent.json"
    path.write_text(json.dumps(doc))
    assert win.open_path(path)
    idle(qtbot, win)
    if (
        trusted
        and win.findChild(QPushButton, "trustButton") is not None
        and win.run_blocker() is not None
    ):
        click(qtbot, win, "trustButton")
    win.resize(1280, 720)
    chat = win.dock("chatDock")
    chat.show()
    chat.raise_()
    win.resizeDocks([chat], [540], Qt.Orientation.Horizontal)
    return win.chat_panel


def grab(qtbot, win, name, tmp_path):
    """Room to read the conversation in 1280x720 (the chat takes the right column: the docks
    under it close), then the window to docs/NAME."""
    chat = win.dock("chatDock")
    mates = set(win.tabifiedDockWidgets(chat))
    for dock in win.docks:
        if (
            dock is not chat
            and dock not in mates
            and win.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
        ):
            dock.hide()
    chat.raise_()
    qtbot.wait(50)
    win.view.fit()
    qtbot.wait(300)  # the fit animates: grab once it settled
    panel = win.chat_panel
    panel.scroll.verticalScrollBar().setValue(panel.scroll.verticalScrollBar().maximum())
    qtbot.wait(20)
    return save_grab(win, name, tmp_path)


def send(qtbot, panel, text: str) -> None:
    panel.input.setPlainText(text)
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)


def texts(panel, name="bubbleText") -> list[str]:
    return [
        w.text()
        for w in panel.container.findChildren(QLabel, name)
        if w.isVisibleTo(panel.container)
    ]


@pytest.fixture
def keyed(openai_server, memory_keyring):  # noqa: F811
    openai_server.api_key = KEY
    store_key("openai", KEY)
    return openai_server


def test_tokens_arrive_in_the_panel_mid_run(qtbot, window, tmp_path, keyed):
    keyed.reply(
        "Pregel runs **supersteps**: plan, execute, update, then the next step.", token_delay=0.15
    )
    panel = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, panel, "How does Pregel run a graph?")
    # a streaming bubble grows while the run is still going
    qtbot.waitUntil(lambda: any("supersteps" in t for t in panel.live_text.values()), timeout=10000)
    assert panel.session.running and panel.stop_button.isEnabled()
    partial = next(iter(panel.live_text.values()))
    assert not partial.endswith("next step.")
    grab(qtbot, window, "chat-streaming.png", tmp_path)
    idle(qtbot, window, timeout=20000)
    assert texts(panel)[-1].startswith("Pregel runs **supersteps**") and panel.live == {}
    assert texts(panel)[0] == "How does Pregel run a graph?"
    assert {r.headers["authorization"] for r in keyed.requests} == {f"Bearer {KEY}"}


def test_tool_call_card_shows_arguments_and_result(qtbot, window, tmp_path, keyed):
    keyed.reply("Let me add them.", tool_calls=[("add", {"a": 2, "b": 3})])
    keyed.reply("2 + 3 = **5**.")
    panel = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, panel, "What is 2 + 3?")
    idle(qtbot, window, timeout=20000)
    card = panel.cards["call_0"]
    assert json.loads(card.args.text()) == {"a": 2, "b": 3} and card.result.text() == "→ 5"
    assert texts(panel)[-1] == "2 + 3 = **5**."
    grab(qtbot, window, "chat-tool-card.png", tmp_path)
    # the graph view of the same thread and back: nothing lost
    window.findChild(type(window.menus["&View"].actions()[0]), "graph_viewAction").trigger()
    window.findChild(type(window.menus["&View"].actions()[0]), "chat_viewAction").trigger()
    assert panel.cards["call_0"].result.text() == "→ 5" and texts(panel)[-1] == "2 + 3 = **5**."


def test_hitl_decision_inline_on_the_card(qtbot, window, tmp_path, keyed):
    doc = agent_spec(keyed.base_url)
    doc["agents"][0]["middleware"] = [
        {
            "kind": "prebuilt",
            "name": "human_in_the_loop",
            "settings": {"interrupt_on": {"add": True}},
        }
    ]
    keyed.reply("I will add them.", tool_calls=[("add", {"a": 2, "b": 3})])
    keyed.reply("With your numbers: 12.")
    panel = open_spec(qtbot, window, tmp_path, doc)
    send(qtbot, panel, "Add 2 and 3")
    idle(qtbot, window, timeout=20000)
    card = panel.cards.get("call_0") or panel.cards["review:0"]
    assert card.review is not None and json.loads(card.args.text()) == {"a": 2, "b": 3}
    assert {b.objectName() for b in card.review.findChildren(QPushButton)} >= {
        "approveButton",
        "editButton",
        "rejectButton",
    }
    edit = card.findChild(QPushButton, "editButton")
    # a click lands where the button is drawn: wait until the new card is laid out
    qtbot.waitUntil(lambda: edit.isVisible() and edit.height() > 0, timeout=5000)
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)  # a double-click only opens the editor
    assert not card.editor.isHidden() and card.review.isEnabled()
    card.editor.setPlainText('{"a": 5, "b": 7}')
    grab(qtbot, window, "chat-hitl.png", tmp_path)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a person's pace: a second click
    qtbot.mouseClick(edit, Qt.MouseButton.LeftButton)
    # the resume starts from the event loop: wait for its answer, not for a moment of idleness
    # (on a loaded machine the run may not have begun when the click returns)
    qtbot.waitUntil(lambda: texts(panel)[-1] == "With your numbers: 12.", timeout=20000)
    idle(qtbot, window, timeout=20000)
    assert "Executed instead: add" in panel.cards["call_0"].result.text() and panel.cards[
        "call_0"
    ].result.text().endswith("12")


def test_stop_ends_the_run_after_the_step(qtbot, window, tmp_path, keyed):
    keyed.reply("a slow answer " * 5, token_delay=0.05)
    panel = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, panel, "go")
    qtbot.waitUntil(lambda: bool(panel.live_text), timeout=10000)
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    idle(qtbot, window, timeout=20000)
    assert not panel.session.running and panel.send_button.isEnabled()


def test_a_provider_error_shows_on_the_node_not_a_crash(qtbot, window, tmp_path, keyed):
    keyed.fail(401)
    panel = open_spec(qtbot, window, tmp_path, agent_spec(keyed.base_url))
    send(qtbot, panel, "hi")
    idle(qtbot, window, timeout=20000)
    runner = window.runner
    assert runner.last_failure is not None
    assert runner.last_failure.message.startswith(
        "assistant: the provider rejected the API key (401)"
    )
    assert runner.overlay.errors["assistant"].startswith("the provider rejected the API key (401)")
