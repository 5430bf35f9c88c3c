"""Differential test: a workflow's stream gives each @task call's update when the call ends,
while the entrypoint still runs (not all at once when the workflow returns)."""

import threading

import pytest

from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_a_calls_update_reaches_the_caller_before_the_workflow_ends():
    def scenario(b):
        func = b.func
        acked = threading.Event()
        heard: list[bool] = []

        @func.task()
        def double(x: int) -> int:
            return 2 * x

        @func.entrypoint()
        def flow(n: int) -> int:
            first = double(n).result()
            heard.append(acked.wait(5))  # the caller has seen the first call's update
            return double(first).result()

        chunks = []
        for chunk in flow.stream(3):
            chunks.append(chunk)
            if "double" in chunk:
                acked.set()
        return chunks, heard

    assert_same(scenario)
