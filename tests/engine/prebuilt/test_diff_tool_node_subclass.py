"""A ToolNode subclass that overrides `_func` / `_afunc` (the methods langgraph's ToolNode runs
with the input, config and graph runtime) is run through its override, and `super()._func(...)`
reaches the base behaviour: a hospital agent merges its tools' Commands this way, an
error-reporting node wraps the base call to record failures."""

import asyncio
import operator
from typing import Annotated

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class _State(TypedDict, total=False):
    messages: Annotated[list, operator.add]
    patient: str
    slot: str


def _tools(b):
    command = b.types.Command

    @tool
    def find_patient(name: str, tool_call_id: Annotated[str, InjectedToolCallId]):
        """Find a patient by name."""
        update = {
            "patient": name.title(),
            "messages": [ToolMessage("found", tool_call_id=tool_call_id)],
        }
        return command(update=update)

    @tool
    def book_slot(slot: str, tool_call_id: Annotated[str, InjectedToolCallId]):
        """Book an appointment slot."""
        if slot == "never":
            raise ValueError("no such slot")
        update = {"slot": slot, "messages": [ToolMessage("booked", tool_call_id=tool_call_id)]}
        return command(update=update)

    return [find_patient, book_slot]


def _merged(b, outputs):
    # the subclasses' own post-processing: all Commands' updates folded into one
    update: dict = {"messages": []}
    for item in outputs:
        for key, value in item.update.items():
            update[key] = update.get(key, []) + value if key == "messages" else value
    return [b.types.Command(update=update)]


def _graph(b, node):
    builder = b.graph.StateGraph(_State)
    builder.add_node("tools", node)
    builder.add_edge(b.graph.START, "tools")
    return builder.compile()


def _calls(*slots: str) -> dict:
    calls = [{"name": "find_patient", "args": {"name": "ann lee"}, "id": "c0"}]
    calls += [
        {"name": "book_slot", "args": {"slot": s}, "id": f"c{i + 1}"} for i, s in enumerate(slots)
    ]
    return {"messages": [AIMessage("", tool_calls=calls)]}


def test_an_overridden_func_post_processes_the_outputs():
    def scenario(b):
        seen = []

        class MergingToolNode(b.prebuilt.ToolNode):
            def _func(self, input, config, runtime):
                seen.append((type(input).__name__, runtime.context))
                return _merged(b, super()._func(input, config, runtime))

        app = _graph(b, MergingToolNode(_tools(b)))
        updates = list(app.stream(_calls("9am"), stream_mode="updates", context={"clinic": 7}))
        return updates, seen

    assert_same(scenario)


def test_an_overridden_afunc_wraps_the_base_call_and_sees_its_error():
    def scenario(b):
        reports = []

        class ReportingToolNode(b.prebuilt.ToolNode):
            async def _afunc(self, input, config, runtime):
                try:
                    return await super()._afunc(input, config, runtime)
                except Exception as exc:
                    reports.append(repr(exc))
                    raise

        app = _graph(b, ReportingToolNode(_tools(b), handle_tool_errors=False))
        good = asyncio.run(app.ainvoke(_calls("10am")))
        try:
            asyncio.run(app.ainvoke(_calls("never")))
        except ValueError as exc:
            return good, reports, str(exc)
        return good, reports, None

    assert_same(scenario)
