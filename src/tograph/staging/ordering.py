"""Ordering and searching Python lists whose items are tensor values: ``sorted``, ``list.sort``,
``min``/``max`` with a key or of tuples, ``heapq.nsmallest``/``nlargest``, ``bisect``'s searches
and insertions, ``list.index``, ``list.count`` and ``in``, called from converted code; and
``heapq``'s in-place functions (``heappush``, ``heappop``, ...), which run as Python's own on
values known while the graph is built and are refused on tensor values.

Eager code compares the items with Python's ``<`` (``==`` for the searches) one pair at a time,
in an order fixed by CPython's algorithms; NaN, ties, ``-0.0`` and a mix of Python numbers and
NumPy scalars all show in the result. So the comparisons are not traced: the list's items (the
keys, when there is a key function, called here as converted code calls any function, once per
item in order) go to one ``python_order`` equation (``ops.python_order``) that rebuilds them as
eager's objects when the graph runs and asks Python itself for the positions; the result items
are then picked from the list by those positions, one stacked column of values per part of an
item. A list whose items and keys are all known while the graph is built is ordered at once, and so
is one whose keys are tuples with first parts known now and all different (``sorted(d.items())``
of arrays): Python compares such tuples by their first parts alone.

What cannot be picked exactly falls back, naming the construct: a list whose length is known
only when the graph runs, items that are arrays (eager's result would hold those very arrays),
complex numbers, a part of the items that is an integer in one item and a float in another, a
part that is not a number (a string) where the picks are known only when the graph runs, and keys
that are not real numbers or tuples and lists of them. A part that is a Python number in one item
and a NumPy scalar in another is picked with a kind tag (``staging.kinds``), so each picked item
is of its own kind. The handlers take the
runtime module (``rt``) first and are looked up by ``runtime.call`` in ``HANDLERS``;
``runtime.call`` also sends the bound ``sort``, ``index`` and ``count`` of a list here
(``LIST_METHODS``).
"""

from __future__ import annotations

import bisect
import functools
import heapq
import operator
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import types as ir_types
from tograph.ops import creation, elementwise, indexing, lists, python_order
from tograph.staging import builtin_calls
from tograph.trace import containers, tensor


def _refuse(construct: str, why: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{construct} of a list of tensor values: {why}",
        loc=origin.current_location(),
        construct=f"{construct} of a list of tensor values",
    )


def _items(iterable: Any, construct: str) -> list[Any]:
    """The items eager code would iterate, as a Python list."""
    if isinstance(iterable, lists.SymbolicList):
        raise _refuse(construct, "its length is known only when the graph runs")
    if isinstance(iterable, tensor.SymbolicTensor):
        if iterable.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        length = iterable.type.shape[0]
        if length is None:
            raise _refuse(construct, "the array's length is known only when the graph runs")
        return [iterable[i] for i in range(length)]
    return list(iterable)


class _Layout:
    """Items as templates over their distinct tensor leaves (one ``$k`` per tensor object, so
    that an object met twice is one object when the graph runs), with each leaf's kind code."""

    def __init__(self, construct: str, real: bool):
        self.construct = construct
        self.real = real
        self.leaves: list[Any] = []
        self.codes: list[int] = []
        self._seen: dict[int, indexing.Arg] = {}

    def template(self, value: Any) -> Any:
        if isinstance(value, tensor.SymbolicTensor):
            return self._leaf(value)
        if tensor.is_tensor(value):
            raise _refuse(self.construct, "an item is an eager tensor")
        if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
            return type(value)(self.template(part) for part in value)
        if isinstance(value, (bool, int, float)) or (
            isinstance(value, np.generic) and value.dtype.kind in "biuf"
        ):
            return value
        if not self.real and (value is None or isinstance(value, (str, complex))):
            return value
        raise _refuse(
            self.construct,
            f"Python compares a {type(value).__name__} item in ways a graph does not reproduce",
        )

    def _leaf(self, value: tensor.SymbolicTensor) -> indexing.Arg:
        known = self._seen.get(id(value))
        if known is not None:
            return known
        code = ir_types.kind_code(value.dtype, value.type.weak)
        if value.ndim != 0 or value.array0d or value.kind_tag is not None or code is None:
            raise _refuse(self.construct, _leaf_problem(value))
        if self.real and value.dtype.kind == "c":
            raise _refuse(self.construct, "complex numbers have no order")
        arg = indexing.Arg(len(self.leaves))
        self._seen[id(value)] = arg
        self.leaves.append(value)
        self.codes.append(code)
        return arg

    def kinds(self) -> int | tuple[int, ...]:
        return self.codes[0] if len(set(self.codes)) == 1 else tuple(self.codes)


