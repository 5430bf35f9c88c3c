"""Each prebuilt middleware's settings, read from its constructor: what LangChain refuses to
build (a required setting left out, an unknown one) is a validator error naming the node and
the field, and the compiler refuses the same spec."""

from __future__ import annotations

import inspect

import langchain.agents.middleware as lc
import pytest

from graphspec.compiler import compile_spec
from graphspec.errors import SpecError
from graphspec.middleware_settings import middleware_class, settings_for
from graphspec.model import PREBUILT_MIDDLEWARE
from graphspec.validator import validate
from tests.graphspec.test_agent_checks import agent_spec, prebuilt

REQUIRED = {
    "human_in_the_loop": ["interrupt_on"],
    "pii": ["pii_type"],
    "summarization": ["model"],
    "model_fallback": ["first_model"],
}
"""What each needs, as langchain's own constructors require it."""

VALID = {
    "human_in_the_loop": {"interrupt_on": {"add": True}},
    "pii": {"pii_type": "email"},
    "summarization": {"model": "scripted:summary", "trigger": {"messages": 40}},
    "model_fallback": {"first_model": "scripted:backup"},
    "model_call_limit": {"run_limit": 3},
    "tool_call_limit": {"run_limit": 3},
}
ENGINE_HAS = [n for n in PREBUILT_MIDDLEWARE if middleware_class(n) is not None]


def errors(spec):
    return [(f.code, f.element_id, f.path) for f in validate(spec) if f.severity == "error"]


@pytest.mark.parametrize("name", ENGINE_HAS)
def test_required_settings_match_langchain(name):
    ours = [s.name for s in settings_for(name) if s.required]
    theirs = getattr(lc, PREBUILT_MIDDLEWARE[name])
    required = [p.name for p in inspect.signature(theirs.__init__).parameters.values()
                if p.name != "self" and p.default is p.empty
                and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]  # fmt: skip
    assert ours == required == REQUIRED.get(name, [])


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_a_required_setting_left_out_is_an_error_naming_node_and_field(name):
    (field,) = REQUIRED[name]
    with pytest.raises(TypeError, match=field):  # what langchain does with it
        getattr(lc, PREBUILT_MIDDLEWARE[name])()
    spec = agent_spec(prebuilt(name))
    assert errors(spec) == [
        ("missing-setting", "assistant", f"$.agents[0].middleware[0].settings.{field}")
    ]
    message = next(f for f in validate(spec) if f.code == "missing-setting")
    assert field in message.message and message.fix
    with pytest.raises(SpecError) as caught:
        compile_spec(spec, trusted=True)
    assert caught.value.element_id == "assistant"
    # with it, the spec is clean and compiles
    fixed = agent_spec(prebuilt(name, **VALID[name]))
    assert errors(fixed) == []
    compile_spec(fixed, trusted=True)


@pytest.mark.parametrize("name", ["model_call_limit", "tool_call_limit"])
def test_a_call_limit_needs_a_limit(name):
    with pytest.raises(ValueError):
        getattr(lc, PREBUILT_MIDDLEWARE[name])()
    assert errors(agent_spec(prebuilt(name))) == [
        ("no-limit", "assistant", "$.agents[0].middleware[0].settings")
    ]
    assert errors(agent_spec(prebuilt(name, **VALID[name]))) == []


def test_unknown_and_refused_settings_are_errors():
    assert errors(agent_spec(prebuilt("model_retry", max_retrys=3))) == [
        ("unknown-setting", "assistant", "$.agents[0].middleware[0].settings.max_retrys")
    ]
    [(code, element, _path)] = errors(agent_spec(prebuilt("pii", pii_type="phone")))
    assert (code, element) == ("bad-setting", "assistant")


def test_a_middleware_the_engine_lacks_is_an_error():
    missing = [n for n in PREBUILT_MIDDLEWARE if middleware_class(n) is None]
    for name in missing:
        assert errors(agent_spec(prebuilt(name))) == [
            ("unsupported-middleware", "assistant", "$.agents[0].middleware[0]")
        ]


def test_settings_have_form_kinds():
    kinds = {s.name: s.kind for s in settings_for("tool_call_limit")}
    assert kinds == {
        "tool_name": "str",
        "thread_limit": "int",
        "run_limit": "int",
        "exit_behavior": "choice",
    }
    assert {s.name: s.kind for s in settings_for("summarization")}["model"] == "model"
    hitl = {s.name: s for s in settings_for("human_in_the_loop")}
    assert hitl["interrupt_on"].required and hitl["interrupt_mode"].choices == (
        "batched",
        "per_call",
    )
