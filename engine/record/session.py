"""ReplaySession: answers a run's chat-model and tool calls from a recording.

A call is matched by its node (namespace path without task ids), its place in that node's
order of calls, and its input hash. The next recorded call of the node answers it when the
hashes agree; failing that, another unused recorded call of the node with the same hash does
(parallel tasks may call in another order). A call whose input changed is flagged, and the
`on_change` policy decides: `fail` raises ReplayMismatch, `live` calls the real model or tool,
`recorded` serves the next recorded output anyway. A call with nothing recorded for its node
goes live under `live` and fails otherwise. Kinds not in `serve` always run live.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from engine.record import codec
from engine.record.store import RecordedCall

POLICIES = ("fail", "live", "recorded")
KINDS = ("model", "tool")
"""What a replay serves by default: chat-model and tool calls (`serve=("model",)` runs the
tools' code live, so a change to a tool shows in the replay)."""
CONFIG_KEY_REPLAY = "__superstep_replay"
"""The ReplaySession of a replaying run, in the configurable every task's config copies."""


class ReplayMismatch(Exception):
    """A replayed call's input is not what was recorded (and the policy is `fail`)."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision
        super().__init__(decision.describe())


@dataclass(frozen=True)
class Decision:
    """How one call of the replay was answered."""

    kind: str
    node: str
    index: int
    """The call's place among its node's calls in this replay (0 first)."""
    status: str
    """`recorded`; `changed:live|recorded|fail` (input differs); `unrecorded:live|fail`."""
    input: Any
    """The call's input now (model messages or tool arguments, as codec JSON)."""
    recorded: RecordedCall | None = None

    @property
    def changed(self) -> bool:
        return self.status != "recorded"

    def describe(self) -> str:
        what = f"{_ordinal(self.index + 1)} {self.kind} call of node {self.node!r}"
        if self.recorded is None:
            return f"replay: the {what} was not in the recording ({self.status})"
        then = codec.decode(_json(self.recorded.input))
        return (f"replay: the {what} has another input than recorded ({self.status}):\n"
                f"{input_diff(then, self.input)}")  # fmt: skip


class ReplaySession:
    """The recorded calls of a run, served once each, thread-safely."""

    def __init__(self, calls: list[RecordedCall], on_change: str = "fail", *,
                 serve: tuple[str, ...] = KINDS) -> None:  # fmt: skip
        if on_change not in POLICIES:
            raise ValueError(f"on_change must be one of {', '.join(POLICIES)}, not {on_change!r}")
        self.on_change = on_change
        self.serve = tuple(serve)
        self._queues: dict[tuple[str, str], list[RecordedCall]] = defaultdict(list)
        for call in calls:
            if call.error is None and call.output is not None and call.kind in self.serve:
                self._queues[(call.kind, call.node)].append(call)
        self._used: set[tuple[str, int]] = set()
        self._count: dict[tuple[str, str], int] = defaultdict(int)
        self._lock = threading.Lock()
        self.decisions: list[Decision] = []
        self._claimed: set[int] = set()

    def answer(self, kind: str, node: str, essence: dict) -> tuple[Decision, Any]:
        """The decision for a call and, unless it goes live, the recorded output (decoded)."""
        digest = codec.input_hash(essence)
        if kind not in self.serve:  # this kind runs live, unrecorded calls or not
            return Decision(kind, node, -1, "live", codec.encode(essence)), None
        with self._lock:
            key = (kind, node)
            index = self._count[key]
            self._count[key] += 1
            unused = [c for c in self._queues[key] if (c.thread_id, c.seq) not in self._used]
            match = next((c for c in unused if c.input_hash == digest), None)
            if match is not None:
                status, served = "recorded", match
            elif not unused:
                status, served = (
                    f"unrecorded:{'live' if self.on_change == 'live' else 'fail'}",
                    None,
                )
            else:  # the node's next call in order answers, if the policy lets it
                status, served = f"changed:{self.on_change}", unused[0]
            if served is not None:  # a live call takes the recorded one's place
                self._used.add((served.thread_id, served.seq))
            decision = Decision(kind, node, index, status, codec.encode(essence), served)
            self.decisions.append(decision)
        if status.endswith("fail"):
            raise ReplayMismatch(decision)
        if status in ("recorded", "changed:recorded"):
            return decision, codec.decode(_json(served.output))
        return decision, None

    def claim(self, kind: str, node: str, input_hash: str) -> str | None:
        """The status of the first unclaimed decision for this call (the recorder asks it when
        the call ends, to store how it was answered)."""
        with self._lock:
            for i, d in enumerate(self.decisions):
                if (i not in self._claimed and (d.kind, d.node) == (kind, node)
                        and codec.input_hash(d.input) == input_hash):  # fmt: skip
                    self._claimed.add(i)
                    return d.status
        return None

    def unused(self) -> list[RecordedCall]:
        """Recorded calls no call of the replay took."""
        with self._lock:
            return [c for q in self._queues.values() for c in q
                    if (c.thread_id, c.seq) not in self._used]  # fmt: skip


def session_of(config: dict | None) -> ReplaySession | None:
    return ((config or {}).get("configurable") or {}).get(CONFIG_KEY_REPLAY)


def input_diff(old: Any, new: Any) -> str:
    """Recorded and current input, line by line (a unified diff of their JSON)."""
    import difflib
    import json

    a = json.dumps(codec.encode(old), indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    b = json.dumps(codec.encode(new), indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    lines = difflib.unified_diff(a, b, "recorded", "now", n=1, lineterm="")
    return "\n".join(lines) or "(the same text)"


def _json(text: str | None) -> Any:
    import json

    return json.loads(text) if text is not None else None


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
