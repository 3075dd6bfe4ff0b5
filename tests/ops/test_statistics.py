"""quantile, percentile, median (and their nan* forms), average and ptp against NumPy: methods,
dtypes, axes, keepdims, NaNs, static and tensor q, run-time dims, errors, tensor control flow."""

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types
from tograph.ops import statistics

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 5))
WITH_NAN = X.copy()
WITH_NAN[0, 1] = np.nan
WITH_NAN[2] = np.nan
ARRAYS = {
    "f64": X,
    "f32": X.astype(np.float32),
    "f16": X.astype(np.float16),
    "i32": RNG.integers(-9, 9, (4, 3)).astype(np.int32),
    "nan": WITH_NAN,
}
pytestmark = pytest.mark.filterwarnings(
    "ignore:All-NaN slice", "ignore:Mean of empty slice", "ignore:invalid value"
)


@pytest.mark.parametrize("method", statistics.METHODS)
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_quantile_methods(name, method):
    a = ARRAYS[name]
    if name == "f16" and method != "linear":
        return
    check(lambda a: np.quantile(a, 0.3, method=method), a)
    check(lambda a: np.quantile(a, [0.0, 0.25, 1.0], axis=1, method=method), a)
    check(lambda a: np.quantile(a, np.array([[0.1], [0.7]]), axis=0, method=method), a)
    check(lambda a: np.nanquantile(a, [0.2, 0.9], axis=-1, method=method, keepdims=True), a)
    check(lambda a: np.percentile(a, 40, axis=(0, 1), method=method), a)
    check(lambda a: np.nanpercentile(a, [40, 60], axis=0, method=method, keepdims=True), a)


@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "midpoint", "hazen"])
def test_quantile_with_tensor_q_and_runtime_dims(method):
    q = np.array([0.2, 0.5])
    check(lambda a, q: np.quantile(a, q, axis=1, method=method), X, q)
    check(lambda a, q: np.nanpercentile(a, q * 100, axis=0, method=method), WITH_NAN, q)
    check(lambda a: np.quantile(a, 0.3, axis=1, method=method), X, unknown={0: [0, 1]})
    check(lambda a: np.nanquantile(a, [0.3, 0.6], method=method), WITH_NAN, unknown={0: [0, 1]})


def test_quantile_of_bools_is_refused_like_numpy():
    with pytest.raises(errors.DTypeError, match="quantile does not support"):
        trace(lambda a: np.quantile(a, 0.5), types.TensorType(np.bool_, (3,)))


def test_quantile_errors():
    t = types.TensorType(np.float64, (3,))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        trace(lambda a: np.quantile(a, 1.5), t)
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        trace(lambda a: np.percentile(a, [50, -1]), t)
    a = np.array([3.0, 1.0, 2.0])
    for fn in (
        lambda a: np.quantile(a, 0.5, method="inverted_cdf"),
        lambda a: np.quantile(a, 0.5, method="inverted_cdf", weights=a),
    ):
        assert "numpy_call" in str(check(fn, a))
    with pytest.raises(errors.IndexingError, match="out of bounds"):
        trace(lambda a: np.quantile(a, 0.5), types.TensorType(np.float64, (0,)))


@settings(max_examples=50, deadline=None)
@given(
    q=st.lists(st.floats(0, 1), min_size=1, max_size=3),
    axis=st.sampled_from([None, 0, 1, -1, (0, 1)]),
    method=st.sampled_from(statistics.METHODS),
    keepdims=st.booleans(),
    nan=st.booleans(),
)
def test_quantile_matches_numpy(q, axis, method, keepdims, nan):
    fn = np.nanquantile if nan else np.quantile
    check(lambda a: fn(a, q, axis=axis, method=method, keepdims=keepdims), WITH_NAN)


@pytest.mark.parametrize("name", [*sorted(ARRAYS), "bool"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)], ids=str)
def test_median(name, axis):
    a = ARRAYS.get(name, X > 0)
    check(lambda a: np.median(a, axis=axis), a)
    check(lambda a: np.nanmedian(a, axis=axis, keepdims=True), a)
    check(lambda a: np.median(a, axis=axis), a, unknown={0: [0]})


