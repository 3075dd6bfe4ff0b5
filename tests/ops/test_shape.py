"""Shape ops: output types against NumPy 2, kernel and emitted values, run-time dims, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import call, check, out_type, trace

from tograph import errors
from tograph.ir import types
from tograph.ops import join, lists

F64 = np.float64
X234 = np.arange(24.0).reshape(2, 3, 4)


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


# ---- reshape -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "new", [(24,), (-1,), (4, -1), (2, 3, 2, 2), (-1, 4, 1), (1, 24), 24, (6, 4)]
)
def test_reshape_static(new):
    check(lambda x: (np.reshape(x, new), x.reshape(new)), X234)


def test_reshape_with_tensor_entries():
    graph = check(
        lambda x, n: (x.reshape(n, -1), np.reshape(x, (2, n, 4)), x.reshape((n - 1, 12))),
        X234,
        3,
        exact=False,
    )
    assert graph.out_types == (T(F64, None, None), T(F64, 2, 3, 4), T(F64, 2, 12))
    check(lambda x, n: np.reshape(x, (n, 2)), np.arange(6), np.int32(3), exact=False)


def test_reshape_infers_single_unknown_entry():
    assert out_type(
        lambda x, n: x.reshape(n, 4), T(F64, 2, 3, 4), types.TensorType(np.int64, (), True)
    ) == T(F64, 6, 4)


def test_reshape_of_unknown_dims():
    t = T(F64, None, 3)
    assert out_type(lambda x: x.reshape(-1), t) == T(F64, None)
    assert out_type(lambda x: x.reshape(3, -1), t) == T(F64, 3, None)
    assert out_type(lambda x: x.reshape(x.shape[0], 3, 1), t) == T(F64, None, 3, 1)
    check(lambda x: x.reshape(-1, x.shape[0]), np.ones((2, 3)), unknown={0: (0, 1)})


def test_reshape_of_python_scalar_is_strong():
    check(lambda x: (np.reshape(x, (1, 1)), np.ravel(x)), 2.5)


def test_reshape_errors_name_shapes():
    t = T(F64, 2, 3)
    with pytest.raises(
        errors.ShapeError,
        match=r"cannot reshape array of shape \(2, 3\) \(size 6\) into shape \(4, 2\)",
    ):
        out_type(lambda x: x.reshape(4, 2), t)
    with pytest.raises(errors.ShapeError, match=r"into shape \(4, -1\)"):
        out_type(lambda x: x.reshape(4, -1), t)
    with pytest.raises(errors.ShapeError, match=r"invalid shape \(-1, -1\)"):
        out_type(lambda x: x.reshape(-1, -1), t)
    with pytest.raises(
        errors.DTypeError,
        match=r"shape entry must be an integer scalar, got a tensor of type f64\[\]",
    ):
        out_type(lambda x: x.reshape(x[0, 0], 3), t)
    with pytest.raises(errors.DTypeError, match=r"shape entries must be integers, got 2.0"):
        out_type(lambda x: x.reshape(2.0, 3), t)


# ---- permutations, unit dims, flips ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(3)), st.integers(-3, 2), st.integers(-3, 2))
def test_transpose_swapaxes_moveaxis(perm, a, b):
    check(
        lambda x: (
            np.transpose(x, perm),
            x.transpose(*perm),
            x.T,
            np.swapaxes(x, a, b),
            np.moveaxis(x, a, b),
        ),
        X234,
    )


def test_moveaxis_several():
    check(lambda x: (np.moveaxis(x, [0, 1], [-1, -2]), np.moveaxis(x, (2, 0), (0, 1))), X234)


@pytest.mark.parametrize("axis", [0, -1, 3, (0, 1), (0, -1), (1, 3, 4)])
def test_expand_dims(axis):
    check(lambda x: np.expand_dims(x, axis), X234)


def test_squeeze():
    x = np.ones((1, 3, 1, 2))
    check(lambda x: (np.squeeze(x), np.squeeze(x, axis=0), x.squeeze(axis=(0, -2))), x)
    check(lambda x: np.squeeze(x, axis=2), x, unknown={0: (1, 2)})


def test_squeeze_errors():
    with pytest.raises(
        errors.ShapeError, match=r"squeeze: cannot select an axis .* \(axis 1 of shape \(1, 3\)\)"
    ):
        out_type(lambda x: np.squeeze(x, axis=1), T(F64, 1, 3))
    with pytest.raises(
        errors.ShapeError, match=r"cannot tell which axes of shape \(1, None\) are 1"
    ) as info:
        out_type(lambda x: np.squeeze(x), T(F64, 1, None))
    assert "axis=" in str(info.value)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2), 1])
def test_flip(axis):
    check(lambda x: np.flip(x, axis), X234)


def test_flipud_fliplr_and_scalar_flip():
    check(lambda x: (np.flipud(x), np.fliplr(x)), X234)
    check(lambda x: np.flip(x), 3.5)
    check(lambda x: np.flip(x), np.float32(2.0))


# ---- broadcast_to ------------------------------------------------------------------------


def test_broadcast_to():
    check(lambda x: (np.broadcast_to(x, (5, 2, 3, 4)), np.broadcast_to(x[:, :1], (2, 7, 4))), X234)
    check(lambda x: np.broadcast_to(x, (2, 3)), 1.5)
    check(lambda x, n: np.broadcast_to(x[:1], (n, 3, 4)), X234, 6, exact=False)


def test_broadcast_to_unknown_dims():
    assert out_type(
        lambda x, n: np.broadcast_to(x, (n, 4)), T(F64, 4), types.TensorType(np.int64, (), True)
    ) == T(F64, None, 4)
    assert out_type(
        lambda x, n: np.broadcast_to(x, (2, n)), T(F64, 2, 4), types.TensorType(np.int64, (), True)
    ) == T(F64, 2, 4)
    assert out_type(lambda x: np.broadcast_to(x, (3, 2)), T(F64, None, 1)) == T(F64, 3, 2)


def test_broadcast_to_error():
    with pytest.raises(
        errors.ShapeError, match=r"broadcast_to: cannot broadcast shape \(2, 3\) to \(2, 4\)"
    ):
        out_type(lambda x: np.broadcast_to(x, (2, 4)), T(F64, 2, 3))
    with pytest.raises(errors.ShapeError, match=r"cannot broadcast shape \(2, 3\) to \(3,\)"):
        out_type(lambda x: np.broadcast_to(x, 3), T(F64, 2, 3))


# ---- concatenate and stack ---------------------------------------------------------------


@pytest.mark.parametrize("other", [np.float32, np.int64, np.bool_, np.complex64, np.uint8])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate_dtypes_and_axes(other, axis):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    b = np.ones((2, 3), other)
    check(lambda a, b: np.concatenate([a, b, a], axis=axis), a, b)
    check(lambda a: np.concatenate((a, b), axis=axis), a)


def test_concatenate_unknown_dims():
    assert out_type(lambda a, b: np.concatenate([a, b]), T(F64, None, 3), T(F64, 2, None)) == T(
        F64, None, 3
    )
    assert out_type(
        lambda a, b: np.concatenate([a, b], axis=1), T(F64, 2, 3), T(F64, None, 4)
    ) == T(F64, 2, 7)
    assert out_type(lambda a, b: np.concatenate([a, b], axis=None), T(F64, 2, 3), T(F64, 4)) == T(
        F64, 10
    )


def test_concatenate_errors_name_shapes():
    with pytest.raises(
        errors.ShapeError, match=r"other than axis 0 must match, got shapes \(2, 3\), \(2, 4\)"
    ):
        out_type(lambda a, b: np.concatenate([a, b]), T(F64, 2, 3), T(F64, 2, 4))
    with pytest.raises(
        errors.ShapeError, match=r"same number \(>0\) of dimensions, got shapes \(2, 3\), \(3,\)"
    ):
        out_type(lambda a, b: np.concatenate([a, b]), T(F64, 2, 3), T(F64, 3))
    with pytest.raises(errors.ShapeError, match=r"got shapes \(\), \(\)"):
        out_type(lambda a: np.concatenate([a, a]), T(F64))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack_axes(axis):
    a = np.arange(6.0).reshape(2, 3)
    check(
        lambda a, b: (np.stack([a, b], axis=axis), np.stack((b, a, a), axis)),
        a,
        a.astype(np.float32),
    )


@pytest.mark.parametrize("scalar", [2, 2.5, True, np.float32(1.5), np.int8(3)])
def test_stack_with_python_and_numpy_scalars(scalar):
    check(lambda x: np.stack([x[0], x[1], scalar]), np.ones(3, np.float32))
    check(lambda x, s: (np.stack([x, s]), np.stack([s, s])), np.float32(1.0), scalar)


def test_stack_of_nested_lists_goes_through_override():
    check(lambda x, n: call(np.stack, [[x, n], [1.5, x]]), np.float32(2.0), 3)
    check(lambda x: call(np.stack, [x, [1, 2, 3]], axis=1), np.arange(3, dtype=np.int8))


def test_stack_errors_and_unknown_dims():
    assert out_type(lambda a, b: np.stack([a, b], axis=-1), T(F64, None, 3), T(F64, 2, None)) == T(
        F64, 2, 3, 2
    )
    with pytest.raises(
        errors.ShapeError,
        match=r"stack: all input arrays must have the same shape, got shapes \(2,\), \(3,\)",
    ):
        out_type(lambda a, b: np.stack([a, b]), T(F64, 2), T(F64, 3))
    with pytest.raises(errors.ShapeError, match=r"stack: axis 3 is out of bounds"):
        out_type(lambda a: np.stack([a, a], axis=3), T(F64, 2, 3))


# ---- as_array: np.array semantics for lists holding tensors ------------------------------

LEAVES = [
    2,
    2.5,
    True,
    1j,
    np.float32(1.0),
    np.int8(3),
    np.uint16(4),
    np.float16(0.5),
    np.bool_(False),
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(LEAVES), min_size=1, max_size=4), st.data())
def test_as_array_dtype_matches_numpy(leaves, data):
    traced = data.draw(st.lists(st.booleans(), min_size=len(leaves), max_size=len(leaves)))
    args = [v for v, t in zip(leaves, traced) if t]

    def build(*tensors):
        pool = iter(tensors)
        items = [next(pool) if t else v for v, t in zip(leaves, traced)]
        nested = [items, items[::-1]]
        if not tensors:
            return np.array(nested)
        return join.as_array(nested)

    if args:
        check(build, *args)


@pytest.mark.parametrize("dtype", [None, np.float32, np.int64, bool])
def test_as_array_dtype_argument(dtype):
    check(lambda x: call(np.array, [[x, 1.7], [x, 0]], dtype=dtype), 2.5)


# ---- dim, size, np.shape -----------------------------------------------------------------


def test_dim_and_size_are_weak_ints():
    graph = check(
        lambda x: (x.shape[0], x.shape[1], x.size, np.size(x, 0), np.size(x)),
        np.ones((2, 3)),
        unknown={0: (0,)},
    )
    assert graph.out_types == (types.TensorType(np.int64, (), True),) * 5
    assert set(graph.op_counts()) == {"dim", "size"}


def test_static_shape_queries_need_no_equations():
    graph = trace(lambda x: (np.shape(x)[1] + x.shape[0], np.ndim(x), np.size(x)), T(F64, 2, 3))
    assert graph.eqns == () and [a.value for a in graph.outputs] == [5, 2, 6]


def test_dim_emit_reads_shape():
    graph = trace(lambda x: x.shape[1], T(F64, 2, None))
    (eqn,) = graph.eqns
    assert eqn.prim.emit(None, eqn, ["x"]) == "x.shape[1]"
    assert str(graph).splitlines()[1] == "  t0:i64[]~ = dim[axis=1] x0"


# ---- joining the subarrays of one tensor, or of a tensor list ----------------------------


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_stack_of_one_tensor_stacks_its_subarrays(axis):
    graph = check(lambda x: call(np.stack, x, axis=axis), X234)
    check(lambda x: call(np.stack, x, axis), X234, unknown={0: (0, 2)})
    assert set(graph.op_counts()) <= {"transpose"}


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate_of_one_tensor_joins_its_subarrays(axis):
    check(lambda x: call(np.concatenate, x, axis=axis), X234)
    check(lambda x: call(np.concatenate, x, axis), X234, unknown={0: (0,)})
    check(lambda x: call(np.concatenate, x, axis), X234, unknown={0: (1, 2)})


def test_stack_and_concatenate_of_a_tensor_list():
    def fn(x):
        lst = lists.as_list([x, 2 * x, 3 * x])
        return call(np.stack, lst, axis=1), call(np.concatenate, lst), call(np.concatenate, lst, 1)

    graph = check(fn, np.arange(6.0).reshape(2, 3), exact=False)
    assert graph.out_types == (T(F64, 2, None, 3), T(F64, None, 3), T(F64, 2, None))


def test_joining_one_tensor_errors():
    with pytest.raises(errors.ShapeError, match=r"stack: a 0-d array is not a sequence of arrays"):
        out_type(lambda x: call(np.stack, x), T(F64))
    with pytest.raises(errors.ShapeError, match=r"subarrays of an array of shape \(3,\) are 0-d"):
        out_type(lambda x: call(np.concatenate, x), T(F64, 3))
