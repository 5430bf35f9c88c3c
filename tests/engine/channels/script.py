"""Drive a channel through a script of life-cycle calls and record what each call gives.

A table row of the channel tests is (make, script, expected): `make(backend)` builds the
channel, `script` is a list of calls, `expected` what each call returns. Calls:

- `("update", [writes])` -> the bool `update()` returns
- `"get"` -> the value, or `EMPTY` when `get()` raises EmptyChannelError
- `"checkpoint"` -> the saved value, `MISSING` for an empty channel
- `"available"`, `"consume"`, `"finish"` -> the bool the call returns
- `"restore"` -> `OK`; the channel is replaced by `from_checkpoint(checkpoint())`
- `("from_checkpoint", value)` -> `OK`; the channel is replaced by `from_checkpoint(value)`
  (`MISSING` stands for the backend's own sentinel)
- `"copy"` -> `OK`; the channel is replaced by `copy()`

Writes wrapped in `Ow(value)` reach the channel as the backend's `Overwrite(value)`.

A call that raises gives `(exception class name, message)`; EmptyChannelError gives `EMPTY`.
"""

from __future__ import annotations

from typing import Any

from engine.constants import MISSING as ENGINE_MISSING

EMPTY = "<empty>"
MISSING = "<missing>"
OK = "<ok>"
CALLS = (
    "update",
    "get",
    "checkpoint",
    "available",
    "consume",
    "finish",
    "restore",
    "from_checkpoint",
    "copy",
)


class Ow:
    """Stands for `Overwrite(value)` of the backend a row runs on."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Ow({self.value!r})"


def _writes(backend, values: list) -> list:
    overwrite = backend.types.Overwrite
    return [overwrite(v.value) if isinstance(v, Ow) else v for v in values]


def _backend_missing(backend) -> Any:
    if backend.prefix == "engine":
        return ENGINE_MISSING
    return backend.mod("_internal._typing").MISSING


def _shown(value: Any, missing: Any) -> Any:
    return MISSING if value is missing else value


def check(backend, channel, steps: list) -> None:
    """Assert that each (call, expected) step of a table row gives what it expects."""
    calls = [call for call, _ in steps]
    expected = [want for _, want in steps]
    assert run(backend, channel, calls) == expected


def run(backend, channel, script: list) -> list:
    """What each call of `script` gives on `channel` (see the module docstring)."""
    missing = _backend_missing(backend)
    empty_error = backend.errors.EmptyChannelError
    out = []
    for call in script:
        name, arg = (call, None) if isinstance(call, str) else call
        if name not in CALLS:
            raise ValueError(f"unknown call {name!r}")
        try:
            if name == "update":
                out.append(channel.update(_writes(backend, arg)))
            elif name == "get":
                out.append(channel.get())
            elif name == "checkpoint":
                out.append(_shown(channel.checkpoint(), missing))
            elif name == "available":
                out.append(channel.is_available())
            elif name in ("consume", "finish"):
                out.append(getattr(channel, name)())
            elif name == "restore":
                channel = channel.from_checkpoint(channel.checkpoint())
                out.append(OK)
            elif name == "from_checkpoint":
                channel = channel.from_checkpoint(missing if arg == MISSING else arg)
                out.append(OK)
            else:  # copy
                channel = channel.copy()
                out.append(OK)
        except empty_error:
            out.append(EMPTY)
        except Exception as exc:  # noqa: BLE001  (compared as class name and message)
            out.append((type(exc).__name__, str(exc)))
    return out


def keyed(channel, key: str = "x"):
    """The channel with its state key set, as a compiled graph sets it (errors name the key)."""
    channel.key = key
    return channel
