"""Reductions that ignore NaNs: ``nansum``, ``nanprod``, ``nanmean``, ``nanvar``, ``nanstd``,
``nanmax``, ``nanmin``, ``nanargmax``, ``nanargmin``, ``nancumsum``, ``nancumprod``.

Stage: graph building. Input: these NumPy calls on tensors. Output: NumPy's own algorithm in
equations: NaNs replaced by the reduction's identity (a ``where``) before ``sum``, ``prod``,
``cumsum`` or ``cumprod``; counts of the non-NaN values for the mean and variance, with NaN
where a slice has none (or no degrees of freedom left), and NumPy's warning then (a ``warn``
equation). ``nanmax`` and ``nanmin`` are
``np.fmax.reduce`` and ``np.fmin.reduce`` (``ufunc_reduce``), warning as NumPy does where a slice
is all NaN; ``nanargmax`` and ``nanargmin`` are
primitives whose kernels are NumPy's, so an all-NaN slice raises NumPy's ValueError when the graph
runs. On integer and boolean arrays each is its plain reduction, as in NumPy. Gradients come from
the parts (``where`` sends nothing to the NaNs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, effects, elementwise, indexing, reductions, shape, ufunc_methods
from tograph.trace import dispatch


def _inexact(a: Any) -> bool:
    return common.operand_type(a).dtype.kind in "fc"


def _replace_nan(a: Any, value: float) -> Any:
    """``a`` with its NaNs replaced by ``value`` (NumPy's ``_replace_nan``)."""
    return np.where(np.isnan(a), value, a) if _inexact(a) else a


def _axes(a: Any, axis: Any, name: str) -> tuple[int, ...] | None:
    return common.normalize_axes(axis, common.operand_type(a), name)


def _as_dtype(x: Any, dtype: np.dtype) -> Any:
    if common.operand_type(x).dtype == dtype:
        return x
    return elementwise.astype_p.bind(x, dtype=dtype, weak=False)


# ---- sums and products -------------------------------------------------------------------


@dispatch.implements(np.nansum)
def nansum(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **kw: Any
) -> Any:
    """``np.nansum``: NaNs count as zero."""
    reductions.reject("nansum", out, kw)
    return reductions.sum_p.bind(
        _replace_nan(a, 0),
        axis=_axes(a, axis, "nansum"),
        keepdims=bool(keepdims),
        dtype=reductions.result_dtype(dtype),
    )


@dispatch.implements(np.nanprod)
def nanprod(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **kw: Any
) -> Any:
    """``np.nanprod``: NaNs count as one."""
    reductions.reject("nanprod", out, kw)
    return reductions.prod_p.bind(
        _replace_nan(a, 1),
        axis=_axes(a, axis, "nanprod"),
        keepdims=bool(keepdims),
        dtype=reductions.result_dtype(dtype),
    )


def _nan_cumulative(
    prim: primitives.Primitive, value: float, a: Any, axis: Any, dtype: Any, out: Any
) -> Any:
    reductions.reject(f"nan{prim.name}", out, {})
    if axis is not None:
        axis = common.normalize_axis(axis, common.operand_type(a), f"nan{prim.name}")
    return prim.bind(_replace_nan(a, value), axis=axis, dtype=reductions.result_dtype(dtype))


@dispatch.implements(np.nancumsum)
def nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """``np.nancumsum``: NaNs count as zero."""
    return _nan_cumulative(reductions.cumsum_p, 0, a, axis, dtype, out)


@dispatch.implements(np.nancumprod)
def nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    """``np.nancumprod``: NaNs count as one."""
    return _nan_cumulative(reductions.cumprod_p, 1, a, axis, dtype, out)


# ---- mean, variance, standard deviation ----------------------------------------------------


def _count(a: Any, axes: tuple[int, ...] | None, keepdims: bool) -> Any:
    valid = np.logical_not(np.isnan(a))
    return reductions.sum_p.bind(valid, axis=axes, keepdims=keepdims, dtype=np.dtype(np.intp))


@dispatch.implements(np.nanmean)
def nanmean(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **kw: Any
) -> Any:
    """``np.nanmean``: the sum of the non-NaN values over their count (NaN if there are none)."""
    reductions.reject("nanmean", out, kw)
    axes, keep, dtype = _axes(a, axis, "nanmean"), bool(keepdims), reductions.result_dtype(dtype)
    if not _inexact(a):
        return reductions.mean_p.bind(a, axis=axes, keepdims=keep, dtype=dtype)
    if dtype is not None and dtype.kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    total = reductions.sum_p.bind(_replace_nan(a, 0), axis=axes, keepdims=keep, dtype=dtype)
    count = _count(a, axes, keep)
    mean = _as_dtype(total / np.maximum(count, 1), common.operand_type(total).dtype)
    empty = np.equal(count, 0)
    effects.warn_if(empty, "Mean of empty slice")
    return _scalar_if_0d(np.where(empty, np.nan, mean))  # no values: NaN, without 0/0 warnings


def _scalar_if_0d(result: Any) -> Any:
    """A 0-d result as the NumPy scalar NumPy's reduction returns (``np.where`` gives a 0-d
    array)."""
    return indexing.element(result) if common.operand_type(result).ndim == 0 else result


def _nanvar(
    name: str, a: Any, axis: Any, dtype: Any, out: Any, ddof: Any, keepdims: Any, kw: dict[str, Any]
) -> Any:
    if "correction" in kw:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = kw.pop("correction")
    reductions.reject(name, out, kw)
    axes, keep, dtype = _axes(a, axis, name), bool(keepdims), reductions.result_dtype(dtype)
    if not _inexact(a):
        return reductions.var_p.bind(a, axis=axes, keepdims=keep, dtype=dtype, ddof=ddof)
    if common.operand_type(a).dtype.kind == "c":
        raise dispatch.unsupported(f"np.{name} of a complex array")
    missing = np.isnan(a)
    filled = np.where(missing, 0, a)
    count = _count(a, axes, True)
    total = reductions.sum_p.bind(filled, axis=axes, keepdims=True, dtype=dtype)
    mean = _as_dtype(total / np.maximum(count, 1), common.operand_type(total).dtype)
    centred = np.where(missing, 0, _as_dtype(filled - mean, common.operand_type(a).dtype))
    var = reductions.sum_p.bind(centred * centred, axis=axes, keepdims=keep, dtype=dtype)
    if not keep:
        all_axes = tuple(range(common.operand_type(a).ndim)) if axes is None else axes
        count = shape.squeeze_p.bind(count, axis=all_axes)
    dof = count - ddof
    no_freedom = np.less_equal(dof, 0)
    var = _as_dtype(var / np.where(no_freedom, 1, dof), common.operand_type(var).dtype)
    effects.warn_if(no_freedom, "Degrees of freedom <= 0 for slice.")
    return _scalar_if_0d(np.where(no_freedom, np.nan, var))


@dispatch.implements(np.nanvar)
def nanvar(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    **kw: Any,
) -> Any:
    """``np.nanvar``: the variance of the non-NaN values, ``ddof`` (or ``correction``) removed
    from their count; NaN where no degrees of freedom are left."""
    return _nanvar("nanvar", a, axis, dtype, out, ddof, keepdims, kw)


@dispatch.implements(np.nanstd)
def nanstd(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    **kw: Any,
) -> Any:
    """``np.nanstd``: the square root of ``np.nanvar``."""
    return np.sqrt(_nanvar("nanstd", a, axis, dtype, out, ddof, keepdims, kw))


# ---- extremes and their positions ----------------------------------------------------------


@dispatch.implements(np.nanmax)
def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **kw: Any) -> Any:
    """``np.nanmax``: ``np.fmax.reduce`` (NaN only where a slice is all NaN)."""
    reductions.reject("nanmax", out, kw)
    return _warn_all_nan(ufunc_methods.reduce(np.fmax, a, axis=axis, keepdims=keepdims))


