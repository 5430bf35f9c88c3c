"""A spec's deep agent as the engine runs it: deepagents' create_deep_agent, loaded on the engine
(graphspec.engine_world), given the agent's model, tools and middleware, its backend and its
subagents. The compiler builds the parts that every agent has; this builds what a deep one adds.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from graphspec.deep_agent_spec import DeepAgent
from graphspec.errors import SpecError
from graphspec.model import AgentSpec
from graphspec.trust import load_ref

INSTALL_HINT = "pip install 'superstep-studio[deepagents]'"


def folder_root(deep: DeepAgent, base_dir: str | os.PathLike[str] | None) -> str:
    """The folder backend's root, absolute (a relative root is the spec's folder's)."""
    root = deep.root or ""
    if base_dir is not None and not os.path.isabs(root):
        root = os.path.join(base_dir, root)
    return os.path.abspath(root)


def _backend(deep: DeepAgent, agent_id: str, base_dir: Any) -> Any:
    if deep.backend == "state":
        return None  # deepagents' default: the files live in the graph state
    if deep.backend == "store":
        from deepagents.backends import StoreBackend

        return StoreBackend(namespace=lambda runtime: (agent_id, "files"))
    from deepagents.backends import FilesystemBackend

    # virtual mode: every path is under root, and `..` or `~` cannot leave it
    return FilesystemBackend(root_dir=folder_root(deep, base_dir), virtual_mode=True)


def build_deep_agent(
    agent: AgentSpec,
    name: str | None,
    parts: dict[str, Any],
    subagent_parts: Callable[[int], tuple[Any, list[Any]]],
    *,
    element_id: str,
    path: str,
    base_dir: Any = None,
) -> Any:
    """The compiled deep agent. `parts` are the agent's model, tools and middleware, and its
    state and context schemas when it has them;
    `subagent_parts(k)` gives subagent k's model (None: the agent's) and tools."""
    from graphspec.engine_world import on_engine

    deep = agent.deep
    assert deep is not None
    with on_engine():
        try:
            from deepagents import create_deep_agent
        except ImportError as exc:
            raise SpecError(
                f"agent {agent.id!r} is a deep agent, but deepagents cannot be imported ({exc}): "
                f"{INSTALL_HINT}",
                element_id=element_id,
                path=f"{path}.deep",
            ) from exc
        subagents = []
        for k, sub in enumerate(deep.subagents):
            if sub.runnable is not None:  # deepagents' CompiledSubAgent: a graph of its own
                where = f"{path}.deep.subagents[{k}].runnable"
                runnable = load_ref(sub.runnable, element_id=element_id, path=where)
                subagents.append({"name": sub.name, "description": sub.description,
                                  "runnable": runnable})  # fmt: skip
                continue
            model, tools = subagent_parts(k)
            entry: dict[str, Any] = {"name": sub.name, "description": sub.description}
            entry["system_prompt"] = sub.system_prompt
            if tools:  # none: the agent's own, as deepagents gives a subagent without any
                entry["tools"] = tools
            if model is not None:
                entry["model"] = model
            subagents.append(entry)
        try:
            return create_deep_agent(
                model=parts["model"],
                tools=parts["tools"],
                system_prompt=agent.system_prompt or None,
                middleware=parts["middleware"],
                subagents=subagents or None,
                backend=_backend(deep, agent.id, base_dir),
                interrupt_on=dict(deep.interrupt_on) or None,
                state_schema=parts.get("state_schema"),
                context_schema=parts.get("context_schema"),
                name=name,
            )
        except Exception as exc:  # deepagents refuses the combination
            raise SpecError(
                f"create_deep_agent: {type(exc).__name__}: {exc}", element_id=element_id, path=path
            ) from exc


__all__ = ["INSTALL_HINT", "build_deep_agent", "folder_root"]
