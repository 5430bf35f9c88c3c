"""Differential test: a semantic search's scores are the very floats langgraph's InMemoryStore
gives, not values a few ulps away. langgraph scores with numpy when it is installed (one
matrix-vector product over every stored vector); summing in plain Python differed in the last
digits (Ravijot/LangChain_LangGraph's 38_namespace_semantic_search.py printed other scores)."""

from __future__ import annotations

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from tests.oracle import assert_same

pytestmark = pytest.mark.differential

FOODS = ["I like pizza", "I dont like Chinese food", "sushi on Fridays", "no coffee after 5pm",
         "vegetarian since 2019", "spicy ramen", "allergic to peanuts"]  # fmt: skip


def test_search_scores_are_bit_equal():
    def scenario(b):
        store = b.mod("store.memory").InMemoryStore(
            index={
                "embed": DeterministicFakeEmbedding(size=256),
                "dims": 256,
                "fields": ["food_preference", "$"],
            }  # fmt: skip
        )
        for i, food in enumerate(FOODS):
            store.put(("1", "memories"), f"m{i}", {"food_preference": food, "n": i})
        store.put(("1", "memories"), "plain", {"other": "no text field"}, index=False)
        hits = store.search(("1", "memories"), query="Which food user dont like?", limit=10)
        paged = store.search(("1",), query="pizza", limit=3, offset=2)
        return [(h.key, h.score) for h in hits], [(h.key, h.score) for h in paged]

    hits, paged = assert_same(scenario)
    assert len(hits) == len(FOODS) + 1 and hits[-1] == ("plain", None) and len(paged) == 3
