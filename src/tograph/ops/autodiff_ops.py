"""Primitives that gradient graphs need: unbroadcasting, scatter-add, stacks and cotangent lists.

Stage: autodiff (used by ``tograph.autodiff`` rules and the graph transform). Input: cotangents
and residuals while a gradient graph is built. Output: equations, printed like any other::

    t3:f32[None,4] = reduce_to[shape=(None, 4)] t2 n
    t4:f64[5,3] = index_add[index=[$0]] t0 g i
    stack_1:list[f64[3]], h:f64[3] = list_pop stack

``reduce_to`` sums a broadcast cotangent back to an operand's shape, known only at run time when
it has ``None`` dims (those are extra scalar operands, as for ``broadcast_to``). ``index_add`` is
``np.add.at`` on a copy: the transpose of ``getitem``. ``matrix_transpose`` swaps the last two
axes (``x.mT``; also ``np.matrix_transpose``).

Stacks and cotangent lists are tensor lists (``ops.lists``) and keep its single-use invariant: the
kernels of ``list_pop``, ``list_pop_ct``, ``list_add_at`` and ``list_add`` change their first
operand in place and return it. A *cotangent list* has one entry per element of the list it is
the cotangent of; an entry may be ``None`` at run time, meaning zero (``list_holes`` makes a list
of ``None``); ``list_pop_ct`` turns a ``None`` it pops into zeros of the element's shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, indexing
from tograph.trace import dispatch

# ---- reduce_to -----------------------------------------------------------------------------


def _reduce_to_impl(g: Any, *dims: Any, shape: tuple[int | None, ...]) -> Any:
    target = common.fill_dims(shape, dims)
    g = np.asarray(g)
    lead = max(g.ndim - len(target), 0)
    offset = len(target) - (g.ndim - lead)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(g.shape[lead:]) if target[offset + i] == 1 and d != 1
    )
    if axes:
        g = np.sum(g, axis=axes, keepdims=True)
    return np.reshape(g, target)[()] if target == () else np.reshape(g, target)


def _reduce_to_rule(
    g: types.TensorType, *dims: types.TensorType, shape: tuple[int | None, ...]
) -> types.TensorType:
    common.check_dim_types(dims, "reduce_to")
    if len(dims) != shape.count(None):
        raise errors.InternalError(f"reduce_to to {shape} got {len(dims)} run-time dims")
    return types.TensorType(g.dtype, shape)


def _reduce_to_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    """An array's ``.sum`` (and ``.reshape``) when both shapes are static, else the kernel."""
    g, target = eqn.inputs[0].type, eqn.params["shape"]
    lead = g.ndim - len(target)
    if g.weak or not g.is_static_shape or None in target or lead < 0:
        return f"{ctx.const(_reduce_to_impl)}({', '.join(args)}, shape={target!r})"
    ones = tuple(lead + i for i, d in enumerate(target) if d == 1 and g.shape[lead + i] != 1)
    if not ones:
        return f"{args[0]}.sum(axis={tuple(range(lead))!r})"
    summed = f"{args[0]}.sum(axis={tuple(range(lead)) + ones!r}, keepdims=True)"
    return summed if not lead else f"{summed}.reshape({target!r})"


reduce_to_p = primitives.Primitive(
    "reduce_to", _reduce_to_impl, _reduce_to_rule, emit=_reduce_to_emit
)


def reduce_to(g: Any, like: Any) -> Any:
    """``g`` summed over the axes along which ``like`` was broadcast to ``g``'s shape.

    Emits nothing when the shapes are the same and static; else a ``reduce_to`` whose unknown
    target dims are read from ``like`` at run time.
    """
    g_type, target = common.operand_type(g), common.operand_type(like).shape
    if g_type.shape == target and g_type.is_static_shape:
        return g
    dims = [like.shape[i] for i, d in enumerate(target) if d is None]
    return reduce_to_p.bind(g, *dims, shape=target)


# ---- matrix_transpose ------------------------------------------------------------------------


def _matrix_transpose_rule(x: types.TensorType) -> types.TensorType:
    if x.ndim < 2:
        raise errors.ShapeError(
            f"matrix_transpose: the array must be at least 2-d, got shape {common.fmt(x.shape)}"
        )
    return types.TensorType(x.dtype, x.shape[:-2] + (x.shape[-1], x.shape[-2]))


matrix_transpose_p = primitives.Primitive(
    "matrix_transpose",
    np.matrix_transpose,
    _matrix_transpose_rule,
    emit=lambda ctx, eqn, args: f"{args[0]}.mT",
)
dispatch.implements(np.matrix_transpose)(matrix_transpose_p.bind)


