"""nansum, nanprod, nanmean, nanvar, nanstd, nanmax, nanmin, nanargmax, nanargmin, nancumsum
and nancumprod against NumPy: dtypes, axes, keepdims, all-NaN slices, run-time dims, loops."""

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
X = RNG.standard_normal((3, 4))
WITH_NAN = X.copy()
WITH_NAN[1, 2] = np.nan
WITH_NAN[2] = np.nan
ARRAYS = {
    "f64": X,
    "nan": WITH_NAN,
    "f32 nan": WITH_NAN.astype(np.float32),
    "i8": RNG.integers(-5, 5, (3, 4)).astype(np.int8),
    "bool": X > 0,
}
REDUCTIONS = {
    "nansum": np.nansum,
    "nanprod": np.nanprod,
    "nanmean": np.nanmean,
    "nanvar": np.nanvar,
    "nanstd": np.nanstd,
    "nanmax": np.nanmax,
    "nanmin": np.nanmin,
}
pytestmark = pytest.mark.filterwarnings(
    "ignore:All-NaN", "ignore:Mean of empty slice", "ignore:Degrees of freedom", "ignore:invalid"
)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)], ids=str)
@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("reduction", sorted(REDUCTIONS))
def test_nan_reductions(reduction, name, axis, keepdims):
    fn, a = REDUCTIONS[reduction], ARRAYS[name]
    if name == "bool" and reduction in ("nanvar", "nanstd"):
        return  # NumPy's var of bools subtracts them
    check(lambda a: fn(a, axis=axis, keepdims=keepdims), a)


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_nan_reductions_with_runtime_dims(name):
    a = ARRAYS[name]
    check(lambda a: (np.nansum(a, axis=0), np.nanmean(a, axis=1)), a, unknown={0: [0, 1]})
    check(lambda a: (np.nanmax(a, axis=0), np.nanprod(a)), a, unknown={0: [0]})


@pytest.mark.parametrize("ddof", [0, 1, 2, 3])
def test_nanvar_nanstd_ddof(ddof):
    check(lambda a: (np.nanvar(a, axis=1, ddof=ddof), np.nanstd(a, ddof=ddof)), WITH_NAN)
    check(lambda a: np.nanstd(a, axis=0, correction=ddof, keepdims=True), WITH_NAN)
    check(lambda a: np.nanvar(a, axis=0, ddof=ddof), WITH_NAN, unknown={0: [0, 1]})


def test_nan_reduction_dtypes():
    check(lambda a: (np.nansum(a, dtype=np.float32), np.nanmean(a, dtype=np.float32)), WITH_NAN)
    check(lambda a: np.nansum(a, axis=0, dtype=np.int16), ARRAYS["i8"])
    with pytest.raises(TypeError, match="dtype must be inexact"):
        trace(lambda a: np.nanmean(a, dtype=np.int64), types.type_of(WITH_NAN))


@pytest.mark.parametrize("name", sorted(ARRAYS))
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nancumsum_nancumprod(name, axis):
    a = ARRAYS[name]
    check(lambda a: (np.nancumsum(a, axis=axis), np.nancumprod(a, axis=axis)), a)


@pytest.mark.parametrize("name", ["f64", "i8", "bool"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_nanargmax_nanargmin(name, axis):
    a = ARRAYS[name]
    partly_nan = np.where(np.eye(3, 4, dtype=bool), np.nan, X)
    check(lambda a: (np.nanargmax(a, axis=axis), np.nanargmin(a, axis=axis)), a)
    check(lambda a: np.nanargmax(a, axis=axis, keepdims=True), partly_nan)
    check(lambda a: np.nanargmin(a, axis=axis), partly_nan, unknown={0: [0]})


def argmax_ignoring_nans(a):
    return np.nanargmax(a, axis=1)


def test_nanargmax_of_an_all_nan_slice_raises_when_run():
    with pytest.raises(errors.ShapeError, match="empty sequence"):
        trace(lambda a: np.nanargmax(a, axis=0), types.TensorType(np.float64, (0, 2)))
    static = tg.to_static(argmax_ignoring_nans, fallback="error")
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        static(WITH_NAN)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([np.nan, -1.0, 0.0, 2.5]), min_size=6, max_size=6),
    st.sampled_from(sorted(REDUCTIONS)),
    st.sampled_from([None, 0, 1]),
)
def test_nan_reductions_match_numpy(values, reduction, axis):
    check(lambda a: REDUCTIONS[reduction](a, axis=axis), np.array(values).reshape(2, 3))


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: np.nansum(a, axis=0),
        lambda a: np.nanmean(a),
        lambda a: np.nanstd(a, axis=1, ddof=1),
        lambda a: np.nanmax(a, axis=1),
        lambda a: np.nanargmin(a[:2], axis=1),
        lambda a: np.nancumprod(a, axis=0),
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, WITH_NAN)


def test_full_nanmean_nanvar_and_inner_are_numpy_scalars_under_to_static():
    def stats(a, b):
        return np.nanmean(a), np.nanvar(a), np.nanstd(a), np.inner(b, b)

    a = np.array([1.5, np.nan, -2.0, 4.0])
    b = np.array([0.5, 3.0], dtype=np.float32)
    got, expected = tg.to_static(stats, fallback="error")(a, b), stats(a, b)
    assert [type(g) for g in got] == [type(e) for e in expected]
    assert [type(e) for e in expected] == [np.float64] * 3 + [np.float32]
    np.testing.assert_array_equal(got, expected)


def test_nanmean_gradient_through_the_scalar_matches_central_differences():
    a = np.array([1.5, np.nan, -2.0, 4.0])
    got = tg.grad(tg.to_static(lambda a: np.nanmean(a) * np.nanvar(a), fallback="error"))(a)
    eps = 1e-6
    for i in (0, 2, 3):
        up, down = a.copy(), a.copy()
        up[i] += eps
        down[i] -= eps
        want = (np.nanmean(up) * np.nanvar(up) - np.nanmean(down) * np.nanvar(down)) / (2 * eps)
        np.testing.assert_allclose(got[i], want, rtol=1e-6)
