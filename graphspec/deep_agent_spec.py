"""A deep agent in the spec: an agent built by deepagents' `create_deep_agent` instead of
`create_agent` (AgentSpec.deep): a virtual filesystem behind a backend (ls, read_file,
write_file, edit_file, glob, grep), subagents reached through a `task` tool, summarization, and
human review of chosen tools. The agent's own model, system prompt, tools and middleware are
passed on; its middleware run after deepagents' own."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StringConstraints, model_validator

from graphspec.model import CodeRef, Identifier, ModelSettings, Text, ToolSpec, _Model

FILE_TOOLS = ("ls", "read_file", "write_file", "edit_file", "glob", "grep")
"""The filesystem tools every deep agent has."""
TASK_TOOL = "task"
"""The tool that hands a task to a subagent."""


class SubAgentSpec(_Model):
    """A subagent the deep agent hands tasks to through its `task` tool."""

    name: Identifier
    """What the `task` tool's subagent_type names it by."""
    description: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    """When to use it: the deep agent's model reads this."""
    system_prompt: Text = ""
    tools: list[ToolSpec] = []
    """Its own tools; the deep agent's when empty (the file tools it always has)."""
    model: ModelSettings | None = None
    """Its own chat model; the deep agent's when empty."""
    runnable: CodeRef | None = None
    """A compiled subagent (deepagents' CompiledSubAgent): the graph this code reference gives
    (the agent the program made for it, as the call it wrote) runs the task, instead of a
    prompt, tools and model. Code: runs only for a trusted spec."""

    @model_validator(mode="after")
    def _compiled_alone(self) -> SubAgentSpec:
        if self.runnable is not None and (self.system_prompt or self.tools or self.model):
            raise ValueError("a compiled subagent (`runnable`) takes no system_prompt, tools or "
                             "model: its graph has its own")  # fmt: skip
        return self


class DeepAgent(_Model):
    """deepagents' create_deep_agent settings of an agent."""

    backend: Literal["state", "store", "folder"] = "state"
    """Where the agent's files live: in the graph state (per thread), in the graph's store
    (shared by threads; compile with a store), or in a real folder (`root`)."""
    root: Annotated[str, StringConstraints(min_length=1, max_length=1000)] | None = None
    """The folder of the `folder` backend: the agent reads and writes files under it and
    nowhere else. Relative to the spec's folder."""
    subagents: list[SubAgentSpec] = []
    interrupt_on: dict[Identifier, bool] = {}
    """Tool name -> whether a call to it waits for a human's approve, edit or reject."""


__all__ = ["FILE_TOOLS", "TASK_TOOL", "DeepAgent", "SubAgentSpec"]
