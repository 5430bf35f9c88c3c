"""Validator checks for inline Python code: it parses and defines the function it names.

Errors (the compiler could not load the code):

    bad-code          the code does not parse (the message gives the line and column)
    missing-function  the code parses but defines no top-level `function` of that name

Warnings (it runs, but `superstep export` refuses it):

    unexportable-name the code binds a builtin or a name the exported module needs (the
                      exporter's own rule, `graphspec.export.python_module.binding_problem`)

Code is read as text (never run), so these checks work on untrusted specs. Each finding names
the element that owns the code (the node, the agent's node, the edge, the state key) and the
JSON path of its `code` field, so the studio can flag the node and keep the text in the editor.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from graphspec.export.python_module import binding_problem
from graphspec.model import (
    AgentNode,
    CodeRef,
    CodeRouter,
    CustomMiddleware,
    FunctionNode,
    GraphSpec,
    ToolsNode,
)

Add = Callable[..., None]


def inline_code(spec: GraphSpec) -> Iterator[tuple[str, str, CodeRef]]:
    """(element id, JSON path of the reference, reference) for each piece of inline code."""
    for i, key in enumerate(spec.state):
        if key.custom_reducer is not None:
            yield key.name, f"$.state[{i}].custom_reducer", key.custom_reducer
    for i, node in enumerate(spec.nodes):
        if isinstance(node, FunctionNode) and node.code is not None:
            yield node.id, f"$.nodes[{i}]", node.code_ref()
        elif isinstance(node, ToolsNode):
            for j, tool in enumerate(node.tools):
                yield node.id, f"$.nodes[{i}].tools[{j}]", tool
    for i, edge in enumerate(spec.conditional_edges):
        if isinstance(edge.router, CodeRouter):
            yield edge.id, f"$.conditional_edges[{i}].router", edge.router
    for i, agent in enumerate(spec.agents):
        users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
        element = users[0] if users else agent.id
        for j, tool in enumerate(agent.tools):
            yield element, f"$.agents[{i}].tools[{j}]", tool
        for j, mw in enumerate(agent.middleware):
            if isinstance(mw, CustomMiddleware):
                for hook, ref in mw.hooks.items():
                    yield element, f"$.agents[{i}].middleware[{j}].hooks.{hook}", ref
        for field in ("pre_model_hook", "post_model_hook"):
            ref = getattr(agent, field)
            if ref is not None and ref.code is not None:
                yield element, f"$.agents[{i}].{field}", ref


def defined_names(tree: ast.Module) -> set[str]:
    """Names bound at module level (inside if/try/with blocks too, not inside functions)."""
    names: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in stmt.names}
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        for field in ("body", "orelse", "finalbody", "handlers"):
            stack += [
                s for s in getattr(stmt, field, []) if isinstance(s, (ast.stmt, ast.excepthandler))
            ]
    return names


def code_problem(code: str, function: str | None) -> tuple[str, str] | None:
    """(code, message) of what keeps `code` from loading `function`, or None."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        return "bad-code", f"the code does not parse ({where}: {exc.msg})"
    except (ValueError, RecursionError, MemoryError) as exc:
        return "bad-code", f"the code does not parse ({exc})"
    if function and function not in defined_names(tree):
        return "missing-function", f"the code defines no function named {function!r}"
    return None


def check_code(spec: GraphSpec, add: Add) -> None:
    """Adds an error for each piece of inline code the compiler could not load."""
    for element, path, ref in inline_code(spec):
        if ref.code is None:
            continue
        problem = code_problem(ref.code, ref.function)
        if problem is None:
            unexportable = binding_problem(ref.code)
            if unexportable is not None:
                add("warning", "unexportable-name", unexportable, element, f"{path}.code",
                    "rename it: an exported module cannot give the code that name")  # fmt: skip
            continue
        code, message = problem
        fix = (
            "fix the code; it is kept as typed"
            if code == "bad-code"
            else (f"define {ref.function!r}, or set the function name to one the code defines")
        )
        add("error", code, message, element, f"{path}.code", fix)


__all__ = ["check_code", "code_problem", "inline_code", "defined_names"]
