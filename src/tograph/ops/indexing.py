"""Indexing: ``x[index]`` (``getitem``) and the functional update ``x[index] = v`` (``setitem``).

Stage: graph building. Input: an array and a NumPy index: ints, slices (static or tensor bounds),
None, Ellipsis, integer arrays or tensors, tensor lists of integers (stacked), boolean masks, and
tuples of those. Output: one equation
whose ``index`` param is an ``Index`` holding the static parts, printed like Python with ``$k`` for
the k-th tensor part; the tensor parts are the equation's inputs after ``x`` (and, for setitem,
the value). Printed form::

    y:f64[None,2] = getitem[index=[1:$0, [0, 2]]] x n

The type rule follows NumPy: advanced indices (arrays, masks, and ints when an array is present)
broadcast together; their dims replace the indexed ones if the advanced indices are adjacent, else
they come first. A boolean mask tensor gives a dimension known only at run time.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, join, lists
from tograph.trace import dispatch, tensor

# ---- the index param ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Arg:
    """The k-th tensor part of an index; printed ``$k``."""

    k: int

    def __repr__(self) -> str:
        return f"${self.k}"


class StaticArray:
    """A constant integer array or boolean mask in an index, hashable so that it fits in params."""

    __slots__ = ("value", "_key")

    def __init__(self, value: np.ndarray):
        self.value = np.array(value)
        self.value.flags.writeable = False
        self._key = (self.value.dtype.str, self.value.shape, self.value.tobytes())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StaticArray) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        if self.value.size <= 6:
            return repr(self.value.tolist())
        return f"array<{types.type_of(self.value)}>"


@dataclasses.dataclass(frozen=True, slots=True)
class Slice:
    """A slice whose bounds are ints, None or ``Arg``s; printed ``1:$0`` or ``::-1``."""

    start: Any
    stop: Any
    step: Any

    def text(self, bound: Callable[[Any], str]) -> str:
        """The slice in Python syntax, each bound other than None written by ``bound``."""
        parts = ["" if p is None else bound(p) for p in (self.start, self.stop, self.step)]
        return ":".join(parts if self.step is not None else parts[:2])

    def build(self, args: Sequence[Any]) -> slice:
        """The Python slice, given the run-time values of the tensor parts."""
        bounds = (self.start, self.stop, self.step)
        return slice(*(args[p.k] if isinstance(p, Arg) else p for p in bounds))

    def __repr__(self) -> str:
        return self.text(repr)


@dataclasses.dataclass(frozen=True, slots=True)
class Index:
    """A whole index, its tensor parts replaced by ``Arg``s; printed ``[0, 1:$0, None, ...]``."""

    items: tuple[Any, ...]

    def __repr__(self) -> str:
        texts = ("..." if item is Ellipsis else repr(item) for item in self.items)
        return f"[{', '.join(texts)}]"

    def build(self, args: Sequence[Any]) -> tuple[Any, ...]:
        """The NumPy index, given the run-time values of the tensor parts."""
        return tuple(_build(item, args) for item in self.items)


def _build(item: Any, args: Sequence[Any]) -> Any:
    if isinstance(item, Arg):
        return args[item.k]
    if isinstance(item, Slice):
        return item.build(args)
    if isinstance(item, StaticArray):
        return item.value
    return item


def parse_index(index: Any) -> tuple[Index, list[Any]]:
    """Splits a NumPy index into its static ``Index`` and its tensor parts (in ``Arg`` order).

    Raises:
      IndexingError: an item NumPy does not accept as an index.
    """
    items = index if isinstance(index, tuple) else (index,)
    dynamic: list[Any] = []

    def arg(value: Any) -> Arg:
        dynamic.append(value)
        return Arg(len(dynamic) - 1)

    return Index(tuple(_parse_item(item, arg) for item in items)), dynamic


def _parse_item(item: Any, arg: Callable[[Any], Arg]) -> Any:
    if item is None or item is Ellipsis:
        return item
    if tensor.is_tensor(item):
        return arg(item)
    if isinstance(item, slice):
        return Slice(*(_parse_bound(p, arg) for p in (item.start, item.stop, item.step)))
    if isinstance(item, (bool, np.bool_)):
        return StaticArray(np.asarray(item))
    if isinstance(item, (int, np.integer)):
        return int(item)
    if isinstance(item, (list, tuple)) and tensor.contains_tensor(item):
        return arg(join.as_array(item))
    if is_integer_list(item):
        # a list of indices grown in a loop over tensors: stacked in its own integer dtype, as
        # NumPy makes an index array of a list of ints (an empty one selects nothing)
        return arg(lists.stack(item))
    if isinstance(item, (list, tuple, np.ndarray)):
        empty = isinstance(item, (list, tuple)) and not item
        value = np.zeros(0, np.intp) if empty else np.asarray(item)
        if value.dtype.kind not in "biu":
            raise errors.IndexingError(
                f"arrays used as indices must be of integer (or boolean) type, got {value.dtype}"
            )
        return int(value) if value.ndim == 0 and value.dtype.kind != "b" else StaticArray(value)
    raise errors.IndexingError(
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
        f"boolean arrays are valid indices, got {type(item).__name__} {item!r}"
    )


def is_integer_list(item: Any) -> bool:
    """Whether ``item`` is a tensor list of integer scalars (a list of booleans is left out: an
    empty one stacks to a boolean mask, where NumPy reads ``x[[]]`` as no indices)."""
    list_type = getattr(item, "type", None)
    return (
        isinstance(list_type, types.ListType)
        and isinstance(list_type.elem, types.TensorType)
        and list_type.elem.ndim == 0
        and list_type.elem.dtype.kind in "iu"
    )


def _parse_bound(bound: Any, arg: Callable[[Any], Arg]) -> Any:
    if bound is None:
        return None
    if tensor.is_tensor(bound):
        return arg(bound)
    try:
        return operator.index(bound)
    except TypeError:
        raise errors.DTypeError(f"slice indices must be integers or None, got {bound!r}") from None


# ---- the shape of x[index] ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Part:
    kind: str  # "int", "slice", "new", "ellipsis", "array" or "mask"
    item: Any
    used: int  # how many dims of x the part indexes
    type: types.TensorType | None = None  # of an index array, mask or int tensor


def _classify(item: Any, arg_types: Sequence[types.TensorType], op: str) -> _Part:
    if item is None or item is Ellipsis:
        return _Part("new" if item is None else "ellipsis", item, 0)
    if isinstance(item, Slice):
        for bound in (item.start, item.stop, item.step):
            t = arg_types[bound.k] if isinstance(bound, Arg) else None
            if t is not None and (t.shape != () or t.dtype.kind not in "iu"):
                raise errors.DTypeError(
                    f"{op}: slice indices must be integer scalars, got a tensor of type {t}"
                )
        return _Part("slice", item, 1)
    if isinstance(item, int):
        return _Part("int", item, 1)
    t = arg_types[item.k] if isinstance(item, Arg) else types.type_of(item.value)
    if t.dtype.kind == "b":
        return _Part("mask", item, t.ndim, t)
    if t.dtype.kind not in "iu":
        raise errors.IndexingError(
            f"{op}: arrays used as indices must be of integer (or boolean) type, got {t}"
        )
    return _Part("int" if t.ndim == 0 else "array", item, 1, t)


class _IndexedShape:
    """The shape of ``x[index]`` by NumPy's basic and advanced indexing rules (module docstring)."""

    def __init__(
        self, x: types.TensorType, arg_types: Sequence[types.TensorType], index: Index, op: str
    ):
        self.x, self.index, self.op = x, index, op
        self.parts = [_classify(item, arg_types, op) for item in index.items]
        self.fancy = any(p.kind in ("array", "mask") for p in self.parts)
        self.axis = 0  # the next axis of x to index
        self.out: list[types.Dim] = []
        self.adv_shapes: list[types.Shape] = []
        self.adv_positions: list[int] = []
        self.adv_at = 0

    def error(self, message: str) -> errors.IndexingError:
        return errors.IndexingError(
            f"{self.op}: {message} (index {self.index!r} into shape {common.fmt(self.x.shape)})"
        )

    def run(self) -> types.Shape:
        used = sum(p.used for p in self.parts)
        if [p.kind for p in self.parts].count("ellipsis") > 1:
            raise self.error("an index can only have a single ellipsis ('...')")
        if used > self.x.ndim:
            raise self.error(
                f"too many indices for array: array is {self.x.ndim}-dimensional, "
                f"but {used} were indexed"
            )
        for pos, part in enumerate(self.parts):
            if part.kind == "ellipsis":
                self.out.extend(self.x.shape[self.axis : self.axis + self.x.ndim - used])
                self.axis += self.x.ndim - used
            elif part.kind == "new":
                self.out.append(1)
            elif part.kind == "slice":
                self.out.append(self._slice_length(part.item, self.x.shape[self.axis]))
                self.axis += 1
            else:
                self._advanced(pos, part)
        self.out.extend(self.x.shape[self.axis :])
        if self.adv_shapes:
            self._place_advanced()
        return tuple(self.out)

    def _slice_length(self, item: Slice, dim: types.Dim) -> types.Dim:
        if item.step == 0:
            raise errors.ShapeError(f"{self.op}: slice step cannot be zero (index {self.index!r})")
        bounds = (item.start, item.stop, item.step)
        if dim is None or any(isinstance(b, Arg) for b in bounds):
            return None
        return len(range(*slice(*bounds).indices(dim)))

    def _advanced(self, pos: int, part: _Part) -> None:
        dims = self.x.shape[self.axis : self.axis + part.used]
        self._check(part, dims)
        self.axis += part.used
        if part.kind == "int" and not self.fancy:
            return
        if not self.adv_positions:
            self.adv_at = len(self.out)
        self.adv_positions.append(pos)
        if part.kind == "mask":
            static = isinstance(part.item, StaticArray)
            self.adv_shapes.append((int(np.count_nonzero(part.item.value)) if static else None,))
        else:
            self.adv_shapes.append(part.type.shape if part.type is not None else ())

    def _check(self, part: _Part, dims: types.Shape) -> None:
        if part.kind == "mask":
            for k, (m, d) in enumerate(zip(part.type.shape, dims)):  # type: ignore[union-attr]
                if m is not None and d is not None and m != d:
                    raise self.error(
                        f"boolean index did not match indexed array along axis {self.axis + k}; "
                        f"size of axis is {d} but size of corresponding boolean axis is {m}"
                    )
            return
        if dims[0] is None or isinstance(part.item, Arg):
            return  # a tensor index is checked by NumPy when the graph runs
        values = np.asarray(part.item.value if isinstance(part.item, StaticArray) else part.item)
        for bad in (values.min(), values.max()) if values.size else ():
            if not -dims[0] <= bad < dims[0]:
                raise self.error(
                    f"index {bad} is out of bounds for axis {self.axis} with size {dims[0]}"
                )

    def _place_advanced(self) -> None:
        try:
            adv = types.broadcast_shapes(*self.adv_shapes, what="indexing arrays")
        except errors.ShapeError:
            pretty = " ".join(common.fmt(s) for s in self.adv_shapes)
            raise self.error(
                "shape mismatch: indexing arrays could not be broadcast together with "
                f"shapes {pretty}"
            ) from None
        first = self.adv_positions[0]
        adjacent = self.adv_positions == list(range(first, first + len(self.adv_positions)))
        at = self.adv_at if adjacent else 0
        self.out[at:at] = adv