@dispatch.implements(np.nanmin)
def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **kw: Any) -> Any:
    """``np.nanmin``: ``np.fmin.reduce`` (NaN only where a slice is all NaN)."""
    reductions.reject("nanmin", out, kw)
    return _warn_all_nan(ufunc_methods.reduce(np.fmin, a, axis=axis, keepdims=keepdims))


def _warn_all_nan(result: Any) -> Any:
    """``result`` of ``np.fmax.reduce`` or ``np.fmin.reduce``, with NumPy's warning where a
    slice was all NaN (the result is NaN there)."""
    if _inexact(result):
        effects.warn_if(np.isnan(result), "All-NaN slice encountered")
    return result


def _arg_rule(name: str, fn: Callable[..., Any]) -> primitives.TypeRule:
    def rule(x: types.TensorType, *, axis: int | None, keepdims: bool) -> types.TensorType:
        axes = None if axis is None else (common.normalize_axis(axis, x, name),)
        if any(x.shape[i] == 0 for i in range(x.ndim) if axes is None or i in axes):
            raise errors.ShapeError(f"{name}: attempt to get {name[3:]} of an empty sequence")
        dtype = common.probe_dtype(name, fn, (x,), axis=axis, keepdims=keepdims)
        return types.TensorType(dtype, common.reduced_shape(x, axes, keepdims))

    return rule


nanargmax_p = primitives.Primitive("nanargmax", np.nanargmax, _arg_rule("nanargmax", np.nanargmax))
nanargmin_p = primitives.Primitive("nanargmin", np.nanargmin, _arg_rule("nanargmin", np.nanargmin))


@dispatch.implements(np.nanargmax)
def nanargmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    """``np.nanargmax``: the position of the largest non-NaN value."""
    return reductions.arg_reduce(nanargmax_p, a, axis, out, keepdims)


@dispatch.implements(np.nanargmin)
def nanargmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    """``np.nanargmin``: the position of the smallest non-NaN value."""
    return reductions.arg_reduce(nanargmin_p, a, axis, out, keepdims)
