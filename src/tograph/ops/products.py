"""Vector products: ``np.vdot`` (a primitive), ``np.kron`` and ``np.cross`` (compositions).

Stage: build (ops). Input: calls on tensors. Output: a ``vdot`` equation (its VJP rule is in
``tograph.autodiff.signal_rules``); ``kron`` and ``cross`` become the same element operations
NumPy's own Python implementations perform (``expand_dims``, ``multiply`` and ``reshape`` for
``kron``; products and differences of components for ``cross``), so results, dtypes and
gradients follow from those primitives. ``cross`` of 2-vectors warns as NumPy 2 does.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, elementwise, join, shape
from tograph.trace import dispatch


def _vdot_impl(a: Any, b: Any) -> Any:
    return np.vdot(a, b)


def _vdot_rule(a: types.TensorType, b: types.TensorType) -> types.TensorType:
    if a.size is not None and b.size is not None and a.size != b.size:
        raise errors.ShapeError(
            f"vdot: vectors have different lengths ({a.size} and {b.size}; shapes "
            f"{common.fmt(a.shape)} and {common.fmt(b.shape)})"
        )
    return types.TensorType(common.probe_dtype("vdot", np.vdot, (a, b)), ())


vdot_p = primitives.Primitive("vdot", _vdot_impl, _vdot_rule)


@dispatch.implements(np.vdot)
def vdot(a: Any, b: Any, /) -> Any:
    """``np.vdot``: ``sum(conj(a) * b)`` over the flattened operands."""
    return vdot_p.bind(a, b)


@dispatch.implements(np.kron)
def kron(a: Any, b: Any) -> Any:
    """``np.kron``: the Kronecker product, as NumPy builds it from a broadcast product."""
    a, b = _strong(a), _strong(b)  # NumPy makes arrays of both: a Python number is not weak
    ta, tb = common.operand_type(a), common.operand_type(b)
    if ta.ndim == 0 or tb.ndim == 0:
        return np.multiply(a, b)
    nd = max(ta.ndim, tb.ndim)
    a_shape = (1,) * (nd - ta.ndim) + tuple(np.shape(a))
    b_shape = (1,) * (nd - tb.ndim) + tuple(np.shape(b))
    a = shape.reshape(a, a_shape) if ta.ndim < nd else a
    b = shape.reshape(b, b_shape) if tb.ndim < nd else b
    a = np.expand_dims(a, tuple(range(1, nd * 2, 2)))
    b = np.expand_dims(b, tuple(range(0, nd * 2, 2)))
    out_shape = tuple(da * db for da, db in zip(a_shape, b_shape))
    return shape.reshape(np.multiply(a, b), out_shape)


@dispatch.implements(np.cross)
def cross(
    a: Any, b: Any, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None
) -> Any:
    """``np.cross`` of 3-vectors (and the deprecated 2-vectors) along the given axes."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    ta, tb = common.operand_type(a), common.operand_type(b)
    if ta.ndim < 1 or tb.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = np.moveaxis(a, common.normalize_axis(axisa, ta, "cross"), -1)
    b = np.moveaxis(b, common.normalize_axis(axisb, tb, "cross"), -1)
    na, nb = common.operand_type(a).shape[-1], common.operand_type(b).shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise errors.ShapeError(
            "incompatible dimensions for cross product\n(dimension must be 2 or 3)"
        )
    if na == 2 or nb == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional "
            "vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=3,
        )
    dtype = np.promote_types(ta.dtype, tb.dtype)
    a, b = (_as_dtype(x, dtype) for x in (a, b))
    x = [a[..., k] for k in range(na)]
    y = [b[..., k] for k in range(nb)]
    if na == 2 and nb == 2:
        return x[0] * y[1] - x[1] * y[0]
    if na == 2:
        parts = [x[1] * y[2], -(x[0] * y[2]), x[0] * y[1] - x[1] * y[0]]
    elif nb == 2:
        parts = [-(x[2] * y[1]), x[2] * y[0], x[0] * y[1] - x[1] * y[0]]
    else:
        parts = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]]
    cp = join.stack(parts, axis=-1)
    out_axis = common.normalize_axis(axisc, common.operand_type(cp), "cross")
    return np.moveaxis(cp, -1, out_axis)


def _as_dtype(x: Any, dtype: np.dtype) -> Any:
    if common.operand_type(x).dtype == dtype:
        return x
    return elementwise.astype_p.bind(x, dtype=dtype, weak=False)


def _strong(x: Any) -> Any:
    t = common.operand_type(x)
    return elementwise.astype_p.bind(x, dtype=t.dtype, weak=False) if t.weak else x
