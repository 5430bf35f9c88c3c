"""An agent's chat model of a class no provider names (the program's own, a test double, a
client LangChain has no provider for) becomes a spec model with a `factory`: code making it as
the program did, the expression written in the agent's call or the module-level variable holding
it (issue 33). Before, it became an unknown provider the spec could not build. Models a provider
names still become that provider.

Each program is imported with the CLI and run three ways with the same result (the original on
langgraph, the spec compiled on the engine, its langgraph export on langgraph).
"""

from __future__ import annotations

from graphspec.compiler import compile_spec
from graphspec.importer import import_module_graph, load_module, spec_of
from graphspec.program_graphs import unlike
from graphspec.trust import code_sites
from tests.graphspec.test_import_reach import program, three_ways

ECHO = """
from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult


class EchoModel(BaseChatModel):
    prefix: str

    @property
    def _llm_type(self) -> str:
        return "echo"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        reply = AIMessage(content=self.prefix + messages[-1].content)
        return ChatResult(generations=[ChatGeneration(message=reply)])

    def bind_tools(self, tools, **kwargs):
        return self


PREFIX = "echo: "
"""

ASK = {"messages": [{"role": "user", "content": "hello"}]}


def test_a_model_written_in_the_agent_call_becomes_code_making_it(tmp_path):
    path = program(tmp_path, "inline_model", ECHO + """
agent = create_agent(model=EchoModel(prefix=PREFIX), system_prompt="Repeat.")
""")  # fmt: skip
    spec = three_ways(path, lambda m: m.agent, ASK, tmp_path)
    factory = spec.agents[0].model.factory
    assert "return EchoModel(prefix=PREFIX)" in factory.code
    assert "from inline_model import EchoModel, PREFIX" in factory.code
    assert any(site.path == "$.agents[0].model.factory" for site in code_sites(spec))


def test_a_model_held_in_a_module_variable_is_that_object(tmp_path):
    path = program(tmp_path, "held_model", ECHO + """
model = EchoModel(prefix=PREFIX)
agent = create_agent(model, system_prompt="Repeat.")
""")  # fmt: skip
    spec = three_ways(path, lambda m: m.agent, ASK, tmp_path)
    code = spec.agents[0].model.factory.code
    assert "from held_model import model" in code and code.rstrip().endswith("return model")


def test_a_model_a_provider_names_stays_that_provider(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    path = program(tmp_path, "openai_model", """
from langchain.agents import create_agent
from langchain_openai import ChatOpenAI

agent = create_agent(ChatOpenAI(model="gpt-4o-mini"), system_prompt="Be brief.")
""")  # fmt: skip
    model = import_module_graph(str(path)).agents[0].model
    assert (model.provider, model.model, model.factory) == ("openai", "gpt-4o-mini", None)


def test_a_middlewares_own_tool_comes_back_with_the_middleware_only(tmp_path):
    """TodoListMiddleware brings write_todos: the spec keeps the middleware, not a second copy
    of its tool (which pointed into the engine's agent layer)."""
    path = program(tmp_path, "todo_agent", """
from _scripted import ScriptedModel
from langchain.agents import create_agent
from langchain.agents.middleware import TodoListMiddleware
from langchain_core.messages import AIMessage

model = ScriptedModel(responses=[
    AIMessage(content="", tool_calls=[{"name": "write_todos", "id": "t",
              "args": {"todos": [{"content": "plan", "status": "in_progress"}]}}]),
    AIMessage(content="Planned."),
])
agent = create_agent(model, middleware=[TodoListMiddleware()])
""")  # fmt: skip
    spec = three_ways(path, lambda m: m.agent, ASK, tmp_path)
    [agent] = spec.agents
    assert agent.tools == [] and [m.name for m in agent.middleware] == ["todo_list"]


def test_an_agent_program_shows_its_callers_what_its_spec_shows(tmp_path):
    """What the studio checks before it opens a program as an editable spec: the agent's
    structured_response (an output key even without a response_format) is in the spec, and its
    jump_to, a value that lasts one step, is no state a caller reads."""
    path = program(tmp_path, "plain_agent", ECHO + """
agent = create_agent(model=EchoModel(prefix=PREFIX), system_prompt="Repeat.")
""")  # fmt: skip
    module = load_module(str(path), on_engine=True)
    spec = spec_of(module, "agent", path.name)
    assert spec.key("structured_response").input is False
    assert unlike(module.agent, compile_spec(spec, trusted=True)) is None
