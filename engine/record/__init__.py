"""Record and replay: a run's chat-model and tool calls kept beside its checkpoints, and runs
replayed with the recorded outputs served instead of new calls."""

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
