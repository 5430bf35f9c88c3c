import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from tests.oracle import PREFIXES, Backend  # noqa: E402


@pytest.fixture(params=PREFIXES)
def backend(request) -> Backend:
    """Each test using it runs once on langgraph and once on engine."""
    return Backend(request.param)


@pytest.fixture
def eng() -> Backend:
    return Backend("engine")


_GAPS_FILE = os.path.join(os.path.dirname(__file__), "engine", "known_gaps.txt")


def _known_gaps() -> set[str]:
    if not os.path.exists(_GAPS_FILE):
        return set()
    with open(_GAPS_FILE, encoding="utf-8") as f:
        return {line.strip() for line in f if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    """Mark the engine's known divergences from langgraph as expected failures (listed, not hidden)."""
    gaps = _known_gaps()
    for item in items:
        if item.nodeid in gaps:
            item.add_marker(
                pytest.mark.xfail(
                    reason="known divergence from langgraph (tests/engine/known_gaps.txt)"
                )
            )
