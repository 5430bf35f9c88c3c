"""JsonPlusSerializer: msgpack with typed extensions, never pickle.

Plain values (None, bool, int, float, str, bytes, list, dict with str keys) are msgpack's own
types. Everything else is an msgpack *extension* whose payload names what to rebuild:

- tuples are msgpack arrays, as in langgraph: they read back as lists (a pydantic model's
  tuple-typed field reads back as a tuple, as langgraph's validation makes it; a tuple where a
  hashable value is needed, a set's item or a dict key, stays one); old values stored with the
  tuple code still read back as tuples;
- sets, frozensets, deques, datetimes, dates, times, timedeltas, timezones, zones, UUIDs,
  Decimals, paths, IP addresses, regex patterns, big ints, complex numbers and dicts with non-str
  keys have fixed codes and are rebuilt without importing anything;
- enums, dataclasses, named tuples and pydantic v2 models (which covers langchain-core messages,
  documents and the other langchain `Serializable` classes) are stored as a class reference
  (module, qualified name) plus their field values. Loading never imports: the class comes from
  `registry` (a fixed set, or a module the process already imported), must be a class *of that
  kind*, and gets its fields restored directly (no `__init__`, no validators, no arbitrary
  callable is ever invoked). A class its imported module does not hold (one defined inside a
  function, made by pydantic's `create_model`, or renamed since) is no error: the value reads
  back as its plain data, as in langgraph (`plain_data`);
- a few slot classes (`engine.types.Send`, `engine.types.Interrupt`) are on an allow-list;
  pass `allowed_objects` for more;
- exceptions (pending `__error__` writes) come back as the same exception when it is a built-in
  or an engine error, else as its repr, as langgraph does.

Anything else raises TypeError naming its type. Stored bytes tagged "pickle" are refused. Bytes
that cannot be read back (corrupt, crafted, nested deeper than `MAX_NESTING` values of the typed
kinds) raise `DeserializationError` and nothing else.
"""

from __future__ import annotations

import collections
import copy
import dataclasses
import datetime as dt
import decimal
import enum
import ipaddress
import logging
import os
import pathlib
import re
import threading
import types
import typing
import uuid
import warnings
import zoneinfo
from collections.abc import Iterable
from typing import Any, Self

import ormsgpack

from engine.checkpoint.serde.legacy_json import loads_legacy_json
from engine.checkpoint.serde.plain_data import plain_data
from engine.checkpoint.serde.registry import (
    IP_CLASSES,
    LOCAL,
    NameNotFound,
    find_class,
    path_classes,
)
from engine.checkpoint.serde.zones import naive_tz, tz_from, zone

EMPTY = b""

_PACK_OPTS = (
    ormsgpack.OPT_PASSTHROUGH_DATETIME
    | ormsgpack.OPT_PASSTHROUGH_DATACLASS
    | ormsgpack.OPT_PASSTHROUGH_UUID
    | ormsgpack.OPT_PASSTHROUGH_ENUM
    | ormsgpack.OPT_PASSTHROUGH_BIG_INT
    | ormsgpack.OPT_PASSTHROUGH_SUBCLASS
)

# extension codes (the on-disk format: never renumber)
TUPLE, SET, FROZENSET = 1, 2, 3
DATETIME, DATE, TIME, TIMEDELTA, TIMEZONE = 4, 5, 6, 7, 8
UUID, DECIMAL, BIGINT, COMPLEX, PATH, BYTEARRAY = 9, 10, 11, 12, 13, 14
PAIRS = 15  # a dict with keys other than str
DEQUE, IPADDRESS, PATTERN, ZONEINFO = 16, 17, 18, 19
ENUM, DATACLASS, NAMEDTUPLE, PYDANTIC, SLOTS, CLASS, EXCEPTION = 20, 21, 22, 23, 24, 25, 26
SUBCLASS = 27  # a dict/list/str/int subclass on the allow-list: class + base value

