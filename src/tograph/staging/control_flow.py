"""Tracing ``if`` and ``while`` over tensors into ``cond`` and ``while_loop`` equations.

Stage: staging. Input: what lowered code passes for a tensor-dependent ``if`` or ``while``: the
condition, the branch / loop functions, and the values of the variables they use, as pytrees
(nested tuples, lists, dicts) of symbolic tensors, Python and NumPy numbers, and static Python
values. Output: the variables' values afterwards, the tensors among them produced by one ``cond``
or ``while_loop`` equation (``ops.control``) whose params hold the traced branches / loop as
closed graphs. Requires: a graph being built (``tograph.trace.builder``).

Arrays from outside that a branch or loop body writes in place (``trace.functional``) are state
too: each trace is undone once it is recorded (the arrays hold their values from before it
again), and the values the branches or the body leave in them become extra results of the
equation, written into the arrays afterwards. A loop carries them. A variable holding such an
array (one written or viewed before: it has a storage) enters a branch or body as the very same
object, so that writing through it writes the array its aliases see; if a branch or the body
binds the variable to another array instead, it is a plain variable of the op (a loop traces
again with it carried), and if one branch keeps it and the other rebinds it the compiler falls
back, since which object the name holds afterwards would depend on the path taken. A variable
holding the caller's list or dict (``trace.containers``) is that very container again after the
op, holding the op's results, so that later changes reach the caller; one that a branch or the
body binds to another container falls back the same way. A tensor list standing for the caller's
list (``SymbolicList.stands_for``) is followed the same way: the op's result stands for it when
every path hands back a change of it, and falls back when some path does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, types
from tograph.ops import control, elementwise, lists
from tograph.staging import carried, identity, kinds, loop_hints, optional
from tograph.trace import builder as builder_mod
from tograph.trace import containers, context, functional, tensor

_MAX_LOOP_TRACES = 16
_MAX_RETRACES = 32  # traces of a loop finding new state to carry (written arrays, kinds, ...)
# branches and loop bodies traced for one graph: past it the trace is taken to grow without
# bound (a recursion that calls itself twice in a branch over tensors doubles at each level)
_MAX_TRACED_BODIES = 4096


@dataclasses.dataclass
class _Trace:
    """One traced function: its builder, its explicit inputs and what it returned, and the
    arrays from outside it that it wrote in place, with the values it left in them."""

    builder: builder_mod.GraphBuilder
    inputs: list[core.Var]
    result: Any
    written: dict[int, tuple[functional.Storage, Any]]
    # the leaves (by ``id``) that entered as new graph inputs and were written in place: they
    # must enter as themselves, so that the write reaches their aliases
    promote: set[int]
    # what each leaf entered as: itself, or the new graph input standing for it
    inner: list[Any] = dataclasses.field(default_factory=list)
    # the value each array of the result held when ``fn`` returned (by ``id``): undoing the
    # trace's writes changes what an array written in place (or a view of one) reads
    snapshots: dict[int, Any] = dataclasses.field(default_factory=dict)
    # the variables whose value is a caller's list or dict (registered) that ``fn`` returned as
    # the very copy it was given, and those it returned as another container
    same_containers: set[int] = dataclasses.field(default_factory=set)
    other_containers: set[int] = dataclasses.field(default_factory=set)

    def unchanged(self, flat: carried.Flat) -> set[int]:
        """The positions of the leaves that came back as they entered (the very object, or the
        new input standing for it): the variable still holds that object."""
        if not isinstance(self.result, tuple) or len(self.result) < len(flat.names):
            return set()
        out = carried.flatten(self.result[: len(flat.names)], flat.names)
        if len(out.leaves) != len(flat.leaves):
            return set()
        return {
            i
            for i, (leaf, inner, after) in enumerate(zip(flat.leaves, self.inner, out.leaves))
            if after is inner or after is leaf
        }


def _trace(
    parent: builder_mod.GraphBuilder,
    label: str,
    fn: Callable[..., Any],
    flat: carried.Flat,
    in_types: Sequence[Any],
    branch: bool = False,
    loop_key: Any = None,
) -> _Trace:
    """Calls ``fn`` in a child builder; the leaves that have an input type become graph inputs
    (in a ``branch``, with the identity of the arrays they stand for: ``staging.identity``). A
    loop's body and test traces are marked with its ``loop_key`` (``staging.loop_hints``).

    The arrays from outside that ``fn`` writes hold their earlier values again afterwards.
    """
    _count_traced_body(parent)
    child = parent.child(label)
    if loop_key is not None:
        child.loop_key = (loop_key, label)
    with child.active():
        leaves = [
            leaf if t is None else _input(child, leaf, t, root)
            for leaf, t, root in zip(flat.leaves, in_types, flat.roots)
        ]
        if branch:
            for leaf, inner in zip(flat.leaves, leaves):
                if inner is not leaf:
                    identity.enter(inner, leaf)
        values = flat.unflatten(leaves)
        containers.register_copies(flat.values, values)
        containers.enter_trace(fn)
        result = _latest_lists(fn(*values), len(flat.names))
        _freeze_appended_outer(flat.leaves, leaves)
        snapshots = {id(v): functional.snapshot(v) for v in _written_arrays(result)}
        same, other = _returned_containers(flat.values, values, result, flat.names)
    promote = {
        id(leaf)
        for leaf, inner in zip(flat.leaves, leaves)
        if inner is not leaf and _storage_written(inner, child)
    }
    written = {}
    for key, (storage, before) in reversed(list(child.writes.items())):
        if not _made_within(storage.born, child):
            written[key] = (storage, storage.current)
            storage.set(before, note=False)
    written = dict(reversed(list(written.items())))
    return _Trace(
        child, list(child.inputs), result, written, promote, leaves, snapshots, same, other
    )


def _count_traced_body(parent: builder_mod.GraphBuilder) -> None:
    """Counts one more branch or loop body traced for the graph ``parent`` is part of; refuses
    one past ``_MAX_TRACED_BODIES``."""
    root = _root_of(parent)
    root.traced_bodies += 1
    if root.traced_bodies > _MAX_TRACED_BODIES:
        raise errors.UnsupportedError(
            f"more than {_MAX_TRACED_BODIES} branches and loop bodies over tensors traced for one "
            "graph: the trace grows without bound (a recursion that calls itself more than once "
            "inside an if over tensors doubles it at each level)",
            loc=origin.current_location(),
            construct="trace that grows without bound",
        )


def _freeze_appended_outer(outer: Sequence[Any], inner: Sequence[Any]) -> None:
    """Freezes each array from outside a branch or body whose stand-in there was appended to a
    tensor list (``lists.is_appended``): the list holds it, so a write after the op is refused."""
    for leaf, stand_in in zip(outer, inner):
        if stand_in is not leaf and lists.is_appended(stand_in) and _unfrozen_array(leaf):
            functional.freeze(leaf, lists.APPENDED)


def _freeze_appended_results(sides: Sequence[Sequence[Any]], leaves: Sequence[Any]) -> None:
    """Freezes each output of an op that a branch or the body hands back as an array appended to
    a tensor list there: a write to it after the op would change the list's item in eager code."""
    for side in sides:
        for j, leaf in enumerate(side):
            if j < len(leaves) and lists.is_appended(leaf) and _unfrozen_array(leaves[j]):
                functional.freeze(leaves[j], lists.APPENDED)


