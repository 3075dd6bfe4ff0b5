"""Tensor lists as stacks and cotangent accumulators: the list primitives of gradient graphs.

Stage: ops. Reverse-mode autodiff through loops pushes forward values on a stack that the
backward loop pops, and accumulates the cotangents of tensor lists element by element. Printed::

    stack_1:list[f64[3]], h:f64[3] = list_pop stack
    ct:list[f64[3]] = list_holes[elem=f64[3]] n

These are tensor lists (``ops.lists``) and keep its single-use invariant: the kernels of
``list_pop``, ``list_pop_ct``, ``list_take_ct``, ``list_add_at`` and ``list_add`` change their
first operand in place and return it. A *cotangent list* has one entry per element of the list
it is the cotangent of; an entry may be ``None`` at run time, meaning zero (``list_holes`` makes a
list of ``None``); ``list_pop_ct`` turns a ``None`` it pops into zeros of the element's shape, and
``list_take_ct`` (the cotangent of an item assignment ``lst[i] = x`` of a list of scalars) takes
entry ``i`` out, leaving ``None``, and turns a ``None`` into a zero.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common


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


def _take_ct_impl(lst: list[Any], i: Any, *, dtype: np.dtype, weak: bool) -> tuple[list[Any], Any]:
    value, lst[i] = lst[i], None
    if value is not None:
        return lst, value
    return lst, dtype.type(0).item() if weak else np.zeros((), dtype)


def _take_ct_rule(
    lst: types.ValueType, i: types.ValueType, *, dtype: np.dtype, weak: bool
) -> tuple[types.ValueType, ...]:
    return _list_type(lst, "list_take_ct"), types.TensorType(dtype, (), weak)


def _holes_impl(n: Any, elem: types.TensorType) -> list[Any]:
    return [None] * int(n)


def _holes_rule(n: types.ValueType, elem: types.TensorType) -> types.ListType:
    common.check_dim_types([n], "list_holes")  # type: ignore[list-item]
    return types.ListType(elem)


def _unstack_impl(x: Any, weak: bool = False) -> list[Any]:
    return [v.item() for v in x] if weak and x.ndim == 1 else list(x)


def _unstack_rule(x: types.ValueType, weak: bool = False) -> types.ListType:
    """The rows of ``x``; with ``weak``, weak scalars (a list of Python numbers' cotangents)."""
    if isinstance(x, types.ListType) or x.ndim == 0:
        raise errors.InternalError(f"list_unstack of {x}")
    return types.ListType(types.TensorType(x.dtype, x.shape[1:], weak and x.ndim == 1))


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
list_take_ct_p = primitives.Primitive(
    "list_take_ct", _take_ct_impl, _take_ct_rule, multiple_results=True
)
list_holes_p = primitives.Primitive("list_holes", _holes_impl, _holes_rule)
list_unstack_p = primitives.Primitive("list_unstack", _unstack_impl, _unstack_rule)
list_add_at_p = primitives.Primitive("list_add_at", _add_at_impl, _add_at_rule)
list_add_p = primitives.Primitive("list_add", _add_impl, _add_rule)