def test_median_of_empty_slices_is_nan():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda a: np.median(a, axis=0), np.zeros((0, 3)))
        check(lambda a: np.median(a), np.zeros((0,), np.float32))


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_average(name):
    a = ARRAYS[name]
    w = np.arange(1.0, a.shape[1] + 1)
    check(lambda a: np.average(a), a)
    check(lambda a: np.average(a, axis=1, returned=True), a)
    check(lambda a: np.average(a, axis=(0, 1), returned=True, keepdims=True), a)
    check(lambda a, w: np.average(a, axis=1, weights=w, returned=True), a, w)
    check(lambda a: np.average(a, axis=-1, weights=[1] * a.shape[1], keepdims=True), a)
    check(lambda a, w: np.average(a, weights=w, returned=True), a, np.ones_like(a))
    check(lambda a: np.average(a, axis=0, returned=True), a, unknown={0: [0, 1]})


def test_average_weights_along_several_axes_and_errors():
    w = np.arange(1.0, 16.0).reshape(5, 3)
    check(lambda a, w: np.average(a, axis=(1, 0), weights=w, returned=True), X, w)
    t = types.type_of(X)
    with pytest.raises(TypeError, match="Axis must be specified"):
        trace(lambda a: np.average(a, weights=np.ones(5)), t)
    with pytest.raises(ValueError, match="Shape of weights must be consistent"):
        trace(lambda a: np.average(a, axis=0, weights=np.ones(5)), t)
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        trace(lambda a: np.average(a, axis=1, weights=np.zeros(5)), t)


def _weighted(a, w):
    return np.average(a, axis=0, weights=w, returned=True)


@pytest.mark.parametrize(
    "w", [[1.0, -1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [2.0, -2.0, 1.0]]
)
def test_average_checks_tensor_weights_when_the_graph_runs(w):
    a, w = np.arange(6.0).reshape(3, 2), np.array(w)
    static = tg.to_static(_weighted, fallback="error")
    try:
        expected = _weighted(a, w)
    except ZeroDivisionError as exc:
        with pytest.raises(ZeroDivisionError, match=str(exc)):
            static(a, w)
        return
    for e, c in zip(expected, static(a, w)):
        np.testing.assert_array_equal(c, e)


def _quantiles_at(a, q):
    return np.percentile(a, q), np.nanquantile(a, q / 100, axis=0)


@pytest.mark.parametrize(
    "q", [[0.0, 100.0], [50.0, 100.5], [-1.0, 3.0], [np.nan, 1.0], [7.0, 99.9]]
)
def test_quantiles_check_tensor_q_when_the_graph_runs(q):
    a, q = np.arange(6.0).reshape(3, 2), np.array(q)
    static = tg.to_static(_quantiles_at, fallback="error")
    try:
        expected = _quantiles_at(a, q)
    except ValueError as exc:
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            static(a, q)
        return
    for e, c in zip(expected, static(a, q)):
        np.testing.assert_array_equal(c, e)


@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_ptp(name):
    a = ARRAYS[name]
    check(lambda a: (np.ptp(a), np.ptp(a, axis=1, keepdims=True), np.ptp(a, axis=-2)), a)
    with pytest.raises(errors.DTypeError):
        trace(lambda a: np.ptp(a), types.TensorType(np.bool_, (3,)))


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: np.quantile(a, [0.25, 0.75], axis=0),
        lambda a: np.percentile(a, 10, method="nearest"),
        lambda a: np.median(a, axis=1),
        lambda a: np.nanmedian(a),
        lambda a: np.nanquantile(a, 0.5, axis=1),
        lambda a: np.average(a, axis=0, weights=[1.0, 2.0, 3.0]),
        lambda a: np.ptp(a, axis=0),
    ],
)
def test_in_a_tensor_loop(fn):
    assert_compiles_in_loop(fn, WITH_NAN)
