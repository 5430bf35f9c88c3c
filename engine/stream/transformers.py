"""The built-in stream transformers (langgraph.stream.transformers)."""

from engine.stream._lifecycle import (
    LifecyclePayload,
    LifecycleTransformer,
    SubgraphStatus,
    _TasksLifecycleBase,
)
from engine.stream._messages import MessagesTransformer
from engine.stream._scoped import (
    CheckpointsTransformer,
    CustomTransformer,
    DebugTransformer,
    TasksTransformer,
    UpdatesTransformer,
    ValuesTransformer,
)
from engine.stream._subgraphs import SubgraphTransformer

__all__ = [
    "CheckpointsTransformer",
    "CustomTransformer",
    "DebugTransformer",
    "LifecyclePayload",
    "LifecycleTransformer",
    "MessagesTransformer",
    "SubgraphStatus",
    "SubgraphTransformer",
    "TasksTransformer",
    "UpdatesTransformer",
    "ValuesTransformer",
    "_TasksLifecycleBase",
]
