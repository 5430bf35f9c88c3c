"""A program opened on the engine keeps its own annotations: compile() would pass on our modules'
`from __future__ import annotations`, and the program's annotations would all become strings. A
state declared in a function with a reducer beside it (the extraction-with-retries tutorial's
retry graph) then lost its reducer: the key became a last-value channel, and the run failed."""

from __future__ import annotations

import textwrap

import pytest

from graphspec.errors import SpecError
from graphspec.importer import load_module
from graphspec.program_script import main_block

BUILD = """
import operator
from typing import Annotated
from typing_extensions import TypedDict
from langgraph.graph import StateGraph, START


def build():
    def keep_all(left: list, right: list) -> list:
        return left + right

    class State(TypedDict):
        log: Annotated[list, keep_all]
        tries: Annotated[int, operator.add]

    builder = StateGraph(State)
    builder.add_node("first", lambda s: {"log": ["first"], "tries": 1})
    builder.add_node("second", lambda s: {"log": ["second"], "tries": 1})
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    return builder.compile()
"""


def _write(tmp_path, name: str, source: str):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def test_a_module_keeps_its_annotations_and_its_reducers(tmp_path):
    source = BUILD + "\napp = build()\nRESULT = app.invoke({'log': ['in']})\n"
    module = load_module(str(_write(tmp_path, "prog", source)), on_engine=True)
    assert module.RESULT == {"log": ["in", "first", "second"], "tries": 2}
    assert type(module.app.channels["log"]).__name__ == "BinaryOperatorAggregate"


def test_a_module_with_its_own_future_import_fails_as_on_langgraph(tmp_path):
    # its annotations are strings, and the reducer lives in the function: langgraph's
    # StateGraph cannot resolve it and raises NameError, so does the engine's
    source = "from __future__ import annotations\n" + BUILD + "\napp = build()\n"
    with pytest.raises(SpecError, match="NameError: name 'keep_all' is not defined"):
        load_module(str(_write(tmp_path, "prog_future", source)), on_engine=True)


@pytest.mark.parametrize("future", ["", "from __future__ import annotations\n"])
def test_a_main_block_keeps_its_files_annotations(tmp_path, future):
    path = _write(tmp_path, "script", future + BUILD.replace("def build():", "def unused():")
                  + "\nif __name__ == '__main__':\n" + textwrap.indent(BUILD, "    "))  # fmt: skip
    namespace: dict = {"__name__": "__main__"}
    exec(main_block(path), namespace)
    if future:
        with pytest.raises(NameError):  # its annotations are strings, as python would make them
            namespace["build"]()
        return
    result = namespace["build"]().invoke({"log": ["in"]})
    assert result == {"log": ["in", "first", "second"], "tries": 2}
