"""Creation ops: zeros/ones/full/empty and *_like, arange, eye, linspace, np.array of tensors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import call, check, out_type, trace

from tograph import errors
from tograph.ir import types
from tograph.ops import lists
from tograph.trace import dispatch

WEAK_I64 = types.TensorType(np.int64, (), True)


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


def test_numpy_creation_functions_are_overridden():
    for fn in (
        np.zeros,
        np.ones,
        np.empty,
        np.full,
        np.arange,
        np.eye,
        np.identity,
        np.linspace,
        np.array,
        np.asarray,
        np.stack,
    ):
        assert fn in dispatch.OVERRIDES, fn


@pytest.mark.parametrize("dtype", [None, float, int, np.float32, np.int8, bool, np.complex64])
def test_zeros_ones_empty_with_tensor_dims(dtype):
    kw = {} if dtype is None else {"dtype": dtype}
    graph = check(
        lambda n: (
            call(np.zeros, n, **kw),
            call(np.ones, (2, n), **kw),
            call(np.empty, [n, n], **kw) * 0,
            call(np.zeros, (n,), **kw),
        ),
        3,
        exact=False,
    )
    want = np.dtype(float if dtype is None else dtype)
    assert graph.out_types[0] == types.TensorType(want, (None,))
    assert graph.out_types[1] == types.TensorType(want, (2, None))


@pytest.mark.parametrize("fill", [2, 2.5, True, 1 + 1j, np.float32(0.5), np.int16(7)])
@pytest.mark.parametrize("dtype", [None, np.float64, np.int32])
def test_full_with_tensor_fill(fill, dtype):
    check(lambda v: (call(np.full, (2, 3), v, dtype=dtype), call(np.full, 4, v)), fill)
    check(lambda n: call(np.full, (n, 2), fill, dtype), 3, exact=False)


def test_full_with_array_fill_broadcasts():
    check(lambda v: call(np.full, (2, 3), v), np.arange(3.0))
    with pytest.raises(
        errors.ShapeError,
        match=r"full: a fill value of shape \(4,\) does not broadcast to shape \(2, 3\)",
    ):
        out_type(lambda v: call(np.full, (2, 3), v), T(np.float64, 4))


def test_shape_from_one_d_tensor_of_known_length():
    graph = check(lambda s: call(np.zeros, s), np.array([2, 3]), exact=False)
    assert graph.out_types == (T(np.float64, None, None),)


def test_negative_static_dim():
    with pytest.raises(
        errors.ShapeError, match=r"negative dimensions are not allowed, got shape \(-1, None\)"
    ):
        out_type(lambda n: call(np.zeros, (-1, n)), WEAK_I64)


@pytest.mark.parametrize("dtype", [None, np.float32, np.int8, bool])
def test_like_functions(dtype):
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    kw = {} if dtype is None else {"dtype": dtype}
    check(
        lambda x: (
            np.zeros_like(x, **kw),
            np.ones_like(x, **kw),
            np.full_like(x, 7.9, **kw),
            np.empty_like(x, **kw) * 0,
        ),
        x,
        unknown={0: (0,)},
    )
    check(lambda x: (np.zeros_like(x, **kw), np.full_like(x, 2, shape=(4,), **kw)), x)
    check(lambda s: (np.zeros_like(s, **kw), np.full_like(s, 1.5, **kw)), 3)


def test_full_like_with_tensor_fill_and_unknown_dims():
    graph = check(
        lambda x, v: np.full_like(x, v), np.ones((2, 3), np.float32), 2.5, unknown={0: (1,)}
    )
    assert graph.out_types == (T(np.float32, 2, None),)
    assert graph.op_counts() == {"dim": 1, "full": 1}


@pytest.mark.parametrize(
    "args",
    [
        (5,),
        (1, 5),
        (1, 6, 2),
        (5.5,),
        (0.5, 3),
        (1, 5.0, 0.5),
        (np.int32(4),),
        (np.float32(2.5),),
        (np.int8(1), 9, np.int16(3)),
        (True,),
    ],
)
@pytest.mark.parametrize("traced", [0, -1])
def test_arange(args, traced):
    others = list(args)
    value = others.pop(traced)

    def fn(v):
        pieces = others[:]
        pieces.insert(traced % len(args), v)
        return call(np.arange, *pieces)

    graph = check(fn, value, exact=False)
    assert graph.out_types[0].shape == (None,)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
def test_arange_dtype_and_keywords(dtype):
    check(
        lambda n: (
            call(np.arange, n, dtype=dtype),
            call(np.arange, 1, stop=n, step=2, dtype=dtype),
        ),
        7,
        exact=False,
    )
    check(lambda n: call(np.arange, 1, n), np.float32(6.0), exact=False)


def test_arange_needs_scalars():
    with pytest.raises(
        errors.ShapeError,
        match=r"arange: start, stop and step must be scalars, got a tensor of type f64\[3\]",
    ):
        out_type(lambda v: call(np.arange, v), T(np.float64, 3))


@pytest.mark.parametrize("k", [0, 1, -2])
@pytest.mark.parametrize("dtype", [float, np.int32, bool])
def test_eye_and_identity(k, dtype):
    graph = check(
        lambda n: (
            call(np.eye, n, k=k, dtype=dtype),
            call(np.eye, 2, n, k),
            call(np.identity, n, dtype=dtype),
        ),
        4,
        exact=False,
    )
    assert graph.out_types[1] == T(np.float64, 2, None)


@pytest.mark.parametrize(
    "start, stop",
    [
        (0, 1),
        (np.float32(1.0), 2),
        (np.arange(3.0), 10),
        (np.int8(2), np.array([1.0, 5.0], np.float32)),
    ],
)
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(start, stop, endpoint):
    check(
        lambda a, b: (
            np.linspace(a, b, 5, endpoint=endpoint),
            np.linspace(a, b, 4, dtype=np.float32, axis=-1),
        ),
        start,
        stop,
    )
    check(lambda a, b: np.linspace(a, b, 6, endpoint=endpoint, dtype=int), start, stop)
    check(lambda b, n: call(np.linspace, 0, b, n, endpoint), stop, 4, exact=False)


def test_linspace_errors_and_unsupported():
    with pytest.raises(errors.ShapeError, match=r"number of samples, -1, must be non-negative"):
        out_type(lambda a: np.linspace(a, 1, -1), T(np.float64))
    graph = check(lambda a: np.linspace(a, 1, 3, retstep=True), np.float64(0.5))
    assert "numpy_call[args=($0, 1, 3), fn=np.linspace" in str(graph)


LEAVES = [
    1,
    -2.5,
    True,
    2j,
    np.float32(1.5),
    np.int8(-3),
    np.uint8(4),
    np.int64(5),
    np.float16(0.25),
]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(LEAVES), min_size=2, max_size=2), min_size=1, max_size=3),
    st.data(),
    st.sampled_from([np.array, np.asarray]),
)
def test_array_of_nested_lists_matches_numpy(rows, data, fn):
    flat = [v for row in rows for v in row]
    traced = data.draw(st.lists(st.booleans(), min_size=len(flat), max_size=len(flat)).filter(any))

    def nested(tensors):
        pool = iter(tensors)
        items = [next(pool) if t else v for v, t in zip(flat, traced)]
        return [items[i : i + 2] for i in range(0, len(items), 2)]

    check(lambda *xs: call(fn, nested(xs)), *(v for v, t in zip(flat, traced) if t))


def test_array_of_tensors_values_and_dtype_argument():
    check(
        lambda x, n: (
            call(np.array, [x, n]),
            call(np.asarray, [[x], [1]], dtype=np.float32),
            call(np.array, (x, x, 0.5)),
        ),
        np.float32(2.0),
        3,
    )
    check(
        lambda x: (call(np.array, [x, x]), call(np.array, [x[0], x[1]], dtype=np.int8)),
        np.arange(4.5, 7.5),
    )


def test_array_of_one_tensor_makes_python_scalars_strong():
    graph = check(
        lambda n: (
            call(np.asarray, n),
            call(np.array, n, dtype=np.float32),
            call(np.asanyarray, [n]),
        ),
        3,
    )
    assert [t.weak for t in graph.out_types] == [False, False, False]


def test_ragged_lists_are_errors():
    with pytest.raises(
        errors.ShapeError,
        match=r"stack: all input arrays must have the same shape, got shapes \(\), \(2,\)",
    ):
        out_type(lambda n: call(np.array, [n, [1, 2]]), WEAK_I64)


def test_unsupported_arguments():
    with pytest.raises(errors.UnsupportedError, match="np.zeros with order="):
        out_type(lambda n: call(np.zeros, n, order="F"), WEAK_I64)
    with pytest.raises(errors.UnsupportedError, match="ndmin"):
        out_type(lambda n: call(np.array, [n], ndmin=2), WEAK_I64)
    with pytest.raises(errors.UnsupportedError, match="np.eye with a tensor k"):
        out_type(lambda n: call(np.eye, 3, k=n), WEAK_I64)


def test_static_result_is_a_numpy_constant():
    graph = trace(lambda x: np.zeros_like(x) + x, T(np.float32, 2))
    assert str(graph) == "\n".join(
        ["graph f(x0:f32[2]):", "  t0:f32[2] = add [0.0, 0.0]:f32[2] x0", "  return t0"]
    )


def test_array_and_stack_of_a_tensor_list():
    def fn(x, n):
        lst = lists.as_list([x, x * n])
        return (
            call(np.array, lst),
            call(np.asarray, lst, dtype=np.float32),
            call(np.stack, lst),
            call(np.stack, lst, axis=-1),
        )

    graph = check(fn, np.arange(3.0), 2, exact=False)
    assert graph.out_types[1] == T(np.float32, None, 3)
    assert graph.out_types[3] == T(np.float64, 3, None)
