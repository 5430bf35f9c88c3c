"""A program whose nodes and tools a library made (langgraph-supervisor's README, issue 33)
opens in the studio as an editable spec, and the inspector shows each library call that made a
node or a tool as one read-only line of Python."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit, QListWidget

from graphspec.deep_agent_spec import SubAgentSpec
from graphspec.io import read_spec, save_spec
from graphspec.model import Argument, Call, CodeRef
from graphspec.templates import TEMPLATES_DIR
from tests.programs.test_programs import ENTRIES, HERE, forget_local_modules, home
from tests.studio.code_programs import open_program
from tests.studio.helpers import center, click
from tests.studio.test_agent_inspector import find, select_row
from tests.studio.test_open_programs import where

pytestmark = pytest.mark.gui


def test_the_inspector_shows_the_library_calls_that_made_nodes_and_tools(
    qtbot, window, monkeypatch
):
    entry = ENTRIES["supervisor_readme"]
    monkeypatch.syspath_prepend(str(HERE))  # the programs' shared offline model
    monkeypatch.syspath_prepend(str(home(entry)))
    forget_local_modules(home(entry))
    open_program(qtbot, window, *where(entry))
    assert window.document.code is None  # an editable spec, not a drawing of the code

    click(window.view, center(window.scene.nodes["research_expert"]))
    call = find(qtbot, window, QLineEdit, "inspector_call")
    assert call.isReadOnly()
    assert call.text() == (
        "langgraph_supervisor.supervisor:_make_call_agent(agent=supervisor_readme:research_agent, "
        "output_mode='last_message', add_handoff_back_messages=True, supervisor_name='supervisor')"
    )

    click(window.view, center(window.scene.nodes["supervisor"]))
    names = find(qtbot, window, QListWidget, "toolsList")
    shown = [names.item(i).text() for i in range(names.count())]
    # langgraph-supervisor makes its handoff tools in the order of a set of names
    assert sorted(shown) == ["transfer_to_math_expert", "transfer_to_research_expert"]
    select_row(qtbot, window, "toolsList", shown.index("transfer_to_research_expert"))
    wanted = "langgraph_supervisor.handoff:create_handoff_tool(agent_name='research_expert')"
    qtbot.waitUntil(lambda: find(qtbot, window, QLineEdit, "toolCall").text() == wanted)
    assert find(qtbot, window, QLineEdit, "toolCall").isReadOnly()
    assert find(qtbot, window, QLineEdit, "toolName").isReadOnly()


def test_a_compiled_subagent_shows_the_call_that_made_its_graph(qtbot, window, tmp_path):
    """deepagents' CompiledSubAgent (as `superstep import` keeps one): the subagent's graph is
    the call the program wrote, shown read-only where a subagent's prompt would be."""
    spec = read_spec(TEMPLATES_DIR / "deep_agent.json")
    agent = spec.agent("report_writer")
    made = CodeRef(import_path="langchain.agents:create_agent",
                   call=Call(args=[Argument(value="openai:gpt-4o")]))  # fmt: skip
    compiled = SubAgentSpec(name="researcher", description="Researches.", runnable=made)
    deep = agent.deep.model_copy(update={"subagents": [compiled]})
    agents = [agent.model_copy(update={"deep": deep})]
    path = tmp_path / "compiled_subagent.json"
    save_spec(spec.model_copy(update={"agents": agents}), path)
    assert window.open_path(path)
    click(window.view, center(window.scene.nodes["writer"]))
    runs = find(qtbot, window, QLineEdit, "subagentRunnable")
    assert runs.isReadOnly() and runs.text() == "langchain.agents:create_agent('openai:gpt-4o')"
