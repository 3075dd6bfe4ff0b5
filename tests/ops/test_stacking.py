"""hstack, vstack, column_stack, dstack, atleast_*d, split, array_split, broadcast_arrays,
meshgrid and copy against NumPy: dtypes, shapes (empty, 0-d, run-time dims), errors, loops."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_harness import assert_compiles_in_loop
from op_harness import call, check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types

DTYPES = [np.float32, np.float64, np.int32, np.bool_]


def sample(shape, dtype=np.float64):
    values = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 2.5
    return (values > 0) if dtype == np.bool_ else values.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 0), (2, 1, 3)], ids=str)
def test_atleast(shape, dtype):
    x = sample(shape, dtype)
    check(lambda x: (np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x)), x)
    check(lambda x: np.atleast_2d(x, x[..., None], 1.5), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(3,), (2, 3), (0, 3), (2, 3, 2)], ids=str)
def test_stacks_of_lists(shape, dtype):
    x = sample(shape, dtype)
    check(lambda x: np.hstack([x, x, x]), x)
    check(lambda x: np.vstack([x, x]), x)
    check(lambda x: np.dstack([x, x]), x)
    check(lambda x: np.column_stack([x, x]), x)


def test_stacks_promote_and_take_static_and_scalar_parts():
    v = sample((3,), np.int32)
    check(lambda v: np.hstack([v, v * 2, 1.5]), v)
    check(lambda v: np.vstack([v, np.arange(3.0)]), v)
    check(lambda v: np.column_stack([v, np.ones(3, np.float32), v > 0]), v)
    check(lambda v: np.dstack([v, v > 1]), v)


@pytest.mark.parametrize("shape", [(4,), (4, 3), (4, 2, 3)], ids=str)
def test_stacks_of_one_tensor_join_its_subarrays(shape):
    x = sample(shape)
    for fn in (np.hstack, np.vstack, np.dstack, np.column_stack):
        check(lambda x: call(fn, x), x)
        check(lambda x: call(fn, x), x, unknown={0: range(len(shape))})


def test_stacks_with_runtime_dims():
    x = sample((3, 4))
    check(lambda x: np.vstack([x, x[:1]]), x, unknown={0: [0, 1]})
    check(lambda x: np.hstack([x, x]), x, unknown={0: [0]})
    check(lambda x: np.column_stack([x[0], x[1]]), x, unknown={0: [1]})


def test_stack_errors_name_the_shapes():
    x = types.TensorType(np.float64, (2, 3))
    with pytest.raises(errors.ShapeError, match="dimensions other than axis 0 must match"):
        trace(lambda x: np.vstack([x, x[:, :2]]), x)
    graph = check(lambda x: np.hstack([x, x], dtype=np.float32), np.ones((2, 3)))
    assert "numpy_call" in str(graph)
    with pytest.raises(errors.ShapeError, match="0-d array is not a sequence"):
        trace(lambda x: call(np.vstack, x[0, 0]), x)


# ---- split -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize(
    "sections, axis",
    [(2, 1), (3, -1), (1, 0), ([1, 3], 1), ([2, -1], -1), ([3, 1], 1), ([], 0), ([0, 9], 1)],
    ids=str,
)
def test_split_and_array_split(sections, axis, dtype):
    x = sample((2, 6), dtype)
    check(lambda x: tuple(np.array_split(x, sections, axis=axis)), x)
    if not isinstance(sections, int) or x.shape[axis] % sections == 0:
        check(lambda x: tuple(np.split(x, sections, axis=axis)), x)


def test_array_split_into_more_pieces_than_elements():
    check(lambda x: tuple(np.array_split(x, 4)), sample((3,)))
    check(lambda x: tuple(np.array_split(x, 2, axis=0)), sample((0, 2)))


def test_split_along_runtime_dims():
    x = sample((6, 4))
    check(lambda x: tuple(np.array_split(x, 4)), x, unknown={0: [0]})
    check(lambda x: tuple(np.split(x, [1, 4])), x, unknown={0: [0, 1]})
    graph = trace(lambda x: tuple(np.split(x, 2, axis=1)), types.TensorType(np.float64, (None, 4)))
    assert [str(t) for t in graph.out_types] == ["f64[None,2]", "f64[None,2]"]


def test_split_errors():
    x = types.TensorType(np.float64, (5,))
    with pytest.raises(errors.ShapeError, match="does not result in an equal division"):
        trace(lambda x: tuple(np.split(x, 2)), x)
    with pytest.raises(errors.ShapeError, match="must be larger than 0"):
        trace(lambda x: tuple(np.array_split(x, 0)), x)


def first_half(x):
    return np.split(x, 2)[0]


def test_unequal_split_of_a_runtime_dim_raises_when_run():
    static = tg.to_static(first_half, input_spec=[tg.TensorSpec((None,))], fallback="error")
    np.testing.assert_array_equal(static(np.arange(4.0)), [0.0, 1.0])
    with pytest.raises(ValueError, match="equal division"):
        static(np.arange(5.0))


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 7),
    cuts=st.one_of(st.integers(1, 4), st.lists(st.integers(-8, 8), max_size=3)),
    unknown=st.booleans(),
)
def test_array_split_matches_numpy(n, cuts, unknown):
    x = sample((2, n))
    runtime = {0: [1]} if unknown else None
    check(lambda x: tuple(np.array_split(x, cuts, axis=1)), x, unknown=runtime)


# ---- broadcast_arrays, meshgrid, copy ------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_broadcast_arrays(dtype):
    x = sample((2, 1, 3), dtype)
    check(lambda x: np.broadcast_arrays(x, x[0, :, :1], 2), x)
    check(lambda x: np.broadcast_arrays(x[0], x[:, :, 0]), x)
    check(lambda x: np.broadcast_arrays(x[:, :0], x[0]), x)


def test_broadcast_arrays_with_runtime_dims():
    x = sample((3, 4))
    check(lambda x: np.broadcast_arrays(x, x[:1], x[:, :1]), x, unknown={0: [0, 1]})
    check(lambda x: np.broadcast_arrays(x[:, :1], x[:1]), x, unknown={0: [0, 1]})


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    x = sample((3, 4), np.float32)
    check(lambda x: np.meshgrid(x[0], indexing=indexing, sparse=sparse), x)
    check(lambda x: np.meshgrid(x[0], x[1, :2], indexing=indexing, sparse=sparse), x)
    check(lambda x: np.meshgrid(x[0], x[1, :3], x[:, 0] > 0, indexing=indexing), x)
    check(lambda x: np.meshgrid(x, x[0, :2], indexing=indexing, sparse=sparse), x)
    check(lambda x: np.meshgrid(x[0], x[:, 1], indexing=indexing), x, unknown={0: [0, 1]})


def test_copy():
    check(lambda x: np.copy(x) + np.copy(x[0, 0]), sample((2, 2), np.int32))
    graph = trace(lambda i: np.copy(i), types.TensorType(np.int64, (), weak=True))
    assert str(graph.out_types[0]) == "i64[]"  # np.copy(3) is an array, not a Python int


# ---- inside tensor control flow ------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: np.hstack([x, 2 * x]),
        lambda x: np.vstack([x[0], x[1]]),
        lambda x: np.column_stack([x[0], x[1]]),
        lambda x: np.dstack([x, x]),
        lambda x: np.atleast_3d(x[0]),
        lambda x: tuple(np.split(x, 2, axis=1)),  # a list, as a loop carry, must be a tensor list
        lambda x: np.array_split(x, [1], axis=0)[1],
        # of new arrays: views of the argument carried out of the loop would be copies in the
        # graph, where NumPy's share its memory (the compiler falls back)
        lambda x: np.broadcast_arrays(x * 1, x[0] * 1),
        lambda x: np.meshgrid(x[0], x[1]),
        lambda x: np.copy(x) * 2,
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, sample((2, 4)))
