"""A synchronous client for a LangGraph server (`langgraph dev`, `langgraph up`, a deployment),
over langgraph_sdk's sync client. No Qt: the dock calls it on its own daemon threads.

The server is not trusted: each call has a wall-clock deadline for its whole reply (it runs on a
daemon thread of its own, abandoned when late, and cut at its next chunk by `limits`), a reply
is at most `max_reply_bytes`, a list keeps at most what was asked for, and a reply of the wrong
shape is a `RemoteError` naming what was wrong, never a KeyError in the dock.

The API key lives in this object only; it is never logged, and written to disk only by
`remember_key` (the OS keychain through `keyring`, when the user asks).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from studio.remote.limits import (
    CURRENT,
    MB,
    Limits,
    RemoteError,
    Stopped,
    install,
    timed_out,
)

KEYCHAIN_PREFIX = "langgraph-server:"
"""The keychain user a server's key is saved under (service as the model providers')."""


@dataclass(frozen=True)
class Checkpoint:
    """One row of a thread's history, newest first on the server."""

    checkpoint_id: str
    step: int | None
    source: str | None
    next: tuple[str, ...]
    values: Any
    interrupts: tuple[Any, ...]
    """The values of the interrupts its pending tasks raised (what a resume answers)."""
    created_at: str | None


def _checkpoint(state: Any) -> Checkpoint:
    state = _object(state, "thread state")
    meta = _object(state.get("metadata"), "checkpoint metadata")
    interrupts = tuple(
        _object(i, "interrupt").get("value")
        for t in _array(state.get("tasks"), "tasks")
        for i in _array(_object(t, "task").get("interrupts"), "interrupts")
    )
    step, source, created = meta.get("step"), meta.get("source"), state.get("created_at")
    return Checkpoint(
        checkpoint_id=_text(_object(state.get("checkpoint"), "checkpoint"), "checkpoint_id"),
        step=step if isinstance(step, int) else None,
        source=source if isinstance(source, str) else None,
        next=tuple(str(n) for n in _array(state.get("next"), "next")),
        values=state.get("values"),
        interrupts=interrupts,
        created_at=None if created is None else str(created),
    )


