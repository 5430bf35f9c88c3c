"""The loop's pending writes: a task's new writes replace the ones it recorded before."""

from engine._constants import NULL_TASK_ID, RESUME
from engine.pregel.loop_checkpoints import LoopCheckpoints


class Pending(LoopCheckpoints):
    """Just the pending-writes side of a loop, with no saver."""

    checkpointer = None

    def __init__(self, pending):
        self.checkpoint_pending_writes = pending


def test_a_rerun_replaces_its_writes_and_keeps_the_others():
    loop = Pending([("a", "x", 1), ("b", "x", 2)])
    loop._record_writes("c", [("x", 3)])
    loop._record_writes("a", [("y", 4)])
    assert loop.checkpoint_pending_writes == [("b", "x", 2), ("c", "x", 3), ("a", "y", 4)]
    loop._record_writes("c", [("x", 5)])
    assert loop.checkpoint_pending_writes == [("b", "x", 2), ("a", "y", 4), ("c", "x", 5)]


def test_writes_added_or_a_list_put_in_place_by_others_are_seen():
    loop = Pending([])
    loop._record_writes("a", [("x", 1)])
    loop.checkpoint_pending_writes.append(("b", "x", 2))  # not through _record_writes
    loop._record_writes("b", [("x", 3)])
    assert loop.checkpoint_pending_writes == [("a", "x", 1), ("b", "x", 3)]
    loop.checkpoint_pending_writes = [("d", "x", 4), ("e", "x", 5)]  # same length, new list
    loop._record_writes("d", [("x", 6)])
    assert loop.checkpoint_pending_writes == [("e", "x", 5), ("d", "x", 6)]


def test_the_null_task_keeps_plain_writes_and_replaces_its_resume():
    loop = Pending([(NULL_TASK_ID, "x", 1), (NULL_TASK_ID, RESUME, "old")])
    loop._record_writes(NULL_TASK_ID, [(RESUME, "new"), ("x", 2)])
    assert loop.checkpoint_pending_writes == [
        (NULL_TASK_ID, "x", 1),
        (NULL_TASK_ID, "x", 2),
        (NULL_TASK_ID, RESUME, "new"),
    ]
