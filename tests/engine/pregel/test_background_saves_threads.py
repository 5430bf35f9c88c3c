"""Tasks on helper threads save their writes in the background at the same moment: the loop's
list of pending saves stays whole (a fan-out on SQLite under load raised `IndexError: pop from
an empty deque` when two threads forgot the same landed save)."""

import threading
from concurrent.futures import Future

from engine.checkpoint.memory import InMemorySaver
from engine.graph import START, StateGraph
from engine.pregel import saves


class _Saver(InMemorySaver):
    blocks_on_io = True  # saved in the background, as SQLite is


def _loop():
    """The loop invoke would run (set up as invoke sets it up, not run)."""
    builder = StateGraph(dict)
    builder.add_node("a", lambda state: {})
    builder.add_edge(START, "a")
    graph = builder.compile(checkpointer=_Saver())
    config = {"configurable": {"thread_id": "t"}}
    run = graph._prepare_invoke({"x": 1}, config, None, "values", None, None, None, "v1", None)
    assert run.loop._saves_in_background
    return run.loop


def test_another_thread_saving_while_landed_saves_are_forgotten(monkeypatch):
    """Thread A has seen its landed save at the front of the deque when thread B saves and
    forgets the landed ones too; A then pops what is left."""
    loop = _loop()
    landed: list[Future] = []
    other = threading.Thread(target=loop._save, args=("put_writes", *_args(loop)))

    class Landed(Future):
        def exception(self, timeout=None):
            if not landed:  # the first look: another thread saves now
                landed.append(self)
                other.start()
                other.join(0.5)  # (with a lock it waits for A instead)
            return None

    def submit(saver, method, *args):
        future = Landed()
        future.set_result(None)
        return future

    monkeypatch.setattr(saves.background_saves(), "submit", submit)
    loop._save("put_writes", *_args(loop))
    other.join(5)
    assert not other.is_alive()
    loop.flush_saves()


def _args(loop):
    return (loop.checkpoint_config, [("x", 1)], "task")
