"""Differential test: task ids are langgraph's.

A task's id is a hash of its checkpoint's id and its place (namespace, step, node, trigger,
packet index or call index), so the same checkpoint plans the same ids on both. The checkpoints
and pending writes langgraph saved are copied into our saver unchanged; reading the thread back
must plan the tasks under the ids langgraph gave them, and resuming must find the writes of the
tasks that had finished (they do not run again).
"""

import copy
import operator
import re
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver as LgSaver
from langgraph.func import entrypoint, task
from langgraph.graph import START, StateGraph
from langgraph.types import Command, Send, interrupt
from langgraph.types import Interrupt as LgInterrupt

from engine.checkpoint.memory import InMemorySaver as EngineSaver
from engine.func import entrypoint as e_entrypoint
from engine.func import task as e_task
from engine.graph import START as E_START
from engine.graph import StateGraph as EStateGraph
from engine.types import Command as ECommand
from engine.types import Interrupt as EInterrupt
from engine.types import Send as ESend
from engine.types import interrupt as e_interrupt

pytestmark = pytest.mark.differential


class Log(TypedDict):
    log: Annotated[list, operator.add]


def _build(state_graph, start, send, ask, checkpointer):
    def fan(state: Log) -> dict:
        return {"log": ["fan"]}

    def to_workers(state: Log) -> list:
        return [send("work", {"log": [i]}) for i in range(3)]

    def work(state: Log) -> dict:
        return {"log": [ask("go?")]}

    def other(state: Log) -> dict:
        return {"log": ["other"]}

    builder = state_graph(Log)
    builder.add_node("fan", fan)
    builder.add_node("work", work)
    builder.add_node("other", other)
    builder.add_edge(start, "fan")
    builder.add_edge(start, "other")
    builder.add_conditional_edges("fan", to_workers, ["work"])
    return builder.compile(checkpointer=checkpointer)


def _copy_thread(source: LgSaver, target: EngineSaver, config: dict) -> None:
    """langgraph's checkpoints of the thread and their pending writes, oldest first, saved
    into our saver as they are."""
    for saved in reversed(list(source.list(config))):
        put_config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
        if saved.parent_config is not None:
            parent_id = saved.parent_config["configurable"]["checkpoint_id"]
            put_config["configurable"]["checkpoint_id"] = parent_id
        checkpoint = copy.deepcopy(saved.checkpoint)
        values = checkpoint["channel_values"]
        if "__pregel_tasks" in values:  # langgraph's Send packets, as ours
            values["__pregel_tasks"] = [ESend(p.node, p.arg) for p in values["__pregel_tasks"]]
        saved_config = target.put(
            put_config, checkpoint, saved.metadata, checkpoint["channel_versions"]
        )
        by_task: dict[str, list] = {}
        for tid, channel, value in saved.pending_writes or ():
            value = _engine_value(value)
            by_task.setdefault(tid, []).append((channel, value))
        for tid, writes in by_task.items():
            target.put_writes(saved_config, writes, tid)


def _engine_value(value):
    """langgraph's Send packets and Interrupt records in a pending write, as ours."""
    if isinstance(value, Send):
        return ESend(value.node, value.arg)
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], LgInterrupt):
        return [EInterrupt(value=i.value, id=i.id) for i in value]
    return value


def test_planned_task_ids_match_langgraph():
    config = {"configurable": {"thread_id": "t"}}
    lg_saver = LgSaver()
    lg_graph = _build(StateGraph, START, Send, interrupt, lg_saver)
    lg_graph.invoke({"log": []}, config)
    lg_history = list(lg_graph.get_state_history(config))

    engine_saver = EngineSaver()
    _copy_thread(lg_saver, engine_saver, config)
    engine_graph = _build(EStateGraph, E_START, ESend, e_interrupt, engine_saver)
    engine_history = list(engine_graph.get_state_history(config))

    def ids(history):
        return [
            (snap.config["configurable"]["checkpoint_id"], [(t.name, t.id) for t in snap.tasks])
            for snap in history
        ]

    expected = ids(lg_history)
    assert any(len(tasks) == 3 for _, tasks in expected), "the fan-out step is in the history"
    assert ids(engine_history) == expected


