"""Calls of arrays only that repeat the last layout (``tograph.layout_check``).

The generated check runs the last looked-up runner without building a key; every test changes
the arguments between calls in a way the check must notice (dtype, shape, an array reshaped or
retyped in place, a non-contiguous array, a NumPy scalar, another arity) and compares each result
with the eager call's, value, dtype and type.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tograph as tg
from tograph import layout_check


def affine(x, w, b):
    return x @ w + b


def _same(got: Any, want: Any) -> None:
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)


def _calls(fn: Any, calls: list[tuple[Any, ...]]) -> None:
    compiled = tg.to_static(fn, fallback="error")
    for args in calls:
        _same(compiled(*args), fn(*args))


def _layer(dtype: Any = np.float64, batch: int = 2) -> tuple[Any, ...]:
    rng = np.random.default_rng(0)
    return (
        rng.normal(size=(batch, 3)).astype(dtype),
        rng.normal(size=(3, 4)).astype(dtype),
        rng.normal(size=4).astype(dtype),
    )


def rows(x):
    """A graph that depends on the layout: a reshape to the first dim, a branch on the dtype."""
    out = x.reshape(x.shape[0], -1)
    return out.astype(np.float64) if x.dtype == np.int64 else out * 2


def test_a_repeated_layout_is_served_and_another_dtype_or_shape_is_not():
    calls = [_layer(), _layer(), _layer(np.float32), _layer(np.float32), _layer(), _layer(batch=5)]
    _calls(affine, calls)
    x = np.arange(12).reshape(3, 4)
    _calls(rows, [(x,), (x,), (x.astype(np.int32),), (x.reshape(2, 6),), (x,)])


def test_an_array_reshaped_or_retyped_in_place_is_checked_again():
    x = np.arange(12).reshape(3, 4)
    compiled = tg.to_static(rows, fallback="error")
    for _ in range(3):
        _same(compiled(x), rows(x))
    assert compiled._repeated is not layout_check.never
    x.shape = (2, 2, 3)
    _same(compiled(x), rows(x))
    x.dtype = np.uint64  # the same bytes read as unsigned integers
    _same(compiled(x), rows(x))


def test_a_layout_check_is_generated_when_its_layout_comes_again():
    """A function called once per layout (most functions converted) generates no check; the
    second call of a layout generates it, and the third is served by it."""
    x = np.arange(12.0).reshape(3, 4)
    compiled = tg.to_static(rows, fallback="error")
    _same(compiled(x), rows(x))
    [(runner, check)] = compiled._flat.values()
    assert check is None and compiled._repeated is layout_check.never
    _same(compiled(x), rows(x))
    [(_, check)] = compiled._flat.values()
    assert check is not None and compiled._repeated is check
    assert check((x,)) is not layout_check.MISS and check((x.T,)) is layout_check.MISS
    _same(compiled(x), rows(x))


def test_a_non_contiguous_array_of_the_same_shape_gives_eager_values():
    def chain(x):
        return np.tanh(x * 2.0 + 1.0).reshape(-1)

    square = np.arange(16.0).reshape(4, 4)
    _calls(chain, [(square,), (square,), (square.T,), (square,)])


def test_numpy_scalars_and_an_equal_dtype_that_is_another_object():
    def scale(x, s):
        return x * s

    tagged = np.dtype(np.float64, metadata={"unit": "m"})
    assert tagged == np.float64 and tagged is not np.dtype(np.float64)
    x = np.arange(3.0)
    calls = [(x, np.float64(2.0)), (x, np.float64(3.0)), (x.astype(tagged), np.float64(3.0))]
    calls += [(x, np.float32(2.0)), (x, np.int8(2))]
    _calls(scale, calls)


def test_other_arities_and_keywords_take_the_keyed_path():
    def total(x, y=None):
        return x.sum() if y is None else x.sum() + y.sum()

    x, y = np.arange(3.0), np.arange(4.0)
    compiled = tg.to_static(total, fallback="error")
    for args, kwargs in [((x, y), {}), ((x, y), {}), ((x,), {}), ((x,), {"y": y}), ((x, y), {})]:
        _same(compiled(*args, **kwargs), total(*args, **kwargs))


def test_value_and_grad_repeats_its_layout_too():
    def loss(w, x):
        return np.sum(np.tanh(x @ w) ** 2)

    vg = tg.value_and_grad(tg.to_static(loss, fallback="error"))
    rng = np.random.default_rng(1)
    w, x = rng.normal(size=(3, 2)), rng.normal(size=(5, 3))
    for args in [(w, x), (w, x), (w, x[:2]), (w, x)]:
        value, grad = vg(*args)
        _same(value, loss(*args))
        step = 1e-6
        bumped = w.copy()
        bumped[0, 0] += step
        lowered = w.copy()
        lowered[0, 0] -= step
        numeric = (loss(bumped, args[1]) - loss(lowered, args[1])) / (2 * step)
        assert grad[0, 0] == pytest.approx(numeric, rel=1e-6, abs=1e-9)


def test_the_generated_check_misses_on_anything_but_its_layout():
    args = (np.zeros((2, 3)), np.float32(1.0))
    check = layout_check.for_layout(args, lambda a: ("ran", len(a)))
    assert check(args) == ("ran", 2)
    assert check((np.ones((2, 3)), np.float32(5.0))) == ("ran", 2)
    for other in [
        (np.zeros((3, 2)), np.float32(1.0)),
        (np.zeros((2, 3), np.float32), np.float32(1.0)),
        (np.zeros((2, 3)), np.float64(1.0)),
        (np.zeros((2, 3)), 1.0),
        (np.zeros((2, 3)),),
        (np.zeros((2, 3)), np.float32(1.0), np.float32(1.0)),
        (np.matrix(np.zeros((2, 3))), np.float32(1.0)),
    ]:
        assert check(other) is layout_check.MISS
    assert layout_check.for_layout((), lambda a: "none")(()) == "none"
    assert layout_check.never(args) is layout_check.MISS
