"""Which checkpoint a subgraph starts from while its parent replays a past checkpoint.

A subgraph compiled with checkpointer=True keeps one history per thread under a namespace
without task ids, so its latest checkpoint belongs to the run being replayed over. The first
time each such subgraph runs in the replay, it starts from its last checkpoint made before
the parent's replay point instead (none: it starts fresh); later calls (a loop) load normally.
"""

from __future__ import annotations

from typing import Any

from engine._constants import CONF, CONFIG_KEY_CHECKPOINT_ID, NS_END, NS_SEP


class ReplayState:
    """Shared by every task config of one replaying run (the same object, by reference)."""

    __slots__ = ("checkpoint_id", "_visited")

    def __init__(self, checkpoint_id: str) -> None:
        self.checkpoint_id = checkpoint_id
        self._visited: set[str] = set()

    def checkpoint_for(self, checkpoint_ns: str, saver: Any, config: dict) -> Any:
        if self._first_visit(checkpoint_ns):
            return next(iter(saver.list(config, before=self._before(), limit=1)), None)
        return saver.get_tuple(config)

    async def acheckpoint_for(self, checkpoint_ns: str, saver: Any, config: dict) -> Any:
        """checkpoint_for through the saver's async methods (an async run)."""
        if self._first_visit(checkpoint_ns):
            found = [s async for s in saver.alist(config, before=self._before(), limit=1)]
            return found[0] if found else None
        return await saver.aget_tuple(config)

    def _first_visit(self, checkpoint_ns: str) -> bool:
        stable = NS_SEP.join(part.split(NS_END)[0] for part in checkpoint_ns.split(NS_SEP))
        first = stable not in self._visited
        self._visited.add(stable)
        return first

    def _before(self) -> dict:
        return {"configurable": {"checkpoint_id": self.checkpoint_id}}


def _latest_config(config: dict) -> dict | None:
    """The config that reads the thread's latest checkpoint, when `config` names another."""
    if not config[CONF].get(CONFIG_KEY_CHECKPOINT_ID):
        return None
    return {**config, CONF: {**config[CONF], CONFIG_KEY_CHECKPOINT_ID: None}}


def superseded(saver: Any, config: dict, saved: Any) -> bool:
    """Whether the thread moved past `saved`, the checkpoint `config` names: its latest is
    another. (The tip of an abandoned branch counts too; telling it apart would mean listing
    the thread.)"""
    latest_config = _latest_config(config)
    if latest_config is None:
        return False
    latest = saver.get_tuple(latest_config)
    return latest is not None and latest.checkpoint["id"] != saved.checkpoint["id"]


async def asuperseded(saver: Any, config: dict, saved: Any) -> bool:
    """`superseded` through the saver's async methods."""
    latest_config = _latest_config(config)
    if latest_config is None:
        return False
    latest = await saver.aget_tuple(latest_config)
    return latest is not None and latest.checkpoint["id"] != saved.checkpoint["id"]


__all__ = ["ReplayState", "asuperseded", "superseded"]
