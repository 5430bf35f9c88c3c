"""The exported Python module's parts: its imports, its blocks, and the names it has taken.

Generated names never hide a builtin, a keyword or one of the module's own names (they get a
trailing `_`); copied code keeps its names, so the names it binds are taken first, and it may
not rebind a builtin or a name the module needs.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import symtable
import textwrap

from engine.agents.hooks import HOOKS
from graphspec.errors import SpecError
from graphspec.export.compile_args import RUNTIME_IMPORTS
from graphspec.export.mcp_code import MCP_HELPERS, MCP_IMPORTS
from graphspec.model import PREBUILT_MIDDLEWARE, Argument, CodeRef, FunctionNode
from graphspec.program_names import alias_line
from graphspec.pysource import comment, literal

PREGEL_IMPORTS = [
    "from langgraph.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic",
    "from langgraph.pregel import NodeBuilder, Pregel",
]
"""What a graph built by hand (`GraphSpec.pregel`) is written with."""
FILE_IMPORTS = [
    "import sys",
    "from importlib import import_module",
    "from importlib.util import module_from_spec, spec_from_file_location",
    "from pathlib import Path",
]
"""What importing a program file by its own name, or by path, takes (`file_imports`)."""
BASE_IMPORTS = [
    "import operator",
    "from typing import Annotated, Any, TypedDict",
    "",
    "from langgraph.config import get_stream_writer",
    "from langgraph.graph import END, START, StateGraph",
    "from langgraph.graph.message import add_messages",
    "from langgraph.managed import IsLastStep, RemainingSteps",
    "from langgraph.prebuilt import ToolRuntime",
    "from langgraph.types import CachePolicy, Command, RetryPolicy, Send, interrupt",
]
OPTIONAL_IMPORTS = [
    "from langchain_core.messages import AIMessage, SystemMessage",
    "from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel",
    "from langchain_core.tools import tool",
    "from langchain.chat_models import init_chat_model",
    "from langchain.agents import create_agent",
    "from langgraph.prebuilt import ToolNode",
    *RUNTIME_IMPORTS,
    *PREGEL_IMPORTS,
    *MCP_IMPORTS,
    *FILE_IMPORTS,
    "from langchain.agents.middleware import " + ", ".join([*PREBUILT_MIDDLEWARE.values(), *HOOKS]),
]
"""Everything `PythonModule.need` may add: the names are reserved whether or not a spec needs them."""


def _import_origins(lines: list[str]) -> dict[str, str | None]:
    """name -> the module it is imported from (None for `import name`)."""
    out: dict[str, str | None] = {}
    for line in lines:
        if line.startswith("from "):
            module, _, names = line[5:].partition(" import ")
            out.update(dict.fromkeys(names.split(", "), module))
        elif line.startswith("import "):
            out[line[7:]] = None
    return out


IMPORTED = _import_origins(BASE_IMPORTS + OPTIONAL_IMPORTS)
RESERVED = {
    *IMPORTED, "merge_dicts", "build_graph", "compile_graph", "graph", "RECURSION_LIMIT", "json",
    "ScriptedModel", "builder", "compiled", "checkpointer", "messages", *MCP_HELPERS,
}  # fmt: skip
"""The module's own names (imports, helpers, locals of its functions): no generated name takes one."""


def _taken(name: str) -> bool:
    """Names no generated name or copied code may bind: builtins, keywords, dunders, ours."""
    return (
        name in RESERVED
        or name in builtins.__dict__
        or keyword.iskeyword(name)
        or (name.startswith("__") and name.endswith("__"))
    )


def _bindings(code: str) -> tuple[list[str], set[str]]:
    """(the names `code` binds at module level, those bound by the same import the module has)."""
    try:
        table = symtable.symtable(textwrap.dedent(code).strip() + "\n", "<code>", "exec")
        tree = ast.parse(textwrap.dedent(code).strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return [], set()  # the parse check (validator, or the whole module's) reports it
    same_imports = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
        if alias.asname in (None, alias.name)
        and IMPORTED.get(alias.name, "") == getattr(node, "module", None)
        and not getattr(node, "level", 0)
    }
    bound = [
        symbol.get_name()
        for symbol in table.get_symbols()
        if symbol.is_assigned() or symbol.is_imported() or not symbol.is_referenced()
    ]
    return bound, same_imports


def binding_problem(code: str) -> str | None:
    """Why an exported module cannot hold `code`, or None: copied code keeps its names, and it
    may not rebind a builtin or one of the module's names (except by the same import). The one
    rule for the exporter and the validator (`graphspec.code_checks`)."""
    bound, same_imports = _bindings(code)
    bad = [name for name in bound if _taken(name) and name not in same_imports]
    if not bad:
        return None
    return f"code binds {bad[0]!r}, a builtin or a name the exported module needs; rename it"


