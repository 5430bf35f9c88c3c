"""Fixtures for agent differential tests: the same scenario on langchain.agents and engine.agents."""

from __future__ import annotations

import importlib

import pytest

from tests.oracle import PREFIXES, Backend

_AGENT_MODULES = {"langgraph": "langchain", "engine": "engine"}


class AgentBackend(Backend):
    """`b.agents` / `b.middleware` / `b.tools` are langchain's or ours; `b.graph` etc. stay langgraph's or ours."""

    @property
    def agents(self):
        return importlib.import_module(f"{_AGENT_MODULES[self.prefix]}.agents")

    @property
    def middleware(self):
        return importlib.import_module(f"{_AGENT_MODULES[self.prefix]}.agents.middleware")

    @property
    def tools(self):
        name = "langchain.tools" if self.prefix == "langgraph" else "engine.agents.tools"
        return importlib.import_module(name)

    @property
    def structured_output(self):
        return importlib.import_module(f"{_AGENT_MODULES[self.prefix]}.agents.structured_output")


@pytest.fixture(params=PREFIXES)
def agent_backend(request) -> AgentBackend:
    """Each test using it runs once on langchain+langgraph and once on engine.agents+engine."""
    return AgentBackend(request.param)
