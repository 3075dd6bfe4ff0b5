"""NumPy functions built from other primitives: ``take_along_axis``, ``diff``, ``roll``, ``triu``,
``tril``, ``isclose``, ``allclose``; and the ``argsort`` and ``sort`` primitives (NumPy's own
sorts, whose order of equal values a composition could not reproduce).

Stage: build (ops). Input: calls of these NumPy functions on tensors. Output: equations of
existing primitives (indexing, slicing, joining, comparisons), so each result has NumPy's dtype
and shape and each differentiable one has a gradient without a rule of its own. Where a
composition needs a static dimension (an index grid, a shift modulo a length) and the dimension is
known only at run time, the call is unsupported and the function falls back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, creation, elementwise, indexing, join, reductions, shape
from tograph.trace import dispatch, tensor


def _argsort_rule(x: types.TensorType, *, axis: int, kind: str | None) -> types.TensorType:
    return types.TensorType(np.dtype(np.intp), x.shape)


def _argsort_impl(x: Any, *, axis: int, kind: str | None) -> Any:
    return np.argsort(x, axis=axis, kind=kind)


argsort_p = primitives.Primitive("argsort", _argsort_impl, _argsort_rule)


def _flat_or_axis(a: Any, axis: Any, name: str) -> tuple[Any, int]:
    """``a`` flattened with axis 0 when ``axis`` is None, else ``a`` with its axis normalised."""
    if axis is None:
        return shape.reshape(a, (-1,)), 0
    return a, common.normalize_axis(axis, common.operand_type(a), name)


@dispatch.implements(np.argsort)
def argsort(
    a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None
) -> Any:
    """``np.argsort`` with NumPy's own algorithm (``kind``), so ties come out in the same order."""
    if order is not None:
        raise dispatch.unsupported("np.argsort with order=")
    a, axis = _flat_or_axis(a, axis, "argsort")
    return argsort_p.bind(a, axis=axis, kind="stable" if stable else kind)


def _static_shape(x: Any, name: str) -> tuple[int, ...]:
    t = common.operand_type(x)
    if not t.is_static_shape:
        raise dispatch.unsupported(f"np.{name} of a tensor with dimensions known only at run time")
    return tuple(int(d) for d in t.shape)


@dispatch.implements(np.take_along_axis)
def take_along_axis(arr: Any, indices: Any, axis: Any = None) -> Any:
    """``np.take_along_axis`` as one advanced index: ``indices`` along ``axis`` and, on every
    other axis, an arange over ``arr``'s dim (which ``indices`` broadcasts against, as in NumPy;
    a run-time dim gives a run-time arange)."""
    arr, axis = _flat_or_axis(arr, axis, "take_along_axis")
    return indexing.getitem(arr, along_axis_index(arr, indices, axis))


def along_axis_index(arr: Any, indices: Any, axis: int) -> tuple[Any, ...]:
    """The advanced index that picks ``indices`` along ``axis`` of ``arr`` (NumPy's
    ``_make_along_axis_idx``)."""
    t, ndim = common.operand_type(arr), common.operand_type(indices).ndim
    if ndim != t.ndim:
        raise errors.ShapeError(
            f"`indices` and `arr` must have the same number of dimensions (got {ndim} and {t.ndim})"
        )
    grid: list[Any] = []
    for d, n in enumerate(t.shape):
        if d == axis:
            grid.append(indices)
            continue
        steps = np.arange(n) if n is not None else creation.arange(arr.shape[d])
        grid.append(shape.reshape(steps, [-1 if k == d else 1 for k in range(ndim)]))
    return tuple(grid)


def _sort_rule(x: types.TensorType, *, axis: int, kind: str | None) -> types.TensorType:
    return x.strong()


def _sort_impl(x: Any, *, axis: int, kind: str | None) -> Any:
    return np.sort(x, axis=axis, kind=kind)


sort_p = primitives.Primitive("sort", _sort_impl, _sort_rule)


@dispatch.implements(np.sort)
def sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Any:
    """``np.sort`` by NumPy's own sort and ``kind``: values that compare equal but differ in
    their bits (``-0.0`` and ``0.0``, NaNs, which NumPy's vectorised sort rewrites as one NaN)
    come out where, and as, eager's do, which the values at a stable ``argsort``'s positions
    would not. Its gradient goes back through a stable argsort (``autodiff.rearrange_rules``)."""
    if order is not None:
        raise dispatch.unsupported("np.sort with order=")
    a, axis = _flat_or_axis(a, axis, "sort")
    return sort_p.bind(a, axis=axis, kind="stable" if stable else kind)


