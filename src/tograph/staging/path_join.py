"""Joining the paths of an ``if`` or ``while`` over tensors: what its results are to later code.

Stage: staging. Input: the traces of an op's branches or body (``staging.subtrace``), the values
before it and the op's outputs. Output: the variables' values after it, where a variable holding
the caller's list or dict on every path is that very container again (refilled), and the arrays
after it frozen where eager code would share memory, or be one array, on some paths only (a write
through them, or handing them to the caller together, then falls back: ``trace.functional``).
Requires: a graph being built. ``staging.control_flow`` calls it after emitting each op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ops import lists
from tograph.staging import carried, dict_items, identity, subtrace
from tograph.trace import containers, context, functional, tensor


def freeze_appended_results(sides: Sequence[Sequence[Any]], leaves: Sequence[Any]) -> None:
    """Freezes each output of an op that a branch or the body hands back as an array appended to
    a tensor list there: a write to it after the op would change the list's item in eager code."""
    for side in sides:
        for j, leaf in enumerate(side):
            if j < len(leaves) and lists.is_appended(leaf) and subtrace.unfrozen_array(leaves[j]):
                functional.freeze(leaves[j], lists.APPENDED)


def restore_containers(
    traces: Sequence[subtrace.Trace],
    outer: Sequence[Any],
    after: Sequence[Any],
    names: Sequence[str],
    zero_trips: bool,
) -> tuple[Any, ...]:
    """``after`` (the variables after an if or loop) where each variable that holds a caller's
    list or dict on every path is that very container again, refilled with the values ``after``
    gives it (so that later changes reach the caller); one that holds it on some paths only (a
    loop may run no time: the start is one path) refuses later changes."""
    same = set.intersection(*(t.same_containers for t in traces))
    mixed = set.union(*(t.same_containers for t in traces)) - same
    if zero_trips:
        mixed |= set.union(*(t.other_containers for t in traces))
    for i in mixed:
        if type(after[i]) in (list, dict):
            reason = (
                f"'{names[i]}' is the caller's list or dict on some paths and another container "
                "on others, so a change to it would reach the caller's only on some paths"
            )
            containers.freeze(after[i], reason)
    restored = list(after)
    for i in same:
        restored[i] = _refill(outer[i], after[i])
    _follow_tensor_lists(traces, outer, restored, names, zero_trips)
    return tuple(restored)


def _follow_tensor_lists(
    traces: Sequence[subtrace.Trace],
    outer: Sequence[Any],
    after: Sequence[Any],
    names: Sequence[str],
    zero_trips: bool,
) -> None:
    """Marks each tensor list after an if or loop as standing for the caller's list that the one
    before it stood for, when every branch or the body hands back a change of that one; a
    variable that stands for it on some paths only (a loop that may run no time keeps it) is
    refused, since a change to it would reach the caller's list on those paths only."""
    for i, value in enumerate(outer):
        if not isinstance(value, lists.SymbolicList) or value.stands_for is None:
            continue
        container = value.stands_for
        kept = [_returned_standing(t, i) is container for t in traces]
        if all(kept) and isinstance(after[i], lists.SymbolicList):
            after[i].stands_for = container
            containers.note_version(after[i])
        elif any(kept) or zero_trips:
            raise errors.UnsupportedError(
                f"'{names[i]}' is the caller's list on some paths of an if or loop over tensors "
                "and another list on others, so a change to it would reach the caller's list "
                "only on some paths",
                loc=origin.current_location(),
                construct="change of an argument list or dict inside tensor control flow",
            )


def _returned_standing(trace: subtrace.Trace, i: int) -> Any:
    """The caller's list that variable ``i`` as ``trace`` returned it stands for, if any."""
    result = trace.result
    if not isinstance(result, tuple) or len(result) <= i:
        return None
    value = result[i]
    return value.stands_for if isinstance(value, lists.SymbolicList) else None


def _refill(original: Any, values: Any) -> Any:
    """``original`` (a list or dict) holding the items of ``values`` instead (a change of it,
    if it is the state of the body around: ``containers.note_changed``; through its entries'
    cells if it is a dict from before the op around that the op does not carry)."""
    containers.note_changed(original)
    if dict_items.through_cell(original):
        dict_items.refill(original, values)
    elif type(original) is dict:
        original.clear()
        original.update(values)
    else:
        original[:] = values
    return original