def _leaf_problem(value: tensor.SymbolicTensor) -> str:
    if value.ndim != 0 or value.array0d:
        return "an item is an array, which eager's result would hold itself"
    if value.kind_tag is not None:
        return "an item is a Python number on some paths and a NumPy scalar on others"
    return f"an item is of dtype {value.dtype}, which has no eager kind"


def _positions(op: str, values: list[Any], construct: str, **params: Any) -> Any:
    """The positions ``op`` picks among ``values`` (the keys): Python's answer when every value
    is known now, else the result of one ``python_order`` equation."""
    if not tensor.contains_symbolic(values):
        return python_order.answer(op, values, **params)
    layout = _Layout(construct, real=op not in ("index", "count", "contains"))
    templates = tuple(layout.template(v) for v in values)
    plain = len(templates) == len(layout.leaves) and all(
        isinstance(t, indexing.Arg) and t.k == i for i, t in enumerate(templates)
    )
    return python_order.python_order_p.bind(
        *layout.leaves,
        op=op,
        kinds=layout.kinds(),
        **({} if plain else {"items": templates}),
        **params,
    )


# ---- picking items by positions known when the graph runs ----------------------------------


def _parts(item: Any) -> tuple[Any, list[Any]]:
    """An item's shape (tuples and lists of parts) and its parts in order."""
    if isinstance(item, (tuple, list)) and not hasattr(item, "_fields"):
        shapes, parts = [], []
        for part in item:
            shape, found = _parts(part)
            shapes.append(shape)
            parts.extend(found)
        return (type(item), tuple(shapes)), parts
    return None, [item]


def _rebuild(shape: Any, parts: list[Any]) -> Any:
    if shape is None:
        return parts.pop(0)
    kind, inner = shape
    return kind(_rebuild(s, parts) for s in inner)


def _code_of(value: Any) -> int | None:
    if isinstance(value, tensor.SymbolicTensor):
        return ir_types.kind_code(value.dtype, value.type.weak)
    if isinstance(value, (bool, int, float)):
        if isinstance(value, int) and not isinstance(value, bool) and not _fits_int64(value):
            return None
        return ir_types.kind_code(np.asarray(value).dtype, True)
    if isinstance(value, np.generic):
        return ir_types.kind_code(value.dtype, False)
    return None


def _fits_int64(value: int) -> bool:
    return -(2**63) <= value < 2**63


def _column(values: list[Any], where: Any, construct: str) -> Any:
    """The values of one part of the items, picked at ``where`` (a 0-d or 1-d tensor)."""
    if all(v is values[0] for v in values):
        return values[0] if where.ndim == 0 else [values[0]] * where.shape[0]
    for value in values:
        if isinstance(value, tensor.SymbolicTensor) and (
            value.ndim or value.array0d or value.kind_tag is not None
        ):
            raise _refuse(construct, _leaf_problem(value))
    codes = {_code_of(v) for v in values}
    if None in codes:
        odd = next(v for v in values if _code_of(v) is None)
        raise _refuse(
            construct,
            f"an item holds a {type(odd).__name__}, which a graph cannot pick by a position "
            "known only when it runs",
        )
    if len(codes) != 1:
        return _tagged_column(values, where, construct)
    kind = ir_types.kind_type(codes.pop())
    if tensor.contains_symbolic(values):
        column = np.stack([_as_tensor(v, kind) for v in values])
    else:
        column = creation.constant(np.array(values, dtype=kind.dtype))
    picked = np.take(column, where, axis=0)
    if where.ndim == 0:
        return _with_kind(picked, kind)
    return [_with_kind(picked[j], kind) for j in range(where.shape[0])]


