"""RemoteGraph: a graph that runs on a LangGraph server, reached through langgraph_sdk.

It offers the local graph interface (invoke, stream, state access, drawing), so it can run on
its own or as a node of a local graph. As a node it relays the remote run's stream parts into
the caller's stream (under the caller's namespace) and turns a remote interrupt into a local
GraphInterrupt, so the parent pauses and can be resumed with Command(resume=...).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Generator, Iterator, Sequence
from typing import Any

from langchain_core.runnables.graph import Edge as DrawableEdge
from langchain_core.runnables.graph import Graph as DrawableGraph
from langchain_core.runnables.graph import Node as DrawableNode

from engine._constants import (
    CHECKPOINT_COORDINATE_KEYS,
    CONF,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_STREAM,
    CONFIG_KEY_TASK_ID,
)
from engine.pregel._remote_run_stream import _AsyncRemoteGraphRunStream, _RemoteGraphRunStream
from engine.pregel.protocol import PregelProtocol
from engine.pregel.remote_stream import RemoteException, _plain_items, _StreamPlan
from engine.pregel.run_setup import merge_configs
from engine.types import Command, GraphOutput, Interrupt, PregelTask, StateSnapshot

logger = logging.getLogger(__name__)

__all__ = ("RemoteGraph", "RemoteException")

# run-local keys that would address the caller's checkpoints, not the server's; and the
# caller's stream, observer and debugger hook (objects, so never sent)
_LOCAL_ONLY_KEYS = frozenset(
    (
        CONFIG_KEY_STREAM,
        "__superstep_observer",
        "__superstep_task_hook",
        CONFIG_KEY_CHECKPOINT_MAP,
        CONFIG_KEY_CHECKPOINT_ID,
        CONFIG_KEY_CHECKPOINT_NS,
        CONFIG_KEY_TASK_ID,
        "__pregel_strict_resume",
    )
)
# what a v3 remote run takes besides input and config
_V3_SUPPORTED_KWARGS = frozenset({"metadata", "headers"})


def _merge_tracing_headers(headers: dict | None) -> dict | None:
    """`headers` plus the current LangSmith run's distributed-tracing headers, if any."""
    import langsmith as ls

    run = ls.get_current_run_tree()
    if run is None:
        return headers
    tracing = run.to_headers()
    if not headers:
        return tracing
    if "baggage" in headers:
        tracing["baggage"] = f"{headers['baggage']},{tracing['baggage']}"
    headers.update(tracing)
    return headers


def _checkpoint_config(checkpoint: dict) -> dict:
    return {
        CONF: {
            "thread_id": checkpoint["thread_id"],
            "checkpoint_ns": checkpoint["checkpoint_ns"],
            "checkpoint_id": checkpoint["checkpoint_id"],
            "checkpoint_map": checkpoint.get("checkpoint_map", {}),
        }
    }


