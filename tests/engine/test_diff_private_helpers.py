"""langgraph's private helpers that LangGraph's own suite and packages built on langgraph call
(config merging, callback managers, node names, field channels): the same names at the same
paths, behaving the same on the engine (issue 31.4)."""

from __future__ import annotations

import asyncio
import warnings
from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Optional,
    Required,
    TypeVar,
    Union,
    get_type_hints,
)  # fmt: skip

import pytest
from langchain_core.callbacks import AsyncCallbackManager, BaseCallbackHandler, CallbackManager
from langchain_core.runnables.config import var_child_runnable_config
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

pytestmark = pytest.mark.differential


class _Handler(BaseCallbackHandler):
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


def test_merge_configs_merges_lc_versions_and_copies_metadata(backend):
    config = backend.mod("_internal._config")
    shared = {"deep": 1}
    first = {"metadata": {"lc_versions": {"pkg-a": "1"}, "nested": shared}, "tags": ["x"]}
    second = {"metadata": {"lc_versions": {"pkg-b": "2"}, "who": "b"}, "tags": ["x", "y"]}
    merged = config.merge_configs(first, None, second, {"metadata": {}})
    assert merged == {
        "metadata": {
            "lc_versions": {"pkg-a": "1", "pkg-b": "2"},
            "nested": {"deep": 1},
            "who": "b",
        },  # fmt: skip
        "tags": ["x", "x", "y"],
        "configurable": {},
    }
    assert merged["metadata"]["nested"] is not shared
    assert first["metadata"]["lc_versions"] == {"pkg-a": "1"}  # inputs untouched
    ensured = config.ensure_config(first, second)
    assert ensured["metadata"]["lc_versions"] == {"pkg-a": "1", "pkg-b": "2"}
    assert ensured["metadata"]["nested"] is not shared


def test_merge_callbacks_of_each_kind(backend):
    merge = backend.mod("_internal._config")._merge_callbacks
    a, b, c = _Handler("a"), _Handler("b"), _Handler("c")
    base_list = [a]
    assert merge(None, None) is None
    assert merge(base_list, None) is base_list
    copied = merge(None, base_list)
    assert copied == [a] and copied is not base_list
    assert merge([a], [b]) == [a, b]
    manager = CallbackManager(handlers=[a], inheritable_handlers=[a])
    from_list = merge(manager, [b])
    assert from_list is not manager and from_list.handlers == [a, b]
    assert from_list.inheritable_handlers == [a, b] and manager.handlers == [a]
    onto_manager = merge([c], CallbackManager(handlers=[b]))
    assert onto_manager.handlers == [b, c] and onto_manager.inheritable_handlers == [c]
    both = merge(CallbackManager(handlers=[a]), CallbackManager(handlers=[b]))
    assert sorted(map(repr, both.handlers)) == ["a", "b"]
    with pytest.raises(NotImplementedError):
        merge("neither", [a])


def test_callback_managers_for_a_config(backend):
    config = backend.mod("_internal._config")
    given = {"tags": ["t"], "metadata": {"m": 1}, "configurable": {"thread_id": "th"}}
    manager = config.get_callback_manager_for_config(given, tags=["extra"])
    assert type(manager) is CallbackManager
    assert (manager.inheritable_tags, manager.inheritable_metadata) == (["t", "extra"], {"m": 1})
    amanager = config.get_async_callback_manager_for_config(given)
    assert type(amanager) is AsyncCallbackManager and amanager.inheritable_tags == ["t"]
    own = AsyncCallbackManager(handlers=[])
    reused = config.get_async_callback_manager_for_config({"callbacks": own, "tags": ["u"]})
    assert reused is own and own.tags == ["u"]
    assert [config._is_not_empty(v) for v in (None, [], {}, (), 0, "", [1])] == [
        False, False, False, False, True, True, True,
    ]  # fmt: skip


def test_runnable_helpers(backend):
    runnable = backend.mod("_internal._runnable")

    async def agen():
        yield 1

    class AsyncGenCall:
        async def __call__(self):
            yield 1

    def gen():
        yield 1

    assert [runnable.is_async_generator(f) for f in (agen, AsyncGenCall(), gen, len)] == [
        True, True, False, False,
    ]  # fmt: skip

    async def main() -> tuple:
        async def read() -> dict | None:
            return var_child_runnable_config.get()

        task = runnable.create_task_in_config_context(read, {"tags": ["in-task"]})
        seen = await task
        return seen.get("tags"), var_child_runnable_config.get()

    assert asyncio.run(main()) == (["in-task"], None)