def _tagged_column(values: list[Any], where: Any, construct: str) -> Any:
    """A part that is a Python number in some items and a NumPy scalar (or another dtype) in
    others: its values, of the dtype that holds all of them exactly, each picked with a kind tag
    (``staging.kinds``) that says which kind it is when the graph runs."""
    codes = [_code_of(v) for v in values]
    dtypes = [ir_types.kind_type(code).dtype for code in codes if code is not None]
    if len({d.kind for d in dtypes}) != 1:
        raise _refuse(
            construct,
            "a part of the items is an integer in one item and a float (or a bool) in another, "
            "so the picked part's kind would depend on the values",
        )
    joined = functools.reduce(np.promote_types, dtypes)
    if tensor.contains_symbolic(values):
        column = np.stack(
            [v.astype(joined) if tensor.is_tensor(v) else np.asarray(v, joined) for v in values]
        )
    else:
        column = creation.constant(np.array(values, dtype=joined))
    tags = creation.constant(np.array(codes, dtype=np.int8))
    picked, picked_tags = np.take(column, where, axis=0), np.take(tags, where, axis=0)
    options = frozenset(c for c in codes if c is not None)
    if where.ndim == 0:
        return _with_tag(picked, picked_tags, options)
    return [_with_tag(picked[j], picked_tags[j], options) for j in range(where.shape[0])]


def _with_tag(value: Any, tag: Any, options: frozenset[int]) -> Any:
    value.kind_tag, value.kind_options = tag, options
    return value


def _as_tensor(value: Any, kind: ir_types.TensorType) -> Any:
    return value if tensor.is_tensor(value) else np.asarray(value, dtype=kind.dtype)


def _with_kind(value: Any, kind: ir_types.TensorType) -> Any:
    """``value`` marked a Python number where the items' part is one (a gather makes none)."""
    if not kind.weak:
        return value
    return elementwise.astype_p.bind(value, dtype=kind.dtype, weak=True)


def pick(items: list[Any], where: Any, construct: str) -> Any:
    """``items[where]`` (one item) for a 0-d ``where``, ``[items[j] for j in where]`` for a 1-d
    one; a ``where`` known now picks in Python."""
    if not tensor.is_tensor(where):
        return items[int(where)] if np.ndim(where) == 0 else [items[int(j)] for j in where]
    shapes_and_parts = [_parts(item) for item in items]
    shape = shapes_and_parts[0][0]
    if any(s != shape for s, _ in shapes_and_parts):
        raise _refuse(construct, "its items are not all of one shape (tuples of one length)")
    columns = [
        _column([parts[i] for _, parts in shapes_and_parts], where, construct)
        for i in range(len(shapes_and_parts[0][1]))
    ]
    if where.ndim == 0:
        return _rebuild(shape, list(columns))
    return [_rebuild(shape, [c[j] for c in columns]) for j in range(where.shape[0])]


# ---- the handlers --------------------------------------------------------------------------


def _keys(rt: types.ModuleType, items: list[Any], key: Any) -> list[Any]:
    return items if key is None else [rt.call(key, item) for item in items]


def sorted_(
    rt: types.ModuleType, iterable: Any, /, *, key: Any = None, reverse: Any = False
) -> Any:
    """``sorted(iterable, key=..., reverse=...)``."""
    items = _items(iterable, "sorted()")
    return _sorted(rt, items, key, reverse, "sorted()")


def _sorted(rt: types.ModuleType, items: list[Any], key: Any, reverse: Any, what: str) -> Any:
    if key is None and not tensor.contains_symbolic((items, reverse)):
        return sorted(items, reverse=reverse)
    if tensor.is_symbolic(reverse):
        raise _refuse(what, "reverse= is known only when the graph runs")
    keys = _keys(rt, items, key)
    if not items:
        return []
    firsts = _deciding_first_parts(keys)
    if firsts is not None:  # ``sorted(d.items())``: the distinct keys order the pairs
        order = sorted(range(len(items)), key=firsts.__getitem__, reverse=bool(reverse))
        return [items[k] for k in order]
    order = _positions("sort", keys, what, reverse=bool(reverse))
    return pick(items, order, what)


