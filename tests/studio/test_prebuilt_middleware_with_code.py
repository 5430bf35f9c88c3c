"""A prebuilt middleware built with code for a setting (`ToolErrorMiddleware(on_error)`, a
function of the program) opens in the studio as an editable spec, the middleware made by the
program's call as written, and Step runs it to langgraph's final state."""

from __future__ import annotations

import pytest

from tests.oracle import normalize
from tests.studio.code_programs import final_state_on_langgraph, open_program, step_to_end

pytestmark = pytest.mark.gui

GUARDED_AGENT = '''
from datetime import date

from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool


class Scripted(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


@tool
def weekday(day: str) -> str:
    """The weekday of an ISO date."""
    return date.fromisoformat(day).strftime("%A")


def on_error(exc, request):
    if isinstance(exc, ValueError):
        return f"{request.tool_call['name']} failed: {type(exc).__name__}"
    return None


agent = create_agent(
    Scripted(responses=[
        AIMessage("", tool_calls=[{"name": "weekday", "args": {"day": "2024-02-30"}, "id": "c1"}]),
        AIMessage("That is no date."),
    ]),
    tools=[weekday],
    middleware=[ToolErrorMiddleware(on_error)],
)
'''


def test_a_prebuilt_middleware_with_a_function_setting_opens_as_a_spec(qtbot, window, tmp_path):
    program = tmp_path / "guarded.py"
    program.write_text(GUARDED_AGENT, encoding="utf-8")
    open_program(qtbot, window, program, "agent")
    assert window.document.code is None  # an editable spec, not a drawing of the code
    value = {"messages": [{"role": "user", "content": "Which weekday is 2024-02-30?"}]}
    step_to_end(qtbot, window, value)

    expected = final_state_on_langgraph(program, "agent", value)
    assert "weekday failed: ValueError" in str(expected["messages"])
    assert normalize(window.runner.view.values) == normalize(expected)
