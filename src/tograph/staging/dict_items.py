"""Entries of a dict from before a tensor ``if`` or loop, set inside it through a name the op
does not carry: ``add_entry(d, "a", v)`` in a branch, where the called function writes
``d[key] += v`` to the very dict the branch reached through its closure.

Stage: staging. A dict the op carries as a variable of its state is a copy there, whose changes
are the state's (``trace.containers``). Any other dict from before the op would be changed once,
while the branch or body is traced, whatever path eager takes. Instead each entry written there
goes through an ``ItemCell``, as an attribute of an object made in the function goes through its
``made_objects.AttributeCell``: the value still lives in the dict (later reads are plain reads),
but the write is noted in the branch's or body's builder as an array written in place is, so
``staging.control_flow`` carries the entry as state of the op (each trace undone once recorded,
a loop loading the carried value before each trace) and sets the op's result in the dict
afterwards, where every name for the dict sees it. A key that the op may leave unset, a dict
bound to two names the op may carry apart (``b = a``), a frozen one and a key that is not a
string or an int fall back.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

from typing import Any

from tograph import errors, origin
from tograph.staging import carried, objects, optional
from tograph.trace import builder as builder_mod
from tograph.trace import containers

_CONSTRUCT = "change of an outer dict inside tensor control flow"


class ItemCell:
    """Entry ``key`` of ``owner``, a dict from before the tensor op being traced, as tensor control
    flow carries it (the interface of ``trace.functional.Storage``: ``current``, ``born``,
    ``set``, ``load``): its value is the dict's own, ``missing`` while it has none."""

    __slots__ = ("owner", "key", "born", "missing")

    def __init__(self, owner: dict[Any, Any], key: Any, born: builder_mod.GraphBuilder):
        self.owner = owner
        self.key = key
        self.born = born
        self.missing = carried.Undefined(self.label)

    @property
    def label(self) -> str:
        return f"dict[{self.key!r}]"

    @property
    def current(self) -> Any:
        return self.owner.get(self.key, self.missing)

    def set(self, value: Any, note: bool = True) -> None:
        """Gives the dict ``value`` under the key (``missing``: none); one that exists on some
        paths only (an op's result) falls back: eager's dict has the key on those paths only."""
        if isinstance(value, optional.MaybeUnset):
            raise errors.UnsupportedError(
                f"key {self.key!r} of a dict from before an if or loop over tensors is set inside "
                "it on some paths only: whether the dict has the key is known only when the "
                "graph runs",
                loc=origin.current_location(),
                hint=f"give the dict a {self.key!r} entry before the if or loop",
                construct=_CONSTRUCT,
            )
        previous = self.current
        if isinstance(value, carried.Undefined):
            self.owner.pop(self.key, None)
        else:
            self.owner[self.key] = value
        if note:
            objects.note_write(self, previous)

    def load(self, value: Any) -> None:
        self.set(value)


def through_cell(owner: Any) -> bool:
    """Whether a write to ``owner`` goes through its entries' cells: a dict from before the
    tensor ``if`` or loop being traced that the op does not carry as its state."""
    builder = builder_mod.current()
    return (
        type(owner) is dict
        and builder is not None
        and builder.parent is not None
        and builder.carried_containers.get(id(owner)) is not owner
        and _born(owner, builder) is not builder
    )


def set_item(owner: dict[Any, Any], key: Any, value: Any) -> None:
    """``owner[key] = value`` through the entry's cell (``through_cell`` holds); setting the
    entry to the very value it holds changes nothing, so nothing is carried for it."""
    builder = builder_mod.current()
    assert builder is not None  # through_cell holds
    _check_cellable(owner, key)
    if owner.get(key, carried.Undefined("")) is value:
        return
    cell(owner, key, _born(owner, builder)).set(value)


def _born(owner: Any, builder: builder_mod.GraphBuilder) -> builder_mod.GraphBuilder:
    """The builder ``owner`` is reached in without crossing a branch or body: the innermost one
    around ``builder`` whose function did not reach it through a closure."""
    found = builder
    while found.parent is not None and containers.reached_from_before(found, owner):
        found = found.parent
    return found


def _check_cellable(owner: dict[Any, Any], key: Any) -> None:
    """Refuses a write an ``ItemCell`` cannot carry exactly (see module docstring)."""
    reason = None
    if type(key) not in (str, int):
        reason = f"its key is a {type(key).__name__}, not a string or an int"
    elif containers.is_shared(owner):
        reason = "the dict is bound to two names, which the if or loop may carry apart"
    if reason is not None:
        raise errors.UnsupportedError(
            "an item assignment changes a dict from before an if or loop over tensors, inside "
            f"it, through a name the if or loop does not carry, which tograph cannot follow: "
            f"{reason}",
            loc=origin.current_location(),
            construct=_CONSTRUCT,
        )
    containers.check_frozen(owner, "an item assignment")


def cell(owner: dict[Any, Any], key: Any, born: builder_mod.GraphBuilder) -> ItemCell:
    """The one cell of entry ``key`` of ``owner`` for the graph being built."""
    root = born.root()
    found = root.item_cells.get((id(owner), key))
    if found is None or found.owner is not owner or found.born is not born:
        found = root.item_cells[(id(owner), key)] = ItemCell(owner, key, born)
    return found


def refill(owner: dict[Any, Any], values: dict[Any, Any]) -> None:
    """``owner`` (``through_cell`` holds) holding the entries of ``values`` (the same keys, in
    the same order: no op carries a deletion) after a nested ``if`` or loop, each through its
    cell."""
    if list(owner) != list(values)[: len(owner)]:
        raise errors.UnsupportedError(
            "an if or loop over tensors deletes or reorders the keys of a dict from before an "
            "if or loop around it, which tograph cannot carry",
            loc=origin.current_location(),
            construct=_CONSTRUCT,
        )
    for key, value in values.items():
        set_item(owner, key, value)
