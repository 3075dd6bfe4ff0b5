"""Gradients of the NumPy functions built on the stacking, rearranging, padding, statistics,
NaN-reduction, ufunc-method, scatter and dynamic-shape families, against central finite
differences (and the eager tape), with static and run-time (None) dims.

As in ``test_vjp_rules``, the loss is the output weighted by fixed random numbers and summed.
Inputs avoid ties and kinks (distinct values, away from quantile breakpoints), where a
derivative is one-sided.
"""

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import errors
from tograph import gradients as api
from tograph.ops import scatter

RNG = np.random.default_rng(0)


def check(fn, *args, **options):
    weights = RNG.uniform(0.5, 1.5, size=np.shape(fn(*args)))

    def loss(*xs):
        return np.sum(fn(*xs) * weights)

    return assert_grads(loss, *args, **options)


def distinct(shape):
    """Values with distinct magnitudes and signs mixed, so no sort or extremum has a tie."""
    values = RNG.permutation(int(np.prod(shape))).reshape(shape) + 1.0
    return values / values.size * RNG.choice([-1.0, 1.0], size=shape) + RNG.uniform(-0.01, 0.01)


NAN_PLACES = np.zeros((3, 4), bool)
NAN_PLACES[0, 2] = NAN_PLACES[1, 1] = NAN_PLACES[2, 3] = True  # never a whole row or column


def nans(x):
    return np.where(NAN_PLACES, np.nan, x)


