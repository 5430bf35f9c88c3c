"""A deep agent (AgentSpec.deep) in the exported module: a `create_deep_agent(...)` call that
runs on langgraph, with the backend, subagents and interrupt_on the spec gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graphspec.model import AgentSpec

# the writer's model and tools helpers: (settings, owner) -> name; (tool refs, owner) -> source
ModelOf = Callable[[Any, str], str]
ToolsOf = Callable[[list[Any], str], str]


def _backend(writer: Any, agent: AgentSpec) -> str | None:
    deep = agent.deep
    assert deep is not None
    if deep.backend == "state":
        return None
    if deep.backend == "store":
        writer.m.need("from deepagents.backends import StoreBackend")
        return f"StoreBackend(namespace=lambda runtime: ({agent.id!r}, 'files'))"
    writer.m.need("from deepagents.backends import FilesystemBackend")
    # virtual mode keeps every path under root (a relative root is the working directory's)
    return f"FilesystemBackend(root_dir={deep.root!r}, virtual_mode=True)"


def _subagents(writer: Any, agent: AgentSpec, model_of: ModelOf, tools_of: ToolsOf) -> str:
    entries = []
    for sub in agent.deep.subagents:  # type: ignore[union-attr]
        if sub.runnable is not None:  # a compiled subagent: the graph the program made for it
            runnable = writer.m.code(sub.runnable, f"subagent {sub.name} of {agent.id}")
            entries.append(f"{{'name': {sub.name!r}, 'description': {sub.description!r}, "
                           f"'runnable': {runnable}}}")  # fmt: skip
            continue
        fields = [
            f"'name': {sub.name!r}",
            f"'description': {sub.description!r}",
            f"'system_prompt': {sub.system_prompt!r}",
        ]
        if sub.tools:  # none: the agent's own
            fields.append(f"'tools': {tools_of(sub.tools, f'{agent.id}_{sub.name}')}")
        if sub.model is not None:
            fields.append(f"'model': {model_of(sub.model, f'{agent.id}_{sub.name}')}")
        entries.append("{" + ", ".join(fields) + "}")
    return f"[{', '.join(entries)}]"


def deep_agent_call(
    writer: Any,
    agent: AgentSpec,
    model: str,
    tools: str,
    middleware: list[str],
    name: str | None,
    helpers: tuple[ModelOf, ToolsOf],
) -> str:
    """The `create_deep_agent(...)` expression; the imports it needs go into the module."""
    deep = agent.deep
    assert deep is not None
    writer.m.need("from deepagents import create_deep_agent")
    args = [f"model={model}", f"tools={tools}"]
    if agent.system_prompt:
        args.append(f"system_prompt={agent.system_prompt!r}")
    if middleware:
        args.append(f"middleware=[{', '.join(middleware)}]")
    if deep.subagents:
        args.append(f"subagents={_subagents(writer, agent, *helpers)}")
    if (backend := _backend(writer, agent)) is not None:
        args.append(f"backend={backend}")
    if deep.interrupt_on:
        args.append(f"interrupt_on={dict(deep.interrupt_on)!r}")
    for field, value in writer.agent_extras(agent).items():  # its state and context schemas
        args.append(f"{field}={value}")
    if name is not None:
        args.append(f"name={name!r}")
    return f"create_deep_agent({', '.join(args)})"


__all__ = ["deep_agent_call"]
