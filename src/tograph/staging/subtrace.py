"""Tracing one branch, loop body or loop test of an ``if`` or ``while`` over tensors.

Stage: staging. Input: the function to trace, the flattened values of the variables it uses
(``carried.Flat``) and the graph types of those that enter as new graph inputs. Output: a
``Trace``: the child builder's equations, what the function returned, and the arrays from outside
it wrote in place and the objects' attributes it set through their cells (each trace is undone
once recorded: they hold their earlier values again; an attribute of an object made before it
that the trace left changed anyway, by unconverted code, is refused: ``staging.made_objects``);
``close`` turns the traces of one op into closed graphs over the union of their captures.
Requires: a graph being built (``tograph.trace.builder``). ``staging.control_flow`` makes the ops.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, types
from tograph.ops import elementwise, lists, shape
from tograph.staging import carried, identity, made_objects
from tograph.trace import builder as builder_mod
from tograph.trace import containers, functional, tensor

# branches and loop bodies traced for one graph: past it the trace is taken to grow without
# bound (a recursion that calls itself twice in a branch over tensors doubles at each level)
MAX_TRACED_BODIES = 4096


@dataclasses.dataclass
class Trace:
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


def trace(
    parent: builder_mod.GraphBuilder,
    label: str,
    fn: Callable[..., Any],
    flat: carried.Flat,
    in_types: Sequence[Any],
    branch: bool = False,
    loop_key: Any = None,
) -> Trace:
    """Calls ``fn`` in a child builder; the leaves that have an input type become graph inputs
    (in a ``branch``, with the identity of the arrays they stand for: ``staging.identity``). A
    loop's body and test traces are marked with its ``loop_key`` (``staging.loop_hints``).

    The arrays from outside that ``fn`` writes hold their earlier values again afterwards.
    """
    _count_traced_body(parent)
    attributes = made_objects.attributes_before(parent)
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
    outer = [
        (k, s, before) for k, (s, before) in child.writes.items() if not made_within(s.born, child)
    ]
    # every final value is read before any is restored: restoring one array restores its twins
    # too (the same array passed twice), whose final values would be lost
    written = {key: (storage, storage.current) for key, storage, _ in outer}
    for _, storage, before in reversed(outer):
        storage.set(before, note=False)
    made_objects.refuse_hidden_changes(attributes)
    return Trace(
        child, list(child.inputs), result, written, promote, leaves, snapshots, same, other
    )


def _count_traced_body(parent: builder_mod.GraphBuilder) -> None:
    """Counts one more branch or loop body traced for the graph ``parent`` is part of; refuses
    one past ``MAX_TRACED_BODIES``."""
    root = parent.root()
    root.traced_bodies += 1
    if root.traced_bodies > MAX_TRACED_BODIES:
        raise errors.UnsupportedError(
            f"more than {MAX_TRACED_BODIES} branches and loop bodies over tensors traced for one "
            "graph: the trace grows without bound (a recursion that calls itself more than once "
            "inside an if over tensors doubles it at each level)",
            loc=origin.current_location(),
            construct="trace that grows without bound",
        )


def _freeze_appended_outer(outer: Sequence[Any], inner: Sequence[Any]) -> None:
    """Freezes each array from outside a branch or body whose stand-in there was appended to a
    tensor list (``lists.is_appended``): the list holds it, so a write after the op is refused."""
    for leaf, stand_in in zip(outer, inner):
        if stand_in is not leaf and lists.is_appended(stand_in) and unfrozen_array(leaf):
            functional.freeze(leaf, lists.APPENDED)


def unfrozen_array(value: Any) -> bool:
    storage = getattr(value, "_storage", None)
    return is_array(value) and (storage is None or storage.frozen is None)


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


def _written_arrays(value: Any) -> list[Any]:
    """The arrays with a storage (written or viewed) in a branch's or body's result."""
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in _written_arrays(item)]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _written_arrays(item)]
    return [value] if is_array(value) and value._storage is not None else []


def is_array(value: Any) -> bool:
    return isinstance(value, tensor.SymbolicTensor) and value.is_array


def _input(child: builder_mod.GraphBuilder, leaf: Any, t: types.ValueType, root: str) -> Any:
    """The new graph input standing for ``leaf``, of the same kind of array or scalar (and for
    a variable not set yet, if ``leaf`` is one: ``unset``)."""
    inner = child.add_input(t, hint=root)
    top = child.root()
    if unset(leaf, top):
        top.unset_inputs[id(inner)] = inner
    if isinstance(leaf, tensor.SymbolicTensor) and isinstance(inner, tensor.SymbolicTensor):
        inner.array0d, inner.layout = leaf.array0d, leaf.layout
    if isinstance(leaf, lists.SymbolicList) and isinstance(inner, lists.SymbolicList):
        inner.stands_for = leaf.stands_for
    return inner


def _storage_written(value: Any, builder: builder_mod.GraphBuilder) -> bool:
    storage = getattr(value, "_storage", None)
    return storage is not None and id(storage) in builder.writes


def made_within(builder: Any, root: builder_mod.GraphBuilder) -> bool:
    """Whether ``builder`` is ``root`` or nested in it."""
    while builder is not None:
        if builder is root:
            return True
        builder = builder.parent
    return False


def unset(value: Any, root: builder_mod.GraphBuilder) -> bool:
    """Whether ``value`` stands for a variable not set yet: a placeholder, or the input of a
    branch or loop body made for one (its value is never read)."""
    return isinstance(value, carried.Placeholder) or id(value) in root.unset_inputs


def kept(value: Any, promoted: set[int], rebound: frozenset[int] | set[int] = frozenset()) -> bool:
    """Whether ``value`` enters a branch or loop body as itself (captured, not a new input): an
    array that may be written in place there (it has a storage, or a write showed it) and that
    a loop body does not bind to another array."""
    if not isinstance(value, tensor.SymbolicTensor) or not value.is_array:
        return False
    if id(value) in rebound:
        return False
    return value._storage is not None or id(value) in promoted


def results(traced: Trace, names: Sequence[str]) -> carried.Flat:
    """The flattened tuple a branch or loop body returned."""
    if not isinstance(traced.result, tuple) or len(traced.result) != len(names):
        expected = f"a tuple of {len(names)} values"
        raise errors.InternalError(
            f"{traced.builder.name} function must return {expected}, got {traced.result!r}"
        )
    return carried.flatten(traced.result, names)


def graph_outputs(
    traced: Trace, leaves: Sequence[Any], targets: Sequence[types.ValueType | None]
) -> list[core.Atom]:
    """The graph outputs of ``traced``: its tensor leaves converted to the target types."""
    with traced.builder.active():
        return [
            traced.builder.atom(carried.convert(traced.snapshots.get(id(v), v), t))
            for v, t in zip(leaves, targets)
            if t is not None
        ]


def close(
    traces: Sequence[Trace], outputs: Sequence[list[core.Atom]], consts_first: bool
) -> tuple[list[Any], list[core.Graph]]:
    """Closed graphs of ``traces`` that all take the union of their captures as extra inputs.

    Returns:
      The captured outer values (operands to pass), and one graph per trace.
    """
    outer: dict[int, Any] = {}
    for traced in traces:
        for value, _ in traced.builder.captures:
            outer.setdefault(value.graph_var.id, value)
    graphs = []
    for traced, outs in zip(traces, outputs):
        mine = {value.graph_var.id: inner for value, inner in traced.builder.captures}
        extra = tuple(
            mine.get(key) or core.Var(v.graph_var.type, v.graph_var.hint)
            for key, v in outer.items()
        )
        explicit = tuple(traced.inputs)
        inputs = extra + explicit if consts_first else explicit + extra
        graphs.append(
            core.Graph(traced.builder.name, inputs, traced.builder.kept_eqns(outs), tuple(outs))
        )
    return list(outer.values()), graphs


def current_builder(what: str) -> builder_mod.GraphBuilder:
    parent = builder_mod.current()
    if parent is None:
        raise errors.TracerError(
            f"{what} over tensors needs a graph being built", origin.current_location()
        )
    return parent


def truth(value: Any, what: str) -> Any:
    """The truth of a condition: a bool scalar tensor, or a Python bool when it is static. A
    tensor list is true when it is not empty, as a Python list is (``lists.truth``); an array
    of one element is as true as that element, as NumPy has it (``while i < n`` with ``i`` of
    shape ``(1,)``)."""
    value = lists.truth(value)
    if not isinstance(value, tensor.Symbolic):
        return bool(value)
    t = value.graph_var.type
    if isinstance(t, types.TensorType) and t.shape and all(d == 1 for d in t.shape):
        value = shape.reshape(value, ())
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