CASES = [
    ("hstack", lambda x: np.hstack([x, 2 * x])),
    ("vstack", lambda x: np.vstack([x, x[0]])),
    ("column_stack", lambda x: np.column_stack([x[0], x[1] * x[2]])),
    ("dstack", lambda x: np.dstack([x, x * x])),
    ("atleast_3d", lambda x: np.atleast_3d(x[0]) * 2),
    ("split", lambda x: np.split(x, 2, axis=1)[1] * np.split(x, [1, 3])[0][0, 0]),
    ("array_split", lambda x: np.array_split(x, 3, axis=1)[0]),
    ("split out of order", lambda x: np.concatenate(np.split(x, [3, 1], axis=1), axis=1)),
    ("broadcast_arrays", lambda x: np.broadcast_arrays(x, x[0])[1] * 3),
    ("meshgrid", lambda x: np.meshgrid(x[0], x[1, :2] * 2)[0] * np.meshgrid(x[0], x[1, :2])[1]),
    ("copy", lambda x: np.copy(x) * x),
    ("tile", lambda x: np.tile(x, (2, 1, 3))),
    ("repeat", lambda x: np.repeat(x, 2, axis=1)),
    ("repeat counts", lambda x: np.repeat(x, [1, 0, 3], axis=0)),
    ("take", lambda x: np.take(x, [0, 5, 5, -1])),
    ("take clip", lambda x: np.take(x, [[0, 7], [-2, 1]], axis=1, mode="clip")),
    ("diagonal", lambda x: np.diagonal(x, 1)),
    ("diag", lambda x: np.diag(x, -1)),
    ("trace", lambda x: np.trace(x, 1)),
    ("insert", lambda x: np.insert(x, [1, 1, 3], x[0, :1] * 3, axis=1)),
    ("insert block", lambda x: np.insert(x, 2, x[0], axis=0)),
    ("delete", lambda x: np.delete(x, [0, 2], axis=1)),
    ("append", lambda x: np.append(x, x[0])),
    ("pad constant", lambda x: np.pad(x, ((1, 2), (0, 1)), constant_values=3.0)),
    ("pad tensor constant", lambda x: np.pad(x, 1, constant_values=x[0, 0])),
    ("pad edge", lambda x: np.pad(x, 2, mode="edge")),
    ("pad reflect", lambda x: np.pad(x, ((2, 1), (3, 0)), mode="reflect")),
    ("pad symmetric", lambda x: np.pad(x, 5, mode="symmetric")),
    ("pad wrap", lambda x: np.pad(x, (1, 6), mode="wrap")),
    ("cumprod", lambda x: np.cumprod(x, axis=1)),
    ("cumprod flat", lambda x: np.cumprod(x)),
    ("median", lambda x: np.median(x, axis=1)),
    ("median even", lambda x: np.median(x)),
    ("quantile", lambda x: np.quantile(x, [0.1, 0.9], axis=0)),
    ("percentile midpoint", lambda x: np.percentile(x, 35, axis=1, method="midpoint")),
    ("quantile hazen", lambda x: np.quantile(x, 0.4, method="hazen")),
    ("quantile nearest", lambda x: np.quantile(x, 0.4, axis=0, method="nearest")),
    ("nanmedian", lambda x: np.nanmedian(nans(x), axis=0)),
    ("nanquantile", lambda x: np.nanquantile(nans(x), 0.3, axis=1)),
    ("std ddof", lambda x: np.std(x, ddof=1, axis=0)),
    ("var correction", lambda x: np.var(x, correction=1)),
    ("ptp", lambda x: np.ptp(x, axis=1)),
    ("average weights", lambda x: np.average(x, axis=1, weights=np.arange(1.0, 5.0))),
    ("average returned", lambda x: np.average(x, axis=0, returned=True)[0]),
    ("nansum", lambda x: np.nansum(nans(x), axis=0)),
    ("nanprod", lambda x: np.nanprod(nans(x), axis=0)),
    ("nanmean", lambda x: np.nanmean(nans(x), axis=1)),
    ("nanvar", lambda x: np.nanvar(nans(x))),
    ("nanstd", lambda x: np.nanstd(nans(x), axis=1, ddof=1)),
    ("nanmax", lambda x: np.nanmax(nans(x), axis=1)),
    ("nanmin", lambda x: np.nanmin(nans(x))),
    ("nancumsum", lambda x: np.nancumsum(nans(x), axis=0)),
    ("nancumprod", lambda x: np.nancumprod(nans(x), axis=1)),
    ("add.reduce", lambda x: np.add.reduce(x)),
    ("multiply.reduce", lambda x: np.multiply.reduce(x, axis=1)),
    ("subtract.reduce", lambda x: np.subtract.reduce(x, axis=1)),
    ("divide.reduce", lambda x: np.divide.reduce(x + 2, axis=0)),
    ("logaddexp.reduce", lambda x: np.logaddexp.reduce(x, axis=1)),
    ("hypot.reduce", lambda x: np.hypot.reduce(x, axis=None)),
    ("fmax.reduce", lambda x: np.fmax.reduce(nans(x), axis=0)),
    ("maximum.accumulate", lambda x: np.maximum.accumulate(x, axis=1)),
    ("minimum.accumulate", lambda x: np.minimum.accumulate(x)),
    ("fmax.accumulate", lambda x: np.fmax.accumulate(nans(x), axis=1)),
    ("fmin.accumulate", lambda x: np.fmin.accumulate(nans(x), axis=1)),
    ("subtract.accumulate", lambda x: np.subtract.accumulate(x, axis=0)),
    ("multiply.outer", lambda x: np.multiply.outer(x[0], x[1:])),
    ("put_along_axis", lambda x: scatter.put_along_axis(x, [[0, 2], [1, 1], [3, 0]], x[:, :2], 1)),
    ("add.at", lambda x: scatter.ufunc_at(np.add, x, ([0, 0, 2], 1), x[1, 1:])),
    ("subtract.at", lambda x: scatter.ufunc_at(np.subtract, x, (slice(None), [1, 1]), x[:, :1])),
    ("multiply.at", lambda x: scatter.ufunc_at(np.multiply, x, [0, 2, 0], x[1])),
    ("divide.at", lambda x: scatter.ufunc_at(np.divide, x, [0, 2, 0], x[1] + 2)),
    ("maximum.at", lambda x: scatter.ufunc_at(np.maximum, x, [0, 2, 0], x[1])),
    ("fill_diagonal", lambda x: scatter.fill_diagonal(x, x[0, :2] * 3, wrap=True)),
    ("extract", lambda x: np.extract(x > 0, x) ** 2),
    ("compress", lambda x: np.compress(x[0] > 0, x, axis=1)),
    ("unique", lambda x: np.unique(np.round(x * 2) + x * 0.01)),
    ("nonzero", lambda x: x[np.nonzero(x > 0)] * 2),
    ("mask", lambda x: x[x > 0]),
]


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_gradient(name):
    fn = dict(CASES)[name]
    check(fn, distinct((3, 4)))


