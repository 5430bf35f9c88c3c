"""Differential tests of batch and abatch, with and without return_exceptions."""

from tests.engine.graphs import _cond_app, route_literal
from tests.oracle import normalize


def test_batch(backend):
    app = _cond_app(backend, route_literal)
    assert app.batch([{"log": [], "n": 1}, {"log": [], "n": 0}]) == [
        {"log": ["start", "x"], "n": 1},
        {"log": ["start", "y"], "n": 0},
    ]


def test_batch_return_exceptions(backend):
    app = _cond_app(backend, route_literal)
    out = app.batch([{"log": [], "n": 1}, {"log": 5, "n": 0}], return_exceptions=True)
    assert out[0] == {"log": ["start", "x"], "n": 1}
    assert normalize(out[1]) == ("TypeError", 'can only concatenate list (not "int") to list')


async def test_abatch(backend):
    app = _cond_app(backend, route_literal)
    assert await app.abatch([{"log": [], "n": 1}, {"log": [], "n": 0}]) == [
        {"log": ["start", "x"], "n": 1},
        {"log": ["start", "y"], "n": 0},
    ]
