"""The inspector's forms for agents, models, tools and middleware (one job per module).

Loaded on first use (PEP 562): the first window's inspector shows a graph or a plain node, and
the agent forms (with the code checks and the exporters' import rules they use) are imported
when an agent, model or tools node is first shown (issue 32.1)."""

from typing import TYPE_CHECKING

from engine._lazy import lazy_names

if TYPE_CHECKING:
    from studio.panels.inspector.agent_form import agent_form
    from studio.panels.inspector.host import Host
    from studio.panels.inspector.model_form import ModelForm
    from studio.panels.inspector.tools_editor import ToolsEditor

_HOMES = {
    "Host": "studio.panels.inspector.host",
    "ModelForm": "studio.panels.inspector.model_form",
    "ToolsEditor": "studio.panels.inspector.tools_editor",
    "agent_form": "studio.panels.inspector.agent_form",
}

__getattr__ = lazy_names(__name__, _HOMES, globals())

__all__ = ["Host", "ModelForm", "ToolsEditor", "agent_form"]