RUNTIME_DIMS = [
    ("vstack", lambda x: np.vstack(x) * 2),
    ("split", lambda x: np.array_split(x, 3, axis=1)[1]),
    ("broadcast_arrays", lambda x: np.broadcast_arrays(x, x[:1])[1]),
    ("tile", lambda x: np.tile(x, (2, 2))),
    ("repeat", lambda x: np.repeat(x, 2, axis=1)),
    ("repeat counts", lambda x: np.repeat(x, [1, 0, 2], axis=0)),
    ("take wrap", lambda x: np.take(x, [0, 5, -1], axis=1, mode="wrap")),
    ("diagonal", lambda x: np.diagonal(x, 1)),
    ("insert", lambda x: np.insert(x, 1, 7.0 * x[0], axis=0)),
    ("delete", lambda x: np.delete(x, 1, axis=0)),
    ("pad reflect", lambda x: np.pad(x, ((2, 1), (3, 0)), mode="reflect")),
    ("pad constant", lambda x: np.pad(x, 1, constant_values=2.0)),
    ("sort", lambda x: np.sort(x, axis=1)),
    ("quantile", lambda x: np.quantile(x, [0.3, 0.8], axis=1)),
    ("median", lambda x: np.median(x, axis=0)),
    ("nanmedian", lambda x: np.nanmedian(nans(x), axis=1)),
    ("nanvar", lambda x: np.nanvar(nans(x), axis=0)),
    ("cumprod", lambda x: np.cumprod(x, axis=0)),
    ("maximum.accumulate", lambda x: np.maximum.accumulate(x, axis=1)),
    ("put_along_axis", lambda x: scatter.put_along_axis(x, np.zeros((1, 1), int), x[:, :1], 1)),
    ("unique", lambda x: np.unique(x)),
    ("argwhere", lambda x: x[tuple(np.argwhere(x > 0).T)]),
]


@pytest.mark.parametrize("name", [c[0] for c in RUNTIME_DIMS])
def test_gradient_with_runtime_dims(name):
    fn = dict(RUNTIME_DIMS)[name]
    check(fn, distinct((3, 4)), input_spec=[tg.TensorSpec((None, None))])


def test_repeat_by_a_tensor_count():
    check(lambda x, n: np.repeat(x, n, axis=0), distinct((3, 2)), np.array([2, 0, 1]))


# ---- products of zeros: no division by the input --------------------------------------------

ZEROS = np.array([[2.0, 0.0, 3.0, 0.0, 1.5], [1.0, 2.0, 0.5, 3.0, 0.0], [0.5, 1.5, 2.0, 1.0, 3.0]])


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
def test_prod_gradient_at_zeros(axis):
    # Regression: prod's rule was g * out / x, NaN wherever x is 0.
    check(lambda z: np.prod(z, axis=axis), ZEROS)
    check(lambda z: np.prod(z, axis=axis, keepdims=True), ZEROS)
    got = api.grad(lambda z: np.prod(z))(np.array([0.0, 2.0, 3.0]))
    np.testing.assert_array_equal(got, [6.0, 0.0, 0.0])


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_cumprod_gradient_at_zeros(axis):
    check(lambda z: np.cumprod(z, axis=axis), ZEROS)
    check(lambda z: np.cumprod(z, axis=axis), np.zeros((2, 3)))


# ---- no gradient, and where none is defined -------------------------------------------------


def test_index_valued_results_pass_no_gradient():
    x = distinct((3, 4))
    check(lambda x: x * np.nanargmax(x) + x[0, 0] * np.flatnonzero(x > 0).size, x)
    check(lambda x: x * np.unique(np.round(x), return_counts=True)[1].sum(), x)


def test_accumulations_without_a_rule_say_so():
    with pytest.raises(errors.UnsupportedError, match="gradient of np.logaddexp.accumulate"):
        api.grad(lambda x: np.sum(np.logaddexp.accumulate(x)))(distinct((4,)))


def _loss_through_newer_functions(w):
    a = np.asarray_chkfinite(w * 1.5)
    b = np.ascontiguousarray(a).copy()
    np.putmask(b, b > 0.5, w[::-1] ** 2)
    np.place(b, b < -0.5, np.sin(w))
    rows = np.trim_zeros(np.apply_along_axis(lambda v: np.sum(v**3), 1, b.reshape(3, 2)), "f")
    return np.sum(rows) + np.sum(np.piecewise(w, [w < 0], [lambda v: v**2, lambda v: 3 * v]))


@pytest.mark.parametrize("seed", [0, 1])
def test_gradients_through_putmask_place_callbacks_and_trim_zeros(seed):
    w = np.random.default_rng(seed).standard_normal(6)
    assert_grads(_loss_through_newer_functions, w, tape=False)  # the tape runs NumPy's callbacks


def test_a_loss_divided_by_a_count_of_nonzeros_has_a_gradient():
    w = np.array([0.5, -1.5, 2.0, 0.25])
    assert_grads(lambda w: np.sum(w**2) / np.count_nonzero(w > 0.3), w)
