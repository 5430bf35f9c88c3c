"""Transformers that copy one stream mode's own-level data into a projection channel."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.stream._types import ProtocolEvent, StreamTransformer
from engine.stream.stream_channel import StreamChannel


class _ScopedModeTransformer(StreamTransformer):
    """Pushes `data` of each `mode` event at exactly this scope onto `run.<mode>`.

    Deeper namespaces are left to the subgraph handles' own transformers; the events stay in
    the main log either way.
    """

    _native = True
    mode: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "mode" in cls.__dict__ and "required_stream_modes" not in cls.__dict__:
            cls.required_stream_modes = (cls.mode,)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[Any] = StreamChannel()
        # a list, to compare with the event's namespace list without converting each time
        self._scope_list: list[str] = list(scope)

    def init(self) -> dict[str, Any]:
        return {self.mode: self._log}

    def _own(self, event: ProtocolEvent) -> bool:
        return event["method"] == self.mode and event["params"]["namespace"] == self._scope_list

    def process(self, event: ProtocolEvent) -> bool:
        if self._own(event):
            self._log.push(event["params"]["data"])
        return True


class ValuesTransformer(_ScopedModeTransformer):
    """`run.values`: each state snapshot of this level (the run tracks output itself)."""

    mode = "values"

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._latest: dict[str, Any] | None = None
        self._interrupted = False
        self._interrupts: list[Any] = []

    @property
    def error(self) -> BaseException | None:
        """The error that ended the run, once the mux failed the projection."""
        return self._log._error

    def process(self, event: ProtocolEvent) -> bool:
        if self._own(event):
            params = event["params"]
            self._latest = params["data"]
            if interrupts := params.get("interrupts", ()):
                self._interrupted = True
                self._interrupts.extend(interrupts)
            self._log.push(params["data"])
        return True


class CustomTransformer(_ScopedModeTransformer):
    """`run.custom`: what nodes wrote with `get_stream_writer()` at this level."""

    mode = "custom"


class UpdatesTransformer(_ScopedModeTransformer):
    """`run.updates`: `{node: update}` after each task of this level."""

    mode = "updates"


class CheckpointsTransformer(_ScopedModeTransformer):
    """`run.checkpoints`: each checkpoint saved at this level (needs a checkpointer)."""

    mode = "checkpoints"


class DebugTransformer(_ScopedModeTransformer):
    """`run.debug`: debug events (checkpoint, task, task_result) of this level."""

    mode = "debug"


class TasksTransformer(_ScopedModeTransformer):
    """`run.tasks`: raw task start and result payloads of this level."""

    mode = "tasks"
