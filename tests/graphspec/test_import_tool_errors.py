"""A tools node keeps its ToolNode's handle_tool_errors through import, compile and export:
True (every exception's text to the model), a message, or False. True used to be read as
langgraph's default, so the spec's run raised the tool's error where the program's answered it;
a handler function or exception types are still refused (the spec holds no code there)."""

from __future__ import annotations

import textwrap

import pytest
from langchain_core.messages import AIMessage

from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.export import to_langgraph
from graphspec.importer import import_module_graph

PROGRAM = """
from langgraph.graph import StateGraph, MessagesState, START, END
from langgraph.prebuilt import ToolNode


def flaky(query: str) -> str:
    \"\"\"A tool whose API is down.\"\"\"
    raise ValueError("API unavailable")


builder = StateGraph(MessagesState)
builder.add_node("tools", ToolNode([flaky]{handling}))
builder.add_edge(START, "tools")
builder.add_edge("tools", END)
graph = builder.compile()
"""

CALL = AIMessage("", tool_calls=[{"name": "flaky", "args": {"query": "x"}, "id": "c1"}])


def _import(tmp_path, handling: str):
    path = tmp_path / "flaky_program.py"
    path.write_text(textwrap.dedent(PROGRAM.format(handling=handling)), encoding="utf-8")
    return import_module_graph(str(path), "graph", on_engine=True)


def _answer(app) -> tuple:
    try:
        message = app.invoke({"messages": [CALL]})["messages"][-1]
    except ValueError as exc:
        return ("raised", str(exc))
    return (message.status, message.content)


@pytest.mark.parametrize(
    "handling, held, answer",
    [
        ("", None, ("raised", "API unavailable")),
        (", handle_tool_errors=True", True,
         ("error", "Error: ValueError('API unavailable')\n Please fix your mistakes.")),
        (", handle_tool_errors='try later'", "try later", ("error", "try later")),
        (", handle_tool_errors=False", False, ("raised", "API unavailable")),
    ],
)  # fmt: skip
def test_the_handling_survives_import_compile_and_export(tmp_path, handling, held, answer):
    spec = _import(tmp_path, handling)
    node = spec.node("tools")
    assert node.handle_tool_errors == held
    assert _answer(compile_spec(spec, trusted=True, base_dir=tmp_path)) == answer
    code = to_langgraph(spec, base_dir=tmp_path)
    assert (f"handle_tool_errors={held!r}" in code) == (held is not None)


@pytest.mark.parametrize(
    "handling", [", handle_tool_errors=(KeyError,)", ", handle_tool_errors=str"]
)
def test_code_or_exception_types_are_still_refused(tmp_path, handling):
    with pytest.raises(SpecError, match="it holds true, false or a message"):
        _import(tmp_path, handling)


AGENT = """
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langgraph.prebuilt import ToolNode, create_react_agent


def multiply(a: int, b: int) -> int:
    \"\"\"Multiply two numbers.\"\"\"
    return a * b


class Scripted(FakeMessagesListChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


model = Scripted(responses=[])
agent = create_react_agent(model=model, tools={tools})
"""


@pytest.mark.parametrize(
    "tools, refused",
    [("[multiply]", False), ("ToolNode([multiply])", False),
     ("ToolNode([multiply], handle_tool_errors='Cannot use 42 as a first operand!')", True)],
)  # fmt: skip
def test_an_agents_tool_node_with_its_own_handling_is_refused(tmp_path, tools, refused):
    # an agent spec has no place for it: importing it as the default would change the runs
    path = tmp_path / "agent_program.py"
    path.write_text(textwrap.dedent(AGENT.format(tools=tools)), encoding="utf-8")
    if refused:
        with pytest.raises(SpecError, match="has no place in an agent spec"):
            import_module_graph(str(path), "agent", on_engine=True)
    else:
        assert import_module_graph(str(path), "agent", on_engine=True).agents[0].tools
