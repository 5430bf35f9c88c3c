"""Deep agents in an imported graph: a module-level `name = create_deep_agent(...)` call becomes
an agent spec with `deep` settings, read from the call as the exporter writes it (literal
settings; the model a module-level variable; tools as `tool(name, description=...)(fn)` on
module-level functions; the backend a StoreBackend or a FilesystemBackend with a literal root)
and from the compiled agent (the model, the name). deepagents' own tools and prompt are left out:
the spec's agent gets them back when it is built again.
"""

from __future__ import annotations

import ast
from typing import Any

from graphspec.call_refs import written_ref
from graphspec.errors import SpecError
from graphspec.import_refs import called_name as _called
from graphspec.import_refs import literal_setting, module_assignments, ref


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _named(node: ast.expr | None, module: Any) -> ast.expr | None:
    """What a module-level variable was assigned (`subagents=[researcher]`,
    `researcher = {...}`); any other expression as it is."""
    if isinstance(node, ast.Name):
        return module_assignments(module).get(node.id, node)
    return node


def _tools(node: ast.expr | None, module: Any, owner: str) -> list[dict[str, Any]]:
    """`[tool("name", description="...")(fn), ...]` as spec tools (fn by import path)."""
    node = _named(node, module)
    if node is None:
        return []
    if not isinstance(node, ast.List):
        raise SpecError(f"{owner}: the tools are not a list written out", element_id=owner)
    out = []
    for item in node.elts:
        made = item.func if isinstance(item, ast.Call) else None
        if not (isinstance(made, ast.Call) and _called(made) == "tool" and made.args
                and len(item.args) == 1 and isinstance(item.args[0], ast.Name)):  # fmt: skip
            raise SpecError(f"{owner}: tool {ast.unparse(item)} is not tool(name, ...)(function)",
                            element_id=owner)  # fmt: skip
        fn = vars(module).get(item.args[0].id)
        entry = {"name": literal_setting(made.args[0], owner),
                 "import_path": ref(fn, owner, [module])}  # fmt: skip
        for key in ("description", "return_direct"):
            if (value := _keyword(made, key)) is not None:
                entry[key] = literal_setting(value, owner)
        out.append(entry)
    return out


def _backend(call: ast.Call, owner: str) -> dict[str, Any]:
    node = _keyword(call, "backend")
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return {}
    if _called(node) == "StoreBackend":
        return {"backend": "store"}
    if _called(node) == "FilesystemBackend":
        root = _keyword(node, "root_dir") or (node.args[0] if node.args else None)
        if root is None:
            raise SpecError(f"{owner}: the FilesystemBackend names no root_dir", element_id=owner)
        return {"backend": "folder", "root": str(literal_setting(root, owner))}
    raise SpecError(f"{owner}: backend {ast.unparse(node)} has no place in the spec (state, "
                    "StoreBackend or FilesystemBackend)", element_id=owner)  # fmt: skip


def deep_agent_spec(call: ast.Call, module: Any, owner: str,
                    model_settings: Any) -> dict[str, Any]:  # fmt: skip
    """The agent spec fields a create_deep_agent call gives (besides model, tools, middleware and
    name, which the caller reads as for create_agent). `model_settings(obj, expr)` turns a model
    (the object, when a module-level name holds it, and the expression written for it) into the
    spec's model settings."""
    prompt = _keyword(call, "system_prompt")
    deep: dict[str, Any] = _backend(call, owner)
    if (review := _keyword(call, "interrupt_on")) is not None:
        deep["interrupt_on"] = literal_setting(review, owner)
    subagents = _named(_keyword(call, "subagents"), module)
    if subagents is not None:
        if isinstance(subagents, ast.List):
            subagents.elts = [_named(s, module) for s in subagents.elts]
        if not isinstance(subagents, ast.List) or not all(
            isinstance(s, ast.Dict) for s in subagents.elts
        ):
            raise SpecError(f"{owner}: the subagents are not a list of dicts written out",
                            element_id=owner)  # fmt: skip
        deep["subagents"] = [_subagent(s, module, owner, model_settings) for s in subagents.elts]
    out: dict[str, Any] = {"deep": deep, "tools": _tools(_keyword(call, "tools"), module, owner)}
    if prompt is not None:
        out["system_prompt"] = literal_setting(prompt, owner) or ""
    return out


def _subagent(node: ast.Dict, module: Any, owner: str, model_settings: Any) -> dict[str, Any]:
    sub: dict[str, Any] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        name = literal_setting(key, owner) if key is not None else None
        if name in ("name", "description", "system_prompt"):
            sub[name] = literal_setting(value, owner)
        elif name == "tools":
            sub["tools"] = _tools(value, module, owner)
        elif name == "model" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            provider, _, model = value.value.partition(":")  # "provider:model", as deepagents takes
            sub["model"] = {"provider": provider, "model": model}
        elif name == "model":
            held = vars(module).get(value.id) if isinstance(value, ast.Name) else None
            sub["model"] = model_settings(held, value)
        elif name == "runnable":  # a CompiledSubAgent: the graph as the program made it
            sub["runnable"] = written_ref(value, module, owner, f"{owner[:20]}_subagent")
        else:
            raise SpecError(f"{owner}: subagent setting {ast.unparse(key or value)} has no place "
                            "in the spec", element_id=owner)  # fmt: skip
    return sub


__all__ = ["deep_agent_spec"]