def indexed_shape(
    x: types.TensorType, arg_types: Sequence[types.TensorType], index: Index, op: str = "getitem"
) -> types.Shape:
    """The shape of ``x[index]`` where the index's tensor parts have types ``arg_types``.

    Raises:
      IndexingError: the index does not fit ``x`` (the message names the index and the shape).
    """
    return _IndexedShape(x, arg_types, index, op).run()


# ---- getitem -----------------------------------------------------------------------------


def _getitem_impl(x: Any, *args: Any, index: Index) -> Any:
    return x[index.build(args)]


def _getitem_rule(
    x: types.TensorType, *arg_types: types.TensorType, index: Index
) -> types.TensorType:
    if x.weak:
        raise errors.DTypeError(f"getitem: a Python scalar ({x}) is not subscriptable")
    return types.TensorType(x.dtype, indexed_shape(x, arg_types, index))


def index_source(ctx: primitives.EmitContext, index: Index, args: Sequence[str]) -> str:
    """The source text of ``index`` in generated code, ``args`` the texts of its tensors."""

    def item_source(item: Any) -> str:
        if isinstance(item, Arg):
            return args[item.k]
        if isinstance(item, Slice):
            return item.text(item_source)
        if isinstance(item, StaticArray):
            return ctx.const(item.value)
        return "..." if item is Ellipsis else repr(item)

    return ", ".join(item_source(item) for item in index.items) or "()"


