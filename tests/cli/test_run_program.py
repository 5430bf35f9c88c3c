"""`superstep run PROGRAM.py[:NAME]` runs a developer's own LangGraph program's graph on the
engine, as it runs a spec (input, stream modes, thread and checkpoint database, resume), with
the result real langgraph gives; its code runs only with consent (--trust, as `superstep
import`), and a program holding several graphs names them."""

from __future__ import annotations

import json
import textwrap

from studio.cli import main
from tests.cli.program_file_names import (
    INPUT,
    langgraph_result,
    on_langgraph,
    write_program,
)

ASKING = textwrap.dedent('''\
    """Asks a person before it writes: an interrupt, answered by a resume."""

    from typing_extensions import TypedDict

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph
    from langgraph.types import interrupt


    class State(TypedDict):
        topic: str
        text: str


    def draft(state: State) -> dict:
        return {"text": f"draft on {state['topic']}"}


    def ask(state: State) -> dict:
        answer = interrupt({"question": "publish?", "text": state["text"]})
        return {"text": f"{state['text']} ({answer})"}


    builder = StateGraph(State)
    builder.add_node("draft", draft)
    builder.add_node("ask", ask)
    builder.add_edge(START, "draft")
    builder.add_edge("draft", "ask")
    builder.add_edge("ask", END)
    graph = builder.compile(checkpointer=InMemorySaver())
''')


def test_run_a_program_file_gives_langgraphs_result(capsys, tmp_path):
    for name in ("09_subgraph.py", "my-agent.py"):
        program = write_program(tmp_path / name.removesuffix(".py"), name)
        expected = langgraph_result(program)
        assert main(["run", f"{program}:main", "--trust", "--input", json.dumps(INPUT)]) == 0
        assert json.loads(capsys.readouterr().out.splitlines()[-1]) == expected


def test_a_programs_stream_is_langgraphs(capsys, tmp_path):
    program = write_program(tmp_path / "prog")
    expected = on_langgraph(
        "import json\nfrom importlib import import_module\n"
        "main = import_module('09_subgraph').main.compile()\n"
        f"print(json.dumps(list(main.stream({INPUT!r}, stream_mode='updates'))))\n",
        program.parent,
    )
    assert main(["run", f"{program}:main", "--trust", "--input", json.dumps(INPUT),
                 "--stream", "updates"]) == 0  # fmt: skip
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["data"] for line in lines if "mode" in line] == expected