class PythonModule:
    """Collects the parts of one exported module."""

    def __init__(self) -> None:
        self.imports: list[str] = list(BASE_IMPORTS)
        self.blocks: list[str] = []
        self.used: set[str] = set(RESERVED)
        self.aliases: dict[tuple[str, str], str] = {}
        """(module, name) -> the name its import took here."""
        self.files: dict[str, str] = {}
        """Module name -> file stem, for program files whose name is no module name
        (`graphspec.program_names`): imported by their own name."""

    def name(self, wanted: str) -> str:
        name = wanted.strip("_") or "fn" if wanted.startswith("__") else wanted
        while name in self.used or _taken(name):
            name = f"{name}_"
        self.used.add(name)
        return name

    def reserve_code_names(self, element_id: str, code: str) -> None:
        """Copied code keeps its names, so the names it binds at module level are taken first."""
        problem = binding_problem(code)
        if problem is not None:
            raise SpecError(problem, element_id=element_id)
        self.used.update(_bindings(code)[0])

    def need(self, line: str) -> None:
        if line not in self.imports:
            self.imports.append(line)

    def code(self, ref: CodeRef | FunctionNode, title: str) -> str:
        """Copy inline code (or import by path); returns the function's name in the module, or
        with `call`, the call's expression."""
        if ref.call is not None:
            callee = self.code(ref.model_copy(update={"call": None}), title)
            parts = [self.argument(a, title) for a in ref.call.args]
            parts += [f"{k}={self.argument(a, title)}" for k, a in ref.call.kwargs.items()]
            return f"{callee}({', '.join(parts)})"
        if ref.import_path is not None:
            module, _, attr = ref.import_path.partition(":")
            head, _, _ = attr.partition(".")
            if IMPORTED.get(head, "") == module:  # one of the module's own imports
                self.need(f"from {module} import {head}")
                return attr
            if (alias := self.aliases.get((module, head))) is None:  # imported once
                alias = self.aliases[module, head] = self.name(head)
                self.need(
                    f"from {module} import {head}" + (f" as {alias}" if alias != head else "")
                )
            return alias + attr[len(head) :]
        if _taken(ref.function or ""):
            raise SpecError(
                f"function {ref.function!r} would hide a builtin or a name of the exported "
                "module; rename it",
                element_id=title.split()[-1],  # titles end with the element's id
            )
        self.used.add(ref.function or "")
        self.blocks.append(f"{comment(title)}\n{textwrap.dedent(ref.code or '').strip()}\n")
        return ref.function or ""

    def argument(self, arg: Argument, title: str) -> str:
        """A call's argument as Python: its JSON value, or its reference's expression."""
        if arg.ref is not None:
            return self.code(arg.ref, title)
        if arg.items is not None:
            return "[" + ", ".join(self.argument(a, title) for a in arg.items) + "]"
        if arg.entries is not None:
            pairs = [f"{literal(k)}: {self.argument(a, title)}" for k, a in arg.entries.items()]
            return "{" + ", ".join(pairs) + "}"
        return literal(arg.value)


def file_imports(lines: list[str], files: dict[str, str], body: str) -> list[str]:
    """`lines` with each program file of `files` the module uses (by import path, or in copied
    code) imported first (`alias_line`), under the module name the spec uses."""
    text = "\n".join([*lines, body])
    used = [m for m in files if re.search(rf"^\s*(from {m} import|import {m}\b)", text, re.M)]
    if not used:
        return lines
    aliases = {module: alias_line(module, files[module]) for module in used}
    out = [*used_imports(FILE_IMPORTS, "\n".join(aliases.values())), *lines]
    for module, line in aliases.items():
        first = next((i for i, row in enumerate(out) if row.startswith(f"from {module} import ")),
                     len(out))  # fmt: skip
        out[first:first] = ["", line]
    return out


def used_imports(lines: list[str], body: str) -> list[str]:
    """The import lines with only the names the body uses (blank separators kept)."""
    words = set(re.findall(r"[^\W\d]\w*", body))  # Python's names: `条件边` too
    out = []
    for line in lines:
        if line.startswith("from ") and " as " not in line:
            head, _, names = line.partition(" import ")
            kept = [n for n in names.split(", ") if n in words]
            if kept:
                out.append(f"{head} import {', '.join(kept)}")
        elif line.startswith("import "):
            if line.split()[1] in words:
                out.append(line)
        else:
            out.append(line)
    while out and out[-1] == "":
        out.pop()
    return [line for i, line in enumerate(out) if line or (i and out[i - 1])]


__all__ = [
    "PREGEL_IMPORTS",
    "BASE_IMPORTS",
    "IMPORTED",
    "OPTIONAL_IMPORTS",
    "PythonModule",
    "binding_problem",
    "file_imports",
    "used_imports",
]
