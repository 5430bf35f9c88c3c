"""Pregel: the compiled graph. Runs supersteps (invoke/stream and async twins), reads and
edits thread state (get_state, get_state_history, update_state) and draws itself."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import aclosing
from typing import Any, Generic

from langchain_core._api import beta

from engine._constants import (
    CACHE_NS_WRITES,
    CONF,
    CONFIG_KEY_CHECKPOINTER,
    NS_END,
    TASKS,
)
from engine.channels.base import BaseChannel
from engine.channels.topic import Topic
from engine.checkpoint.base import BaseCheckpointSaver
from engine.managed import is_managed_value
from engine.pregel import lifecycle, schemas
from engine.pregel.chunks import collect, drain
from engine.pregel.protocol import PregelProtocol, load_runnable
from engine.pregel.read import NodeBuilder, PregelNode, cache_identity
from engine.pregel.root_runs import made
from engine.pregel.run_setup import (
    STEP_DONE,
    Run,
    merge_configs,
    prepare_run,
)
from engine.pregel.runner import TaskRunner
from engine.pregel.state import StateAccess
from engine.pregel.stepper import SuperstepStepper, needs_async
from engine.pregel.timeouts import validate_node_timeouts
from engine.pregel.tracing import end_graph_run
from engine.pregel.write import ChannelWrite, ChannelWriteEntry  # noqa: F401  (langgraph.pregel.main exposes them)
from engine.runtime import RunControl
from engine.types import Send, ensure_valid_checkpointer
from engine.typing import ContextT, InputT, OutputT, StateT
from engine.warnings import LangGraphDeprecatedSinceV10

_beta_v3 = beta(message="The v3 streaming protocol on Pregel is experimental.")


class Pregel(
    PregelProtocol[StateT, ContextT, InputT, OutputT],
    StateAccess,
    Generic[StateT, ContextT, InputT, OutputT],
):
    """A graph of PregelNodes communicating through channels, run in supersteps."""

    def __init__(
        self,
        *,
        nodes: Mapping[str, PregelNode | NodeBuilder],
        channels: Mapping[str, BaseChannel | Any] | None,
        input_channels: str | Sequence[str],
        output_channels: str | Sequence[str],
        stream_channels: str | Sequence[str] | None = None,
        stream_mode: str = "values",
        interrupt_before_nodes: Any = (),
        interrupt_after_nodes: Any = (),
        checkpointer: Any = None,
        store: Any = None,
        cache: Any = None,
        retry_policy: Any = (),
        cache_policy: Any = None,
        context_schema: Any = None,
        config: dict | None = None,
        name: str = "LangGraph",
        debug: bool = False,
        trigger_to_nodes: Mapping[str, Sequence[str]] | None = None,
        stream_transformers: Sequence[Any] | None = None,
        step_timeout: float | None = None,
        **deprecated: Any,
    ) -> None:
        if (config_type := deprecated.get("config_type")) is not None:
            warnings.warn(
                "`config_type` is deprecated and will be removed. "
                "Please use `context_schema` instead.",
                category=LangGraphDeprecatedSinceV10,
                stacklevel=2,
            )
            context_schema = context_schema or config_type
        self.nodes = {k: v.build() if isinstance(v, NodeBuilder) else v for k, v in nodes.items()}
        if deprecated.get("auto_validate", True):
            validate_node_timeouts(self.nodes)
        self.channels: dict[str, BaseChannel] = {}
        self.managed: dict[str, Any] = {}
        for key, spec in (channels or {}).items():
            if is_managed_value(spec):
                self.managed[key] = spec
            else:
                self.channels[key] = spec
        # keys stay as given: only StateGraph names its state channels (error messages say
        # "At key ''" for a hand-built channel, as langgraph's do)
        self.channels.setdefault(TASKS, Topic(Send, accumulate=False))
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.stream_channels = stream_channels
        self.stream_mode = stream_mode
        self.interrupt_before_nodes = interrupt_before_nodes
        self.interrupt_after_nodes = interrupt_after_nodes
        self.checkpointer = ensure_valid_checkpointer(checkpointer)
        self.store = store
        self.cache = cache
        self.retry_policy = (
            (retry_policy,) if hasattr(retry_policy, "max_attempts") else retry_policy
        )
        self.cache_policy = cache_policy
        self.context_schema = context_schema
        self.config = config
        self.name = name
        self.debug = debug
        # seconds a superstep may take: then its running tasks are cancelled, TimeoutError
        self.step_timeout = step_timeout
        self.trigger_to_nodes = trigger_to_nodes or self._trigger_map()
        # transformer factories every stream_events(version="v3") run adds to its mux
        self.stream_transformers: tuple[Any, ...] = tuple(stream_transformers or ())
        made(self)  # (a debugger running a script sees the graphs it makes: root_runs)

    def _trigger_map(self) -> dict[str, list[str]]:
        mapping: dict[str, list[str]] = {}
        for name, node in self.nodes.items():
            for trigger in node.triggers:
                mapping.setdefault(trigger, []).append(name)
        return mapping

    @property
    def stream_channels_asis(self) -> str | Sequence[str]:
        if self.stream_channels is not None:
            return self.stream_channels
        return [k for k in self.channels if k != TASKS and not k.startswith("branch:")]

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        """The graph's name, with `suffix` joined as langchain's Runnables join it."""
        name = name or self.name
        if not suffix:
            return name
        return name + suffix.title() if name[:1].isupper() else f"{name}_{suffix.lower()}"

    # ------------------------------------------------------------------ schemas
    @property
    def InputType(self) -> Any:
        if isinstance(self.input_channels, str):
            return self.channels[self.input_channels].UpdateType
        return Any

    @property
    def OutputType(self) -> Any:
        if isinstance(self.output_channels, str):
            return self.channels[self.output_channels].ValueType
        return Any

    def get_input_schema(self, config: dict | None = None) -> Any:
        if isinstance(self.input_channels, str):
            return schemas.root_model(self.get_name("Input"), self.InputType)
        keys = self.input_channels or list(self.channels)
        return schemas.channels_model(self.get_name("Input"), self.channels, keys, value=False)

    def get_output_schema(self, config: dict | None = None) -> Any:
        if isinstance(self.output_channels, str):
            return schemas.root_model(self.get_name("Output"), self.OutputType)
        return schemas.channels_model(
            self.get_name("Output"), self.channels, self.output_channels, value=True
        )

    def get_input_jsonschema(self, config: dict | None = None) -> dict[str, Any]:
        return self.get_input_schema(config).model_json_schema()

    def get_output_jsonschema(self, config: dict | None = None) -> dict[str, Any]:
        return self.get_output_schema(config).model_json_schema()

    def config_schema(self, *, include: Sequence[str] | None = None) -> Any:
        warnings.warn(
            "`config_schema` is deprecated. "
            "Use `get_context_jsonschema` for the relevant schema instead.",
            category=LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        from pydantic import create_model

        fields: dict[str, Any] = {}
        if self.context_schema:
            fields["configurable"] = (self.context_schema, None)
        fields.update({key: (Any, None) for key in include or ()})
        return create_model(self.get_name("Config"), **fields)

    def get_config_jsonschema(self, *, include: Sequence[str] | None = None) -> dict[str, Any]:
        warnings.warn(
            "`get_config_jsonschema` is deprecated. Use `get_context_jsonschema` instead.",
            category=LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=LangGraphDeprecatedSinceV10)
            return self.config_schema(include=include).model_json_schema()

    def get_context_jsonschema(self) -> dict[str, Any] | None:
        return schemas.context_jsonschema(self.context_schema)

    def copy(self, update: dict[str, Any] | None = None) -> Pregel:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(update or {})
        return new

    def with_config(self, config: dict | None = None, **kwargs: Any) -> Pregel:
        merged = merge_configs(self.config, config, kwargs)
        return self.copy({"config": merged})

    # ------------------------------------------------------------------ setup
    def _migrate_checkpoint(self, checkpoint: dict[str, Any]) -> None:
        """Read, in place, a checkpoint saved by an older langgraph in today's form: before v4
        the Sends waiting for the next step were kept apart, as `pending_sends`."""
        if checkpoint["v"] < 4 and checkpoint.get("pending_sends"):
            checkpoint["channel_values"][TASKS] = checkpoint.pop("pending_sends")
            checkpoint["channel_versions"][TASKS] = max(checkpoint["channel_versions"].values())

    def _saver(self, config: dict) -> BaseCheckpointSaver | None:
        if self.checkpointer is False:
            return None
        if isinstance(self.checkpointer, BaseCheckpointSaver):
            return self.checkpointer
        return config[CONF].get(CONFIG_KEY_CHECKPOINTER)

    def _prepare(self, input: Any, config: dict | None, **options: Any) -> Run:
        return prepare_run(self, input, config, **options)

    # ------------------------------------------------------------------ sync run
    def _run(self, run: Run, mark_steps: bool = False) -> Iterator[Any]:
        loop, queue = run.loop, run.queue
        runner = TaskRunner(loop, loop.config.get("max_concurrency"), self.step_timeout)
        graph_handlers = lifecycle.attach(loop, run.run_manager, asynchronous=False)
        try:
            loop.first()
            lifecycle.dispatch(loop, graph_handlers)
            yield from drain(run)
            while loop.tick():
                if queue:
                    yield from drain(run)
                for _ in runner.tick(loop.runnable_tasks(), run.wake):
                    if queue:
                        yield from drain(run)
                loop.after_tick()
                if graph_handlers is not None:
                    lifecycle.dispatch(loop, graph_handlers)
                if queue:
                    yield from drain(run)
                if mark_steps:
                    yield STEP_DONE
            loop.finish(None)
        except BaseException as exc:
            if not loop.finish(exc):
                end_graph_run(run.run_manager, None, exc)
                raise
        lifecycle.dispatch(loop, graph_handlers)
        end_graph_run(run.run_manager, loop.output, None)
        yield from drain(run)

    def stream(
        self,
        input: Any,
        config: dict | None = None,
        *,
        context: Any = None,
        stream_mode: Any = None,
        print_mode: Any = (),
        output_keys: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: Any = None,
        subgraphs: bool = False,
        debug: bool | None = None,
        version: str = "v1",
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Iterator[Any]:
        durability = _checkpoint_during(durability, kwargs)
        run = self._prepare(
            input,
            config,
            context=context,
            stream_mode=stream_mode,
            output_keys=output_keys,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            subgraphs=subgraphs,
            version=version,
            durability=durability,
            control=control,
            print_mode=print_mode,
            debug=debug,
        )
        yield from self._run(run)

    def invoke(
        self,
        input: Any,
        config: dict | None = None,
        *,
        context: Any = None,
        stream_mode: Any = "values",
        print_mode: Any = (),
        output_keys: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: Any = None,
        version: str = "v1",
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Any:
        durability = _checkpoint_during(durability, kwargs, at_caller=False)
        run = self._prepare_invoke(
            input,
            config,
            context,
            stream_mode,
            output_keys,
            interrupt_before,
            interrupt_after,
            version,
            durability,
            control,
            print_mode=print_mode,
        )
        return collect(self._run(run), stream_mode, version, run)

    def _prepare_invoke(
        self,
        input,
        config,
        context,
        stream_mode,
        output_keys,
        interrupt_before,
        interrupt_after,
        version,
        durability,
        control=None,
        asynchronous=False,
        print_mode=(),
    ) -> Run:
        # v1 finds interrupts in the updates stream; v2 values parts carry them
        final_values = stream_mode == "values"
        modes = ["updates", "values"] if final_values and version != "v2" else stream_mode
        return self._prepare(
            input,
            config,
            context=context,
            stream_mode=modes,
            output_keys=output_keys if output_keys is not None else self.output_channels,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            subgraphs=False,
            version=version,
            updates_for_interrupts_only=final_values,
            durability=durability,
            control=control,
            asynchronous=asynchronous,
            eager=False,  # the caller reads the output at the end, not while tasks run
            print_mode=print_mode,
        )

    # ------------------------------------------------------------------ async run
    async def _arun(self, run: Run, mark_steps: bool = False) -> AsyncIterator[Any]:
        loop = run.loop
        runner = TaskRunner(loop, loop.config.get("max_concurrency"), self.step_timeout)
        graph_handlers = lifecycle.attach(loop, run.run_manager, asynchronous=True)
        try:
            await loop.aload()
            loop.first()
            await lifecycle.adispatch(loop, graph_handlers)
            for chunk in drain(run):
                yield chunk
            while loop.tick():
                # closed at once when the caller stops reading: its running tasks are cancelled
                # now, not when the event loop finalizes the abandoned generator
                async with aclosing(runner.atick(loop.runnable_tasks(), run.wake)) as ticks:
                    async for _ in ticks:
                        for chunk in drain(run):
                            yield chunk
                loop.after_tick()
                await lifecycle.adispatch(loop, graph_handlers)
                if loop.durability == "sync":
                    await loop.aflush_saves()
                for chunk in drain(run):
                    yield chunk
                if mark_steps:
                    yield STEP_DONE
            await loop.afinish(None)
        except BaseException as exc:
            if not await loop.afinish(exc):
                end_graph_run(run.run_manager, None, exc)
                raise
        await lifecycle.adispatch(loop, graph_handlers)
        end_graph_run(run.run_manager, loop.output, None)
        for chunk in drain(run):
            yield chunk

    async def astream(
        self,
        input: Any,
        config: dict | None = None,
        *,
        context: Any = None,
        stream_mode: Any = None,
        print_mode: Any = (),
        output_keys: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: Any = None,
        subgraphs: bool = False,
        debug: bool | None = None,
        version: str = "v1",
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        durability = _checkpoint_during(durability, kwargs)
        run = self._prepare(
            input,
            config,
            context=context,
            stream_mode=stream_mode,
            output_keys=output_keys,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            subgraphs=subgraphs,
            version=version,
            durability=durability,
            control=control,
            asynchronous=True,
            print_mode=print_mode,
            debug=debug,
        )
        async with aclosing(self._arun(run)) as chunks:  # see _arun: closed when left
            async for chunk in chunks:
                yield chunk

    async def ainvoke(
        self,
        input: Any,
        config: dict | None = None,
        *,
        context: Any = None,
        stream_mode: Any = "values",
        print_mode: Any = (),
        output_keys: Any = None,
        interrupt_before: Any = None,
        interrupt_after: Any = None,
        durability: Any = None,
        version: str = "v1",
        control: RunControl | None = None,
        **kwargs: Any,
    ) -> Any:
        durability = _checkpoint_during(durability, kwargs, at_caller=False)
        run = self._prepare_invoke(
            input,
            config,
            context,
            stream_mode,
            output_keys,
            interrupt_before,
            interrupt_after,
            version,
            durability,
            control,
            asynchronous=True,
            print_mode=print_mode,
        )
        chunks = [c async for c in self._arun(run)]
        return collect(chunks, stream_mode, version, run)

    # ------------------------------------------------------------------ v3 event streams
    def stream_events(
        self, input: Any, config: dict | None = None, *, version: str = "v2", **kwargs: Any
    ) -> Any:
        """`version="v3"`: a GraphRunStream the caller iterates to drive the run; other
        versions are langchain's Runnable event streams."""
        if version != "v3":
            load_runnable()  # Runnable's own event stream
            return super().stream_events(input, config, version=version, **kwargs)
        from engine.stream._v3 import reject_v3_invariant_kwargs

        reject_v3_invariant_kwargs(kwargs)
        return self._pregel_stream_v3(input, config, **kwargs)

    def astream_events(
        self, input: Any, config: dict | None = None, *, version: str = "v2", **kwargs: Any
    ) -> Any:
        """`version="v3"`: an awaitable of an AsyncGraphRunStream; see `stream_events`."""
        if version != "v3":
            load_runnable()
            return super().astream_events(input, config, version=version, **kwargs)
        from engine.stream._v3 import reject_v3_invariant_kwargs

        reject_v3_invariant_kwargs(kwargs)
        return self._apregel_stream_v3(input, config, **kwargs)

    @_beta_v3
    def _pregel_stream_v3(
        self, input: Any, config: dict | None = None, *, transformers: Any = None, **kwargs: Any
    ) -> Any:
        from engine.pregel import stream_v3
        from engine.stream.run_stream import GraphRunStream

        mux = stream_v3.build_mux(self, config, transformers, is_async=False)
        inner = self.stream(input, **stream_v3.inner_stream_kwargs(config, mux, kwargs))
        return GraphRunStream(iter(inner), mux)

    @_beta_v3
    async def _apregel_stream_v3(
        self, input: Any, config: dict | None = None, *, transformers: Any = None, **kwargs: Any
    ) -> Any:
        from engine.pregel import stream_v3
        from engine.stream.run_stream import AsyncGraphRunStream

        mux = stream_v3.build_mux(self, config, transformers, is_async=True)
        inner = self.astream(input, **stream_v3.inner_stream_kwargs(config, mux, kwargs))
        return AsyncGraphRunStream(inner.__aiter__(), mux)

    # ------------------------------------------------------------------ cache
    def clear_cache(self, nodes: Sequence[str] | None = None) -> None:
        """Forget the cached writes of `nodes` (all nodes by default)."""
        self._cache_or_raise().clear(self._cache_namespaces(nodes))

    async def aclear_cache(self, nodes: Sequence[str] | None = None) -> None:
        await self._cache_or_raise().aclear(self._cache_namespaces(nodes))

    def _cache_or_raise(self) -> Any:
        if not self.cache:
            raise ValueError("No cache is set for this graph. Cannot clear cache.")
        return self.cache

    def _cache_namespaces(self, nodes: Sequence[str] | None) -> list[tuple[str, str]]:
        return [
            (CACHE_NS_WRITES, cache_identity(self.nodes[node].bound), node)
            for node in nodes or self.nodes
            if node in self.nodes
        ]

    # ------------------------------------------------------------------ step by step
    def stepper(
        self,
        input: Any,
        config: dict | None = None,
        *,
        context: Any = None,
        stream_mode: Any = ("updates", "values"),
        durability: str | None = None,
        asynchronous: bool | None = None,
    ) -> SuperstepStepper:
        """Run one superstep per `step()` call, recording the structured trace of each. The run
        is driven through the async API (on an event loop of its own) when `asynchronous`, or,
        by default, when a node can only run async."""
        return SuperstepStepper(
            self, input, config, context=context, stream_mode=stream_mode, durability=durability,
            asynchronous=needs_async(self) if asynchronous is None else asynchronous,
        )  # fmt: skip

    # ------------------------------------------------------------------ drawing
    def get_graph(self, config: dict | None = None, *, xray: int | bool = False) -> Any:
        from engine.pregel.draw import draw_pregel_graph

        return draw_pregel_graph(self, config, xray)

    async def aget_graph(self, config: dict | None = None, *, xray: int | bool = False) -> Any:
        return self.get_graph(config, xray=xray)