def _unfrozen_array(value: Any) -> bool:
    storage = getattr(value, "_storage", None)
    return _is_array(value) and (storage is None or storage.frozen is None)


def _latest_lists(result: Any, count: int) -> Any:
    """``result``, a trace's variables after it, with each tensor list standing for the caller's
    list replaced by the latest version of it made in the trace (``containers.latest_version``)."""
    if not isinstance(result, tuple):
        return result
    return tuple(
        containers.latest_version(v) if i < count and isinstance(v, lists.SymbolicList) else v
        for i, v in enumerate(result)
    )


def _returned_containers(
    outer: Sequence[Any], entered: Sequence[Any], result: Any, names: Sequence[str]
) -> tuple[set[int], set[int]]:
    """The positions of the variables holding a caller's list or dict that a trace returned
    as the copy it was given, and those it returned as another value (refused if it changed
    the copy: ``containers.check_returned``)."""
    same, other = set(), set()
    if not isinstance(result, tuple) or len(result) < len(outer):
        return same, other
    for i, (value, copy, after) in enumerate(zip(outer, entered, result)):
        if type(value) in (list, dict) and containers.is_registered(value):
            containers.check_returned(copy, after, names[i] if i < len(names) else "a variable")
            (same if containers.derives_from(after, copy) else other).add(i)
    return same, other