def freeze_shared_outputs(
    traces: Sequence[subtrace.Trace], sides: Sequence[carried.Flat], leaves: list[Any], joined: Any
) -> None:
    """Freezes the op's outputs that hold one array made inside a branch or loop body on some
    path (``a, b = v, v[1:]``, ``a = b = v``), or that may share memory with one by a reshape
    of an unknown layout: the op's outputs are separate arrays, so a write through one would
    not show in the other, nor would they share memory as eager's do. Writing either, or
    returning them together, falls back (``functional.freeze_path_alias``)."""
    for trace, side in zip(traces, sides):
        groups: dict[int, set[int]] = {}
        for j, leaf in enumerate(side.leaves):
            if joined[j] is None or not isinstance(leaf, tensor.SymbolicTensor):
                continue
            storage = leaf._storage
            for base in [leaf, *(storage.path_aliases if storage is not None else ())]:
                if _made_here(base, trace):
                    key = id(base if base._storage is None else base._storage)
                    groups.setdefault(key, set()).add(j)
        for group in (sorted(g) for g in groups.values() if len(g) > 1):
            reason = (
                f"'{side.paths[group[0]]}' and '{side.paths[group[1]]}' are one array (or views "
                "of one) made inside a branch or loop body over tensors, which the graph carries "
                "as separate arrays, so an in-place write to one would not reach the other"
            )
            for j in group:
                functional.freeze_path_alias(
                    leaves[j], [leaves[k] for k in group if k != j], reason
                )


def _made_here(value: Any, trace: subtrace.Trace) -> bool:
    """Whether ``value`` is an array made in ``trace`` (not one that entered it, which its
    identity tag follows)."""
    if not isinstance(value, tensor.SymbolicTensor) or not value.is_array:
        return False
    storage = value._storage
    born = value._builder if storage is None else storage.born
    began = value._var if storage is None else storage.began
    entered = any(began is var for var in trace.inputs)
    return not entered and subtrace.made_within(born, trace.builder)


_AMBIGUOUS = (
    "'{}' is the same array as before on some paths and another array on others, so an "
    "in-place write to it (or a view of it) would reach the old array only on some paths"
)


_PATH_IDENTITY = (
    "'{}' and '{}' are one array (or views of one) on some paths of the {} and two arrays on "
    "others, so a write to either, or returning both, would match eager code on some paths only"
)


_PATH_ALIAS = (
    "'{}' is an array from before the {} (or a view of one) on some paths and another array on "
    "others, so an in-place write to either would reach the other only on some paths"
)


def positions(flat: carried.Flat, out: carried.Flat) -> dict[int, int]:
    """Each of ``flat``'s leaf positions (the variables entering an if) -> the position of the
    same leaf among a branch's results ``out``, where an optional variable has two leaves (its
    present flag, its value) and cells written in place follow the variables. A leaf whose
    path is not once among ``out``'s (an optional's) has no position: it is not the incoming
    value after the if."""
    if out.paths[: len(flat.paths)] == flat.paths:
        return {i: i for i in range(len(flat.paths))}
    where: dict[str, list[int]] = {}
    for j, path in enumerate(out.paths):
        where.setdefault(path, []).append(j)
    return {i: where[p][0] for i, p in enumerate(flat.paths) if len(where.get(p, ())) == 1}


def freeze_ambiguous(flat: carried.Flat, after: Sequence[Any], mixed: set[int] | None) -> None:
    """Refuses later in-place writes through variables that are the incoming array on one path
    and a new array on another, and to that incoming array: after an if, the leaves in ``mixed``
    (kept by one branch only); after a loop (``mixed`` None), every array variable it rebinds
    (it may run no time). Unless an identity tag follows which array such a variable is, it
    may not be handed to the caller beside the incoming array either."""
    for i, (path, leaf, value) in enumerate(zip(flat.paths, flat.leaves, after)):
        if (
            not (subtrace.is_array(leaf) and isinstance(value, tensor.SymbolicTensor))
            or value is leaf
        ):
            continue
        if mixed is None or i in mixed:
            reason = _AMBIGUOUS.format(path)
            if value.identity is None:
                # no identity tag says when ``value`` is ``leaf`` (an array made in the
                # function): handing both (or views of both) over would lose eager's sharing.
                # What ``leaf`` may share is left where it was: ``value`` is a new array on
                # the paths that rebind it.
                functional.freeze_path_alias(value, [leaf], reason, passed_on=False)
            else:
                functional.freeze(value, reason)
                functional.freeze(leaf, reason)


def freeze_tagged_cells(
    tagged: Sequence[tuple[int, str]], variables: set[int], leaves: list[Any], joined: Any
) -> None:
    """Refuses in-place writes to an attribute (or another cell) the branches leave holding
    different arrays from before, or one from before and a new one (its identity tag says
    which): a write would reach the caller's array on some paths only, and the graph writes a
    value the tag then drops. ``freeze_ambiguous`` does the same for variables."""
    for j, path in tagged:
        if j not in variables and joined[j] is not None:
            functional.freeze(leaves[j], _AMBIGUOUS.format(path))


