"""A script's graph runs in the debugger with the config keys and run context the script ran it
with: a node reading `config["configurable"]["user_id"]` (a store-backed memory tutorial) or
`runtime.context` failed with KeyError under `superstep run` and in the studio, which gave the
script's input but only a thread of their own."""

from __future__ import annotations

import json
import textwrap

from engine.graph import END, START, StateGraph
from engine.pregel.root_runs import watch_root_runs
from studio.cli import main
from tests.cli.program_scripts import script_output_on_langgraph

GREETER = textwrap.dedent('''\
    """Greets the user its config names, in the language of its run context."""

    import json
    from dataclasses import dataclass
    from typing import TypedDict

    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime


    @dataclass
    class Language:
        code: str


    class Greeting(TypedDict, total=False):
        name: str
        text: str


    def greet(state: Greeting, config: RunnableConfig, runtime: Runtime[Language]) -> dict:
        user = config["configurable"]["user_id"]
        return {"text": f"{runtime.context.code}: hello {state['name']} ({user})"}


    builder = StateGraph(Greeting, context_schema=Language)
    builder.add_node("greet", greet)
    builder.add_edge(START, "greet")
    builder.add_edge("greet", END)
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t-1", "user_id": "u-7"}}
    print(json.dumps(graph.invoke({"name": "Ada"}, config, context=Language("en"))))
''')


def write_greeter(folder):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "greeter.py"
    path.write_text(GREETER, encoding="utf-8")
    return path


def test_a_root_run_keeps_its_configs_own_keys_and_its_context():
    builder = StateGraph(dict)
    builder.add_node("noop", lambda state: {})
    builder.add_edge(START, "noop")
    builder.add_edge("noop", END)
    graph = builder.compile()
    context = object()
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": "", "user_id": "u-7"}}
    with watch_root_runs() as runs:
        graph.invoke({}, config, context=context)
        graph.invoke({})
    assert runs[0].configurable == {"user_id": "u-7"}  # where it ran is the debugger's to pick
    assert runs[0].context is context
    assert runs[1].configurable == {} and runs[1].context is None


def test_superstep_run_gives_the_graph_the_scripts_config_keys_and_context(tmp_path, capsys):
    script = write_greeter(tmp_path / "prog")
    printed = script_output_on_langgraph(script)
    code = main(["run", str(script), "--trust"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert (
        json.loads(out.splitlines()[-1])
        == printed
        == {"name": "Ada", "text": "en: hello Ada (u-7)"}
    )
    assert "superstep run: runs with the script's config keys (user_id) and run context " \
        "(--context replaces it)" in err.splitlines()  # fmt: skip


def test_superstep_run_context_replaces_the_scripts(tmp_path, capsys):
    script = write_greeter(tmp_path / "prog")
    code = main(["run", str(script), "--trust", "--context", '{"code": "fr"}'])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out.splitlines()[-1])["text"] == "fr: hello Ada (u-7)"
    assert "superstep run: runs with the script's config keys (user_id)" in err.splitlines()