def test_a_programs_thread_is_kept_in_db_and_resumed(capsys, tmp_path):
    program = tmp_path / "ask.py"
    program.write_text(ASKING, encoding="utf-8")
    db = str(tmp_path / "runs.sqlite")
    first = {"topic": "owls", "text": ""}
    assert main(["run", str(program), "--trust", "--input", json.dumps(first), "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[1] == 'interrupted: {"question": "publish?", "text": "draft on owls"}'
    assert out[2].startswith(f"resume with: superstep run {program} --thread t1 --db {db}")
    assert main(["run", str(program), "--trust", "--resume", '"yes"', "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    expected = on_langgraph(
        "import json\nfrom langgraph.types import Command\nfrom ask import graph\n"
        "thread = {'configurable': {'thread_id': 't1'}}\n"
        f"graph.invoke({first!r}, thread)\n"
        "print(json.dumps(graph.invoke(Command(resume='yes'), thread)))\n",
        tmp_path,
    )
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == expected
    assert expected == {"topic": "owls", "text": "draft on owls (yes)"}


def test_a_program_with_several_graphs_names_them(capsys, tmp_path):
    program = write_program(tmp_path / "prog")
    assert main(["run", str(program), "--trust"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"superstep run: 09_subgraph.py defines 2 graphs: sub, main; run one with {program}:sub"
    )


def test_a_program_is_not_run_without_consent(capsys, tmp_path, monkeypatch):
    program = write_program(tmp_path / "prog")
    ran = tmp_path / "ran.txt"
    program.write_text(program.read_text(encoding="utf-8") + f"open({str(ran)!r}, 'w').close()\n",
                       encoding="utf-8")  # fmt: skip
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)  # nobody at a terminal to say yes
    assert main(["run", f"{program}:main", "--input", json.dumps(INPUT)]) == 2
    assert capsys.readouterr().err.strip() == ("superstep run: running 09_subgraph.py runs its "
                                               "Python code: not run (pass --trust to allow it)")  # fmt: skip
    assert not ran.exists()


def test_a_langgraph_json_projects_graph_runs(capsys, tmp_path):
    program = write_program(tmp_path / "prog", "subgraph_09.py")
    project = program.with_name("langgraph.json")
    project.write_text(json.dumps({"dependencies": ["."], "graphs": {
        "research": "./subgraph_09.py:sub", "report": "./subgraph_09.py:main"}}))  # fmt: skip
    assert main(["run", str(project), "--trust"]) == 2
    assert capsys.readouterr().err.strip() == ("superstep run: langgraph.json defines 2 graphs: "
                                               f"research, report; run one with {project}:research")  # fmt: skip
    assert main(["run", f"{project}:report", "--trust", "--input", json.dumps(INPUT)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == langgraph_result(program)


def test_a_state_the_input_does_not_fit_names_the_field(capsys):
    """A learner's pydantic state (tests/programs/gh_5.PydanticState.py) given a number for its
    `name`: one line naming the state class, the field, what is wrong and the value, where
    pydantic's first line only counted the errors ("1 validation error for PydanticState")."""
    from pathlib import Path

    program = Path(__file__).parents[1] / "programs" / "gh_5.PydanticState.py"
    assert main(["run", f"{program}:builder", "--trust", "--input", '{"name": 123}']) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == (
        "superstep run: run failed: ValidationError: PydanticState.name: Input should be a valid "
        "string, got 123"
    )


def test_an_entrypoint_takes_any_json_input_and_its_resume(capsys, tmp_path):
    """A functional workflow (tests/programs/gh_hil_func.py, an @entrypoint whose middle task
    interrupts) takes a string, as `graph.invoke("foo")` does on langgraph: --input is not held
    to a state object for a program, and the resume finishes it with langgraph's result."""
    from pathlib import Path

    program = Path(__file__).parents[1] / "programs" / "gh_hil_func.py"
    db = str(tmp_path / "runs.sqlite")
    assert main(["run", str(program), "--trust", "--input", '"foo"', "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["null", 'interrupted: "Please provide feedback: foo bar"']
    assert main(["run", str(program), "--trust", "--resume", '"baz"', "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    expected = on_langgraph(
        "import json\nfrom langgraph.types import Command\nfrom gh_hil_func import graph\n"
        "thread = {'configurable': {'thread_id': 't1'}}\n"
        "graph.invoke('foo', thread)\n"
        "print(json.dumps(graph.invoke(Command(resume='baz'), thread)))\n",
        program.parent,
    )
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == expected == "foo bar baz qux"


def test_a_program_with_async_nodes_runs_as_langgraph_dev_runs_it(capsys):
    """An exam's travel recommender (tests/programs/gh_voyage_factory.py: a graph factory whose
    one node is `async def`) runs on the async API, as `langgraph dev` runs every graph: the
    sync one refused it ("No synchronous function provided"). Its result and its stream are
    langgraph's `ainvoke` and `astream`."""
    from pathlib import Path

    program = Path(__file__).parents[1] / "programs" / "gh_voyage_factory.py"
    given = {"dernier_message_utilisateur": "Je cherche un séjour à la plage avec détente"}
    assert main(["run", f"{program}:build_graph", "--trust", "--input", json.dumps(given)]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert main(["run", f"{program}:build_graph", "--trust", "--input", json.dumps(given),
                 "--stream", "updates"]) == 0  # fmt: skip
    streamed = [json.loads(line) for line in capsys.readouterr().out.splitlines()[:-1]]
    expected = on_langgraph(
        "import asyncio, dataclasses, json\nfrom gh_voyage_factory import build_graph\n"
        f"state = asyncio.run(build_graph().ainvoke({given!r}))\n"
        "import gh_voyage_factory as m; m._scripted._calls = 0\n"
        f"async def parts(): return [p async for p in build_graph().astream({given!r}, "
        "stream_mode='updates')]\n"
        "print(json.dumps([state, asyncio.run(parts())]))\n",
        program.parent,
    )
    assert [result, [line["data"] for line in streamed]] == expected
    assert result["criteres"]["plage"] is True


ASYNC_MIDDLEWARE = textwrap.dedent('''\
    """An agent whose one middleware is an `async def` wrap_model_call."""

    from langchain.agents import create_agent
    from langchain.agents.middleware import wrap_model_call
    from langchain_core.language_models.fake_chat_models import FakeListChatModel


    @wrap_model_call
    async def shout(request, handler):
        response = await handler(request)
        return response.result[0].model_copy(update={"content": response.result[0].text.upper()})


    agent = create_agent(FakeListChatModel(responses=["hello there"]), middleware=[shout])
    ''')


def test_an_agent_with_async_only_middleware_runs_as_langgraph_dev_runs_it(capsys, tmp_path):
    """A chat app's agent whose middleware is `@wrap_model_call async def` (its sync call raises
    NotImplementedError, as langchain's) runs on the async API, as `langgraph dev` does: the
    sync one failed the run."""
    program = tmp_path / "async_mw.py"
    program.write_text(ASYNC_MIDDLEWARE, encoding="utf-8")
    given = {"messages": [{"role": "user", "content": "hi"}]}
    assert main(["run", str(program), "--trust", "--input", json.dumps(given)]) == 0
    result = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert [m["content"] for m in result["messages"]] == ["hi", "HELLO THERE"]


def test_a_programs_run_context_is_given_with_context(capsys, monkeypatch):
    """A small app's agent (tests/programs/gh_weather_puns: a tool reads runtime.context.user_id
    from its dataclass context) takes its run context from --context, as `invoke(...,
    context=...)` on langgraph: the user's location is Florida. Without it the tool fails, and
    the app's error middleware tells the model so, on both runtimes."""
    from pathlib import Path

    programs = Path(__file__).parents[1] / "programs"
    monkeypatch.syspath_prepend(str(programs))  # the corpus's offline model
    program = programs / "gh_weather_puns" / "main.py"
    asked = json.dumps({"messages": [{"role": "user", "content": "what is the weather outside?"}]})
    results = []
    for context in (["--context", '{"user_id": "1"}'], []):
        assert main(["run", str(program), "--trust", "--input", asked, *context]) == 0
        state = json.loads(capsys.readouterr().out.splitlines()[-1])
        results.append([m["content"] for m in state["messages"] if m["type"] == "tool"][0])
    expected = on_langgraph(
        "import json, sys\nsys.path.insert(0, '..')\nfrom main import agent\n"
        "ask = {'messages': [{'role': 'user', 'content': 'what is the weather outside?'}]}\n"
        "first = lambda **kw: agent.invoke(ask, {'configurable': {'thread_id': str(kw)}}, **kw)"
        "['messages'][2].content\n"
        "import main; given = first(context={'user_id': '1'}); main.model._calls = 0\n"
        "print(json.dumps([given, first()]))\n",
        program.parent,
    )
    assert results == expected
    assert results[0] == "Florida" and results[1].startswith("Tool error:")


PARALLEL_ASKS = """
import operator
from typing import Annotated, TypedDict

from langgraph.graph import START, StateGraph
from langgraph.types import interrupt


class S(TypedDict):
    answers: Annotated[list, operator.add]


def ask_a(state):
    return {"answers": ["a:" + interrupt("question_a")]}


def ask_b(state):
    return {"answers": ["b:" + interrupt("question_b")]}


graph = (StateGraph(S).add_node(ask_a).add_node(ask_b)
         .add_edge(START, "ask_a").add_edge(START, "ask_b").compile())
"""


def test_several_pending_interrupts_are_resumed_by_their_ids(capsys, tmp_path):
    """Two parallel interrupts (a multiple-interrupts example): langgraph resumes them only with
    one answer per interrupt id, so each is printed with its id and the resume line asks for a
    map of them; the printed line, filled in, resumes the thread."""
    program = tmp_path / "parallel_asks.py"
    program.write_text(PARALLEL_ASKS, encoding="utf-8")
    db = str(tmp_path / "runs.sqlite")
    assert main(["run", str(program), "--trust", "--input", '{"answers": []}', "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    asked = [line for line in out if line.startswith("interrupted [")]
    ids = [line.split("[", 1)[1].split("]", 1)[0] for line in asked]
    assert [line.split("]: ", 1)[1] for line in asked] == ['"question_a"', '"question_b"']
    hint = out[-1]
    assert hint.endswith("--resume '{" + ", ".join(f'"{i}": <JSON>' for i in ids) + "}'")
    answers = json.dumps(dict(zip(ids, ["A", "B"], strict=True)))
    assert main(["run", str(program), "--trust", "--resume", answers, "--db", db,
                 "--thread", "t1"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"answers": ["a:A", "b:B"]}
