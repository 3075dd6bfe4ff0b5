"""In-place updates of symbolic tensors, as NumPy's mutable arrays and their views behave.

Stage: trace. NumPy arrays are mutable and share memory through views; tograph *functionalizes*
them while it traces, as PyTorch's functionalization does. A tensor written in place gets a
``Storage``: the one mutable cell that its base array and every view of it share, holding the
base's current value. A write computes the new value functionally (a ``setitem``, an ``add``),
carries it back through the view's steps into the base (each ``ViewStep.update``) and bumps the
storage's version; a view whose version is stale derives its value again from the base, replaying
its steps (``ViewStep.apply``), the first time it is read. Python's own aliasing (``w = z``) needs
nothing: both names hold the same tensor object.

Each write is noted in the builder it happens in (``GraphBuilder.note_write``), so that tracing a
branch or a loop body learns which arrays from outside it changes: those become extra results of
the ``cond`` or ``while_loop`` (``staging.control_flow``), and a graph input written in place is
written back into the caller's array after the graph runs (``staging.build_graph``).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from tograph import errors, origin
from tograph.trace import context

_versions = itertools.count(1)


@dataclasses.dataclass(frozen=True, eq=False)
class ViewStep:
    """One step from an array to a view of it (``x[1:]``, ``x.T``, ``x.reshape(...)``).

    The view is ``prim(array, *operands, **params)``, a primitive whose kernel returns a NumPy
    view (so the step also replays on a real array: a result that is a view of an argument is
    made a view of the caller's array). ``update`` gives the array's value after the view's value
    changed, or is None for a read-only view (``np.broadcast_to``).
    """

    prim: Any
    operands: tuple[Any, ...]
    params: dict[str, Any]
    update: Callable[[Any, Any], Any] | None

    def apply(self, base: Any) -> Any:
        """The view of ``base`` (a tensor) this step takes."""
        return self.prim.bind(base, *self.operands, **self.params)


class Storage:
    """The mutable cell shared by an array and its views: the base array's current value.

    Attributes:
      current: the base's value now, a plain symbolic tensor (no storage of its own).
      version: changes on every write, so views know when to derive their values again.
      born: the builder that was current when the storage was made; a branch or loop body traced
        in a child builder carries out the writes to storages born outside it.
      origin: what the array is, for messages and for writes that cannot be traced: e.g. a graph
        input (``input``), or ``None`` for an array computed in the function.
      frozen: why the array must not be written (a global array read into the graph), or None.
      twins: storages of graph inputs that are the very same array as this one (``f(a, a)``):
        a write to one is a write to all of them.
      path_aliases: arrays that the array shares memory with on some paths of a tensor ``if``
        or loop, or for some memory layouts, only (the graph's value is a copy): returned beside
        them, the result's memory sharing would not be eager's.
      alias_argument: whether returning the array when one of ``path_aliases`` is an argument
        is refused too (a reshape, whose sharing depends on the layout). After an ``if`` or
        loop an argument returned on some paths is followed by its identity tag instead.
      alias_loc: the user's line where ``path_aliases`` were found, for the fallback reason.
      identity: the base's identity tag (``SymbolicTensor.identity``), which its views derive
        theirs from.
      began: the graph value the base held when the storage was made (a graph input's var for
        an argument's array).
    """

    __slots__ = (
        "current",
        "version",
        "born",
        "frozen",
        "twins",
        "path_aliases",
        "alias_argument",
        "alias_loc",
        "identity",
        "began",
    )

    def __init__(self, current: Any, born: Any):
        self.current = current
        self.version = next(_versions)
        self.born = born
        self.frozen: str | None = None
        self.twins: list[Storage] = []
        self.path_aliases: list[Any] = []
        self.alias_argument = False
        self.alias_loc: errors.SourceLocation | None = None
        self.identity: Any = None
        self.began = current._var

    @property
    def label(self) -> str:
        """How messages and graph names call the array."""
        hint = self.current.graph_var.hint or "array"
        # a loop carry named by its label is named so once, however deep the loops nest
        return hint if hint.endswith(" (written in place)") else f"{hint} (written in place)"

    def load(self, value: Any) -> None:
        """Makes ``value`` (a tensor a loop carries) the base's value."""
        self.set(value.plain())

    def set(self, value: Any, note: bool = True) -> None:
        """Makes ``value`` (a plain symbolic tensor) the base's value; notes the write in the
        builder being traced (with the value before it, which a branch trace restores)."""
        for storage in (self, *self.twins):
            previous, storage.current = storage.current, value
            storage.version = next(_versions)
            if note:
                builder = context.current()
                if builder is not None:
                    builder.note_write(storage, previous)


def snapshot(tensor: Any) -> Any:
    """A new tensor with no storage for the value ``tensor`` holds now."""
    var, builder = resolve(tensor)
    return type(tensor)(var, builder)


def storage_of(tensor: Any) -> Storage:
    """The storage of ``tensor``, made on first need (a fresh value becomes a base)."""
    if tensor._storage is None:
        tensor._storage = Storage(type(tensor)(tensor._var, tensor._builder), tensor._builder)
        tensor._storage.identity = getattr(tensor, "identity", None)
        tensor._path = ()
        tensor._seen = tensor._storage.version
    storage: Storage = tensor._storage
    return storage


def new_base(tensor: Any) -> None:
    """Makes ``tensor``, a new array sharing the graph value of one made elsewhere (a copy),
    a base array made where tracing is now: a branch or loop body that makes and writes it
    writes an array of its own, not one from outside it."""
    storage = storage_of(tensor)
    storage.born = context.current() or storage.born


def make_view(view: Any, source: Any, step: ViewStep) -> Any:
    """Marks ``view`` (just computed from ``source``) as a view of ``source``'s storage."""
    storage = storage_of(source)
    view._storage = storage
    view._path = (*source._path, step)
    view._seen = storage.version
    return view


def resolve(tensor: Any) -> tuple[Any, Any]:
    """The graph var ``tensor`` holds now and its builder (a stale view derives them again)."""
    storage: Storage | None = tensor._storage
    if storage is None:
        return tensor._var, tensor._builder
    if not tensor._path:
        return storage.current._var, storage.current._builder
    if tensor._seen != storage.version:
        value = storage.current
        for step in tensor._path:
            value = step.apply(value)
        tensor._var, tensor._builder = resolve(value)
        tensor._seen = storage.version
    return tensor._var, tensor._builder


def assign(target: Any, value: Any) -> None:
    """Writes ``value`` (the whole new value of ``target``: same shape and dtype) into
    ``target`` in place: into its base through its view steps, and so into every alias.

    Raises:
      ValueError: ``target`` is a read-only view (as NumPy raises).
      UnsupportedError: the array may not be written while tracing (``Storage.frozen``).
    """
    storage = storage_of(target)
    if storage.frozen is not None:
        raise errors.UnsupportedError(storage.frozen, construct="in-place write to shared state")
    new = snapshot(value)
    if target._path:
        bases = [storage.current]
        for step in target._path[:-1]:
            bases.append(step.apply(bases[-1]))
        for step, base in reversed(list(zip(target._path, bases))):
            if step.update is None:
                raise ValueError("assignment destination is read-only")
            new = snapshot(step.update(base, new))
    storage.set(new)
    # a view derives its value from the new base when next read (``resolve``), so the graph
    # shows it as a view of the base: returned beside it, the two share memory as eager's do


def freeze(tensor: Any, reason: str) -> None:
    """Makes in-place writes to ``tensor`` (and its aliases) refused, saying ``reason``."""
    storage_of(tensor).frozen = reason


def _add_aliases(storage: Storage, values: Sequence[Any]) -> None:
    """Adds ``values`` to ``storage.path_aliases``, each once: passed on from alias to alias
    through nested ifs and loops, repeats would grow the list without bound."""
    known = {id(v) for v in storage.path_aliases}
    for value in values:
        if id(value) not in known:
            known.add(id(value))
            storage.path_aliases.append(value)


def freeze_path_alias(
    tensor: Any,
    outers: list[Any],
    reason: str,
    alias_argument: bool = False,
    passed_on: bool = True,
) -> None:
    """Marks ``tensor``, a value that shares memory with ``outers`` at run time on some paths
    (of a tensor ``if`` or loop) or memory layouts only: writes to it and to them are refused,
    and it remembers them (``Storage.path_aliases``, ``Storage.alias_argument``) so that
    returning it beside them (or, with ``alias_argument``, when one is an argument) is refused
    too. With ``passed_on``, an outer that is itself such a value passes its own on: a reshape
    of a reshape of an argument's slice may share memory with the argument."""
    freeze(tensor, reason)
    storage = storage_of(tensor)
    for outer in outers:
        freeze(outer, reason)
        inner = storage_of(outer)
        if passed_on:
            _add_aliases(storage, inner.path_aliases)
            storage.alias_argument = storage.alias_argument or inner.alias_argument
    _add_aliases(storage, outers)
    storage.alias_argument = storage.alias_argument or alias_argument
    storage.alias_loc = origin.current_location()