def _normalize_stream_transformer_factories(specs: Any) -> list[Any]:
    from engine.stream._v3 import normalize_factories

    return normalize_factories(specs)


def _resolve_parent_ns(graph_config: dict | None, call_config: dict | None) -> tuple[str, ...]:
    from engine.pregel.stream_v3 import resolve_parent_ns

    return resolve_parent_ns(graph_config, call_config)


__all__ = ["Pregel", "SuperstepStepper", "NS_END"]


def _checkpoint_during(durability: Any, kwargs: dict[str, Any], at_caller: bool = True) -> Any:
    """langgraph < 1.0's `checkpoint_during=` flag as a durability. The warning points where
    langgraph's does: at the program's stream()/astream() call, but inside the library for
    invoke()/ainvoke() (langgraph's go through its own stream), so a script shows it only there."""
    if (checkpoint_during := kwargs.get("checkpoint_during")) is None:
        return durability
    warnings.warn(
        "`checkpoint_during` is deprecated and will be removed. Please use `durability` instead.",
        category=LangGraphDeprecatedSinceV10,
        stacklevel=3 if at_caller else 2,
    )
    if durability is not None:
        raise ValueError(
            "Cannot use both `checkpoint_during` and `durability` parameters. "
            "Please use `durability` instead."
        )
    return "async" if checkpoint_during else "exit"