class RemoteGraph(PregelProtocol):
    """A graph served by the LangGraph server API (a deployment or `langgraph dev`).

    Give `url` (plus `api_key`/`headers`) to build the sdk clients, or pass `client` (async) /
    `sync_client` yourself. `assistant_id` is the assistant id or the graph's name; `name`
    (default: assistant_id) names it as a node of another graph.
    """

    def __init__(
        self,
        assistant_id: str,
        /,
        *,
        url: str | None = None,
        api_key: str | None = None,
        headers: dict[str, str] | None = None,
        client: Any = None,
        sync_client: Any = None,
        config: dict | None = None,
        name: str | None = None,
        distributed_tracing: bool = False,
    ):
        self.assistant_id = assistant_id
        self.name = assistant_id if name is None else name
        self.config = config
        self.distributed_tracing = distributed_tracing
        if url is not None and (client is None or sync_client is None):
            from langgraph_sdk.client import get_client, get_sync_client

            if client is None:
                client = get_client(url=url, api_key=api_key, headers=headers)
            if sync_client is None:
                sync_client = get_sync_client(url=url, api_key=api_key, headers=headers)
        self.client = client
        self.sync_client = sync_client

    # ------------------------------------------------------------------ plumbing
    def _sync(self) -> Any:
        if self.sync_client is None:
            raise ValueError(
                "Sync client is not initialized: please provide `url` or `sync_client` when "
                "initializing `RemoteGraph`."
            )
        return self.sync_client

    def _async(self) -> Any:
        if self.client is None:
            raise ValueError(
                "Async client is not initialized: please provide `url` or `client` when "
                "initializing `RemoteGraph`."
            )
        return self.client

    def copy(self, update: dict[str, Any]) -> RemoteGraph:
        attrs = {**self.__dict__, **update}
        return self.__class__(attrs.pop("assistant_id"), **attrs)

    def with_config(self, config: dict | None = None, **kwargs: Any) -> RemoteGraph:
        return self.copy({"config": merge_configs(self.config, config, kwargs)})

    def _headers(self, headers: dict | None) -> dict | None:
        return _merge_tracing_headers(headers) if self.distributed_tracing else headers

    def _sanitize_config(self, config: dict) -> dict:
        """What of a config the server can take: JSON values, no run-local checkpoint keys."""
        out: dict[str, Any] = {}
        if "recursion_limit" in config:
            out["recursion_limit"] = config["recursion_limit"]
        if "tags" in config:
            out["tags"] = [t for t in config["tags"] if isinstance(t, str)]
        if "metadata" in config:
            out["metadata"] = _plain_items(config["metadata"])
        if CONF in config:
            out[CONF] = _plain_items(config[CONF], _LOCAL_ONLY_KEYS)
        return out

    @staticmethod
    def _get_checkpoint(config: dict | None) -> dict | None:
        if config is None:
            return None
        conf = config[CONF]
        return {k: conf[k] for k in CHECKPOINT_COORDINATE_KEYS if k in conf} or None

    def _run_kwargs(self, input: Any, config: dict | None, plan: _StreamPlan, **extra) -> dict:
        merged = self._sanitize_config(merge_configs(self.config, config))
        command = None
        if isinstance(input, Command):
            command, input = dataclasses.asdict(input), None
        headers = self._headers(extra.pop("headers", None))
        for key in ("context", "interrupt_before", "interrupt_after", "params"):
            extra.setdefault(key, None)
        return {
            "thread_id": merged.get(CONF, {}).pop("thread_id", None),
            "assistant_id": self.assistant_id,
            "input": input,
            "command": command,
            "config": merged,
            "stream_mode": plan.sent,
            "stream_subgraphs": plan.stream_subgraphs,
            "if_not_exists": "create",
            "headers": headers,
            **extra,
        }

    # ------------------------------------------------------------------ drawing
    @staticmethod
    def _drawable(graph: dict) -> DrawableGraph:
        nodes = {}
        for node in graph["nodes"]:
            node_id = str(node["id"])
            data = node.get("data", {})
            name = node.get("name")
            if name is None:
                name = data.get("name", node_id) if isinstance(data, dict) else node_id
            nodes[node_id] = DrawableNode(
                id=node_id, name=name, data=data, metadata=node.get("metadata")
            )
        return DrawableGraph(nodes=nodes, edges=[DrawableEdge(**e) for e in graph["edges"]])

    def get_graph(
        self,
        config: dict | None = None,
        *,
        xray: int | bool = False,
        headers: dict | None = None,
        params: Any = None,
    ) -> DrawableGraph:
        """The server's drawing of the assistant's graph (`GET /assistants/{id}/graph`)."""
        graph = self._sync().assistants.get_graph(
            assistant_id=self.assistant_id, xray=xray, headers=headers, params=params
        )
        return self._drawable(graph)

    async def aget_graph(
        self,
        config: dict | None = None,
        *,
        xray: int | bool = False,
        headers: dict | None = None,
        params: Any = None,
    ) -> DrawableGraph:
        graph = await self._async().assistants.get_graph(
            assistant_id=self.assistant_id, xray=xray, headers=headers, params=params
        )
        return self._drawable(graph)

    # ------------------------------------------------------------------ state
    def _snapshot(self, state: dict) -> StateSnapshot:
        tasks = []
        for task in state["tasks"]:
            if task["state"]:
                sub = self._snapshot(task["state"])
            elif task["checkpoint"]:
                sub = {CONF: task["checkpoint"]}
            else:
                sub = None
            tasks.append(
                PregelTask(
                    id=task["id"],
                    name=task["name"],
                    path=(),
                    error=Exception(task["error"]) if task["error"] else None,
                    interrupts=tuple(Interrupt(**i) for i in task["interrupts"]),
                    state=sub,
                    result=task.get("result"),
                )
            )
        parent = state["parent_checkpoint"]
        return StateSnapshot(
            values=state["values"],
            next=tuple(state["next"] or ()),
            config=_checkpoint_config(state["checkpoint"]),
            metadata=dict(state["metadata"]),
            created_at=state["created_at"],
            parent_config=_checkpoint_config(parent) if parent else None,
            tasks=tuple(tasks),
            interrupts=tuple(i for t in tasks for i in t.interrupts),
        )

    def _state_args(self, config: dict) -> tuple[str, dict | None]:
        merged = merge_configs(self.config, config)
        return merged[CONF]["thread_id"], self._get_checkpoint(merged)

    def get_state(
        self,
        config: dict,
        *,
        subgraphs: bool = False,
        headers: dict | None = None,
        params: Any = None,
    ) -> StateSnapshot:
        """The thread's state, at the checkpoint the config names or the latest."""
        thread_id, checkpoint = self._state_args(config)
        state = self._sync().threads.get_state(
            thread_id=thread_id,
            checkpoint=checkpoint,
            subgraphs=subgraphs,
            headers=headers,
            params=params,
        )
        return self._snapshot(state)

    async def aget_state(
        self,
        config: dict,
        *,
        subgraphs: bool = False,
        headers: dict | None = None,
        params: Any = None,
    ) -> StateSnapshot:
        thread_id, checkpoint = self._state_args(config)
        state = await self._async().threads.get_state(
            thread_id=thread_id,
            checkpoint=checkpoint,
            subgraphs=subgraphs,
            headers=headers,
            params=params,
        )
        return self._snapshot(state)

    def _history_args(self, config, filter, before, limit, headers, params) -> dict:
        thread_id, checkpoint = self._state_args(config)
        return {
            "thread_id": thread_id,
            "limit": limit or 10,
            "before": self._get_checkpoint(before),
            "metadata": filter,
            "checkpoint": checkpoint,
            "headers": headers,
            "params": params,
        }

    def get_state_history(
        self,
        config: dict,
        *,
        filter: dict | None = None,
        before: dict | None = None,
        limit: int | None = None,
        headers: dict | None = None,
        params: Any = None,
    ) -> Iterator[StateSnapshot]:
        """The thread's checkpoints, newest first (10 unless `limit` says otherwise)."""
        args = self._history_args(config, filter, before, limit, headers, params)
        for state in self._sync().threads.get_history(**args):
            yield self._snapshot(state)

    async def aget_state_history(
        self,
        config: dict,
        *,
        filter: dict | None = None,
        before: dict | None = None,
        limit: int | None = None,
        headers: dict | None = None,
        params: Any = None,
    ) -> AsyncIterator[StateSnapshot]:
        args = self._history_args(config, filter, before, limit, headers, params)
        for state in await self._async().threads.get_history(**args):
            yield self._snapshot(state)

    def update_state(
        self,
        config: dict,
        values: Any,
        as_node: str | None = None,
        *,
        headers: dict | None = None,
        params: Any = None,
    ) -> dict:
        """Write `values` to the thread as `as_node` would; the new checkpoint's config."""
        thread_id, checkpoint = self._state_args(config)
        response = self._sync().threads.update_state(
            thread_id=thread_id,
            values=values,
            as_node=as_node,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        return _checkpoint_config(response["checkpoint"])

    async def aupdate_state(
        self,
        config: dict,
        values: Any,
        as_node: str | None = None,
        *,
        headers: dict | None = None,
        params: Any = None,
    ) -> dict:
        thread_id, checkpoint = self._state_args(config)
        response = await self._async().threads.update_state(
            thread_id=thread_id,
            values=values,
            as_node=as_node,
            checkpoint=checkpoint,
            headers=headers,
            params=params,
        )
        return _checkpoint_config(response["checkpoint"])

    # langgraph's RemoteGraph has no bulk update either: the server API takes one update a call
    def bulk_update_state(self, config: dict, updates: Sequence[Any]) -> dict:
        raise NotImplementedError

    async def abulk_update_state(self, config: dict, updates: Sequence[Any]) -> dict:
        raise NotImplementedError

    # ------------------------------------------------------------------ runs
    def _reject_v3_unsupported(
        self, *, control, transformers, interrupt_before, interrupt_after, extra_kwargs
    ) -> None:
        """v3 remote runs take only metadata and headers besides input and config."""
        given = {"control": control, "transformers": transformers}
        given |= {"interrupt_before": interrupt_before, "interrupt_after": interrupt_after}
        for name, value in given.items():
            if value:
                raise NotImplementedError(
                    f"RemoteGraph.stream_events(version='v3') does not support `{name}=`."
                )
        if unknown := set(extra_kwargs) - _V3_SUPPORTED_KWARGS:
            raise NotImplementedError(
                "RemoteGraph.stream_events(version='v3') does not support the following "
                f"kwargs: {sorted(unknown)!r}. Supported: ['headers', 'metadata']."
            )

    def _v3(self, client: Any, input: Any, config: Any, kwargs: dict) -> tuple:
        named = ("control", "transformers", "interrupt_before", "interrupt_after")
        options = {k: kwargs.pop(k, None) for k in named}
        self._reject_v3_unsupported(**options, extra_kwargs=kwargs)
        headers = kwargs.get("headers")
        sent = self._sanitize_config(merge_configs(self.config, config))
        thread = client.threads.stream(
            thread_id=sent.get(CONF, {}).pop("thread_id", None),
            assistant_id=self.assistant_id,
            headers=self._headers(headers),
        )
        return {"sdk_thread": thread, "input": input, "config": sent}, kwargs.get("metadata")

    def stream_events(
        self, input: Any, config: dict | None = None, *, version: str = "v2", **kwargs: Any
    ) -> Any:
        """version="v3": a run stream shaped as a local graph's; others as any Runnable."""
        if version != "v3":
            return super().stream_events(input, config, version=version, **kwargs)
        args, metadata = self._v3(self._sync(), input, config, kwargs)
        return _RemoteGraphRunStream(sync_client=self._sync(), metadata=metadata, **args)

    async def astream_events(
        self, input: Any, config: dict | None = None, *, version: str = "v2", **kwargs: Any
    ) -> Any:
        if version != "v3":
            raise NotImplementedError(
                f"RemoteGraph.astream_events(version={version!r}) is not implemented; use "
                "astream() for v1/v2 streaming or version='v3'."
            )
        args, metadata = self._v3(self._async(), input, config, kwargs)
        return _AsyncRemoteGraphRunStream(client=self._async(), metadata=metadata, **args)

    def stream(
        self,
        input: Any,
        config: dict | None = None,
        *,
        stream_mode: Any = None,
        subgraphs: bool = False,
        version: str = "v1",
        **kwargs: Any,
    ) -> Iterator[Any]:
        """Start a run on the server (on the config's thread, created if missing) and yield
        its parts shaped as a local graph's stream would be."""
        plan = _StreamPlan(stream_mode, config, subgraphs, version)
        run = self._sync().runs.stream(**self._run_kwargs(input, config, plan, **kwargs))
        try:
            for chunk in run:
                yield from plan.relay(chunk)
        finally:
            # end the HTTP stream now, not when a kept traceback lets go of it: the server
            # would keep the thread's run in flight and refuse the next one (a resume)
            if isinstance(run, Generator):
                run.close()

    async def astream(
        self,
        input: Any,
        config: dict | None = None,
        *,
        stream_mode: Any = None,
        subgraphs: bool = False,
        version: str = "v1",
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        plan = _StreamPlan(stream_mode, config, subgraphs, version)
        run = self._async().runs.stream(**self._run_kwargs(input, config, plan, **kwargs))
        try:
            async for chunk in run:
                for out in plan.relay(chunk):
                    yield out
        finally:
            if isinstance(run, AsyncGenerator):
                await run.aclose()

    @staticmethod
    def _final(last: Any, seen: bool, version: str) -> Any:
        if not seen:
            logger.warning("No events received from remote graph")
            return None
        if version == "v2":
            return GraphOutput(value=last["data"], interrupts=tuple(last.get("interrupts", ())))
        return last

    def invoke(
        self, input: Any, config: dict | None = None, *, version: str = "v1", **kwargs: Any
    ) -> Any:
        """Run to the end; the last `values` part (the final state)."""
        last, seen = None, False
        for part in self.stream(input, config, stream_mode="values", version=version, **kwargs):
            last, seen = part, True
        return self._final(last, seen, version)

    async def ainvoke(
        self, input: Any, config: dict | None = None, *, version: str = "v1", **kwargs: Any
    ) -> Any:
        last, seen = None, False
        async for part in self.astream(
            input, config, stream_mode="values", version=version, **kwargs
        ):
            last, seen = part, True
        return self._final(last, seen, version)
