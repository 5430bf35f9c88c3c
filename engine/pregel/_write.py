"""langgraph's path for the channel-write classes (`langgraph.pregel._write`)."""

from engine.pregel.write import ChannelWrite, ChannelWriteEntry, ChannelWriteTupleEntry

__all__ = ["ChannelWrite", "ChannelWriteEntry", "ChannelWriteTupleEntry"]
