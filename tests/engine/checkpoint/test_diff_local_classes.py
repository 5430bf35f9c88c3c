"""Differential tests: state and input classes defined inside a function, checkpointed.

A factory, a test or a notebook function may define its graph's pydantic models or dataclasses
in its body. langgraph stores their values and, finding no such class in the module when it
reads a checkpoint, gives back their plain data (fields as dicts), warning once per class for
all but pydantic models. Each scenario runs on langgraph and on the engine, with an in-memory
and a SQLite saver, through invoke, an interrupt, get_state, the history and a resume.
"""

import dataclasses
import enum
import logging
import operator
import sqlite3
from typing import Annotated, NamedTuple

import pytest
from pydantic import BaseModel, create_model

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

SAVERS = ("memory", "sqlite")


def _saver(b, kind, tmp_path):
    if kind == "memory":
        return b.mod("checkpoint.memory").InMemorySaver()
    conn = sqlite3.connect(tmp_path / f"{b.prefix}.sqlite", check_same_thread=False)
    return b.mod("checkpoint.sqlite").SqliteSaver(conn)


def _snapshot(snapshot) -> tuple:
    return (snapshot.values, snapshot.next, snapshot.metadata["step"])


def _pydantic_graph(b, saver, seen: list):
    """A graph whose state, input and nested models are all defined here."""

    class Where(BaseModel):
        city: str

    class Ask(BaseModel):
        query: str
        where: Where

    class Research(Ask):
        notes: Annotated[list[str], operator.add] = []
        answer: str | None = None

    def plan(state: Research) -> dict:
        seen.append(("plan", type(state.where).__name__))
        return {"notes": [f"plan {state.query}"], "where": Where(city=state.where.city.upper())}

    def answer(state: Research) -> dict:
        seen.append(("answer", isinstance(state, Research), type(state.where).__name__))
        return {"answer": f"{state.where.city}: {len(state.notes)}"}

    g = b.graph
    builder = g.StateGraph(Research, input_schema=Ask)
    builder.add_node("plan", plan)
    builder.add_node("answer", answer)
    builder.add_edge(g.START, "plan")
    builder.add_edge("plan", "answer")
    builder.add_edge("answer", g.END)
    return builder.compile(checkpointer=saver, interrupt_before=["answer"]), Ask, Where


@pytest.mark.parametrize("saver_kind", SAVERS)
def test_pydantic_state_and_input_defined_in_a_function(saver_kind, tmp_path):
    def scenario(b):
        seen: list = []
        app, ask, where = _pydantic_graph(b, _saver(b, saver_kind, tmp_path), seen)
        config = {"configurable": {"thread_id": "t"}}
        first = app.invoke(ask(query="rain?", where=where(city="Oslo")), config)
        paused = _snapshot(app.get_state(config))
        resumed = app.invoke(None, config)
        history = [_snapshot(s) for s in app.get_state_history(config)]
        return first, paused, resumed, history, seen

    assert_same(scenario)


def _dataclass_graph(b, saver, seen: list):
    @dataclasses.dataclass
    class Place:
        city: str

    class Unit(enum.Enum):
        CELSIUS = "C"

    class Reading(NamedTuple):
        value: float
        unit: Unit

    @dataclasses.dataclass
    class Weather:
        place: Place
        readings: Annotated[list, operator.add] = dataclasses.field(default_factory=list)

    def measure(state: Weather) -> dict:
        seen.append(("measure", type(state.place).__name__))
        return {"readings": [Reading(21.5, Unit.CELSIUS)]}

    def review(state: Weather) -> dict:
        kinds = [type(r).__name__ for r in state.readings]
        seen.append(("review", type(state.place).__name__, kinds))
        return {"place": Place(city="Bergen")}

    g = b.graph
    builder = g.StateGraph(Weather)
    builder.add_node("measure", measure)
    builder.add_node("review", review)
    builder.add_edge(g.START, "measure")
    builder.add_edge("measure", "review")
    builder.add_edge("review", g.END)
    return builder.compile(checkpointer=saver, interrupt_before=["review"]), Weather, Place


@pytest.mark.parametrize("saver_kind", SAVERS)
def test_dataclass_state_defined_in_a_function(saver_kind, tmp_path, caplog):
    def scenario(b):
        seen: list = []
        app, weather, place = _dataclass_graph(b, _saver(b, saver_kind, tmp_path), seen)
        config = {"configurable": {"thread_id": "t"}}
        with caplog.at_level(logging.WARNING):
            caplog.clear()
            # the run's own output keeps its classes (each backend made its own: compare reprs)
            first = repr(app.invoke(weather(place=place(city="Oslo")), config))
            paused = _snapshot(app.get_state(config))
            resumed = repr(app.invoke(None, config))
            history = [_snapshot(s) for s in app.get_state_history(config)]
        # langgraph also warns of every unregistered user class it rebuilds; the engine never
        warnings = sorted(
            {r.getMessage() for r in caplog.records if "Could not reconstruct" in r.getMessage()}
        )
        return first, paused, resumed, history, seen, warnings

    assert_same(scenario)


def test_a_create_model_value_in_state_reads_back_as_its_fields(backend):
    """Structured output through pydantic's create_model: a class no module holds by name."""
    from typing import TypedDict

    verdict = create_model("Verdict", label=(str, ...), score=(float, 0.0))

    class S(TypedDict):
        verdict: object

    builder = backend.graph.StateGraph(S)
    builder.add_node("judge", lambda s: {"verdict": verdict(label="ok", score=0.5)})
    builder.add_edge(backend.graph.START, "judge")
    app = builder.compile(checkpointer=backend.mod("checkpoint.memory").InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    assert type(app.invoke({"verdict": None}, config)["verdict"]).__name__ == "Verdict"
    assert app.get_state(config).values == {"verdict": {"label": "ok", "score": 0.5}}
