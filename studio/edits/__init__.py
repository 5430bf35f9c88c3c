"""Undo commands: every change to the document is one of these, pushed on the editor's stack."""

from studio.edits.base import SpecEdit, unique_id
from studio.edits.edge_edits import (
    AddConditionalEdgeEdit,
    AddRouteEdit,
    ConnectEdit,
    ConvertToEdgesEdit,
    ConvertToRouterEdit,
    ReconnectEdit,
    RetargetRouteEdit,
    SetEdgeEdit,
)
from studio.edits.node_edits import (
    AddElementsEdit,
    AddNodeEdit,
    MoveElementsEdit,
    RemoveElementsEdit,
)
from studio.edits.property_edits import (
    AddMiddlewareEdit,
    RenameNodeEdit,
    ReorderMiddlewareEdit,
    SetAgentEdit,
    SetBreakpointsEdit,
    SetNodeEdit,
    SetNoteTextEdit,
    SetSpecFieldEdit,
    SetStateKeysEdit,
    ToggleBreakpointEdit,
)

__all__ = [
    "SpecEdit",
    "unique_id",
    "AddNodeEdit",
    "AddElementsEdit",
    "RemoveElementsEdit",
    "MoveElementsEdit",
    "ConnectEdit",
    "ReconnectEdit",
    "AddConditionalEdgeEdit",
    "AddRouteEdit",
    "RetargetRouteEdit",
    "ConvertToRouterEdit",
    "ConvertToEdgesEdit",
    "SetBreakpointsEdit",
    "ToggleBreakpointEdit",
    "SetEdgeEdit",
    "RenameNodeEdit",
    "SetNodeEdit",
    "SetAgentEdit",
    "SetStateKeysEdit",
    "SetSpecFieldEdit",
    "SetNoteTextEdit",
    "ReorderMiddlewareEdit",
    "AddMiddlewareEdit",
]
