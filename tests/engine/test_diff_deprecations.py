"""Differential tests: langgraph's deprecated arguments and imports still work and warn alike.

Each scenario records (warning class, message) for one deprecated use plus what the use did,
so the category (LangGraphDeprecatedSinceV05/V10/V11) and the wording both have to match.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import NotRequired

import pytest
from typing_extensions import TypedDict

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class State(TypedDict):
    x: NotRequired[int]


def caught(action) -> tuple[list[tuple[str, str]], object]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        result = action()
    return [(w.category.__name__, str(w.message)) for w in seen], result


def test_builder_keywords_warn_and_still_apply():
    def scenario(b):
        StateGraph, RetryPolicy = b.mod("graph").StateGraph, b.types.RetryPolicy
        out = {}
        out["input"], g = caught(lambda: StateGraph(State, input=State, output=State))
        out["schemas"] = (g.input_schema is State, g.output_schema is State)
        out["config"], g = caught(lambda: StateGraph(State, config_schema=State))
        out["context"] = g.context_schema is State
        policy = RetryPolicy(max_attempts=2)
        out["retry"], _ = caught(lambda: g.add_node("a", lambda s: s, retry=policy))
        out["node_input"], _ = caught(lambda: g.add_node("b", lambda s: s, input=State))
        out["policy"] = g.nodes["a"].retry_policy == policy
        g.set_entry_point("a")
        app = g.compile()
        out["config_schema"], schema = caught(lambda: app.config_schema())
        out["fields"] = sorted(schema.model_fields)
        out["jsonschema"], _ = caught(lambda: app.get_config_jsonschema())
        return out

    assert_same(scenario)


def test_functional_keywords_warn():
    def scenario(b):
        func, RetryPolicy = b.func, b.types.RetryPolicy
        out = {}
        out["task"], _ = caught(lambda: func.task(retry=RetryPolicy())(lambda x: x))
        out["entry"], ep = caught(
            lambda: func.entrypoint(config_schema=State, retry=RetryPolicy())(lambda x: x + 1)
        )
        out["context"] = ep.context_schema is State
        out["result"] = ep.invoke(1)
        return out

    assert_same(scenario)


def test_checkpoint_during_maps_to_durability():
    def scenario(b):
        StateGraph = b.mod("graph").StateGraph

        def node(state: State, config) -> dict:
            return {"x": {"async": 1, "exit": 2}[config["configurable"]["__pregel_durability"]]}

        g = StateGraph(State)
        g.add_node("node", node)
        g.set_entry_point("node")
        app = g.compile()
        out = {}
        for flag in (True, False):
            out[f"invoke{flag}"] = caught(lambda f=flag: app.invoke({}, checkpoint_during=f))
            out[f"stream{flag}"] = caught(lambda f=flag: list(app.stream({}, checkpoint_during=f)))
        try:
            app.invoke({}, checkpoint_during=True, durability="sync")
        except ValueError as exc:
            out["both"] = str(exc)
        return out

    assert_same(scenario)


def test_deprecated_imports_and_classes():
    def scenario(b):
        out = {}
        constants = b.mod("constants")
        for name in ("Send", "Interrupt", "PREVIOUS", "START"):
            out[name], value = caught(lambda n=name: getattr(constants, n))
            out[name + "_is_str"] = isinstance(value, str)
        try:
            _ = constants.NOT_A_CONSTANT
        except AttributeError as exc:
            out["missing"] = str(exc)
        sys.modules.pop(f"{b.prefix}.pregel.types", None)
        out["pregel_types"], mod = caught(
            lambda: importlib.import_module(f"{b.prefix}.pregel.types")
        )
        out["snapshot"] = mod.StateSnapshot is b.types.StateSnapshot
        out["node_interrupt"], _ = caught(lambda: b.errors.NodeInterrupt("v"))
        out["message_graph"], mg = caught(lambda: b.mod("graph.message").MessageGraph())
        mg.add_node("say", lambda msgs: [("ai", f"{len(msgs)} heard")])
        mg.set_entry_point("say")
        result = mg.compile().invoke([("user", "hi")])
        out["messages"] = [(m.type, m.content) for m in result]
        output = b.types.GraphOutput(value={"k": 1})
        out["getitem"] = caught(lambda: output["k"])
        out["contains"] = caught(lambda: "k" in output)
        return out

    assert_same(scenario)


def test_config_parameter_with_a_wrong_annotation_warns():
    def scenario(b):
        g = b.mod("graph").StateGraph(State)
        out = {}

        def typed_dict(state: State, config: dict) -> State:
            return state

        def untyped(state: State, config) -> State:
            return state

        out["dict"], _ = caught(lambda: g.add_node(typed_dict))
        out["untyped"], _ = caught(lambda: g.add_node(untyped))
        return out

    assert_same(scenario)


def test_create_react_agent_and_its_states_warn_where_the_program_uses_them():
    """langgraph 1.0 moved create_react_agent and AgentState to langchain.agents: calling it, or
    making or subclassing the pydantic states, warns at the program's own line (a script shows
    it: gabriel-silveira's supervisor tutorial printed three); the engine gave none."""
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    def scenario(b):
        prebuilt = b.mod("prebuilt.chat_agent_executor")
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            prebuilt.create_react_agent(FakeListChatModel(responses=["hi"]), [])
        here = [w.filename == __file__ for w in seen]

        def subclass():
            class Mine(prebuilt.AgentStatePydantic):
                extra: str = ""

        def typed_dict():  # a TypedDict class takes no __init_subclass__: no warning
            class Yours(prebuilt.AgentState):
                extra: str

        made = caught(
            lambda: prebuilt.AgentStateWithStructuredResponsePydantic(
                messages=[], structured_response={}
            )
        )[0]
        return here, caught(subclass)[0], made, caught(typed_dict)[0]

    here, subclassed, made, typed = assert_same(scenario)
    assert here == [True] and typed == []
    assert subclassed[0][0] == made[0][0] == "LangGraphDeprecatedSinceV10"


