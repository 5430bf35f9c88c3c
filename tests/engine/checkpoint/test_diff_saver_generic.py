"""BaseCheckpointSaver is generic in its version type, as in langgraph: code annotated
`BaseCheckpointSaver[str]` (fixtures, saver subclasses) must import and run on the engine."""

from collections.abc import Iterator

import pytest

from tests.oracle import PREFIXES, Backend


@pytest.mark.parametrize("prefix", PREFIXES)
def test_saver_is_subscriptable_by_version_type(prefix):
    base = Backend(prefix).mod("checkpoint.base")
    memory = Backend(prefix).mod("checkpoint.memory")

    def saver() -> Iterator[base.BaseCheckpointSaver[str]]:  # evaluated at definition
        yield memory.InMemorySaver()

    class StrVersions(base.BaseCheckpointSaver[str]):
        pass

    assert isinstance(next(saver()), base.BaseCheckpointSaver)
    assert issubclass(StrVersions, base.BaseCheckpointSaver)
    assert [t.__name__ for t in base.BaseCheckpointSaver.__parameters__[0].__constraints__] == [
        "int",
        "float",
        "str",
    ]