def _object(value: Any, what: str) -> dict:
    """`value` when a JSON object ({} for null); else a RemoteError naming `what`."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RemoteError(f"the server's {what} is not an object: {_short(value)}")
    return value


def _array(value: Any, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RemoteError(f"the server's {what} is not a list: {_short(value)}")
    return value


def _text(row: dict, key: str) -> str:
    value = row.get(key)
    if not isinstance(value, str):
        raise RemoteError(f"the server's reply has no text {key!r}: {_short(row)}")
    return value


def _rows(reply: Any, key: str, what: str, limit: int) -> list[dict]:
    """At most `limit` objects, each with a text `key` (an id)."""
    rows = _array(reply, what)[:limit]
    for row in rows:
        _text(_object(row, what[:-1] if what.endswith("s") else what), key)
    return rows


class RemoteClient:
    """One server. Each method is one or two HTTP calls and blocks: call it off the GUI thread."""

    def __init__(self, url: str, api_key: str | None = None, timeout: float = 10.0,
                 max_reply_bytes: int = 64 * MB, max_part_bytes: int = 16 * MB) -> None:  # fmt: skip
        from langgraph_sdk import get_sync_client

        self.url = url.rstrip("/")
        self.timeout = timeout
        """Seconds for a call's whole reply; for a streamed run, the longest silence."""
        self.max_reply_bytes, self.max_part_bytes = max_reply_bytes, max_part_bytes
        # api_key=None, not the SDK's default: a blank key means none, not one read from the env
        self._client = get_sync_client(url=self.url, api_key=api_key or None, timeout=timeout)
        install(self._client.http.client)

    def __repr__(self) -> str:  # the key stays out of reprs and so out of logs
        return f"RemoteClient({self.url!r})"

    def close(self) -> None:
        self._client.close()

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`fn(...)`, its whole reply due within `timeout` s: it runs on a daemon thread of its
        own, abandoned when late (its reply is then cut at the next chunk that arrives)."""
        limits = Limits(self.timeout, self.max_reply_bytes, started=time.monotonic())
        box: dict[str, Any] = {}

        def work() -> None:
            CURRENT.set(limits)
            try:
                box["value"] = fn(*args, **kwargs)
            except BaseException as exc:  # handed to the caller's thread below
                box["error"] = exc

        thread = threading.Thread(target=work, name="remote-call", daemon=True)
        thread.start()
        thread.join(self.timeout)
        error = box.get("error")
        if thread.is_alive() or isinstance(error, httpx.TimeoutException):
            raise timed_out(self.timeout)
        if error is not None:
            raise error
        return box["value"]

    def assistants(self, limit: int = 100) -> list[dict]:
        reply = self._call(self._client.assistants.search, limit=limit)
        return _rows(reply, "assistant_id", "assistants", limit)

    def threads(self, limit: int = 100) -> list[dict]:
        reply = self._call(
            self._client.threads.search, limit=limit, sort_by="updated_at", sort_order="desc"
        )
        return _rows(reply, "thread_id", "threads", limit)

    def create_thread(self) -> str:
        return _text(_object(self._call(self._client.threads.create), "new thread"), "thread_id")

    def history(self, thread_id: str, limit: int = 100) -> list[Checkpoint]:
        """Newest first, as the server returns it."""
        reply = self._call(self._client.threads.get_history, thread_id, limit=limit)
        return [_checkpoint(s) for s in _array(reply, "history")[:limit]]

    def state(self, thread_id: str, checkpoint_id: str | None = None) -> Checkpoint:
        return _checkpoint(
            self._call(self._client.threads.get_state, thread_id, checkpoint_id=checkpoint_id)
        )

    def fork(self, thread_id: str, checkpoint_id: str, values: dict | None = None,
             as_node: str | None = None) -> str:  # fmt: skip
        """A new checkpoint branching from `checkpoint_id` (with `values` written as `as_node`);
        its id. The next run on the thread continues from it."""
        reply = self._call(self._client.threads.update_state, thread_id, values,
                           as_node=as_node, checkpoint_id=checkpoint_id)  # fmt: skip
        checkpoint = _object(_object(reply, "fork reply").get("checkpoint"), "checkpoint")
        return _text(checkpoint, "checkpoint_id")

    def stream(self, thread_id: str, assistant_id: str, *, input: Any = None, resume: Any = None,
               checkpoint_id: str | None = None, on_part: Callable[[str, Any], None] | None = None,
               stop: threading.Event | None = None) -> int:  # fmt: skip
        """Run on the thread and stream its parts (values and updates): a new input, an
        interrupt's answer (`resume`), or a replay from `checkpoint_id`. Each part goes to
        `on_part(event, data)` as it arrives and is not kept; returns how many came. A run may
        stream for as long as it likes (Stop sets `stop`); it may not fall silent for longer
        than `timeout` nor send one part over `max_part_bytes`."""
        CURRENT.set(Limits(max_line=self.max_part_bytes, stop=stop))
        count = 0
        try:
            for part in self._parts(thread_id, assistant_id, input, resume, checkpoint_id):
                count += 1
                if on_part is not None:
                    on_part(*part)
                if stop is not None and stop.is_set():
                    break
        except Stopped:
            pass
        finally:
            CURRENT.set(None)
        return count

    def _parts(self, thread_id: str, assistant_id: str, input: Any, resume: Any,
               checkpoint_id: str | None) -> Iterator[tuple[str, Any]]:  # fmt: skip
        kwargs: dict[str, Any] = {"stream_mode": ["values", "updates"]}
        if resume is not None:
            kwargs["command"] = {"resume": resume}
        else:
            kwargs["input"] = input
        if checkpoint_id:
            kwargs["checkpoint_id"] = checkpoint_id
        for part in self._client.runs.stream(thread_id, assistant_id, **kwargs):
            if part.event == "error":  # a failed run arrives as a part, not an HTTP error
                raise RemoteError(f"the run failed on the server: {_short(part.data)}")
            yield part.event, part.data


def _short(data: Any, limit: int = 300) -> str:
    if isinstance(data, dict):
        data = data.get("message") or data.get("error") or data
    text = str(data)
    return text if len(text) <= limit else text[:limit] + "…"


def describe(error: BaseException) -> str:
    """One line saying what went wrong talking to the server, for the dock's status."""
    if isinstance(error, RemoteError):
        return str(error)
    if isinstance(error, httpx.HTTPStatusError):
        code = error.response.status_code
        what = {401: "not authorised — check the API key", 403: "forbidden — the API key may not access this",
                404: "not found — is this a LangGraph server, and does the thread still exist?"}.get(code)  # fmt: skip
        if what is None:
            try:
                what = _short(error.response.json().get("detail") or error.response.text)
            except ValueError:
                what = _short(error.response.text) or error.response.reason_phrase
        return f"HTTP {code}: {what}"
    if isinstance(error, httpx.ConnectError):
        return "could not connect: connection refused or host not found — is the server running at that URL?"
    if isinstance(error, httpx.TimeoutException):
        return "the server did not answer in time (timeout)"
    if isinstance(error, httpx.InvalidURL | httpx.UnsupportedProtocol):
        return f"not a valid server URL: {error}"
    if isinstance(error, httpx.HTTPError):
        return f"network error: {error}"
    return f"{type(error).__name__}: {error}"


def stored_key(url: str) -> str | None:
    """The key saved for this server in the OS keychain, if any (None when no keychain works)."""
    from graphspec.credentials import stored_key as keychain_get

    return keychain_get(KEYCHAIN_PREFIX + url.rstrip("/"))


def remember_key(url: str, key: str | None) -> None:
    """Save the key in the OS keychain (an empty key deletes it); raises when no keychain works."""
    from graphspec.credentials import store_key

    store_key(KEYCHAIN_PREFIX + url.rstrip("/"), key)