def test_state_graph_private_helpers(backend):
    state = backend.mod("graph.state")
    channels = backend.mod("channels")

    class Node:
        def __call__(self, value):
            return value

        def method(self, value):
            return value

    def named(value):
        return value

    names = [state._get_node_name(n) for n in (named, lambda v: v, Node(), Node().method)]
    assert names == ["named", "<lambda>", "Node", "method"]

    with pytest.warns(UserWarning, match="Invalid state_schema"):
        state._warn_invalid_state_schema({"not": "a type"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        state._warn_invalid_state_schema(Annotated[list, lambda a, b: a + b])
        state._warn_invalid_state_schema(dict)

    found = state._is_field_channel(Annotated[str, "note", channels.EphemeralValue, "more"])
    assert type(found).__name__ == "EphemeralValue" and found.typ is str
    given = channels.LastValue(int)
    assert state._is_field_channel(Annotated[int, given]) is given
    assert state._is_field_channel(Annotated[int, lambda a, b: a]) is None
    assert state._is_field_channel(int) is None


def test_state_graph_warns_on_an_instance_as_schema(backend):
    class Schema:
        pass

    with pytest.warns(UserWarning, match="Invalid state_schema"):
        try:
            backend.mod("graph").StateGraph(Schema())
        except Exception:  # noqa: BLE001 - what follows the warning is not the point here
            pass


class _Shade(Enum):
    DARK = "dark"


class _Part(BaseModel):
    label: str


@dataclass
class _Chain:
    part: _Part
    shades: dict[str, list[_Shade]]
    next: _Chain | None = None


class _Saved(TypedDict):
    chain: Annotated[NotRequired[_Chain], "note"]
    count: int


def test_serde_allowlist_from_schemas_and_channels(backend):
    serde = backend.mod("_internal._serde")
    BinaryOperatorAggregate = backend.mod("channels").BinaryOperatorAggregate
    here = __name__
    found = serde.collect_allowlist_from_schemas(
        schemas=[_Saved, Optional[int], Literal["a"]],
        channels={"parts": BinaryOperatorAggregate(list[_Part], lambda a, b: a + b)},
    )
    assert found == {(here, "_Chain"), (here, "_Part"), (here, "_Shade")}
    core = serde.curated_core_allowlist()
    assert ("langchain_core.messages.ai", "AIMessage") in core
    assert serde.build_serde_allowlist(schemas=[None, _Part]) == core | {(here, "_Part")}
    assert serde.apply_checkpointer_allowlist(None, core) is None


class _Keys(TypedDict, total=False):
    loose: int
    pinned: Required[int | None]


class _Strict(TypedDict):
    plain: int
    maybe: int | None
    skip: NotRequired[str]
    noted: Annotated[Required[str], "why"]


@dataclass
class _Settings:
    model: str = "small"
    """which model"""
    tries: list[int] = field(default_factory=lambda: [1, 2])
    note: str | None = None


class _Options(BaseModel):
    level: int = Field(default=3, description="how hard")
    name: str
    made: list[int] = Field(default_factory=list)


def test_field_helpers(backend):
    fields = backend.mod("_internal._fields")
    T = TypeVar("T", bound=int | None)
    kinds = [int | None, Optional[list[int]], Union[int, str], Annotated[str | None, "x"], T,
             None, type(None), Any]  # fmt: skip
    assert [fields._is_optional_type(k) for k in kinds] == [
        True, True, False, True, True, True, False, False,
    ]  # fmt: skip
    defaults = {
        schema.__name__: {
            name: fields.get_field_default(name, hint, schema)
            for name, hint in get_type_hints(schema, include_extras=True).items()
        }
        for schema in (_Keys, _Strict, _Settings)
    }
    assert defaults == {
        "_Keys": {"loose": None, "pinned": ...},
        "_Strict": {"plain": ..., "maybe": None, "skip": None, "noted": ...},
        "_Settings": {"model": "small", "tries": [1, 2], "note": None},
    }
    hints = [list(fields.get_enhanced_type_hints(t)) for t in (_Settings, _Options)]
    assert hints == [
        [("model", str, "small", None), ("tries", list[int], None, None),
         ("note", str | None, None, None)],
        [("level", int, 3, "how hard"), ("name", str, None, None),
         ("made", list[int], None, None)],
    ]  # fmt: skip
    assert fields.get_cached_annotated_keys(_Settings) == ("model", "tries", "note")
    update = _Options(name="n", level=4)
    assert fields.get_update_as_tuples(update, ["name", "level", "absent"]) == [
        ("name", "n"), ("level", 4),
    ]  # fmt: skip


def test_runnable_callable_injects_from_the_runtime(backend):
    RunnableCallable = backend.mod("_internal._runnable").RunnableCallable
    Runtime = backend.mod("runtime").Runtime
    BaseStore = backend.mod("store.base").BaseStore
    StreamWriter = backend.mod("types").StreamWriter

    def needs_store(x, store: BaseStore):
        return ("store", store)

    def maybe_store(x, store: Optional[BaseStore]):  # noqa: UP045 - langgraph's spelling
        return ("maybe", store)

    def writes(x, writer: StreamWriter):
        return ("writer", writer("chunk"))

    def plain(x, store: dict):
        return ("plain", store)

    runtime = Runtime(store="the-store", context=None, stream_writer=lambda c: c.upper())
    config = {"configurable": {"__pregel_runtime": runtime}}
    accepts = {f.__name__: sorted(RunnableCallable(f).func_accepts) for f in
               (needs_store, maybe_store, writes, plain)}  # fmt: skip
    assert accepts == {"needs_store": ["store"], "maybe_store": ["store"], "writes": ["writer"],
                       "plain": []}  # fmt: skip
    out = [
        RunnableCallable(needs_store).invoke(1, config),
        RunnableCallable(needs_store).invoke(1, config, store="given"),
        RunnableCallable(maybe_store).invoke(1),
        RunnableCallable(writes).invoke(1, config),
        RunnableCallable(writes).invoke(1),
        RunnableCallable(plain).invoke(1, store={"k": 1}),
    ]
    assert out == [("store", "the-store"), ("store", "given"), ("maybe", None),
                   ("writer", "CHUNK"), ("writer", None), ("plain", {"k": 1})]  # fmt: skip
    with pytest.raises(ValueError, match="Missing required config key 'store' for 'needs_store'"):
        RunnableCallable(needs_store).invoke(1)


def test_retry_and_timeout_helpers(backend):
    retry = backend.mod("pregel._retry")
    timeout = backend.mod("_internal._timeout")
    types = backend.mod("types")
    runtime_mod = backend.mod("runtime")
    policy = types.RetryPolicy(retry_on=(KeyError, ValueError))
    assert [retry._should_retry_on(policy, e) for e in (KeyError(), TypeError())] == [True, False]
    with pytest.raises(TypeError, match="retry_on must be an Exception class"):
        retry._should_retry_on(types.RetryPolicy(retry_on=7), ValueError())
    assert retry._checkpoint_ns_for_parent_command("a:1|2|b:3|4") == "a:1"
    bare = runtime_mod.Runtime(context=None)
    config = {"run_id": 42, "configurable": {"checkpoint_ns": "n:1", "thread_id": "t"}}
    info = retry._ensure_execution_info(bare, config, type("T", (), {"id": "tid"})).execution_info
    assert (info.checkpoint_id, info.checkpoint_ns, info.task_id, info.thread_id, info.run_id) == (
        "", "n:1", "tid", "t", "42",
    )  # fmt: skip
    given = bare.override(execution_info=info)
    assert retry._ensure_execution_info(given, {}, None) is given
    assert timeout.coerce_timeout_policy(None) is None
    assert timeout.coerce_timeout_policy(timedelta(seconds=2)) == types.TimeoutPolicy(run_timeout=2)
    assert "Node 'n' is sync" in str(timeout.sync_timeout_unsupported("n"))


def test_default_retry_policy_retries_an_http_error_without_response(backend):
    import requests

    RetryPolicy = backend.mod("types").RetryPolicy
    tries = []

    def flaky(state: dict) -> dict:
        tries.append(1)
        if len(tries) < 3:
            error = requests.HTTPError("connection dropped")
            error.response = None if len(tries) == 1 else _Status(502)
            raise error
        return {"n": len(tries)}

    StateGraph = backend.mod("graph").StateGraph

    class N(TypedDict):
        n: int

    builder = StateGraph(N)
    builder.add_node("flaky", flaky, retry_policy=RetryPolicy(initial_interval=0, jitter=False))
    builder.set_entry_point("flaky")
    assert builder.compile().invoke({"n": 0}) == {"n": 3}


class _Status:
    def __init__(self, code: int) -> None:
        self.status_code = code


def test_checkpoint_and_pydantic_helpers(backend):
    checkpoint = backend.mod("pregel._checkpoint")
    pydantic_helpers = backend.mod("_internal._pydantic")
    task = "4f7226e4-0270-bf16-1ef8-fb321bef9f3d"
    ids = [checkpoint.exit_delta_task_id(step, task) for step in (2, 10)]
    assert ids == ["00000002-0270-bf16-1ef8-fb321bef9f3d", "00000010-0270-bf16-1ef8-fb321bef9f3d"]
    null = "00000000-0000-0000-0000-000000000000"
    assert checkpoint.exit_delta_task_id(0, null) == "00000000-0000-0000-0000-000000000001"
    empty = checkpoint.empty_checkpoint()
    copied = checkpoint.copy_checkpoint(empty)
    copied["channel_versions"]["x"] = 1
    assert (empty["v"], empty["channel_values"], empty["channel_versions"]) == (4, {}, {})

    @dataclass
    class Point:
        x: int

    class Plain:
        x: int

    class Old(dict):
        pass

    kinds = [Point, _Part, _Saved, _Keys, Plain, int, Old]
    assert [pydantic_helpers.is_supported_by_pydantic(k) for k in kinds] == [
        True, True, True, True, False, False, False,
    ]  # fmt: skip
