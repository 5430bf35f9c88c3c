"""The inspector's forms for agents, models, tools and middleware (one job per module)."""

from studio.panels.inspector.agent_form import agent_form
from studio.panels.inspector.host import Host
from studio.panels.inspector.model_form import ModelForm
from studio.panels.inspector.tools_editor import ToolsEditor

__all__ = ["Host", "ModelForm", "ToolsEditor", "agent_form"]
