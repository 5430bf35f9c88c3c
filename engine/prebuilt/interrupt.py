"""The payloads of the Agent Inbox human-in-the-loop convention (langgraph.prebuilt.interrupt)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict


class HumanInterruptConfig(TypedDict):
    """What the human may do with the request."""

    allow_ignore: bool
    allow_respond: bool
    allow_edit: bool
    allow_accept: bool


class ActionRequest(TypedDict):
    """The action awaiting review and its arguments."""

    action: str
    args: dict


class HumanInterrupt(TypedDict):
    """The value given to `interrupt()` to ask a human to review an action."""

    action_request: ActionRequest
    config: HumanInterruptConfig
    description: str | None


class HumanResponse(TypedDict):
    """The human's answer: accept, ignore, a text response, or edited arguments."""

    type: Literal["accept", "ignore", "response", "edit"]
    args: None | str | ActionRequest


__all__ = ["ActionRequest", "HumanInterrupt", "HumanInterruptConfig", "HumanResponse"]
