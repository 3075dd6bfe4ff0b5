"""VJP rules of the products: ``prod`` and ``cumprod``; and helpers along one axis that the
rules of other scans share.

Stage: autodiff. Input and output as in ``rules``: the output cotangent, the inputs, ``out`` and
params; one cotangent (or None) per input. Products are differentiated without dividing by the
input, so zeros get their exact gradient: the product of the other elements (``prod``), and for
``cumprod`` the division formula before a slice's first zero, a product of the elements around
it at the zero, and nothing after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.autodiff.rules import defvjp, shape_of, spread
from tograph.ops import creation, indexing, join, reductions
from tograph.ops import shape as shape_ops
from tograph.trace import tensor

# ---- helpers along one axis ------------------------------------------------------------------


def steps_along(x: Any, axis: int) -> Any:
    """0, 1, ... along ``axis`` of ``x``, shaped to broadcast against it."""
    n = shape_of(x)[axis]
    steps = creation.arange(n) if tensor.is_tensor(n) else np.arange(n)
    return shape_ops.reshape(steps, [-1 if k == axis else 1 for k in range(np.ndim(x))])


def reverse_cumsum(v: Any, axis: int) -> Any:
    return np.flip(np.cumsum(np.flip(v, axis), axis=axis), axis)


def shift(x: Any, axis: int, fill: float) -> Any:
    """``x`` moved one place forward along ``axis``, ``fill`` in the first place."""
    head = indexing.getitem(x, (slice(None),) * axis + (slice(0, 1),))
    body = indexing.getitem(x, (slice(None),) * axis + (slice(None, -1),))
    return join.concatenate([np.full_like(head, fill), body], axis=axis)


def _exclusive_cumprod(x: Any, axis: int) -> Any:
    """The product of the elements before each one along ``axis`` (1 for the first)."""
    return np.cumprod(shift(x, axis, 1), axis=axis)


# ---- prod and cumprod ------------------------------------------------------------------------


@defvjp(reductions.prod_p)
def _prod(g: Any, x: Any, *, out: Any, axis: Any, dtype: Any, keepdims: bool) -> tuple[Any, ...]:
    ndim = np.ndim(x)
    axes = tuple(range(ndim)) if axis is None else axis
    if not axes:
        return (g,)
    kept = [i for i in range(ndim) if i not in axes]
    order = kept + list(axes)
    moved = x if order == list(range(ndim)) else np.transpose(x, order)
    dims = shape_of(moved)
    flat = shape_ops.reshape(moved, list(dims[: len(kept)]) + [-1])
    last = len(kept)
    before = _exclusive_cumprod(flat, last)
    after = np.flip(_exclusive_cumprod(np.flip(flat, last), last), last)
    others = before * after  # the product of the other elements, with no division
    others = shape_ops.reshape(others, list(dims))
    if order != list(range(ndim)):
        others = np.transpose(others, tuple(int(i) for i in np.argsort(order)))
    return (spread(g, x, axis, keepdims) * others,)


@defvjp(reductions.cumprod_p)
def _cumprod(g: Any, x: Any, *, out: Any, axis: Any, dtype: Any) -> tuple[Any, ...]:
    if axis is None:
        flat = shape_ops.reshape(x, (-1,))
        return (shape_ops.reshape(_cumprod_along(g, flat, out, 0), shape_of(x)),)
    return (_cumprod_along(g, x, out, axis),)


def _cumprod_along(g: Any, x: Any, out: Any, axis: int) -> Any:
    is_zero = np.equal(x, 0)
    zeros_before = np.cumsum(is_zero, axis=axis) - is_zero
    upto_first = np.equal(zeros_before, 0)  # no zero strictly before: up to the first zero
    first_zero = np.logical_and(is_zero, upto_first)
    # Before the first zero, sum_{i>=j} g_i out_i / x_j is exact (x_j is not zero).
    divided = reverse_cumsum(g * out, axis) / np.where(is_zero, 1, x)
    # At the first zero z: prod_{m<z} x_m * sum_{i>=z} g_i prod_{z<m<=i} x_m.
    tail = np.cumprod(np.where(upto_first, 1, x), axis=axis)
    at_zero = _exclusive_cumprod(x, axis) * reverse_cumsum(g * tail, axis)
    return np.where(first_zero, at_zero, np.where(upto_first, divided, 0))