def _restore_containers(
    traces: Sequence[_Trace],
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
    traces: Sequence[_Trace],
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


def _returned_standing(trace: _Trace, i: int) -> Any:
    """The caller's list that variable ``i`` as ``trace`` returned it stands for, if any."""
    result = trace.result
    if not isinstance(result, tuple) or len(result) <= i:
        return None
    value = result[i]
    return value.stands_for if isinstance(value, lists.SymbolicList) else None


def _refill(original: Any, values: Any) -> Any:
    """``original`` (a list or dict) holding the items of ``values`` instead (a change of it,
    if it is the state of the body around: ``containers.note_changed``)."""
    containers.note_changed(original)
    if type(original) is dict:
        original.clear()
        original.update(values)
    else:
        original[:] = values
    return original


def _written_arrays(value: Any) -> list[Any]:
    """The arrays with a storage (written or viewed) in a branch's or body's result."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _written_arrays(item)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _written_arrays(item)]
    return [value] if _is_array(value) and value._storage is not None else []


def _is_array(value: Any) -> bool:
    return isinstance(value, tensor.SymbolicTensor) and value.is_array


def _input(child: builder_mod.GraphBuilder, leaf: Any, t: types.ValueType, root: str) -> Any:
    """The new graph input standing for ``leaf``, of the same kind of array or scalar (and for
    a variable not set yet, if ``leaf`` is one: ``_unset``)."""
    inner = child.add_input(t, hint=root)
    top = _root_of(child)
    if _unset(leaf, top):
        top.unset_inputs[id(inner)] = inner
    if isinstance(leaf, tensor.SymbolicTensor) and isinstance(inner, tensor.SymbolicTensor):
        inner.array0d, inner.layout = leaf.array0d, leaf.layout
    if isinstance(leaf, lists.SymbolicList) and isinstance(inner, lists.SymbolicList):
        inner.stands_for = leaf.stands_for
    return inner


def _storage_written(value: Any, builder: builder_mod.GraphBuilder) -> bool:
    storage = getattr(value, "_storage", None)
    return storage is not None and id(storage) in builder.writes


def _made_within(builder: Any, root: builder_mod.GraphBuilder) -> bool:
    """Whether ``builder`` is ``root`` or nested in it."""
    while builder is not None:
        if builder is root:
            return True
        builder = builder.parent
    return False


def _freeze_shared_outputs(
    traces: Sequence[_Trace], sides: Sequence[carried.Flat], leaves: list[Any], joined: Any
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


def _made_here(value: Any, trace: _Trace) -> bool:
    """Whether ``value`` is an array made in ``trace`` (not one that entered it, which its
    identity tag follows)."""
    if not isinstance(value, tensor.SymbolicTensor) or not value.is_array:
        return False
    storage = value._storage
    born = value._builder if storage is None else storage.born
    began = value._var if storage is None else storage.began
    entered = any(began is var for var in trace.inputs)
    return not entered and _made_within(born, trace.builder)


def _kept(value: Any, promoted: set[int], rebound: frozenset[int] | set[int] = frozenset()) -> bool:
    """Whether ``value`` enters a branch or loop body as itself (captured, not a new input): an
    array that may be written in place there (it has a storage, or a write showed it) and that
    a loop body does not bind to another array."""
    if not isinstance(value, tensor.SymbolicTensor) or not value.is_array:
        return False
    if id(value) in rebound:
        return False
    return value._storage is not None or id(value) in promoted


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


def _positions(flat: carried.Flat, out: carried.Flat) -> dict[int, int]:
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


def _freeze_ambiguous(flat: carried.Flat, after: Sequence[Any], mixed: set[int] | None) -> None:
    """Refuses later in-place writes through variables that are the incoming array on one path
    and a new array on another, and to that incoming array: after an if, the leaves in ``mixed``
    (kept by one branch only); after a loop (``mixed`` None), every array variable it rebinds
    (it may run no time). Unless an identity tag follows which array such a variable is, it
    may not be handed to the caller beside the incoming array either."""
    for i, (path, leaf, value) in enumerate(zip(flat.paths, flat.leaves, after)):
        if not (_is_array(leaf) and isinstance(value, tensor.SymbolicTensor)) or value is leaf:
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


def _freeze_tagged_cells(
    tagged: Sequence[tuple[int, str]], variables: set[int], leaves: list[Any], joined: Any
) -> None:
    """Refuses in-place writes to an attribute (or another cell) the branches leave holding
    different arrays from before, or one from before and a new one (its identity tag says
    which): a write would reach the caller's array on some paths only, and the graph writes a
    value the tag then drops. ``_freeze_ambiguous`` does the same for variables."""
    for j, path in tagged:
        if j not in variables and joined[j] is not None:
            functional.freeze(leaves[j], _AMBIGUOUS.format(path))


def _outer_of(trace: _Trace, flat: carried.Flat, value: Any) -> Any:
    """The array from before ``trace`` (a variable's, or one it reads) that ``value``, returned
    by the trace, is or is a view of; None for an array made in the trace or not an array."""
    if not _is_array(value):
        return None
    storage = value._storage
    for outer, inner in zip(flat.leaves, trace.inner):
        if not _is_array(outer):
            continue
        if value is outer or value is inner:
            return outer
        if storage is not None and (storage is outer._storage or storage is inner._storage):
            return outer
    born = value._builder if storage is None else storage.born
    return None if _made_within(born, trace.builder) else value


def _root_of(builder: builder_mod.GraphBuilder) -> builder_mod.GraphBuilder:
    while builder.parent is not None:
        builder = builder.parent
    return builder


def _unset(value: Any, root: builder_mod.GraphBuilder) -> bool:
    """Whether ``value`` stands for a variable not set yet: a placeholder, or the input of a
    branch or loop body made for one (its value is never read)."""
    return isinstance(value, carried.Placeholder) or id(value) in root.unset_inputs


def _one_array_of(value: Any, groups: dict[int, tuple[Any, Any]]) -> Any:
    """The array standing for ``value``'s group of control-flow outputs that are one array on
    every path (``groups``: ``_freeze_path_identities``), or ``value`` itself."""
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
    (``_freeze_path_identities`` made them path aliases of each other)."""
    aliases = a._storage.path_aliases if a._storage is not None else ()
    return any(o is b or (o._storage is not None and o._storage is b._storage) for o in aliases)


def _outer_leaves(leaves: Sequence[Any], trace: _Trace, flat: carried.Flat) -> list[Any]:
    """A path's ``leaves`` with each that entered the branch or body as a new input replaced by
    the value from before it stands for."""
    outer = {id(inner): leaf for inner, leaf in zip(trace.inner, flat.leaves)}
    return [outer.get(id(leaf), leaf) for leaf in leaves]


def _freeze_path_identities(
    paths: Sequence[Sequence[Any]], after: Sequence[Any], names: Sequence[str], what: str
) -> None:
    """Refuses writes through, and returning together, two arrays after an ``if`` or loop
    that are one array (or share memory) on some of its ``paths`` (each path's leaves, in the
    order of ``after``) and not on others: the graph's results are apart or together alike on
    every path (``BuiltGraph.apart`` copies one when they share), eager code's are not. A path
    where either is not set yet (a return value) is not one that hands them over."""
    root = _root_of(context.current())
    groups = root.one_array
    arrays = [j for j, value in enumerate(after) if _is_array(value)]
    for n, j in enumerate(arrays):
        for k in arrays[n + 1 :]:
            if after[j] is after[k]:
                continue
            pairs = [
                (leaves[j], leaves[k])
                for leaves in paths
                if _is_array(leaves[j])
                and _is_array(leaves[k])
                and not _unset(leaves[j], root)
                and not _unset(leaves[k], root)
            ]
            relations = {_relation(a, b, groups) for a, b in pairs}
            if len(relations) > 1 or any(_maybe_one(a, b) for a, b in pairs):
                reason = _PATH_IDENTITY.format(names[j], names[k], what)
                functional.freeze_path_alias(after[j], [after[k]], reason)
                functional.freeze_path_alias(after[k], [after[j]], reason)
            elif relations == {(True, True)}:  # the executor hands over one array for both
                groups[id(after[k])] = (after[k], _one_array_of(after[j], groups))


def _freeze_path_aliases(
    traces: Sequence[_Trace],
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
    they differ (``_positions``)."""
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
        if target is None or not _is_array(value):
            continue
        # the variable's own incoming array, as it came in, is ``_freeze_ambiguous``'s case
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


def _identity_tags(
    traces: Sequence[_Trace], names: Sequence[str], rebindable: Sequence[bool]
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
    owners = _owners(outs[0])
    found: list[Any] = []
    codes: tuple[list[Any], list[Any]] = ([], [])
    for j, (a, b) in enumerate(zip(outs[0].leaves, outs[1].leaves)):
        if a is b or not rebindable[owners[j]]:
            continue
        pair = [identity.code_of(a), identity.code_of(b)]
        if identity.needs_tag(pair):
            found.append((j, outs[0].paths[j]))
            codes[0].append(pair[0])
            codes[1].append(pair[1])
    for trace, mine in zip(traces, codes):
        trace.result = (*trace.result, *mine)
    return found


def _mark_arrays(leaves: Sequence[Any], joined: Sequence[Any], *sides: Sequence[Any]) -> None:
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


def _owners(flat: carried.Flat) -> list[int]:
    """For each leaf of ``flat``, the index of the named value it belongs to."""
    return [i for i, tree in enumerate(flat.trees) for _ in range(tree.num_leaves)]


def _rebindable(count: int, cells: Sequence[Any]) -> list[bool]:
    """Which of ``count`` variables and then ``cells`` a branch or loop may bind to another
    array (so an identity tag may follow them): all but arrays written in place (a
    ``Storage``, which stays its own array), so variables and objects' attributes."""
    return [True] * count + [not isinstance(cell, functional.Storage) for cell in cells]


def _cell_name(cell: Any) -> str:
    """How messages and graph names call a cell: an array written in place (a ``Storage``) or
    an object's attribute (``objects.Cell``)."""
    return str(cell.label)


def _results(trace: _Trace, names: Sequence[str]) -> carried.Flat:
    """The flattened tuple a branch or loop body returned."""
    if not isinstance(trace.result, tuple) or len(trace.result) != len(names):
        expected = f"a tuple of {len(names)} values"
        raise errors.InternalError(
            f"{trace.builder.name} function must return {expected}, got {trace.result!r}"
        )
    return carried.flatten(trace.result, names)


def _outputs(
    trace: _Trace, leaves: Sequence[Any], targets: Sequence[types.ValueType | None]
) -> list[core.Atom]:
    """The graph outputs of ``trace``: its tensor leaves converted to the target types."""
    with trace.builder.active():
        return [
            trace.builder.atom(carried.convert(trace.snapshots.get(id(v), v), t))
            for v, t in zip(leaves, targets)
            if t is not None
        ]


def _close(
    traces: Sequence[_Trace], outputs: Sequence[list[core.Atom]], consts_first: bool
) -> tuple[list[Any], list[core.Graph]]:
    """Closed graphs of ``traces`` that all take the union of their captures as extra inputs.

    Returns:
      The captured outer values (operands to pass), and one graph per trace.
    """
    outer: dict[int, Any] = {}
    for trace in traces:
        for value, _ in trace.builder.captures:
            outer.setdefault(value.graph_var.id, value)
    graphs = []
    for trace, outs in zip(traces, outputs):
        mine = {value.graph_var.id: inner for value, inner in trace.builder.captures}
        extra = tuple(
            mine.get(key) or core.Var(v.graph_var.type, v.graph_var.hint)
            for key, v in outer.items()
        )
        explicit = tuple(trace.inputs)
        inputs = extra + explicit if consts_first else explicit + extra
        graphs.append(
            core.Graph(trace.builder.name, inputs, tuple(trace.builder.eqns), tuple(outs))
        )
    return list(outer.values()), graphs


def _current_builder(what: str) -> builder_mod.GraphBuilder:
    parent = builder_mod.current()
    if parent is None:
        raise errors.TracerError(
            f"{what} over tensors needs a graph being built", origin.current_location()
        )
    return parent


def _truth(value: Any, what: str) -> Any:
    """The truth of a condition: a bool scalar tensor, or a Python bool when it is static. A
    tensor list is true when it is not empty, as a Python list is (``lists.truth``)."""
    value = lists.truth(value)
    if not isinstance(value, tensor.Symbolic):
        return bool(value)
    t = value.graph_var.type
    if not isinstance(t, types.TensorType) or t.shape != ():
        raise errors.ShapeError(
            f"the condition of {what} must be a scalar, got {carried.describe(value)}",
            origin.current_location(),
            hint="reduce it to one value first, e.g. with np.any(...) or np.all(...)",
        )
    if t.dtype != np.bool_:
        return elementwise.astype_p.bind(value, dtype=np.dtype(np.bool_), weak=t.weak)
    return value


# ---- cond --------------------------------------------------------------------------------


def cond(
    pred: Any,
    true_fn: Callable[..., tuple[Any, ...]],
    false_fn: Callable[..., tuple[Any, ...]],
    operands: tuple[Any, ...],
    names: tuple[str, ...],
) -> tuple[Any, ...]:
    """``if pred: true_fn else: false_fn`` over the variables ``operands``; see module docstring.

    Args:
      pred: the condition. Unless it is a symbolic value, the chosen branch just runs (Python).
      true_fn: takes the operands positionally; returns a tuple of their new values.
      false_fn: the same for the else-branch.
      operands: the values of the variables the branches use or set (``Undefined`` when unset).
      names: the variables' names, used to name graph values and in error messages.

    Returns:
      The variables' values after the if: tensors are ``cond`` outputs, of the joined type of the
      two branches (weak only when both are); other values are the same in both branches.

    Raises:
      ConversionError: a variable set in one branch only, or None in one, that is not a number
        or tensor in the other (those become optional, ``staging.optional``); a value that is not
        a tensor, or a structure, that differs between the branches.
      ShapeError: a tensor whose rank differs between the branches.
      DTypeError: a value that is a list in one branch and a tensor in the other.
    """
    if not isinstance(pred, tensor.Symbolic):
        return tuple(true_fn(*operands) if pred else false_fn(*operands))
    parent = _current_builder("an if")
    pred = _truth(pred, "an if")
    before, operands = operands, kinds.enter(operands)
    true_fn, false_fn = kinds.inside(true_fn, results=True), kinds.inside(false_fn, results=True)
    flat = carried.flatten(operands, names)
    promoted: set[int] = set()
    while True:
        in_types = [
            carried.type_of(v)
            if isinstance(v, tensor.Symbolic) and not _kept(v, promoted)
            else None
            for v in flat.leaves
        ]
        traces = [
            _trace(parent, label, fn, flat, in_types, branch=True)
            for label, fn in (("then", true_fn), ("else", false_fn))
        ]
        if not (traces[0].promote | traces[1].promote) - promoted:
            break
        promoted |= traces[0].promote | traces[1].promote
    kept = [trace.unchanged(flat) for trace in traces]
    traces[0].result, traces[1].result = carried.align_placeholders(
        traces[0].result, traces[1].result
    )
    traces[0].result, traces[1].result = optional.align(traces[0].result, traces[1].result, names)
    cells = {**traces[0].written, **traces[1].written}
    for trace in traces:
        if isinstance(trace.result, tuple):
            left = (trace.written.get(k, (s, s.current))[1] for k, (s, _) in cells.items())
            trace.result = (*trace.result, *left)
    explicit_names = names
    names = (*names, *(_cell_name(s) for s, _ in cells.values()))
    optional.refuse_kinds(traces[0].result, traces[1].result, names)
    traces[0].result, traces[1].result = kinds.align(traces[0].result, traces[1].result, names)
    rebindable = _rebindable(len(explicit_names), [cell for cell, _ in cells.values()])
    tagged = _identity_tags(traces, names, rebindable)
    names = (*names, *(identity.tag_name(path) for _, path in tagged))
    then_out, else_out = (_results(t, names) for t in traces)
    joined = carried.merge_branches(then_out, else_out)
    position = _positions(flat, then_out)
    kept = [{position[i] for i in k if i in position} for k in kept]
    for i in kept[0] & kept[1]:
        joined[i] = None  # the same object after both branches
    outputs = [_outputs(t, out.leaves, joined) for t, out in zip(traces, (then_out, else_out))]
    captured, (then_graph, else_graph) = _close(traces, outputs, consts_first=False)
    explicit = [v for v, t in zip(flat.leaves, in_types) if t is not None]
    hints = [root for root, t in zip(then_out.roots, joined) if t is not None]
    params = {"then_graph": then_graph, "else_graph": else_graph}
    results = iter(parent.emit(control.cond_p, [pred, *explicit, *captured], params, hints=hints))
    leaves = [v if t is None else next(results) for v, t in zip(then_out.leaves, joined)]
    tags = len(leaves) - len(tagged)
    for n, (j, _) in enumerate(tagged):
        if joined[j] is not None:
            identity.mark(leaves[j], leaves[tags + n])
    _mark_arrays(leaves, joined, then_out.leaves, else_out.leaves)
    incoming = {j: flat.leaves[i] for i, j in position.items()}
    for j in kept[0] & kept[1]:
        leaves[j] = incoming[j]
    # an unmatched leaf (an optional's) stands for itself: it is no incoming array kept
    after_if = [
        leaves[position[i]] if i in position else leaf for i, leaf in enumerate(flat.leaves)
    ]
    mixed = {i for i, j in position.items() if j in kept[0] ^ kept[1]}
    _freeze_ambiguous(flat, after_if, mixed)
    _freeze_tagged_cells(tagged, set(position.values()), leaves, joined)
    _freeze_path_aliases(traces, flat, (then_out, else_out), leaves, joined, "if", position)
    _freeze_path_identities(
        [_outer_leaves(out.leaves, t, flat) for out, t in zip((then_out, else_out), traces)],
        leaves,
        then_out.paths,
        "if",
    )
    _freeze_shared_outputs(traces, (then_out, else_out), leaves, joined)
    _freeze_appended_results((then_out.leaves, else_out.leaves), leaves)
    after = then_out.unflatten(leaves)
    for (storage, _), value in zip(cells.values(), kinds.expose(after[len(explicit_names) :])):
        storage.set(value)
    count = len(explicit_names)
    exposed = kinds.expose(after[:count])
    return _restore_containers(traces, before, exposed, explicit_names, False)


# ---- while_loop --------------------------------------------------------------------------


def while_loop(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., tuple[Any, ...]],
    init: tuple[Any, ...],
    names: tuple[str, ...],
    peelable: bool = False,
    site: Any = None,
) -> tuple[Any, ...]:
    """``while cond_fn(*vars): vars = body_fn(*vars)`` as a ``while_loop`` equation.

    Numbers among the loop variables (Python scalars become weak tensors) and symbolic values are
    carried; other values must not change. The body is traced with the carries' types, which are
    joined with its results' types until they are stable: a dim that changes becomes unknown, a
    dtype that changes is promoted (the initial value converted with ``astype``).

    Args:
      cond_fn: takes the variables positionally; returns the condition (a Python bool if constant).
      body_fn: takes the variables positionally; returns a tuple of their new values.
      init: the variables' values before the loop (``Undefined`` when unset).
      names: the variables' names, used to name graph values and in error messages.
      peelable: the caller can run the first iteration by itself (it surely runs): a body that
        changes a variable's kind (a Python number becoming a NumPy scalar) raises
        ``PeelFirst`` before anything is emitted, rather than carrying a kind tag.
      site: what tells this loop from others in the user's code (its body's code object; by
        default ``body_fn``'s): a retrace of the loop around it starts it from what it learned
        the last time (``staging.loop_hints``).

    Returns:
      The variables' values after the loop; ``init`` itself when the condition is constant False.

    Raises:
      PeelFirst: see ``peelable``.
      ConversionError: a value that is not a tensor, or a structure, that the body changes (a
        variable the body sets where it starts unset or None becomes optional, as in ``cond``).
      ShapeError: a tensor whose rank the body changes.
      DTypeError: a dtype change that has no common type (e.g. a list becoming a tensor).
    """
    parent = _current_builder("a while loop")
    site = getattr(body_fn, "__code__", body_fn) if site is None else site
    key = loop_hints.key(parent, site, names)
    loop = _Loop(parent, cond_fn, body_fn, kinds.enter(init), names, init, peelable, key)
    learned = loop_hints.recall(parent, key)
    flat = carried.flatten(loop.init, names)
    start_kinds = loop_hints.kinds_of(flat.leaves)
    if peelable and learned is not None and learned.peel == start_kinds:
        loop_hints.peeled(parent, key, start_kinds)
        raise PeelFirst(key)
    if learned is not None:
        hinted = loop_hints.apply(learned, parent, flat.paths, flat.leaves)
        loop.promoted, loop.rebound, loop.tag_paths, loop.cells = hinted
    for _ in range(_MAX_RETRACES):
        try:
            after = loop.trace()
        except _Retrace:
            continue
        except PeelFirst as peel:
            loop_hints.peeled(parent, key, start_kinds)
            peel.key = key
            raise
        if loop.learned is not None:
            loop_hints.remember(parent, key, loop.learned)
        return after
    raise errors.UnsupportedError(
        "the state a loop over tensors carries was not settled after "
        f"{_MAX_RETRACES} traces of its body",
        loc=origin.current_location(),
        construct="loop state that keeps changing",
    )


class _Retrace(Exception):
    """A loop trace found state to carry differently: trace the loop again."""


class PeelFirst(Exception):  # noqa: N818  (a signal, not an error)
    """A peelable loop's body changes a variable's kind: after one iteration run outside the
    loop, every variable has the kind it keeps, and the loop needs no kind tags. ``key`` is the
    loop's (``staging.loop_hints.first_iteration``)."""

    def __init__(self, key: Any = None):
        super().__init__()
        self.key = key


@dataclasses.dataclass
class _Loop:
    """One ``while`` over tensors, traced until what it carries is known: ``cells`` are arrays
    from outside that the body writes; ``rebound`` are array variables entering as themselves
    (they have a storage) that the body binds to new arrays, so they are carried as values."""

    parent: builder_mod.GraphBuilder
    cond_fn: Callable[..., Any]
    body_fn: Callable[..., tuple[Any, ...]]
    init: tuple[Any, ...]
    names: tuple[str, ...]
    incoming: tuple[Any, ...]  # the variables' values before the loop, as the code has them
    peelable: bool  # see ``while_loop``
    key: Any  # the loop's key among those met while the graph is built (``staging.loop_hints``)
    cells: list[functional.Storage] = dataclasses.field(default_factory=list)
    # the start (``kinds.Kinded``) of each cell (by ``id``) whose kind the body changes
    cell_starts: dict[int, Any] = dataclasses.field(default_factory=dict)
    rebound: set[int] = dataclasses.field(default_factory=set)
    promoted: set[int] = dataclasses.field(default_factory=set)
    # the variables' leaves (display paths) whose body results may be an array from before the
    # loop: they carry an identity tag (``staging.identity``)
    tag_paths: set[str] = dataclasses.field(default_factory=set)
    # what the loop's last trace learned, by paths, for the next time it is met
    learned: loop_hints.Learned | None = None

    def trace(self) -> tuple[Any, ...]:
        return _while_loop(self)

    def kept(self, leaf: Any) -> bool:
        return _kept(leaf, self.promoted, self.rebound)

    def carry_type(self, leaf: Any) -> types.ValueType | None:
        if self.kept(leaf):
            return None
        return carried.type_of(leaf) if carried.is_tensor_like(leaf) else None

    def check(self, trace: _Trace, flat: carried.Flat, what: str) -> _Trace:
        """``trace``, unless it shows state to carry differently (then ``_Retrace``)."""
        known = {id(storage) for storage in self.cells}
        new = [storage for key, (storage, _) in trace.written.items() if key not in known]
        if new and what == "cond":
            raise errors.UnsupportedError(
                "a while condition that writes arrays in place", construct="write in a loop test"
            )
        rebound = _rebound(trace, flat, self) if what == "body" else set()
        unchanged = set()
        if what == "body":
            unchanged = {
                id(flat.leaves[i])
                for i in trace.unchanged(flat)
                if _is_array(flat.leaves[i]) and trace.inner[i] is not flat.leaves[i]
            }
        promote = (trace.promote | unchanged) - self.promoted
        if promote & self.rebound:
            raise errors.UnsupportedError(
                "a loop variable that is written in place and bound to another array in the "
                "same loop body",
                loc=origin.current_location(),
                construct="array rebound after an in-place write",
            )
        self.cells.extend(new)
        # a leaf written in place enters the next trace as itself, whose write then reaches its
        # own array from outside: that array is a cell too, known now rather than a trace later
        for leaf in flat.leaves:
            if id(leaf) in trace.promote and id(leaf) in promote and _is_array(leaf):
                storage = functional.storage_of(leaf)
                if all(storage is not cell for cell in self.cells):
                    self.cells.append(storage)
        self.rebound |= rebound
        self.promoted |= promote
        if new or rebound or promote:
            raise _Retrace()
        return trace


def _rebound(trace: _Trace, flat: carried.Flat, loop: _Loop) -> set[int]:
    """Array variables that entered ``trace`` as themselves and that it bound to new arrays."""
    if not isinstance(trace.result, tuple):
        return set()
    out = (
        carried.flatten(trace.result, flat.names) if len(trace.result) == len(flat.names) else None
    )
    if out is None or len(out.leaves) != len(flat.leaves):
        return set()
    found = set()
    for path, leaf, inner, after in zip(flat.paths, flat.leaves, trace.inner, out.leaves):
        # ``inner is leaf``: the trace itself may have given the leaf a storage (a view of it)
        if inner is leaf and loop.kept(leaf) and after is not leaf:
            if id(leaf._storage) in trace.written:
                raise errors.UnsupportedError(
                    f"loop variable '{path}' is written in place and then bound to another "
                    "array in the same loop body",
                    loc=origin.current_location(),
                    construct="array rebound after an in-place write",
                )
            found.add(id(leaf))
    return found


def _with_cells(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., tuple[Any, ...]],
    count: int,
    cells: list[functional.Storage],
) -> tuple[Callable[..., Any], Callable[..., tuple[Any, ...]]]:
    """The loop functions over the variables and then the arrays the body writes in place,
    which each trace starts from the carried values of."""

    def load(values: Sequence[Any]) -> None:
        for storage, value in zip(cells, values):
            storage.load(value)

    def test(*values: Any) -> Any:
        load(values[count:])
        return cond_fn(*values[:count])

    def body(*values: Any) -> tuple[Any, ...]:
        load(values[count:])
        return (*body_fn(*values[:count]), *(storage.current for storage in cells))

    return test, body


def _while_loop(loop: _Loop) -> tuple[Any, ...]:
    """``while_loop`` carrying the variables, then ``loop.cells`` (arrays the body writes)."""
    parent, cond_fn, body_fn, init, names = (
        loop.parent,
        loop.cond_fn,
        loop.body_fn,
        loop.init,
        loop.names,
    )
    count = len(init)
    if loop.cells:
        cond_fn, body_fn = _with_cells(cond_fn, body_fn, count, loop.cells)
        starts = [loop.cell_starts.get(id(storage), storage.current) for storage in loop.cells]
        # an array written in place enters each trace as a new input, whose value ``_with_cells``
        # loads into it: its value, even one with a storage of its own (a loop's freeze gave it
        # one), is never kept (an attribute's value may be: ``objects.Cell``)
        loop.rebound |= {
            id(start)
            for storage, start in zip(loop.cells, starts)
            if isinstance(storage, functional.Storage) and _is_array(start)
        }
        init = (*init, *kinds.enter(starts))
        names = (*names, *(_cell_name(storage) for storage in loop.cells))
    cond_fn, body_fn = kinds.inside(cond_fn, results=False), kinds.inside(body_fn, results=True)
    body_fn = kinds.lifting(optional.lifting(body_fn, loop.init, loop.names), init)
    init = _shaped_placeholders(loop, body_fn, tuple(init), names)
    flat = carried.flatten(init, names)
    rebindable = _rebindable(count, loop.cells)
    tracked = [j for j, owner in enumerate(_owners(flat)) if rebindable[owner]]
    tagged = _loop_tags(loop, flat, tracked)
    if tagged:
        cond_fn, body_fn = _with_tags(cond_fn, body_fn, names, flat, tagged)
        init = (*init, *(identity.code_of(flat.leaves[j]) for j in tagged))
        names = (*names, *(identity.tag_name(flat.paths[j]) for j in tagged))
        flat = carried.flatten(init, names)
    carry = [loop.carry_type(v) for v in flat.leaves]
    test = _trace_test(loop, cond_fn, flat, carry)
    if test.result is False:
        return loop.incoming
    body, body_out, stable = _trace_body(loop, body_fn, flat, carry)
    new_tags = {
        flat.paths[j]
        for j in tracked
        if j not in tagged and identity.needs_tag([identity.code_of(body_out.leaves[j])])
    }
    if new_tags:
        loop.tag_paths |= new_tags
        raise _Retrace()
    if stable != carry:
        test = _trace_test(loop, cond_fn, flat, stable)
    outputs = _outputs(body, body_out.leaves, stable)
    with test.builder.active():
        test_out = [test.builder.atom(test.result)]
    consts, (cond_graph, body_graph) = _close([test, body], [test_out, outputs], consts_first=True)
    inits = [carried.convert(v, t) for v, t in zip(flat.leaves, stable) if t is not None]
    hints = [root for root, t in zip(flat.roots, stable) if t is not None]
    params = {"cond_graph": cond_graph, "body_graph": body_graph, "num_consts": len(consts)}
    results = iter(parent.emit(control.while_loop_p, [*consts, *inits], params, hints=hints))
    leaves = [v if t is None else next(results) for v, t in zip(flat.leaves, stable)]
    for n, j in enumerate(tagged):
        if stable[j] is not None:
            identity.mark(leaves[j], leaves[len(leaves) - len(tagged) + n])
    _mark_arrays(leaves, stable, flat.leaves, body_out.leaves)
    _freeze_ambiguous(flat, leaves, None)
    _freeze_path_aliases([body], flat, [body_out], leaves, stable, "loop")
    _freeze_path_identities(
        (flat.leaves, _outer_leaves(body_out.leaves, body, flat)), leaves, flat.paths, "loop"
    )
    _freeze_shared_outputs([body], [body_out], leaves, stable)
    loop.learned = loop_hints.learn(
        flat.paths, flat.leaves, loop.cells, loop.promoted, loop.rebound, loop.tag_paths
    )
    _freeze_appended_results([body_out.leaves], leaves)
    after = flat.unflatten(leaves)
    for storage, value in zip(loop.cells, kinds.expose(after[count:])):
        storage.set(value)
    exposed = kinds.expose(after[:count])
    return _restore_containers([body], loop.incoming, exposed, loop.names, True)


def _loop_tags(loop: _Loop, flat: carried.Flat, tracked: list[int]) -> list[int]:
    """The positions among ``tracked`` (the loop variables' and attributes' leaves of ``flat``)
    that carry an identity tag: an array from before the loop at the start, or, as an earlier
    trace of the body showed, after the body."""
    last = {flat.paths[j]: j for j in tracked}
    return [
        j
        for j in tracked
        if last[flat.paths[j]] == j
        and (
            flat.paths[j] in loop.tag_paths
            or identity.needs_tag([identity.code_of(flat.leaves[j])])
        )
    ]


def _with_tags(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., tuple[Any, ...]],
    names: Sequence[str],
    init: carried.Flat,
    tagged: list[int],
) -> tuple[Callable[..., Any], Callable[..., tuple[Any, ...]]]:
    """The loop functions over the state ``init`` and then the identity tags of its ``tagged``
    leaves: each trace gives those leaves (the new inputs standing for them) their carried
    tags, and the body returns their new codes."""
    count, trees = len(names), init.trees

    def enter(values: Sequence[Any]) -> None:
        inner = carried.flatten(values[:count], names).leaves
        for j, tag in zip(tagged, values[count:]):
            if inner[j] is not init.leaves[j]:
                identity.mark(inner[j], tag)

    def test(*values: Any) -> Any:
        enter(values)
        return cond_fn(*values[:count])

    def body(*values: Any) -> tuple[Any, ...]:
        enter(values)
        out = tuple(body_fn(*values[:count]))
        after = carried.flatten(out, names)
        if after.trees != list(trees):  # the loop's own check names the variable
            return (*out, *(identity.FRESH for _ in tagged))
        return (*out, *(identity.code_of(after.leaves[j]) for j in tagged))

    return test, body


