"""The agent part of an agent node's inspector: model, system prompt, tools, MCP servers,
middleware, and the deep agent settings.

Every change replaces the agent through one `SetAgentEdit`, built from the agent as it is in
the document at that moment (never from the copy the form was drawn with, which an earlier
commit may have replaced)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFormLayout

from graphspec.agent_checks import MIDDLEWARE_TOOLS
from graphspec.model import PrebuiltMiddleware
from studio import edits
from studio.edits.base import updated
from studio.i18n import translate
from studio.panels.inspector.deep_form import DeepAgentForm
from studio.panels.inspector.host import Host, code_field, section
from studio.panels.inspector.mcp_form import McpServersEditor
from studio.panels.inspector.middleware_form import MiddlewareEditor
from studio.panels.inspector.model_form import ModelForm
from studio.panels.inspector.tools_editor import ToolsEditor


def agent_form(host: Host, form: QFormLayout, agent_id: str) -> None:
    """Adds the agent's sections to the inspector's form."""
    spec = lambda: host.editor.document.spec  # noqa: E731
    agent = lambda: spec().agent(agent_id)  # noqa: E731

    def put(merge: str | bool = False, text: str = "", **changes: Any) -> bool:
        current = agent()
        if current is None:
            host.say(
                translate("panels.inspector.agent_form", "agent {agent_id!r} is gone").format(
                    agent_id=agent_id
                )
            )
            return False
        try:
            new = updated(current, **changes)
        except ValueError as exc:
            host.say(
                translate("panels.inspector.agent_form", "agent {agent_id}: {exc}").format(
                    agent_id=agent_id, exc=exc
                )
            )
            return False
        return host.editor.push(edits.SetAgentEdit, new, merge=merge, text=text)

    def tool_names() -> list[str]:
        names = [t.name for t in agent().tools]
        extra = [MIDDLEWARE_TOOLS[m.name] for m in agent().middleware
                 if isinstance(m, PrebuiltMiddleware) and m.name in MIDDLEWARE_TOOLS]  # fmt: skip
        mcp = [name for server in agent().mcp_servers for name in server.tools]
        return names + mcp + extra

    page, model_form = section(
        translate("panels.inspector.agent_form", "Model of agent {agent_id}").format(
            agent_id=agent_id
        )
    )
    model_form.addRow(ModelForm(host, agent_id, lambda: agent().model,
                                lambda m, merge: put(merge if isinstance(merge, bool) else f"model.{merge}", model=m),
                                tool_names))  # fmt: skip
    form.addRow(page)
    prompt = code_field("inspector_agent_prompt", "text", agent().system_prompt,
                        lambda t: put("system_prompt", translate("panels.inspector.agent_form", "Change system prompt of {agent_id}").format(agent_id=agent_id), system_prompt=t), host.say)  # fmt: skip
    form.addRow(translate("panels.inspector.agent_form", "System prompt"), prompt)
    page, tools_form = section(translate("panels.inspector.agent_form", "Tools"))
    index = next(i for i, a in enumerate(spec().agents) if a.id == agent_id)
    tools_form.addRow(ToolsEditor(host, agent_id, lambda: agent().tools,
                                  lambda tools, merge: put(merge, translate("panels.inspector.agent_form", "Change tools of {agent_id}").format(agent_id=agent_id), tools=tools),
                                  f"$.agents[{index}].tools"))  # fmt: skip
    form.addRow(page)
    page, mcp_form = section(translate("panels.inspector.agent_form", "MCP servers"))
    mcp_form.addRow(McpServersEditor(host, agent_id, lambda: agent().mcp_servers,
                                     lambda servers, merge, text: put(merge, f"{text} ({agent_id})", mcp_servers=servers)))  # fmt: skip
    form.addRow(page)
    page, mw_form = section(translate("panels.inspector.agent_form", "Middleware (in order)"))
    mw_form.addRow(MiddlewareEditor(host, agent_id, lambda: agent().middleware, tool_names,
                                    lambda mws, merge, text: put(merge, f"{text} ({agent_id})", middleware=mws)))  # fmt: skip
    form.addRow(page)
    page, deep_form = section(translate("panels.inspector.agent_form", "Deep agent"))
    deep_form.addRow(DeepAgentForm(host, agent_id, lambda: agent().deep,
                                   lambda deep, merge, text: put(merge, text, deep=deep)))  # fmt: skip
    form.addRow(page)
