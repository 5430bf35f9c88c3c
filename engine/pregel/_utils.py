"""langgraph.pregel._utils: what a node's function can reach from outside its own scope, read
from its bytecode (no source needed), so a graph invoked inside a node is found as the node's
subgraph (get_state(subgraphs=True), checkpoints and streams of the subgraph)."""

from __future__ import annotations

import dis
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any

# values that cannot lead to a graph by attribute: when every captured value and named global
# is one (by exact type: a subclass may carry attributes), the bytecode need not be read
_DEAD_ENDS = frozenset(
    {int, float, complex, bool, str, bytes, bytearray, list, tuple, dict, set, frozenset,
     type(None)}
)  # fmt: skip
_LOADS_ATTRIBUTE = ("LOAD_ATTR", "LOAD_METHOD")


def get_function_nonlocals(func: Callable) -> list[Any]:
    """The values `func` reaches from outside: every captured (non-empty) closure cell, and
    each global it names and each value along an attribute path it loads from one
    (`holder.graph.invoke` gives holder, holder.graph and the bound invoke). A bound method or
    a wrapper (`__wrapped__`) is looked through; anything without code (a builtin, a partial)
    reaches nothing. More may come back than the function uses at run time, never less."""
    func = getattr(func, "__func__", func)
    wrapped = getattr(func, "__wrapped__", None)
    if callable(wrapped):
        func = getattr(wrapped, "__func__", wrapped)
    if not isinstance(func, FunctionType):
        return []
    code = func.__code__
    cells: dict[str, Any] = {}
    for name, cell in zip(code.co_freevars, func.__closure__ or (), strict=False):
        try:
            cells[name] = cell.cell_contents
        except ValueError:  # a cell never filled (its assignment has not run)
            continue
    found = list(cells.values())
    names = func.__globals__
    globals_ = {name: names[name] for name in code.co_names if name in names}
    if all(type(v) in _DEAD_ENDS for v in (*cells.values(), *globals_.values())):
        return found
    found.extend(_loaded(code, cells, globals_))
    return found


def _loaded(code: CodeType, cells: dict[str, Any], globals_: dict[str, Any]) -> list[Any]:
    """Values the instructions of `code` and its nested code (inner defs, lambdas,
    comprehensions) load: a global or a cell, then attribute after attribute of it."""
    found: list[Any] = []
    codes = [code]
    for current in codes:  # outer code first, then nested code in the order it appears
        codes.extend(c for c in current.co_consts if isinstance(c, CodeType))
        value: Any = None
        for ins in dis.get_instructions(current):
            if ins.opname == "LOAD_GLOBAL":
                value = globals_.get(ins.argval)
            elif ins.opname == "LOAD_DEREF":
                value = cells.get(ins.argval)
            elif ins.opname in _LOADS_ATTRIBUTE:
                value = getattr(value, ins.argval, None)
            else:  # any other instruction ends the path: `a, b.c` is not `a.c`
                value = None
                continue
            if value is not None:
                found.append(value)
    return found
