"""Stacking and splitting: ``hstack``, ``vstack``, ``column_stack``, ``dstack``, ``atleast_1d``,
``atleast_2d``, ``atleast_3d``, ``broadcast_arrays``, ``meshgrid``; and the ``split`` primitive
behind ``np.split`` and ``np.array_split``.

Stage: graph building. Input: these NumPy calls with tensors among their arguments. Output:
``expand_dims``, ``reshape``, ``broadcast_to`` and ``concatenate`` equations (so gradients come
from those primitives); a split's pieces are slices (``getitem`` views, as NumPy's are), or, for
sections of a dim known only at run time, one ``split`` equation whose outputs are the pieces. A
sequence given as one tensor (or a tensor list, stacked by converted code) is joined along its
subarrays, as NumPy iterates it, whether or not its first dimension is known. Dims known only at
run time are ``None``; a split of such a dim into sections gives pieces of unknown size, and
``np.split`` checks the equal division when the graph runs. Printed form::

    a:f64[2,3], b:f64[2,3] = split[axis=1, equal=True, indices=None, sections=2] x
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, elementwise, indexing, join, shape
from tograph.trace import dispatch, functional, tensor

# Where atleast_{1,2,3}d put new unit axes, by the input's rank (NumPy's rules; column_stack's
# columns are the last entry).
_NEW_AXES: dict[Any, dict[int, tuple[int, ...]]] = {
    1: {0: (0,)},
    2: {0: (0, 1), 1: (0,)},
    3: {0: (0, 1, 2), 1: (0, 2), 2: (2,)},
    "column": {0: (0, 1), 1: (1,)},
}


def _expand(x: Any, rule: Any, batched: bool = False) -> Any:
    """``x`` with the unit axes of ``rule`` for its rank (``batched``: each subarray's rank)."""
    t = common.operand_type(x)
    rank = t.ndim - 1 if batched else t.ndim
    axes = _NEW_AXES[rule].get(rank)
    if axes is None:
        return x
    return shape.expand_dims_p.bind(x, axis=tuple(a + batched for a in axes))


def _atleast(nd: int, arys: Sequence[Any]) -> Any:
    out = tuple(_expand(a, nd) for a in arys)
    return out[0] if len(out) == 1 else out


@dispatch.implements(np.atleast_1d)
def atleast_1d(*arys: Any) -> Any:
    """``np.atleast_1d``: 0-d arrays become shape ``(1,)``; one result per argument."""
    return _atleast(1, arys)


@dispatch.implements(np.atleast_2d)
def atleast_2d(*arys: Any) -> Any:
    """``np.atleast_2d``: ``()`` becomes ``(1, 1)``, ``(n,)`` becomes ``(1, n)``."""
    return _atleast(2, arys)


@dispatch.implements(np.atleast_3d)
def atleast_3d(*arys: Any) -> Any:
    """``np.atleast_3d``: ``(n,)`` becomes ``(1, n, 1)`` and ``(m, n)`` becomes ``(m, n, 1)``."""
    return _atleast(3, arys)


# ---- hstack, vstack, column_stack, dstack --------------------------------------------------


def _join(name: str, tup: Any, rule: Any, axis_of: Any, dtype: Any, casting: Any) -> Any:
    """Each element of ``tup`` expanded by ``rule``, joined along ``axis_of(rank)``."""
    if dtype is not None or casting != "same_kind":
        raise dispatch.unsupported(f"np.{name} with dtype= or casting=")
    tup = join.as_sequence(tup)
    if tensor.is_tensor(tup):
        if tup.ndim == 0:
            raise errors.ShapeError(f"{name}: a 0-d array is not a sequence of arrays")
        expanded = _expand(tup, rule, batched=True)
        return join.concatenate(expanded, axis=axis_of(expanded.ndim - 1))
    arrays = [_expand(a, rule) for a in join.operands(tup)]
    if not arrays:
        raise errors.ShapeError(f"{name}: need at least one array to concatenate")
    return join.concatenate(arrays, axis=axis_of(common.operand_type(arrays[0]).ndim))


@dispatch.overrides(np.hstack)
@dispatch.implements(np.hstack)
def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    """``np.hstack``: along axis 0 for 1-d arrays, else axis 1."""
    return _join("hstack", tup, 1, lambda rank: 0 if rank == 1 else 1, dtype, casting)


@dispatch.overrides(np.vstack)
@dispatch.implements(np.vstack)
def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Any:
    """``np.vstack``: the arrays as at least 2-d, along axis 0."""
    return _join("vstack", tup, 2, lambda rank: 0, dtype, casting)


@dispatch.overrides(np.dstack)
@dispatch.implements(np.dstack)
def dstack(tup: Any) -> Any:
    """``np.dstack``: the arrays as at least 3-d, along axis 2."""
    return _join("dstack", tup, 3, lambda rank: 2, None, "same_kind")


@dispatch.overrides(np.column_stack)
@dispatch.implements(np.column_stack)
def column_stack(tup: Any) -> Any:
    """``np.column_stack``: 1-d arrays as columns, along axis 1."""
    return _join("column_stack", tup, "column", lambda rank: 1, None, "same_kind")


# ---- split ---------------------------------------------------------------------------------


def _split_impl(
    x: Any, *, sections: int | None, indices: tuple[int, ...] | None, axis: int, equal: bool
) -> tuple[Any, ...]:
    if sections is None:
        return tuple(np.split(x, list(indices or ()), axis=axis))
    split = np.split if equal else np.array_split
    return tuple(split(x, sections, axis=axis))


def _split_rule(
    x: types.TensorType,
    *,
    sections: int | None,
    indices: tuple[int, ...] | None,
    axis: int,
    equal: bool,
) -> tuple[types.TensorType, ...]:
    axis = common.normalize_axis(axis, x, "split")
    n = x.shape[axis]
    if sections is not None and sections <= 0:
        raise errors.ShapeError("split: number sections must be larger than 0.")
    count = sections if sections is not None else len(indices or ()) + 1
    if n is None:
        sizes: list[int | None] = [None] * count
    elif sections is None:
        bounds = [0, *(indices or ()), n]
        sizes = [len(range(n)[a:b]) for a, b in zip(bounds, bounds[1:])]
    elif equal and n % sections:
        raise errors.ShapeError(
            f"split: array split does not result in an equal division ({n} into {sections})"
        )
    else:
        sizes = [len(piece) for piece in np.array_split(np.empty(n), sections)]
    return tuple(x.with_shape(x.shape[:axis] + (d,) + x.shape[axis + 1 :]).strong() for d in sizes)


split_p = primitives.Primitive("split", _split_impl, _split_rule, multiple_results=True, views=True)


def _split(ary: Any, indices_or_sections: Any, axis: Any, equal: bool) -> list[Any]:
    """The pieces, as NumPy makes them: slices of ``ary`` along ``axis`` (views, which writes
    through a piece or to ``ary`` reach). Sections of a dim known only at run time are one
    ``split`` equation, whose pieces and ``ary`` are then frozen: their writes are not followed."""
    if tensor.is_tensor(indices_or_sections):
        raise dispatch.unsupported(f"np.{'split' if equal else 'array_split'} at tensor indices")
    if isinstance(ary, (list, tuple)):
        ary = join.as_array(ary)
    x = common.operand_type(ary)
    axis = common.normalize_axis(axis, x, "split")
    if isinstance(indices_or_sections, (int, np.integer)):
        params: dict[str, Any] = {"sections": int(indices_or_sections), "indices": None}
    else:
        indices = tuple(operator.index(i) for i in indices_or_sections)
        params = {"sections": None, "indices": indices}
    sizes = [t.shape[axis] for t in _split_rule(x, axis=axis, equal=equal, **params)]
    if params["indices"] is not None:
        bounds: list[int | None] = [0, *params["indices"], x.shape[axis]]
    elif all(d is not None for d in sizes):
        bounds = [0, *itertools.accumulate(d for d in sizes if d is not None)]
    else:
        pieces = list(split_p.bind(ary, axis=axis, equal=equal, **params))
        for value in (ary, *pieces):
            if isinstance(value, tensor.SymbolicTensor):
                functional.freeze(value, _UNFOLLOWED_SPLIT)
        return pieces
    lead = (slice(None),) * axis
    return [indexing.getitem(ary, (*lead, slice(a, b))) for a, b in zip(bounds, bounds[1:])]


_UNFOLLOWED_SPLIT = (
    "np.split into sections of a dimension known only when the graph runs gives views of the "
    "array, and a write to a piece or to the array would reach the others: not followed"
)


@dispatch.implements(np.split)
def split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Any]:
    """``np.split``: equal sections (a ShapeError, or NumPy's error at run time, if not equal) or
    pieces between static indices; a list of tensors."""
    return _split(ary, indices_or_sections, axis, equal=True)