def _deciding_first_parts(keys: list[Any]) -> list[Any] | None:
    """The first parts of tuple (or list) keys when they alone decide how Python orders the
    keys: known now, and no two the same object or equal. Python compares two tuples by their
    first parts that are not the same or equal, so the later parts (tensors, say) are never
    compared."""
    kind = type(keys[0])
    if not issubclass(kind, (tuple, list)) or not all(type(k) is kind and k for k in keys):
        return None
    firsts = [k[0] for k in keys]
    if tensor.contains_symbolic(firsts):
        return None
    for i, first in enumerate(firsts):
        for other in firsts[i + 1 :]:
            if first is other or not _surely_unequal(first, other):
                return None
    return firsts


def _surely_unequal(a: Any, b: Any) -> bool:
    try:
        equal = a == b
    except Exception:  # noqa: BLE001 - Python's comparison would raise too: leave it to it
        return False
    return isinstance(equal, (bool, np.bool_)) and not equal


def list_sort(
    rt: types.ModuleType, target: list[Any], *, key: Any = None, reverse: Any = False
) -> None:
    """``target.sort(key=..., reverse=...)``, in place."""
    target[:] = _sorted(rt, list(target), key, reverse, "list.sort()")


def _chosen(rt: types.ModuleType, op: str, n: Any, iterable: Any, key: Any) -> Any:
    what = f"heapq.{op}()"
    if tensor.is_symbolic(n):
        raise _refuse(what, "the count is known only when the graph runs")
    count = operator.index(n)
    items = _items(iterable, what)
    if count <= 0 or not items:
        return []
    at = _positions(op, _keys(rt, items, key), what, k=count)
    return pick(items, at, what)


def nsmallest(rt: types.ModuleType, n: Any, iterable: Any, key: Any = None) -> Any:
    """``heapq.nsmallest(n, iterable, key)``: the items heapq picks, in its order."""
    return _chosen(rt, "nsmallest", n, iterable, key)


def nlargest(rt: types.ModuleType, n: Any, iterable: Any, key: Any = None) -> Any:
    """``heapq.nlargest(n, iterable, key)``."""
    return _chosen(rt, "nlargest", n, iterable, key)


def _search(op: str, found: list[Any], needle: Any, bounds: tuple[Any, ...], what: str) -> Any:
    if tensor.contains_symbolic(bounds):
        raise _refuse(what, "a bound is known only when the graph runs")
    return _positions(op, [*found, needle], what, bounds=tuple(int(b) for b in bounds))


def _searched_list(a: Any, x: Any, key: Any, what: str) -> bool:
    """Whether ``a`` and ``x`` need the graph's search (else Python's own runs now)."""
    if isinstance(a, lists.SymbolicList):
        raise _refuse(what, "its length is known only when the graph runs")
    if not isinstance(a, list) or not tensor.contains_symbolic((a, x)):
        return False
    if key is not None:
        raise _refuse(what, "bisect calls key= only on the items its search visits")
    return True


def _bisect(op: str) -> Callable[..., Any]:
    python_fn = getattr(bisect, op)

    def search(
        rt: types.ModuleType, a: Any, x: Any, lo: Any = 0, hi: Any = None, *, key: Any = None
    ) -> Any:
        what = f"bisect.{op}()"
        if not _searched_list(a, x, key, what):
            return python_fn(a, x, lo, hi, key=key)
        return _search(op, a, x, (lo,) if hi is None else (lo, hi), what)

    return search


