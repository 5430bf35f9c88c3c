from engine.pregel.main import Pregel, SuperstepStepper
from engine.pregel.read import NodeBuilder, PregelNode
from engine.pregel.write import ChannelWrite, ChannelWriteEntry, ChannelWriteTupleEntry

__all__ = [
    "ChannelWrite",
    "ChannelWriteEntry",
    "ChannelWriteTupleEntry",
    "NodeBuilder",
    "Pregel",
    "PregelNode",
    "SuperstepStepper",
]
