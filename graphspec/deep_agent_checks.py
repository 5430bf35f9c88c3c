"""The validator's rules for deep agents (AgentSpec.deep): what create_deep_agent would refuse
or silently ignore, said before a run, with the path of the field at fault."""

from __future__ import annotations

import importlib.util
import os
from typing import Any

from graphspec.agent_checks import MIDDLEWARE_TOOLS, Add, model_problem
from graphspec.deep_agent_build import INSTALL_HINT, folder_root
from graphspec.deep_agent_spec import FILE_TOOLS, TASK_TOOL
from graphspec.model import AgentNode, AgentSpec, GraphSpec, PrebuiltMiddleware


def _element(spec: GraphSpec, agent: AgentSpec) -> str:
    users = [n.id for n in spec.nodes if isinstance(n, AgentNode) and n.agent == agent.id]
    return users[0] if users else agent.id


def _known_tools(agent: AgentSpec) -> set[str]:
    """The tools the deep agent's model sees: deepagents' file tools and task, its own, and
    the ones its prebuilt middleware add."""
    tools = {*FILE_TOOLS, TASK_TOOL, *(t.name for t in agent.tools)}
    tools |= {
        MIDDLEWARE_TOOLS[mw.name]
        for mw in agent.middleware
        if isinstance(mw, PrebuiltMiddleware) and mw.name in MIDDLEWARE_TOOLS
    }
    return tools


def _check_one(spec: GraphSpec, i: int, agent: AgentSpec, add: Add, base_dir: Any) -> None:
    deep = agent.deep
    assert deep is not None
    element, path = _element(spec, agent), f"$.agents[{i}].deep"
    if importlib.util.find_spec("deepagents") is None:
        add("error", "deepagents-missing", f"agent {agent.id!r} is a deep agent, but the "
            "deepagents package is not installed", element, path, INSTALL_HINT)  # fmt: skip
    if deep.backend == "folder":
        if deep.root is None:
            add("error", "folder-without-root", "the folder backend needs the folder the "
                "agent's files live in", element, f"{path}.root", "set root")  # fmt: skip
        elif base_dir is not None and not os.path.isdir(folder_root(deep, base_dir)):
            add("warning", "folder-missing", f"folder {deep.root!r} does not exist: the agent "
                "starts with no files and its writes create it", element, f"{path}.root",
                "create the folder or fix root")  # fmt: skip
    elif deep.root is not None:
        add("warning", "root-unused", f"root is only read by the folder backend, not the "
            f"{deep.backend} backend", element, f"{path}.root", "remove root")  # fmt: skip
    if deep.backend == "store" and spec.store is None:
        add("error", "store-backend-without-store", "the store backend keeps files in the "
            "graph's store, and the graph has none", element, f"{path}.backend",
            'set the graph\'s store to "memory"')  # fmt: skip
    seen: set[str] = set()
    for k, sub in enumerate(deep.subagents):
        where = f"{path}.subagents[{k}]"
        if sub.name in seen:
            add("error", "duplicate-subagent", f"two subagents are named {sub.name!r}: the task "
                "tool could reach only one", element, f"{where}.name", "rename one")  # fmt: skip
        seen.add(sub.name)
        if sub.model is not None and (problem := model_problem(sub.model.provider)):
            add("error", "bad-provider", problem, element, f"{where}.model.provider",
                "pick an installed provider, or scripted to run offline")  # fmt: skip
    known = _known_tools(agent)
    for name in deep.interrupt_on:
        if name not in known:
            add("warning", "unknown-tool", f"interrupt_on names {name!r}, which is not one of "
                f"the deep agent's tools ({', '.join(sorted(known))}): it never applies",
                element, f"{path}.interrupt_on.{name}", "fix the tool name")  # fmt: skip


def check_deep_agents(spec: GraphSpec, add: Add, base_dir: Any = None) -> None:
    """A finding for each deep agent setting create_deep_agent would refuse or ignore."""
    for i, agent in enumerate(spec.agents):
        if agent.deep is not None:
            _check_one(spec, i, agent, add, base_dir)


__all__ = ["check_deep_agents"]