def _outer_of(trace: subtrace.Trace, flat: carried.Flat, value: Any) -> Any:
    """The array from before ``trace`` (a variable's, or one it reads) that ``value``, returned
    by the trace, is or is a view of; None for an array made in the trace or not an array."""
    if not subtrace.is_array(value):
        return None
    storage = value._storage
    for outer, inner in zip(flat.leaves, trace.inner):
        if not subtrace.is_array(outer):
            continue
        if value is outer or value is inner:
            return outer
        if storage is not None and (storage is outer._storage or storage is inner._storage):
            return outer
    born = value._builder if storage is None else storage.born
    return None if subtrace.made_within(born, trace.builder) else value


def _one_array_of(value: Any, groups: dict[int, tuple[Any, Any]]) -> Any:
    """The array standing for ``value``'s group of control-flow outputs that are one array on
    every path (``groups``: ``freeze_path_identities``), or ``value`` itself."""
    entry = groups.get(id(value))
    while entry is not None and entry[0] is value and entry[1] is not value:
        value = entry[1]
        entry = groups.get(id(value))
    return value


def _relation(a: Any, b: Any, groups: dict[int, tuple[Any, Any]]) -> tuple[bool, bool]:
    """Whether two arrays are one, and whether they share memory (views of one array)."""
    one = a is b or _one_array_of(a, groups) is _one_array_of(b, groups)
    storage = a._storage
    return (one, one or (storage is not None and storage is b._storage))


def _maybe_one(a: Any, b: Any) -> bool:
    """Whether an earlier ``if`` or loop left ``a`` and ``b`` one array on some paths only
    (``freeze_path_identities`` made them path aliases of each other)."""
    aliases = a._storage.path_aliases if a._storage is not None else ()
    return any(o is b or (o._storage is not None and o._storage is b._storage) for o in aliases)


def outer_leaves(leaves: Sequence[Any], trace: subtrace.Trace, flat: carried.Flat) -> list[Any]:
    """A path's ``leaves`` with each that entered the branch or body as a new input replaced by
    the value from before it stands for."""
    outer = {id(inner): leaf for inner, leaf in zip(trace.inner, flat.leaves)}
    return [outer.get(id(leaf), leaf) for leaf in leaves]


def freeze_path_identities(
    paths: Sequence[Sequence[Any]], after: Sequence[Any], names: Sequence[str], what: str
) -> None:
    """Refuses writes through, and returning together, two arrays after an ``if`` or loop
    that are one array (or share memory) on some of its ``paths`` (each path's leaves, in the
    order of ``after``) and not on others: the graph's results are apart or together alike on
    every path (``BuiltGraph.apart`` copies one when they share), eager code's are not. A path
    where either is not set yet (a return value) is not one that hands them over."""
    root = context.current().root()
    groups = root.one_array
    arrays = [j for j, value in enumerate(after) if subtrace.is_array(value)]
    for n, j in enumerate(arrays):
        for k in arrays[n + 1 :]:
            if after[j] is after[k]:
                continue
            pairs = [
                (leaves[j], leaves[k])
                for leaves in paths
                if subtrace.is_array(leaves[j])
                and subtrace.is_array(leaves[k])
                and not subtrace.unset(leaves[j], root)
                and not subtrace.unset(leaves[k], root)
            ]
            relations = {_relation(a, b, groups) for a, b in pairs}
            if len(relations) > 1 or any(_maybe_one(a, b) for a, b in pairs):
                reason = _PATH_IDENTITY.format(names[j], names[k], what)
                functional.freeze_path_alias(after[j], [after[k]], reason)
                functional.freeze_path_alias(after[k], [after[j]], reason)
            elif relations == {(True, True)}:  # the executor hands over one array for both
                groups[id(after[k])] = (after[k], _one_array_of(after[j], groups))


