"""SubgraphTransformer: `run.subgraphs`, one navigable handle per direct child subgraph."""

from __future__ import annotations

import logging
from typing import Any

from engine.stream._lifecycle import SubgraphStatus, _status_from_exception, _TasksLifecycleBase
from engine.stream._types import ProtocolEvent
from engine.stream.run_stream import AsyncSubgraphRunStream, SubgraphRunStream
from engine.stream.stream_channel import StreamChannel

_logger = logging.getLogger(__name__)

Handle = SubgraphRunStream | AsyncSubgraphRunStream


class SubgraphTransformer(_TasksLifecycleBase):
    """Each direct child gets a handle over a mini-mux scoped to its namespace.

    Events under a child's namespace are forwarded to its mini-mux, whose own
    SubgraphTransformer finds the grandchildren, so they appear on the child's handle.
    """

    _native = True
    supports_sync = True

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[Handle] = StreamChannel()
        self._handles: dict[tuple[str, ...], Handle] = {}
        self._mux: Any = None

    def init(self) -> dict[str, Any]:
        return {"subgraphs": self._log}

    def _on_register(self, mux: Any) -> None:
        self._mux = mux

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        depth = len(self.scope)
        return len(ns) == depth + 1 and ns[:depth] == self.scope

    def _on_started(
        self, ns: tuple[str, ...], graph_name: str | None, trigger_call_id: str | None
    ) -> None:
        if self._mux is None:
            return
        try:
            child = self._mux._make_child(ns)
        except RuntimeError:
            # built from pre-built transformers: there is nothing to clone for the child
            return
        cls = AsyncSubgraphRunStream if child.is_async else SubgraphRunStream
        handle = cls(mux=child, path=ns, graph_name=graph_name, trigger_call_id=trigger_call_id)
        self._handles[ns] = handle
        self._log.push(handle)

    # -- terminal transitions
    def _mark_terminal(self, handle: Handle, status: SubgraphStatus, error: str | None) -> bool:
        """Record the first terminal status; False if the handle already had one."""
        if handle._seen_terminal:
            return False
        handle.status = status
        if error is not None and handle.error is None:
            handle.error = error
        handle._seen_terminal = True
        return True

    def _open_handle(
        self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None
    ) -> Handle | None:
        handle = self._handles.get(ns)
        if handle is None or not self._mark_terminal(handle, status, error):
            return None
        return handle

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        if (handle := self._open_handle(ns, status, error)) is not None:
            self._close_or_fail_handle(handle, status, error)

    async def _aon_terminal(
        self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None
    ) -> None:
        if (handle := self._open_handle(ns, status, error)) is not None:
            await self._aclose_or_fail_handle(handle, status, error)

    def _close_or_fail_handle(
        self, handle: Handle, status: SubgraphStatus, error: str | None
    ) -> None:
        if handle._mux is None or handle._mux._events._closed:
            return
        if status == "failed":
            handle._mux.fail(RuntimeError(error or "Subgraph failed"))
        else:
            handle._mux.close()

    async def _aclose_or_fail_handle(
        self, handle: Handle, status: SubgraphStatus, error: str | None
    ) -> None:
        if handle._mux is None or handle._mux._events._closed:
            return
        if status == "failed":
            await handle._mux.afail(RuntimeError(error or "Subgraph failed"))
        else:
            await handle._mux.aclose()

    # -- forwarding
    def _handle_for_event(self, event: ProtocolEvent) -> Handle | None:
        ns = event["params"]["namespace"]
        depth = len(self.scope)
        if len(ns) <= depth:
            return None
        handle = self._handles.get(tuple(ns[: depth + 1]))
        if handle is None or handle._mux is None or handle._mux._events._closed:
            return None
        return handle

    def process(self, event: ProtocolEvent) -> bool:
        # bookkeeping first, so a child started by this very event receives it
        keep = super().process(event)
        if (handle := self._handle_for_event(event)) is not None:
            handle._observe_event(event)
            handle._mux.push(event)
        return keep

    async def aprocess(self, event: ProtocolEvent) -> bool:
        keep = True
        if event["method"] == "tasks":
            keep = False
            ns = tuple(event["params"]["namespace"])
            data = event["params"]["data"]
            if "result" in data:
                # child muxes close on the async lane, so they can await their own work
                for child, status, error in self._pop_terminal_transitions(ns, data):
                    await self._aon_terminal(child, status, error)
            else:
                self._observe_task_start(ns, data)
        if (handle := self._handle_for_event(event)) is not None:
            handle._observe_event(event)
            await handle._mux.apush(event)
        return keep

    # -- end of run
    def _remaining(self) -> list[tuple[str, ...]]:
        remaining = list(self._open)
        self._open.clear()
        return remaining

    def finalize(self) -> None:
        first_error: BaseException | None = None
        for ns in self._remaining():
            try:
                self._on_terminal(ns, "completed", None)
            except BaseException as exc:
                first_error = first_error or exc
        for handle in self._handles.values():
            if self._mark_terminal(handle, "completed", None):
                try:
                    self._close_or_fail_handle(handle, "completed", None)
                except BaseException as exc:
                    first_error = first_error or exc
        if first_error is not None:
            raise first_error

    async def afinalize(self) -> None:
        first_error: BaseException | None = None
        for ns in self._remaining():
            try:
                await self._aon_terminal(ns, "completed", None)
            except BaseException as exc:
                first_error = first_error or exc
        for handle in self._handles.values():
            if self._mark_terminal(handle, "completed", None):
                try:
                    await self._aclose_or_fail_handle(handle, "completed", None)
                except BaseException as exc:
                    first_error = first_error or exc
        if first_error is not None:
            raise first_error

    def _live_handles_failing(self, err: BaseException) -> list[Handle]:
        """Mark every handle terminal for `err`; the ones whose mini-mux is still open."""
        status, error = _status_from_exception(err)
        self._open.clear()
        live = []
        for handle in self._handles.values():
            self._mark_terminal(handle, status, error)
            if handle._mux is not None and not handle._mux._events._closed:
                live.append(handle)
        return live

    def fail(self, err: BaseException) -> None:
        for handle in self._live_handles_failing(err):
            try:
                handle._mux.fail(err)
            except Exception:
                _logger.warning("Error failing subgraph mini-mux at %s", handle.path, exc_info=True)

    async def afail(self, err: BaseException) -> None:
        for handle in self._live_handles_failing(err):
            try:
                await handle._mux.afail(err)
            except Exception:
                _logger.warning("Error failing subgraph mini-mux at %s", handle.path, exc_info=True)
