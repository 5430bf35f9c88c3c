"""Safe expressions for routers, set-state nodes and Send packets, evaluated without `eval`.

An expression is Python expression syntax restricted by an AST whitelist: literals (numbers,
strings, lists, tuples, dicts, sets, f-strings without format specs), state keys by bare name
(`total`, missing keys read as None) or `state["key"]` (needed for a key named like one of the
builtins below), comparisons, `and`/`or`/`not`,
arithmetic, `x if c else y`, indexing and slicing, list comprehensions, a few builtins (`len`,
`str`, `min`, ...), a few string, list and dict methods (`upper`, `split`, `get`, ...) and a
few attributes of chat messages (`messages[-1].tool_calls`).
`END` and `START` are the engine's node names; `item` is the element in a Send router.

Nothing else parses: no attribute access except whitelisted method calls, no dunder names,
no lambdas, no imports. Results are bounded (sequence length, integer size) so an expression
cannot exhaust memory.

`to_python` translates an expression into plain Python over a `state` dict, for exported code.
"""

from __future__ import annotations

import ast
import copy
import itertools
import operator
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from engine.constants import END, START
from graphspec import expression_limits as limits
from graphspec.errors import ExpressionError, LimitError, StoppedError
from graphspec.expression_calls import BOUNDED_FUNCTIONS, bound_function, call_method
from graphspec.expression_limits import (
    MAX_INT_BITS,
    MAX_ITEMS,
    MAX_SIZE,
    Budget,
    cancel_with,
)

MAX_LENGTH = 2000
MAX_DEPTH = 60

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "len": len,
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": sum,
    "round": round,
    "sorted": sorted,
    "list": list,
    "any": any,
    "all": all,
}

METHODS: dict[type, frozenset[str]] = {
    str: frozenset(
        {
            "upper",
            "lower",
            "strip",
            "lstrip",
            "rstrip",
            "title",
            "capitalize",
            "startswith",
            "endswith",
            "replace",
            "split",
            "join",
            "count",
            "find",
            "isdigit",
            "isalpha",
        }
    ),
    dict: frozenset({"get", "keys", "values", "items"}),
    list: frozenset({"index", "count"}),
}
ALL_METHODS = frozenset().union(*METHODS.values())
MESSAGE_ATTRIBUTES = frozenset({"content", "tool_calls", "type", "name", "id"})
"""Attributes readable on chat messages (`messages[-1].tool_calls`), and on nothing else."""
CONSTANT_NAMES = {"END": END, "START": START}
SPECIAL_NAMES = frozenset({"state", "item", *CONSTANT_NAMES})

BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
UNARY: dict[type, Callable[[Any], Any]] = {
    ast.Not: operator.not_,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}
COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp,
    ast.Constant, ast.Name, ast.Load, ast.Store, ast.Subscript, ast.Slice, ast.Call, ast.Attribute,
    ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.comprehension, ast.JoinedStr,
    ast.FormattedValue, *BINARY, *UNARY, *COMPARE,
)  # fmt: skip


# ------------------------------------------------------------------ parsing and checks


