"""The abstract values of type inference (``analysis.types``) and what they do.

Stage: type inference. An SSA value is a static Python value (a ``StaticOf`` when it differs
between paths), a stand-in symbolic tensor or tensor list in a scratch graph, a
``TensorIterable`` (what a loop over tensors iterates), ``UNKNOWN`` (top: anything, a tensor
included) or ``PENDING`` (bottom: not computed yet). This module prints them (``describe``),
types them for joins (``type_of``), and steps them as a list append or a loop's item would.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from tograph.ir import types
from tograph.trace import builder as builder_mod
from tograph.trace import tensor


class _Marker:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


UNKNOWN: Any = _Marker("UNKNOWN")  # top: may be anything, a tensor included
PENDING: Any = _Marker("PENDING")  # bottom: not computed yet (a loop's back edge, first round)


class TensorIterable:
    """What a loop over tensors iterates (``range`` with a tensor bound; ``enumerate`` or ``zip``
    of tensors): the loop is a ``while_loop``, as the runtime's ``for_stmt`` makes it."""

    def __init__(self, index_only: bool = False):
        self.index_only = index_only  # a range: its items are the weak int index


@dataclasses.dataclass(frozen=True, eq=False)
class StaticOf:
    """A static value whose value differs between paths: its kind (``object``: mixed kinds) and
    one of its values, which stands in for it when expressions using it are typed."""

    kind: type
    example: Any


def describe(value: Any) -> str:
    """How a value's type prints in ``cf.types``: a Python list holding tensors as the list of
    their types, ``[f64[], i64[]~]``; a tensor list as ``list[f64[]]``."""
    if value is UNKNOWN or value is PENDING:
        return "?"
    if isinstance(value, StaticOf):
        return "static" if value.kind is object else f"{value.kind.__name__} (static)"
    if isinstance(value, tensor.Symbolic):
        return str(value.graph_var.type)
    if type(value) is list and any(is_tensorish(v) for v in value):
        return f"[{', '.join(describe(v) for v in value)}]"
    if isinstance(value, TensorIterable):
        return "tensor iterable"
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{types.type_of(value)} (constant)"
    return f"{type(value).__name__} (static)"


def is_static(value: Any) -> bool:
    return value is not UNKNOWN and value is not PENDING and not is_tensorish(value)


def is_tensorish(value: Any) -> bool:
    return isinstance(value, (tensor.TensorBase, tensor.Symbolic, TensorIterable))


def example(value: Any) -> Any:
    return value.example if isinstance(value, StaticOf) else value


def type_of(value: Any) -> types.ValueType:
    """The graph type of a value a tensor joins: a Python list's is the tensor list it becomes."""
    if isinstance(value, tensor.Symbolic):
        return value.graph_var.type
    value = example(value)
    if type(value) is list:
        joined: types.ValueType = types.ListType(None)
        for item in value:
            joined = types.join(joined, types.ListType(types.tensor_type(type_of(item))))
        return joined
    if not tensor.is_number(value):
        raise TypeError(f"{value!r} cannot be joined with a tensor")
    return types.type_of(value)


def same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (np.ndarray, np.generic)):
        return a is b
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable values are different
        return False


def append(target: Any, item: Any, scratch: builder_mod.GraphBuilder) -> Any:
    """``target`` after ``target.append(item)``: a Python list one item longer (a new list:
    inference changes nothing), a tensor list of the joined element type, or the same object."""
    if target is PENDING or item is PENDING:
        return PENDING
    listed = _list_type(target)
    if listed is not None:
        try:
            item_type = types.tensor_type(type_of(item))
            return scratch.add_input(types.join(listed, types.ListType(item_type)))
        except Exception:  # noqa: BLE001 - an item no tensor list holds: unknown here
            return UNKNOWN
    if type(example(target)) is list:
        longer = [*example(target), item]
        return StaticOf(list, longer) if isinstance(target, StaticOf) else longer
    return target


UNROLL_LIMIT = 1000  # trips of a static loop beyond which it is a while_loop, not unrolled


def rolled(iterable: Any) -> bool:
    """Whether a loop over ``iterable`` is a ``while_loop`` although it is static: a ``range``
    of more than ``UNROLL_LIMIT`` items, whose unrolled graph would be that many bodies long."""
    return isinstance(iterable, range) and len(iterable) > UNROLL_LIMIT


def python_iterable(value: Any) -> bool:
    """A static iterable whose items Python yields (a NumPy array's are constants)."""
    return isinstance(example(value), (range, list, tuple, dict, str, np.ndarray, enumerate, zip))


def _list_type(value: Any) -> types.ListType | None:
    if isinstance(value, tensor.Symbolic) and isinstance(value.graph_var.type, types.ListType):
        return value.graph_var.type
    return None


def loop_item(iterable: Any, scratch: builder_mod.GraphBuilder) -> Any:
    """A stand-in for the items of a loop over ``iterable``.

    A static iterable's stand-in is its first item: the items of a Python loop are static values
    of like kinds, and that kind (not the value) is what typing and decisions need.
    """
    if iterable is PENDING:
        return PENDING
    varies = isinstance(iterable, StaticOf)
    iterable = example(iterable)
    if rolled(iterable):  # a while_loop's weak int index
        return scratch.add_input(types.TensorType(np.dtype(np.int64), (), weak=True))
    if isinstance(iterable, (range, list, tuple, np.ndarray)) and not len(iterable):
        # no item yet (a list that grows in a later round may have some); when the iterable
        # differs between trips (``range(i)`` in a loop over ``i``), the others may have items
        return UNKNOWN if varies else PENDING
    if isinstance(iterable, (range, list, tuple, np.ndarray)):
        return StaticOf(type(iterable[0]), iterable[0]) if is_static(iterable[0]) else iterable[0]
    listed = _list_type(iterable)
    if listed is not None:  # a tensor list's items
        return UNKNOWN if listed.elem is None else scratch.add_input(listed.elem)
    if isinstance(iterable, TensorIterable) and iterable.index_only:
        return scratch.add_input(types.TensorType(np.dtype(np.int64), (), weak=True))
    if isinstance(iterable, tensor.SymbolicTensor) and iterable.ndim > 0:
        try:
            with scratch.active():
                return iterable[0]
        except Exception:  # noqa: BLE001 - an empty first axis: no item to type
            return UNKNOWN
    return UNKNOWN
