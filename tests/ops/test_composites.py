"""Composite NumPy functions (built from other primitives) against NumPy."""

import numpy as np
import pytest
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types
from tograph.trace import builder

X = np.array([[3.0, -1.0, 2.0, 2.0], [0.5, 4.0, -2.0, 1.0], [1.0, 1.0, 0.0, -3.0]])


@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_argsort_take_along_axis(axis):
    check(lambda x: np.sort(x, axis=axis), X)
    check(lambda x: np.argsort(x, axis=axis), X)
    if axis is not None:
        check(lambda x: np.take_along_axis(x, np.argsort(x, axis=axis), axis=axis), X)
    check(lambda v: (np.sort(v), np.argsort(v, kind="stable")), X[0])


SIGNED_ZEROS = np.array([0.0, -0.0, 1.0, -0.0, 0.0, 2.0, -1.0] * 3)
NANS = np.array([np.nan, 1.0, -np.nan, 0.5, -0.0, 0.0])


@pytest.mark.parametrize("x", [SIGNED_ZEROS, NANS, SIGNED_ZEROS.reshape(3, 7).T])
def test_sort_gives_numpys_bits_for_equal_values(x):
    """np.sort and ndarray.sort give eager's bits: NumPy's unstable sort puts -0.0 and 0.0
    where a stable argsort does not, and its vectorised sort rewrites a NaN's sign bit; a sort
    by argsort's positions once differed in both."""

    def sorted_three_ways(a):
        b = a.copy()
        b.sort(axis=0)
        return np.sort(a), np.sort(a, axis=None), b

    static = tg.to_static(sorted_three_ways, fallback="error")
    for got, want in zip(static(x.copy()), sorted_three_ways(x.copy())):
        assert np.array_equal(got, want, equal_nan=True)
        assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("n, axis", [(1, -1), (2, -1), (1, 0)])
def test_diff(n, axis):
    check(lambda x: np.diff(x, n=n, axis=axis), X)
    check(lambda b: np.diff(b), np.array([True, True, False, True]))


@pytest.mark.parametrize("shift, axis", [(1, None), (-2, 1), (5, 0), (0, 1)])
def test_roll(shift, axis):
    check(lambda x: np.roll(x, shift, axis=axis), X)


@pytest.mark.parametrize("k", [-1, 0, 2])
def test_triangles(k):
    check(lambda x: (np.triu(x, k), np.tril(x, k)), X)
    check(lambda x: np.triu(x, k), np.arange(24, dtype=np.int32).reshape(2, 3, 4))


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_isclose_and_allclose():
    a = np.array([1.0, np.inf, np.nan, 2.0, 0.0])
    b = np.array([1.0 + 1e-9, np.inf, np.nan, 2.1, 1e-9])
    check(lambda a, b: (np.isclose(a, b), np.isclose(a, b, equal_nan=True)), a, b)
    check(lambda a, b: np.isclose(a, b, atol=0.2), np.arange(3), np.arange(3) + 0.1)
    check(lambda a, b: np.allclose(a, b), a[:2], b[:2])
    check(lambda a, b: np.allclose(a, b), a, b)


def test_dynamic_dims_run_numpy_only_where_a_static_grid_is_needed():
    b = builder.GraphBuilder("f")
    with b.active():
        x = b.add_input(types.TensorType(np.float64, (None, 4)), "x")
        rolled = np.roll(x, 1)  # no static grid: NumPy's own roll runs when the graph does
        assert b.eqns[-1].prim.name == "numpy_call"
        assert rolled.type == types.TensorType(np.float64, (None, 4))
        assert np.diff(x).type == types.TensorType(np.float64, (None, 3))
        v = b.add_input(types.TensorType(np.float64, (None,)), "v")
        assert np.sort(v).type == types.TensorType(np.float64, (None,))


def test_take_along_axis_broadcasts_indices_against_the_array():
    # Regression: the index grid came from the indices' dims, so indices of shape (1, 2) along
    # axis 1 of a (3, 4) array picked from row 0 only, where NumPy broadcasts them to every row.
    check(lambda x, i: np.take_along_axis(x, i, axis=1), X, np.array([[3, 0]]))
    check(lambda x, i: np.take_along_axis(x, i, axis=0), X, np.array([[2], [0]]))


def test_take_along_axis_and_sort_with_runtime_dims():
    check(lambda x: np.sort(x, axis=1), X, unknown={0: (0, 1)})
    check(lambda x: np.take_along_axis(x, np.argsort(x, axis=0), axis=0), X, unknown={0: (0,)})
    with pytest.raises(errors.ShapeError, match="same number of dimensions"):
        trace(lambda x: np.take_along_axis(x, np.array([0]), 1), types.type_of(X))