@lru_cache(maxsize=4096)
def parse(expression: str) -> ast.Expression:
    """Parse and check an expression against the whitelist; raises ExpressionError."""
    if not isinstance(expression, str) or not expression.strip():
        raise ExpressionError("empty expression")
    if len(expression) > MAX_LENGTH:
        raise ExpressionError(f"expression longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        msg = getattr(exc, "msg", None) or str(exc) or type(exc).__name__
        raise ExpressionError(f"invalid expression: {msg}") from None
    _check(tree, 0)
    return tree


def _check(node: ast.AST, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ExpressionError("expression nested too deeply")
    if not isinstance(node, _ALLOWED):
        raise ExpressionError(f"{type(node).__name__} is not allowed in expressions")
    if isinstance(node, ast.Name) and node.id.startswith("__"):
        raise ExpressionError(f"name {node.id!r} is not allowed")
    if isinstance(node, ast.Attribute) and node.attr not in MESSAGE_ATTRIBUTES:
        raise ExpressionError(f"attribute .{node.attr} is not allowed (only method calls)")
    if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
        raise ExpressionError("format specs in f-strings are not allowed")
    if isinstance(node, ast.comprehension) and (
        node.is_async or not isinstance(node.target, (ast.Name, ast.Tuple))
    ):
        raise ExpressionError("comprehension targets must be names")
    if isinstance(node, ast.comprehension):
        hidden = [
            n.id for n in ast.walk(node.target) if isinstance(n, ast.Name) and n.id in FUNCTIONS
        ]
        if hidden:  # calls ignore such a variable here but not in exported Python: refuse both
            raise ExpressionError(f"comprehension variable {hidden[0]!r} would hide {hidden[0]}()")
    if isinstance(node, ast.Call):
        if node.keywords and any(k.arg is None for k in node.keywords):
            raise ExpressionError("**kwargs is not allowed")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise ExpressionError("*args is not allowed")
        func = node.func
        if isinstance(func, ast.Name):
            if func.id not in FUNCTIONS:
                raise ExpressionError(f"function {func.id!r} is not allowed")
        elif isinstance(func, ast.Attribute):
            if func.attr not in ALL_METHODS:
                raise ExpressionError(f"method .{func.attr}() is not allowed")
            _check(func.value, depth + 1)
        else:
            raise ExpressionError("only named functions and methods can be called")
        for child in [*node.args, *(k.value for k in node.keywords)]:
            _check(child, depth + 1)
        return
    for child in ast.iter_child_nodes(node):
        _check(child, depth + 1)


def _targets(node: ast.ListComp) -> list[str]:
    return [n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)]


def _name_uses(node: ast.AST, bound: frozenset[str], local: frozenset[str],
               out: list[tuple[ast.Name, str]]) -> None:  # fmt: skip
    """Each name read with what it refers to, scoped as in Python 3: a comprehension's names
    exist inside it only ("bound"; "early" when read before its `for` binds it), every other
    name is "free". The first iterable is read outside the comprehension, as in Python."""
    if isinstance(node, ast.ListComp):
        gens = node.generators
        _name_uses(gens[0].iter, bound, local, out)
        inner = local | set(_targets(node))
        seen = set(bound)
        for i, gen in enumerate(gens):
            if i:
                _name_uses(gen.iter, frozenset(seen), inner, out)
            seen |= {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
            for cond in gen.ifs:
                _name_uses(cond, frozenset(seen), inner, out)
        _name_uses(node.elt, frozenset(seen), inner, out)
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        kind = "bound" if node.id in bound else "early" if node.id in local else "free"
        out.append((node, kind))
        return
    for child in ast.iter_child_nodes(node):
        _name_uses(child, bound, local, out)


def name_uses(tree: ast.AST) -> list[tuple[ast.Name, str]]:
    """(name node, "free" | "bound" | "early") for each name an expression reads."""
    out: list[tuple[ast.Name, str]] = []
    _name_uses(tree, frozenset(), frozenset(), out)
    return out


def free_names(expression: str) -> set[str]:
    """The state keys an expression reads by bare name (not builtins, `state`, `item`, END...);
    a comprehension's variable counts only where the comprehension binds it."""
    names = {n.id for n, kind in name_uses(parse(expression)) if kind == "free"}
    return names - SPECIAL_NAMES - set(FUNCTIONS)


def early_names(expression: str) -> set[str]:
    """Comprehension variables read before their `for` binds them (a NameError in Python)."""
    return {n.id for n, kind in name_uses(parse(expression)) if kind == "early"}


def returns_many(expression: str) -> bool:
    """Whether a router expression can return several targets (a list, tuple or comprehension).
    One that does not parse is taken to return one: the validator reports it where it is."""
    try:
        tree = parse(expression).body
    except ExpressionError:
        return False
    if isinstance(tree, ast.IfExp):
        return any(
            isinstance(b, (ast.List, ast.Tuple, ast.ListComp)) for b in (tree.body, tree.orelse)
        )
    return isinstance(tree, (ast.List, ast.Tuple, ast.ListComp))


# ------------------------------------------------------------------ evaluation


def evaluate(expression: str, state: Mapping[str, Any], *, budget: Budget | None = None,
             defaults: Mapping[str, Any] | None = None, **extra: Any) -> Any:  # fmt: skip
    """Evaluate against `state` (and names in `extra`, such as `item`), within `budget` (a fresh
    one unless given): a limit passed raises LimitError, a cancelled run StoppedError. A key read
    by name that `state` lacks reads as its entry in `defaults` (a copy), else None."""
    tree = parse(expression)
    scope = {"state": state, **CONSTANT_NAMES, **extra}
    try:
        return _Evaluator(state, scope, budget or Budget(), defaults or {}).eval(tree.body)
    except ExpressionError:
        raise
    except RecursionError:
        raise ExpressionError(f"{expression!r}: nested too deeply") from None
    except MemoryError:
        raise LimitError(f"{expression!r}: out of memory") from None
    except Exception as exc:  # a TypeError, ZeroDivisionError, ... from the operation itself
        raise ExpressionError(f"{expression!r} failed: {type(exc).__name__}: {exc}") from exc


_SEQUENCES = (str, list, tuple)
_SIZED = (str, list, tuple, dict, set, frozenset)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, _SIZED) else 0


def _repeat(seq: Any, count: int, budget: Budget) -> None:
    """Refuse `seq * count` before it is built."""
    if count <= 0:
        return
    if isinstance(seq, str):
        limits.string_limit(len(seq) * count)
        budget.build(len(seq) * count)
        return
    limits.items_limit(len(seq) * count, type(seq).__name__)
    limits.value_limit(limits.size(seq, budget, MAX_SIZE // count + 1) * count)
    budget.build(len(seq) * count)


def _check_binop(op: ast.operator, left: Any, right: Any, budget: Budget) -> None:
    """Refuse an operation whose result would pass a limit, before computing it."""
    ints = isinstance(left, int) and isinstance(right, int)
    if isinstance(op, ast.Pow) and isinstance(right, (int, float)):
        if abs(right) > 1000:
            raise LimitError("exponent too large (limit 1,000)")
        if ints and right > 0 and abs(left) > 1:
            limits.int_limit((abs(left).bit_length() - 1) * right)
    elif isinstance(op, ast.Mult):
        if ints:
            limits.int_limit(abs(left).bit_length() + abs(right).bit_length() - 1)
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, _SEQUENCES) and isinstance(count, int):
                _repeat(seq, count, budget)
    elif isinstance(op, ast.Add) and type(left) is type(right) and isinstance(left, _SEQUENCES):
        if isinstance(left, str):
            limits.string_limit(len(left) + len(right))
        else:
            limits.items_limit(len(left) + len(right), type(left).__name__)
            limits.value_limit(limits.size(left, budget) + limits.size(right, budget))
        budget.build(len(left) + len(right))
    elif isinstance(op, ast.Mod) and isinstance(left, str):
        raise ExpressionError("%-formatting is not allowed; use an f-string")


class _Sized:
    """The written-out size of a container being filled, checked as each element arrives."""

    __slots__ = ("budget", "total", "count", "kind")

    def __init__(self, budget: Budget, kind: str) -> None:
        self.budget, self.total, self.count, self.kind = budget, 2, 0, kind

    def add(self, *values: Any) -> None:
        self.count += 1
        limits.items_limit(self.count, self.kind)
        for value in values:
            self.total += 1 + limits.size(value, self.budget, MAX_SIZE - self.total)
        limits.value_limit(self.total)


_UNBOUND = object()
"""A comprehension variable whose `for` has not run yet."""


class _Evaluator:
    def __init__(self, state: Mapping[str, Any], scope: dict[str, Any], budget: Budget,
                 defaults: Mapping[str, Any]) -> None:  # fmt: skip
        self.state = state
        self.scope = scope
        self.budget = budget
        self.defaults = defaults

    def eval(self, node: ast.AST) -> Any:
        self.budget.step()
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:  # parse() already refused it; belt and braces
            raise ExpressionError(f"{type(node).__name__} is not allowed in expressions")
        return method(node)

    def _Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _Name(self, node: ast.Name) -> Any:
        if node.id in self.scope:
            value = self.scope[node.id]
            if value is _UNBOUND:
                raise ExpressionError(f"{node.id!r} is read before the comprehension binds it")
            return value
        if node.id in FUNCTIONS:  # passed as a value (key=len): bounded when Python calls it
            return bound_function(node.id, self.budget)
        default = self.defaults.get(node.id)
        if default is not None:
            default = copy.deepcopy(default)  # one read's value: never the spec's own object
        if isinstance(self.state, Mapping):
            return self.state.get(node.id, default)
        return getattr(self.state, node.id, default)

    def _BoolOp(self, node: ast.BoolOp) -> Any:
        result: Any = None
        for value in node.values:
            result = self.eval(value)
            if isinstance(node.op, ast.And) and not result:
                return result
            if isinstance(node.op, ast.Or) and result:
                return result
        return result

    def _BinOp(self, node: ast.BinOp) -> Any:
        left, right = self.eval(node.left), self.eval(node.right)
        _check_binop(node.op, left, right, self.budget)
        return limits.check_result(BINARY[type(node.op)](left, right))

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        return UNARY[type(node.op)](self.eval(node.operand))

    def _Compare(self, node: ast.Compare) -> bool:
        left = self.eval(node.left)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.eval(comparator)
            self.budget.walk(_length(right) + _length(left))  # `in` and == walk sequences
            if not COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, node: ast.IfExp) -> Any:
        return self.eval(node.body) if self.eval(node.test) else self.eval(node.orelse)

    def _Subscript(self, node: ast.Subscript) -> Any:
        result = self.eval(node.value)[self.eval(node.slice)]
        if isinstance(node.slice, ast.Slice):  # a copy
            self.budget.walk(_length(result))
            self.budget.build(_length(result))
        return result

    def _Slice(self, node: ast.Slice) -> slice:
        parts = (node.lower, node.upper, node.step)
        return slice(*(None if p is None else self.eval(p) for p in parts))

    def _elements(self, elts: list[ast.expr], kind: str) -> list:
        sized, out = _Sized(self.budget, kind), []
        for e in elts:
            out.append(self.eval(e))
            sized.add(out[-1])
        return out

    def _List(self, node: ast.List) -> list:
        return self._elements(node.elts, "list")

    def _Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self._elements(node.elts, "tuple"))

    def _Set(self, node: ast.Set) -> set:
        return set(self._elements(node.elts, "set"))

    def _Dict(self, node: ast.Dict) -> dict:
        if any(k is None for k in node.keys):
            raise ExpressionError("** in dict literals is not allowed")
        sized, out = _Sized(self.budget, "dict"), {}
        for k, v in zip(node.keys, node.values, strict=True):
            key, value = self.eval(k), self.eval(v)
            sized.add(key, value)
            out[key] = value
        return out

    def _JoinedStr(self, node: ast.JoinedStr) -> str:
        parts, length = [], 0
        for v in node.values:
            parts.append(self.eval(v) if isinstance(v, ast.FormattedValue) else str(v.value))
            length += len(parts[-1])
            limits.string_limit(length)
        self.budget.build(length)
        return "".join(parts)

    def _FormattedValue(self, node: ast.FormattedValue) -> str:
        value = self.eval(node.value)
        convert = {ord("r"): repr, ord("a"): ascii}.get(node.conversion, str)
        return limits.bounded_str(value, self.budget, convert)

    def _Attribute(self, node: ast.Attribute) -> Any:
        from langchain_core.messages import BaseMessage

        receiver = self.eval(node.value)
        if not isinstance(receiver, BaseMessage):
            raise ExpressionError(f".{node.attr} is readable on messages only")
        return getattr(receiver, node.attr)

    def _Call(self, node: ast.Call) -> Any:
        args = [self.eval(a) for a in node.args]
        kwargs = {k.arg: self.eval(k.value) for k in node.keywords}
        func = node.func
        if isinstance(func, ast.Name):
            return BOUNDED_FUNCTIONS[func.id](self.budget, *args, **kwargs)
        assert isinstance(func, ast.Attribute)
        receiver = self.eval(func.value)
        allowed = next((m for t, m in METHODS.items() if isinstance(receiver, t)), frozenset())
        if func.attr not in allowed:
            raise ExpressionError(f".{func.attr}() is not allowed on {type(receiver).__name__}")
        return call_method(self.budget, receiver, func.attr, args, kwargs)

    def _ListComp(self, node: ast.ListComp) -> list:
        out: list = []
        sized = _Sized(self.budget, "list")
        first = self.eval(node.generators[0].iter)  # read outside the comprehension, as in Python

        def emit() -> None:
            out.append(self.eval(node.elt))
            sized.add(out[-1])

        saved = self.scope
        # its variables exist inside it only, unbound until their `for` runs
        self.scope = {**saved, **dict.fromkeys(_targets(node), _UNBOUND)}
        try:
            self._comprehend(node.generators, 0, first, emit)
        finally:
            self.scope = saved
        return out

    def _comprehend(self, generators: list[ast.comprehension], i: int, iterable: Any,
                    emit: Callable) -> None:  # fmt: skip
        if i == len(generators):
            emit()
            return
        gen = generators[i]
        for value in iterable:
            self.budget.step()  # an iteration that ends in a false `if` costs too
            self._bind(gen.target, value)
            if all(self.eval(cond) for cond in gen.ifs):
                following = generators[i + 1].iter if i + 1 < len(generators) else None
                nested = None if following is None else self.eval(following)
                self._comprehend(generators, i + 1, nested, emit)

    def _bind(self, target: ast.AST, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scope[target.id] = value
            return
        assert isinstance(target, ast.Tuple)
        wanted = len(target.elts)
        if isinstance(value, _SIZED) and len(value) != wanted:  # before copying a huge value
            raise ExpressionError("cannot unpack: wrong number of values")
        values = list(itertools.islice(value, wanted + 1))
        if len(values) != wanted:
            raise ExpressionError("cannot unpack: wrong number of values")
        for elt, v in zip(target.elts, values, strict=True):
            self._bind(elt, v)


# ------------------------------------------------------------------ translation to Python


class _ToPython(ast.NodeTransformer):
    def __init__(self, state_var: str, free: set[int]) -> None:
        self.state_var = state_var
        self.free = free  # ids of the Name nodes that read state (not comprehension variables)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node.args = [self.visit(a) for a in node.args]
        node.keywords = [self.visit(k) for k in node.keywords]
        if isinstance(node.func, ast.Attribute):
            node.func.value = self.visit(node.func.value)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if id(node) not in self.free:
            return node
        if node.id == "state":
            return ast.Name(self.state_var, ast.Load())
        if node.id in SPECIAL_NAMES or node.id in FUNCTIONS:
            return node
        get = ast.Attribute(ast.Name(self.state_var, ast.Load()), "get", ast.Load())
        return ast.Call(get, [ast.Constant(node.id)], [])


def to_python(expression: str, state_var: str = "state") -> str:
    """Plain Python with the same meaning over a `state` dict (END/START/item stay names)."""
    tree = ast.parse(ast.unparse(parse(expression)), mode="eval")
    free = {id(n) for n, kind in name_uses(tree) if kind == "free"}
    tree = _ToPython(state_var, free).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


__all__ = [
    "Budget",
    "ExpressionError",
    "LimitError",
    "StoppedError",
    "cancel_with",
    "MAX_INT_BITS",
    "MAX_ITEMS",
    "FUNCTIONS",
    "METHODS",
    "parse",
    "free_names",
    "returns_many",
    "evaluate",
    "to_python",
]
