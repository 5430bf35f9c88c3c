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