_BUILTIN_BASES = (dict, list, str, int, float, tuple, set, frozenset, bytes)
_STORED_AS_BASE = frozenset((dict, list, str, int, float))

_failure = threading.local()  # the innermost encoding error of the running pack() call
_nesting = threading.local()  # how many typed values deep the running pack()/unpack() is
MAX_NESTING = 100
"""Most typed values (tuples, dataclasses...) nested in one another; deeper is refused both ways,
so what is stored can always be read back and crafted bytes cannot exhaust the stack."""

_SAFE_SLOT_CLASSES = {("engine.types", "Send"), ("engine.types", "Interrupt")}


class SerializationError(TypeError):
    """A value that cannot be stored safely."""


class DeserializationError(ValueError):
    """Stored bytes that cannot (or may not) be turned back into a value."""


def _class_ref(cls: type) -> list[str]:
    return [cls.__module__, cls.__qualname__]


def _is_local(cls: type) -> bool:
    return LOCAL in cls.__qualname__  # asked of every model stored: no split


def _findable_ref(cls: type) -> list[str]:
    # a class stored as a value has no plain data to read back instead (langgraph stores none)
    if _is_local(cls):
        raise SerializationError(
            f"cannot serialize the class {cls.__module__}.{cls.__qualname__}: a class defined "
            "inside a function cannot be found again when the checkpoint is loaded"
        )
    return _class_ref(cls)


_PERMISSIVE: Any = object()  # allowed_msgpack_modules not given
logger = logging.getLogger(__name__)

# the classes langgraph reads back without a word (its SAFE_MSGPACK_TYPES); reading any other
# under its default allow-list logs, once per class, that a future version will block it
_SAFE_TO_READ = frozenset(
    {("datetime", n) for n in ("datetime", "date", "time", "timedelta", "timezone")}
    | {("uuid", "UUID"), ("decimal", "Decimal"), ("builtins", "set"), ("builtins", "frozenset"),
       ("collections", "deque"), ("zoneinfo", "ZoneInfo"), ("re", "compile")}
    | {("ipaddress", f"IPv{v}{k}") for v in (4, 6) for k in ("Address", "Interface", "Network")}
    | {(m, n) for m in ("pathlib", "pathlib._local") for n in ("Path", "PosixPath", "WindowsPath")}
    | {(f"langchain_core.messages.{m}", f"{n}{chunk}")
       for m, n in (("base", "BaseMessage"), ("human", "HumanMessage"), ("ai", "AIMessage"),
                    ("system", "SystemMessage"), ("chat", "ChatMessage"), ("tool", "ToolMessage"),
                    ("function", "FunctionMessage"))
       for chunk in ("", "Chunk")}
    | {("langchain_core.messages.modifier", "RemoveMessage"),
       ("langchain_core.documents.base", "Document")}
    | {("langgraph.types", n) for n in ("Send", "TimeoutPolicy", "Interrupt", "Command",
                                         "StateSnapshot", "PregelTask", "Overwrite")}
    | {("langgraph.store.base", "Item"), ("langgraph.store.base", "GetOp")}
)  # fmt: skip
_warned_unregistered: set[tuple[str, str]] = set()
_MAX_WARNED = 1000
STRICT_MSGPACK = os.getenv("LANGGRAPH_STRICT_MSGPACK", "false").lower() in ("1", "true", "yes")
"""langgraph's switch: read back only the classes above when no allow-list is given."""


def _warn_unregistered(module: str, name: str) -> None:
    """langgraph's warning for a class its default allow-list reads back but will block, once
    per class (an engine class counts as langgraph's own)."""
    key = (module, name)
    as_langgraph = (
        ("langgraph" + module[len("engine") :], name) if module.startswith("engine.") else key
    )
    if as_langgraph in _SAFE_TO_READ or key in _warned_unregistered:
        return
    if len(_warned_unregistered) >= _MAX_WARNED:
        return
    _warned_unregistered.add(key)
    logger.warning(
        "Deserializing unregistered type %s.%s from checkpoint. This will be blocked in a future "
        "version. Set LANGGRAPH_STRICT_MSGPACK=true to block now, or add to "
        "allowed_msgpack_modules to allow explicitly: [(%r, %r)]",
        module, name, module, name,
    )  # fmt: skip


