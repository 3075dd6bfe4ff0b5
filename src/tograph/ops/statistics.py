"""Order statistics and averages: ``quantile``, ``percentile``, ``median`` and their ``nan*``
forms, ``average`` and ``ptp``, composed from existing primitives.

Stage: graph building. Input: these NumPy calls on tensors; ``q`` static or a tensor. Output:
a sort along the reduced axes (moved last and merged into one), the neighbouring order
statistics picked by one advanced index, and NumPy's interpolation between them, cast to the
dtype NumPy returns (found by running NumPy on tiny probes). Gradients come from the parts: the
sort's gather scatters back, the interpolation weighs the two neighbours (and ``q``). The
``nan*`` forms count the non-NaN values of each slice (NaNs sort last), so their positions differ
per slice; a slice with a NaN (plain forms) or with nothing but NaNs (``nan*`` forms) gives NaN,
as in NumPy. Methods: ``linear`` (the default), ``lower``, ``higher``, ``nearest``, ``midpoint``,
and the continuous Hyndman-Fan ones (``weibull``, ``hazen``, ``median_unbiased``,
``normal_unbiased``, ``interpolated_inverted_cdf``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types
from tograph.ops import (
    common,
    composites,
    creation,
    effects,
    elementwise,
    host_call,
    indexing,
    join,
    reductions,
    shape,
)
from tograph.trace import dispatch, tensor

# alpha and beta of the continuous methods (NumPy's _compute_virtual_index).
_ALPHA_BETA = {
    "interpolated_inverted_cdf": (0.0, 1.0),
    "hazen": (0.5, 0.5),
    "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3.0, 1 / 3.0),
    "normal_unbiased": (3 / 8.0, 3 / 8.0),
}
_DISCRETE = ("lower", "higher", "nearest")
METHODS = ("linear", "midpoint", *_DISCRETE, *_ALPHA_BETA)


def dims_of(x: Any) -> list[Any]:
    """The shape of ``x``: ints where static, scalar tensors where known only at run time."""
    return list(x.shape) if tensor.is_tensor(x) else list(np.shape(x))


def _cast(x: Any, dtype: np.dtype) -> Any:
    if tensor.is_tensor(x):
        return elementwise.astype_p.bind(x, dtype=np.dtype(dtype), weak=False)
    return np.asarray(x).astype(dtype)


def _result_dtype(fn: Callable[..., Any], x: types.TensorType, *args: Any, **kw: Any) -> np.dtype:
    """The dtype of ``fn`` on a probe of type ``x`` (NumPy's own answer; its errors raised)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return np.asarray(fn(common.probe_value(x.strong()), *args, **kw)).dtype
        except TypeError as exc:
            raise errors.DTypeError(f"{fn.__name__} does not support {x}: {exc}") from None


# ---- the sorted slices -------------------------------------------------------------------


def _to_last(x: Any, axis: Any, name: str) -> tuple[Any, tuple[int, ...]]:
    """``x`` with the reduced axes moved last and merged into one; and those axes."""
    t = common.operand_type(x)
    axes = common.normalize_axes(axis, t, name)
    axes = tuple(range(t.ndim)) if axes is None else axes
    kept = [i for i in range(t.ndim) if i not in axes]
    order = kept + list(axes)
    moved = x if order == list(range(t.ndim)) else shape.transpose(x, order)
    if len(axes) == 1:
        return moved, axes
    dims = dims_of(moved)
    return shape.reshape(moved, dims[: len(kept)] + [-1]), axes


def _gather(s: Any, index: Any, q_ndim: int) -> Any:
    """``s[..., index]`` where ``index`` has the q dims then the slice dims of ``s`` (or ones):
    the result has shape ``q dims + slice dims``."""
    batch = dims_of(s)[:-1]
    if not batch:
        return indexing.getitem(s, index)
    grid = []
    for k, n in enumerate(batch):
        steps = creation.arange(n) if tensor.is_tensor(n) else np.arange(n)
        place = [1] * (q_ndim + len(batch))
        place[q_ndim + k] = -1
        grid.append(shape.reshape(steps, place))
    return indexing.getitem(s, (*grid, index))


def _lerp(a: Any, b: Any, gamma: Any) -> Any:
    """NumPy's ``_lerp``: from the nearer end, so that ``gamma`` 0 and 1 give ``a`` and ``b``."""
    diff = b - a
    return np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)


