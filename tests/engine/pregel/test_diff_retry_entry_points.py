"""langgraph's private retry entry points (`langgraph.pregel._retry.run_with_retry` and
`arun_with_retry`, a server's executor calls them) and the timed attempt's guarded config: the
same names at the same paths, behaving the same on the engine, whose runner they go through.

A langgraph task's proc runs the node and its writers in one call and returns the output; its
`writers` only apply a Command raised for the task's own graph."""

from __future__ import annotations

import asyncio
from collections import deque

import pytest

pytestmark = pytest.mark.differential


def _task(b, proc, *, name="n", timeout=None, retry_policy=(), writers=()):
    c = b.mod("_internal._constants")
    runtime = b.runtime.DEFAULT_RUNTIME.override(execution_info=None)
    writes: deque = deque()
    config = {
        "run_id": "run-1",
        "configurable": {
            c.CONFIG_KEY_RUNTIME: runtime,
            c.CONFIG_KEY_CHECKPOINT_ID: "cp",
            c.CONFIG_KEY_CHECKPOINT_NS: f"{name}:tid",
            c.CONFIG_KEY_SEND: writes.extend,
            c.CONFIG_KEY_TASK_ID: "tid",
            c.CONFIG_KEY_THREAD_ID: "thr",
        },
    }
    return b.types.PregelExecutableTask(
        name=name,
        input="in",
        proc=proc,
        writes=writes,
        config=config,
        triggers=[name],
        retry_policy=retry_policy,
        cache_key=None,
        id="tid",
        path=("__pregel_pull", name),
        writers=writers,
        timeout=b.mod("_internal._timeout").coerce_timeout_policy(timeout),
    )


def _info(config) -> tuple:
    info = config["configurable"]["__pregel_runtime"].execution_info
    return (info.node_attempt, info.task_id, info.thread_id, info.run_id, info.checkpoint_ns)


def test_run_with_retry_retries_a_langgraph_task_and_returns_its_output(backend):
    retry = backend.mod("pregel._retry")
    seen = []

    class Flaky:
        def invoke(self, input, config):
            seen.append((input, *_info(config)))
            config["configurable"]["__pregel_send"]([("x", len(seen))])
            if len(seen) < 3:
                raise ValueError(f"try {len(seen)}")
            return "ok"

    policy = backend.types.RetryPolicy(initial_interval=0, jitter=False, retry_on=ValueError)
    task = _task(backend, Flaky())
    # the task's own policy is empty: the one given applies
    assert retry.run_with_retry(task, [policy]) == "ok"
    assert seen == [("in", n, "tid", "thr", "run-1", "n:tid") for n in (1, 2, 3)]
    assert list(task.writes) == [("x", 3)]  # each attempt's writes replace the last's

    failing = _task(backend, Flaky(), retry_policy=[backend.types.RetryPolicy(max_attempts=1)])
    seen.clear()
    with pytest.raises(ValueError, match="try 1") as caught:
        retry.run_with_retry(failing, [policy])
    assert caught.value.__notes__ == ["During task with name 'n' and id 'tid'"]


def test_a_command_for_the_own_graph_goes_through_the_writers(backend):
    retry = backend.mod("pregel._retry")
    types, errors = backend.types, backend.errors
    applied = []

    class Writer:
        def invoke(self, value, config):
            applied.append(value.update)

    class Commands:
        def __init__(self, graph):
            self.graph = graph

        def invoke(self, input, config):
            raise errors.ParentCommand(types.Command(graph=self.graph, update={"v": 1}))

    own = _task(backend, Commands("n"), writers=[Writer()])
    assert retry.run_with_retry(own, None) is None
    assert applied == [{"v": 1}]
    parent = _task(backend, Commands(types.Command.PARENT), writers=[Writer()])
    with pytest.raises(errors.ParentCommand) as caught:
        retry.run_with_retry(parent, None)
    assert caught.value.args[0].graph == "" and applied == [{"v": 1}]


def test_arun_with_retry_times_attempts_and_drains_streams(backend):
    retry = backend.mod("pregel._retry")
    types, errors = backend.types, backend.errors

    class SlowOnce:
        calls = 0

        async def ainvoke(self, input, config):
            SlowOnce.calls += 1
            if SlowOnce.calls == 1:
                config["configurable"]["__pregel_send"]([("x", "stale")])
                await asyncio.sleep(0.5)
            return "ok"

    policy = types.RetryPolicy(initial_interval=0, jitter=False, retry_on=errors.NodeTimeoutError)
    timed = _task(backend, SlowOnce(), timeout=types.TimeoutPolicy(idle_timeout=0.05))
    assert asyncio.run(retry.arun_with_retry(timed, [policy])) == "ok"
    assert (SlowOnce.calls, list(timed.writes)) == (2, [])

    class Yields:
        async def astream(self, input, config):
            for i in range(3):
                await asyncio.sleep(0.03)  # 0.09 s in all: only the chunks keep it alive
                yield i
            config["configurable"]["__pregel_send"]([("__return__", "value")])

    streamed = _task(backend, Yields(), timeout=types.TimeoutPolicy(idle_timeout=0.06))
    assert asyncio.run(retry.arun_with_retry(streamed, None, stream=True)) == "value"

    class Sync:
        def invoke(self, input, config):
            raise AssertionError("not run")

    with pytest.raises(ValueError, match="only supported for async nodes"):
        retry.run_with_retry(_task(backend, Sync(), timeout=1.0), None)
    PregelNode = backend.mod("pregel._read").PregelNode
    with pytest.raises(ValueError, match="greater than 0"):
        PregelNode(channels="x", triggers=["x"], timeout=0)


def test_the_timed_scope_guards_the_attempts_config(backend):
    retry = backend.mod("pregel._retry")
    StreamProtocol = backend.mod("pregel.protocol").StreamProtocol
    scope = retry._TimedAttemptScope()
    locked = []

    def record(*args):
        locked.append(scope._lock.locked())
        return "called"

    stream = StreamProtocol(record, {"custom"})
    guarded_stream = scope._guard_stream(stream)
    assert guarded_stream.modes == {"custom"}
    # only sends hold the lock, so a timed-out attempt's late writes cannot land
    scope._guard_send(record)([("x", 1)])
    guarded_stream(((), "custom", 1))
    assert scope._guard_call(record)() == "called"
    scope._guard_stream_writer(record)("chunk")
    assert locked == [True, False, False, False]
    scope.close()
    scope._guard_send(record)([("x", 1)])
    guarded_stream(((), "custom", 1))
    scope._guard_stream_writer(record)("chunk")
    with pytest.raises(asyncio.CancelledError):
        scope._guard_call(record)()
    assert len(locked) == 4
