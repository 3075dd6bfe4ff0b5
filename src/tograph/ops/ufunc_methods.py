"""Ufunc methods on tensors: ``reduce``, ``accumulate`` and ``outer`` (``np.add.reduce(x)``,
``np.maximum.accumulate(x)``, ``np.multiply.outer(a, b)``).

Stage: graph building. Input: a ufunc method called with a tensor argument, which reaches
``TensorBase.__array_ufunc__`` with the method's name. Output: where a primitive already means
the same thing, that primitive (``np.add.reduce`` is ``sum``, ``np.multiply.accumulate`` is
``cumprod``, ``np.logical_or.reduce`` is ``any``); otherwise one ``ufunc_reduce`` or
``ufunc_accumulate`` equation whose kernel is the NumPy method itself, so values (and errors)
are NumPy's. ``outer`` is the ufunc's call on operands reshaped to broadcast as an outer
product. Printed form::

    m:f64[4] = ufunc_accumulate[axis=0, dtype=f64, ufunc='maximum'] x

``reduceat`` and the ``initial=`` and ``where=`` arguments are unsupported (the function falls
back); ``ufunc.at``, which writes in place, has a functional form in ``ops.scatter``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, join, reductions, shape
from tograph.trace import dispatch, tensor

# The ufuncs whose reduce and accumulate are primitives already, and those with generic ones.
_REDUCE_AS: dict[Any, primitives.Primitive] = {
    np.add: reductions.sum_p,
    np.multiply: reductions.prod_p,
    np.maximum: reductions.max_p,
    np.minimum: reductions.min_p,
    np.logical_and: reductions.all_p,
    np.logical_or: reductions.any_p,
}
_ACCUMULATE_AS: dict[Any, primitives.Primitive] = {
    np.add: reductions.cumsum_p,
    np.multiply: reductions.cumprod_p,
}
GENERIC = (
    "subtract",
    "divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "logaddexp",
    "hypot",
    "logical_and",
    "logical_or",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
)
# Reductions whose operation is not associative and commutative: one axis at most.
_ONE_AXIS = ("subtract", "divide")


def _probe(name: str, method: str, x: types.TensorType, **kwargs: Any) -> np.dtype:
    fn = getattr(getattr(np, name), method)
    return common.probe_dtype(f"{name}.{method}", fn, (x.strong(),), **kwargs)


def _ufunc_reduce_impl(
    x: Any, *, ufunc: str, axis: tuple[int, ...] | None, keepdims: bool, dtype: np.dtype | None
) -> Any:
    return getattr(np, ufunc).reduce(x, axis=axis, keepdims=keepdims, dtype=dtype)


def _ufunc_reduce_rule(
    x: types.TensorType,
    *,
    ufunc: str,
    axis: tuple[int, ...] | None,
    keepdims: bool,
    dtype: np.dtype | None,
) -> types.TensorType:
    op = f"{ufunc}.reduce"
    axes = common.normalize_axes(axis, x, op)
    reduced = tuple(range(x.ndim)) if axes is None else axes
    if ufunc in _ONE_AXIS and len(reduced) > 1:
        raise errors.ShapeError(
            f"{op}: reduction operation '{ufunc}' is not reorderable, so at most one axis may be "
            "specified"
        )
    if getattr(np, ufunc).identity is None and any(x.shape[i] == 0 for i in reduced):
        raise errors.ShapeError(
            f"{op}: zero-size array to reduction operation {ufunc} which has no identity"
        )
    out_dtype = _probe(ufunc, "reduce", x, axis=axes, keepdims=keepdims, dtype=dtype)
    return types.TensorType(out_dtype, common.reduced_shape(x, axes, keepdims))


def _ufunc_accumulate_impl(x: Any, *, ufunc: str, axis: int, dtype: np.dtype | None) -> Any:
    return getattr(np, ufunc).accumulate(x, axis=axis, dtype=dtype)


def _ufunc_accumulate_rule(
    x: types.TensorType, *, ufunc: str, axis: int, dtype: np.dtype | None
) -> types.TensorType:
    axis = common.normalize_axis(axis, x, f"{ufunc}.accumulate")
    return types.TensorType(_probe(ufunc, "accumulate", x, axis=axis, dtype=dtype), x.shape)


ufunc_reduce_p = primitives.Primitive("ufunc_reduce", _ufunc_reduce_impl, _ufunc_reduce_rule)
ufunc_accumulate_p = primitives.Primitive(
    "ufunc_accumulate", _ufunc_accumulate_impl, _ufunc_accumulate_rule
)


def _reject(ufunc: np.ufunc, method: str, kwargs: dict[str, Any]) -> None:
    if kwargs:
        given = ", ".join(f"{k}=" for k in sorted(kwargs))
        raise dispatch.unsupported(f"np.{ufunc.__name__}.{method} with {given}")


def _dtype(dtype: Any) -> np.dtype | None:
    return None if dtype is None else np.dtype(dtype)


def reduce(
    ufunc: np.ufunc,
    array: Any,
    axis: Any = 0,
    dtype: Any = None,
    out: Any = None,
    keepdims: bool = False,
    **kwargs: Any,
) -> Any:
    """``ufunc.reduce`` (default ``axis=0``; None reduces every axis)."""
    _reject(ufunc, "reduce", kwargs)
    t = common.operand_type(array)
    axes = common.normalize_axes(axis, t, f"{ufunc.__name__}.reduce")
    keepdims, dtype = bool(keepdims), _dtype(dtype)
    prim = _REDUCE_AS.get(ufunc)
    if prim is None:
        return ufunc_reduce_p.bind(
            array, ufunc=ufunc.__name__, axis=axes, keepdims=keepdims, dtype=dtype
        )
    if prim in (reductions.sum_p, reductions.prod_p):
        dtype = _probe(ufunc.__name__, "reduce", t, axis=axes, keepdims=keepdims, dtype=dtype)
        return prim.bind(array, axis=axes, keepdims=keepdims, dtype=dtype)
    if dtype is not None:
        raise dispatch.unsupported(f"np.{ufunc.__name__}.reduce with dtype=")
    return prim.bind(array, axis=axes, keepdims=keepdims)


def accumulate(
    ufunc: np.ufunc, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None
) -> Any:
    """``ufunc.accumulate`` along one axis (default 0)."""
    t = common.operand_type(array)
    axis = common.normalize_axis(axis, t, f"{ufunc.__name__}.accumulate")
    dtype = _dtype(dtype)
    prim = _ACCUMULATE_AS.get(ufunc)
    if prim is None:
        return ufunc_accumulate_p.bind(array, ufunc=ufunc.__name__, axis=axis, dtype=dtype)
    dtype = _probe(ufunc.__name__, "accumulate", t, axis=axis, dtype=dtype)
    return prim.bind(array, axis=axis, dtype=dtype)


def outer(ufunc: np.ufunc, a: Any, b: Any, **kwargs: Any) -> Any:
    """``ufunc.outer(a, b)``: ``a`` reshaped to ``a.shape + (1,) * b.ndim``, then the ufunc on
    it and ``b``; both as arrays (a Python number becomes a 0-d array, as in NumPy)."""
    a, b = _as_array(a), _as_array(b)
    dims = list(a.shape) if tensor.is_tensor(a) else list(np.shape(a))
    column = shape.reshape(a, dims + [1] * common.operand_type(b).ndim)
    handler = dispatch.UFUNCS.get(ufunc)
    if handler is None:
        raise dispatch.unsupported(f"np.{ufunc.__name__}.outer")
    return handler(column, b, **kwargs)


def _as_array(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return join.as_array(x)
    if not tensor.is_tensor(x):
        return np.asarray(x)
    return shape.reshape(x, ()) if x.type.weak else x


_reducible = [np.add, np.multiply, *(getattr(np, name) for name in GENERIC)]
dispatch.implements_method("reduce", *_reducible)(reduce)
dispatch.implements_method("accumulate", *_reducible)(accumulate)
_binary = {u for u in vars(np).values() if isinstance(u, np.ufunc) and u.nin == 2}
dispatch.implements_method("outer", *_binary)(outer)
