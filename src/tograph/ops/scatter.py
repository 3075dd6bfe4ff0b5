"""Functional forms of NumPy's in-place writes: ``put_along_axis``, ``ufunc_at`` (``np.add.at``,
``np.maximum.at``, ...) and ``fill_diagonal``, each returning the new array.

Stage: graph building. Input: an array, where to write (indices, an index like ``x[index]``'s)
and the values. Output: one ``put_along_axis`` or ``ufunc_at`` equation (``fill_diagonal`` is a
``setitem`` of the flattened array); the input array itself is never changed. Printed form::

    y:f64[5] = ufunc_at[index=[$0], ufunc='add'] x v i

NumPy's own ``np.put_along_axis``, ``np.fill_diagonal`` and ``ufunc.at``, which change their
first argument in place, are these written back into the array (``ops.inplace``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, indexing, join, shape
from tograph.trace import dispatch, tensor

# The ufuncs whose ``at`` method has a functional form (binary, with a result of the array's kind).
AT_UFUNCS = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logical_and",
    "logical_or",
)


def _as_operand(value: Any) -> Any:
    return join.as_array(value) if isinstance(value, (list, tuple)) else value


def _check_values(
    op: str, values: types.TensorType, target: types.Shape, into: types.TensorType
) -> None:
    if not common.broadcastable_to(values.shape, target):
        raise errors.ShapeError(
            f"{op}: values of shape {common.fmt(values.shape)} do not broadcast to the "
            f"{common.fmt(target)} places written in an array of shape {common.fmt(into.shape)}"
        )


# ---- put_along_axis --------------------------------------------------------------------------


def _put_along_axis_impl(arr: Any, indices: Any, values: Any, *, axis: int) -> Any:
    out = np.array(arr)
    np.put_along_axis(out, indices, values, axis)
    return out


def _put_along_axis_rule(
    arr: types.TensorType, indices: types.TensorType, values: types.TensorType, *, axis: int
) -> types.TensorType:
    axis = common.normalize_axis(axis, arr, "put_along_axis")
    if indices.dtype.kind not in "iu":
        raise errors.IndexingError(
            f"put_along_axis: `indices` must be an integer array, got a tensor of type {indices}"
        )
    if indices.ndim != arr.ndim:
        raise errors.ShapeError(
            "put_along_axis: `indices` and `arr` must have the same number of dimensions "
            f"(got shapes {common.fmt(indices.shape)} and {common.fmt(arr.shape)})"
        )
    others = tuple(d if k != axis else 1 for k, d in enumerate(arr.shape))
    try:
        target = types.broadcast_shapes(indices.shape, others, what="put_along_axis: indices")
    except errors.ShapeError:
        raise errors.ShapeError(
            f"put_along_axis: indices of shape {common.fmt(indices.shape)} do not broadcast "
            f"against an array of shape {common.fmt(arr.shape)} (except along axis {axis})"
        ) from None
    target = target[:axis] + (indices.shape[axis],) + target[axis + 1 :]
    _check_values("put_along_axis", values, target, arr)
    return arr.strong()


put_along_axis_p = primitives.Primitive(
    "put_along_axis", _put_along_axis_impl, _put_along_axis_rule
)


def put_along_axis(arr: Any, indices: Any, values: Any, axis: Any) -> Any:
    """The functional ``np.put_along_axis``: a copy of ``arr`` with ``values`` written at
    ``indices`` along ``axis`` (the flattened array when ``axis`` is None).

    Works on tensors (one ``put_along_axis`` equation) and on NumPy arrays alike.
    """
    arr, indices, values = (_as_operand(v) for v in (arr, indices, values))
    if axis is None:
        flat = put_along_axis_p.bind(shape.ravel(arr), indices, values, axis=0)
        return shape.reshape(flat, _dims(arr))
    axis = common.normalize_axis(axis, common.operand_type(arr), "put_along_axis")
    return put_along_axis_p.bind(arr, indices, values, axis=axis)


def _dims(x: Any) -> list[Any]:
    return list(x.shape) if tensor.is_tensor(x) else list(np.shape(x))


# ---- ufunc.at ----------------------------------------------------------------------------


def _ufunc_at_impl(a: Any, values: Any, *args: Any, ufunc: str, index: indexing.Index) -> Any:
    out = np.array(a)
    getattr(np, ufunc).at(out, index.build(args), values)
    return out


def _ufunc_at_rule(
    a: types.TensorType,
    values: types.TensorType,
    *arg_types: types.TensorType,
    ufunc: str,
    index: indexing.Index,
) -> types.TensorType:
    op = f"{ufunc}.at"
    if a.weak:
        raise errors.DTypeError(f"{op}: a Python scalar ({a}) cannot be written to")
    target = indexing.indexed_shape(a, arg_types, index, op)
    _check_values(op, values, target, a)
    common.probe_dtype(op, getattr(np, ufunc), (a, values))  # the ufunc takes these dtypes
    return a  # results are cast back to a's dtype (unsafely, as NumPy's ufunc.at does)


ufunc_at_p = primitives.Primitive("ufunc_at", _ufunc_at_impl, _ufunc_at_rule)


def ufunc_at(ufunc: Any, a: Any, indices: Any, b: Any) -> Any:
    """The functional ``ufunc.at(a, indices, b)``: a copy of ``a`` where ``a[indices]`` is
    combined with ``b`` by ``ufunc``, unbuffered (repeated indices combine every time).

    Args:
      ufunc: one of ``AT_UFUNCS`` (e.g. ``np.add``), or its name.
      a: the array; a tensor or a NumPy array.
      indices: an index of ``a`` as for ``a[indices]`` (ints, slices, integer arrays, tuples).
      b: the values, broadcast to the shape of ``a[indices]``.

    Raises:
      UnsupportedError: a ufunc with no functional ``at`` here.
    """
    name = ufunc if isinstance(ufunc, str) else getattr(ufunc, "__name__", "")
    if name not in AT_UFUNCS:
        raise dispatch.unsupported(f"the functional {name}.at")
    parsed, dynamic = indexing.parse_index(indices)
    return ufunc_at_p.bind(_as_operand(a), _as_operand(b), *dynamic, ufunc=name, index=parsed)


# ---- fill_diagonal ---------------------------------------------------------------------------


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> Any:
    """The functional ``np.fill_diagonal``: a copy of ``a`` with ``val`` on its main diagonal
    (repeated in order if shorter, as NumPy's flat assignment does).

    For a 2-d array with more rows than columns, ``wrap`` continues the diagonal below the first
    square. Higher-dimensional arrays must have all dims equal. A ``setitem`` of the flattened
    array, so its gradient reaches ``a`` off the diagonal and ``val`` on it.

    Raises:
      ShapeError: ``a`` is less than 2-d, or not square in more than 2 dims.
      UnsupportedError: ``a`` has run-time dims and ``val`` more than one element.
    """
    a, val = _as_operand(a), _as_operand(val)
    t = common.operand_type(a)
    if t.ndim < 2:
        raise errors.ShapeError("fill_diagonal: array must be at least 2-d")
    if t.ndim > 2 and len({d for d in t.shape if d is not None}) > 1:
        raise errors.ShapeError("fill_diagonal: All dimensions of input must be of equal length")
    flat = shape.reshape_p.bind(a, shape=(-1,))  # a value: no view of a to track
    if t.is_static_shape:
        places = np.arange(t.size or 0)[_diagonal_slice(list(t.shape), wrap)]
        filled = indexing.setitem(flat, places, _resized(val, len(places), t.dtype))
        return shape.reshape(filled, t.shape)
    if common.operand_type(val).size != 1:
        raise dispatch.unsupported(
            "the functional fill_diagonal of an array with run-time dims, with several values"
        )
    filled = indexing.setitem(flat, _diagonal_slice(_dims(a), wrap), shape.ravel(val)[0])
    return shape.reshape(filled, _dims(a))


def _diagonal_slice(dims: Sequence[Any], wrap: bool) -> slice:
    """The flat positions of the main diagonal (NumPy's ``a.flat[:end:step]``)."""
    if len(dims) == 2:
        return slice(None, None if wrap else dims[1] * dims[1], dims[1] + 1)
    step: Any = 1
    stride: Any = 1
    for d in dims[:-1]:
        stride = stride * d
        step = step + stride
    return slice(None, None, step)


def _resized(val: Any, count: int, dtype: np.dtype) -> Any:
    """``val`` flattened and repeated in order to ``count`` elements (NumPy's ``np.resize``)."""
    if not tensor.is_tensor(val):
        return np.resize(np.asarray(val, dtype=dtype), count)
    size = common.operand_type(val).size
    if size is None:
        raise dispatch.unsupported("the functional fill_diagonal with values of run-time size")
    if size in (1, count):
        return shape.ravel(val)
    return indexing.getitem(shape.ravel(val), np.arange(count) % size)