def _getitem_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    return f"{args[0]}[{index_source(ctx, eqn.params['index'], args[1:])}]"


getitem_p = primitives.Primitive(
    "getitem", _getitem_impl, _getitem_rule, emit=_getitem_emit, views=True
)


@dispatch.implements(operator.getitem)
def getitem(x: Any, index: Any) -> Any:
    """``x[index]``; ``x`` or parts of ``index`` are tensors. A basic index (ints, slices, None,
    ``...``) gives a view of ``x``, as in NumPy, unless ints pick a single element (a scalar).

    Raises:
      IndexingError: the index does not fit the shape of ``x``.
    """
    parsed, dynamic = parse_index(index)
    basic = _is_basic(parsed, dynamic)
    if not tensor.is_symbolic(x) or not basic or _picks_element(parsed, common.operand_type(x)):
        return getitem_p.bind(x, *dynamic, index=parsed)
    held = common.snapshots(dynamic)
    out = common.as_view(
        x,
        getitem_p,
        held,
        {"index": parsed},
        lambda base, new: setitem_p.bind(base, new, *held, index=parsed),
    )
    if common.operand_type(out).ndim == 0:
        out.array0d = True
    if not dynamic:
        out.layout = _view_layout(x, parsed)
    return out


def element(x: Any) -> Any:
    """``x[()]`` of a 0-d value: a NumPy scalar, where a kernel such as ``np.where`` or
    ``np.tensordot`` gives a 0-d array but the NumPy function a composite stands for gives a
    scalar (``np.nanmean``, ``np.inner``)."""
    return getitem_p.bind(x, index=parse_index(())[0])


