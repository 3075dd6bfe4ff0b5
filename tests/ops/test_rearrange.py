"""tile, repeat, take, diagonal, insert, delete and append against NumPy: dtypes, shapes (empty,
0-d, negative axes, run-time dims), errors, tensor control flow."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types

DTYPES = [np.float32, np.float64, np.int32, np.bool_]


def sample(shape, dtype=np.float64):
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 2.5
    return (values > 0) if dtype == np.bool_ else values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3, 2), 1, (0, 2), [2]], ids=str)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 2)], ids=str)
def test_tile(shape, reps, dtype):
    check(lambda x: np.tile(x, reps), sample(shape, dtype))


def test_tile_runtime_dims_and_python_scalars():
    x = sample((2, 3))
    check(lambda x: np.tile(x, (2, 3)), x, unknown={0: [0, 1]})
    check(lambda x: np.tile(x[0, 0] * 0 + 1.5, 3), x)
    with pytest.raises(errors.ShapeError, match="negative"):
        trace(lambda x: np.tile(x, -1), types.TensorType(np.float64, (2,)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "repeats, axis",
    [(2, None), (3, 0), (2, -1), (0, 1), ([1, 0, 2], 0), ([2], 1), ([1, 2, 0, 1], 1)],
    ids=str,
)
def test_repeat_static_counts(repeats, axis, dtype):
    check(lambda x: np.repeat(x, repeats, axis=axis), sample((3, 4), dtype))


def test_repeat_edge_cases():
    check(lambda x: np.repeat(x[0, 0], 3), sample((2, 2)))
    check(lambda x: np.repeat(x, 2, axis=0), sample((0, 2)))
    check(lambda x: np.repeat(x, [1, 0, 2], axis=0), sample((3, 2)), unknown={0: [0]})
    check(lambda x: np.repeat(x, 2, axis=1), sample((3, 2)), unknown={0: [0, 1]})


def test_repeat_tensor_counts_give_runtime_dims():
    x = sample((3, 2), np.float32)
    graph = check(lambda x, n: np.repeat(x, n, axis=0), x, np.int64(2), exact=False)
    assert "repeat[axis=0]" in str(graph)
    assert str(graph.out_types[0]) == "f32[None,2]"
    check(lambda x, n: np.repeat(x, n), x, np.array([1, 0, 3, 1, 1, 2]), exact=False)
    check(lambda x, n: np.repeat(x, n, axis=0), x, np.array([2, 0, 1], np.int8), exact=False)


def test_repeat_errors():
    x = types.TensorType(np.float64, (3,))
    with pytest.raises(errors.ShapeError, match="negative"):
        trace(lambda x: np.repeat(x, -1), x)
    with pytest.raises(errors.DTypeError, match="repeats must be integers"):
        trace(lambda x: np.repeat(x, [1.5, 2.0, 1.0]), x)
    with pytest.raises(errors.DTypeError, match="integer scalar or 1-d"):
        trace(lambda x, n: np.repeat(x, n), x, types.TensorType(np.float64, ()))
    with pytest.raises(errors.ShapeError, match="could not be broadcast"):
        trace(lambda x, n: np.repeat(x, n), x, types.TensorType(np.int64, (2,)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(mode, dtype):
    x = sample((3, 4), dtype)
    check(lambda x: np.take(x, [0, 2, -1], mode=mode), x)
    check(lambda x: np.take(x, [[1, -3], [2, 2]], axis=1, mode=mode), x)
    check(lambda x: np.take(x, 1, axis=-2, mode=mode), x)
    check(lambda x: np.take(x, [], axis=0, mode=mode), x)
    check(lambda x, i: np.take(x, i, axis=0, mode=mode), x, np.array([2, -1, 0]))
    check(lambda x, i: np.take(x, i, axis=1, mode=mode), x, np.array([[1], [3]]), unknown={0: [1]})


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-12, 12), min_size=1, max_size=5),
    st.sampled_from(["wrap", "clip"]),
    st.sampled_from([0, 1, -1, None]),
)
def test_take_out_of_range_modes_match_numpy(indices, mode, axis):
    check(lambda x: np.take(x, indices, axis=axis, mode=mode), sample((3, 5)))


def test_take_errors():
    x = types.TensorType(np.float64, (3,))
    with pytest.raises(errors.IndexingError, match="out of bounds"):
        trace(lambda x: np.take(x, [5]), x)
    with pytest.raises(errors.IndexingError, match="empty axes"):
        trace(lambda x: np.take(x, [0], mode="wrap"), types.TensorType(np.float64, (0,)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "offset, axis1, axis2", [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 1, 0), (-5, 0, 1), (1, -1, 0)]
)
def test_diagonal(offset, axis1, axis2, dtype):
    check(lambda x: np.diagonal(x, offset, axis1, axis2), sample((3, 4), dtype))
    check(lambda x: x.diagonal(offset, axis1, axis2), sample((2, 3, 4), dtype))
    check(lambda x: np.diagonal(x, offset, axis1, axis2), sample((3, 4)), unknown={0: [0, 1]})


def test_diagonal_errors():
    with pytest.raises(errors.ShapeError, match="at least two dimensions"):
        trace(lambda x: np.diagonal(x), types.TensorType(np.float64, (3,)))
    with pytest.raises(errors.ShapeError, match="cannot be the same"):
        trace(lambda x: np.diagonal(x, 0, 1, -1), types.TensorType(np.float64, (3, 3)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "obj, values, axis",
    [
        (1, 9, None),
        (-1, [7, 8], None),
        (1, [7, 8, 9, 10], 0),
        (1, [[7], [8], [9]], 1),
        ([1], [[7, 8]], 1),
        ([1, 3, 1], 5, 1),
        ([], 5, 0),
        (slice(0, 4, 2), [[1], [2], [3]], -1),
        (np.array([True, False, True]), 0, 0),
        (4, [1, 2, 3], 1),
    ],
    ids=str,
)
def test_insert(obj, values, axis, dtype):
    check(lambda x: np.insert(x, obj, values, axis=axis), sample((3, 4), dtype))


def test_insert_tensor_values_and_runtime_dims():
    x = sample((3, 4))
    check(lambda x: np.insert(x, 2, x[0] * 2, axis=0), x)
    check(lambda x: np.insert(x, [0, 4], x[:, :1], axis=1), x)
    check(lambda x: np.insert(x, 1, x[0] * 2, axis=0), x, unknown={0: [0]})
    check(lambda x: np.insert(x.astype(np.int32), 1, x[0] + 0.7, axis=0), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "obj, axis",
    [(1, None), (-1, 0), ([0, 2], 1), (slice(None, None, 2), 1), ([], 0), ([True, False, True], 0)],
    ids=str,
)
def test_delete(obj, axis, dtype):
    check(lambda x: np.delete(x, obj, axis=axis), sample((3, 4), dtype))


def test_delete_along_runtime_dims():
    x = sample((3, 4))
    for i in (0, 1, -1, -2):
        check(lambda x: np.delete(x, i, axis=0), x, unknown={0: [0]})
    graph = check(lambda x: np.delete(x, [0, 1]), np.arange(4.0), unknown={0: [0]})
    assert "numpy_call" in str(graph)  # a sequence along a run-time dim: NumPy's own delete


@settings(max_examples=40, deadline=None)
@given(
    st.one_of(st.integers(-4, 4), st.lists(st.integers(-4, 4), max_size=4)),
    st.sampled_from([0, 1, -1, None]),
)
def test_insert_and_delete_match_numpy(obj, axis):
    x = sample((4, 4))
    check_or_raise_alike(lambda x: np.insert(x, obj, -1.0, axis=axis), x)
    check_or_raise_alike(lambda x: np.delete(x, obj, axis=axis), x)


def check_or_raise_alike(fn, x):
    """``check(fn, x)``, or, where NumPy raises, tracing ``fn`` raises the same kind of error."""
    try:
        fn(x)
    except (IndexError, ValueError) as exc:
        with pytest.raises(type(exc)):
            trace(fn, types.type_of(x))
        return
    check(fn, x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_append(dtype):
    x = sample((2, 3), dtype)
    check(lambda x: np.append(x, x), x)
    check(lambda x: np.append(x, [[1, 2, 3]], axis=0), x)
    check(lambda x: np.append(x[0, 0], 2.5), x)
    check(lambda x: np.append(x, x[:, :1], axis=-1), x, unknown={0: [0]})


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: np.tile(x, (2, 1)),
        lambda x: np.repeat(x, 2, axis=0),
        lambda x: np.repeat(x, [1, 0], axis=0),
        lambda x: np.take(x, [3, 0], axis=1, mode="wrap"),
        lambda x: np.diagonal(x, 1),
        lambda x: np.insert(x, 1, 0.5, axis=1),
        lambda x: np.delete(x, [0], axis=1),
        lambda x: np.append(x, x[0]),
        lambda x: x.repeat(2),
        lambda x: x.take([1, 1]),
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, sample((2, 3)))


def _write_first(y):
    y[(0,) * y.ndim] = 99.0
    return y


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: _write_first(np.tile(x, 1)),
        lambda x: _write_first(np.tile(x, (1, 1))),
        lambda x: _write_first(np.repeat(x, 1, axis=0)),
        lambda x: _write_first(np.repeat(x, 1)),
        lambda x: _write_first(np.repeat(x[:, ::2], 2, axis=1)),
        lambda x: (np.repeat(x, 2), np.tile(x, 1), x),
    ],
)
def test_tile_and_repeat_make_new_arrays_as_numpy_does(fn):
    """np.tile and np.repeat never return a view, even of a count of one: a write to the result
    leaves the argument alone, and the function compiles (a result is not a maybe-view)."""
    x, x_eager = sample((2, 3)), sample((2, 3))
    static = tg.to_static(fn, fallback="error")
    got, expected = static(x), fn(x_eager)
    for g, e in zip(*(r if isinstance(r, tuple) else (r,) for r in (got, expected))):
        np.testing.assert_array_equal(g, e)
        assert not np.shares_memory(g, x) or g is x
    np.testing.assert_array_equal(x, x_eager)
