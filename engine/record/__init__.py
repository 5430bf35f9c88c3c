"""Record and replay: a run's chat-model and tool calls kept beside its checkpoints, and runs
replayed with the recorded outputs served instead of new calls."""

from engine.record.recorder import Recorder, record
from engine.record.store import RecordedCall, RecordedRun, RecordingStore

__all__ = ["RecordedCall", "RecordedRun", "Recorder", "RecordingStore", "record"]
