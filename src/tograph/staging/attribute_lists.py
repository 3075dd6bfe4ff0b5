"""Lists held by attributes of the call's objects, grown inside tensor control flow
(``self.hist.append(v)`` in a ``while`` over tensors).

Stage: staging. The trace reads such an attribute as a copy of the caller's list, held by the
attribute's ``objects.Cell`` (``objects.ObjectState.read`` records it in the root builder's
``attribute_lists``). An append to it where the code runs once per call just appends to the
copy. Inside a tensor ``if`` or loop the copy becomes a tensor list standing for it, made in the
function's own graph (``lists.as_list`` in the root builder, once), and each append pushes onto
it and sets the attribute's cell to the result: the cell is noted as written, so the ``cond`` or
``while_loop`` carries the tensor list as its state, as it carries any attribute it sets (the
list it hands back stands for the copy again: ``objects.Cell.set``). The copy is followed as a
parameter's list is (``containers.register_parameter``): its last version is written into the
caller's list after the call (the attribute still holds that very list, so no attribute is
set), and later reads of the attribute see the tensor list.

Exact only while the attribute is the one way to the list. A copy given a second name
(``h = self.hist``, stored in a container: lowering wraps those in ``_t.shared``), an attribute
rebound after its list grew, a list of mixed items and a frozen one fall back; so does a list
that another attribute the trace reads holds too, and each later call is guarded against one
(``objects.DistinctLists``).
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

from typing import Any

from tograph.ops import lists
from tograph.trace import builder as builder_mod
from tograph.trace import containers

NOT_HANDLED = object()


def append(owner: Any, value: Any) -> Any:
    """``owner.append(value)`` for a list an attribute cell holds (see module docstring); returns
    None, as ``list.append`` does, or ``NOT_HANDLED`` for any other owner or where the code runs
    once per call."""
    builder = builder_mod.current()
    if builder is None:
        return NOT_HANDLED
    cell = _cell_holding(builder.root(), owner)
    if cell is None:
        return NOT_HANDLED
    if containers.is_shared(owner):
        return NOT_HANDLED  # the refusal a list known by two names gets
    if type(owner) is list:
        if builder.parent is None or not lists.one_item_type(owner):
            return NOT_HANDLED  # a plain append, or the refusal the caller's lists get
        owner = _as_tensor_list(builder.root(), cell, owner)
    cell.set(lists.push(owner, value))
    return None


def _cell_holding(root: builder_mod.GraphBuilder, owner: Any) -> Any:
    """The attribute cell whose value now is ``owner``: the copy of the caller's list it was
    read as, or a tensor list standing for that copy; None if there is none."""
    copy = owner.stands_for if isinstance(owner, lists.SymbolicList) else owner
    if type(copy) is not list:
        return None
    cell = root.attribute_lists.get(id(copy))
    if cell is None or cell.original is not copy or cell.current is not owner:
        return None
    return cell


def _as_tensor_list(root: builder_mod.GraphBuilder, cell: Any, copy: list[Any]) -> Any:
    """The tensor list standing for ``copy``, made in the function's own graph (its items are
    the list's on entry to the outermost tensor ``if`` or loop) and given to ``cell`` there,
    so that every trace of a branch or body starts from it."""
    with root.active():
        made = lists.as_list(copy)
        containers.register_parameter(copy)
        made.stands_for = copy
        containers.note_version(made)
    cell.set(made, note=False)
    return made
