"""Regression tests for what the random-program tester (``tests/fuzz``) found: each function is
a shrunk program it generated, compared with its eager run (``eager_oracle``)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def any_and_all_methods(x):
    if (x < 2).all() or (x > 5).any():
        return x.any(), x.all(axis=0), (x > 0).all(keepdims=True)
    return x.any(), x.all(axis=0), (x > 1).all(keepdims=True)


def numpy_scalar_types_of_tensors(x, s, k):
    total = np.float64(s) + np.float32(k)
    if np.float64(x.sum()) > np.int64(s):
        total += np.int64(x[0])
    return total, np.float32(x), np.bool_(x), np.int64(k), np.complex128(s)


def numpy_scalar_type_of_an_array_of_its_dtype_is_the_array(x):
    same = np.float64(x)  # NumPy returns x itself
    same[0] = 7.0
    other = np.float32(x)  # a converted copy
    other[1] = -7.0
    return same


@pytest.mark.parametrize(
    "fn, args",
    [
        (any_and_all_methods, (np.array([[0.0, 1.0], [3.0, 0.5]]),)),
        (any_and_all_methods, (np.ones((2, 2)),)),
        (numpy_scalar_types_of_tensors, (np.arange(3.0), np.float32(1.5), np.int64(2))),
        (numpy_scalar_types_of_tensors, (-np.arange(3.0), 2.5, np.int64(0))),
        (numpy_scalar_type_of_an_array_of_its_dtype_is_the_array, (np.arange(3.0),)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def test_numpy_scalar_type_of_an_array_of_its_dtype_returns_the_callers_array():
    x = np.arange(3.0)
    result = tg.to_static(numpy_scalar_type_of_an_array_of_its_dtype_is_the_array)(x)
    assert result is x or np.shares_memory(result, x)
    np.testing.assert_array_equal(x, [7.0, 1.0, 2.0])
