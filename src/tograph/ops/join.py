"""Joining primitives: concatenate and stack; and ``as_array``, which makes one tensor of (nested)
lists holding tensors, as ``np.array`` would.

Stage: graph building. Input: ``np.concatenate``/``np.stack`` called on sequences holding tensors,
and lists holding tensors wherever an array is expected (``np.array([t, 1.0])``, an index, an
assigned value). Output: ``concatenate`` and ``stack`` equations (plus ``astype`` where elements
must be cast), with NumPy's result dtypes; dims known only at run time are ``None``. A tensor
list (``ops.lists``, e.g. filled by ``append`` in a loop) given to ``np.stack`` or ``np.array`` is
stacked with ``lists.stack``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, elementwise, lists, shape
from tograph.trace import dispatch, tensor

# ---- concatenate and stack --------------------------------------------------------------


def _merge_dims(dims: Sequence[int | None], error: errors.ShapeError) -> int | None:
    """The common value of ``dims`` (None if all are unknown); raises ``error`` if two differ."""
    known = {d for d in dims if d is not None}
    if len(known) > 1:
        raise error
    return known.pop() if known else None


def _concatenate_impl(*arrays: Any, axis: int | None) -> Any:
    return np.concatenate(arrays, axis=axis)


def _concatenate_rule(*xs: types.TensorType, axis: int | None) -> types.TensorType:
    if not xs:
        raise errors.ShapeError("concatenate: need at least one array to concatenate")
    dtype = common.probe_dtype("concatenate", _concatenate_impl, xs, axis=None)
    if axis is None:
        sizes = [x.size for x in xs]
        return types.TensorType(dtype, (None if None in sizes else sum(sizes),))
    shapes = ", ".join(common.fmt(x.shape) for x in xs)
    if xs[0].ndim == 0 or any(x.ndim != xs[0].ndim for x in xs):
        raise errors.ShapeError(
            f"concatenate: arrays must have the same number (>0) of dimensions, got shapes {shapes}"
        )
    axis = common.normalize_axis(axis, xs[0], "concatenate")
    error = errors.ShapeError(
        f"concatenate: dimensions other than axis {axis} must match, got shapes {shapes}"
    )
    along = [x.shape[axis] for x in xs]
    total = None if None in along else sum(d for d in along if d is not None)
    out = [
        total if i == axis else _merge_dims(dims, error)
        for i, dims in enumerate(zip(*(x.shape for x in xs)))
    ]
    return types.TensorType(dtype, tuple(out))


def _stack_impl(*arrays: Any, axis: int) -> Any:
    return np.stack(arrays, axis=axis)


def _stack_rule(*xs: types.TensorType, axis: int) -> types.TensorType:
    if not xs:
        raise errors.ShapeError("stack: need at least one array to stack")
    shapes = ", ".join(common.fmt(x.shape) for x in xs)
    error = errors.ShapeError(
        f"stack: all input arrays must have the same shape, got shapes {shapes}"
    )
    if any(x.ndim != xs[0].ndim for x in xs):
        raise error
    merged = [_merge_dims(dims, error) for dims in zip(*(x.shape for x in xs))]
    axis = common.normalize_axis(axis, xs[0], "stack", xs[0].ndim + 1)
    dtype = common.probe_dtype("stack", _stack_impl, xs, axis=0)
    return types.TensorType(dtype, tuple(merged[:axis]) + (len(xs),) + tuple(merged[axis:]))


concatenate_p = primitives.Primitive(
    "concatenate", _concatenate_impl, _concatenate_rule, layout="C"
)
stack_p = primitives.Primitive("stack", _stack_impl, _stack_rule, layout="C")


def operands(arrays: Any) -> list[Any]:
    """The arrays of a sequence argument, lists holding tensors made tensors (``as_array``)."""
    return [as_array(a) if isinstance(a, (list, tuple)) else a for a in arrays]


def _reject(name: str, kwargs: dict[str, Any]) -> None:
    given = sorted(k for k, v in kwargs.items() if v is not None and v != "same_kind")
    if given:
        raise dispatch.unsupported(f"np.{name} with {', '.join(f'{k}=' for k in given)}")


def as_sequence(arrays: Any) -> Any:
    """A tensor list as the tensor of its stacked elements (NumPy iterates both the same way)."""
    return lists.stack(arrays) if _is_tensor_list(arrays) else arrays


@dispatch.overrides(np.concatenate)
@dispatch.implements(np.concatenate)
def concatenate(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Any:
    """``np.concatenate``; ``axis=None`` joins the flattened arrays. ``arrays`` may be one tensor
    (its subarrays along axis 0 are joined) or a tensor list."""
    _reject("concatenate", {"out": out, "dtype": dtype, "casting": casting})
    arrays = as_sequence(arrays)
    if tensor.is_tensor(arrays):
        return _concatenate_subarrays(arrays, axis)
    return concatenate_p.bind(*operands(arrays), axis=None if axis is None else int(axis))


def _concatenate_subarrays(x: Any, axis: Any) -> Any:
    """``np.concatenate(x, axis)`` of one array: a moveaxis, then a reshape merging two dims."""
    if axis is None:
        return shape.ravel(x)
    if x.ndim < 2:
        raise errors.ShapeError(
            f"concatenate: the subarrays of an array of shape {common.fmt(x.type.shape)} are 0-d "
            "and cannot be concatenated"
        )
    k = common.normalize_axis(axis, types.TensorType(x.dtype, x.type.shape[1:]), "concatenate")
    moved = x if k == 0 else shape.moveaxis(x, 0, k)
    dims = list(moved.shape)
    return shape.reshape(moved, dims[:k] + [-1] + dims[k + 2 :])


@dispatch.overrides(np.stack)
@dispatch.implements(np.stack)
def stack(
    arrays: Any, axis: Any = 0, out: Any = None, *, dtype: Any = None, casting: str = "same_kind"
) -> Any:
    """``np.stack``; elements may be (nested) lists holding tensors, converted like ``np.array``.
    ``arrays`` may be one tensor (its subarrays along axis 0 are stacked) or a tensor list."""
    _reject("stack", {"out": out, "dtype": dtype, "casting": casting})
    arrays = as_sequence(arrays)
    if tensor.is_tensor(arrays):
        if arrays.ndim == 0:
            raise errors.ShapeError("stack: a 0-d array is not a sequence of arrays")
        k = common.normalize_axis(axis, arrays.type, "stack")
        return arrays if k == 0 else shape.moveaxis(arrays, 0, k)
    items = operands(arrays)
    first = common.operand_type(items[0]) if items else types.TensorType(np.float64, ())
    return stack_p.bind(*items, axis=common.normalize_axis(axis, first, "stack", first.ndim + 1))


def as_array(value: Any, dtype: Any = None) -> Any:
    """``np.array(value, dtype)`` for a value that may be, or hold, tensors.

    Nested lists are stacked after casting every element to the dtype ``np.array`` would choose:
    NumPy's array coercion promotes the elements' dtypes pairwise in order (so ``[i8, u16, f16]``
    gives f64 where ``np.result_type`` gives f32), Python scalars counting as int64, float64,
    complex128 or bool.

    Returns:
      A tensor if ``value`` holds one (never weak), else a NumPy array.
    """
    if _is_tensor_list(value):
        stacked = lists.stack(value, like_array=True)
        return stacked if dtype is None else _cast(stacked, np.dtype(dtype))
    if not tensor.contains_tensor(value):
        return np.array(value, dtype=dtype)
    target = (
        np.dtype(dtype)
        if dtype is not None
        else functools.reduce(np.promote_types, _leaf_dtypes(value))
    )
    return _stack_nested(value, target)


def _leaf_dtypes(value: Any) -> list[np.dtype]:
    if isinstance(value, (list, tuple)):
        return [d for v in value for d in _leaf_dtypes(v)]
    return [common.operand_type(value).dtype]


def _stack_nested(value: Any, dtype: np.dtype) -> Any:
    if isinstance(value, (list, tuple)):
        return stack_p.bind(*(_stack_nested(v, dtype) for v in value), axis=0)
    if not tensor.is_tensor(value):
        return np.asarray(value, dtype=dtype)
    return _cast(value, dtype)


def _cast(value: Any, dtype: np.dtype) -> Any:
    """A tensor as a strong tensor of ``dtype``."""
    if value.type.dtype == dtype and not value.type.weak:
        return value
    return elementwise.astype_p.bind(value, dtype=dtype, weak=False)


def _is_tensor_list(value: Any) -> bool:
    return isinstance(getattr(value, "type", None), types.ListType)
