"""A Command is a langchain ToolOutputMixin, as langgraph's is, whichever loads first: engine.types
or langchain-core's messages (issue 32.1: `import engine.graph` no longer loads langchain-core's
messages; the mixin joins Command's bases when they load). Each order runs in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOOL_RETURNS_COMMAND = """
from langchain_core.tools import tool
from langchain_core.messages.tool import ToolOutputMixin


@tool
def hand_off(target: str) -> Command:
    \"\"\"Go to target.\"\"\"
    return Command(goto=target, update={"x": 1})


call = {"name": "hand_off", "args": {"target": "b"}, "id": "1", "type": "tool_call"}
out = hand_off.invoke(call)
print(json.dumps({"kept": isinstance(out, Command), "goto": out.goto,
                  "mixin": isinstance(Command(), ToolOutputMixin),
                  "mro": [c.__name__ for c in Command.__mro__]}))
"""

ORDERS = {
    "engine first": "import json\nfrom {pkg}.types import Command\n" + TOOL_RETURNS_COMMAND,
    "langchain first": "import json\nimport langchain_core.tools\nfrom {pkg}.types import Command\n"
    + TOOL_RETURNS_COMMAND,
}


def run(code: str) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("order", ORDERS)
def test_a_tool_returns_a_command_as_it_is_like_langgraphs(order):
    ours = run(ORDERS[order].replace("{pkg}", "engine"))
    assert ours == run(ORDERS[order].replace("{pkg}", "langgraph"))
    assert ours["kept"] and ours["mixin"] and ours["goto"] == "b"


def test_a_subclass_of_command_made_before_langchain_loads_is_a_tool_output_too():
    code = (
        "import json\nfrom engine.types import Command\n"
        "class Mine(Command): pass\n"
        "from langchain_core.messages.tool import ToolOutputMixin\n"
        "print(json.dumps({'mixin': isinstance(Mine(), ToolOutputMixin)}))"
    )
    assert run(code) == {"mixin": True}


def test_import_engine_graph_leaves_langchain_cores_messages_and_runnables_unloaded():
    code = (
        "import json, sys\nimport engine.graph\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('langchain_core'))))"
    )
    assert run(code) == []
