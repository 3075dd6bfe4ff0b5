"""getitem and setitem: NumPy's basic and advanced indexing, static and tensor parts, errors."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import check, interpret, out_type, trace

from tograph import errors
from tograph.ir import types
from tograph.ops import indexing

X = np.arange(60.0).reshape(3, 4, 5)
WEAK_I64 = types.TensorType(np.int64, (), True)


def T(dtype, *dims):
    return types.TensorType(dtype, dims)


# ---- random indices ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Param:
    """Stands for the k-th traced argument inside a generated index."""

    k: int


def materialise(spec, params):
    def item(v):
        if isinstance(v, Param):
            return params[v.k]
        if isinstance(v, slice):
            return slice(*(item(p) for p in (v.start, v.stop, v.step)))
        return v

    return tuple(item(v) for v in spec) if isinstance(spec, tuple) else item(spec)


@st.composite
def indices(draw, shape):
    """An index for an array of ``shape`` (a tuple or one item), the values of its tensor parts,
    and whether the result shape is static (no tensor slice bounds or masks)."""
    params, items, axis, ellipsis, exact = [], [], 0, False, True
    static_kinds = {"int", "array"}

    def maybe_param(value):
        if value is None or not draw(st.booleans()):
            return value
        params.append(value)
        return Param(len(params) - 1)

    small = st.integers(-3, 2)  # in range for every dim of X, wherever the ellipsis puts the item
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "array", "mask"]))
        if (kind != "none" and kind != "ellipsis" and axis >= len(shape)) or (
            kind == "ellipsis" and ellipsis
        ):
            kind = "none"
        before = len(params)
        if kind == "int":
            items.append(maybe_param(draw(small)))
        elif kind == "slice":
            bounds = [draw(st.none() | st.integers(-6, 6)) for _ in range(2)]
            step = draw(st.sampled_from([None, 1, 2, -1, -2]))
            items.append(slice(*(maybe_param(b) for b in bounds + [step])))
        elif kind == "array":
            dims = draw(st.sampled_from([(2,), (1,), (2, 1), (1, 2), (0,)]))
            items.append(
                maybe_param(
                    np.array(
                        draw(
                            st.lists(
                                small, min_size=int(np.prod(dims)), max_size=int(np.prod(dims))
                            )
                        )
                    )
                    .reshape(dims)
                    .astype(np.int64)
                )
            )
        elif kind == "mask":
            n = 2 if axis + 1 < len(shape) and draw(st.booleans()) else 1
            mask_shape = shape[axis : axis + n]
            items.append(
                maybe_param(
                    np.array(
                        draw(
                            st.lists(
                                st.booleans(),
                                min_size=int(np.prod(mask_shape)),
                                max_size=int(np.prod(mask_shape)),
                            )
                        )
                    ).reshape(mask_shape)
                )
            )
            axis += n - 1
        else:
            items.append(None if kind == "none" else Ellipsis)
            ellipsis = ellipsis or kind == "ellipsis"
        axis += kind in ("int", "slice", "array", "mask")
        exact = exact and (len(params) == before or kind in static_kinds)
    spec = items[0] if len(items) == 1 and draw(st.booleans()) else tuple(items)
    return spec, params, exact


@settings(max_examples=400, deadline=None)
@given(indices(X.shape))
def test_getitem_matches_numpy(case):
    spec, params, exact = case
    fn = lambda x, *ps: x[materialise(spec, ps)]  # noqa: E731
    try:
        fn(X, *params)
    except IndexError:
        # Static parts are checked while tracing; a tensor mask's count only when the graph runs.
        with pytest.raises(errors.IndexingError if exact else IndexError):
            interpret(trace(fn, types.type_of(X), *map(types.type_of, params)), X, *params)
        return
    check(fn, X, *params, exact=exact)


@settings(max_examples=250, deadline=None)
@given(
    indices(X.shape),
    st.sampled_from(["scalar", "full", "trailing", "leading1"]),
    st.booleans(),
    st.sampled_from([np.float64, np.int32, np.bool_]),
)
def test_setitem_matches_numpy_assignment(case, value_kind, traced_value, dtype):
    spec, params, _ = case
    x = (X % 7).astype(dtype)
    try:
        target = x[materialise(spec, params)].shape
    except IndexError:
        return
    value = {
        "scalar": 2.75,
        "full": np.full(target, 3.5),
        "trailing": np.arange(np.prod(target[-1:]), dtype=np.float32).reshape(target[-1:]),
        "leading1": np.full((1, 1) + target, -1, dtype=np.int8),
    }[value_kind]

    def fn(x, value, *ps):
        if isinstance(x, np.ndarray):
            out = x.copy()
            out[materialise(spec, ps)] = value
            return out
        return indexing.setitem(x, materialise(spec, ps), value)

    try:
        fn(x, value, *params)
    except ValueError:  # NumPy refuses this assignment (e.g. a (1, 1) block into one element)
        with pytest.raises((ValueError, errors.ToGraphError)):
            interpret(
                trace(
                    lambda x, *ps: fn(x, value, *ps), types.type_of(x), *map(types.type_of, params)
                ),
                x,
                *params,
            )
        return
    if traced_value:
        check(fn, x, value, *params)
    else:
        check(lambda x, *ps: fn(x, value, *ps), x, *params)


# ---- specific cases ----------------------------------------------------------------------


def test_advanced_index_placement():
    x = np.zeros((2, 3, 4, 5))
    i = np.array([0, 1, 0, 1, 0])
    check(
        lambda x, j: (
            x[:, i, None, i],
            x[:, i, ..., i],
            x[:, 0, None, i],
            x[i, :, 1],
            x[:, j, i],
            x[:, True, 0],
            x[None, :, 0, None, 1],
            x[..., j, 1:, i],
            x[[[0], [1]], 0, :],
        ),
        x,
        2,
    )


def test_tensor_index_parts_become_inputs_and_print_as_args():
    graph = trace(
        lambda x, i, n: (x[i, 1:n, ::2], x[..., [0, 2]], x[None, i]),
        T(np.float64, 3, 4, 5),
        WEAK_I64,
        WEAK_I64,
    )
    assert str(graph).splitlines()[1:4] == [
        "  t0:f64[None,3] = getitem[index=[$0, 1:$1, ::2]] x0 x1 x2",
        "  t1:f64[3,4,2] = getitem[index=[..., [0, 2]]] x0",
        "  t2:f64[1,4,5] = getitem[index=[None, $0]] x0 x1",
    ]


def test_index_params_are_hashable_and_equal_by_value():
    a, _ = indexing.parse_index((0, slice(1, None), np.array([1, 2]), None, Ellipsis))
    b, _ = indexing.parse_index((0, slice(1, None), [1, 2], None, ...))
    assert a == b and hash(a) == hash(b) and repr(a) == "[0, 1:, [1, 2], None, ...]"
    assert repr(indexing.parse_index(np.arange(10))[0]) == "[array<i64[10]>]"


def test_mask_tensor_gives_unknown_dim():
    t = T(np.float64, 3, 4)
    assert out_type(lambda x: x[x > 0], t) == T(np.float64, None)
    assert out_type(lambda x: x[x[:, 0] > 0, 1:], t) == T(np.float64, None, 3)
    assert out_type(lambda x: x[:, [True, False, True, True]], t) == T(np.float64, 3, 3)
    check(lambda x: (x[x > 10], x[:, x[0] > 1]), np.arange(12.0).reshape(3, 4), exact=False)


def test_unknown_dims():
    t = T(np.float32, None, 4, None)
    assert out_type(lambda x: x[0], t) == T(np.float32, 4, None)
    assert out_type(lambda x: x[1:3, ::2, :], t) == T(np.float32, None, 2, None)
    assert out_type(lambda x: x[..., [0, 1, 2]], t) == T(np.float32, None, 4, 3)
    assert out_type(lambda x, i: x[i, :, i], t, WEAK_I64) == T(np.float32, 4)
    check(lambda x, i: (x[i], x[1:, ::-1][..., i], x[:, [2, 0]]), X, 1, unknown={0: (0, 2)})


def test_index_of_zero_d_and_python_scalar():
    check(lambda s: (s[()], s[None, ...], s[True], s[np.array([True])[0]]), np.float32(1.5))
    check(lambda s: (s[()], s[...], s[None]), np.array(2))
    with pytest.raises(
        errors.DTypeError, match=r"a Python scalar \(f64\[\]~\) is not subscriptable"
    ):
        out_type(lambda s: s[()], types.TensorType(np.float64, (), True))


def test_scalar_integer_tensor_index():
    check(lambda x, i, j: (x[i], x[i, j], x[-1, :, j]), X, np.int32(2), np.array(1))


def test_static_array_of_integers_in_a_list_of_tensors():
    check(lambda x, i: x[[i, 0, i]], X, 2)


def test_out_of_range_static_index_names_index_and_shape():
    t = T(np.float64, 3, 4)
    with pytest.raises(
        errors.IndexingError,
        match=r"index 4 is out of bounds for axis 1 with size 4 "
        r"\(index \[0, 4\] into shape \(3, 4\)\)",
    ):
        out_type(lambda x: x[0, 4], t)
    with pytest.raises(IndexError, match=r"index -4 is out of bounds for axis 0 with size 3"):
        out_type(lambda x: x[-4], t)
    with pytest.raises(errors.IndexingError, match=r"index 3 is out of bounds for axis 0"):
        out_type(lambda x: x[[0, 3]], t)
    out_type(lambda x: x[7], T(np.float64, None, 4))  # unknown dim: checked at run time


def test_indexing_errors():
    t = T(np.float64, 3, 4)
    with pytest.raises(
        errors.IndexingError,
        match=r"too many indices for array: array is 2-dimensional, but 3 were indexed",
    ):
        out_type(lambda x: x[0, 1, 2], t)
    with pytest.raises(errors.IndexingError, match=r"single ellipsis"):
        out_type(lambda x: x[..., 0, ...], t)
    with pytest.raises(
        errors.IndexingError,
        match=r"boolean index did not match indexed array along axis 1; "
        r"size of axis is 4 but size of corresponding boolean axis is 3",
    ):
        out_type(lambda x: x[:, x[:, 0] > 0], t)
    with pytest.raises(
        errors.IndexingError,
        match=r"shape mismatch: indexing arrays could not be broadcast together "
        r"with shapes \(2,\) \(3,\)",
    ):
        out_type(lambda x: x[[0, 1], [0, 1, 2]], t)
    with pytest.raises(
        errors.IndexingError,
        match=r"arrays used as indices must be of integer \(or boolean\) type, got f64\[2\]",
    ):
        out_type(lambda x: x[x[0, :2]], t)
    with pytest.raises(errors.IndexingError, match=r"got float64"):
        out_type(lambda x: x[np.array([0.0])], t)
    with pytest.raises(errors.IndexingError, match=r"valid indices, got str 'a'"):
        out_type(lambda x: x["a"], t)
    with pytest.raises(
        errors.DTypeError,
        match=r"slice indices must be integer scalars, got a tensor of type f64\[\]",
    ):
        out_type(lambda x: x[: x[0, 0]], t)
    with pytest.raises(errors.DTypeError, match=r"slice indices must be integers or None, got 1.5"):
        out_type(lambda x: x[:1.5], t)
    with pytest.raises(errors.ShapeError, match=r"slice step cannot be zero"):
        out_type(lambda x: x[::0], t)


def test_setitem_is_functional_and_casts_to_x_dtype():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    graph = check(lambda x, v: indexing.setitem(x, (slice(None), 1), v), x, 7.9)
    assert graph.out_types == (T(np.int32, 2, 3),)
    out = indexing.setitem(x, 0, 5)
    assert out is not x and x[0, 0] == 0 and out[0].tolist() == [5, 5, 5]


def test_setitem_with_tensor_mask_and_list_value():
    check(lambda x: indexing.setitem(x, x > 3, 0.0), np.arange(6.0))
    check(lambda x, v: indexing.setitem(x, [0, 2], [v, 2 * v]), np.arange(6.0), 1.5)


def test_setitem_errors():
    t = T(np.float64, 2, 3)
    with pytest.raises(
        errors.ShapeError,
        match=r"setitem: could not broadcast a value of shape \(4,\) into x\[0\] of shape \(3,\) "
        r"\(x has shape \(2, 3\)\)",
    ):
        out_type(lambda x: indexing.setitem(x, 0, np.ones(4)), t)
    with pytest.raises(
        errors.ShapeError, match=r"value of shape \(2, 3\) into x\[0\] of shape \(3,\)"
    ):
        out_type(lambda x: indexing.setitem(x, 0, x), t)
    with pytest.raises(errors.IndexingError, match=r"setitem: index 5 is out of bounds"):
        out_type(lambda x: indexing.setitem(x, 5, 1.0), t)
    with pytest.raises(
        errors.DTypeError, match=r"Python scalar .* does not support item assignment"
    ):
        out_type(lambda s: indexing.setitem(s, (), 1.0), types.TensorType(np.float64, (), True))
    assert out_type(
        lambda x, v: indexing.setitem(x, 0, v), T(np.float64, None, 3), T(np.float64, None, 3)
    ) == T(np.float64, None, 3)


def test_getitem_emit_is_python_subscript():
    graph = trace(lambda x, i: x[i, 1:, ::-1, None], T(np.float64, 3, 4, 5), WEAK_I64)
    (eqn,) = graph.eqns
    assert eqn.prim.emit(None, eqn, ["x", "i"]) == "x[i, 1:, ::-1, None]"
