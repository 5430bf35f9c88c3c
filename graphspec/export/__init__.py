"""Spec -> elsewhere: a standalone langgraph module, Mermaid, and the JSON Schema of the state.

    export(spec, "langgraph" | "mermaid" | "json-schema", base_dir=None) -> str

    formats.py         export(): the writer a format name picks
    langgraph_code.py  to_langgraph(): the builder, its nodes, routers and state classes
    python_module.py   the exported module's imports and blocks, and which names it may take
    scripted_model.py  the offline chat model written into the module for `scripted` settings
    mermaid.py         to_mermaid()
    json_schema.py     state_json_schema()

Exporting runs no code from the spec, so an untrusted spec exports too; and a spec without code
exports a module that runs none: names the export makes from ids never hide a builtin or one of
the module's own names (they get a trailing `_`), and spec text is written as literals.
"""

from importlib import import_module
from typing import Any

_HOMES = {
    "export": "formats",
    "state_json_schema": "json_schema",
    "to_langgraph": "langgraph_code",
    "to_mermaid": "mermaid",
    "IMPORTED": "python_module",
}
"""Each name and the module holding it, loaded on first use: the validator reads one rule of
python_module.py, and drawing the studio's first window must not load every writer."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = ["export", "to_langgraph", "to_mermaid", "state_json_schema", "IMPORTED"]
