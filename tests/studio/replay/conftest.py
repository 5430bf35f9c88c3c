"""The recording fixtures (local OpenAI-compatible server, SQLite saver) for studio tests."""

from tests.engine.record.conftest import saver, server  # noqa: F401
