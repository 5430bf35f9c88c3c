"""A Pregel built by hand (channels and NodeBuilder nodes, no StateGraph) becomes a spec
(`GraphSpec.pregel`, issue 33): its channels the state keys, its nodes functions wired to them.
Before, such programs opened only as drawings from code. The four programs of the corpus that
build one round-trip through the spec (tests/programs); here, a program run three ways, what the
validator says about a badly wired one, and what the importer refuses, naming it.
"""

from __future__ import annotations

import pytest

from graphspec.errors import SpecError
from graphspec.importer import load_module, spec_of
from graphspec.model import GraphSpec
from graphspec.validator import validate
from tests.graphspec.test_import_reach import program, three_ways

HEAD = """
from langgraph.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic
from langgraph.pregel import NodeBuilder, Pregel
"""


def test_a_pregel_with_every_channel_kind_runs_the_same_three_ways(tmp_path):
    path = program(tmp_path, "wired", """
import operator


def double(x):
    return x * 2


def total(d):
    return sum(d["seen"])


app = Pregel(
    nodes={
        "double": NodeBuilder().subscribe_only("n").do(double).write_to("seen", "last", "sum"),
        "total": NodeBuilder().subscribe_to("seen").do(total).write_to("out"),
    },
    channels={
        "n": EphemeralValue(int),
        "seen": Topic(int, accumulate=True),
        "last": LastValue(int),
        "sum": BinaryOperatorAggregate(int, operator.add),
        "out": EphemeralValue(int),
    },
    input_channels=["n"],
    output_channels=["seen", "last", "sum", "out"],
)
""", HEAD)  # fmt: skip
    spec = three_ways(path, "app", {"n": 5}, tmp_path)
    assert spec.pregel
    kinds = {k.name: (k.channel, k.reducer) for k in spec.state}
    assert kinds == {"n": ("ephemeral", "none"), "seen": ("accumulating_topic", "none"),
                     "last": (None, "none"), "sum": (None, "add"),
                     "out": ("ephemeral", "none")}  # fmt: skip
    wiring = spec.node("total").channels
    assert (wiring.subscribe_to, wiring.write_to) == (["seen"], ["out"])


@pytest.mark.parametrize(
    ("source", "refusal"),
    [
        ('NodeBuilder().subscribe_to("a").read_from("b").do(f).write_to("b")',
         r"node 'n' reads \['a', 'b'\] but is run by \['a'\]"),
        ('NodeBuilder().subscribe_only("a").do(f).do(f).write_to("b")', "runs a"),
        ('NodeBuilder().subscribe_only("a").do(f).write_to(b=lambda x: x)', "writes something else"),
    ],
)  # fmt: skip
def test_what_the_spec_cannot_hold_is_refused_naming_the_node(tmp_path, source, refusal):
    path = program(tmp_path, "odd", f"""
def f(x):
    return x


app = Pregel(nodes={{"n": {source}}}, channels={{"a": LastValue(str), "b": LastValue(str)}},
             input_channels=["a"], output_channels=["b"])
""", HEAD)  # fmt: skip
    with pytest.raises(SpecError, match=refusal):
        spec_of(load_module(str(path), on_engine=True), "app", path.name)


def test_a_bare_value_input_is_refused(tmp_path):
    path = program(tmp_path, "bare", """
app = Pregel(nodes={"n": NodeBuilder().subscribe_only("a").do(str).write_to("b")},
             channels={"a": LastValue(str), "b": LastValue(str)},
             input_channels="a", output_channels=["b"])
""", HEAD)  # fmt: skip
    with pytest.raises(SpecError, match="input is the bare value of channel 'a'"):
        spec_of(load_module(str(path), on_engine=True), "app", path.name)


WIRED = {
    "version": 2,
    "pregel": True,
    "state": [{"name": "a", "type": "str", "output": False}, {"name": "b", "type": "str"}],
    "nodes": [{"id": "n", "kind": "function", "code": "def f(x):\n    return x\n",
               "function": "f", "channels": {"subscribe_only": "a", "write_to": ["b"]}}],
}  # fmt: skip


def _codes(doc: dict) -> list[tuple[str, str, str]]:
    spec = GraphSpec.model_validate(doc)
    return [(f.severity, f.code, f.path) for f in validate(spec)]


def test_the_validator_checks_the_wiring_not_edges():
    assert _codes(WIRED) == []
    node = WIRED["nodes"][0]
    cases = [
        ({"entry": ["n"]}, ("error", "pregel-edges", "$.pregel")),
        ({"nodes": [{**node, "channels": None}]}, ("error", "pregel-node", "$.nodes[0]")),
        ({"nodes": [{**node, "channels": {"subscribe_only": "a", "subscribe_to": ["b"]}}]},
         ("error", "pregel-node", "$.nodes[0].channels")),
        ({"nodes": [{**node, "channels": {"subscribe_only": "zz", "write_to": ["b"]}}]},
         ("error", "unknown-key", "$.nodes[0].channels.subscribe")),
        ({"state": [{"name": "a", "type": "str", "input": False},
                   {"name": "b", "type": "str", "input": False}]},
         ("error", "pregel-input", "$.state")),
        ({"pregel": False, "entry": ["n"], "finish": ["n"]},
         ("warning", "pregel-node", "$.nodes[0].channels")),
    ]  # fmt: skip
    for change, finding in cases:
        assert finding in _codes({**WIRED, **change}), change