def _view_layout(x: tensor.SymbolicTensor, index: Index) -> str | None:
    """``"C"`` when the view ``x[index]`` is known C-contiguous (so a reshape of it is a view too),
    as NumPy's flags say of the same view of a stand-in of ``x``'s shape and C strides that owns
    no memory."""
    shape = x.type.shape
    if x.layout != "C" or None in shape:
        return None
    strides = [math.prod(shape[i + 1 :]) for i in range(len(shape))]  # type: ignore[arg-type]
    stand_in = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape, strides)
    return "C" if stand_in[index.build(())].flags.c_contiguous else None


def _is_basic(index: Index, dynamic: Sequence[Any]) -> bool:
    """Whether ``index`` is NumPy basic indexing: no integer array or boolean mask in it."""
    for item in index.items:
        if isinstance(item, StaticArray):
            return False
        if isinstance(item, Arg) and common.operand_type(dynamic[item.k]).ndim > 0:
            return False
        if isinstance(item, Arg) and common.operand_type(dynamic[item.k]).dtype.kind == "b":
            return False
    return True


def _picks_element(index: Index, x: types.TensorType) -> bool:
    """Whether a basic ``index`` gives a NumPy scalar: an int for every dim, nothing else."""
    ints = [i for i in index.items if isinstance(i, (int, Arg))]
    return len(ints) == len(index.items) == x.ndim


# ---- setitem -----------------------------------------------------------------------------


def _setitem_impl(x: Any, value: Any, *args: Any, index: Index) -> Any:
    out = np.array(x)
    out[index.build(args)] = value
    return out


def _setitem_rule(
    x: types.TensorType, value: types.TensorType, *arg_types: types.TensorType, index: Index
) -> types.TensorType:
    if x.weak:
        raise errors.DTypeError(f"setitem: a Python scalar ({x}) does not support item assignment")
    target = indexed_shape(x, arg_types, index, "setitem")
    dims = list(value.shape)
    while len(dims) > len(target) and dims[0] in (1, None):
        dims.pop(0)  # NumPy drops leading unit dims of the assigned value
    if not common.broadcastable_to(tuple(dims), target):
        raise errors.ShapeError(
            f"setitem: could not broadcast a value of shape {common.fmt(value.shape)} into "
            f"x{index!r} of shape {common.fmt(target)} (x has shape {common.fmt(x.shape)})"
        )
    return x


setitem_p = primitives.Primitive("setitem", _setitem_impl, _setitem_rule, layout="K")


def setitem(x: Any, index: Any, value: Any) -> Any:
    """The functional form of ``x[index] = value``: returns the updated copy of ``x``.

    ``value`` is cast to the dtype of ``x`` as NumPy assignment does; it must broadcast to the shape
    of ``x[index]``.

    Raises:
      IndexingError: the index does not fit the shape of ``x``.
      ShapeError: ``value`` does not broadcast to the indexed shape.
    """
    parsed, dynamic = parse_index(index)
    if isinstance(value, (list, tuple)):
        value = join.as_array(value)
    return setitem_p.bind(x, value, *dynamic, index=parsed)


# ---- index_add -------------------------------------------------------------------------------


def _index_add_impl(base: Any, update: Any, *args: Any, index: Index) -> Any:
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
    index: Index,
) -> types.TensorType:
    target = indexed_shape(base, arg_types, index, "index_add")
    if not common.broadcastable_to(update.shape, target):
        raise errors.ShapeError(
            f"index_add: an update of shape {common.fmt(update.shape)} does not broadcast to "
            f"{common.fmt(target)}"
        )
    return base.strong()


index_add_p = primitives.Primitive("index_add", _index_add_impl, _index_add_rule)
