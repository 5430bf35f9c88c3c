"""A small OpenAI-compatible HTTP server on 127.0.0.1, so the real langchain-openai client runs
end to end offline: POST /v1/chat/completions (whole or streamed as server-sent events, with
tool calls), GET /v1/models, and the errors real providers send (401 bad key, 404 unknown model,
429 rate limit with Retry-After, a slow reply for timeouts). `refused_url()` is an address where
nothing listens (network down).

Replies are scripted: `server.reply("text")`, `server.reply(tool_calls=[("add", {"a": 1})])`,
`server.fail(429)`; with none queued the server echoes the last user message. Requests are kept
in `server.requests` (path, lower-cased headers, body) for assertions.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERRORS = {
    401: (
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided: {key}. You can find your API key in your account settings.",
    ),
    404: (
        "invalid_request_error",
        "model_not_found",
        "The model `{model}` does not exist or you do not have access to it.",
    ),
    429: (
        "requests",
        "rate_limit_exceeded",
        "Rate limit reached for {model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
    ),
    500: ("server_error", None, "The server had an error while processing your request."),
}


@dataclass
class Reply:
    content: str = ""
    tool_calls: list[tuple[str, dict]] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0  # before answering: longer than the client's timeout makes it time out
    token_delay: float = 0.0  # between streamed chunks


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict


class OpenAIServer:
    def __init__(self, api_key: str | None = "sk-test", models: tuple[str, ...] = ("gpt-test",)):
        self.api_key = api_key
        self.models = list(models)
        self.replies: deque[Reply] = deque()
        self.requests: list[Request] = []
        self.token_delay = 0.0
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}/v1"

    def start(self) -> OpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- scripting
    def reply(
        self,
        content: str = "",
        *,
        tool_calls=(),
        delay: float = 0.0,
        token_delay: float | None = None,
    ) -> None:
        self.replies.append(
            Reply(
                content,
                list(tool_calls),
                200,
                delay,
                self.token_delay if token_delay is None else token_delay,
            )
        )

    def fail(self, status: int, *, times: int = 1) -> None:
        for _ in range(times):
            self.replies.append(Reply(status=status))

    def _next(self, body: dict) -> Reply:
        if self.replies:
            return self.replies.popleft()
        last_user = next(
            (m for m in reversed(body.get("messages", [])) if m.get("role") == "user"), {}
        )
        return Reply(f"echo: {_text(last_user.get('content', ''))}", token_delay=self.token_delay)


def refused_url() -> str:
    """A base URL on 127.0.0.1 where nothing listens: connecting is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return str(content)


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"(\s+)", text) if t]


class _Fill(dict):
    def __missing__(self, key: str) -> str:  # a scripted failure knows no key or model
        return "***"


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet in tests
            pass

        # -- helpers
        def _json(self, status: int, payload: dict, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, **fields: str) -> None:
            kind, code, text = ERRORS[status]
            headers = {"Retry-After": "0", "x-should-retry": "false"} if status == 429 else {}
            self._json(
                status,
                {
                    "error": {
                        "message": text.format_map(_Fill(fields)),
                        "type": kind,
                        "param": None,
                        "code": code,
                    }
                },
                headers,
            )

        def _authorized(self) -> bool:
            if server.api_key is None:
                return True
            given = self.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            if given == server.api_key:
                return True
            shown = f"{given[:3]}***{given[-4:]}" if len(given) > 8 else "***"
            self._error(401, key=shown)
            return False

        # -- routes
        def do_GET(self) -> None:
            server.requests.append(
                Request(self.path, {k.lower(): v for k, v in self.headers.items()}, {})
            )
            if self.path.rstrip("/") != "/v1/models":
                self._json(
                    404,
                    {
                        "error": {
                            "message": f"Unknown path {self.path}",
                            "type": "invalid_request_error",
                            "param": None,
                            "code": None,
                        }
                    },
                )
                return
            if self._authorized():
                self._json(
                    200,
                    {
                        "object": "list",
                        "data": [
                            {"id": m, "object": "model", "created": 0, "owned_by": "tests"}
                            for m in server.models
                        ],
                    },
                )

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            server.requests.append(
                Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            if self.path.rstrip("/") != "/v1/chat/completions":
                self._json(
                    404,
                    {
                        "error": {
                            "message": f"Unknown path {self.path}",
                            "type": "invalid_request_error",
                            "param": None,
                            "code": None,
                        }
                    },
                )
                return
            if not self._authorized():
                return
            model = body.get("model", "")
            if model not in server.models:
                self._error(404, model=model)
                return
            reply = server._next(body)
            if reply.delay:
                time.sleep(reply.delay)
            if reply.status != 200:
                self._error(reply.status, model=model)
                return
            if body.get("stream"):
                self._stream(
                    model, reply, bool((body.get("stream_options") or {}).get("include_usage"))
                )
            else:
                self._json(200, _completion(model, reply))

        def _stream(self, model: str, reply: Reply, usage: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for chunk in _chunks(model, reply, usage):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                    if reply.token_delay:
                        time.sleep(reply.token_delay)
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):  # the client stopped reading
                pass

    return Handler


_IDS = iter(range(1, 1_000_000))


def _completion(model: str, reply: Reply) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
    return {
        "id": f"chatcmpl-{next(_IDS)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }
        ],
        "usage": _usage(reply),
    }


def _usage(reply: Reply) -> dict:
    out = len(_tokens(reply.content)) + 5 * len(reply.tool_calls)
    return {"prompt_tokens": 10, "completion_tokens": out, "total_tokens": 10 + out}


def _chunks(model: str, reply: Reply, usage: bool):
    base = {
        "id": f"chatcmpl-{next(_IDS)}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
    }

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {
            **base,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }

    yield chunk({"role": "assistant", "content": ""})
    for token in _tokens(reply.content):
        yield chunk({"content": token})
    for i, (name, args) in enumerate(reply.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {
                        "index": i,
                        "id": f"call_{i}",
                        "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }
                ]
            }
        )
        text = json.dumps(args)
        for piece in (text[: len(text) // 2], text[len(text) // 2 :]):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if reply.tool_calls else "stop")
    if usage:
        yield {**base, "choices": [], "usage": _usage(reply)}
