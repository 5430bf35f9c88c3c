"""Which saved checkpoint a PregelLoop starts from, read through the saver's sync methods (a
sync run, in the loop's constructor) or its async ones (an async run, in `aload`)."""

from __future__ import annotations

from typing import Any

from engine._constants import (
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_REPLAY_STATE,
    CONFIG_KEY_RESUMING,
    NS_SEP,
)
from engine.checkpoint.base import CheckpointTuple
from engine.pregel.async_saves import AsyncSaves
from engine.pregel.deltas import arestore_channels, restore_channels
from engine.pregel.replay import asuperseded, superseded
from engine.pregel.state import text_thread_id


class LoopLoad:
    """PregelLoop's loading side; `_restore` (the loop's own) takes what was read."""

    _async_saves: AsyncSaves | None = None
    # whether the run addressed a checkpoint the thread has moved past (its latest is another)
    _superseded = False

    def _load(self, ns: str) -> None:
        replay = self._locate(ns)
        saved: CheckpointTuple | None = None
        if self.checkpointer is not None:
            if replay is not None:
                saved = replay.checkpoint_for(ns, self.checkpointer, self.checkpoint_config)
            else:
                saved = self.checkpointer.get_tuple(self.checkpoint_config)
                if saved is not None:
                    self._superseded = superseded(self.checkpointer, self.checkpoint_config, saved)
        self._restore(saved)
        self.channels = restore_channels(
            self.graph.channels, self.checkpoint, self.checkpointer, self.checkpoint_config
        )

    async def aload(self) -> None:
        """An async run's setup: read the checkpoint with the saver's async methods, which the
        run then saves through as well (langgraph's async loop calls no sync saver method)."""
        self._async_saves = AsyncSaves(self.checkpointer)
        ns = NS_SEP.join(self.checkpoint_ns)
        replay = self._locate(ns)
        saved: CheckpointTuple | None = None
        if self.checkpointer is not None:
            if replay is not None:
                saved = await replay.acheckpoint_for(ns, self.checkpointer, self.checkpoint_config)
            else:
                saved = await self.checkpointer.aget_tuple(self.checkpoint_config)
                if saved is not None:
                    self._superseded = await asuperseded(
                        self.checkpointer, self.checkpoint_config, saved
                    )
        self._restore(saved)
        self.channels = await arestore_channels(
            self.graph.channels, self.checkpoint, self.checkpointer, self.checkpoint_config
        )

    def _locate(self, ns: str) -> Any:
        """Set the config the run reads and saves its checkpoints under; return the replay
        state when a parent's time travel decides which checkpoint this graph starts from."""
        self._mapped = False
        if self.checkpointer is None:
            self.checkpoint_config = self.config
            return None
        configurable = self.config[CONF]
        self.checkpoint_config = {
            **self.config,
            CONF: {**text_thread_id(self.config)[CONF], CONFIG_KEY_CHECKPOINT_NS: ns},
        }
        mapped = configurable.get(CONFIG_KEY_CHECKPOINT_MAP, {}).get(ns)
        replay = configurable.get(CONFIG_KEY_REPLAY_STATE)
        if configurable.get(CONFIG_KEY_CHECKPOINT_ID):
            return None
        if mapped:
            # time travel to a checkpoint get_state(subgraphs=True) named for this graph
            self._mapped = True
            self.checkpoint_config[CONF][CONFIG_KEY_CHECKPOINT_ID] = mapped
            return None
        if replay is not None:
            # start from that checkpoint as a new run, not as a resume of it
            configurable.pop(CONFIG_KEY_RESUMING, None)
        return replay
