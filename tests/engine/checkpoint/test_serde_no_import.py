"""Reading stored bytes never imports a module (SECURITY issue 10, item 1).

A crafted blob names a module whose top-level code leaves a marker file; the module sits on
sys.path, so importing it would run it. Every extension kind that carries a class reference is
tried; none may import, and each is a DeserializationError naming the class. Classes of modules
the process already imported (the user's own) keep loading; new value types round-trip.
"""

from __future__ import annotations

import collections
import dataclasses
import ipaddress
import re
import sys
import uuid
import zoneinfo

import ormsgpack
import pytest

from engine.checkpoint.serde import jsonplus
from engine.checkpoint.serde.jsonplus import DeserializationError, JsonPlusSerializer

SERDE = JsonPlusSerializer()
# every extension code whose payload starts with (module, qualified name), with plausible rest
CLASS_REFS = {
    "enum": (20, ["v"]),
    "dataclass": (21, [{"x": 1}]),
    "named tuple": (22, [[1, 2]]),
    "pydantic": (23, [{"x": 1}, ["x"], None, None]),
    "slots": (24, [{"x": 1}]),
    "class": (25, []),
    "subclass": (27, [{"x": 1}]),
    "path": (13, ["/tmp"]),
}


def crafted(code: int, payload) -> tuple[str, bytes]:
    return "msgpack", ormsgpack.packb(ormsgpack.Ext(code, ormsgpack.packb(payload)))


@pytest.fixture
def trap(tmp_path, monkeypatch):
    """A module on sys.path that, if ever imported, writes `marker` and defines every kind."""
    name = f"ckpt_trap_{uuid.uuid4().hex[:8]}"
    marker = tmp_path / "imported.marker"
    (tmp_path / f"{name}.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "import enum, dataclasses\n"
        "class Thing(enum.Enum):\n    V = 'v'\n"
        "@dataclasses.dataclass\nclass Data:\n    x: int = 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, marker
    sys.modules.pop(name, None)


@pytest.mark.parametrize("kind", sorted(CLASS_REFS))
def test_a_class_reference_never_imports_its_module(trap, kind):
    name, marker = trap
    code, rest = CLASS_REFS[kind]
    with pytest.raises(DeserializationError, match=rf"{name}\.Thing.*(not imported|allow-list)"):
        SERDE.loads_typed(crafted(code, [name, "Thing", *rest]))
    assert not marker.exists()
    assert name not in sys.modules


@pytest.mark.parametrize("kind", sorted(set(CLASS_REFS) - {"class", "path", "slots", "subclass"}))
def test_a_class_defined_in_a_function_reads_as_data_without_importing(trap, kind):
    name, marker = trap
    code, rest = CLASS_REFS[kind]
    assert SERDE.loads_typed(crafted(code, [name, "make.<locals>.Thing", *rest])) == rest[0]
    assert not marker.exists() and name not in sys.modules


@pytest.mark.parametrize("kind", sorted(CLASS_REFS))
def test_nested_inside_plain_data_it_still_never_imports(trap, kind):
    name, marker = trap
    code, rest = CLASS_REFS[kind]
    inner = ormsgpack.Ext(code, ormsgpack.packb([name, "Data", *rest]))
    blob = ormsgpack.packb({"messages": [1, {"deep": [inner]}]})
    with pytest.raises(DeserializationError, match="not imported|allow-list"):
        SERDE.loads_typed(("msgpack", blob))
    assert not marker.exists() and name not in sys.modules


def test_allowed_slot_class_of_an_unimported_module_is_not_imported(trap):
    name, marker = trap
    serde = JsonPlusSerializer(allowed_objects=[(name, "Thing")])
    with pytest.raises(DeserializationError, match="not imported"):
        serde.loads_typed(crafted(24, [name, "Thing", {}]))
    assert not marker.exists()


@pytest.mark.parametrize("module", ["this", "antigravity", "venv.__main__", "__hello__"])
def test_standard_library_modules_with_side_effects_are_not_imported(
    module, monkeypatch, tmp_path, capfd
):
    import webbrowser

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: opened.append(a))
    monkeypatch.setattr(sys, "argv", ["venv", str(tmp_path / "made-venv")])
    monkeypatch.delitem(sys.modules, module, raising=False)
    for code, rest in CLASS_REFS.values():
        with pytest.raises(DeserializationError):
            SERDE.loads_typed(crafted(code, [module, "Thing", *rest]))
    assert module not in sys.modules
    assert opened == [] and not (tmp_path / "made-venv").exists()
    assert capfd.readouterr().out == ""  # `this` prints the Zen of Python on import