def test_each_warning_points_where_langgraphs_does():
    """Python shows a DeprecationWarning only where it points into `__main__`, and shows a
    UserWarning once per place it points at: a script (tutran27's fault-tolerance lab passes
    add_node `retry=`) printed a warning on the engine that langgraph keeps inside itself. Each
    warning names the program's line, or a line of the library, as langgraph's does."""
    import asyncio

    def where(action) -> list[tuple[str, str]]:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            action()
        return [
            (w.category.__name__, "program" if w.filename == __file__ else "library") for w in seen
        ]

    def scenario(b):
        StateGraph = b.mod("graph").StateGraph
        out = {}
        out["retry"] = where(lambda: StateGraph(State).add_node("a", lambda s: s, retry=None))
        out["input"] = where(lambda: StateGraph(State).add_node("a", lambda s: s, input=State))

        def wrong_config(state: State, config: dict) -> State:
            return state

        out["config"] = where(lambda: StateGraph(State).add_node(wrong_config))
        out["entrypoint_config"] = where(lambda: b.func.entrypoint()(wrong_config))
        app = StateGraph(State).add_node("n", lambda s: {"x": 1}).set_entry_point("n").compile()
        x = {"x": 0}
        out["invoke"] = where(lambda: app.invoke(x, checkpoint_during=True))
        out["stream"] = where(lambda: list(app.stream(x, checkpoint_during=False)))
        out["invoke_exit"] = where(lambda: app.invoke(x, durability="exit"))
        out["stream_exit"] = where(lambda: list(app.stream(x, durability="exit")))

        async def drain():
            return [c async for c in app.astream(x, checkpoint_during=True, durability=None)]

        out["ainvoke"] = where(lambda: asyncio.run(app.ainvoke(x, checkpoint_during=True)))
        out["astream"] = where(lambda: asyncio.run(drain()))
        return out

    assert_same(scenario)
