# Source: langchain-ai/langgraph-codeact, README.md, the example (its tools, its eval sandbox,
#   the agent), as released in langgraph-codeact 0.1.3
#   (https://pypi.org/project/langgraph-codeact/0.1.3/, its sdist); the langgraph_codeact
#   package beside it is that release's, unchanged.
# License: MIT, (c) LangChain (LICENSE)
# Adapted: init_chat_model("claude-3-7-sonnet-latest", model_provider="anthropic") replaced by
#   a scripted model (it writes code calling the tools, then answers); the README's demo stream
#   left to the manifest. langgraph.json beside it is written for this corpus (the sdist ships
#   none), in the form langgraph-cli reads.
import math

from langchain_core.tools import tool

def add(a: float, b: float) -> float:
    """Add two numbers together."""
    return a + b

def multiply(a: float, b: float) -> float:
    """Multiply two numbers together."""
    return a * b

def divide(a: float, b: float) -> float:
    """Divide two numbers."""
    return a / b

def subtract(a: float, b: float) -> float:
    """Subtract two numbers."""
    return a - b

def sin(a: float) -> float:
    """Take the sine of a number."""
    return math.sin(a)

def cos(a: float) -> float:
    """Take the cosine of a number."""
    return math.cos(a)

def radians(a: float) -> float:
    """Convert degrees to radians."""
    return math.radians(a)

def exponentiation(a: float, b: float) -> float:
    """Raise one number to the power of another."""
    return a**b

def sqrt(a: float) -> float:
    """Take the square root of a number."""
    return math.sqrt(a)

def ceil(a: float) -> float:
    """Round a number up to the nearest integer."""
    return math.ceil(a)

tools = [
    add,
    multiply,
    divide,
    subtract,
    sin,
    cos,
    radians,
    exponentiation,
    sqrt,
    ceil,
]

import builtins
import contextlib
import io
from typing import Any


def eval(code: str, _locals: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    # Store original keys before execution
    original_keys = set(_locals.keys())

    try:
        with contextlib.redirect_stdout(io.StringIO()) as f:
            exec(code, builtins.__dict__, _locals)
        result = f.getvalue()
        if not result:
            result = "<code ran, no output printed to stdout>"
    except Exception as e:
        result = f"Error during execution: {repr(e)}"

    # Determine new variables created during execution
    new_keys = set(_locals.keys()) - original_keys
    new_vars = {key: _locals[key] for key in new_keys}
    return result, new_vars

from _offline import ScriptedChatModel
from langgraph_codeact import create_codeact
from langgraph.checkpoint.memory import MemorySaver

model = ScriptedChatModel(
    responses=[
        "I'll compute the range.\n```python\nv = 45.847\nd = v * v * sin(radians(2 * 23.474)) / 9.81\nprint(round(d, 2))\n```",
        "The ball landed about 156 m away.",
    ]
)

code_act = create_codeact(model, tools, eval)
agent = code_act.compile(checkpointer=MemorySaver())
