"""A v2 stream part ({type, ns, data[, interrupts]}) as a protocol event."""

from __future__ import annotations

import time
from typing import Any

from engine.stream._types import ProtocolEvent


def convert_to_protocol_event(part: Any) -> ProtocolEvent:
    params: dict[str, Any] = {
        "namespace": list(part["ns"]),
        "timestamp": int(time.time() * 1000),
        "data": part["data"],
    }
    if "interrupts" in part:
        params["interrupts"] = part["interrupts"]
    return {"type": "event", "method": part["type"], "params": params}  # type: ignore[typeddict-item]
