"""Middleware given positional arguments (`PIIMiddleware("email", strategy="redact")`, as
langchain's docstrings write it, and the program's own `Budget(2)`) imports with those arguments
as the keyword settings they name in the class's signature (issue 33). Before, such middleware
was refused ("takes positional or ** arguments").

Each program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

import pytest

from graphspec.errors import SpecError
from graphspec.importer import import_module_graph
from tests.graphspec.test_import_reach import program, three_ways

AGENT = """
from _scripted import ScriptedModel
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, PIIMiddleware
from langchain_core.messages import AIMessage


class Budget(AgentMiddleware):
    def __init__(self, replies, note="ok"):
        super().__init__()
        self.replies, self.note = replies, note

    def after_model(self, state, runtime):
        return None


model = ScriptedModel(responses=[AIMessage(content="Noted.")])
"""


def test_positional_middleware_arguments_become_the_settings_they_name(tmp_path):
    path = program(tmp_path, "positional_mw", AGENT + """
agent = create_agent(model, middleware=[PIIMiddleware("email", strategy="redact"), Budget(2)])
""")  # fmt: skip
    value = {"messages": [{"role": "user", "content": "mail me at ada@example.com"}]}
    spec = three_ways(path, lambda m: m.agent, value, tmp_path)
    pii, budget = spec.agents[0].middleware
    assert (pii.name, pii.settings) == ("pii", {"pii_type": "email", "strategy": "redact"})
    assert budget.settings == {"replies": 2} and budget.build


def test_positional_arguments_the_class_does_not_name_are_refused(tmp_path):
    path = program(tmp_path, "starred_mw", AGENT + """
class Limits(AgentMiddleware):
    def __init__(self, *limits):
        super().__init__()
        self.limits = limits


agent = create_agent(model, middleware=[Limits(1, 2)])
""")  # fmt: skip
    with pytest.raises(SpecError, match="positional arguments its class does not name"):
        import_module_graph(str(path))
