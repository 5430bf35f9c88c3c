"""Values langgraph stored as "json" before its msgpack format load on both backends alike:
langgraph's and LangChain's constructor objects come back as the same values (interrupt ids
included), nothing is imported, and a class not allowed stays the plain dict it was stored as."""

import subprocess
import sys
import warnings

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

INTERRUPT = (
    b'{"lc": 2, "type": "constructor", "id": ["langgraph", "types", "Interrupt"], "kwargs": '
    b'{"value": "legacy", "resumable": true, "ns": ["a:b", "c:d"], "when": "during"}}'
)
MESSAGE = (
    b'{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", '
    b'"HumanMessage"], "kwargs": {"content": "hi", "id": "m1"}}'
)
NESTED = (
    b'{"sends": [1, {"lc": 2, "type": "constructor", "id": ["langgraph", "types", "Send"], '
    b'"args": ["node", {"x": 1}]}]}'
)
NOT_ALLOWED = (
    b'{"lc": 2, "type": "constructor", "id": ["collections", "OrderedDict"], "kwargs": {}}'
)


def _describe(value):
    if hasattr(value, "value"):
        return type(value).__name__, value.id, value.value
    if hasattr(value, "content"):
        return type(value).__name__, value.id, value.content
    return value


@pytest.mark.parametrize("allowed", [None, True, [("collections", "OrderedDict")]])
def test_json_values_load_as_langgraph_loads_them(allowed):
    def scenario(b):
        serde = b.mod("checkpoint.serde.jsonplus").JsonPlusSerializer(allowed_json_modules=allowed)
        return [
            _describe(serde.loads_typed(("json", payload)))
            for payload in (INTERRUPT, MESSAGE, NESTED, NOT_ALLOWED)
        ]

    assert_same(scenario)


def test_loading_json_never_imports():
    """A constructor naming a module nobody imported stays a dict; the module is not loaded."""
    code = (
        "import sys, warnings\n"
        "from engine.checkpoint.serde.jsonplus import JsonPlusSerializer\n"
        'payload = b\'{"lc": 2, "type": "constructor", "id": ["antigravity", "X"]}\'\n'
        "value = JsonPlusSerializer(allowed_json_modules=True).loads_typed(('json', payload))\n"
        "assert isinstance(value, dict), value\n"
        "assert 'antigravity' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_pickle_fallback_is_accepted_but_nothing_is_pickled():
    from engine.checkpoint.serde.jsonplus import JsonPlusSerializer, SerializationError

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        serde = JsonPlusSerializer(pickle_fallback=True)
    assert "never pickled" in str(caught[0].message)
    with pytest.raises(SerializationError):
        serde.dumps_typed(lambda: None)
