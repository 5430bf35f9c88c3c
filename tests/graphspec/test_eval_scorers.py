"""The scorers an experiment names (graphspec.evals.scorers) on one run each, the bundled
template's dataset, and the template listing passing over dataset files."""

from __future__ import annotations

import pytest

from graphspec.errors import BadInput
from graphspec.evals.datasets import Example, datasets_beside, load_dataset
from graphspec.evals.scorers import Run, ScoreError, parse_scorer
from graphspec.templates import SOURCE_TEMPLATES, list_templates

MESSAGES = [{"type": "human", "content": "2+3?"},
            {"type": "ai", "content": "The sum is 5.", "tool_calls": []}]  # fmt: skip
OUTPUT = {"total": 4.9999, "label": "Billing", "messages": MESSAGES, "doc": {"a": [{"b": 7}]}}
RUN = Run(OUTPUT, ["classify", "billing", "notify"], ["add"])
EXAMPLE = Example("e", {}, {"total": 5, "label": "Billing", "messages": "sum is 5",
                            "trajectory": ["classify", "billing"], "tools": ["add"]})  # fmt: skip


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("exact:label", 1.0),
        ("exact:total", 0.0),
        ("contains:messages", 1.0),  # the last message's text, case-folded
        ("contains:messages=SUM IS 6", 0.0),
        ("regex:messages=^The sum is \\d+\\.$", 1.0),
        ("jsonpath:$.doc.a[0].b=7", 1.0),
        ("jsonpath:$.doc.a[0].b=8", 0.0),
        ("number:total~0.001", 1.0),
        ("number:total", 0.0),
        ("trajectory", 0.0),
        ("trajectory:classify,billing,notify", 1.0),
        ("trajectory-set:notify,billing,classify", 1.0),
        ("tools", 1.0),
    ],
)
def test_each_scorer_on_one_run(text, score):
    assert parse_scorer(text).score(RUN, EXAMPLE) == score


def test_a_scorer_that_cannot_score_says_why():
    with pytest.raises(ScoreError, match="has no expected value for 'missing'"):
        parse_scorer("exact:missing").score(Run({"missing": 1}, [], []), EXAMPLE)
    with pytest.raises(ScoreError, match=r"nothing at \$.doc.z"):
        parse_scorer("jsonpath:$.doc.z=1").score(RUN, EXAMPLE)


@pytest.mark.parametrize(("text", "problem"), [("regex:label=(", "not a regular expression"),
                                               ("exact", "needs an argument"),
                                               ("number:total~x", "must be a number"),
                                               ("judge:openai", "give judge:PROVIDER:MODEL")])  # fmt: skip
def test_a_bad_scorer_is_refused(text, problem):
    with pytest.raises(BadInput, match=problem):
        parse_scorer(text)


def test_the_bundled_dataset_ships_beside_its_template_and_is_not_listed_as_one():
    spec = SOURCE_TEMPLATES / "ticket_triage.json"
    assert datasets_beside(spec) == [SOURCE_TEMPLATES / "ticket_triage.tickets.jsonl"]
    dataset = load_dataset(datasets_beside(spec)[0])
    assert len(dataset.examples) >= 10 and dataset.scorers
    names = [t.name for t in list_templates(SOURCE_TEMPLATES)]
    assert "ticket_triage" in names and not any("tickets" in n for n in names)
