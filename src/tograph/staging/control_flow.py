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

Each branch, body and test is traced in a child builder by ``staging.subtrace``; what the op's
results are to later code (containers refilled, writes refused where eager's aliasing differs by
path) is ``staging.path_join``'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from tograph import errors, origin
from tograph.ir import types
from tograph.ops import control
from tograph.staging import (
    carried,
    choices,
    identity,
    kinds,
    loop_hints,
    optional,
    path_join,
    subtrace,
)
from tograph.trace import builder as builder_mod
from tograph.trace import functional, tensor

_MAX_LOOP_TRACES = 16


_MAX_RETRACES = 32  # traces of a loop finding new state to carry (written arrays, kinds, ...)


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
        a tensor nor a constant (``staging.choices``), or a structure, that differs between the
        branches.
      ShapeError: a tensor whose rank differs between the branches.
      DTypeError: a value that is a list in one branch and a tensor in the other.
    """
    if not isinstance(pred, tensor.Symbolic):
        return tuple(true_fn(*operands) if pred else false_fn(*operands))
    parent = subtrace.current_builder("an if")
    pred = subtrace.truth(pred, "an if")
    before, operands = operands, kinds.enter(operands)
    true_fn, false_fn = kinds.inside(true_fn, results=True), kinds.inside(false_fn, results=True)
    flat = carried.flatten(operands, names)
    promoted: set[int] = set()
    while True:
        in_types = [
            carried.type_of(v)
            if isinstance(v, tensor.Symbolic) and not subtrace.kept(v, promoted)
            else None
            for v in flat.leaves
        ]
        traces = [
            subtrace.trace(parent, label, fn, flat, in_types, branch=True)
            for label, fn in (("then", true_fn), ("else", false_fn))
        ]
        if not (traces[0].promote | traces[1].promote) - promoted:
            break
        promoted |= traces[0].promote | traces[1].promote
    kept = [trace.unchanged(flat) for trace in traces]
    cells = {**traces[0].written, **traces[1].written}
    for trace in traces:
        if isinstance(trace.result, tuple):
            left = (trace.written.get(k, (s, s.current))[1] for k, (s, _) in cells.items())
            trace.result = (*trace.result, *left)
    explicit_names = names
    names = (*names, *(path_join.cell_name(s) for s, _ in cells.values()))
    traces[0].result, traces[1].result = carried.align_placeholders(
        traces[0].result, traces[1].result
    )
    traces[0].result, traces[1].result = optional.align(traces[0].result, traces[1].result, names)
    optional.refuse_kinds(traces[0].result, traces[1].result, names)
    traces[0].result, traces[1].result = kinds.align(
        traces[0].result, traces[1].result, names, (traces[0].builder, traces[1].builder)
    )
    traces[0].result, traces[1].result = choices.align(
        traces[0].result, traces[1].result, names, (traces[0].builder, traces[1].builder)
    )
    cell_list = [cell for cell, _ in cells.values()]
    rebindable = path_join.rebindable_mask(len(explicit_names), cell_list)
    tagged = path_join.identity_tags(traces, names, rebindable)
    names = (*names, *(identity.tag_name(path) for _, path in tagged))
    then_out, else_out = (subtrace.results(t, names) for t in traces)
    joined = carried.merge_branches(then_out, else_out)
    position = path_join.positions(flat, then_out)
    kept = [{position[i] for i in k if i in position} for k in kept]
    for i in kept[0] & kept[1]:
        joined[i] = None  # the same object after both branches
    sides = (then_out, else_out)
    outputs = [subtrace.graph_outputs(t, out.leaves, joined) for t, out in zip(traces, sides)]
    captured, (then_graph, else_graph) = subtrace.close(traces, outputs, consts_first=False)
    explicit = [v for v, t in zip(flat.leaves, in_types) if t is not None]
    hints = [root for root, t in zip(then_out.roots, joined) if t is not None]
    params = {"then_graph": then_graph, "else_graph": else_graph}
    results = iter(parent.emit(control.cond_p, [pred, *explicit, *captured], params, hints=hints))
    leaves = [v if t is None else next(results) for v, t in zip(then_out.leaves, joined)]
    tags = len(leaves) - len(tagged)
    for n, (j, _) in enumerate(tagged):
        if joined[j] is not None:
            identity.mark(leaves[j], leaves[tags + n])
    path_join.mark_arrays(leaves, joined, then_out.leaves, else_out.leaves)
    incoming = {j: flat.leaves[i] for i, j in position.items()}
    for j in kept[0] & kept[1]:
        leaves[j] = incoming[j]
    # an unmatched leaf (an optional's) stands for itself: it is no incoming array kept
    after_if = [
        leaves[position[i]] if i in position else leaf for i, leaf in enumerate(flat.leaves)
    ]
    mixed = {i for i, j in position.items() if j in kept[0] ^ kept[1]}
    path_join.freeze_ambiguous(flat, after_if, mixed)
    path_join.freeze_tagged_cells(tagged, set(position.values()), leaves, joined)
    path_join.freeze_path_aliases(traces, flat, sides, leaves, joined, "if", position)
    outer = [path_join.outer_leaves(out.leaves, t, flat) for out, t in zip(sides, traces)]
    path_join.freeze_path_identities(outer, leaves, then_out.paths, "if")
    path_join.freeze_shared_outputs(traces, sides, leaves, joined)
    path_join.freeze_appended_results((then_out.leaves, else_out.leaves), leaves)
    after = then_out.unflatten(leaves)
    for (storage, _), value in zip(cells.values(), kinds.expose(after[len(explicit_names) :])):
        storage.set(value)
    count = len(explicit_names)
    exposed = kinds.expose(after[:count])
    return path_join.restore_containers(traces, before, exposed, explicit_names, False)


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
    parent = subtrace.current_builder("a while loop")
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
        return subtrace.kept(leaf, self.promoted, self.rebound)

    def carry_type(self, leaf: Any) -> types.ValueType | None:
        if self.kept(leaf):
            return None
        return carried.type_of(leaf) if carried.is_tensor_like(leaf) else None

    def check(self, trace: subtrace.Trace, flat: carried.Flat, what: str) -> subtrace.Trace:
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
                if subtrace.is_array(flat.leaves[i]) and trace.inner[i] is not flat.leaves[i]
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
            if id(leaf) in trace.promote and id(leaf) in promote and subtrace.is_array(leaf):
                storage = functional.storage_of(leaf)
                if all(storage is not cell for cell in self.cells):
                    self.cells.append(storage)
        self.rebound |= rebound
        self.promoted |= promote
        if new or rebound or promote:
            raise _Retrace()
        return trace


def _rebound(trace: subtrace.Trace, flat: carried.Flat, loop: _Loop) -> set[int]:
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
            if isinstance(storage, functional.Storage) and subtrace.is_array(start)
        }
        init = (*init, *kinds.enter(starts))
        names = (*names, *(path_join.cell_name(storage) for storage in loop.cells))
    cond_fn, body_fn = kinds.inside(cond_fn, results=False), kinds.inside(body_fn, results=True)
    body_fn = choices.lifting(kinds.lifting(optional.lifting(body_fn, init, names), init), init)
    init = _shaped_placeholders(loop, body_fn, tuple(init), names)
    flat = carried.flatten(init, names)
    rebindable = path_join.rebindable_mask(count, loop.cells)
    tracked = [j for j, owner in enumerate(path_join.owners(flat)) if rebindable[owner]]
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
    outputs = subtrace.graph_outputs(body, body_out.leaves, stable)
    with test.builder.active():
        test_out = [test.builder.atom(test.result)]
    consts, (cond_graph, body_graph) = subtrace.close(
        [test, body], [test_out, outputs], consts_first=True
    )
    inits = [carried.convert(v, t) for v, t in zip(flat.leaves, stable) if t is not None]
    hints = [root for root, t in zip(flat.roots, stable) if t is not None]
    params = {"cond_graph": cond_graph, "body_graph": body_graph, "num_consts": len(consts)}
    results = iter(parent.emit(control.while_loop_p, [*consts, *inits], params, hints=hints))
    leaves = [v if t is None else next(results) for v, t in zip(flat.leaves, stable)]
    for n, j in enumerate(tagged):
        if stable[j] is not None:
            identity.mark(leaves[j], leaves[len(leaves) - len(tagged) + n])
    path_join.mark_arrays(leaves, stable, flat.leaves, body_out.leaves)
    path_join.freeze_ambiguous(flat, leaves, None)
    path_join.freeze_path_aliases([body], flat, [body_out], leaves, stable, "loop")
    path_join.freeze_path_identities(
        (flat.leaves, path_join.outer_leaves(body_out.leaves, body, flat)),
        leaves,
        flat.paths,
        "loop",
    )
    path_join.freeze_shared_outputs([body], [body_out], leaves, stable)
    loop.learned = loop_hints.learn(
        flat.paths, flat.leaves, loop.cells, loop.promoted, loop.rebound, loop.tag_paths
    )
    path_join.freeze_appended_results([body_out.leaves], leaves)
    after = flat.unflatten(leaves)
    for storage, value in zip(loop.cells, kinds.expose(after[count:])):
        storage.set(value)
    exposed = kinds.expose(after[:count])
    return path_join.restore_containers([body], loop.incoming, exposed, loop.names, True)


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
    probe = subtrace.trace(loop.parent, "body", body_fn, flat, carry, loop_key=loop.key)
    probe = loop.check(probe, flat, "body")
    return carried.align_placeholders(init, probe.result)[0]


def _trace_body(
    loop: _Loop,
    body_fn: Callable[..., tuple[Any, ...]],
    flat: carried.Flat,
    carry: list[types.ValueType | None],
) -> tuple[subtrace.Trace, carried.Flat, list[types.ValueType | None]]:
    """Traces the body until the carry types are stable: the last trace, its results, the types."""
    previous = carry
    for _ in range(_MAX_LOOP_TRACES):
        body = subtrace.trace(loop.parent, "body", body_fn, flat, carry, loop_key=loop.key)
        body = loop.check(body, flat, "body")
        # the variables and then the cells, as this trace started them
        count = len(loop.init)
        state = (*loop.init, *flat.values[count : count + len(loop.cells)])
        names = flat.names[: len(state)]
        lifted = optional.lift_init(state, body.result, names)
        optional.refuse_kinds(state, body.result, names)
        kind_change = kinds.lift_init(flat.values, body.result)
        # an attribute that starts as None takes its type in a first iteration run by itself,
        # as a variable does (``runtime._tensor_for``)
        lifted_cell = lifted is not None and any(
            a is not b for a, b in zip(lifted[count:], state[count:])
        )
        if (kind_change is not None or lifted_cell) and loop.peelable:
            raise PeelFirst()
        lifted = lifted or kind_change
        if lifted is not None:
            loop.init = lifted[:count]
            for storage, start in zip(loop.cells, lifted[count:]):
                if isinstance(start, (kinds.Kinded, optional.Optional)):
                    loop.cell_starts[id(storage)] = start
            raise _Retrace()
        chosen = choices.lift_init(loop.init, body.result)
        if chosen is not None:  # a variable the body sets to another constant
            loop.init = chosen
            raise _Retrace()
        body_out = subtrace.results(body, flat.names)
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
) -> subtrace.Trace:
    """Traces the loop condition; ``result`` becomes a bool tensor, or a Python bool if constant."""
    test = subtrace.trace(loop.parent, "cond", cond_fn, flat, carry, loop_key=loop.key)
    test = loop.check(test, flat, "cond")
    with test.builder.active():
        test.result = subtrace.truth(test.result, "a while loop")
    return test