def _shaped_placeholders(
    loop: _Loop,
    body_fn: Callable[..., tuple[Any, ...]],
    init: tuple[Any, ...],
    names: tuple[str, ...],
) -> tuple[Any, ...]:
    """``init`` whose placeholders take the structure the body gives them (a returned tuple)."""
    if not any(isinstance(v, carried.Placeholder) for v in carried.flatten(init, names).leaves):
        return init
    flat = carried.flatten(init, names)
    carry = [loop.carry_type(v) for v in flat.leaves]
    probe = _trace(loop.parent, "body", body_fn, flat, carry, loop_key=loop.key)
    probe = loop.check(probe, flat, "body")
    return carried.align_placeholders(init, probe.result)[0]


def _trace_body(
    loop: _Loop,
    body_fn: Callable[..., tuple[Any, ...]],
    flat: carried.Flat,
    carry: list[types.ValueType | None],
) -> tuple[_Trace, carried.Flat, list[types.ValueType | None]]:
    """Traces the body until the carry types are stable: the last trace, its results, the types."""
    previous = carry
    for _ in range(_MAX_LOOP_TRACES):
        body = _trace(loop.parent, "body", body_fn, flat, carry, loop_key=loop.key)
        body = loop.check(body, flat, "body")
        lifted = optional.lift_init(loop.init, body.result, loop.names)
        optional.refuse_kinds(loop.init, body.result, loop.names)
        kind_change = kinds.lift_init(flat.values, body.result)
        if kind_change is not None and loop.peelable:
            raise PeelFirst()
        lifted = lifted or kind_change
        if lifted is not None:
            count = len(loop.init)
            loop.init = lifted[:count]
            for storage, start in zip(loop.cells, lifted[count:]):
                if isinstance(start, kinds.Kinded):
                    loop.cell_starts[id(storage)] = start
            raise _Retrace()
        body_out = _results(body, flat.names)
        widened = carried.widen_carries(flat, body_out, carry)
        if widened == carry:
            return body, body_out, carry
        previous, carry = carry, widened
    changing = ", ".join(f"'{p}'" for p, a, b in zip(flat.paths, previous, carry) if a != b)
    raise errors.DTypeError(
        f"the types of loop variables {changing} keep changing", origin.current_location()
    )


def _trace_test(
    loop: _Loop,
    cond_fn: Callable[..., Any],
    flat: carried.Flat,
    carry: Sequence[Any],
) -> _Trace:
    """Traces the loop condition; ``result`` becomes a bool tensor, or a Python bool if constant."""
    test = _trace(loop.parent, "cond", cond_fn, flat, carry, loop_key=loop.key)
    test = loop.check(test, flat, "cond")
    with test.builder.active():
        test.result = _truth(test.result, "a while loop")
    return test
