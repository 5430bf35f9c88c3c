"""A graph a library's factory builds (langgraph-bigtool's `create_agent`: nodes and a router
made inside it, tools made by a decorated factory wrapping each function, a reducer of the
library's module) opens in the studio as an editable spec, on the engine only, as the studio
loads a program, and Step runs it to langgraph's final state."""

from __future__ import annotations

import sys

import pytest

from tests.oracle import normalize
from tests.studio.code_programs import final_state_on_langgraph, open_program, step_to_end

pytestmark = pytest.mark.gui

BIGTOOL_AGENT = """
import math
import re
import zlib

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langgraph.store.memory import InMemoryStore
from langgraph_bigtool import create_agent
from langgraph_bigtool.utils import convert_positional_only_function_to_tool


class Scripted(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def embed(texts):
    vectors = []
    for text in texts:
        vector = [0.0] * 64
        for word in re.findall(r"[a-z]+", text.lower()):
            vector[zlib.crc32(word.encode()) % 64] += 1.0
        vectors.append(vector)
    return vectors


tool_registry = {
    name: convert_positional_only_function_to_tool(getattr(math, name))
    for name in ("acos", "cos", "floor")
}
store = InMemoryStore(index={"embed": embed, "dims": 64, "fields": ["description"]})
for tool_id, found in tool_registry.items():
    store.put(("tools",), tool_id, {"description": f"{found.name}: {found.description}"})

llm = Scripted(responses=[
    AIMessage("", tool_calls=[{"name": "retrieve_tools", "args": {"query": "arc cosine"},
                               "id": "call_1"}]),
    AIMessage("acos it is."),
])
builder = create_agent(llm, tool_registry, limit=1)
agent = builder.compile(store=store)
"""


def test_a_library_built_agent_opens_as_a_spec_and_runs_as_on_langgraph(
    qtbot, window, tmp_path, monkeypatch
):
    program = tmp_path / "big_agent.py"
    program.write_text(BIGTOOL_AGENT, encoding="utf-8")
    for name in [n for n in sys.modules if n.partition(".")[0] == "langgraph_bigtool"]:
        monkeypatch.delitem(sys.modules, name)  # the studio loads programs on the engine only

    open_program(qtbot, window, program, "agent")
    assert window.document.code is None  # an editable spec, not a drawing of the code
    value = {"messages": [{"role": "user", "content": "What is the arc cosine of 0.5?"}]}
    step_to_end(qtbot, window, value)
    shown = window.runner.view.values

    expected = final_state_on_langgraph(program, "agent", value)
    assert "Available tools: ['acos']" in str(expected["messages"])
    assert normalize(shown) == normalize(expected)