# ---- index_add -------------------------------------------------------------------------------


def _index_add_impl(base: Any, update: Any, *args: Any, index: indexing.Index) -> Any:
    out = np.array(base)
    where = index.build(args)
    if any(np.ndim(item) > 0 and np.asarray(item).dtype.kind in "iu" for item in where):
        np.add.at(out, where, update)
    else:
        out[where] += update
    return out


def _index_add_rule(
    base: types.TensorType,
    update: types.TensorType,
    *arg_types: types.TensorType,
    index: indexing.Index,
) -> types.TensorType:
    target = indexing.indexed_shape(base, arg_types, index, "index_add")
    if not common.broadcastable_to(update.shape, target):
        raise errors.ShapeError(
            f"index_add: an update of shape {common.fmt(update.shape)} does not broadcast to "
            f"{common.fmt(target)}"
        )
    return base.strong()


index_add_p = primitives.Primitive("index_add", _index_add_impl, _index_add_rule)


# ---- stacks and cotangent lists --------------------------------------------------------------


def _list_type(t: types.ValueType, op: str) -> types.ListType:
    if not isinstance(t, types.ListType) or t.elem is None:
        raise errors.InternalError(f"{op} expects a typed tensor list, got {t}")
    return t


def _pop_impl(lst: list[Any]) -> tuple[list[Any], Any]:
    return lst, lst.pop()


def _pop_rule(lst: types.ValueType) -> tuple[types.ValueType, ...]:
    lst = _list_type(lst, "list_pop")
    return lst, cast(types.TensorType, lst.elem)


def _pop_ct_impl(
    lst: list[Any], *dims: Any, shape: tuple[int | None, ...], dtype: np.dtype, weak: bool
) -> tuple[list[Any], Any]:
    value = lst.pop()
    if value is not None:
        return lst, value
    if weak:
        return lst, dtype.type(0).item()
    return lst, np.zeros(common.fill_dims(shape, dims), dtype)


def _pop_ct_rule(
    lst: types.ValueType,
    *dims: types.TensorType,
    shape: tuple[int | None, ...],
    dtype: np.dtype,
    weak: bool,
) -> tuple[types.ValueType, ...]:
    common.check_dim_types(dims, "list_pop_ct")
    return _list_type(lst, "list_pop_ct"), types.TensorType(dtype, shape, weak)


def _holes_impl(n: Any, elem: types.TensorType) -> list[Any]:
    return [None] * int(n)


def _holes_rule(n: types.ValueType, elem: types.TensorType) -> types.ListType:
    common.check_dim_types([n], "list_holes")  # type: ignore[list-item]
    return types.ListType(elem)


def _unstack_impl(x: Any) -> list[Any]:
    return list(x)


def _unstack_rule(x: types.ValueType) -> types.ListType:
    if isinstance(x, types.ListType) or x.ndim == 0:
        raise errors.InternalError(f"list_unstack of {x}")
    return types.ListType(types.TensorType(x.dtype, x.shape[1:]))


def _add_at_impl(lst: list[Any], i: Any, g: Any) -> list[Any]:
    lst[i] = g if lst[i] is None else lst[i] + g
    return lst


def _add_at_rule(lst: types.ValueType, i: types.ValueType, g: types.ValueType) -> types.ListType:
    return _list_type(lst, "list_add_at")


def _add_impl(a: list[Any], b: list[Any]) -> list[Any]:
    for k, v in enumerate(b):
        if v is not None:
            a[k] = v if a[k] is None else a[k] + v
    return a


def _add_rule(a: types.ValueType, b: types.ValueType) -> types.ListType:
    _list_type(b, "list_add")
    return _list_type(a, "list_add")


list_pop_p = primitives.Primitive(
    "list_pop",
    _pop_impl,
    _pop_rule,
    multiple_results=True,
    emit=lambda ctx, eqn, args: f"({args[0]}, {args[0]}.pop())",
)
list_pop_ct_p = primitives.Primitive(
    "list_pop_ct", _pop_ct_impl, _pop_ct_rule, multiple_results=True
)
list_holes_p = primitives.Primitive("list_holes", _holes_impl, _holes_rule)
list_unstack_p = primitives.Primitive("list_unstack", _unstack_impl, _unstack_rule)
list_add_at_p = primitives.Primitive("list_add_at", _add_at_impl, _add_at_rule)
list_add_p = primitives.Primitive("list_add", _add_impl, _add_rule)