def _virtual_index(method: str, n: Any, q: Any) -> Any:
    if method == "linear":
        return (n - 1) * q
    if method == "lower":
        return np.floor((n - 1) * q)
    if method == "higher":
        return np.ceil((n - 1) * q)
    if method == "nearest":
        return np.round((n - 1) * q)
    if method == "midpoint":
        return 0.5 * (np.floor((n - 1) * q) + np.ceil((n - 1) * q))
    alpha, beta = _ALPHA_BETA[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _order_statistic(
    x: Any,
    q: Any,
    axis: Any,
    method: str,
    keepdims: bool,
    skip_nan: bool,
    name: str,
    weak_q: bool = False,
) -> Any:
    """The ``q``-th quantiles of ``x`` over ``axis`` by ``method``, in NumPy's layout, before the
    final cast; ``method`` ``"median"`` averages the two middle values. ``weak_q``: ``q`` was a
    Python number, so a static interpolation weight stays one (as in NumPy)."""
    t = common.operand_type(x)
    merged, axes = _to_last(x, axis, name)
    s = composites.sort(merged, axis=-1)
    n = dims_of(s)[-1]
    if isinstance(n, int) and n == 0:
        raise errors.IndexingError(f"{name}: index -1 is out of bounds for axis 0 with size 0")
    q_dims = dims_of(q)
    floating = t.dtype.kind in "fc"
    count = n
    batch_ones = [1] * (len(dims_of(s)) - 1)
    if skip_nan and floating:
        count = reductions.sum_p.bind(
            np.logical_not(np.isnan(s)), axis=(s.ndim - 1,), keepdims=False, dtype=np.dtype(np.intp)
        )
        q = shape.reshape(q, q_dims + batch_ones) if q_dims else q
    elif q_dims:
        q = shape.reshape(q, q_dims + batch_ones)
    if method == "median":
        lo = _gather(s, _index((count - 1) // 2), len(q_dims))
        hi = _gather(s, _index(count // 2), len(q_dims))
        wide = np.result_type(_result_dtype(np.median, t), np.float32)
        result = (_cast(lo, wide) + _cast(hi, wide)) / 2
    else:
        virtual = _virtual_index(method, count, q)
        last = np.maximum(count - 1, 0)
        below = np.clip(np.floor(virtual), 0, last)
        above = np.clip(np.floor(virtual) + 1, 0, last) if method not in _DISCRETE else below
        lo = _gather(s, _index(below), len(q_dims))
        if method in _DISCRETE:
            result = lo
        else:
            gamma = virtual - np.floor(virtual)
            if method == "midpoint":
                gamma = np.where(np.equal(np.mod(virtual, 1), 0), 0.0, 0.5)
            if weak_q and not tensor.is_tensor(gamma):
                gamma = float(gamma)
            result = _lerp(lo, _gather(s, _index(above), len(q_dims)), gamma)
    if floating:
        missing = np.equal(count, 0) if skip_nan else np.isnan(indexing.getitem(s, (..., -1)))
        if skip_nan:  # NumPy warns once per slice of NaNs only
            effects.warn_if(missing, "All-NaN slice encountered", each=True)
        result = np.where(missing, np.nan, result)
    if keepdims:
        kept = [d if i not in axes else 1 for i, d in enumerate(dims_of(x))]
        result = shape.reshape(result, q_dims + kept)
    return result


def _index(v: Any) -> Any:
    return _cast(v, np.dtype(np.intp))


# ---- quantile, percentile, median --------------------------------------------------------


def _check_q(q: Any, top: float, what: str) -> Any:
    """``q`` as an array (a tensor if it holds one); static values must lie in ``[0, top]``
    (a tensor's are checked when the graph runs)."""
    if tensor.contains_tensor(q):
        return q if tensor.is_tensor(q) else join.as_array(q)
    values = np.asarray(q)
    if values.dtype.kind not in "biuf" or not ((values >= 0) & (values <= top)).all():
        raise ValueError(f"{what} must be in the range [0, {top:g}]")
    return values


def _quantile_function(fn: Callable[..., Any], skip_nan: bool, scale: float) -> Any:
    """The handler of ``fn`` (``np.quantile`` and its ``nan`` and percent forms): ``q`` static or
    a tensor (its dims come first in the result), divided by ``scale``."""
    name = fn.__name__
    top, what = (100.0, "Percentiles") if scale != 1 else (1.0, "Quantiles")

    def handler(
        a: Any,
        q: Any,
        axis: Any = None,
        out: Any = None,
        overwrite_input: bool = False,
        method: str = "linear",
        keepdims: bool = False,
        **kwargs: Any,
    ) -> Any:
        given = sorted(k for k, v in {**kwargs, "out": out}.items() if v is not None)
        if given:
            raise dispatch.unsupported(f"np.{name} with {', '.join(f'{k}=' for k in given)}")
        if method not in METHODS:
            raise dispatch.unsupported(f"np.{name} with method={method!r}")
        q_value = _check_q(q, top, what)
        q_probe = q if not tensor.is_tensor(q) else common.probe_value(q.type)
        t = common.operand_type(a)
        dtype = _result_dtype(fn, t, q_probe, axis=axis, method=method, keepdims=keepdims)
        fraction = q_value / scale if scale != 1 else q_value
        if tensor.is_tensor(fraction):  # NumPy checks q after dividing it, as here
            outside = np.logical_not((fraction >= 0) & (fraction <= 1))
            effects.raise_if(outside, ValueError(f"{what} must be in the range [0, {top:g}]"))
        weak_q = type(q) in (int, float)
        result = _order_statistic(a, fraction, axis, method, keepdims, skip_nan, name, weak_q)
        return _cast(result, dtype)

    handler.__name__ = handler.__qualname__ = name
    return handler


quantile = dispatch.implements(np.quantile)(_quantile_function(np.quantile, False, 1.0))
nanquantile = dispatch.implements(np.nanquantile)(_quantile_function(np.nanquantile, True, 1.0))
percentile = dispatch.implements(np.percentile)(_quantile_function(np.percentile, False, 100.0))
nanpercentile = dispatch.implements(np.nanpercentile)(
    _quantile_function(np.nanpercentile, True, 100.0)
)


def _median(
    name: str,
    fn: Callable[..., Any],
    a: Any,
    axis: Any,
    out: Any,
    keepdims: bool,
    skip_nan: bool,
) -> Any:
    if out is not None:
        raise dispatch.unsupported(f"np.{name} with out=")
    t = common.operand_type(a)
    dtype = _result_dtype(fn, t, axis=axis, keepdims=keepdims)
    axes = common.normalize_axes(axis, t, name)
    reduced = [t.shape[i] for i in (range(t.ndim) if axes is None else axes)]
    if 0 in reduced:  # NumPy: the mean of nothing, NaN, with the warnings NumPy's code gives
        return host_call.host_call(
            host_call.NumpyFunction(name), (a,), {"axis": axis, "keepdims": keepdims}
        )
    result = _order_statistic(a, np.asarray(0.5), axis, "median", keepdims, skip_nan, name)
    return _cast(result, dtype)


@dispatch.implements(np.median)
def median(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Any:
    """``np.median``: the mean of the two middle values (NaN where a slice holds a NaN)."""
    return _median("median", np.median, a, axis, out, keepdims, False)


@dispatch.implements(np.nanmedian)
def nanmedian(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> Any:
    """``np.nanmedian``: the median of each slice's non-NaN values."""
    return _median("nanmedian", np.nanmedian, a, axis, out, keepdims, True)


# ---- average and ptp -----------------------------------------------------------------------


@dispatch.implements(np.average)
def average(
    a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *, keepdims: Any = False
) -> Any:
    """``np.average``, with NumPy's dtypes and weight broadcasting along ``axis``.

    Weights that sum to zero raise NumPy's ZeroDivisionError (when the graph runs, if they are
    a tensor).
    """
    t = common.operand_type(a)
    axes = None if axis is None else common.normalize_axes(axis, t, "average")
    order = None if axis is None else common.axis_sequence(axis, t, "average")
    keep = bool(keepdims)
    if weights is None:
        avg = reductions.mean_p.bind(a, axis=axes, keepdims=keep, dtype=None)
        count: Any = 1
        for i in range(t.ndim) if axes is None else axes:
            count = count * dims_of(a)[i]
        scale = _cast(count, common.operand_type(avg).dtype)
    else:
        w = weights if tensor.is_tensor(weights) else np.asarray(weights)
        wt = common.operand_type(w).strong()
        if t.dtype.kind in "biu":
            dtype = np.result_type(t.dtype, wt.dtype, "f8")
        else:
            dtype = np.result_type(t.dtype, wt.dtype)
        if wt.shape != t.shape:
            w = _align_weights(w, t, order)
        scale = reductions.sum_p.bind(w, axis=axes, keepdims=keep, dtype=dtype)
        zero = ZeroDivisionError("Weights sum to zero, can't be normalized")
        effects.raise_if(np.equal(scale, 0.0), zero)
        weighted = np.multiply(a, w, dtype=dtype)
        avg = reductions.sum_p.bind(weighted, axis=axes, keepdims=keep, dtype=None) / scale
    if not returned:
        return avg
    if common.operand_type(scale).shape != common.operand_type(avg).shape:
        scale = shape.broadcast_to(scale, dims_of(avg))
    return avg, scale


def _align_weights(w: Any, t: types.TensorType, order: Sequence[int] | None) -> Any:
    """1-d (or axis-shaped) weights laid along ``order``'s axes of an array of type ``t``."""
    wt = common.operand_type(w)
    if order is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    along = tuple(t.shape[i] for i in order)
    if wt.ndim != len(order) or not common.broadcastable_to(wt.shape, along):
        raise ValueError(
            "Shape of weights must be consistent with shape of a along specified axis."
        )
    ranks = [int(i) for i in np.argsort(order)]
    w = shape.transpose(w, ranks) if ranks != list(range(len(ranks))) else w
    wdims = iter(dims_of(w))
    return shape.reshape(w, [next(wdims) if i in order else 1 for i in range(t.ndim)])


@dispatch.implements(np.ptp)
def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False) -> Any:
    """``np.ptp``: the maximum minus the minimum."""
    if out is not None:
        raise dispatch.unsupported("np.ptp with out=")
    axes = common.normalize_axes(axis, common.operand_type(a), "ptp")
    high = reductions.max_p.bind(a, axis=axes, keepdims=bool(keepdims))
    low = reductions.min_p.bind(a, axis=axes, keepdims=bool(keepdims))
    return np.subtract(high, low)
