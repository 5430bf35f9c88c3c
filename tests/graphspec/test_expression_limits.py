"""Expression resource limits (issue 10.5): refused before the memory or the time is spent, with
an error naming the limit (and, once compiled, the node and field); Stop ends a running one."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from graphspec import expression_limits
from graphspec.compiler import compile_spec
from graphspec.expressions import (
    ExpressionError,
    LimitError,
    StoppedError,
    cancel_with,
    evaluate,
)
from tests.graphspec.helpers import graph, setter, write_spec

ROOT = Path(__file__).resolve().parents[2]
X = "[0] * 100000"  # as long as a list may be
LOOP = f"[0 for a in {X} for b in {X} if a]"  # 10**10 iterations, an empty result
STATE = {
    "messages": [AIMessage(content="hello " * 200)] * 50,
    "rows": [{"content": "hello " * 200}] * 50,
    "items": [3, 1, 2],
    "parts": ["x" * 100_000] * 1000,
    "big": 2**15000,  # a state may hold what an expression may not build
}


def _refused(expression: str, match: str, state: dict | None = None) -> float:
    """The CPU seconds this process spent before the limit refused `expression`: the work the
    evaluator did, which other processes loading the machine do not inflate as they do the
    wall clock."""
    start = time.process_time()
    with pytest.raises(LimitError, match=match):
        evaluate(expression, STATE if state is None else state)
    return time.process_time() - start


@pytest.mark.parametrize(
    ("expression", "match"),
    [
        # aliasing: 100,000 references to one list of 100,000 serialise to 10**10 elements
        ("[[0] * 100000] * 100000", r"value of at least [\d,]+ characters written out \(limit 10,000,000\)"),
        ("sorted([[0] * 100000] * 100000)", "written out"),
        ("str([[0] * 100000] * 100)", "written out"),
        ("[messages] * 100000", "written out"),
        ("[rows for i in [0] * 100000]", "written out"),
        ("[len(s) for s in ['x' * 10**6] * 100000]", "written out"),
        # strings sized before they are built
        ("'a' * 10**9", r"string of 1,000,000,000 characters \(limit 10,000,000\)"),
        ("'a' * 10**7 + 'b'", "string of 10,000,001 characters"),
        ("('x' * 10**7).replace('', 'yy')", "string of 30,000,002 characters"),
        ("('x' * 10**6).replace('x', 'x' * 100)", "string of 100,000,000 characters"),
        ("('x' * 100000).replace('', 'y' * 100000)", "string of 10,000,200,000 characters"),
        ("str(['x' * 100000] * 100000)", "written out"),
        ("f'{[1] * 100000}' * 100000", "string of"),
        ("f\"{['x' * 100000] * 100000!r}\"", "written out"),
        ("','.join(parts)", "string of 100,000,999 characters"),
        ("f'{rows}{rows}' * 1000", "string of"),
        ("f'{[chr for chr in rows] * 200}'", "written out"),
        ("len(('x' * 10**7).split('x'))", r"list of 100,001 items \(limit 100,000\)"),
        ("len(('x ' * 10**6).split())", "list of 100,001 items"),
        # what an evaluation builds in all, intermediate values included
        ("max(" + ", ".join(["'x' * 10**7"] * 60) + ")", r"in all \(limit 50,000,000\)"),
        (f"[1 for a in {X} if a in {X}]", "in all"),
        # big integers, before they are computed
        ("10 ** 10 ** 10", r"exponent too large \(limit 1,000\)"),
        ("(2 ** 1000) ** 1000", r"integer of 1,000,000 bits \(limit 20,000\)"),
        ("big * big", "integer of 30,001 bits"),
        ("round(5, -10 ** 9)", r"round\(\) to -1,000,000,000 digits"),
        # iterations
        (LOOP, r"more than 2,000,000 steps \(limit 2,000,000\)"),
        (f"[[b for b in {X}] for a in {X}]", "steps"),
        (f"sum([len(items) for a in {X} for b in {X}])", "list of 100,001 items|steps"),
        (f"[0 for a in {X} for b in {X}]", "list of 100,001 items"),
        ("sum([[0]] * 100000, []) + sum([[0] * 100] * 100000, [])", "written out"),
    ],
)  # fmt: skip
def test_an_attack_is_refused_quickly_naming_the_limit(expression, match):
    assert _refused(expression, match) < 5


@pytest.mark.parametrize(
    "expression",
    [
        "'x'.ljust(10**10)",
        "'x'.center(10**10)",
        "'x'.zfill(10**10)",
        "'{:>9999999999}'.format(1)",
        "f'{1:>9999999999}'",
        "f'{items!r:>9999999999}'",
        "list(range(10**12))",
        "sum(range(10**10))",
        "[" * 150 + "]" * 150,
        "-" * 1900 + "1",
    ],
)
def test_what_the_whitelist_already_refuses_stays_refused(expression):
    with pytest.raises(ExpressionError):
        evaluate(expression, STATE)


def test_ordinary_expressions_still_work():
    assert evaluate("sum([[1], [2]], [0])", STATE) == [0, 1, 2]
    assert evaluate("sorted(items, key=str)", STATE) == [1, 2, 3]
    assert evaluate("'a,b'.split(',') + 'a b'.split(maxsplit=0)", STATE) == ["a", "b", "a b"]
    assert evaluate("'-'.join(['a', 'b']).replace('-', '+', 1)", STATE) == "a+b"
    assert evaluate("len(str(messages))", STATE) == len(str(STATE["messages"]))
    assert evaluate("f'{items!r}'", STATE) == "[3, 1, 2]"
    assert evaluate("len([0] * 100000) + len('x' * 10**7)", STATE) == 10_100_000
    assert evaluate(f"len([a for a in {X}])", STATE) == 100_000
    assert evaluate("round(1234, -2)", STATE) == 1200


def test_a_cyclic_or_deeply_nested_state_value_is_measured_without_crashing():
    cyclic: list = []
    cyclic.append(cyclic)
    deep: list = []
    for _ in range(5000):  # past Python's recursion limit
        deep = [deep]
    for expression in ("str(cyclic)", "str(deep)", "f'{deep}'", "[deep, 1]"):
        start = time.process_time()
        with pytest.raises(LimitError, match="nested more than 1,000 levels"):
            evaluate(expression, {"cyclic": cyclic, "deep": deep})
        assert time.process_time() - start < 1
    assert evaluate("cyclic[0][0] is cyclic", {"cyclic": cyclic}) is True


def test_a_cancelled_run_stops_a_running_expression(monkeypatch):
    monkeypatch.setattr(expression_limits, "MAX_STEPS", 10**12)  # only the cancel can end it
    event = threading.Event()
    threading.Timer(0.3, event.set).start()
    start = time.monotonic()
    with cancel_with(event), pytest.raises(StoppedError, match="stopped"):
        evaluate(LOOP, {})
    assert time.monotonic() - start < 3


def _summarise(text: str):
    return graph(
        state=[{"name": "text"}],
        nodes=[setter("summarise", text=text)],
        entry=["summarise"],
        finish=["summarise"],
    )


def test_a_limit_hit_in_a_run_names_the_node_and_the_field():
    app = compile_spec(_summarise("'x' * 12 * 10**9"))
    with pytest.raises(LimitError) as info:
        app.invoke({"text": ""})
    assert str(info.value) == (
        "node 'summarise', field 'values.text': the expression would build a string of "
        "12,000,000,000 characters (limit 10,000,000)"
    )
    assert (info.value.element_id, info.value.path) == ("summarise", "$.nodes[0].values.text")


def test_a_send_router_shares_one_budget_across_its_sends():
    spec = graph(
        state=[{"name": "rows", "type": "list", "reducer": "add"}],
        nodes=[setter("start"), setter("work", rows="[item]")],
        conditional_edges=[{
            "id": "fan", "source": "start",
            "router": {"kind": "send", "target": "work", "over": X,
                       "input": {"rows": f"[len([1 for b in {X[:-3]}00 if b])]"}},
        }],
        entry=["start"],
        finish=["work"],
    )  # fmt: skip
    start = time.process_time()
    with pytest.raises(LimitError, match="edge 'fan', field 'router.input.rows': .* steps"):
        compile_spec(spec).invoke({"rows": []})
    assert time.process_time() - start < 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[0] * 100000] * 100000", "written out (limit 10,000,000)"),
        (LOOP, "steps (limit 2,000,000)"),
    ],
)
def test_the_cli_fails_the_run_in_one_line(tmp_path, text, message):
    path = write_spec(tmp_path, state=[{"name": "text"}], nodes=[setter("summarise", text=text)],
                      entry=["summarise"], finish=["summarise"])  # fmt: skip
    code = "import sys; from studio.cli import main; sys.exit(main(sys.argv[1:]))"
    result = subprocess.run([sys.executable, "-c", code, "run", str(path), "--input", "{}"],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)  # fmt: skip
    assert result.returncode == 1, result.stderr
    [line] = result.stderr.splitlines()
    assert "run failed" in line and "node 'summarise', field 'values.text'" in line
    assert message in line
