"""Safe pieces of generated Python, for the langgraph export: values, docstrings, comments,
keyword arguments and safe expressions.

Everything spec text becomes in exported code goes through here, so a spec without code cannot
make its export run code: values are literals (`repr`, with NaN and infinities spelled out),
free text is escaped, and an expression is rebuilt node by node from the sandbox's whitelist
with the sandbox's name rules (`graphspec.expressions`): a free name is a state read, comprehension
variables are local to their comprehension and renamed when they would hide a name the
translation uses, and only whitelisted builtins and methods can be called. This does not rely
on the sandbox's own checks: anything outside the whitelist is refused here too.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import math
import re
from typing import Any

from graphspec import expressions as sandbox
from graphspec.errors import SpecError

BUILTIN_NAMES = frozenset(dir(builtins))


def literal(value: Any) -> str:
    """Python source for a JSON-like value (None, bool, int, float, str, list, tuple, dict)."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "-float('inf')"
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(f"{literal(v)}, " for v in value).rstrip(" ") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise SpecError(f"cannot export a value of type {type(value).__name__}")


def is_plain_name(name: str) -> bool:
    """A name usable as a keyword argument or field: an identifier, not a keyword."""
    return name.isidentifier() and not keyword.iskeyword(name) and name.isascii()


def keyword_args(items: dict[str, Any]) -> list[str]:
    """`k=v` for plain keys; any other key goes in one `**{...}` (never written bare)."""
    plain = [f"{k}={literal(v)}" for k, v in items.items() if is_plain_name(k)]
    other = {k: v for k, v in items.items() if not is_plain_name(k)}
    return plain + ([f"**{literal(other)}"] if other else [])