def test_a_class_of_an_imported_module_loads_once_imported(trap):
    name, marker = trap
    blob = crafted(21, [name, "Data", {"x": 3}])
    with pytest.raises(DeserializationError, match="not imported"):
        SERDE.loads_typed(blob)
    module = __import__(name)  # the user's own code imports it: then it may load
    assert marker.exists()
    value = SERDE.loads_typed(blob)
    assert type(value) is module.Data and value.x == 3
    assert SERDE.loads_typed(crafted(20, [name, "Thing", "v"])) is module.Thing.V


def test_module_getattr_hooks_are_not_called(monkeypatch):
    import types

    calls = []
    lazy = types.ModuleType("ckpt_lazy_module")
    lazy.__getattr__ = lambda attr: calls.append(attr) or dataclasses.dataclass(type(attr, (), {}))
    monkeypatch.setitem(sys.modules, "ckpt_lazy_module", lazy)
    # the module holds no such class: the value reads back as its plain data, hook uncalled
    assert SERDE.loads_typed(crafted(21, ["ckpt_lazy_module", "Lazy", {"x": 1}])) == {"x": 1}
    assert calls == []


@pytest.mark.parametrize(
    "module, name, code, rest, why",
    [
        ("os", "system", 21, [{}], "not a class"),
        ("builtins", "eval", 20, ["1"], "not a class"),
        ("subprocess", "Popen", 23, [{}, [], None, None], "not a pydantic model"),
        ("collections", "OrderedDict", 13, ["/x"], "not a pathlib path"),
        ("pathlib", "Path", 22, [[1]], "not a named tuple"),
    ],
)
def test_imported_callables_of_the_wrong_kind_are_refused(module, name, code, rest, why):
    with pytest.raises(DeserializationError, match=why):
        SERDE.loads_typed(crafted(code, [module, name, *rest]))


class Shade(collections.namedtuple("ShadeBase", "r g")):
    made = []

    @classmethod
    def _make(cls, iterable):  # a user hook: loading must not call it
        cls.made.append(iterable)
        return super()._make(iterable)


def test_named_tuples_load_without_calling_their_hooks():
    value = SERDE.loads_typed(SERDE.dumps_typed(Shade(1, 2)))
    assert value == (1, 2) and type(value) is Shade and Shade.made == []


