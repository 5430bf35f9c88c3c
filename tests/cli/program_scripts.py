"""Programs whose graphs are built and run by their `if __name__ == "__main__":` block, or by
their top-level code with no such block, as tutorial scripts are written, and the oracle: the
same script run by Python on real langgraph."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent('''\
    """Counts with a node, and doubles with another graph, both made and run in main()."""

    import argparse
    import json
    from typing import TypedDict

    from langgraph.checkpoint.memory import MemorySaver
    from langgraph.graph import END, START, StateGraph


    class Count(TypedDict):
        n: int


    def add_one(state: Count) -> dict:
        return {"n": state["n"] + 1}


    def double(state: Count) -> dict:
        return {"n": state["n"] * 2}


    def build(node) -> StateGraph:
        builder = StateGraph(Count)
        builder.add_node(node.__name__, node)
        builder.add_edge(START, node.__name__)
        builder.add_edge(node.__name__, END)
        return builder


    def main() -> None:
        parser = argparse.ArgumentParser()
        parser.add_argument("--start", type=int, default=1)
        start = parser.parse_args().start
        counter = build(add_one).compile(checkpointer=MemorySaver())
        first = counter.invoke({"n": start}, {"configurable": {"thread_id": "first"}})
        again = counter.invoke({"n": first["n"]}, {"configurable": {"thread_id": "second"}})
        doubler = build(double).compile()
        print(json.dumps([first, again, doubler.invoke(again)]))
        STOP


    if __name__ == "__main__":
        main()
''')


def write_script(folder: Path, name: str = "count_script.py", stop: str = "") -> Path:
    """The script in `folder`; `stop`: a statement it runs once its graphs ran (`raise ...`)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(SCRIPT.replace("STOP", stop or "pass"), encoding="utf-8")
    return path


def script_output_on_langgraph(path: Path) -> list:
    """What the script prints (its JSON line), run as `python SCRIPT.py` on real langgraph."""
    env = {**os.environ, "PYTHONPATH": ""}
    done = subprocess.run([sys.executable, str(path)], cwd=path.parent, capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


ASYNC_SCRIPT = textwrap.dedent('''\
    """An async main(), run with asyncio.run, as async tutorials end."""

    import asyncio
    from typing import TypedDict

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph


    class Count(TypedDict):
        n: int


    async def add_one(state: Count) -> dict:
        await asyncio.sleep(0)
        return {"n": state["n"] + 1}


    async def main() -> None:
        builder = StateGraph(Count)
        builder.add_node("add_one", add_one)
        builder.add_edge(START, "add_one")
        builder.add_edge("add_one", END)
        graph = builder.compile(checkpointer=InMemorySaver())
        print(await graph.ainvoke({"n": 1}, {"configurable": {"thread_id": "async-1"}}))


    if __name__ == "__main__":
        asyncio.run(main())
''')


TOP_LEVEL_ASYNC = textwrap.dedent('''\
    """An async main() that builds its graph and runs it, called at top level: no __main__ guard."""

    import asyncio
    import json
    from typing import TypedDict

    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, StateGraph


    class Count(TypedDict):
        n: int


    async def add_one(state: Count) -> dict:
        return {"n": state["n"] + 1}


    async def main() -> None:
        builder = StateGraph(Count)
        builder.add_node("add_one", add_one)
        builder.add_edge(START, "add_one")
        builder.add_edge("add_one", END)
        graph = builder.compile(checkpointer=InMemorySaver())
        print(json.dumps(await graph.ainvoke({"n": 1}, {"configurable": {"thread_id": "top-1"}})))


    asyncio.run(main())
    STOP
''')


TOP_LEVEL_SYNC = textwrap.dedent('''\
    """A sync main() that makes two graphs and invokes them, called at top level."""

    import json
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph


    class Count(TypedDict):
        n: int


    def build(node):
        builder = StateGraph(Count)
        builder.add_node(node.__name__, node)
        builder.add_edge(START, node.__name__)
        builder.add_edge(node.__name__, END)
        return builder.compile()


    def triple(state: Count) -> dict:
        return {"n": state["n"] * 3}


    def negate(state: Count) -> dict:
        return {"n": -state["n"]}


    def main():
        tripled = build(triple).invoke({"n": 2})
        print(json.dumps([tripled, build(negate).invoke(tripled)]))


    main()
    STOP
''')


def write_top_level(folder: Path, text: str, name: str, stop: str = "") -> Path:
    """A program of `text` (TOP_LEVEL_ASYNC, TOP_LEVEL_SYNC) in `folder`; `stop`: a statement
    its top-level code runs once its graphs ran."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text.replace("STOP", stop or "pass"), encoding="utf-8")
    return path


MESSAGE_SCRIPT = textwrap.dedent('''\
    """Answers the first message of its state, as chat tutorials do: the graph is built and run
    in main() with langchain messages in a plain list (no reducer) and no checkpointer."""

    from typing import TypedDict

    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.graph import END, START, StateGraph


    class Chat(TypedDict):
        messages: list
        answer: str


    def answer(state: Chat) -> dict:
        first = (state.get("messages") or [None])[0]
        if not isinstance(first, HumanMessage):  # a dict typed in as JSON is not a message
            return {"answer": "No messages found in state"}
        return {"answer": f"you asked: {first.content}", "messages": [first, AIMessage("yes")]}


    def build():
        builder = StateGraph(Chat)
        builder.add_node("answer", answer)
        builder.add_edge(START, "answer")
        builder.add_edge("answer", END)
        return builder.compile()


    QUESTION = {"messages": [HumanMessage(content="what is a superstep?")], "answer": ""}


    def main() -> None:
        app = build()
        print(app.invoke(QUESTION)["answer"])
        print(app.invoke({"messages": [HumanMessage(content="and a channel?")]})["answer"])


    if __name__ == "__main__":
        main()
''')


def write_message_script(folder: Path, name: str = "chat_script.py") -> Path:
    """MESSAGE_SCRIPT in `folder`: its first run's input is the module's QUESTION."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(MESSAGE_SCRIPT, encoding="utf-8")
    return path


# its first node drains the run (a graceful shutdown): the run stops at the superstep boundary
DRAINING = textwrap.dedent("""\
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph
    from langgraph.runtime import Runtime


    class Count(TypedDict):
        count: int


    def first(state: Count, runtime: Runtime) -> dict:
        runtime.control.request_drain("maintenance")
        return {"count": state["count"] + 1}


    def second(state: Count) -> dict:
        return {"count": state["count"] + 10}


    builder = StateGraph(Count)
    builder.add_node("first", first)
    builder.add_node("second", second)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    builder.add_edge("second", END)
    graph = builder.compile()
""")