class Pair(TypedDict):
    log: Annotated[list, operator.add]


def _pair(state_graph, start, ask, checkpointer, ran: list):
    def done(state: Pair) -> dict:
        ran.append("done")
        return {"log": ["done"]}

    def asks(state: Pair) -> dict:
        return {"log": [ask("go?")]}

    builder = state_graph(Pair)
    builder.add_node("done", done)
    builder.add_node("asks", asks)
    builder.add_edge(start, "done")
    builder.add_edge(start, "asks")
    return builder.compile(checkpointer=checkpointer)


def test_resume_of_a_langgraph_thread_keeps_finished_tasks():
    """`done` finished before `asks` was interrupted: its write is found under its id."""
    config = {"configurable": {"thread_id": "t"}}
    lg_saver, lg_ran = LgSaver(), []
    lg_graph = _pair(StateGraph, START, interrupt, lg_saver, lg_ran)
    lg_graph.invoke({"log": []}, config)
    engine_saver, engine_ran = EngineSaver(), []
    _copy_thread(lg_saver, engine_saver, config)
    graph = _pair(EStateGraph, E_START, e_interrupt, engine_saver, engine_ran)

    expected = lg_graph.invoke(Command(resume="yes"), config)
    assert graph.invoke(ECommand(resume="yes"), config) == expected == {"log": ["yes", "done"]}
    assert lg_ran == ["done"] and engine_ran == []


def _workflow(entry, make_task, ask, checkpointer, ran: list):
    @make_task
    def double(x: int) -> int:
        ran.append(x)
        return 2 * x

    @entry(checkpointer=checkpointer)
    def flow(n: int) -> dict:
        first = double(n).result()
        second = double(first).result()
        return {"result": second, "answer": ask("go?")}

    return flow


def test_resume_of_a_langgraph_workflow_keeps_finished_calls():
    """The functional API's call tasks: their ids depend on the caller's path and the call's
    index, so the calls made before the interrupt are not made again."""
    config = {"configurable": {"thread_id": "t"}}
    lg_saver, lg_ran = LgSaver(), []
    _workflow(entrypoint, task, interrupt, lg_saver, lg_ran).invoke(3, config)
    engine_saver, engine_ran = EngineSaver(), []
    _copy_thread(lg_saver, engine_saver, config)
    flow = _workflow(e_entrypoint, e_task, e_interrupt, engine_saver, engine_ran)

    assert flow.invoke(ECommand(resume="ok"), config) == {"result": 12, "answer": "ok"}
    assert lg_ran == [3, 6] and engine_ran == []


def _namespaces(entry, make_task, get_config) -> list[str]:
    seen: list[str] = []

    @make_task
    def inner(x: int) -> int:
        seen.append(get_config()["configurable"]["checkpoint_ns"])
        return x

    @make_task
    def outer(x: int) -> int:
        seen.append(get_config()["configurable"]["checkpoint_ns"])
        return inner(x).result()

    @entry()
    def flow(n: int) -> int:
        return outer(n).result()

    flow.invoke(1)
    # the task ids in a namespace differ run to run (they hash the checkpoint id)
    return [re.sub(r":[0-9a-f-]{36}", ":<id>", ns) for ns in seen]


def test_a_call_runs_under_its_callers_namespace():
    from langgraph.config import get_config

    from engine.config import get_config as e_get_config

    expected = _namespaces(entrypoint, task, get_config)
    assert expected == ["flow:<id>|outer:<id>", "flow:<id>|outer:<id>|inner:<id>"]
    assert _namespaces(e_entrypoint, e_task, e_get_config) == expected
