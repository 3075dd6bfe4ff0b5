"""nonzero, one-argument where, argwhere, flatnonzero, extract, compress, unique and boolean-mask
reads against NumPy; their run-time dims flow into later ops, loop carries and branches."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types

RNG = np.random.default_rng(0)
X = np.round(RNG.standard_normal((3, 4)), 1)
WITH_NAN = X.copy()
WITH_NAN[0, 1] = WITH_NAN[2, 2] = np.nan
ARRAYS = {
    "f64": X,
    "nan": WITH_NAN,
    "f32": X.astype(np.float32),
    "i32": RNG.integers(-2, 3, (3, 4)).astype(np.int32),
    "bool": X > 0,
    "1d": X[0],
    "3d": RNG.integers(0, 2, (2, 2, 3)).astype(np.int64),
    "empty": np.zeros((0, 3)),
}


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_nonzero_family(name):
    a = ARRAYS[name]
    check(lambda a: np.nonzero(a), a, exact=False)
    check(lambda a: np.where(a), a, exact=False)
    check(lambda a: a.nonzero(), a, exact=False)
    check(lambda a: np.argwhere(a), a, exact=False)
    check(lambda a: np.flatnonzero(a), a, exact=False)
    check(lambda a: np.extract(a > 0, a * 2), a, exact=False)
    check(lambda a: np.nonzero(a), a, unknown={0: range(a.ndim)})


def test_nonzero_types():
    t = types.TensorType(np.float32, (3, None))
    graph = trace(lambda a: (*np.nonzero(a), np.argwhere(a), np.extract(a > 0, a)), t)
    assert [str(t) for t in graph.out_types] == [
        "i64[None]",
        "i64[None]",
        "i64[None,2]",
        "f32[None]",
    ]
    with pytest.raises(errors.ShapeError, match="nonzero on 0d arrays"):
        trace(lambda a: np.nonzero(a), types.TensorType(np.float64, ()))
    with pytest.raises(ValueError, match="either both or neither"):
        trace(lambda a: np.where(a, a), t)


def test_argwhere_of_a_0d_array():
    check(lambda a: (np.argwhere(a[0, 0]), np.argwhere(a[0, 0] * 0)), X, exact=False)


@pytest.mark.parametrize("name", ["f64", "i32", "bool", "3d"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_compress(name, axis):
    a = ARRAYS[name]
    n = a.size if axis is None else a.shape[axis]
    condition = np.arange(n) % 3 != 1
    check(lambda a: np.compress(condition, a, axis=axis), a)
    check(lambda a: np.compress(condition[:2], a, axis=axis), a)  # shorter: false beyond
    check(lambda a, c: np.compress(c, a, axis=axis), a, condition, exact=False)
    check(lambda a: a.compress(np.ravel(a)[:n] > 0, axis=axis), a, exact=False)


def test_compress_errors():
    t = types.TensorType(np.float64, (3, 4))
    with pytest.raises(errors.ShapeError, match="1-d array"):
        trace(lambda a: np.compress(a > 0, a), t)


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("flags", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)], ids=str)
def test_unique(name, flags):
    a = ARRAYS[name]
    index, inverse, counts = map(bool, flags)

    def fn(a):
        return np.unique(a, return_index=index, return_inverse=inverse, return_counts=counts)

    check(fn, a, exact=False)
    check(fn, a, unknown={0: range(a.ndim)})
    check(lambda a: np.unique(a, return_counts=counts, equal_nan=False), a, exact=False)


def test_unique_of_a_0d_array_and_errors():
    check(lambda a: np.unique(a[0, 0]), X, exact=False)
    graph = check(lambda a: np.unique(a, axis=0), X, exact=False)  # NumPy's own unique
    assert "numpy_call" in str(graph)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.0, np.nan, -1.0]), max_size=8))
def test_unique_and_nonzero_match_numpy(values):
    a = np.array(values, dtype=np.float64)
    check(lambda a: np.unique(a, return_index=True, return_inverse=True), a, exact=False)
    check(lambda a: (np.flatnonzero(a), np.extract(a != 1, a)), a, exact=False)


def test_boolean_mask_reads():
    m = X > 0
    check(lambda a: a[a > 0], X, exact=False)
    check(lambda a, m: a[m[:, 0]], X, m, exact=False)
    check(lambda a, m: a[:, m[0]], X, m, exact=False)
    check(lambda a: a[np.isnan(a)], WITH_NAN, exact=False)
    check(lambda a: a[a[:, 0] > 0, 1:], X, unknown={0: [0]})


# ---- run-time lengths in later ops, loops and branches ---------------------------------------


def halve_until_one(x):
    v = np.unique(x)
    steps = 0
    while v.size > 1:
        v = np.unique(np.floor(v[1:] / 2))
        steps += 1
    return v, steps


def sum_positive_rows(x):
    rows = np.flatnonzero(x.sum(axis=1) > 0)
    total = 0.0
    for i in range(rows.shape[0]):
        total = total + np.sum(x[rows[i]])
    if rows.size > 1:
        total = total * 2
    return total, x[rows].shape[0], np.argwhere(x > 0).sum(axis=0)


def count_each(x):
    values, counts = np.unique(x, return_counts=True)
    return np.sum(values * counts) / np.sum(counts), np.extract(counts > 1, values)


@pytest.mark.parametrize("fn", [halve_until_one, sum_positive_rows, count_each])
def test_dynamic_results_in_control_flow(fn):
    x = RNG.integers(0, 40, (5, 4)).astype(np.float64)
    x[1] = -x[1]
    static = tg.to_static(fn, fallback="error")
    for _ in range(2):
        got, expected = static(x), fn(x)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)
        x = x[:4] - 3
    assert static.concrete(x).fallback is None


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: np.nonzero(a > 0),
        lambda a: np.where(a < 0)[1],
        lambda a: np.argwhere(a),
        lambda a: np.flatnonzero(a) * 2,
        lambda a: np.extract(a > 0, a),
        lambda a: np.compress([True, False, True], a, axis=0),
        lambda a: np.unique(a, return_inverse=True, return_counts=True),
        lambda a: a[a > 0],
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, X)
