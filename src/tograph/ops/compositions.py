"""NumPy functions that are compositions of other NumPy functions tograph handles: ``np.rot90``,
``np.rollaxis``, ``np.unstack``, ``np.dsplit``, ``np.linalg.diagonal``,
``np.linalg.matrix_transpose``, and the dtype queries ``np.finfo`` and ``np.iinfo`` of a tensor.

Stage: graph building. Input: tensors and NumPy's static arguments. Output: what NumPy's own
definition gives, built from the handled functions, so views stay views (a write through
``np.rot90(a)`` reaches ``a``) and gradients come from the parts. ``finfo``/``iinfo`` are answered
while the graph is built, from a stand-in of the kind eager code would pass (an array, a NumPy
scalar or a Python number), so they raise where NumPy raises.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph.ops import common
from tograph.trace import dispatch, tensor


@dispatch.implements(np.rot90)
def rot90(m: Any, k: Any = 1, axes: Any = (0, 1)) -> Any:
    """``np.rot90``: flips and a transpose, as NumPy defines it (a view of ``m``)."""
    if tensor.is_tensor(k):
        raise dispatch.unsupported("np.rot90", "the number of turns k is a tensor")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    ndim = common.operand_type(m).ndim
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == ndim:
        raise ValueError("Axes must be different.")
    if not all(-ndim <= axis < ndim for axis in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[:]
    if k == 2:
        return np.flip(np.flip(m, axes[0]), axes[1])
    order = list(range(ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return np.transpose(np.flip(m, axes[1]), order)
    return np.flip(np.transpose(m, order), axes[1])


@dispatch.implements(np.rollaxis)
def rollaxis(a: Any, axis: Any, start: Any = 0) -> Any:
    """``np.rollaxis``: a transpose moving ``axis`` before ``start`` (a view of ``a``)."""
    t = common.operand_type(a)
    n = t.ndim
    axis = common.normalize_axis(axis, t, "rollaxis")
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(
            f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    order = list(range(n))
    order.remove(axis)
    order.insert(start, axis)
    return np.transpose(a, order)


@dispatch.implements(np.unstack)
def unstack(x: Any, /, *, axis: Any = 0) -> tuple[Any, ...]:
    """``np.unstack``: the views along ``axis``, as a tuple (its length must be known)."""
    moved = np.moveaxis(x, axis, 0)
    if common.operand_type(moved).shape[0] is None:
        raise dispatch.unsupported(
            "np.unstack", "the length of the axis is known only when the graph runs"
        )
    return tuple(moved)


@dispatch.implements(np.hsplit)
def hsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``np.hsplit``: ``np.split`` along the second axis (the first of a 1-d array)."""
    ndim = common.operand_type(ary).ndim
    if ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return np.split(ary, indices_or_sections, 1 if ndim > 1 else 0)


@dispatch.implements(np.vsplit)
def vsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``np.vsplit``: ``np.split`` along the first axis."""
    if common.operand_type(ary).ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return np.split(ary, indices_or_sections, 0)


@dispatch.implements(np.dsplit)
def dsplit(ary: Any, indices_or_sections: Any) -> list[Any]:
    """``np.dsplit``: ``np.split`` along the third axis."""
    if common.operand_type(ary).ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return np.split(ary, indices_or_sections, 2)


@dispatch.implements(np.linalg.diagonal)
def linalg_diagonal(x: Any, /, *, offset: Any = 0) -> Any:
    """``np.linalg.diagonal``: the diagonals of the last two axes."""
    return np.diagonal(x, offset, axis1=-2, axis2=-1)


@dispatch.implements(np.linalg.matrix_transpose)
def linalg_matrix_transpose(x: Any, /) -> Any:
    """``np.linalg.matrix_transpose``: ``np.matrix_transpose``."""
    return np.matrix_transpose(x)


def _stand_in(value: Any) -> Any:
    """A concrete value of the kind ``value`` is in eager code, with its dtype."""
    if not tensor.is_tensor(value):
        return value
    t = value.type
    if value.is_array:
        return np.zeros(tuple(1 if d is None else d for d in t.shape), t.dtype)
    if t.weak:
        return {"b": bool, "i": int, "f": float, "c": complex}[t.dtype.kind](0)
    return t.dtype.type(0)


@dispatch.overrides(np.finfo)
def finfo(dtype: Any) -> Any:
    """``np.finfo(t)``: the limits of ``t``'s type, answered while the graph is built."""
    return np.finfo(_stand_in(dtype))


@dispatch.overrides(np.iinfo)
def iinfo(int_type: Any) -> Any:
    """``np.iinfo(t)``: the limits of ``t``'s integer type, answered while the graph is built."""
    return np.iinfo(_stand_in(int_type))