@dispatch.implements(np.array_split)
def array_split(ary: Any, indices_or_sections: Any, axis: Any = 0) -> list[Any]:
    """``np.array_split``: like ``np.split``, with the first ``n % sections`` pieces one longer."""
    return _split(ary, indices_or_sections, axis, equal=False)


# ---- broadcast_arrays and meshgrid -----------------------------------------------------------


def broadcast_dims(values: Sequence[Any]) -> list[Any]:
    """The broadcast shape of ``values``: ints where known, scalar tensors computed at run time."""
    shapes = [common.operand_type(v).shape for v in values]
    static = types.broadcast_shapes(*shapes, what="broadcast_arrays: shapes")
    dims: list[Any] = list(static)
    for axis, d in enumerate(static):
        if d is not None:
            continue
        for v, s in zip(values, shapes):
            k = axis - len(static) + len(s)
            if k < 0 or s[k] == 1:
                continue
            here = v.shape[k]  # a run-time dim: this operand's dim is unknown
            # A dim of 1 stretches to the other; otherwise the dims must agree (NumPy checks).
            dims[axis] = here if dims[axis] is None else np.where(here == 1, dims[axis], here)
    return dims


@dispatch.implements(np.broadcast_arrays)
def broadcast_arrays(*args: Any, subok: bool = False) -> tuple[Any, ...]:
    """``np.broadcast_arrays``: each argument broadcast to the common shape (a tuple); one of
    that shape already is itself, as NumPy returns it."""
    args = tuple(join.as_array(a) if isinstance(a, (list, tuple)) else a for a in args)
    dims = broadcast_dims(args)
    return tuple(a if _is_array_of_shape(a, dims) else shape.broadcast_to(a, dims) for a in args)


