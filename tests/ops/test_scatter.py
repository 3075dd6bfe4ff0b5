"""The functional put_along_axis, ufunc_at and fill_diagonal against NumPy's in-place calls on a
copy; the in-place calls themselves on tensors fall back with a message naming the functional
form."""

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types
from tograph.ops import scatter

DTYPES = [np.float32, np.float64, np.int32, np.bool_]


def sample(shape, dtype=np.float64):
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 2.5
    return (values > 0) if dtype == np.bool_ else values.astype(dtype)


def put_along_axis_copy(arr, indices, values, axis):
    out = np.array(arr)
    np.put_along_axis(out, indices, values, axis)
    return out


def at_copy(ufunc, a, indices, b):
    out = np.array(a)
    ufunc.at(out, indices, b)
    return out


def fill_diagonal_copy(a, val, wrap=False):
    out = np.array(a)
    np.fill_diagonal(out, val, wrap)
    return out


PUTS = [
    (np.array([[0, 2], [1, 1], [3, 0]]), 1),
    (np.array([[2, 0, 1, 1]]), 0),
    (np.array([[1], [0], [-1]]), -1),
    (np.array([[0]]), 0),
    (np.array([5, 0, 5]), None),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("indices, axis", PUTS, ids=str)
def test_put_along_axis(indices, axis, dtype):
    x = sample((3, 4), dtype)
    values = sample(indices.shape, dtype) * 3
    expected = put_along_axis_copy(x, indices, values, axis)
    np.testing.assert_array_equal(scatter.put_along_axis(x, indices, values, axis), expected)
    check(lambda x, i: scatter.put_along_axis(x, i, 7, axis), x, indices)
    check(lambda x, i, v: scatter.put_along_axis(x, i, v, axis), x, indices, values)
    if axis is not None:
        check(lambda x, i: scatter.put_along_axis(x, i, 7, axis), x, indices, unknown={0: [0, 1]})


def test_put_along_axis_errors():
    x = types.TensorType(np.float64, (3, 4))
    with pytest.raises(errors.ShapeError, match="same number of dimensions"):
        trace(lambda x: scatter.put_along_axis(x, np.array([0]), 1.0, 1), x)
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        trace(lambda x: scatter.put_along_axis(x, np.zeros((2, 1), int), 1.0, 1), x)
    with pytest.raises(errors.ShapeError, match="values of shape"):
        trace(lambda x: scatter.put_along_axis(x, np.zeros((3, 2), int), x, 1), x)
    with pytest.raises(errors.IndexingError, match="integer array"):
        trace(lambda x: scatter.put_along_axis(x, x, 1.0, 1), x)


AT_CASES = [
    ([0, 0, 2], 1.5),
    ((1, [3, 3, 0]), [1, 2, 3]),
    ((slice(None), [1, 1]), "column"),
    (([0, 2], [1, 1]), -2),
    (1, "row"),
]


@pytest.mark.parametrize("ufunc", scatter.AT_UFUNCS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("indices, b", AT_CASES, ids=str)
def test_ufunc_at(indices, b, dtype, ufunc):
    fn = getattr(np, ufunc)
    x = sample((3, 4), dtype)
    b = {"column": x[:, :1], "row": x[0]}.get(b, b) if isinstance(b, str) else b
    try:
        with np.errstate(all="ignore"):
            expected = at_copy(fn, x, indices, b)
    except TypeError:  # NumPy refuses the dtypes: so must the type rule
        with pytest.raises(errors.DTypeError):
            trace(lambda x: scatter.ufunc_at(fn, x, indices, b), types.type_of(x))
        return
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(scatter.ufunc_at(fn, x, indices, b), expected)
        check(lambda x: scatter.ufunc_at(ufunc, x, indices, b), x)


def test_ufunc_at_with_tensor_indices_and_runtime_dims():
    x = sample((3, 4))
    check(lambda x, i: scatter.ufunc_at(np.add, x, (i, i), 1.0), x, np.array([0, 1, 1]))
    check(lambda x, i: scatter.ufunc_at(np.maximum, x, i, x[0]), x, np.array([2, 2]))
    check(lambda x: scatter.ufunc_at(np.add, x, [0, 0], x[1]), x, unknown={0: [0]})


def test_ufunc_at_errors():
    x = types.TensorType(np.int64, (3,))
    with pytest.raises(errors.DTypeError, match="bitwise_or.at does not support"):
        trace(lambda x: scatter.ufunc_at(np.bitwise_or, x, [0], 1.5), x)
    with pytest.raises(errors.UnsupportedError, match="power.at"):
        trace(lambda x: scatter.ufunc_at(np.power, x, [0], 2), x)
    with pytest.raises(errors.ShapeError, match="do not broadcast"):
        trace(lambda x: scatter.ufunc_at(np.add, x, [0, 1], [1, 2, 3]), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "shape, val, wrap",
    [
        ((3, 3), 9, False),
        ((3, 4), [7, 8], False),
        ((7, 3), [1, 2, 3, 4, 5], True),
        ((7, 3), 1, False),
        ((3, 3, 3), [5, 6], False),
        ((0, 2), 1, False),
    ],
    ids=str,
)
def test_fill_diagonal(shape, val, wrap, dtype):
    x = sample(shape, dtype)
    np.testing.assert_array_equal(
        scatter.fill_diagonal(x, val, wrap), fill_diagonal_copy(x, val, wrap)
    )
    check(lambda x: scatter.fill_diagonal(x, val, wrap), x)
    if x.size > 1:
        check(lambda x: scatter.fill_diagonal(x, x.ravel()[:2], wrap), x)


def test_fill_diagonal_runtime_dims_and_errors():
    x = sample((5, 3))
    check(lambda x: scatter.fill_diagonal(x, -1.0, wrap=True), x, unknown={0: [0, 1]})
    check(lambda x: scatter.fill_diagonal(x, x[0, 0]), x, unknown={0: [0]})
    with pytest.raises(errors.ShapeError, match="at least 2-d"):
        trace(lambda x: scatter.fill_diagonal(x, 1.0), types.TensorType(np.float64, (3,)))
    with pytest.raises(errors.ShapeError, match="equal length"):
        trace(lambda x: scatter.fill_diagonal(x, 1.0), types.TensorType(np.float64, (2, 2, 3)))
    with pytest.raises(errors.UnsupportedError, match="several values"):
        trace(
            lambda x: scatter.fill_diagonal(x, [1.0, 2.0]), types.TensorType(np.float64, (None, 3))
        )


# ---- the in-place NumPy calls --------------------------------------------------------------


def puts_in_place(x):
    np.put_along_axis(x, np.zeros((3, 1), int), 1.0, axis=1)
    return x


def adds_at_in_place(x):
    np.add.at(x, [0, 0], 1.0)
    view = x[1]
    np.maximum.at(view, [1, 1, 3], x[0, :3])
    return x


def fills_in_place(x):
    t = x.T
    np.fill_diagonal(t, 0.0)
    return t


def adds_into_a_local_array(x):
    counts = np.zeros(4)
    np.add.at(counts, (x[:, 0] > 0).astype(int), x[:, 1])
    return counts


@pytest.mark.parametrize("fn", [puts_in_place, adds_at_in_place, fills_in_place])
def test_in_place_calls_write_into_the_array_and_its_views(fn):
    x = sample((3, 4))
    expected_arg = x.copy()
    expected = fn(expected_arg)
    static = tg.to_static(fn, fallback="error")
    got = static(x)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(x, expected_arg)  # the caller's array is written too
    assert np.shares_memory(got, x)


def test_ufunc_at_into_an_array_made_in_the_function():
    x = sample((3, 4))
    static = tg.to_static(adds_into_a_local_array, fallback="error")
    np.testing.assert_array_equal(static(x), adds_into_a_local_array(x))


_GLOBAL_COUNTS = np.zeros(3)


def adds_into_a_global(x):
    np.add.at(_GLOBAL_COUNTS, [0, 1], 1.0)
    return x + _GLOBAL_COUNTS


def test_ufunc_at_into_a_global_array_runs_eagerly():
    with pytest.warns(tg.FallbackWarning, match="writes in place into a NumPy array"):
        got = tg.to_static(adds_into_a_global)(np.ones(3))
    np.testing.assert_array_equal(got, [2.0, 2.0, 1.0])
    np.testing.assert_array_equal(_GLOBAL_COUNTS, [1.0, 1.0, 0.0])


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: scatter.put_along_axis(x, np.array([[1], [0]]), -1.0, 1),
        lambda x: scatter.ufunc_at(np.add, x, [0, 0, 1], 1.0),
        lambda x: scatter.ufunc_at(np.minimum, x, (slice(None), 0), x[:, 2]),
        lambda x: scatter.fill_diagonal(x, 5.0),
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, sample((2, 3)))
