"""The short course: twelve lesson templates (`templates/lesson_*.json`), one concept each, in
order, with the text the lecture panel shows beside the graph."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from studio.i18n import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Lesson:
    stem: str
    """The template's file stem (`lesson_01_channels`)."""
    concept: str
    """The concept's key, as the course test checks it (`channel-types`...)."""
    title: str
    """The template's `name`: how an open document is matched to its lesson."""
    text: str


COURSE: tuple[Lesson, ...] = (
    Lesson(
        "lesson_01_channels",
        "channel-types",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 1 · Every state key is a channel"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "compile() turns each state key into a channel whose type is its merge rule. topic "
            "has no reducer: a LastValue, it keeps the last write. notes has the add reducer: a "
            "BinaryOperatorAggregate, each write is added. Toggle the compiled view (F6) to see "
            "each mailbox's type.",
        ),
    ),
    Lesson(
        "lesson_02_versions",
        "channel-versions",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 2 · Channel versions"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "Every channel has a version. A barrier that writes a channel gives it a new one; "
            "a channel nobody wrote keeps its version. Watch count tick at each Barrier.",
        ),
    ),
    Lesson(
        "lesson_03_why_fired",
        "versions-seen",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 3 · Why a node fires"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "Each node remembers the version of each trigger it last ran with (versions_seen). "
            "A Plan runs every node whose trigger is now newer than that. The loop's router "
            "writes branch:to:step again, its version moves past what step saw, so step runs "
            "again; when the router ends the run nothing moves and nothing runs.",
        ),
    ),
    Lesson(
        "lesson_04_branches",
        "branch-channels",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 4 · Edges are channel writes"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "A compiled graph has no edges. An edge to X is a write to the channel branch:to:X; "
            "a conditional edge is a router that writes the one it picks. In Execute, check's "
            "router puts a packet in branch:to:big; at the Barrier it ticks, and big wakes.",
        ),
    ),
    Lesson(
        "lesson_05_barrier",
        "write-barrier",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 5 · The write barrier"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "Tasks of one superstep all read the same snapshot. left writes shared, but the "
            "write waits as a pending packet until the barrier: right, running beside it, still "
            "reads the old value. Only at the Barrier do the packets enter their channels.",
        ),
    ),
    Lesson(
        "lesson_06_reducer",
        "reducer-merge",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 6 · A reducer merges parallel writes"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "Three tasks write items in one superstep. Three packets wait beside the mailbox; "
            "at the Barrier the channel's reducer (add) folds them into one new value, and the "
            "version ticks once.",
        ),
    ),
    Lesson(
        "lesson_07_conflict",
        "lastvalue-conflict",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 7 · A LastValue conflict"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "winner has no reducer, so it is a LastValue channel: one value per superstep. Two "
            "Send tasks of vote write it in the same step; the Barrier cannot choose and raises "
            "InvalidUpdateError on that channel, applying nothing. The fix: give the key a "
            "reducer.",
        ),
    ),
    Lesson(
        "lesson_08_send",
        "send-packets",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 8 · Send packets"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "A Send router writes one packet per city into the tasks Topic (__pregel_tasks). "
            "In the next Plan each packet is a task of its own, with the packet's payload as "
            "its input instead of the state.",
        ),
    ),
    Lesson(
        "lesson_09_command",
        "command-goto",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 9 · Command goto"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "triage returns Command(update=..., goto=...). The goto is a write to "
            "branch:to:billing that the node makes itself while it runs: no edge is drawn, the "
            "compiled view shows its possible destinations dashed.",
        ),
    ),
    Lesson(
        "lesson_10_interrupt",
        "interrupt-resume",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 10 · Interrupt and resume"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "ask calls interrupt(). GraphInterrupt bubbles up out of the task and the run: it "
            "stops before the barrier, the checkpoint keeps the interrupt. Answer in the panel "
            "above the canvas: Command(resume=...) runs ask again from its start, and this time "
            "interrupt() returns the answer.",
        ),
    ),
    Lesson(
        "lesson_11_checkpoints",
        "checkpoints",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 11 · A checkpoint per superstep"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "After each barrier the run saves a checkpoint (the strip under the graph). While "
            "the next step runs, each finished task's writes are saved against that checkpoint "
            "as pending writes: after a crash only the unfinished tasks run again.",
        ),
    ),
    Lesson(
        "lesson_12_subgraph",
        "subgraph-namespaces",
        QT_TRANSLATE_NOOP("lecture.course", "Lesson 12 · Subgraph namespaces"),
        QT_TRANSLATE_NOOP(
            "lecture.course",
            "shout runs a graph of its own inside its task. Its supersteps and checkpoints live "
            "under the namespace shout:<task id>, apart from the parent's; stream(subgraphs=True) "
            "names parts by it.",
        ),
    ),
)


def lesson_for(spec: Any) -> Lesson | None:
    """The lesson a document is (a template opens as an untitled copy: matched by name)."""
    return next((lesson for lesson in COURSE if lesson.title == spec.name), None)
