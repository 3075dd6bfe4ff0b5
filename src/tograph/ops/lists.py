"""Tensor lists: values appended inside loops, stacked into one tensor afterwards.

Stage: build (ops). Input: symbolic, eager or concrete lists and tensors. Output: equations of
the list primitives; at run time a tensor list is a plain Python list of NumPy values (or Python
scalars, for weak elements). Printed form::

    acc:list[?] = list_new[elem=None]
    acc_1:list[f64[3]] = list_push acc x
    n:i64[]~ = list_length acc_1
    s:f64[None,3] = list_stack[elem=f64[3]] acc_1
    counts_1:list[i64[]~] = list_set counts k t3

Single-use invariant: in the IR ``list_push`` and ``list_set`` (``lst[i] = x``, for lists of
numbers) are functional (they return a new list value), but their kernels change the list in place
and return the same Python list. This is sound because the compiler uses each list value as the
input of at most one push or set, and never after it (loop-carried lists are threaded through the
loop: the old value is dead once the new one exists).
``check_single_push(graph)`` verifies this; the passes keep it (CSE and folding leave list
equations alone, so no list value is ever shared).

A 0-d array is never an item (the graph holds 0-d values as NumPy scalars), nor is any array an
item of a list standing for the caller's (eager's list holds the very array object); an array
appended to another list may not be written in place afterwards (``APPENDED``).

NumPy's own dispatch never reaches a list argument, so ``np.stack(lst)`` or ``np.array(lst)`` of a
``SymbolicList`` must be routed to ``stack`` by their handlers in ``dispatch.OVERRIDES`` (which
converted code calls); called directly they raise a ``TracerError`` that says to use ``stack``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn, cast

import numpy as np

from tograph import errors, origin
from tograph.ir import core, primitives, types
from tograph.trace import builder as builder_mod
from tograph.trace import containers, functional, tensor

_LENGTH_TYPE = types.TensorType(np.int64, (), weak=True)

# ---- kernels -----------------------------------------------------------------------------


def _new_impl(elem: types.TensorType | None) -> list[Any]:
    return []


def _push_impl(lst: list[Any], x: Any) -> list[Any]:
    lst.append(x)
    return lst


def _stack_impl(
    lst: list[Any],
    elem: types.TensorType,
    like_array: bool = False,
    empty_error: str | None = None,
) -> Any:
    if lst:
        return np.stack(lst)
    if empty_error is not None:  # a NumPy function that refuses an empty sequence of arrays
        raise ValueError(empty_error)
    if like_array:  # np.array([]) of the empty Python list eager code has: float64, (0,)
        return np.array([])
    if not elem.is_static_shape:
        raise errors.ShapeError(
            f"cannot stack an empty list of elements of type {elem}: the result's shape is unknown",
            hint="give the list's elements a static shape, or make sure something is appended",
        )
    return np.empty((0, *elem.shape), dtype=elem.dtype)


def _length_impl(lst: list[Any]) -> int:
    return len(lst)


def _read_impl(lst: list[Any], index: Any) -> Any:
    return lst[index]


def _set_impl(lst: list[Any], index: Any, x: Any) -> list[Any]:
    lst[index] = x
    return lst


# ---- type rules --------------------------------------------------------------------------


def _expect_list(t: types.ValueType, what: str) -> types.ListType:
    if not isinstance(t, types.ListType):
        raise errors.DTypeError(f"{what} expects a tensor list, got a tensor ({t})")
    return t


def _new_rule(elem: types.TensorType | None) -> types.ListType:
    return types.ListType(elem)


def _push_rule(lst: types.ValueType, x: types.ValueType) -> types.ListType:
    lst = _expect_list(lst, "list_push")
    if isinstance(x, types.ListType):
        raise errors.DTypeError(f"cannot push a list ({x}) onto {lst}: tensor lists hold tensors")
    try:
        return cast(types.ListType, types.join(lst, types.ListType(x)))
    except errors.ToGraphError as exc:
        hint = _push_hint(cast(types.TensorType, lst.elem), x)  # list[?] joins with anything
        raise type(exc)(f"cannot push a value of type {x} onto {lst}", hint=hint) from None


def _push_hint(elem: types.TensorType, x: types.TensorType) -> str:
    if elem.ndim != x.ndim:
        return "all elements of a tensor list have the same rank"
    if elem.dtype == x.dtype:
        return (
            "a list cannot mix Python numbers and NumPy values; "
            f"make the numbers np.{elem.dtype}(...)"
        )
    return (
        f"all elements of a tensor list have the same dtype; convert with x.astype(np.{elem.dtype})"
    )


def _stack_rule(
    lst: types.ValueType,
    elem: types.TensorType,
    like_array: bool = False,
    empty_error: str | None = None,
) -> types.TensorType:
    lst = _expect_list(lst, "list_stack")
    if lst.elem is None:
        raise errors.ShapeError(
            "need at least one array to stack: nothing is ever appended to this list",
            hint="np.stack of an empty list fails in NumPy too",
        )
    if lst.elem != elem:
        raise errors.InternalError(f"list_stack of {lst} with param elem={elem}")
    return types.TensorType(elem.dtype, (None, *elem.shape))


def _length_rule(lst: types.ValueType) -> types.TensorType:
    _expect_list(lst, "list_length")
    return _LENGTH_TYPE


def _read_rule(lst: types.ValueType, index: types.ValueType) -> types.TensorType:
    return _indexed(_expect_list(lst, "list_read"), index, "read from")


def _indexed(lst: types.ListType, index: types.ValueType, what: str) -> types.TensorType:
    """The element type of ``lst``, which is indexed by ``index`` to be ``what``."""
    if isinstance(index, types.ListType) or index.shape != () or index.dtype.kind not in "iu":
        raise errors.DTypeError(f"a tensor list index must be an integer scalar, got {index}")
    if lst.elem is None:
        raise errors.ShapeError(
            "list index out of range: nothing is ever appended to this list",
            hint=f"{what} a list only after appending to it",
        )
    return lst.elem


def _set_rule(lst: types.ValueType, index: types.ValueType, x: types.ValueType) -> types.ListType:
    elem = _indexed(_expect_list(lst, "list_set"), index, "assign to an item of")
    if x != elem:
        raise errors.DTypeError(
            f"cannot store a value of type {x} in {lst}",
            hint=_push_hint(elem, x) if isinstance(x, types.TensorType) else "",
        )
    return cast(types.ListType, lst)


# ---- primitives --------------------------------------------------------------------------

list_new_p = primitives.Primitive(
    "list_new", _new_impl, _new_rule, emit=lambda ctx, eqn, args: "[]"
)
list_push_p = primitives.Primitive("list_push", _push_impl, _push_rule)
list_stack_p = primitives.Primitive("list_stack", _stack_impl, _stack_rule)
list_length_p = primitives.Primitive(
    "list_length", _length_impl, _length_rule, emit=lambda ctx, eqn, args: f"len({args[0]})"
)
list_read_p = primitives.Primitive(
    "list_read", _read_impl, _read_rule, emit=lambda ctx, eqn, args: f"{args[0]}[{args[1]}]"
)
list_set_p = primitives.Primitive("list_set", _set_impl, _set_rule)


def check_single_push(graph: core.Graph) -> None:
    """Verifies the single-use invariant (module docstring) in ``graph`` and its nested graphs.

    Raises:
      InternalError: a list value is pushed onto twice, or used after the push that consumed it.
    """
    consumed: dict[core.Var, core.Eqn] = {}
    for eqn in graph.eqns:
        for atom in eqn.inputs:
            if isinstance(atom, core.Var) and atom in consumed:
                _raise_reused(graph, consumed[atom], f"by `{core.format_eqn(graph, eqn)}`")
        if eqn.prim in (list_push_p, list_set_p) and isinstance(eqn.inputs[0], core.Var):
            consumed[eqn.inputs[0]] = eqn
        for sub in eqn.subgraphs():
            check_single_push(sub)
    for atom in graph.outputs:
        if isinstance(atom, core.Var) and atom in consumed:
            _raise_reused(graph, consumed[atom], f"as an output of graph {graph.name}")


def _raise_reused(graph: core.Graph, push: core.Eqn, where: str) -> NoReturn:
    raise errors.InternalError(
        f"list value consumed by `{core.format_eqn(graph, push)}` is used again {where}; "
        f"list_push and list_set change the list in place, so such a list must be dead\n{graph}"
    )


# ---- tracing -----------------------------------------------------------------------------


class SymbolicList(tensor.Symbolic):
    """A tensor list of the graph being built.

    Lists are functional: ``lst = lists.push(lst, x)`` (there is no ``append``), ``lst[i]`` reads
    element ``i``, ``lists.length(lst)`` and ``lists.stack(lst)`` give tensors. ``stands_for`` is
    the caller's list this one was made from, if any, which pushes and item assignments pass
    on: ``trace.containers`` says whether it may change, and records its latest version.
    """

    PRIORITY = 2
    __slots__ = ("builder", "graph_var", "stands_for")

    def __init__(self, var: core.Var, builder: builder_mod.GraphBuilder):
        self.graph_var = var
        self.builder = builder
        self.stands_for: list[Any] | None = None

    @property
    def type(self) -> types.ListType:
        return cast(types.ListType, self.graph_var.type)

    @classmethod
    def bind_primitive(
        cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]
    ) -> Any:
        return tensor.SymbolicTensor.bind_primitive(prim, args, params)

    def __array_function__(self, func: Any, types_: Any, args: Any, kwargs: Any) -> Any:
        """NumPy functions of a list (``np.mean(losses)``) see the list stacked into one tensor."""
        args = tuple(stack(a, like_array=True) if a is self else a for a in args)
        kwargs = {k: stack(v, like_array=True) if v is self else v for k, v in kwargs.items()}
        return func(*args, **kwargs)

    def __len__(self) -> int:
        raise errors.TracerError(
            f"len() of a tensor list ({self.type}) is only known when the graph runs",
            hint="use tograph.ops.lists.length(lst), which is a tensor",
        )

    def __iter__(self) -> Any:
        raise errors.TracerError(
            f"a tensor list ({self.type}) cannot be iterated while the graph is built: "
            "its length is only known when the graph runs",
            hint="turn it into an array with tograph.ops.lists.stack(lst), or read lst[i]",
        )

    def __bool__(self) -> bool:
        raise errors.TracerError(
            f"the truth value of a tensor list ({self.type}) is only known when the graph runs",
            hint="test tograph.ops.lists.length(lst) > 0 instead",
        )

    def __eq__(self, other: object) -> bool:
        # Python's default would compare identities: ``[v for v in x if v > 0] == [1.0]`` False
        raise errors.TracerError(
            f"comparing a tensor list ({self.type}) with == or != is only possible when the "
            "graph runs",
            hint="compare arrays: np.array_equal(tograph.ops.lists.stack(lst), other)",
        )

    __ne__ = __eq__
    __hash__ = object.__hash__  # held in dicts and sets by identity, as before

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        # Without this NumPy would quietly make a 0-d object array holding the list.
        raise errors.TracerError(
            f"a tensor list ({self.type}) has no value while the graph is being built",
            hint="turn it into an array with tograph.ops.lists.stack(lst)",
        )

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            raise errors.UnsupportedError(
                "slicing a tensor list is not supported",
                hint="stack it first: tograph.ops.lists.stack(lst)[start:stop]",
                construct="tensor list slice",
            )
        return read(self, index)

    def append(self, value: Any) -> None:
        """Always raises: tensor lists are functional."""
        raise errors.TracerError(
            f"a tensor list ({self.type}) cannot be changed in place",
            hint="write lst = tograph.ops.lists.push(lst, x)",
        )

    def __getattr__(self, name: str) -> Any:
        if name in _LIST_METHODS:
            raise errors.UnsupportedError(
                f"list.{name}() of a list that grows in a loop over tensors (a tensor list): "
                "only append, len, truth, reading an item and turning it into an array are "
                "compiled",
                loc=origin.current_location(),
                construct=f"list.{name}() of a tensor list",
            )
        raise AttributeError(f"'list' object has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"<SymbolicList {self.type}>"


# Python list methods a tensor list does not have (append is lowered to a push).
_LIST_METHODS = frozenset("clear copy count extend index insert pop remove reverse sort".split())


tensor.SYMBOLIC_CLASSES[types.ListType] = SymbolicList


def new(elem: types.TensorType | None = None) -> Any:
    """A new empty list: a ``SymbolicList`` while a graph is built, else a Python list.

    Args:
      elem: the element type if known (lets an empty list stack to shape ``(0, ...)``).
    """
    current = builder_mod.current()
    if current is None:
        return _new_impl(elem)
    return current.emit(list_new_p, (), {"elem": elem})


def as_list(values: Sequence[Any], elem: types.TensorType | None = None) -> Any:
    """A tensor list holding ``values`` (tensors or scalars, possibly none).

    While a graph is built this is a ``SymbolicList`` (``list_new`` and one push per value); an
    empty one has type ``list[?]`` unless ``elem`` is given. A tensor list is returned unchanged.
    """
    if isinstance(getattr(values, "type", None), types.ListType):
        return values
    lst = new(elem)
    for value in values:
        lst = push(lst, value)
    return lst


def one_item_type(values: Sequence[Any]) -> bool:
    """Whether the tensors and numbers in ``values`` have types one tensor list can hold (one
    dtype and rank: ``as_list`` would not fail on them for their types); told without emitting."""
    joined: types.ValueType = types.ListType(None)
    for value in values:
        if tensor.is_tensor(value):
            item: types.ValueType = value.type
        elif types.is_python_scalar(value) or isinstance(value, (np.generic, np.ndarray)):
            item = types.type_of(value)
        else:
            continue
        try:
            joined = types.join(joined, types.ListType(item))
        except errors.ToGraphError:
            return False
    return True


def push(lst: Any, x: Any) -> Any:
    """``lst`` with ``x`` appended, as a new list value; ``lst`` must not be used afterwards.

    Raises:
      DTypeError: ``x``'s dtype differs from the list's element dtype.
      ShapeError: ``x``'s rank differs from the list's element rank.
      UnsupportedError: ``x`` is or holds a Python list, dict or set (see ``_holds_mutable``),
        or is a tuple holding tensors.
    """
    if isinstance(lst, SymbolicList) and lst.stands_for is not None:
        containers.check_list_change(lst, "an append")
        _refuse_array_item(x)
    if _is_0d_array(x):
        raise errors.UnsupportedError(
            "a 0-d array as an item of a list that grows in a loop over tensors (a tensor list): "
            "the graph holds 0-d values as NumPy scalars, so the item would not come back as "
            "the array eager code appends",
            loc=origin.current_location(),
            construct="0-d array in a tensor list",
        )
    if isinstance(x, tensor.SymbolicTensor) and x.is_array:
        _keep_unwritten(x)
    if _holds_mutable(x):
        raise errors.UnsupportedError(
            f"a Python {type(x).__name__} as an item of a list that grows in a loop over "
            "tensors (a tensor list), or a list, dict or set inside one: the graph would hold one "
            "such object for every run and every item, where eager code makes a new one each time",
            loc=origin.current_location(),
            construct="mutable item of a tensor list",
        )
    if isinstance(x, tuple) and tensor.contains_tensor(x):
        raise errors.UnsupportedError(
            "a tuple holding tensors as an item of a list that grows in a loop over tensors (a "
            "tensor list), whose items are single arrays or numbers",
            loc=origin.current_location(),
            construct="tuple of tensors in a tensor list",
            hint="append each part to a list of its own",
        )
    if not tensor.is_tensor(x):
        _check_item_type(x)
    return _standing_for(list_push_p.bind(_traceable(lst, x), x), lst)


APPENDED = (
    "an in-place write to an array appended to a list that grows in a loop or branch over "
    "tensors (a tensor list): the list holds the array's value, where eager code's list holds "
    "the array itself, which the write would change"
)


def _keep_unwritten(x: Any) -> None:
    """Refuses every later in-place write to ``x``, an array appended to a tensor list (eager's
    list holds that very array, so the write would change the item too), and refuses the append
    itself inside an if or loop over tensors that writes ``x`` in place before it (in an earlier
    trip of a loop, eager's earlier item is that array too)."""
    current = builder_mod.current()
    storage = x._storage
    if (
        current is not None
        and current.parent is not None
        and storage is not None
        and id(storage) in current.writes
    ):
        raise errors.UnsupportedError(
            "an array written in place inside an if or loop over tensors is appended there to a "
            "list that grows in it (a tensor list): eager code's list holds the array itself, "
            "which a later trip's write changes, where the graph's list holds its value",
            loc=origin.current_location(),
            construct="array written in place and appended to a tensor list",
        )
    if storage is None or storage.frozen is None:
        functional.freeze(x, APPENDED)


def is_appended(x: Any) -> bool:
    """Whether ``x`` is an array appended to a tensor list (``_keep_unwritten``)."""
    storage = getattr(x, "_storage", None)
    return storage is not None and storage.frozen == APPENDED


def _standing_for(result: Any, lst: Any) -> Any:
    """``result``, a change of ``lst``, standing for the caller's list ``lst`` stands for."""
    if isinstance(lst, SymbolicList) and isinstance(result, SymbolicList):
        result.stands_for = lst.stands_for
        containers.note_version(result)
    return result


def _refuse_array_item(x: Any) -> None:
    """Refuses ``x``, an array, as an item of a tensor list standing for the caller's list: eager
    code's list holds that very array object, which a later in-place write or an identity test
    tells apart from the graph's copy of its value."""
    if _is_array(x) or isinstance(x, np.ndarray):
        raise errors.UnsupportedError(
            "an array as an item of a list passed to the function, changed inside an if or loop "
            "over tensors: eager code's list holds that very array object, which later in-place "
            "writes or identity tests would tell apart from the graph's value",
            loc=origin.current_location(),
            construct="array item of an argument list changed in tensor control flow",
        )


def _is_0d_array(x: Any) -> bool:
    """Whether ``x`` is a 0-d array (not a NumPy scalar)."""
    if tensor.is_tensor(x):
        return x.ndim == 0 and bool(getattr(x, "array0d", False))
    return isinstance(x, np.ndarray) and x.ndim == 0


def _check_item_type(x: Any) -> None:
    """Refuses a value that is no array or number (None, an object) as a tensor list's item."""
    try:
        types.type_of(x)
    except errors.ToGraphError:
        raise errors.UnsupportedError(
            f"a {type(x).__name__} value as an item of a list that grows in a loop over tensors "
            "(a tensor list), whose items are arrays, numbers or strings",
            loc=origin.current_location(),
            construct="item of a tensor list that is no array or number",
        ) from None


def _holds_mutable(x: Any) -> bool:
    """Whether ``x`` is, or is a tuple holding, a Python list, dict or set."""
    if isinstance(x, (list, dict, set)):
        return True
    return isinstance(x, tuple) and any(_holds_mutable(item) for item in x)


def length(lst: Any) -> Any:
    """The number of elements: a weak int64 tensor (a Python int for a Python list)."""
    return list_length_p.bind(lst)


def truth(value: Any) -> Any:
    """A tensor list's truth as Python tests a list's (whether it holds an element: a weak bool
    tensor); any other value is returned as it is, for the caller to test."""
    if isinstance(value, SymbolicList):
        return length(value) != 0
    return value


def set_item(lst: Any, index: Any, x: Any) -> Any:
    """``lst[index] = x`` as a new list value; ``lst`` must not be used afterwards.

    Only lists of numbers are written: an array stored in a list is an object that other names
    may share, and eager code that writes one writes it for all of them.

    Raises:
      UnsupportedError: ``index`` is a slice, or the list holds arrays.
      DTypeError: ``x``'s type differs from the list's element type.
    """
    if isinstance(lst, SymbolicList) and lst.stands_for is not None:
        containers.check_list_change(lst, "an item assignment")
    if isinstance(index, slice):
        raise errors.UnsupportedError(
            "a slice assignment to a list that grows in a loop over tensors (a tensor list)",
            loc=origin.current_location(),
            construct="tensor list slice assignment",
        )
    elem = lst.type.elem if isinstance(lst, SymbolicList) else None
    if (elem is not None and elem.shape != ()) or _is_array(x):
        raise errors.UnsupportedError(
            "an item assignment to a list of arrays that grows in a loop over tensors (a "
            "tensor list): the arrays are objects other names may share",
            loc=origin.current_location(),
            construct="item assignment of a tensor list of arrays",
        )
    return _standing_for(list_set_p.bind(_traceable(lst, x), index, x), lst)


def _is_array(x: Any) -> bool:
    """Whether ``x`` is an array (a tensor of rank above 0, or a 0-d array) and not a number."""
    if tensor.is_tensor(x):
        return x.ndim > 0 or bool(getattr(x, "array0d", False))
    return isinstance(x, np.ndarray)


def read(lst: Any, index: Any) -> Any:
    """Element ``index`` of ``lst`` (negative indices count from the end)."""
    return list_read_p.bind(_traceable(lst, index), index)


def stack(lst: Any, like_array: bool = False, empty_error: str | None = None) -> Any:
    """The elements stacked along a new first axis, like ``np.stack(lst)``.

    For a tensor list the first dimension is unknown (``None``) until run time, and an empty list
    whose element type is known stacks to shape ``(0, *elem.shape)``; with ``like_array``, it is
    what ``np.array`` makes of an empty Python list (float64, shape ``(0,)``), whatever the
    elements' type; with ``empty_error``, an empty list raises ``ValueError(empty_error)`` when the
    graph runs instead. A Python list goes to ``np.stack`` itself, which knows its length.
    """
    if isinstance(lst, list):
        return np.stack(lst)
    list_type = getattr(lst, "type", None)
    if not isinstance(list_type, types.ListType):
        raise errors.DTypeError(
            f"stack expects a tensor list or a Python list, got {type(lst).__name__}"
        )
    if empty_error is not None:
        return list_stack_p.bind(lst, elem=list_type.elem, empty_error=empty_error)
    if like_array:
        return list_stack_p.bind(lst, elem=list_type.elem, like_array=True)
    return list_stack_p.bind(lst, elem=list_type.elem)


def _traceable(lst: Any, operand: Any) -> Any:
    """A Python list as a tensor list when it meets a symbolic operand (so it can be traced)."""
    if isinstance(lst, list) and isinstance(operand, tensor.Symbolic):
        return as_list(lst)
    return lst