def docstring_body(text: str) -> str:
    """Text for inside a triple-quoted docstring: same value, cannot close it early."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch in "\n\t" or ch.isprintable():
            out.append(ch)
        else:  # NUL, CR, line separators, ...: escaped, so the source stays one logical line
            out.append(ascii(ch)[1:-1])
    return re.sub(r'"(?="|\Z)', r'\\"', "".join(out))


def comment(text: str) -> str:
    """A one-line `# ...` comment: anything that could end the line is escaped."""
    return "# " + "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


# ------------------------------------------------------------------ expressions


_BOOL = (ast.And, ast.Or)
_PLAIN = (
    ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Slice,
    ast.List, ast.Tuple, ast.Set, ast.JoinedStr, ast.FormattedValue,
)  # fmt: skip
"""Nodes rebuilt as they are (children translated): Python means what the sandbox means."""
_OPERATORS = (*sandbox.BINARY, *sandbox.UNARY, *sandbox.COMPARE, *_BOOL, ast.Load)


def expression(text: str, state_var: str = "state", item: bool = False,
               defaults: dict[str, Any] | None = None) -> str:  # fmt: skip
    """Python over the dict `state_var` that computes what `sandbox.evaluate` computes.

    `item` says whether a Send packet's element is in scope as `item`; a key read by name that
    has an entry in `defaults` reads as `state.get(key, default)`. Only `state_var`,
    `item`, END, START and whitelisted builtins are written as bare names; comprehension
    variables are renamed away from those (and from every builtin).
    """
    tree = sandbox.parse(text)  # the sandbox's whitelist first, then ours below
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    translate = _Translate(state_var, item, names, defaults or {})
    out = ast.fix_missing_locations(translate.visit(tree.body))
    source = ast.unparse(out)
    if ast.dump(ast.parse(source, mode="eval").body) != ast.dump(out):  # unparse lost something
        raise SpecError(f"expression {text!r} cannot be written as Python")
    return source


class _Translate:
    def __init__(self, state_var: str, item: bool, taken: set[str],
                 defaults: dict[str, Any]) -> None:  # fmt: skip
        self.state_var = state_var
        self.defaults = defaults
        self.item = item
        self.avoid = {state_var, "item", "END", "START", *sandbox.FUNCTIONS, *BUILTIN_NAMES}
        self.taken = taken | self.avoid
        self.scopes: list[dict[str, str]] = []  # comprehension name -> its name in the export

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.Constant):
            if not isinstance(
                node.value, (str, int, float, complex, bool, bytes, type(None), type(...))
            ):
                raise _refused(node)
            return ast.Constant(node.value)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            if node.attr not in sandbox.MESSAGE_ATTRIBUTES or not isinstance(node.ctx, ast.Load):
                raise _refused(node)
            return ast.Attribute(self.visit(node.value), node.attr, ast.Load())
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise _refused(node)
            return ast.Dict(
                [self.visit(k) for k in node.keys], [self.visit(v) for v in node.values]
            )
        if isinstance(node, ast.ListComp):
            return self.list_comp(node)
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            raise _refused(node)
        if isinstance(node, _PLAIN):
            return self.rebuild(node)
        raise _refused(node)

    def rebuild(self, node: ast.AST) -> ast.AST:
        fields = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                fields[field] = [self.child(v) for v in value]
            else:
                fields[field] = self.child(value)
        return type(node)(**fields)

    def child(self, value: Any) -> Any:
        if value is None or isinstance(value, (int, str)):  # conversion, missing slice parts
            return value
        if isinstance(value, _OPERATORS):
            return type(value)()
        return self.visit(value)

    def name(self, node: ast.Name) -> ast.AST:
        if not isinstance(node.ctx, ast.Load) or node.id.startswith("__"):
            raise _refused(node)
        for scope in reversed(self.scopes):
            if node.id in scope:
                return ast.Name(scope[node.id], ast.Load())
        if node.id == "state":
            return ast.Name(self.state_var, ast.Load())
        if node.id in ("END", "START") or (node.id == "item" and self.item):
            return ast.Name(node.id, ast.Load())
        if node.id in sandbox.FUNCTIONS:
            return ast.Name(node.id, ast.Load())
        get = ast.Attribute(ast.Name(self.state_var, ast.Load()), "get", ast.Load())
        args: list[ast.expr] = [ast.Constant(node.id)]
        if self.defaults.get(node.id) is not None:
            args.append(ast.parse(literal(self.defaults[node.id]), mode="eval").body)
        return ast.Call(get, args, [])

    def call(self, node: ast.Call) -> ast.AST:
        func = node.func
        if isinstance(func, ast.Name) and func.id in sandbox.FUNCTIONS:
            target: ast.expr = ast.Name(func.id, ast.Load())  # the builtin, even if a name hides it
        elif isinstance(func, ast.Attribute) and func.attr in sandbox.ALL_METHODS:
            target = ast.Attribute(self.visit(func.value), func.attr, ast.Load())
        else:
            raise _refused(node)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None or not is_plain_name(k.arg) for k in node.keywords
        ):
            raise _refused(node)
        args = [self.visit(a) for a in node.args]
        keywords = [ast.keyword(k.arg, self.visit(k.value)) for k in node.keywords]
        return ast.Call(target, args, keywords)

    def list_comp(self, node: ast.ListComp) -> ast.AST:
        generators = []
        self.scopes.append({})
        try:
            for i, gen in enumerate(node.generators):
                if gen.is_async:
                    raise _refused(node)
                # the first iterable is evaluated outside the comprehension, as in Python
                if i == 0:
                    outer, self.scopes = self.scopes, self.scopes[:-1]
                    iterable = self.visit(gen.iter)
                    self.scopes = outer
                else:
                    iterable = self.visit(gen.iter)
                target = self.target(gen.target)
                ifs = [self.visit(c) for c in gen.ifs]
                generators.append(ast.comprehension(target, iterable, ifs, 0))
            return ast.ListComp(self.visit(node.elt), generators)
        finally:
            self.scopes.pop()

    def target(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.Tuple):
            return ast.Tuple([self.target(e) for e in node.elts], ast.Store())
        if not isinstance(node, ast.Name) or node.id.startswith("__"):
            raise _refused(node)
        name = node.id
        while name in self.avoid or (name != node.id and name in self.taken):
            name += "_"
        self.taken.add(name)
        self.scopes[-1][node.id] = name
        return ast.Name(name, ast.Store())


def _refused(node: ast.AST) -> SpecError:
    return SpecError(f"{type(node).__name__} cannot be exported from an expression")


__all__ = ["literal", "keyword_args", "docstring_body", "comment", "expression", "is_plain_name"]