def _insort(op: str) -> Callable[..., Any]:
    python_fn = getattr(bisect, op.replace("bisect", "insort"))
    search = _bisect(op)

    def insort(
        rt: types.ModuleType, a: Any, x: Any, lo: Any = 0, hi: Any = None, *, key: Any = None
    ) -> None:
        what = f"bisect.{op.replace('bisect', 'insort')}()"
        if not _searched_list(a, x, key, what):
            python_fn(a, x, lo, hi, key=key)
            return
        containers.check_write(a, what)
        at = search(rt, a, x, lo, hi)
        slots = np.arange(len(a) + 1)
        # slot j holds a[j] before the insertion point, x (last of the grown list) at it,
        # a[j - 1] after it
        order = np.where(slots < at, slots, np.where(slots == at, len(a), slots - 1))
        a[:] = pick([*a, x], order, what)

    return insort


def _method(op: str) -> Callable[..., Any]:
    def method(rt: types.ModuleType, target: list[Any], value: Any, *bounds: Any) -> Any:
        if not tensor.contains_symbolic((target, value)):
            return getattr(target, op)(value, *bounds)
        return _search(op, target, value, bounds, f"list.{op}()")

    return method


def contains(container: Any, item: Any) -> Any:
    """``item in container``: for a Python list or tuple holding tensors, Python's ``is`` then
    ``==`` on each item in turn, decided when the graph runs."""
    if isinstance(container, (list, tuple)) and tensor.contains_symbolic((container, item)):
        return _search("contains", list(container), item, (), "in")
    return item in container


_NO_DEFAULT = object()
"""``min``/``max`` given no ``default``."""


def _extremum(smallest: bool) -> Callable[..., Any]:
    name = "min" if smallest else "max"
    plain = builtin_calls.HANDLERS[min if smallest else max]

    def extremum(
        rt: types.ModuleType, *args: Any, key: Any = None, default: Any = _NO_DEFAULT
    ) -> Any:
        given = {} if default is _NO_DEFAULT else {"default": default}
        if len(args) == 1 and isinstance(args[0], (tensor.SymbolicTensor, lists.SymbolicList)):
            if key is None:
                return plain(*args, **given)
        if not args:
            return plain(**given)  # Python's own TypeError
        items = list(args) if len(args) > 1 else _items(args[0], f"{name}()")
        if key is None and not any(isinstance(i, (tuple, list)) for i in items):
            return plain(*items, **given) if len(args) > 1 else plain(items, **given)
        if len(args) > 1 and given:
            return plain(*args, **given)  # Python's own TypeError
        if not items:
            return plain(items, **given)
        at = _positions(name, _keys(rt, items, key), f"{name}()")
        return pick(items, at, f"{name}()")

    return extremum


def _heap_change(name: str) -> Callable[..., Any]:
    """``heapq.<name>`` (heappush, heappop, heapify, ...): Python's own on values known while
    the graph is built; refused on tensor values, whose heap order would come from comparisons
    made when the graph runs, one sift at a time."""
    python_fn = getattr(heapq, name)

    def change(rt: types.ModuleType, *args: Any, **kwargs: Any) -> Any:
        if tensor.contains_symbolic((args, kwargs)) or any(
            isinstance(a, lists.SymbolicList) for a in args
        ):
            raise _refuse(
                f"heapq.{name}()",
                "the heap's order comes from comparisons known only when the graph runs",
            )
        return python_fn(*args, **kwargs)

    return change


HANDLERS: dict[Any, Callable[..., Any]] = {
    **{
        getattr(heapq, name): _heap_change(name)
        for name in ("heappush", "heappop", "heapify", "heapreplace", "heappushpop")
    },
    sorted: sorted_,
    min: _extremum(smallest=True),
    max: _extremum(smallest=False),
    heapq.nsmallest: nsmallest,
    heapq.nlargest: nlargest,
    bisect.bisect_left: _bisect("bisect_left"),
    bisect.bisect_right: _bisect("bisect_right"),
    bisect.insort_left: _insort("bisect_left"),
    bisect.insort_right: _insort("bisect_right"),
}

LIST_METHODS: dict[str, Callable[..., Any]] = {
    "sort": list_sort,
    "index": _method("index"),
    "count": _method("count"),
}