def freeze_path_aliases(
    traces: Sequence[subtrace.Trace],
    flat: carried.Flat,
    outs: Sequence[carried.Flat],
    after: Sequence[Any],
    joined: Sequence[Any],
    what: str,
    position: dict[int, int] | None = None,
) -> None:
    """Refuses writes through a variable that ends as an array from before the ``if`` or loop
    on some paths (a branch or the body binds it to one, ``r = x`` or ``r = x[1:]``) and as
    another array on others, and writes to that array: the op's result is a copy of it.
    ``position`` maps ``flat``'s leaves to those of ``outs``, ``after`` and ``joined`` where
    they differ (``positions``)."""
    pairs: list[tuple[int | None, int]] = list(
        position.items() if position is not None else enumerate(range(len(flat.paths)))
    )
    # the leaves of variables set on some paths only (an optional's value), which have no
    # incoming leaf; the arrays written in place (cells) follow the variables. A return value
    # not yet set (a placeholder) is never read on the paths that go on, so it is left out.
    variables = sum(tree.num_leaves for tree in outs[0].trees[: len(flat.names)])
    matched = {j for _, j in pairs}
    unset = {name for name, v in zip(flat.names, flat.values) if _placeholders_only(v)}
    pairs += [
        (None, j) for j in range(variables) if j not in matched and outs[0].roots[j] not in unset
    ]
    for i, j in pairs:
        path, value, target = outs[0].paths[j], after[j], joined[j]
        if target is None or not subtrace.is_array(value):
            continue
        # the variable's own incoming array, as it came in, is ``freeze_ambiguous``'s case
        found = [
            _outer_of(t, flat, out.leaves[j])
            for t, out in zip(traces, outs)
            if i is None or out.leaves[j] is not flat.leaves[i] and out.leaves[j] is not t.inner[i]
        ]
        outers = [outer for outer in found if outer is not None]
        if outers:
            reason = _PATH_ALIAS.format(path, what)
            functional.freeze_path_alias(value, outers, reason)


def _placeholders_only(value: Any) -> bool:
    """Whether ``value`` is a ``Placeholder``, or a structure of them only."""
    leaves = carried.flatten([value], ["v"]).leaves
    return all(isinstance(leaf, carried.Placeholder) for leaf in leaves)


def identity_tags(
    traces: Sequence[subtrace.Trace], names: Sequence[str], rebindable: Sequence[bool]
) -> list[Any]:
    """Appends to each branch's results the identity codes of the arrays of the variables and
    attributes (the ``names`` that are ``rebindable``: not arrays written in place) that may be
    an array from before on some path (``staging.identity``); returns (leaf position, path) of
    each."""
    if not all(isinstance(t.result, tuple) and len(t.result) == len(names) for t in traces):
        return []
    outs = [carried.flatten(t.result, names) for t in traces]
    if len(outs[0].leaves) != len(outs[1].leaves):
        return []
    owner_of = owners(outs[0])
    found: list[Any] = []
    codes: tuple[list[Any], list[Any]] = ([], [])
    for j, (a, b) in enumerate(zip(outs[0].leaves, outs[1].leaves)):
        if a is b or not rebindable[owner_of[j]]:
            continue
        pair = [identity.code_of(a), identity.code_of(b)]
        if identity.needs_tag(pair):
            found.append((j, outs[0].paths[j]))
            codes[0].append(pair[0])
            codes[1].append(pair[1])
    for trace, mine in zip(traces, codes):
        trace.result = (*trace.result, *mine)
    return found


def mark_arrays(leaves: Sequence[Any], joined: Sequence[Any], *sides: Sequence[Any]) -> None:
    """Marks the op's results that are 0-d arrays (not NumPy scalars) on every path as such."""
    for j, (leaf, t) in enumerate(zip(leaves, joined)):
        values = [side[j] for side in sides if not isinstance(side[j], carried.Placeholder)]
        if t is not None and values and all(_is_0d_array(v) for v in values):
            leaf.array0d = True


def _is_0d_array(value: Any) -> bool:
    """A 0-d array: a symbolic one, or a NumPy one made while tracing (``np.zeros(())``)."""
    if isinstance(value, np.ndarray):
        return value.ndim == 0
    return isinstance(value, tensor.SymbolicTensor) and value.array0d and value.type.shape == ()


def owners(flat: carried.Flat) -> list[int]:
    """For each leaf of ``flat``, the index of the named value it belongs to."""
    return [i for i, tree in enumerate(flat.trees) for _ in range(tree.num_leaves)]


def rebindable_mask(count: int, cells: Sequence[Any]) -> list[bool]:
    """Which of ``count`` variables and then ``cells`` a branch or loop may bind to another
    array (so an identity tag may follow them): all but arrays written in place (a
    ``Storage``, which stays its own array), so variables and objects' attributes."""
    return [True] * count + [not isinstance(cell, functional.Storage) for cell in cells]


def cell_name(cell: Any) -> str:
    """How messages and graph names call a cell: an array written in place (a ``Storage``) or
    an object's attribute (``objects.Cell``)."""
    return str(cell.label)
