"""``np.pad`` on tensors: modes ``constant`` (and ``empty``), ``edge``, ``reflect``,
``symmetric`` and ``wrap``, pad widths in every form NumPy accepts.

Stage: graph building. Input: ``np.pad(array, pad_width, mode, ...)`` with a tensor array (the
widths static; constant values static or scalar tensors). Output: per padded axis, a
``concatenate`` of ``full`` blocks (constant mode) or one advanced index along the axis (the other
modes copy elements, so each is an index map: NumPy's own ``np.pad`` of ``arange(n)``). Axes are
padded in order, so later axes' constants fill the corners, as in NumPy. Where an axis's length is
known only at run time, a ``pad_index`` equation computes that index map when the graph runs::

    i:i64[None] = pad_index[after=1, before=2, mode='reflect'] n

Gradients come from ``concatenate``, ``full`` and ``getitem`` (elements copied into several
places send back the sum of their cotangents).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, creation, elementwise, indexing, join
from tograph.trace import dispatch, tensor

INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")


def _pad_index_impl(n: Any, *, before: int, after: int, mode: str) -> Any:
    pad_: Any = np.pad  # NumPy's stubs want the mode as a literal
    return pad_(np.arange(n), (before, after), mode=mode)


def _pad_index_rule(n: types.TensorType, *, before: int, after: int, mode: str) -> types.TensorType:
    common.check_dim_types((n,), "pad_index")
    return types.TensorType(np.dtype(np.intp), (None,))


pad_index_p = primitives.Primitive("pad_index", _pad_index_impl, _pad_index_rule)


def as_pairs(x: Any, ndim: int, as_index: bool) -> list[tuple[Any, Any]]:
    """A pad width or constant in any of NumPy's forms as one ``(before, after)`` pair per axis
    (NumPy's ``_as_pairs``): a number, ``(n,)``, ``(before, after)``, ``((before, after),)`` or
    one pair per axis."""
    if tensor.contains_tensor(x):
        if as_index or not (tensor.is_tensor(x) and x.ndim == 0):
            raise dispatch.unsupported("np.pad with tensor widths, or non-scalar tensor constants")
        return [(x, x)] * ndim
    values = np.array(x)
    if as_index:
        if values.dtype.kind not in "iu":
            raise errors.DTypeError("pad: `pad_width` must be of integral type.")
        values = values.astype(np.intp)
        if values.size and values.min() < 0:
            raise ValueError("index can't contain negative values")
    if values.ndim < 3 and values.size == 1:
        flat = values.ravel()
        return [(flat[0].item(), flat[0].item())] * ndim
    if values.ndim < 3 and values.size == 2 and values.shape != (2, 1):
        flat = values.ravel()
        return [(flat[0].item(), flat[1].item())] * ndim
    try:
        pairs = np.broadcast_to(values, (ndim, 2))
    except ValueError:
        raise errors.ShapeError(
            f"pad: a width or constant of shape {values.shape} does not fit an array of rank {ndim}"
        ) from None
    return [(a.item(), b.item()) for a, b in pairs]


def _dims(x: Any) -> list[Any]:
    return list(x.shape) if tensor.is_tensor(x) else list(np.shape(x))


def _constant_block(x: Any, axis: int, width: int, value: Any) -> Any:
    dims = _dims(x)
    dims[axis] = width
    static, dynamic = common.split_dims(dims, "pad")
    dtype = common.operand_type(x).dtype
    return creation.full_p.bind(value, *dynamic, shape=static, dtype=dtype)


def _index_along(x: Any, axis: int, before: int, after: int, mode: str) -> Any:
    n = common.operand_type(x).shape[axis]
    if n == 0:
        raise ValueError(
            f"can't extend empty axis {axis} using modes other than 'constant' or 'empty'"
        )
    if n is None:
        source = pad_index_p.bind(x.shape[axis], before=before, after=after, mode=mode)
    else:
        pad_: Any = np.pad
        source = pad_(np.arange(n), (before, after), mode=mode)
    return indexing.getitem(x, (slice(None),) * axis + (source,))


@dispatch.implements(np.pad)
def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Any:
    """``np.pad``; see module docstring."""
    x = join.as_array(array) if isinstance(array, (list, tuple)) else array
    t = common.operand_type(x)
    if t.weak:
        x = elementwise.astype_p.bind(x, dtype=t.dtype, weak=False)
    if not isinstance(mode, str) or mode not in ("constant", "empty", *INDEX_MODES):
        raise dispatch.unsupported(f"np.pad with mode={mode!r}")
    constants = kwargs.pop("constant_values", 0) if mode == "constant" else None
    if kwargs.pop("reflect_type", "even") != "even":
        raise dispatch.unsupported("np.pad with reflect_type='odd'")
    if kwargs:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {set(kwargs)}")
    widths = as_pairs(pad_width, t.ndim, as_index=True)
    values = as_pairs(constants if constants is not None else 0, t.ndim, as_index=False)
    for axis, ((before, after), (low, high)) in enumerate(zip(widths, values)):
        if not before and not after:
            continue
        if mode in INDEX_MODES:
            x = _index_along(x, axis, before, after, mode)
            continue
        parts = [_constant_block(x, axis, before, low)] if before else []
        parts.append(x)
        if after:
            parts.append(_constant_block(x, axis, after, high))
        x = join.concatenate(parts, axis=axis)
    return x
