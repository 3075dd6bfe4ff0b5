"""The ONNX form of indexing: ``x[index]``, ``x[index] = v`` and its gradient's ``index_add``.

Stage: export (ONNX). Input: a ``getitem``/``setitem``/``index_add`` equation (its ``Index``
param, see ``ops.indexing``) and its operands' names. Output: the result's name.

``x[index]`` is one ``Slice`` over every sliced or integer-indexed axis, then a ``Gather`` for an
integer array or integer tensor index (one at most), ``Squeeze`` of the integer-indexed axes and
``Unsqueeze`` for each ``None``; a boolean mask (alone, over one axis or all of them) is a
``Compress``. Updates select the same elements of an index grid of ``x`` (``Range`` reshaped to
``x``'s shape) and scatter the broadcast value into the flattened ``x`` (``ScatterElements``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tograph.ir import core, types

if TYPE_CHECKING:
    from tograph.export.onnx import Writer
from tograph.ops import indexing

_BIG = np.iinfo(np.int64)


def getitem(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    x = types.tensor_type(eqn.inputs[0].type)
    return [_select(w, eqn, args[0], x, eqn.params["index"], eqn.inputs[1:])]


def setitem(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [_scatter(w, eqn, args[0], eqn.inputs[1], eqn.inputs[2:], "none")]


def index_add(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [_scatter(w, eqn, args[0], eqn.inputs[1], eqn.inputs[2:], "add")]


def _scatter(
    w: Writer, eqn: core.Eqn, x: str, value: core.Atom, parts: Sequence[core.Atom], reduction: str
) -> str:
    t = types.tensor_type(eqn.inputs[0].type)
    shape = w.one("Shape", x)
    grid = w.one(
        "Reshape",
        w.one("Range", w.const(0, np.int64), w.one("Size", x), w.const(1, np.int64)),
        shape,
    )
    grid_type = types.TensorType(np.dtype(np.int64), t.shape)
    chosen = _select(w, eqn, grid, grid_type, eqn.params["index"], parts)
    flat = w.ints([-1])
    spread = w.one("Expand", w.operand(value, t.dtype), w.one("Shape", chosen))
    scattered = w.one(
        "ScatterElements",
        w.one("Reshape", x, flat),
        w.one("Reshape", chosen, flat),
        w.one("Reshape", spread, flat),
        axis=0,
        reduction=reduction,
    )
    return w.one("Reshape", scattered, shape)


def _select(
    w: Writer,
    eqn: core.Eqn,
    x: str,
    t: types.TensorType,
    index: indexing.Index,
    parts: Sequence[core.Atom],
) -> str:
    items = list(index.items)
    part_types = [types.tensor_type(p.type) for p in parts]
    masks = [i for i, item in enumerate(items) if _is_mask(item, part_types)]
    if masks:
        return _masked(w, x, t, items, masks, parts)
    items = _expand_ellipsis(items, t.ndim)
    arrays = [i for i, item in enumerate(items) if _is_array(item)]
    if len(arrays) > 1:
        return _gather_nd(w, x, items, arrays, parts, index)
    starts, ends, steps, axes, dropped, new = [], [], [], [], [], []
    axis = 0
    for item in items:
        if item is None:
            new.append(axis)
            continue
        if isinstance(item, int):
            starts.append(w.ints([item]))
            ends.append(w.ints([_BIG.max if item == -1 else item + 1]))
            steps.append(w.ints([1]))
            axes.append(axis)
            dropped.append(axis)
        elif isinstance(item, indexing.Slice) and item != indexing.Slice(None, None, None):
            start, end, step = _bounds(w, item, parts)
            starts.append(start)
            ends.append(end)
            steps.append(step)
            axes.append(axis)
        axis += 1
    if axes:
        x = w.one("Slice", x, _concat(w, starts), _concat(w, ends), w.ints(axes), _concat(w, steps))
    return _gather_and_reshape(w, eqn, x, items, arrays, dropped, new, parts)


def _gather_and_reshape(
    w: Writer,
    eqn: core.Eqn,
    x: str,
    items: list[Any],
    arrays: list[int],
    dropped: list[int],
    new: list[int],
    parts: Sequence[core.Atom],
) -> str:
    rank_change = 0
    if arrays:
        (position,) = arrays
        axis = sum(1 for item in items[:position] if item is not None)
        item = items[position]
        if isinstance(item, indexing.Arg):
            indices = w.operand(parts[item.k], np.int64)
            ndim = types.tensor_type(parts[item.k].type).ndim
        else:
            indices, ndim = w.const(item.value, np.int64), item.value.ndim
        if dropped and ndim > 0:
            _check_placement(w, items, position)
        x = w.one("Gather", x, indices, axis=axis)
        rank_change = ndim - 1
        dropped = [d + rank_change if d > axis else d for d in dropped]
    if dropped:
        x = w.one("Squeeze", x, w.ints(dropped))
    if new:
        # Each None adds a dim where it stands among the result's dims.
        outs, position = [], 0
        for item in items:
            if item is None:
                outs.append(position)
                position += 1
            elif isinstance(item, int):
                continue
            elif _is_array(item):
                position += max(rank_change + 1, 0)
            else:
                position += 1
        x = w.one("Unsqueeze", x, w.ints(outs))
    return x


def _gather_nd(
    w: Writer,
    x: str,
    items: list[Any],
    arrays: list[int],
    parts: Sequence[core.Atom],
    index: indexing.Index,
) -> str:
    """``x[a, b, ...]`` for integer arrays leading the index (the rest whole slices): GatherND."""
    full = indexing.Slice(None, None, None)
    if arrays != list(range(len(arrays))) or any(i != full for i in items[len(arrays) :]):
        raise w.error(f"index {index!r}: integer arrays must lead an index of plain slices")
    indices = []
    for position in arrays:
        item = items[position]
        if isinstance(item, indexing.Arg):
            indices.append(w.operand(parts[item.k], np.int64))
        else:
            indices.append(w.const(item.value, np.int64))
    zero = w.const(0, np.int64)
    common = indices[0]
    for other in indices[1:]:
        common = w.one("Add", w.one("Mul", common, zero), w.one("Mul", other, zero))
    last = w.ints([-1])
    stacked = [
        w.one("Unsqueeze", w.one("Add", i, w.one("Mul", common, zero)), last) for i in indices
    ]
    return w.one("GatherND", x, w.one("Concat", *stacked, axis=-1))


def _check_placement(w: Writer, items: list[Any], position: int) -> None:
    """NumPy moves the array's dims to the front when integers stand apart from it."""
    advanced = [i for i, item in enumerate(items) if isinstance(item, int) or i == position]
    contiguous = advanced == list(range(advanced[0], advanced[-1] + 1))
    before = sum(1 for item in items[:position] if not isinstance(item, int))
    if not contiguous and before:
        raise w.error("an integer array and integers apart from it (NumPy reorders the dims)")


