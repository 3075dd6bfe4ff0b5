"""What a ``for`` loop over tensors iterates: ranges with tensor bounds, tensors, tensor lists,
``enumerate`` and ``zip`` of those (and of lists of Python numbers); and the rest of a Python loop
whose ``break`` turned out to depend on a tensor (``remaining``).

Each is a ``TensorIterable``: a length known when the graph runs and an item for a (symbolic) index,
which is how ``runtime.for_stmt`` turns the loop into a ``while_loop`` over an index counter.
Loop indices are Python ints in eager code, so the counter and ``range`` items are weak. Python
code that iterates one itself (a generator expression over ``zip(x, x[1:])``) gets Python's own
``zip`` or ``enumerate`` when the length is static; otherwise that is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ops import creation, effects, elementwise, lists
from tograph.staging import control_flow
from tograph.trace import tensor


class TensorIterable:
    """Something a tensor loop can walk: ``length`` items, ``item(i)`` for index ``i``."""

    length: Any

    def has_next(self, index: Any) -> Any:
        return index < self.length

    def item(self, index: Any) -> Any:
        raise NotImplementedError

    def __iter__(self) -> Any:
        raise errors.TracerError(
            "a sequence whose length is known only when the graph runs (a range with a tensor "
            "bound, a list grown in a loop over tensors, or an enumerate or zip of one) is "
            "iterated by Python code (a comprehension, a generator expression, list(), sum(), "
            "max()): only a for statement over it becomes a loop in the graph",
            hint="write the loop as a for statement",
        )


class TensorRange(TensorIterable):
    """``range(start, stop, step)`` where some bound is a tensor."""

    def __init__(self, *args: Any):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        self.start, self.stop, self.step = start, stop, step
        if isinstance(step, tensor.Symbolic):
            control_flow.cond(step == 0, _zero_step, _no_error, (), ())
            self.length = np.maximum(-((start - stop) // step), 0)  # ceil((stop - start) / step)
            return
        if step == 0:
            raise ValueError("range() arg 3 must not be zero")
        span = stop - start if step > 0 else start - stop
        self.length = np.maximum((span + abs(step) - 1) // abs(step), 0)

    def item(self, index: Any) -> Any:
        if (
            isinstance(self.start, int)
            and self.start == 0
            and isinstance(self.step, int)
            and self.step == 1
        ):
            return index
        value = self.start + index * self.step
        # range yields Python ints even for NumPy bounds: the item is weak like the index.
        if isinstance(value, tensor.TensorBase) and not value.type.weak:
            value = elementwise.astype_p.bind(value, dtype=np.dtype(np.int64), weak=True)
        return value

    def __reversed__(self) -> TensorRange:
        """``reversed(range(...))``: the same items, last first."""
        last = self.start + (self.length - 1) * self.step
        return TensorRange(last, self.start - self.step, -self.step)


def _zero_step() -> tuple[()]:
    """The branch a ``range`` whose tensor step is zero takes: Python's error."""
    effects.raise_(ValueError("range() arg 3 must not be zero"))
    return ()


def _no_error() -> tuple[()]:
    return ()


class _SequenceIterable(TensorIterable):
    """A tensor's first axis, or a tensor list."""

    def __init__(self, items: Any):
        self.items = items
        if isinstance(items, lists.SymbolicList):
            self.length = lists.length(items)
        elif items.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        else:
            self.length = items.shape[0]

    def item(self, index: Any) -> Any:
        return self.items[index]


class TensorEnumerate(TensorIterable):
    """``enumerate(items, start)`` over a tensor iterable."""

    def __init__(self, items: Any, start: Any = 0):
        self.items = items
        self.inner = _require(items)
        self.start = start
        self.length = self.inner.length

    def __iter__(self) -> Any:
        """Python's own enumerate when the length is static (a comprehension over it)."""
        if isinstance(self.length, int):
            return enumerate(self.items, self.start)
        return super().__iter__()

    def item(self, index: Any) -> Any:
        count = index if isinstance(self.start, int) and self.start == 0 else index + self.start
        return (count, self.inner.item(index))


