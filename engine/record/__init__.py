"""Record and replay: a run's chat-model and tool calls kept beside its checkpoints, and runs
replayed with the recorded outputs served instead of new calls.

The names load on first use (PEP 562), as in `engine.agents`: the studio makes its recorder when
its window opens, and replaying (langchain-core's LLM cache, the tool node) waits for a replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine._lazy import lazy_names

if TYPE_CHECKING:
    from engine.record.recorder import Recorder, record
    from engine.record.replay import (
        ReplayPlan,
        ReplayReport,
        copy_checkpoint,
        free_thread_id,
        plan_from,
        plan_thread,
        replay_from,
        replay_thread,
    )
    from engine.record.session import POLICIES, Decision, ReplayMismatch, ReplaySession
    from engine.record.store import RecordedCall, RecordedRun, RecordingStore

_LAZY = {
    **dict.fromkeys(("Recorder", "record"), "engine.record.recorder"),
    **dict.fromkeys(
        (
            "ReplayPlan",
            "ReplayReport",
            "copy_checkpoint",
            "free_thread_id",
            "plan_from",
            "plan_thread",
            "replay_from",
            "replay_thread",
        ),
        "engine.record.replay",
    ),  # fmt: skip
    **dict.fromkeys(
        ("POLICIES", "Decision", "ReplayMismatch", "ReplaySession"), "engine.record.session"
    ),  # fmt: skip
    **dict.fromkeys(("RecordedCall", "RecordedRun", "RecordingStore"), "engine.record.store"),
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "POLICIES",
    "Decision",
    "RecordedCall",
    "RecordedRun",
    "Recorder",
    "RecordingStore",
    "ReplayMismatch",
    "ReplayPlan",
    "ReplayReport",
    "ReplaySession",
    "copy_checkpoint",
    "free_thread_id",
    "plan_from",
    "plan_thread",
    "record",
    "replay_from",
    "replay_thread",
]
