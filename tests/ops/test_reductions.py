"""Reductions: output types against NumPy 2 (dtype and shape), kernel and emitted values, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import check, out_type, trace

from tograph import errors
from tograph.ir import types

DTYPES = [
    np.bool_,
    np.int8,
    np.int32,
    np.int64,
    np.uint8,
    np.uint64,
    np.float16,
    np.float32,
    np.float64,
    np.complex64,
]
REDUCTIONS = {
    "sum": np.sum,
    "mean": np.mean,
    "prod": np.prod,
    "max": np.max,
    "amax": np.amax,
    "min": np.min,
    "amin": np.amin,
    "any": np.any,
    "all": np.all,
    "var": np.var,
    "std": np.std,
}


def sample(shape, dtype, seed=0):
    values = np.random.default_rng(seed).integers(-3, 4, size=shape)
    return values.astype(dtype) if np.dtype(dtype).kind != "u" else np.abs(values).astype(dtype)


@st.composite
def reduction_cases(draw):
    shape = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
    ndim = len(shape)
    axes = st.integers(-ndim, ndim - 1) if ndim else st.nothing()
    axis = draw(
        st.none() | axes | st.lists(axes, max_size=ndim, unique_by=lambda a: a % ndim).map(tuple)
    )
    return (
        shape,
        axis,
        draw(st.booleans()),
        draw(st.sampled_from(DTYPES)),
        draw(st.sampled_from(sorted(REDUCTIONS))),
    )


@settings(max_examples=300, deadline=None)
@given(reduction_cases())
def test_reductions_match_numpy(case):
    shape, axis, keepdims, dtype, name = case
    fn = REDUCTIONS[name]
    check(lambda x: fn(x, axis=axis, keepdims=keepdims), sample(shape, dtype))


@settings(max_examples=150, deadline=None)
@given(reduction_cases())
def test_arg_reductions_and_cumsum_match_numpy(case):
    shape, axis, keepdims, dtype, _ = case
    single = (
        axis[0] if isinstance(axis, tuple) and axis else None if isinstance(axis, tuple) else axis
    )
    x = sample(shape, dtype)
    check(lambda x: np.argmax(x, axis=single, keepdims=keepdims), x)
    check(lambda x: np.argmin(x, axis=single), x)
    check(lambda x: np.cumsum(x, axis=single), x)


@pytest.mark.parametrize("value", [3, -2.5, True, 1 + 2j])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reducing_a_python_scalar_gives_numpy_dtype_strong(value, name):
    graph = check(lambda x: REDUCTIONS[name](x), value)
    assert not graph.out_types[0].weak


@pytest.mark.parametrize("value", [3, -2.5, True])
def test_scalar_cumsum_and_argmax(value):
    check(lambda x: (np.cumsum(x), np.argmax(x), np.argmin(x, keepdims=True)), value)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128])
@pytest.mark.parametrize("source", [np.int8, np.float64, np.bool_])
def test_dtype_argument(dtype, source):
    x = sample((2, 3), source)
    check(
        lambda x: (
            np.sum(x, dtype=dtype),
            np.prod(x, axis=0, dtype=dtype),
            np.cumsum(x, axis=1, dtype=dtype),
        ),
        x,
    )
    if np.dtype(dtype).kind in "fc":
        check(
            lambda x: (
                np.mean(x, dtype=dtype),
                np.var(x, axis=1, dtype=dtype),
                np.std(x, dtype=dtype),
            ),
            x,
        )


def test_methods_route_to_primitives():
    x = sample((2, 3, 4), np.float32)
    graph = check(
        lambda x: (
            x.sum(axis=(0, 2)),
            x.mean(axis=-1, keepdims=True),
            x.prod(),
            x.max(axis=1),
            x.min(),
            x.argmax(axis=-1),
            x.argmin(),
            x.cumsum(axis=-2),
        ),
        x,
    )
    assert graph.op_counts() == {
        "argmax": 1,
        "argmin": 1,
        "cumsum": 1,
        "max": 1,
        "mean": 1,
        "min": 1,
        "prod": 1,
        "sum": 1,
    }


def test_var_std_ddof():
    x = sample((3, 4), np.float64, seed=1)
    check(lambda x: (np.var(x, ddof=1), np.std(x, axis=0, ddof=2, keepdims=True)), x)


def test_params_are_normalised_and_printed():
    graph = trace(
        lambda x: (np.sum(x, axis=(-1, 0)), np.argmax(x, axis=-1), np.cumsum(x)),
        types.TensorType(np.float64, (2, 3)),
    )
    assert str(graph) == "\n".join(
        [
            "graph f(x0:f64[2,3]):",
            "  t0:f64[] = sum[axis=(0, 1), dtype=None, keepdims=False] x0",
            "  t1:i64[2] = argmax[axis=1, keepdims=False] x0",
            "  t2:f64[6] = cumsum[axis=None, dtype=None] x0",
            "  return t0, t1, t2",
        ]
    )


def test_unknown_dims():
    t = types.TensorType(np.int32, (None, 3, None))
    assert out_type(lambda x: np.sum(x, axis=1), t) == types.TensorType(np.int64, (None, None))
    assert out_type(lambda x: np.mean(x, axis=(0, 2), keepdims=True), t) == types.TensorType(
        np.float64, (1, 3, 1)
    )
    assert out_type(lambda x: np.max(x, axis=-1), t) == types.TensorType(np.int32, (None, 3))
    assert out_type(lambda x: np.argmin(x, axis=0), t) == types.TensorType(np.int64, (3, None))
    assert out_type(lambda x: np.cumsum(x), t) == types.TensorType(np.int64, (None,))
    assert out_type(lambda x: np.cumsum(x, axis=1), t) == types.TensorType(
        np.int64, (None, 3, None)
    )


def test_unknown_dims_values():
    x = sample((2, 3, 4), np.float64)
    check(
        lambda x: (np.sum(x, axis=1), np.max(x, axis=0, keepdims=True), np.cumsum(x)),
        x,
        unknown={0: (0, 2)},
    )


def test_axis_out_of_bounds_names_shape():
    t = types.TensorType(np.float64, (3, 4))
    with pytest.raises(
        errors.ShapeError, match=r"sum: axis 2 is out of bounds for array of shape \(3, 4\)"
    ):
        out_type(lambda x: np.sum(x, axis=2), t)
    with pytest.raises(
        errors.ShapeError, match=r"argmax: axis -3 is out of bounds for array of shape \(3, 4\)"
    ):
        out_type(lambda x: np.argmax(x, axis=-3), t)
    with pytest.raises(errors.ShapeError, match=r"cumsum: axis 5 is out of bounds"):
        out_type(lambda x: np.cumsum(x, axis=5), t)
    with pytest.raises(errors.ShapeError, match=r"mean: repeated axis in \(0, -2\)"):
        out_type(lambda x: np.mean(x, axis=(0, -2)), t)


def test_max_of_empty_dimension_is_an_error():
    t = types.TensorType(np.float64, (0, 3))
    with pytest.raises(errors.ShapeError, match=r"max: zero-size array .* \(shape \(0, 3\)"):
        out_type(lambda x: np.max(x, axis=0), t)
    with pytest.raises(errors.ShapeError, match=r"argmin: zero-size array"):
        out_type(lambda x: np.argmin(x), t)
    assert out_type(lambda x: np.min(x, axis=1), t) == types.TensorType(np.float64, (0,))
    check(lambda x: (np.min(x, axis=1), np.sum(x, axis=0)), np.zeros((0, 3)))


def test_unsupported_arguments():
    t = types.TensorType(np.float64, (3,))
    with pytest.raises(errors.UnsupportedError, match="np.mean.*out="):
        out_type(lambda x: np.mean(x, out=np.zeros(())), t)
    x = np.array([1.0, -2.0, 3.0])
    for fn in (lambda x: np.sum(x, where=x > 0), lambda x: np.max(x, initial=2.5)):
        assert "numpy_call" in str(check(fn, x))  # arguments with no rule: NumPy's own kernel


@pytest.mark.filterwarnings("ignore:Casting complex values")
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_cumprod(axis, dtype):
    x = sample((2, 3), dtype, seed=2)
    check(lambda x: (np.cumprod(x, axis=axis), x.cumprod(axis=axis)), x)
    check(lambda x: np.cumprod(x, axis=axis, dtype=np.float32), x)
    check(lambda x: np.cumprod(x, axis=axis), np.zeros((0, 3), dtype))
    check(lambda x: np.cumprod(x, axis=axis), x, unknown={0: (0, 1)})


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_var_std_methods_and_correction():
    # Regression: x.var() and x.std() were left to the tensor (lowering lists them as tensor
    # methods) but tensors had no such methods: an AttributeError at graph build.
    x = sample((3, 4), np.float32, seed=1)
    check(lambda x: (x.var(), x.std(axis=0, ddof=1), x.var(axis=(0, 1), keepdims=True)), x)
    check(lambda x: (np.var(x, correction=1), np.std(x, axis=1, correction=2)), x)
    check(lambda x: np.var(x, ddof=12), x.astype(np.float64))  # no degrees of freedom: inf
    check(lambda x: (np.var(x > 0), np.std(x.astype(np.int8), ddof=1)), x)
    with pytest.raises(ValueError, match="ddof and correction"):
        trace(lambda x: np.var(x, ddof=1, correction=1), types.type_of(x))


def _same_bits(got, want):
    assert type(got) is type(want), (type(got), type(want))
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int32, np.bool_])
@pytest.mark.parametrize("size", [0, 1, 3, 7, 1000, 4097])
def test_compiled_whole_reductions_are_numpys_to_the_bit(dtype, size):
    """The executor calls ``ufunc.reduce`` and a short mean kernel instead of ``np.sum`` and
    ``np.mean``: sums, products, extremes and means of whole arrays (the float32 mean divides in
    float64, as NumPy's does), including empty ones, whose warnings and errors are NumPy's too."""
    import warnings

    import tograph as tg

    def whole(x):
        return np.sum(x), np.prod(x), x.mean(), x.sum(axis=0, keepdims=True)

    def extremes(x):
        return np.max(x), x.min(axis=0)

    rng = np.random.default_rng(size)
    x = (rng.normal(size=size) * 100).astype(dtype)
    for fn in (whole, extremes):
        with warnings.catch_warnings(record=True) as eager_warnings:
            warnings.simplefilter("always")
            try:
                want, raised = fn(x), None
            except ValueError as exc:
                want, raised = None, exc
        if raised is not None:  # a known empty shape: NumPy raises, and so does tograph
            with pytest.raises(ValueError, match="zero-size"):
                tg.to_static(fn)(x)
            continue
        compiled = tg.to_static(fn, fallback="error")
        with warnings.catch_warnings(record=True) as got_warnings:
            warnings.simplefilter("always")
            got = compiled(x)
        assert [str(w.message) for w in got_warnings] == [str(w.message) for w in eager_warnings]
        for g, w in zip(got, want, strict=True):
            _same_bits(g, w)


def test_compiled_means_of_scalars_and_special_values():
    import tograph as tg

    def mean_of(x):
        return np.mean(x), np.sum(x), np.max(x)

    compiled = tg.to_static(mean_of, fallback="error")
    cases = [
        np.array(2.5),
        np.array([np.nan, 1.0]),
        np.array([np.inf, -np.inf]),
        np.array([1e308, 1e308]),
        np.float64(3.0),
        np.float32(3.5),
        np.arange(6.0).reshape(2, 3)[:, ::2],
    ]
    for x in cases:
        with np.errstate(over="ignore", invalid="ignore"):
            for g, w in zip(compiled(x), mean_of(x), strict=True):
                _same_bits(g, w)
    for value in (2, 2.5, True):
        for g, w in zip(compiled(value), mean_of(value), strict=True):
            _same_bits(g, w)
