"""Safe expressions: what they compute, what they refuse, and their Python translation."""

from __future__ import annotations

import pytest

from graphspec.errors import ExpressionError
from graphspec.expressions import evaluate, free_names, returns_many, to_python

STATE = {"total": 4, "name": "Ada", "items": [3, 1, 2], "flags": {"ok": True}, "text": " Hi "}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("total + 1", 5),
        ("total * 2 - 3 / 2", 6.5),
        ("total // 3 + total % 3 + 2 ** 3", 10),
        ("'b' if total > 3 else 'c'", "b"),
        ("total > 3 and name == 'Ada'", True),
        ("not flags['ok'] or missing is None", True),
        ("state['total'] == total", True),
        ("len(items) + sum(items) + max(items)", 12),
        ("sorted(items)[0]", 1),
        ("items[1:]", [1, 2]),
        ("name.upper() + text.strip().lower()", "ADAhi"),
        ("', '.join([name, 'x'])", "Ada, x"),
        ("flags.get('ok', False)", True),
        ("[x * 2 for x in items if x > 1]", [6, 4]),
        ("f'Joke about {name}!'", "Joke about Ada!"),
        ("END", "__end__"),
        ("[item, total]", [7, 4]),
        ("1 < total <= 4", True),
        ("{'a': [1, 2], 'b': (3,)}", {"a": [1, 2], "b": (3,)}),
        ("'da' in name", True),
    ],
)
def test_evaluate(expression, expected):
    assert evaluate(expression, STATE, item=7) == expected
    # the exported Python means the same thing
    assert eval(to_python(expression), {"END": "__end__", "item": 7}, {"state": STATE}) == expected


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os')",
        "name.__class__",
        "().__class__.__bases__",
        "open('/etc/passwd')",
        "eval('1')",
        "lambda: 1",
        "(x := 3)",
        "name.format(1)",
        "f'{total:>100000000}'",
        "[y for y in items for z in items]; 1",
        "import os",
        "",
        "total +",
        "len(*items)",
        "items.append(3)",
    ],
)
def test_refused_at_parse(expression):
    with pytest.raises(ExpressionError):
        evaluate(expression, STATE)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("'x' * 10 ** 9", r"string of 1,000,000,000 characters \(limit 10,000,000\)"),
        ("9 ** 9999", "exponent too large"),
        ("(9 ** 999) ** 999", r"bits \(limit 20,000\)"),
        ("total / 0", "ZeroDivisionError"),
        ("name - 1", "TypeError"),
        ("'%s' % name", "f-string"),
        ("items.split()", "not allowed on list"),
    ],
)
def test_fails_safely_at_run(expression, message):
    with pytest.raises(ExpressionError, match=message):
        evaluate(expression, STATE)


def test_free_names_are_the_state_keys_read():
    assert free_names("len(items) > total and state['x'] or [v for v in other if v]") == {
        "items",
        "total",
        "other",
    }
    assert free_names("item + END") == set()


def test_returns_many():
    assert returns_many("['a', 'b']")
    assert returns_many("[x for x in items]")
    assert returns_many("['a'] if total else ['b', 'c']")
    assert not returns_many("'a' if total else 'b'")


def test_to_python_reads_missing_keys_as_none():
    assert to_python("missing is None") == "state.get('missing') is None"
    assert to_python("[v for v in items]") == "[v for v in state.get('items')]"


def test_message_attributes_only_on_messages():
    from langchain_core.messages import AIMessage

    state = {
        "messages": [AIMessage(content="hi", tool_calls=[{"name": "t", "args": {}, "id": "1"}])]
    }
    assert evaluate("'tools' if messages[-1].tool_calls else END", state) == "tools"
    assert evaluate("messages[-1].content.upper()", state) == "HI"
    with pytest.raises(ExpressionError, match="messages only"):
        evaluate("name.content", STATE)
    with pytest.raises(ExpressionError, match="not allowed"):
        evaluate("messages[-1].response_metadata", state)


# ------------------------------------------------------------------ comprehension scopes (issue 10.2)

LEAK = "[1 for eval in []] + sorted(xs, key=eval)"


def test_a_comprehension_variable_does_not_leak_into_the_exported_code():
    # outside the comprehension `eval` is a state key (None here), never Python's eval
    code = to_python(LEAK)
    assert code == "[1 for eval in []] + sorted(state.get('xs'), key=state.get('eval'))"
    assert eval(code, {}, {"state": {"xs": [2, 1]}}) == [1, 2]
    assert evaluate(LEAK, {"xs": [2, 1]}) == [1, 2]
    assert free_names(LEAK) == {"xs", "eval"}


@pytest.mark.parametrize(
    ("expression", "python", "free"),
    [
        # the first iterable is read outside the comprehension, as in Python 3
        ("[x for x in x]", "[x for x in state.get('x')]", {"x"}),
        ("[v for v in items] + [v]", "[v for v in state.get('items')] + [state.get('v')]", {"items", "v"}),
        ("[[y for y in x] for x in items] + [y]",
         "[[y for y in x] for x in state.get('items')] + [state.get('y')]", {"items", "y"}),
        ("[a for a, b in pairs if b] and a", "[a for a, b in state.get('pairs') if b] and state.get('a')",
         {"pairs", "a"}),
    ],
)  # fmt: skip
def test_comprehension_names_are_scoped_like_python(expression, python, free):
    assert to_python(expression) == python
    assert free_names(expression) == free
    state = {"x": [1, 2], "items": [[1], [2]], "v": 9, "y": 8, "pairs": [(1, True)], "a": 7}
    assert evaluate(expression, state) == eval(python, {}, {"state": state})


def test_a_variable_read_before_its_for_binds_it_fails_in_both():
    from graphspec.expressions import early_names

    expression = "[x for x in items if y for y in items]"
    assert early_names(expression) == {"y"}
    with pytest.raises(ExpressionError, match="before the comprehension binds it"):
        evaluate(expression, {"items": [1], "y": 1})
    with pytest.raises(NameError):
        eval(to_python(expression), {}, {"state": {"items": [1], "y": 1}})


def test_a_comprehension_variable_cannot_hide_a_function():
    with pytest.raises(ExpressionError, match="would hide len"):
        evaluate("[len(x) for len in items]", STATE)