def _bounds(w: Writer, item: indexing.Slice, parts: Sequence[core.Atom]) -> tuple[str, str, str]:
    step = 1 if item.step is None else item.step
    if isinstance(step, indexing.Arg) and (item.start is None or item.stop is None):
        raise w.error("a slice with a tensor step and an open end")
    forward = isinstance(step, indexing.Arg) or step > 0
    start = item.start if item.start is not None else 0 if forward else _BIG.max
    stop = item.stop if item.stop is not None else _BIG.max if forward else _BIG.min
    return tuple(_bound(w, b, parts) for b in (start, stop, step))  # type: ignore[return-value]


def _bound(w: Writer, bound: Any, parts: Sequence[core.Atom]) -> str:
    if isinstance(bound, indexing.Arg):
        return w.one("Reshape", w.operand(parts[bound.k], np.int64), w.ints([1]))
    return w.ints([bound])


def _concat(w: Writer, names: list[str]) -> str:
    return names[0] if len(names) == 1 else w.one("Concat", *names, axis=0)


def _expand_ellipsis(items: list[Any], ndim: int) -> list[Any]:
    used = sum(1 for item in items if item is not None and item is not Ellipsis)
    full = indexing.Slice(None, None, None)
    if Ellipsis not in items:
        return items + [full] * (ndim - used)
    at = items.index(Ellipsis)
    return items[:at] + [full] * (ndim - used) + items[at + 1 :]


def _is_array(item: Any) -> bool:
    return isinstance(item, (indexing.Arg, indexing.StaticArray))


def _is_mask(item: Any, part_types: Sequence[types.TensorType]) -> bool:
    if isinstance(item, indexing.Arg):
        return bool(part_types[item.k].dtype == np.bool_)
    return isinstance(item, indexing.StaticArray) and item.value.dtype == np.bool_


def _masked(
    w: Writer,
    x: str,
    t: types.TensorType,
    items: list[Any],
    masks: list[int],
    parts: Sequence[core.Atom],
) -> str:
    full = indexing.Slice(None, None, None)
    (at,) = masks if len(masks) == 1 else (None,)
    rest = [item for i, item in enumerate(items) if i != at]
    if at is None or any(item not in (full, Ellipsis) for item in rest):
        raise w.error("a boolean mask together with other indices")
    item = items[at]
    if isinstance(item, indexing.Arg):
        mask, ndim = w.operand(parts[item.k], np.bool_), types.tensor_type(parts[item.k].type).ndim
    else:
        mask, ndim = w.const(item.value, np.bool_), item.value.ndim
    if ndim == 1:
        axis = at if Ellipsis not in items[:at] else t.ndim - (len(items) - at)
        return w.one("Compress", x, mask, axis=axis)
    if ndim == t.ndim and len(items) == 1:
        flat = w.ints([-1])
        return w.one("Compress", w.one("Reshape", x, flat), w.one("Reshape", mask, flat), axis=0)
    raise w.error(f"a {ndim}-d boolean mask over part of a {t.ndim}-d array")