class TensorZip(TensorIterable):
    """``zip(*items)`` where some item is a tensor iterable; stops at the shortest."""

    def __init__(self, *items: Any):
        self.items = items
        self.inners = [_require(i) for i in items]
        self.length = self.inners[0].length
        for inner in self.inners[1:]:
            if isinstance(self.length, int) and isinstance(inner.length, int):
                self.length = min(self.length, inner.length)  # static: the loop's trips known
            else:
                self.length = np.minimum(self.length, inner.length)

    def item(self, index: Any) -> Any:
        return tuple(inner.item(index) for inner in self.inners)

    def __iter__(self) -> Any:
        """Python's own zip when the length is static (a comprehension over it)."""
        if isinstance(self.length, int):
            return zip(*self.items)
        return super().__iter__()


class _NumberTable(TensorIterable):
    """A Python list or tuple of numbers of one type zipped with tensors: its items are read at
    the loop's index from a constant of the graph, as the Python numbers they are (weak)."""

    def __init__(self, values: Sequence[Any]):
        self.table = creation.constant(np.array(values), frozen=_TABLE_FROZEN)
        self.length = len(values)

    def item(self, index: Any) -> Any:
        value = self.table[index]
        return elementwise.astype_p.bind(value, dtype=value.dtype, weak=True)


_TABLE_FROZEN = "a list of numbers zipped with tensors is read only"


def numbers_of_one_type(values: Sequence[Any]) -> bool:
    """Whether ``values`` are Python ints (within int64) or floats, all of one type, as a
    list of numbers indexed by a tensor must be to become an array of its items."""
    kinds_seen = {type(v) for v in values}
    if len(kinds_seen) != 1 or kinds_seen.pop() not in (int, float):
        return False
    return not isinstance(values[0], int) or all(-(2**63) <= v < 2**63 for v in values)


def as_tensor_iterable(value: Any) -> TensorIterable | None:
    """The tensor iterable for ``value``, or None if Python can iterate it itself."""
    if isinstance(value, TensorIterable):
        return value
    if isinstance(value, (tensor.SymbolicTensor, lists.SymbolicList)):
        return _SequenceIterable(value)
    return None


def _require(items: Any) -> TensorIterable:
    found = as_tensor_iterable(items)
    if found is not None:
        return found
    if isinstance(items, range):
        return TensorRange(items.start, items.stop, items.step)
    if type(items) in (list, tuple) and numbers_of_one_type(items):
        return _NumberTable(items)
    raise errors.UnsupportedError(
        f"zip/enumerate mixing tensors with a {type(items).__name__}",
        construct="zip/enumerate of tensors and Python sequences",
    )


def remaining(iterable: Any, items: Any, position: int) -> Any:
    """The items a Python ``for`` loop over ``iterable`` has yet to take from its iterator
    ``items`` after ``position`` of them: a tensor range for a range, else a list.

    Raises:
      UnsupportedError: the iterator runs code to make each item (``map``, ``filter``, a
        generator), or is one the function made with ``iter()`` and may read again: which items
        it makes, or where it stops, would depend on the tensor break flag.
    """
    if isinstance(iterable, range):
        rest = iterable[position:]
        return TensorRange(rest.start, rest.stop, rest.step)
    if isinstance(iterable, np.ndarray) and iterable is not items:  # an array made while tracing
        return list(items)
    if iterable is items and type(items) in _FORWARD_ITERATORS:
        raise errors.UnsupportedError(
            "a break that depends on a tensor in a loop over an iterator made with iter(), which "
            "the function may read again: where it stops would be known only when the graph runs",
            construct="break on a tensor in a loop over an iterator",
        )
    if not _without_effects(items):
        raise errors.UnsupportedError(
            "a break that depends on a tensor in a loop over an iterator that runs code to make "
            f"each item ({type(items).__name__})",
            construct="break on a tensor in a loop over an iterator",
        )
    return list(items)


_CONTAINERS = (list, tuple, str, bytes, range, dict)
_FORWARD_ITERATORS = frozenset(
    type(iter(c)) for c in ([], (), "", b"", range(0), {}, {}.values(), {}.items())
)
_CONTAINER_ITERATORS = _FORWARD_ITERATORS | frozenset(
    type(reversed(c)) for c in ([], range(0), {}, {}.values(), {}.items())
)


def _without_effects(items: Any) -> bool:
    """Whether taking the items of ``items`` runs no code: an iterator over a built-in container,
    or ``enumerate``, ``zip`` or ``reversed`` of such (seen through their pickling state)."""
    if type(items) in _CONTAINERS or type(items) in _CONTAINER_ITERATORS:
        return True
    if type(items) not in (enumerate, zip, reversed):
        return False
    parts = items.__reduce__()[1]
    return all(isinstance(p, int) or _without_effects(p) for p in parts)
