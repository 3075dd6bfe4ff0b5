"""Python's own ordering and searching of a list, run on the items as eager code holds them.

Stage: build (ops). Input: the tensor leaves of a list's items (0-d each), the items' shapes as
templates (``$k`` where the k-th leaf goes, static values elsewhere) and each leaf's eager kind.
Output: one ``python_order`` equation whose kernel rebuilds the items when the graph runs (a
Python ``float`` or a ``np.float64`` per leaf, one object per leaf so that ``is`` holds where it
held eagerly) and asks Python itself, so NaN, ties, ``-0.0`` and mixed kinds order as eager's
``sorted`` orders them. Printed form::

    t3:i64[3] = python_order[kinds=29, op='sort', reverse=False] t0 t1 t2
    t4:i64[]~ = python_order[bounds=(), items=($0, $1, $0), kinds=29, op='count'] t0 t1

The ops: ``sort`` gives the stable permutation, ``min``/``max`` the first extreme item's
position, ``nsmallest``/``nlargest`` (``k``) the positions heapq picks; the searches take the
last item as the needle and the others as the list: ``bisect_left``/``bisect_right`` give its
insertion point, ``index``/``count``/``contains`` Python's answer by ``is`` then ``==``.
``items`` is left out when each item is one leaf, in order; ``kinds`` is one code when all leaves
share it (``types.kind_code``). A sort of one kind of real
number holding no NaN takes NumPy's stable argsort, which makes the same permutation (Python's
sort is stable and compares with ``<`` alone, as NumPy's does without NaN); any other list is
sorted by Python. Only ``index`` raises (``ValueError``, Python's message): ``passes.totality``
keeps it.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import indexing

# op -> its result: positions (i64[k]), one position (i64[]), a Python int or a Python bool
OPS = {
    "sort": "positions",
    "nsmallest": "positions",
    "nlargest": "positions",
    "min": "position",
    "max": "position",
    "index": "int",
    "count": "int",
    "bisect_left": "int",
    "bisect_right": "int",
    "contains": "bool",
}
_SEARCHES = ("index", "count", "contains", "bisect_left", "bisect_right")


def _item(template: Any, leaves: Sequence[Any]) -> Any:
    if isinstance(template, indexing.Arg):
        return leaves[template.k]
    if isinstance(template, (tuple, list)):
        return type(template)(_item(part, leaves) for part in template)
    return template


def _objects(values: Sequence[Any], kinds: int | tuple[int, ...]) -> list[Any]:
    """The leaves as eager holds them: Python numbers or NumPy scalars, a new object each."""
    if isinstance(kinds, int) and values:
        kind = types.kind_type(kinds)
        column = np.array(values, dtype=kind.dtype)
        return column.tolist() if kind.weak else list(column)  # type: ignore[no-any-return]
    codes = (kinds,) * len(values) if isinstance(kinds, int) else kinds
    return [types.of_kind(code, value) for value, code in zip(values, codes)]


def _argsort(values: Sequence[Any], kinds: int | tuple[int, ...], reverse: bool) -> Any:
    """NumPy's stable argsort where it is Python's sort (one real kind, no NaN); else None."""
    if not isinstance(kinds, int) or not values:
        return None
    dtype = types.kind_type(kinds).dtype
    if dtype.kind not in "biuf":
        return None
    keys = np.array(values, dtype=dtype)
    if dtype.kind == "f" and np.isnan(keys).any():
        return None
    if reverse:  # Python reverses, sorts stably, and reverses back: equal items keep their order
        return len(keys) - 1 - np.argsort(keys[::-1], kind="stable")[::-1]
    return np.argsort(keys, kind="stable")


def _impl(
    *values: Any,
    op: str,
    kinds: int | tuple[int, ...],
    items: tuple[Any, ...] | None = None,
    **params: Any,
) -> Any:
    if op == "sort" and items is None:
        fast = _argsort(values, kinds, params.get("reverse", False))
        if fast is not None:
            return fast
    leaves = _objects(values, kinds)
    return answer(op, leaves if items is None else [_item(t, leaves) for t in items], **params)


def answer(
    op: str, found: list[Any], reverse: bool = False, k: int = 0, bounds: tuple[int, ...] = ()
) -> Any:
    """Python's own answer for ``op`` on the objects ``found`` (for a search, the list's items
    then the needle)."""
    if op in _SEARCHES:
        *found, needle = found
        return _search(op, found, needle, bounds)
    key = found.__getitem__
    positions = range(len(found))
    if op == "sort":
        return np.array(sorted(positions, key=key, reverse=reverse), dtype=np.int64)
    if op in ("min", "max"):
        return np.int64((min if op == "min" else max)(positions, key=key))
    pick = heapq.nsmallest if op == "nsmallest" else heapq.nlargest
    return np.array(pick(k, positions, key=key), dtype=np.int64)


def _search(op: str, found: list[Any], needle: Any, bounds: tuple[int, ...]) -> Any:
    if op == "index":
        return found.index(needle, *bounds)
    if op == "count":
        return found.count(needle)
    if op == "contains":
        return needle in found
    search = bisect.bisect_left if op == "bisect_left" else bisect.bisect_right
    return search(found, needle, *bounds)


def result_length(op: str, count: int, k: int) -> int:
    """How many positions ``op`` picks from ``count`` items."""
    if op == "sort":
        return count
    return max(0, min(k, count))


def _rule(
    *in_types: types.TensorType,
    op: str,
    kinds: int | tuple[int, ...],
    items: tuple[Any, ...] | None = None,
    reverse: bool = False,
    k: int = 0,
    bounds: tuple[int, ...] = (),
) -> types.TensorType:
    if op not in OPS:
        raise errors.InternalError(f"python_order has no op {op!r}. This is a bug")
    for t in in_types:
        if t.shape != ():
            raise errors.ShapeError(f"python_order orders scalars, got a tensor of type {t}")
    shape = OPS[op]
    if shape == "positions":
        count = len(in_types) if items is None else len(items)
        return types.TensorType(np.dtype(np.int64), (result_length(op, count, k),))
    if shape == "position":
        return types.TensorType(np.dtype(np.int64), ())
    dtype = np.dtype(np.bool_) if shape == "bool" else np.dtype(np.int64)
    return types.TensorType(dtype, (), weak=True)


python_order_p = primitives.Primitive("python_order", _impl, _rule)
