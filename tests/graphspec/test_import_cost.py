"""What importing the spec side costs every command and the studio's window (issue 32.1).

The spec models: each field's docstring is its description, read with one parse of the module
(graphspec/field_docs.py), and a model's schema is built when it is first used. The compiler:
langchain-core's messages load only for a spec that merges with `add_messages`."""

from __future__ import annotations

import inspect
import json
import sys

from pydantic import BaseModel
from pydantic._internal._docs_extraction import extract_docstrings_from_cls

import graphspec.model
from tests.graphspec.helpers import fresh_process


def _spec_models() -> list[type[BaseModel]]:
    return [
        cls
        for module in (graphspec.model, sys.modules[graphspec.model.DeepAgent.__module__])
        for cls in vars(module).values()
        if inspect.isclass(cls) and issubclass(cls, BaseModel) and cls.__module__ == module.__name__
    ]


def test_each_field_docstring_is_its_description_as_pydantic_reads_it():
    """pydantic's own `use_attribute_docstrings` reading is the oracle, class by class; a field
    inherited keeps its parent's."""
    checked = 0
    for cls in _spec_models():
        docs = {}
        for base in reversed(cls.__mro__):
            if base in _spec_models():
                docs.update(extract_docstrings_from_cls(base, use_inspect=True))
        for name, field in cls.model_fields.items():
            assert field.description == docs.get(name), f"{cls.__name__}.{name}"
            checked += name in docs
    assert checked > 100


def test_a_described_field_shows_in_the_json_schema():
    schema = graphspec.model.GraphSpec.model_json_schema()["$defs"]["GraphSpec"]  # recursive
    assert schema["properties"]["recursion_limit"]["description"].startswith(
        "How many supersteps a run may take"
    )
    assert "description" not in schema["properties"]["nodes"]  # no docstring, no description


def test_importing_the_models_builds_no_schema_until_one_is_used():
    built = json.loads(
        fresh_process(
            "import json\n"
            "from graphspec.model import GraphSpec, StateKey, Subgraph, Argument\n"
            "models = (GraphSpec, StateKey, Subgraph, Argument)\n"
            "before = [m.__pydantic_complete__ for m in models]\n"
            "spec = GraphSpec.model_validate({'state': [{'name': 'n', 'type': 'int'}],"
            " 'subgraphs': [{'id': 's', 'graph': {'name': 'inner'}}]})\n"
            "print(json.dumps({'before': before, 'after': GraphSpec.__pydantic_complete__,"
            " 'inner': spec.subgraphs[0].graph.name}))\n"
        )
    )
    assert built == {"before": [False] * 4, "after": True, "inner": "inner"}


def test_the_compiler_loads_langchain_cores_messages_only_for_a_spec_using_them():
    """`add_messages` is imported when a key's reducer names it, not with the compiler (issue
    32.1: langchain-core's messages were about 65 ms of `superstep run router`, whose keys
    merge with `add`)."""
    loaded = json.loads(
        fresh_process(
            "import json, sys\n"
            "from graphspec.compiler import built_in_reducer\n"
            "before = 'langchain_core.messages' in sys.modules\n"
            "from engine.graph import add_messages\n"
            "print(json.dumps([before, built_in_reducer('add_messages') is add_messages]))\n"
        )
    )
    assert loaded == [False, True]