class _NotAllowed(DeserializationError):
    """A class outside the serializer's allow-list."""


class _NotFound(DeserializationError):
    """A class its (imported) module does not hold: defined inside a function, or renamed."""


def _class_key(item: tuple[str, str] | type) -> tuple[str, str]:
    return (item.__module__, item.__qualname__) if isinstance(item, type) else tuple(item)


class JsonPlusSerializer:
    """The default checkpoint serializer (same name and typed API as langgraph's).

    `allowed_modules`: if given, only classes whose module is one of these (or inside one of
    these packages) are rebuilt when loading; others raise DeserializationError. Built-in
    value types, langchain-core and engine classes are always allowed.
    `allowed_objects`: extra classes (or (module, name) pairs) to store by their attributes
    even though they are not dataclasses or pydantic models.
    `allowed_json_modules`: ids of the classes a "json" value (langgraph's format before
    msgpack) may rebuild besides the engine's own, or True for any class already imported
    (engine.checkpoint.serde.legacy_json). `allowed_msgpack_modules`, langgraph's allow-list:
    None rebuilds only the always-allowed classes, a list also the (module, name) pairs or
    classes it names, True (the default) any class already imported. `pickle_fallback` is
    accepted and ignored: nothing is ever pickled.
    """

    def __init__(
        self,
        *,
        allowed_modules: Iterable[str] | None = None,
        allowed_objects: Iterable[type | tuple[str, str]] = (),
        pickle_fallback: bool = False,
        allowed_json_modules: Iterable[tuple[str, ...]] | bool | None = None,
        allowed_msgpack_modules: Iterable[tuple[str, str] | type] | bool | None = _PERMISSIVE,
    ) -> None:
        if pickle_fallback:
            # langgraph pickles what msgpack cannot hold; loading a pickle can run any code
            warnings.warn(
                "pickle_fallback is ignored: values are never pickled (loading a pickle can "
                "run arbitrary code); a value that cannot be stored raises instead",
                UserWarning,
                stacklevel=2,
            )
        self._allowed_modules = tuple(allowed_modules) if allowed_modules is not None else None
        # langgraph's allow-list: True (or not given) any class already imported, None only
        # the built-in safe types, else those and the listed classes
        self._allowed_classes: set[tuple[str, str]] = set()
        if allowed_msgpack_modules is _PERMISSIVE and STRICT_MSGPACK:
            allowed_msgpack_modules = None  # as langgraph: the built-in safe types only
        self._allowed_classes_given = allowed_msgpack_modules not in (_PERMISSIVE, True)
        if self._allowed_classes_given:
            self._allowed_modules = self._allowed_modules or ()
            self._allowed_classes = {_class_key(c) for c in allowed_msgpack_modules or ()}
        self._allowed_json = (
            allowed_json_modules
            if isinstance(allowed_json_modules, bool) or allowed_json_modules is None
            else {tuple(ident) for ident in allowed_json_modules}
        )
        self._slot_classes = set(_SAFE_SLOT_CLASSES)
        self._slot_classes.update(_class_key(item) for item in allowed_objects)
        self._resolved: dict[tuple[str, str], type] = {}

    def with_msgpack_allowlist(self, extra: Iterable[tuple[str, str] | type]) -> Self:
        """A copy that also rebuilds the `extra` classes (as langgraph's): this one when it
        already allows every imported class."""
        if self._allowed_modules is None:
            return self
        clone = copy.copy(self)
        clone._allowed_classes = self._allowed_classes | {_class_key(c) for c in extra}
        clone._resolved = {}
        return clone

    # ------------------------------------------------------------------ public API
    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if obj is None:
            return "null", EMPTY
        if type(obj) is bytes:
            return "bytes", obj
        if type(obj) is bytearray:
            return "bytearray", bytes(obj)
        try:  # pack(), inlined: a call less for every value a saver stores
            return "msgpack", ormsgpack.packb(obj, default=self._default, option=_PACK_OPTS)
        except TypeError as exc:
            return "msgpack", self._pack_failed(obj, exc)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        try:
            kind, payload = data
        except (TypeError, ValueError):
            raise DeserializationError("a stored value must be a (type, bytes) pair") from None
        if kind == "null":
            return None
        if not isinstance(payload, (bytes, bytearray, memoryview)):
            raise DeserializationError(
                f"stored {kind!r} value is {type(payload).__name__}, not bytes"
            )
        if kind == "msgpack":
            return self.unpack(payload)
        if kind == "bytes":
            return bytes(payload)
        if kind == "bytearray":
            return bytearray(payload)
        if kind == "json":  # langgraph's format before msgpack (old checkpoint files)
            try:
                return loads_legacy_json(bytes(payload), self._allowed_json)
            except ValueError as exc:
                raise DeserializationError(f"stored json value is not JSON: {exc}") from None
        if kind == "pickle":
            raise DeserializationError(
                "refusing to load a pickled value: unpickling stored bytes can run arbitrary code"
            )
        raise DeserializationError(f"unknown serialization type {kind!r}")

    def dumps(self, obj: Any) -> bytes:
        return self.pack(obj)

    def loads(self, data: bytes) -> Any:
        return self.unpack(data)

    # ------------------------------------------------------------------ encoding
    def pack(self, obj: Any) -> bytes:
        try:
            return ormsgpack.packb(obj, default=self._default, option=_PACK_OPTS)
        except TypeError as exc:
            return self._pack_failed(obj, exc)

    def _pack_failed(self, obj: Any, exc: TypeError) -> bytes:
        # ormsgpack replaces the default hook's exception with its own: use ours
        cause, _failure.error = getattr(_failure, "error", None), None
        if cause is not None:
            raise cause from None
        if "Dict key must be str" not in str(exc):
            raise SerializationError(str(exc)) from exc
        # dicts with non-str keys somewhere in the plain containers: tag them and retry
        return ormsgpack.packb(self._tag_keys(obj), default=self._default, option=_PACK_OPTS)

    def _tag_keys(self, obj: Any) -> Any:
        if type(obj) is dict:
            if all(type(k) is str for k in obj):
                return {k: self._tag_keys(v) for k, v in obj.items()}
            return ormsgpack.Ext(PAIRS, self.pack([[k, v] for k, v in obj.items()]))
        if type(obj) in (list, tuple):
            return [self._tag_keys(v) for v in obj]
        return obj

    def _ext(self, code: int, payload: Any) -> ormsgpack.Ext:
        with _nested(SerializationError):
            return ormsgpack.Ext(code, self.pack(payload))

    def _default(self, obj: Any) -> Any:
        try:
            return self._encode(obj)
        except Exception as exc:  # keep the real reason, naming the type, for pack()
            if not isinstance(exc, SerializationError):
                name = f"{type(obj).__module__}.{type(obj).__qualname__}"
                exc = SerializationError(f"cannot serialize value of type {name}: {exc}")
            if getattr(_failure, "error", None) is None:
                _failure.error = exc
            raise

    def _encode(self, obj: Any) -> Any:
        cls = type(obj)
        simple = _SIMPLE.get(cls)
        if simple is not None:
            code, to_payload = simple
            return self._ext(code, to_payload(obj))
        if isinstance(obj, enum.Enum):
            return self._ext(ENUM, [*_class_ref(cls), obj.value])
        if hasattr(cls, "__pydantic_fields_set__") and hasattr(obj, "__pydantic_fields__"):
            extra = getattr(obj, "__pydantic_extra__", None)
            private = getattr(obj, "__pydantic_private__", None)
            return self._ext(
                PYDANTIC,
                [
                    *_class_ref(cls),
                    # read back as its plain data: langgraph's, the model's dump
                    obj.model_dump() if _is_local(cls) else obj.__dict__,
                    sorted(obj.__pydantic_fields_set__),
                    extra,
                    private,
                ],
            )
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            fields = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
            return self._ext(DATACLASS, [*_class_ref(cls), fields])
        if isinstance(obj, tuple) and hasattr(cls, "_fields"):
            # the field names give the plain data, a dict, when the class is not found
            return self._ext(NAMEDTUPLE, [*_class_ref(cls), list(obj), list(cls._fields)])
        if isinstance(obj, type):
            return self._ext(CLASS, _findable_ref(obj))
        if isinstance(obj, BaseException):
            return self._ext(EXCEPTION, [*_class_ref(cls), list(obj.args), repr(obj)])
        if isinstance(obj, pathlib.PurePath):
            return self._ext(PATH, [*_findable_ref(cls), str(obj)])
        allowed = (cls.__module__, cls.__qualname__) in self._slot_classes
        base = next((b for b in _BUILTIN_BASES if isinstance(obj, b)), None)
        if base is not None:
            if allowed:
                plain = list(obj) if base in (set, frozenset) else base(obj)
                return self._ext(SUBCLASS, [*_class_ref(cls), plain])
            if base in _STORED_AS_BASE:
                # as in langgraph, where msgpack writes these natively: the value is kept, the
                # subclass is not (message.text's TextAccessor, OrderedDict, Counter, ...)
                return base(obj)
            raise SerializationError(
                f"cannot serialize value of type {cls.__module__}.{cls.__qualname__}: a "
                f"{base.__name__} subclass; pass allowed_objects=[{cls.__qualname__}] to "
                f"JsonPlusSerializer to store it, or convert it to a plain {base.__name__}"
            )
        if allowed:
            return self._ext(SLOTS, [*_class_ref(cls), _attributes(obj)])
        raise SerializationError(
            f"cannot serialize value of type {cls.__module__}.{cls.__qualname__}: not a plain "
            "value, dataclass, enum, named tuple or pydantic model"
        )

    # ------------------------------------------------------------------ decoding
    def unpack(self, data: bytes) -> Any:
        try:
            return ormsgpack.unpackb(data, ext_hook=self._ext_hook)
        except ValueError as exc:
            # ormsgpack replaces the hook's exception with its own: use ours
            cause, _failure.error = getattr(_failure, "error", None), None
            if cause is not None:
                raise cause from None
            raise DeserializationError(f"corrupt serialized value: {exc}") from exc

    def _ext_hook(self, code: int, data: bytes) -> Any:
        try:
            return self._decode(code, data)
        except Exception as exc:
            if not isinstance(exc, DeserializationError):
                exc = DeserializationError(f"cannot rebuild extension {code}: {exc}")
            if getattr(_failure, "error", None) is None:
                _failure.error = exc
            raise

    def _decode(self, code: int, data: bytes) -> Any:
        if code not in _REBUILD and code not in _KINDS and code not in (PAIRS, EXCEPTION):
            raise DeserializationError(f"unknown msgpack extension code {code}")
        with _nested(DeserializationError):
            payload = self.unpack(data)
        simple = _REBUILD.get(code)
        if simple is not None:
            return simple(payload)
        if code == PAIRS:
            return {_hashable(k): v for k, v in _items(payload, 2)}
        module, name, *rest = _items(payload, None)
        if not (isinstance(module, str) and isinstance(name, str)):
            raise DeserializationError("a stored class reference must be two strings")
        parts = [*module.split("."), *(p for p in name.split(".") if p != LOCAL)]
        if not all(part.isidentifier() for part in parts):
            raise DeserializationError(f"not a class name: {module!r:.80} {name!r:.80}")
        if code == EXCEPTION:
            # like langgraph, a saved error reads back as its repr (a task's error in get_state)
            return _of_type(rest[1], str, "an error's repr")
        if code in (SLOTS, SUBCLASS) and (module, name) not in self._slot_classes:
            raise DeserializationError(
                f"refusing to rebuild {module}.{name}: not on the serializer's allow-list"
            )
        try:
            cls = self._resolve(module, name, _KINDS[code])
        except _NotAllowed:
            if not self._allowed_classes_given or code in (CLASS, PATH):
                raise
            # as langgraph with an allow-list: the value's plain data, and a warning
            logger.warning(
                f"Blocked deserialization of {module}.{name} - not in allowed_msgpack_modules. "
                f"Add to allowed_msgpack_modules to allow: [({module!r}, {name!r})]"
            )
            return rest[0]
        except _NotFound:
            if code in (CLASS, PATH):
                raise
            return plain_data(_KINDS[code], module, name, rest, logger)
        if code == ENUM:
            return _enum_member(self._require(cls, issubclass(cls, enum.Enum), "an Enum"), rest[0])
        if code == PYDANTIC:
            return _rebuild_pydantic(
                self._require(cls, _is_pydantic(cls), "a pydantic model"), *rest
            )
        if code == DATACLASS:
            self._require(cls, dataclasses.is_dataclass(cls), "a dataclass")
            return _set_attributes(cls.__new__(cls), rest[0])
        if code == NAMEDTUPLE:
            ok = issubclass(cls, tuple) and hasattr(cls, "_fields")
            fields = _of_type(rest[0], list, "a named tuple's fields")
            return tuple.__new__(self._require(cls, ok, "a named tuple"), fields)
        if code == CLASS:
            return cls
        if code == PATH:
            return self._require(cls, cls in path_classes(), "a pathlib path")(
                _of_type(rest[0], str, "a path")
            )
        if code == SUBCLASS:
            return cls(rest[0])
        return _set_attributes(cls.__new__(cls), rest[0])

    @staticmethod
    def _require(cls: type, ok: bool, kind: str) -> Any:
        if not ok:
            raise DeserializationError(
                f"refusing to rebuild {cls.__module__}.{cls.__qualname__}: it is not {kind}"
            )
        return cls

    def _resolve(self, module: str, name: str, kind: str) -> Any:
        key = (module, name)
        cls = self._resolved.get(key)
        if cls is not None:
            return cls
        allowed = self._allowed_modules
        if allowed is not None and module != "builtins" and key not in self._allowed_classes:
            root = module.split(".")[0]
            if root not in ("engine", "langchain_core", "langgraph") and not any(
                module == m or module.startswith(m + ".") for m in allowed
            ):
                raise _NotAllowed(
                    f"refusing to load {kind} {module}.{name}: module not in allowed_modules"
                )
        try:
            obj = find_class(module, name)  # never imports: see registry
        except NameNotFound as exc:
            raise _NotFound(f"cannot load {kind} {module}.{name}: {exc}") from None
        except LookupError as exc:
            raise DeserializationError(f"refusing to load {kind} {module}.{name}: {exc}") from None
        if not isinstance(obj, type):
            raise DeserializationError(f"refusing to load {module}.{name}: it is not a class")
        if allowed is None:
            _warn_unregistered(module, name)
        self._resolved[key] = obj
        return obj


