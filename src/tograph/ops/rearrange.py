"""Rearranging elements: ``tile``, ``repeat``, ``take``, ``diagonal``, ``insert``, ``delete`` and
``append``; and the ``repeat`` primitive, for repeat counts known only at run time.

Stage: graph building. Input: these NumPy calls on tensors, with static indices (``insert`` and
``delete``), static or tensor repeat counts, static or tensor ``take`` indices. Output: mostly
equations of existing primitives, so gradients come free: tiling and a static repeat count are a
``broadcast_to`` between two reshapes, per-element counts and the index functions one advanced
index (``getitem``), ``insert`` a ``concatenate`` and a static permutation. A tensor count is one
``repeat`` equation whose output dim is ``None``; its gradient sums the repeated cotangents back.
Printed form::

    y:f64[None,3] = repeat[axis=0] x n
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, creation, elementwise, indexing, join, shape
from tograph.trace import dispatch, tensor


def dims_of(x: Any) -> list[Any]:
    """The shape of ``x``: ints where static, scalar tensors where known only at run time."""
    return list(x.shape) if tensor.is_tensor(x) else list(np.shape(x))


def _along(axis: int, item: Any) -> tuple[Any, ...]:
    return (slice(None),) * axis + (item,)


def _strong(x: Any) -> Any:
    t = common.operand_type(x)
    if not tensor.is_tensor(x):
        return np.asarray(x)
    return elementwise.astype_p.bind(x, dtype=t.dtype, weak=False) if t.weak else x


# ---- tile ---------------------------------------------------------------------------------


@dispatch.implements(np.tile)
def tile(A: Any, reps: Any) -> Any:
    """``np.tile`` with static ``reps``: the array broadcast between interleaved unit axes, made
    a new array (as NumPy's is, even for reps of one)."""
    if tensor.contains_tensor(reps):
        raise dispatch.unsupported("np.tile with tensor reps")
    tup = tuple(operator.index(r) for r in np.atleast_1d(reps).tolist())
    if any(r < 0 for r in tup):
        raise errors.ShapeError(f"tile: negative dimensions are not allowed, got reps {tup}")
    x = join.as_array(A) if isinstance(A, (list, tuple)) else _strong(A)
    nd = max(len(tup), x.ndim)
    x = shape.reshape(x, [1] * (nd - x.ndim) + dims_of(x)) if x.ndim < nd else x
    reps_nd = (1,) * (nd - len(tup)) + tup
    if all(r == 1 for r in reps_nd):
        return creation.copy_array(x)
    dims = dims_of(x)
    spread = shape.expand_dims(x, tuple(range(0, 2 * nd, 2)))
    tiled = shape.broadcast_to(spread, [d for pair in zip(reps_nd, dims) for d in pair])
    return creation.copy_array(shape.reshape(tiled, [r * d for r, d in zip(reps_nd, dims)]))


# ---- repeat -------------------------------------------------------------------------------


def _repeat_impl(x: Any, repeats: Any, *, axis: int) -> Any:
    return np.repeat(x, repeats, axis=axis)


def _repeat_rule(x: types.TensorType, repeats: types.TensorType, *, axis: int) -> types.TensorType:
    axis = common.normalize_axis(axis, x, "repeat")
    if repeats.dtype.kind not in "biu" or repeats.ndim > 1:
        raise errors.DTypeError(
            "repeat: repeats must be an integer scalar or 1-d array, got a tensor of type "
            f"{repeats}"
        )
    n = x.shape[axis]
    if repeats.ndim == 1 and None not in (n, repeats.shape[0]) and repeats.shape[0] not in (1, n):
        raise errors.ShapeError(
            f"repeat: operands could not be broadcast together with shape ({n},) "
            f"({repeats.shape[0]},)"
        )
    return x.with_shape(x.shape[:axis] + (None,) + x.shape[axis + 1 :]).strong()


repeat_p = primitives.Primitive("repeat", _repeat_impl, _repeat_rule)


@dispatch.implements(np.repeat)
def repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    """``np.repeat``: static counts give static shapes; a tensor count a run-time dim."""
    x = _strong(a)
    if axis is None:
        x, axis = shape.ravel(x), 0
    axis = common.normalize_axis(axis, common.operand_type(x), "repeat")
    if tensor.contains_tensor(repeats):
        return repeat_p.bind(x, join.as_array(repeats), axis=axis)
    counts = np.asarray(repeats)
    if counts.dtype.kind not in "biu":
        raise errors.DTypeError(f"repeat: repeats must be integers, got {counts.dtype}")
    if (counts < 0).any():
        raise errors.ShapeError("repeat: negative dimensions are not allowed")
    if counts.size == 1:
        return _repeat_each(x, int(counts.reshape(())), axis)
    n = common.operand_type(x).shape[axis]
    if n is None:
        return repeat_p.bind(x, counts, axis=axis)
    positions = np.repeat(np.arange(n), counts)  # NumPy checks that the counts fit n
    return indexing.getitem(x, _along(axis, positions))


def _repeat_each(x: Any, count: int, axis: int) -> Any:
    """Every element repeated ``count`` times: a broadcast along a new axis, then a reshape,
    made a new array (NumPy's repeat never returns a view, even of a count of one)."""
    dims = dims_of(x)
    spread = shape.expand_dims(x, axis + 1)
    stretched = shape.broadcast_to(spread, dims[: axis + 1] + [count] + dims[axis + 1 :])
    return creation.copy_array(
        shape.reshape(stretched, dims[:axis] + [dims[axis] * count] + dims[axis + 1 :])
    )


# ---- take and diagonal ----------------------------------------------------------------------


@dispatch.implements(np.take)
def take(a: Any, indices: Any, axis: Any = None, out: Any = None, mode: str = "raise") -> Any:
    """``np.take``: one advanced index along ``axis``; ``mode`` ``'wrap'`` or ``'clip'`` first
    maps the indices into range (clip sends negative ones to 0, as NumPy does)."""
    if out is not None:
        raise dispatch.unsupported("np.take with out=")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: clipmode must be one of 'clip', 'raise', or 'wrap', got {mode!r}")
    x = _strong(a)
    if axis is None:
        x, axis = (shape.ravel(x) if x.ndim != 1 else x), 0
    axis = common.normalize_axis(axis, common.operand_type(x), "take")
    idx = join.as_array(indices) if isinstance(indices, (list, tuple)) else indices
    if not tensor.is_tensor(idx):
        idx = np.asarray(idx)
        idx = idx.astype(np.intp) if idx.size == 0 else idx  # NumPy takes [] as no indices
    if mode != "raise":
        n = dims_of(x)[axis]
        if isinstance(n, int) and n == 0 and common.operand_type(idx).size != 0:
            raise errors.IndexingError("take: cannot do a non-empty take from an empty axes.")
        idx = np.mod(idx, n) if mode == "wrap" else np.clip(idx, 0, n - 1)
    if not tensor.is_tensor(idx) and idx.ndim == 0:
        idx = int(idx)
    return indexing.getitem(x, _along(axis, idx))


def _diagonal_rule(a: types.TensorType, *, offset: int, axis1: int, axis2: int) -> types.TensorType:
    rows, cols = a.shape[axis1], a.shape[axis2]
    length = None
    if rows is not None and cols is not None:
        length = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    rest = tuple(d for k, d in enumerate(a.shape) if k not in (axis1, axis2))
    return a.with_shape((*rest, length)).strong()


# NumPy's diagonal is a read-only view of the array: later writes to the array show in it, and a
# write to it raises
diagonal_p = primitives.Primitive("diagonal", np.diagonal, _diagonal_rule, views=True)


@dispatch.implements(np.diagonal)
def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
    """``np.diagonal``: the diagonal along ``axis1`` and ``axis2``, as the last axis of the
    result, a read-only view of ``a`` (``common.as_view``)."""
    t = common.operand_type(a)
    if t.ndim < 2:
        raise errors.ShapeError(
            f"diagonal: diag requires an array of at least two dimensions, got shape "
            f"{common.fmt(t.shape)}"
        )
    i, j = (common.normalize_axis(ax, t, "diagonal") for ax in (axis1, axis2))
    if i == j:
        raise errors.ShapeError("diagonal: axis1 and axis2 cannot be the same")
    params = {"offset": operator.index(offset), "axis1": i, "axis2": j}
    return common.as_view(a, diagonal_p, (), params, None)


# ---- insert, delete, append -----------------------------------------------------------------


def _flat_or_axis(arr: Any, axis: Any, name: str) -> tuple[Any, int]:
    x = join.as_array(arr) if isinstance(arr, (list, tuple)) else _strong(arr)
    if axis is None:
        return (shape.ravel(x) if x.ndim != 1 else x), 0
    return x, common.normalize_axis(axis, common.operand_type(x), name)


def _static_obj(obj: Any, name: str) -> Any:
    if tensor.contains_tensor(obj):
        raise dispatch.unsupported(f"np.{name} at tensor indices")
    return obj


@dispatch.implements(np.delete)
def delete(arr: Any, obj: Any, axis: Any = None) -> Any:
    """``np.delete`` at static indices (an int, a slice, a sequence of ints or a boolean mask)."""
    x, axis = _flat_or_axis(arr, axis, "delete")
    obj = _static_obj(obj, "delete")
    n = common.operand_type(x).shape[axis]
    if n is not None:
        kept = np.delete(np.arange(n), obj)  # NumPy's own checks and index rules
        return indexing.getitem(x, _along(axis, kept))
    if not isinstance(obj, (int, np.integer)):
        raise dispatch.unsupported("np.delete of a sequence or slice along a run-time dim")
    i = int(obj)
    before = indexing.getitem(x, _along(axis, slice(None, i)))
    after = indexing.getitem(x, _along(axis, slice(i + 1, None) if i != -1 else slice(0, 0)))
    return join.concatenate([before, after], axis=axis)


@dispatch.implements(np.insert)
def insert(arr: Any, obj: Any, values: Any, axis: Any = None) -> Any:
    """``np.insert`` at static indices: the values, cast to the array's dtype and shaped as NumPy
    shapes them, are joined on, then one static permutation puts every element in place."""
    x, axis = _flat_or_axis(arr, axis, "insert")
    obj = _static_obj(obj, "insert")
    n = common.operand_type(x).shape[axis]
    if isinstance(obj, slice):
        if n is None:
            raise dispatch.unsupported("np.insert at a slice along a run-time dim")
        obj = np.arange(*obj.indices(n))
    indices = np.asarray(obj)
    if indices.dtype == bool:
        indices = np.flatnonzero(indices)
    # One index inserts the values as a block (as many as they have along axis); several
    # indices insert one slice each.
    one = indices.size == 1
    block = _insert_block(x, values, axis, one and indices.ndim == 0, None if one else indices.size)
    if n is None:
        if not one or int(indices.reshape(())) < 0:
            raise dispatch.unsupported("np.insert along a run-time dim, except at one index >= 0")
        head = indexing.getitem(x, _along(axis, slice(None, int(indices.reshape(())))))
        tail = indexing.getitem(x, _along(axis, slice(int(indices.reshape(())), None)))
        return join.concatenate([head, block, tail], axis=axis)
    width = common.operand_type(block).shape[axis]
    if width is None:
        raise dispatch.unsupported("np.insert of values whose length is known only at run time")
    order = np.insert(np.arange(n), obj, np.arange(n, n + width))  # NumPy's rules and checks
    joined = join.concatenate([x, block], axis=axis)
    return indexing.getitem(joined, _along(axis, order))


def _insert_block(x: Any, values: Any, axis: int, move: bool, count: int | None) -> Any:
    """The inserted values as NumPy shapes them: the array's dtype and at least its rank, the
    first axis moved to ``axis`` if ``move``, broadcast to the array's other dims and to ``count``
    along ``axis`` (None: as many as the values have)."""
    t = common.operand_type(x)
    v = join.as_array(values) if isinstance(values, (list, tuple)) else values
    vt = common.operand_type(v)
    v = elementwise.astype_p.bind(v, dtype=t.dtype, weak=False)
    if vt.ndim < t.ndim:
        v = shape.reshape(v, [1] * (t.ndim - vt.ndim) + dims_of(v))
    if move:
        v = shape.moveaxis(v, 0, axis)
    dims = dims_of(x)
    along = dims_of(v)[axis] if count is None else count
    return shape.broadcast_to(v, dims[:axis] + [along] + dims[axis + 1 :])


@dispatch.implements(np.append)
def append(arr: Any, values: Any, axis: Any = None) -> Any:
    """``np.append``: a ``concatenate``, of the flattened arrays when ``axis`` is None."""
    if axis is None:
        x, _ = _flat_or_axis(arr, None, "append")
        v, _ = _flat_or_axis(values, None, "append")
        return join.concatenate([x, v], axis=0)
    return join.concatenate([arr, values], axis=axis)
