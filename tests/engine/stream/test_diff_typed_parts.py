"""Differential tests: v2 stream parts (and so v3 projections) carry pydantic and dataclass
states as the schema's type, in values, checkpoints and debug checkpoint parts."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from pydantic import BaseModel

from tests.engine.stream.scenarios import quiet, thread
from tests.oracle import assert_same

pytestmark = pytest.mark.differential


class Model(BaseModel):
    value: str
    count: int = 0


@dataclass
class Record:
    value: str


def typed(value: object) -> str:
    return type(value).__name__


@pytest.mark.parametrize("schema", [Model, Record])
def test_typed_states_in_v2_parts_and_v3_output(schema):
    def scenario(b):
        graph = b.graph
        builder = graph.StateGraph(schema)
        builder.add_node("grow", lambda s: {"value": s.value + "!"})
        builder.add_edge(graph.START, "grow")
        app = builder.compile(checkpointer=b.mod("checkpoint.memory").InMemorySaver())
        config = thread()
        result = app.invoke({"value": "a"}, config, version="v2")
        kinds = []
        modes = ["values", "checkpoints", "debug"]
        for part in app.stream({"value": "b"}, config, stream_mode=modes, version="v2"):
            data = part["data"]
            if part["type"] != "values":
                data = data.get("values", (data.get("payload") or {}).get("values"))
            kinds.append((part["type"], typed(data)))
        run = quiet(lambda: app.stream_events({"value": "c"}, config, version="v3"))
        return typed(result.value), kinds, [typed(v) for v in run.values], run.output

    value_type, kinds, projected, output = assert_same(scenario)
    assert value_type == schema.__name__ and ("checkpoints", schema.__name__) in kinds
    assert set(projected) == {schema.__name__} and isinstance(output, schema)
