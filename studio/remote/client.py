"""A synchronous client for a LangGraph server (`langgraph dev`, `langgraph up`, a deployment),
over langgraph_sdk's sync client. No Qt: the dock calls it on the studio's worker threads.

The API key lives in this object only; it is never logged, and written to disk only by
`remember_key` (the OS keychain through `keyring`, when the user asks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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


def _checkpoint(state: dict) -> Checkpoint:
    meta = state.get("metadata") or {}
    interrupts = tuple(
        i.get("value") for t in state.get("tasks") or () for i in t.get("interrupts") or ()
    )
    return Checkpoint(
        checkpoint_id=(state.get("checkpoint") or {}).get("checkpoint_id", ""),
        step=meta.get("step"),
        source=meta.get("source"),
        next=tuple(state.get("next") or ()),
        values=state.get("values"),
        interrupts=interrupts,
        created_at=state.get("created_at"),
    )


class RemoteClient:
    """One server. Each method is one or two HTTP calls and blocks: call it off the GUI thread."""

    def __init__(self, url: str, api_key: str | None = None, timeout: float = 10.0) -> None:
        from langgraph_sdk import get_sync_client

        self.url = url.rstrip("/")
        # api_key=None, not the SDK's default: a blank key means none, not one read from the env
        self._client = get_sync_client(url=self.url, api_key=api_key or None, timeout=timeout)

    def __repr__(self) -> str:  # the key stays out of reprs and so out of logs
        return f"RemoteClient({self.url!r})"

    def close(self) -> None:
        self._client.close()

    def assistants(self, limit: int = 100) -> list[dict]:
        return list(self._client.assistants.search(limit=limit))

    def threads(self, limit: int = 100) -> list[dict]:
        return list(
            self._client.threads.search(limit=limit, sort_by="updated_at", sort_order="desc")
        )

    def create_thread(self) -> str:
        return self._client.threads.create()["thread_id"]

    def history(self, thread_id: str, limit: int = 100) -> list[Checkpoint]:
        """Newest first, as the server returns it."""
        return [_checkpoint(s) for s in self._client.threads.get_history(thread_id, limit=limit)]

    def state(self, thread_id: str, checkpoint_id: str | None = None) -> Checkpoint:
        return _checkpoint(self._client.threads.get_state(thread_id, checkpoint_id=checkpoint_id))

    def fork(self, thread_id: str, checkpoint_id: str, values: dict | None = None,
             as_node: str | None = None) -> str:  # fmt: skip
        """A new checkpoint branching from `checkpoint_id` (with `values` written as `as_node`);
        its id. The next run on the thread continues from it."""
        reply = self._client.threads.update_state(
            thread_id, values, as_node=as_node, checkpoint_id=checkpoint_id
        )
        return reply["checkpoint"]["checkpoint_id"]

    def stream(self, thread_id: str, assistant_id: str, *, input: Any = None, resume: Any = None,
               checkpoint_id: str | None = None, on_part: Callable[[str, Any], None] | None = None,
               ) -> list[tuple[str, Any]]:  # fmt: skip
        """Run on the thread and stream its parts (values and updates): a new input, an
        interrupt's answer (`resume`), or a replay from `checkpoint_id`. Each part goes to
        `on_part(event, data)` as it arrives; all of them are returned."""
        parts = []
        for part in self._parts(thread_id, assistant_id, input, resume, checkpoint_id):
            parts.append(part)
            if on_part is not None:
                on_part(*part)
        return parts

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


class RemoteError(Exception):
    """A server's answer the dock shows as it is."""


def _short(data: Any, limit: int = 300) -> str:
    if isinstance(data, dict):
        data = data.get("message") or data.get("error") or data
    text = str(data)
    return text if len(text) <= limit else text[:limit] + "…"


def describe(error: BaseException) -> str:
    """One line saying what went wrong talking to the server, for the dock's status."""
    import httpx

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