def _along(ndim: int, axis: int, piece: slice) -> tuple[slice, ...]:
    return tuple(piece if d == axis else slice(None) for d in range(ndim))


@dispatch.implements(np.diff)
def diff(
    a: Any, n: int = 1, axis: int = -1, prepend: Any = np._NoValue, append: Any = np._NoValue
) -> Any:
    """``np.diff``: ``n`` times the difference of neighbours along ``axis``."""
    if prepend is not np._NoValue or append is not np._NoValue:
        raise dispatch.unsupported("np.diff with prepend= or append=")
    ndim = common.operand_type(a).ndim
    axis = common.normalize_axis(axis, common.operand_type(a), "diff")
    for _ in range(n):
        later = indexing.getitem(a, _along(ndim, axis, slice(1, None)))
        earlier = indexing.getitem(a, _along(ndim, axis, slice(None, -1)))
        a = (
            np.not_equal(later, earlier)
            if common.operand_type(a).dtype == np.bool_
            else later - earlier
        )
    return a


@dispatch.implements(np.roll)
def roll(a: Any, shift: Any, axis: Any = None) -> Any:
    """``np.roll`` with a static shift: two slices joined the other way round."""
    if not isinstance(shift, (int, np.integer)) or not (
        axis is None or isinstance(axis, (int, np.integer))
    ):
        raise dispatch.unsupported("np.roll with a tensor or tuple shift or axis")
    flat = axis is None
    src, axis = _flat_or_axis(a, axis, "roll")
    length = _static_shape(src, "roll")[axis]
    cut = (length - int(shift) % length) % length if length else 0
    ndim = common.operand_type(src).ndim
    head = indexing.getitem(src, _along(ndim, axis, slice(cut, None)))
    tail = indexing.getitem(src, _along(ndim, axis, slice(None, cut)))
    rolled = join.concatenate([head, tail], axis=axis)
    return shape.reshape(rolled, _static_shape(a, "roll")) if flat else rolled


def _triangle(m: Any, k: int, lower: bool, name: str) -> Any:
    dims = _static_shape(m, name)
    if len(dims) < 2:
        raise dispatch.unsupported(f"np.{name} of a tensor with fewer than 2 dimensions")
    keep = np.tri(dims[-2], dims[-1], k=k if lower else k - 1, dtype=bool)
    return elementwise.where_p.bind(
        keep if lower else ~keep, m, np.zeros((), dtype=common.operand_type(m).dtype)
    )


@dispatch.implements(np.tril)
def tril(m: Any, k: int = 0) -> Any:
    """``np.tril``: the lower triangle, zeros above the ``k``-th diagonal."""
    return _triangle(m, k, True, "tril")


@dispatch.implements(np.triu)
def triu(m: Any, k: int = 0) -> Any:
    """``np.triu``: the upper triangle, zeros below the ``k``-th diagonal."""
    return _triangle(m, k, False, "triu")


@dispatch.implements(np.isclose)
def isclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """``np.isclose``: ``|a - b| <= atol + rtol * |b|``, equal infinities close, NaNs if asked."""
    a, b = _inexact(a), _inexact(b)
    close = np.less_equal(np.abs(a - b), atol + rtol * np.abs(b))
    close = np.logical_or(close, np.equal(a, b))
    if equal_nan:
        close = np.logical_or(close, np.logical_and(np.isnan(a), np.isnan(b)))
    return close


def _inexact(x: Any) -> Any:
    """Integer operands compared as floats, as NumPy's ``isclose`` does."""
    t = common.operand_type(x)
    if t.dtype.kind in "fc":
        return x
    return (
        elementwise.astype_p.bind(x, dtype=np.dtype(np.float64), weak=False)
        if tensor.is_tensor(x)
        else np.float64(x)
    )


@dispatch.implements(np.allclose)
def allclose(
    a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Any:
    """``np.allclose``; a Python bool in eager code, so a weak bool here."""
    every = reductions.all_p.bind(isclose(a, b, rtol, atol, equal_nan), axis=None, keepdims=False)
    return elementwise.astype_p.bind(every, dtype=np.dtype(np.bool_), weak=True)