@pytest.mark.parametrize(
    "value",
    [
        collections.deque([1, "2", 3.5]),
        collections.deque([1], maxlen=4),
        ipaddress.ip_address("192.0.2.1"),
        ipaddress.ip_address("2001:db8::1"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_interface("::1/128"),
        re.compile(r"a+b", re.IGNORECASE),
        re.compile(rb"\d"),
        zoneinfo.ZoneInfo("Europe/Paris"),
    ],
    ids=repr,
)
def test_langgraph_value_types_round_trip(value):
    back = SERDE.loads_typed(SERDE.dumps_typed(value))
    assert back == value and type(back) is type(value)
    if isinstance(value, collections.deque):
        assert back.maxlen == value.maxlen


@pytest.mark.parametrize(
    "code, payload, why",
    [
        (99, [], "unknown msgpack extension code 99"),
        (0, ["os", "system", "ls"], "unknown msgpack extension code 0"),  # langgraph's codes
        (127, [], "unknown msgpack extension code 127"),
        (11, "9" * 100_000, "big integer|digits"),
        (11, 10**10, "big integer"),
        (14, 2**40, "bytearray"),  # bytearray(2**40) would allocate a terabyte
        (18, ["x", re.DEBUG], "regex"),  # re.DEBUG prints while compiling
        (17, ["IPv4Address", 5], "IP address"),
        (17, ["SomethingElse", "1.1.1.1"], "IP address"),
        (19, "../../etc/passwd", "time zone"),
        (19, "No/Such_Zone", "unknown time zone"),
        (2, [{"a": 1}], "unhashable"),
        (15, [[1, 2, 3]], "pairs"),
        (20, ["enum", "Enum"], "index|missing|fields"),
        (20, [1, 2, 3], "two strings"),
        (21, ["os\nimport x", "Thing", {}], "not a class name"),  # messages stay one line
        (25, [__name__, "Anything"], "no class 'Anything'"),  # a class value has no data
        (25, [__name__, "f.<locals>.Local"], "inside a function"),
        (22, [__name__, "Gone"], "holds no data"),
        (23, [__name__, "Shade", {}, [], None, None], "not a pydantic model"),
        (26, ["builtins", "ValueError", [], 5], "repr"),
    ],
)
def test_crafted_payloads_are_deserialization_errors(code, payload, why):
    with pytest.raises(DeserializationError, match=why):
        SERDE.loads_typed(crafted(code, payload))


def _nested_exts(depth: int, code: int = 1) -> bytes:
    """`depth` one-item tuples in one another, built without recursion (ext32 headers)."""
    inner = ormsgpack.packb([])
    headers = []
    size = len(inner)
    for _ in range(depth):
        # the ext's data: a one-item array holding the next level
        headers.append(b"\xc9" + (size + 1).to_bytes(4, "big") + bytes([code]) + b"\x91")
        size += 7
    return b"".join(reversed(headers)) + inner


@pytest.mark.parametrize(
    "blob",
    [
        b"\x91" * 100_000 + b"\xc0",  # 100,000 nested arrays
        b"\x81\xa1k" * 100_000 + b"\xc0",  # 100,000 nested maps
        _nested_exts(100_000),  # 100,000 nested tuples
        _nested_exts(100_000, code=15),  # 100,000 nested non-str-key dicts
        b"\xdd\xff\xff\xff\xff\xc0",  # an array claiming 2**32 - 1 items
        b"\xdf\xff\xff\xff\xff\xc0\xc0",  # a map claiming 2**32 - 1 pairs
        b"\xdb\xff\xff\xff\xffabc",  # a str claiming 4 GiB
        b"\xc6\xff\xff\xff\xffabc",  # bin
        b"\xc9\xff\xff\xff\xff\x01abc",  # an ext claiming 4 GiB
        ormsgpack.packb(ormsgpack.Ext(1, b"\xdd\xff\xff\xff\xff")),  # a tuple claiming 2**32
        ormsgpack.packb(ormsgpack.Ext(2, b"\xdd\x00\x01\x00\x00" + b"\x91" * 5)),
        b"",
        b"\xc1",  # never used
    ],
    ids=lambda b: f"{b[:6].hex()}..{len(b)}",
)
def test_hostile_shapes_are_deserialization_errors(blob):
    with pytest.raises(DeserializationError):
        SERDE.loads_typed(("msgpack", blob))
    assert getattr(jsonplus._nesting, "depth", 0) == 0  # the counter unwinds


def test_nesting_limit_is_the_same_both_ways():
    value: object = frozenset()  # a frozenset too: MAX_NESTING levels in all
    for _ in range(jsonplus.MAX_NESTING - 1):
        value = frozenset({value})
    assert SERDE.loads_typed(SERDE.dumps_typed(value)) == value
    with pytest.raises(jsonplus.SerializationError, match="nested more than"):
        SERDE.dumps_typed(frozenset({value}))
    assert SERDE.loads_typed(("msgpack", _nested_exts(jsonplus.MAX_NESTING))) is not None
    with pytest.raises(DeserializationError, match="nested more than"):
        SERDE.loads_typed(("msgpack", _nested_exts(jsonplus.MAX_NESTING + 1)))


@pytest.mark.parametrize(
    "data",
    [("msgpack", "text"), ("bytes", 5), ("bytearray", None), ("msgpack",), None, 7, (1, b"")],
    ids=repr,
)
def test_malformed_typed_pairs_are_deserialization_errors(data):
    with pytest.raises(DeserializationError):
        SERDE.loads_typed(data)
