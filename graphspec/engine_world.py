"""Third-party packages built on langgraph (deepagents, langchain's agents) loaded as a program
sees them on the engine: `langgraph[.X]` resolves to `engine[.X]` and `langchain.agents[.X]` to
`engine.agents[.X]`.

The engine's promise is that replacing the import prefix is the only change code needs; a
package we cannot edit gets the same through a meta-path finder. Inside `on_engine()` the
packages that import langgraph are their engine-world copies (loaded on first use, kept between
uses); outside, sys.modules is as it was, so real langgraph and its users are untouched. Nothing
is imported that the code run inside does not import itself.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_ALIASES = (("langgraph", "engine"), ("langchain.agents", "engine.agents"))
WORLD_PACKAGES = frozenset(
    {"langgraph", "langchain", "deepagents", "langchain_anthropic", "langgraph_supervisor",
     "langgraph_swarm", "langchain_mcp_adapters", "langgraph_bigtool", "trustcall", "langmem"}
)  # fmt: skip
"""Top-level packages whose modules import langgraph or langchain.agents: each world has its
own copy of them."""


def _target(fullname: str) -> str | None:
    for alias, target in _ALIASES:
        if fullname == alias or fullname.startswith(alias + "."):
            return target + fullname[len(alias) :]
    return None


class _SameModule(importlib.abc.Loader):
    """Binds the alias to the engine module object itself (no copy: one module, one state)."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def create_module(self, spec: Any) -> Any:
        return self.module

    def exec_module(self, module: Any) -> None:
        pass


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        name = _target(fullname)
        if name is None:
            return None
        module = importlib.import_module(name)  # a missing engine module fails as it would
        return importlib.machinery.ModuleSpec(
            fullname, _SameModule(module), is_package=hasattr(module, "__path__")
        )


def _in_world(name: str) -> bool:
    return name.partition(".")[0] in WORLD_PACKAGES


_engine_world: dict[str, Any] = {}
_lock = threading.RLock()  # imports are process-wide: one world at a time
_depth = 0  # nested uses share the outermost one's swap


@contextmanager
def on_engine() -> Iterator[None]:
    """Imports inside see langgraph as the engine; everything is put back on leaving."""
    global _depth
    with _lock:
        if _depth:
            _depth += 1
            try:
                yield
            finally:
                _depth -= 1
            return
        saved = {k: v for k, v in sys.modules.items() if _in_world(k)}
        for name in saved:
            del sys.modules[name]
        sys.modules.update(_engine_world)
        finder = _AliasFinder()
        sys.meta_path.insert(0, finder)
        _depth = 1
        try:
            yield
        finally:
            _depth = 0
            sys.meta_path.remove(finder)
            _engine_world.clear()
            _engine_world.update({k: v for k, v in sys.modules.items() if _in_world(k)})
            for name in _engine_world:
                del sys.modules[name]
            sys.modules.update(saved)


def engine_module(name: str) -> Any:
    """The engine world's copy of the module `name` (a package built on langgraph a program
    loaded on the engine imported), or None when that world holds none."""
    with _lock:
        return (sys.modules if _depth else _engine_world).get(name) if _in_world(name) else None


__all__ = ["WORLD_PACKAGES", "engine_module", "on_engine"]
