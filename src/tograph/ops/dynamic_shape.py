"""Results whose size depends on the data: ``nonzero`` (and one-argument ``where``), ``argwhere``,
``flatnonzero``, ``extract``, ``compress``, ``unique`` (and ``unique_all``, ``unique_counts``,
``unique_inverse``, as NumPy's named tuples) and ``trim_zeros``.

Stage: graph building. Input: these NumPy calls on tensors. Output: a ``nonzero`` or ``unique``
equation whose outputs have a ``None`` dim (their length is known only when the graph runs),
and existing primitives for the rest: ``extract`` and ``compress`` are a ``take`` at the
``nonzero`` positions, and ``unique``'s values are the input at the first occurrences
``unique`` finds, so gradients reach those elements; ``trim_zeros`` is a slice (a view, as
NumPy's) whose bounds are tensors. The results are tensors like any other:
later operations, loop carries and branches accept their run-time dims. Printed form::

    i:i64[None], j:i64[None] = nonzero x
    first:i64[None], counts:i64[None] = unique[equal_nan=True, inverse=False, counts=True] x
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, join, rearrange, shape, stacking
from tograph.trace import dispatch, tensor

_INDEX = np.dtype(np.intp)
# NumPy 2.0.1 and later give the inverse of a flattening unique the input's shape (2.0.0 did
# too, 1.x and a 2.0 patch release did not): ask the installed NumPy once.
_INVERSE_KEEPS_SHAPE = np.unique(np.zeros((1, 1)), return_inverse=True)[1].ndim == 2


def _array(x: Any) -> Any:
    return join.as_array(x) if isinstance(x, (list, tuple)) else x


# ---- nonzero ---------------------------------------------------------------------------------


def _nonzero_impl(x: Any) -> tuple[Any, ...]:
    return np.nonzero(x)


def _nonzero_rule(x: types.TensorType) -> tuple[types.TensorType, ...]:
    if x.ndim == 0:
        raise errors.ShapeError(
            "nonzero: Calling nonzero on 0d arrays is not allowed. Use "
            "np.atleast_1d(scalar).nonzero() instead."
        )
    return (types.TensorType(_INDEX, (None,)),) * x.ndim


nonzero_p = primitives.Primitive("nonzero", _nonzero_impl, _nonzero_rule, multiple_results=True)


@dispatch.implements(np.nonzero)
def nonzero(a: Any) -> tuple[Any, ...]:
    """``np.nonzero``: one index array per dimension, of a length known at run time."""
    return tuple(nonzero_p.bind(_array(a)))


@dispatch.implements(np.flatnonzero)
def flatnonzero(a: Any) -> Any:
    """``np.flatnonzero``: the nonzero positions of the flattened array."""
    return nonzero_p.bind(shape.ravel(_array(a)))[0]


@dispatch.implements(np.argwhere)
def argwhere(a: Any) -> Any:
    """``np.argwhere``: the nonzero positions as rows, shape ``(None, ndim)``."""
    a = _array(a)
    if common.operand_type(a).ndim == 0:
        return argwhere(stacking.atleast_1d(a))[:, :0]
    return join.stack(list(nonzero_p.bind(a)), axis=1)


@dispatch.implements(np.extract)
def extract(condition: Any, arr: Any) -> Any:
    """``np.extract``: the elements of ``arr`` where ``condition`` is true, both flattened."""
    where = _positions(shape.ravel(_array(condition)))
    return rearrange.take(shape.ravel(_array(arr)), where)


@dispatch.implements(np.compress)
def compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Any:
    """``np.compress``: the slices of ``a`` along ``axis`` where the 1-d ``condition`` is true
    (a shorter condition counts as false beyond its end, as in NumPy)."""
    if out is not None:
        raise dispatch.unsupported("np.compress with out=")
    condition = _array(condition)
    if common.operand_type(condition).ndim != 1:
        raise errors.ShapeError("compress: condition must be a 1-d array")
    return rearrange.take(_array(a), _positions(condition), axis=axis)


def _positions(flat: Any) -> Any:
    """The nonzero positions of a 1-d array: static if it is, else a tensor."""
    return nonzero_p.bind(flat)[0] if tensor.is_tensor(flat) else np.flatnonzero(flat)


# ---- unique ----------------------------------------------------------------------------------


def _unique_impl(x: Any, *, inverse: bool, counts: bool, equal_nan: bool) -> tuple[Any, ...]:
    unique_: Any = np.unique  # NumPy's stubs want literal flags
    found = unique_(
        x, return_index=True, return_inverse=inverse, return_counts=counts, equal_nan=equal_nan
    )
    return tuple(found[1:])


def _unique_rule(
    x: types.TensorType, *, inverse: bool, counts: bool, equal_nan: bool
) -> tuple[types.TensorType, ...]:
    out = [types.TensorType(_INDEX, (None,))]
    if inverse:
        out.append(types.TensorType(_INDEX, x.shape if _INVERSE_KEEPS_SHAPE else (x.size,)))
    if counts:
        out.append(types.TensorType(_INDEX, (None,)))
    return tuple(out)


unique_p = primitives.Primitive("unique", _unique_impl, _unique_rule, multiple_results=True)


@dispatch.implements(np.unique)
def unique(
    ar: Any,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: Any = None,
    *,
    equal_nan: bool = True,
    **kwargs: Any,
) -> Any:
    """``np.unique`` of the flattened array: the sorted distinct values (and, if asked, the
    index of each one's first occurrence, the inverse and the counts), of run-time length."""
    if axis is not None or kwargs:
        raise dispatch.unsupported("np.unique with axis= or sorted=")
    x = _array(ar)
    found = list(
        unique_p.bind(
            x, inverse=bool(return_inverse), counts=bool(return_counts), equal_nan=bool(equal_nan)
        )
    )
    first = found[0]
    values = rearrange.take(x, first)
    results = [values] + ([first] if return_index else []) + found[1:]
    return tuple(results) if len(results) > 1 else values


def _unique_result(x: Any, index: bool, inverse: bool, counts: bool) -> Any:
    """NumPy's array-API uniques: ``np.unique`` without NaNs merged, as NumPy's named tuple."""
    found = unique(x, index, inverse, counts, equal_nan=False)
    named = type(_UNIQUE_RESULTS[index, inverse, counts](np.zeros(1)))
    return named(*found)


_UNIQUE_RESULTS = {
    (True, True, True): np.unique_all,
    (False, True, False): np.unique_inverse,
    (False, False, True): np.unique_counts,
}


@dispatch.implements(np.unique_all)
def unique_all(x: Any) -> Any:
    """``np.unique_all``: values, first indices, inverse and counts."""
    return _unique_result(x, True, True, True)


@dispatch.implements(np.unique_inverse)
def unique_inverse(x: Any) -> Any:
    """``np.unique_inverse``: values and inverse."""
    return _unique_result(x, False, True, False)


@dispatch.implements(np.unique_counts)
def unique_counts(x: Any) -> Any:
    """``np.unique_counts``: values and counts."""
    return _unique_result(x, False, False, True)


def _bounds(nonzero: Any, n: Any, trim: str) -> tuple[Any, Any]:
    """The slice ``trim_zeros`` takes of an axis whose elements are ``nonzero`` (any along the
    other axes); both bounds are 0 when nothing is nonzero."""
    some = np.any(nonzero)
    first = np.argmax(nonzero) if "f" in trim else 0
    stop = n - np.argmax(nonzero[::-1]) if "b" in trim else n
    return np.where(some, first, 0), np.where(some, stop, 0)


@dispatch.implements(np.trim_zeros)
def trim_zeros(filt: Any, trim: str = "fb", axis: Any = None) -> Any:
    """``np.trim_zeros``: ``filt`` sliced to its first and last nonzero along each axis."""
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    ndim = filt.ndim
    axes = range(ndim) if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, ndim)
    if not axes:
        return filt
    nonzero = filt != 0
    index = [slice(None)] * ndim
    for ax in axes:
        others = tuple(a for a in range(ndim) if a != ax)
        along = np.any(nonzero, axis=others) if others else nonzero
        start, stop = _bounds(along, filt.shape[ax], trim)
        index[ax] = slice(start, stop)
    everywhere = np.any(nonzero)
    for ax in axes:
        bound = np.where(everywhere, index[ax].start, 0), np.where(everywhere, index[ax].stop, 0)
        index[ax] = slice(*bound)
    return filt[tuple(index)]