# --------------------------------------------------------------------------- helpers


class _nested:
    """Count one more level of typed values for the running pack()/unpack(); refuse deeper
    than MAX_NESTING with `error`."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def __enter__(self) -> None:
        depth = getattr(_nesting, "depth", 0) + 1
        if depth > MAX_NESTING:
            raise self.error(f"values nested more than {MAX_NESTING} levels deep")
        _nesting.depth = depth

    def __exit__(self, *exc: object) -> None:
        _nesting.depth -= 1


def _of_type(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if not isinstance(value, kind):
        raise DeserializationError(f"{what} is stored as {type(value).__name__}")
    return value


def _items(payload: Any, length: int | None) -> list:
    """A stored list (of `length`-item lists, if given)."""
    _of_type(payload, list, "an extension payload")
    if length is not None:
        for item in payload:
            if not isinstance(item, list) or len(item) != length:
                raise DeserializationError(f"expected pairs, found {item!r:.40}")
    elif len(payload) < 2:
        raise DeserializationError("a class reference needs a module and a name")
    return payload


def _enum_member(cls: type, value: Any) -> Any:
    # the member itself, looked up: calling the class could run a user `_missing_` hook
    try:
        return cls._value2member_map_[value]  # type: ignore[attr-defined]
    except (KeyError, TypeError):
        pass
    for member in cls.__members__.values():  # type: ignore[attr-defined]
        if member.value == value:
            return member
    if issubclass(cls, enum.Flag) and isinstance(value, int):
        return cls(value)  # a combination of flags
    raise DeserializationError(f"{cls.__module__}.{cls.__qualname__} has no member {value!r:.60}")


def _attributes(obj: Any) -> dict[str, Any]:
    out = dict(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()):
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                out[slot] = getattr(obj, slot)
    return out


def _set_attributes(obj: Any, values: dict[str, Any]) -> Any:
    for key, value in _of_type(values, dict, "an object's attributes").items():
        object.__setattr__(obj, key, value)
    return obj


def _is_pydantic(cls: type) -> bool:
    try:
        from pydantic import BaseModel
    except ImportError:  # pragma: no cover - pydantic is a dependency
        return False
    return issubclass(cls, BaseModel)


def _rebuild_pydantic(cls: type, fields: dict, fields_set: list, extra: Any, private: Any) -> Any:
    # what pydantic's model_construct does, minus defaults: the saved state is complete
    _of_type(fields, dict, "a model's fields")
    _of_type(fields_set, list, "a model's set fields")
    if not all(type(k) is str for k in (*fields, *fields_set)):
        raise DeserializationError("a model's field names must be strings")
    for part in (extra, private):
        _of_type(part, (dict, type(None)), "a model's extra or private fields")
    for name in _tuple_fields(cls).intersection(fields):
        if type(fields[name]) is list:
            fields[name] = tuple(fields[name])
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    object.__setattr__(obj, "__pydantic_fields_set__", set(fields_set))
    object.__setattr__(obj, "__pydantic_extra__", extra)
    object.__setattr__(obj, "__pydantic_private__", private)
    return obj


_TUPLE_FIELDS: dict[type, frozenset[str]] = {}


def _tuple_fields(cls: Any) -> frozenset[str]:
    """The model's fields declared as tuples (`tuple`, `tuple[int, ...]`, optional or not):
    stored as arrays, they read back as tuples, as langgraph's pydantic validation makes them.
    (Found once per class: messages are decoded by the thousand.)"""
    found = _TUPLE_FIELDS.get(cls)
    if found is None:
        fields = getattr(cls, "model_fields", None) or {}
        found = frozenset(n for n, f in fields.items() if _is_tuple_type(f.annotation))
        _TUPLE_FIELDS[cls] = found
    return found


def _is_tuple_type(annotation: Any) -> bool:
    if annotation is tuple or typing.get_origin(annotation) is tuple:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(_is_tuple_type(arg) for arg in typing.get_args(annotation))
    return False


def _hashable(key: Any) -> Any:
    if not isinstance(key, list):
        return key
    with _nested(DeserializationError):
        return tuple(_hashable(k) for k in key)


def _pattern(payload: Any) -> re.Pattern:
    pattern, flags = _items([payload], 2)[0]
    if not isinstance(pattern, (str, bytes)) or type(flags) is not int or flags & re.DEBUG:
        raise DeserializationError("a stored regex must be a pattern and its flags")
    return re.compile(pattern, flags)


def _ip(payload: Any) -> Any:
    name, text = _items([payload], 2)[0]
    if name not in IP_CLASSES or not isinstance(text, str):
        raise DeserializationError(f"not an IP address type: {name!r:.40}")
    return getattr(ipaddress, name)(text)


def _zone_key(zone: Any) -> str:
    if zone.key is None:
        raise SerializationError("a ZoneInfo made from a file has no name to store")
    return zone.key


def _big_int(value: int) -> str:
    return str(value)


_SIMPLE: dict[type, tuple[int, Any]] = {
    collections.deque: (DEQUE, lambda v: [list(v), v.maxlen]),
    re.Pattern: (PATTERN, lambda v: [v.pattern, v.flags]),
    zoneinfo.ZoneInfo: (ZONEINFO, _zone_key),
    **{
        getattr(ipaddress, n): (IPADDRESS, lambda v: [type(v).__name__, str(v)]) for n in IP_CLASSES
    },
    set: (SET, list),
    frozenset: (FROZENSET, list),
    dt.datetime: (DATETIME, lambda v: [v.replace(tzinfo=None).isoformat(), naive_tz(v), v.fold]),
    dt.date: (DATE, dt.date.isoformat),
    dt.time: (TIME, lambda v: [v.replace(tzinfo=None).isoformat(), naive_tz(v), v.fold]),
    dt.timedelta: (TIMEDELTA, lambda v: [v.days, v.seconds, v.microseconds]),
    dt.timezone: (TIMEZONE, lambda v: [*naive_tz(dt.time(tzinfo=v)), v.tzname(None)]),
    uuid.UUID: (UUID, lambda v: v.bytes),
    decimal.Decimal: (DECIMAL, str),
    int: (BIGINT, _big_int),
    complex: (COMPLEX, lambda v: [v.real, v.imag]),
    bytearray: (BYTEARRAY, bytes),
}

_REBUILD: dict[int, Any] = {
    TUPLE: lambda p: tuple(_of_type(p, list, "a tuple")),  # (written before tuples were arrays)
    SET: lambda p: set(map(_hashable, _of_type(p, list, "a set"))),
    FROZENSET: lambda p: frozenset(map(_hashable, _of_type(p, list, "a frozenset"))),
    DEQUE: lambda p: collections.deque(*_items([p], 2)[0]),
    IPADDRESS: _ip,
    PATTERN: _pattern,
    ZONEINFO: zone,
    DATETIME: lambda p: dt.datetime.fromisoformat(p[0]).replace(tzinfo=tz_from(p[1]), fold=p[2]),
    DATE: dt.date.fromisoformat,
    TIME: lambda p: dt.time.fromisoformat(p[0]).replace(tzinfo=tz_from(p[1]), fold=p[2]),
    TIMEDELTA: lambda p: dt.timedelta(*p),
    TIMEZONE: lambda p: dt.timezone(dt.timedelta(*p[:3]), p[3]),
    UUID: lambda p: uuid.UUID(bytes=p),
    DECIMAL: lambda p: decimal.Decimal(_of_type(p, str, "a decimal")),
    BIGINT: lambda p: int(_of_type(p, str, "a big integer")),
    COMPLEX: lambda p: complex(*p),
    BYTEARRAY: lambda p: bytearray(_of_type(p, bytes, "a bytearray")),
}

_KINDS = {
    ENUM: "enum",
    DATACLASS: "dataclass",
    NAMEDTUPLE: "named tuple",
    PYDANTIC: "pydantic model",
    SLOTS: "object",
    SUBCLASS: "object",
    CLASS: "class",
    PATH: "path",
}

__all__ = ["DeserializationError", "JsonPlusSerializer", "SerializationError"]
