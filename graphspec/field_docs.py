"""Field docstrings as field descriptions, read with one parse of each module.

The spec models document a field with a string right under it; those strings are the
descriptions in `schema.json` and the inspector's tooltips. pydantic's own
`use_attribute_docstrings` finds each class's source by walking frames, tokenizing and parsing
the class once or twice: about a third of `graphspec.model`'s import, which every command and
the studio's window wait for. Here each module's source is parsed once and every class's
docstrings are taken from that tree, by pydantic's rule: a plain string statement right after
an annotated assignment of a name, cleaned with `inspect.cleandoc`, nested classes and
functions left out.
"""

from __future__ import annotations

import ast
import inspect
import sys
from functools import cache


@cache
def _module_docs(module: str) -> dict[str, dict[str, str]]:
    """qualname -> {field: docstring} for every class in `module`'s source ({} without one)."""
    try:
        source = inspect.getsource(sys.modules[module])
    except (KeyError, OSError, TypeError):
        return {}
    found: dict[str, dict[str, str]] = {}
    pending = [(node, "") for node in ast.parse(source).body]
    while pending:
        node, prefix = pending.pop()
        if isinstance(node, ast.ClassDef):
            qualname = prefix + node.name
            found.setdefault(qualname, _class_docs(node))
            pending += [(child, qualname + ".") for child in node.body]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pending += [(child, f"{prefix}{node.name}.<locals>.") for child in node.body]
    return found


def _class_docs(node: ast.ClassDef) -> dict[str, str]:
    docs: dict[str, str] = {}
    target, previous = None, None
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign):
            if isinstance(statement.target, ast.Name):
                target = statement.target.id
        elif (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
            and isinstance(previous, ast.AnnAssign)
        ):
            if target:
                docs[target] = inspect.cleandoc(statement.value.value)
            target = None
        previous = statement
    return docs


def describe_fields(cls: type) -> None:
    """Give each of the pydantic model `cls`'s own fields that has no description the docstring
    written under it. Call before its schema is built (the model's config has `defer_build`)."""
    docs = _module_docs(cls.__module__).get(cls.__qualname__, {})
    for name, field in cls.__pydantic_fields__.items():
        if field.description is None and name in docs:
            field.description = docs[name]
