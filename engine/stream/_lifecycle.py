"""Subgraph lifecycle inferred from `tasks` events, and the `lifecycle` projection.

A subgraph is "started" at the first task event seen under a new namespace `parent|node:id`,
and terminal when the parent's task `id` reports its result (or when the run ends).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

from engine.errors import GraphDrained, GraphInterrupt
from engine.stream._types import ProtocolEvent, StreamTransformer
from engine.stream.stream_channel import StreamChannel

SubgraphStatus = Literal["started", "completed", "failed", "interrupted", "drained"]

Transition = tuple[tuple[str, ...], SubgraphStatus, "str | None"]


class LifecyclePayload(TypedDict, total=False):
    """One item of `run.lifecycle` (and the data of a `lifecycle` protocol event)."""

    event: SubgraphStatus
    namespace: list[str]
    graph_name: NotRequired[str]
    trigger_call_id: NotRequired[str]
    cause: NotRequired[dict[str, Any]]
    error: NotRequired[str]


def _parse_ns_segment(segment: str) -> tuple[str, str | None]:
    """`node:task_id` -> (node, task_id); a segment without ':' has no task id."""
    name, sep, task_id = segment.partition(":")
    return name, (task_id if sep else None)


def _status_from_exception(err: BaseException) -> tuple[SubgraphStatus, str | None]:
    if isinstance(err, GraphDrained):
        return "drained", None
    if isinstance(err, GraphInterrupt):
        return "interrupted", None
    return "failed", str(err)


def _terminal_from_result(payload: dict[str, Any]) -> tuple[SubgraphStatus, str | None]:
    # an interrupt also shows up as an error entry; it wins
    if payload.get("interrupts"):
        return "interrupted", None
    if error := payload.get("error"):
        return "failed", str(error)
    return "completed", None


def _tool_call_id_of(task_input: Any) -> str | None:
    """The tool call a task runs: a `tool_call_with_context` dict, or a list of tool calls."""
    if isinstance(task_input, dict) and isinstance(task_input.get("tool_call"), dict):
        candidate = task_input["tool_call"].get("id")
        return candidate if isinstance(candidate, str) else None
    if isinstance(task_input, list):
        for call in task_input:
            if isinstance(call, dict) and isinstance(call.get("id"), str):
                return call["id"]
    return None


class _TasksLifecycleBase(StreamTransformer):
    """Shared bookkeeping; subclasses say what to track and what to do on start / terminal.

    Hooks: `_should_track(ns)`, `_on_started(ns, graph_name, trigger_call_id)` (the start's
    cause, if any, is in `self._pending_cause`), `_on_terminal(ns, status, error)`. Tasks
    events are folded into the projections, so they are kept out of the main log.
    """

    required_stream_modes = ("tasks",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._seen: set[tuple[str, ...]] = set()
        # tracked namespace -> id of the parent task whose result ends it
        self._open: dict[tuple[str, ...], str] = {}
        # lc_agent_name first seen at each namespace, for subclasses projecting named agents
        self._lc_by_ns: dict[tuple[str, ...], str | None] = {}
        # task id -> the tool call it runs; a subagent's segment `node:<task id>` finds it
        self._pending_tool_calls: dict[str, str] = {}
        self._pending_cause: dict[str, Any] | None = None

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        raise NotImplementedError

    def _on_started(
        self, ns: tuple[str, ...], graph_name: str | None, trigger_call_id: str | None
    ) -> None:
        raise NotImplementedError

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        raise NotImplementedError

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "tasks":
            return True
        ns = tuple(event["params"]["namespace"])
        data = event["params"]["data"]
        if "result" in data:
            self._handle_task_result(ns, data)
        else:
            self._observe_task_start(ns, data)
        return False

    def _observe_task_start(self, ns: tuple[str, ...], data: dict[str, Any]) -> None:
        self._record_identity(ns, data)
        self._record_pending_tool_calls(data)
        self._handle_task_start(ns, data)

    def _record_identity(self, ns: tuple[str, ...], data: dict[str, Any]) -> None:
        if ns not in self._lc_by_ns:
            self._lc_by_ns[ns] = (data.get("metadata") or {}).get("lc_agent_name")

    def _record_pending_tool_calls(self, data: dict[str, Any]) -> None:
        task_id = data.get("id")
        if (
            isinstance(task_id, str)
            and (call_id := _tool_call_id_of(data.get("input"))) is not None
        ):
            self._pending_tool_calls[task_id] = call_id

    def _handle_task_start(self, ns: tuple[str, ...], data: dict[str, Any]) -> None:
        if ns in self._seen or not self._should_track(ns):
            return
        self._seen.add(ns)
        node_name, trigger_call_id = _parse_ns_segment(ns[-1])
        agent_name = (data.get("metadata") or {}).get("lc_agent_name")
        # a nested run carrying an lc_agent_name (create_agent sets it) is a subagent
        cause = None
        if agent_name is not None and trigger_call_id is not None:
            if call_id := self._pending_tool_calls.get(trigger_call_id):
                cause = {"type": "toolCall", "tool_call_id": str(call_id)}
        # passed as state, so overrides written before `cause` existed keep working
        self._pending_cause = cause
        self._on_started(
            ns, agent_name if agent_name is not None else (node_name or None), trigger_call_id
        )
        if trigger_call_id is not None:
            self._open[ns] = trigger_call_id

    def _pop_terminal_transitions(
        self, ns: tuple[str, ...], data: dict[str, Any]
    ) -> list[Transition]:
        result_id = data.get("id")
        if not result_id:
            return []
        ended = [
            child
            for child, task_id in self._open.items()
            if child[:-1] == ns and task_id == result_id
        ]
        status, error = _terminal_from_result(data)
        for child in ended:
            del self._open[child]
        return [(child, status, error) for child in ended]

    def _handle_task_result(self, ns: tuple[str, ...], data: dict[str, Any]) -> None:
        for child, status, error in self._pop_terminal_transitions(ns, data):
            self._on_terminal(child, status, error)

    def finalize(self) -> None:
        for ns in list(self._open):
            self._on_terminal(ns, "completed", None)
        self._open.clear()

    def fail(self, err: BaseException) -> None:
        status, error = _status_from_exception(err)
        for ns in list(self._open):
            self._on_terminal(ns, status, error)
        self._open.clear()


class LifecycleTransformer(_TasksLifecycleBase):
    """`run.lifecycle`: started / terminal payloads for subgraphs at every depth below scope.

    The channel is named, so each payload is also a `lifecycle` event in the main log.
    """

    _native = True

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._channel: StreamChannel[LifecyclePayload] = StreamChannel("lifecycle")

    def init(self) -> dict[str, Any]:
        return {"lifecycle": self._channel}

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        depth = len(self.scope)
        return len(ns) > depth and ns[:depth] == self.scope

    def _on_started(
        self, ns: tuple[str, ...], graph_name: str | None, trigger_call_id: str | None
    ) -> None:
        # with no task id no result can close it: only finalize/fail would
        if trigger_call_id is None:
            return
        payload: LifecyclePayload = {"event": "started", "namespace": list(ns)}
        if graph_name:
            payload["graph_name"] = graph_name
        payload["trigger_call_id"] = trigger_call_id
        if self._pending_cause is not None:
            payload["cause"] = self._pending_cause
        self._channel.push(payload)

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        payload: LifecyclePayload = {"event": status, "namespace": list(ns)}
        if error is not None:
            payload["error"] = error
        self._channel.push(payload)
