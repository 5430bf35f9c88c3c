"""Run a function when a module is first imported, or at once when it already is.

The engine's bottom layer uses it to join a langchain-core class it does not import itself (a
Command is a ToolOutputMixin for langchain's tools): loading langchain-core's messages for that
would be most of what `import engine.graph` costs, and only code that already imported them
ever asks.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

_waiting: dict[str, list[Callable[[ModuleType], None]]] = {}


def after_import(name: str, then: Callable[[ModuleType], None]) -> None:
    """Call `then(module)` once module `name` has run (its own imports included)."""
    if (module := sys.modules.get(name)) is not None:
        then(module)
        return
    _waiting.setdefault(name, []).append(then)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


class _Finder:
    """A meta path finder (importlib.abc's, not subclassed: that module costs more than this
    one). It finds nothing itself: for a watched name it asks the finders after it, and wraps the
    loader of the spec they give so the waiting functions run after the module's body."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name not in _waiting:
            return None
        for finder in sys.meta_path[sys.meta_path.index(self) + 1 :]:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader, _waiting.pop(name))
                    if not _waiting:
                        sys.meta_path.remove(self)
                return spec
        return None


class _Loader:
    """The module's own loader (its other methods, such as get_source, pass through), with the
    waiting functions called after exec_module. The module keeps its own loader as __loader__;
    when its body fails, the functions wait for the next attempt."""

    def __init__(self, loader: Any, then: list[Callable[[ModuleType], None]]) -> None:
        self._loader, self._then = loader, then

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._loader, attr)

    def create_module(self, spec: Any) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = module.__spec__.loader = self._loader
        try:
            self._loader.exec_module(module)
        except BaseException:
            for then in self._then:
                after_import(module.__name__, then)
            raise
        for then in self._then:
            then(module)


_FINDER = _Finder()
