"""The local OpenAI-compatible server, one per test; and a keyring that is never the real one."""

from __future__ import annotations

import pytest

from tests.openai_server import OpenAIServer


@pytest.fixture
def openai_server():
    with OpenAIServer() as server:
        yield server