def _is_array_of_shape(value: Any, dims: Sequence[Any]) -> bool:
    """Whether ``value`` is an array (not a number) whose static shape is ``dims``."""
    array = isinstance(value, np.ndarray) or (tensor.is_tensor(value) and value.is_array)
    static = all(isinstance(d, int) for d in dims)
    return array and static and common.operand_type(value).shape == tuple(dims)


@dispatch.implements(np.meshgrid)
def meshgrid(
    *xi: Any, copy: bool = True, sparse: bool = False, indexing: str = "xy"
) -> tuple[Any, ...]:
    """``np.meshgrid``: coordinate arrays, ``indexing`` ``'xy'`` (Cartesian) or ``'ij'``."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    ones = (1,) * ndim
    output = [shape.reshape(_strong(x), ones[:i] + (-1,) + ones[i + 1 :]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = shape.reshape(output[0], (1, -1) + ones[2:])
        output[1] = shape.reshape(output[1], (-1, 1) + ones[2:])
    return tuple(output) if sparse else broadcast_arrays(*output)


def _strong(x: Any) -> Any:
    """``x`` as an array: a tensor made strong, a list stacked, a static value as NumPy's."""
    if isinstance(x, (list, tuple)):
        return join.as_array(x)
    t = common.operand_type(x)
    if not tensor.is_tensor(x):
        return np.asarray(x)
    return elementwise.astype_p.bind(x, dtype=t.dtype, weak=False) if t.weak else x
