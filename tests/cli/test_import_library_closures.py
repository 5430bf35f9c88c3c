"""A builder a library's function makes (a helper module beside the program, as langgraph-
bigtool's `create_agent`) imports as a spec: a router it made inside, a node whose closure keeps
a tool with an injected store in its arguments, and tools its decorated factory made by wrapping
functions (`functools.wraps`: named as the function, as bigtool's
`convert_positional_only_function_to_tool` under langchain's `@beta`) are each made again by the call that made them; the spec exports to
LangGraph code giving the program's result on real langgraph."""

from __future__ import annotations

from studio.cli import main
from tests.cli.program_file_names import on_langgraph

KIT = '''
import functools
import math
from typing import Annotated

from langchain_core.messages import AnyMessage
from langchain_core.tools import StructuredTool, tool
from langgraph.graph import END, START, StateGraph, add_messages
from langgraph.prebuilt import InjectedStore, ToolNode
from langgraph.store.base import BaseStore
from typing_extensions import TypedDict


def noted(factory):
    """A decorator as langchain's @beta: the module's name holds the wrapper."""

    @functools.wraps(factory)
    def warned(*args, **kwargs):
        return factory(*args, **kwargs)

    return warned


@noted
def as_tool(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return tool(wrapper)


def floor_of(x: float) -> int:
    """The largest integer at most x."""
    return math.floor(x)


def ceil_of(x: float) -> int:
    """The least integer at least x."""
    return math.ceil(x)


class State(TypedDict):
    n: int
    found: str
    messages: Annotated[list[AnyMessage], add_messages]


def build(limit):
    def lookup(key: str, *, store: Annotated[BaseStore, InjectedStore]) -> str:
        """Look a key up."""
        return key

    finder = StructuredTool.from_function(lookup)  # its argument schema holds the store

    def count(state: State) -> dict:
        return {"n": state["n"] + 1, "found": finder.name}

    def route(state: State) -> str:
        return "count" if state["n"] < limit and finder.name == "lookup" else "tools"

    builder = StateGraph(State)
    builder.add_node("count", count)
    builder.add_node("tools", ToolNode([as_tool(floor_of), as_tool(ceil_of)]))
    builder.add_edge(START, "count")
    builder.add_conditional_edges("count", route, ["count", "tools"])
    builder.add_edge("tools", END)
    return builder
'''

PROGRAM = """
from kit import build

builder = build(3)
graph = builder.compile()
"""

INPUT = {"n": 0, "messages": [{"role": "ai", "content": "", "tool_calls": [
    {"name": "floor_of", "args": {"x": 2.5}, "id": "call_1"}]}]}  # fmt: skip


def result(module: str, folder) -> dict:
    """The graph of `module` (in `folder`) invoked on real langgraph, its messages as (type,
    content) pairs."""
    return on_langgraph(
        f"import json, {module}\n"
        f"out = {module}.graph.invoke({INPUT!r})\n"
        "out['messages'] = [(m.type, m.content) for m in out['messages']]\n"
        "print(json.dumps(out))\n",
        folder,
    )


def test_a_library_made_builder_imports_and_exports_to_the_programs_result(tmp_path, capsys):
    (tmp_path / "kit.py").write_text(KIT, encoding="utf-8")
    program = tmp_path / "counted.py"
    program.write_text(PROGRAM, encoding="utf-8")
    spec, exported = tmp_path / "spec.json", tmp_path / "exported_counted.py"

    assert main(["import", f"{program}:graph", "--trust", "-o", str(spec)]) == 0, (
        capsys.readouterr().err
    )
    text = spec.read_text(encoding="utf-8")
    assert '"import_path": "kit:as_tool"' in text  # each tool made again by its factory
    assert "['route']" in text  # the router: the builder's call made again
    assert main(["export", str(spec), "--to", "langgraph", "-o", str(exported)]) == 0

    expected = result("counted", tmp_path)
    assert expected["n"] == 3 and expected["messages"][-1] == ["tool", "2"]
    assert result("exported_counted", tmp_path) == expected
