"""A real provider's failure as one clear line: bad key, unknown model, rate limit, timeout,
network down. Recognised by the HTTP status and the exception's kind, so it works for any
OpenAI-style SDK (openai, anthropic, ... and langchain's wrappers of them) without importing one.
"""

from __future__ import annotations

import re

_STATUS = {
    401: "the provider rejected the API key (401)",
    403: "the API key may not use this model (403)",
    404: "model not found (404)",
    429: "rate limited by the provider (429); the model_retry middleware retries it",
}


def describe_provider_error(exc: BaseException) -> str | None:
    """The line to show for a provider error, or None when `exc` is not one."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    status = getattr(exc, "status_code", None)
    detail = _detail(exc)
    if isinstance(status, int) and status in _STATUS:
        return f"{_STATUS[status]}: {detail}" if detail else _STATUS[status]
    if isinstance(status, int) and status >= 500:
        return f"the provider failed ({status}): {detail}"
    if any("Timeout" in n for n in names):
        return "the model request timed out (the server did not answer in time)"
    if any(
        n in ("APIConnectionError", "ConnectError", "ConnectionError")
        or n.endswith("ConnectionError")
        for n in names
    ):
        cause = exc.__cause__ or exc.__context__
        why = _detail(cause) if cause is not None else ""
        return f"cannot reach the model server{': ' + why if why and why != detail else ''} (is it running, is the base URL right?)"
    return None


def _detail(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = re.sub(r"^Error code: \d+ - ", "", text)
    # a JSON error body printed as a dict: keep its message
    if m := re.search(r"'message': '([^']*)'", text):
        text = m.group(1)
    return text[:300]


def failing_node(exc: BaseException) -> str | None:
    """The top-level task that raised, from the notes the engine (and langgraph) add to an
    error as it leaves each task: the last one is the spec's node (an agent, not its model)."""
    found = None
    for note in getattr(exc, "__notes__", ()):
        if m := re.match(r"During task with name '([^']*)'", note):
            found = m.group(1)
    return found
