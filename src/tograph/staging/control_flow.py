"""Tracing ``if`` and ``while`` over tensors into ``cond`` and ``while_loop`` equations.

Stage: staging. Input: what lowered code passes for a tensor-dependent ``if`` or ``while``: the
condition, the branch / loop functions, and the values of the variables they use, as pytrees
(nested tuples, lists, dicts) of symbolic tensors, Python and NumPy numbers, and static Python
values. Output: the variables' values afterwards, the tensors among them produced by one ``cond``
or ``while_loop`` equation (``ops.control``) whose params hold the traced branches / loop as
closed graphs. Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, types
from tograph.ops import control, elementwise
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

_MAX_LOOP_TRACES = 16


@dataclasses.dataclass
class _Trace:
    """One traced function: its builder, its explicit inputs and what it returned."""

    builder: builder_mod.GraphBuilder
    inputs: list[core.Var]
    result: Any


def _trace(
    parent: builder_mod.GraphBuilder,
    label: str,
    fn: Callable[..., Any],
    flat: carried.Flat,
    in_types: Sequence[Any],
) -> _Trace:
    """Calls ``fn`` in a child builder; the leaves that have an input type become graph inputs."""
    child = parent.child(label)
    with child.active():
        leaves = [
            leaf if t is None else child.add_input(t, hint=root)
            for leaf, t, root in zip(flat.leaves, in_types, flat.roots)
        ]
        result = fn(*flat.unflatten(leaves))
    return _Trace(child, list(child.inputs), result)


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
            trace.builder.atom(carried.convert(v, t))
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
    """The truth of a condition: a bool scalar tensor, or a Python bool when it is static."""
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
      ConversionError: a variable set in one branch only; a value that is not a tensor, or a
        structure, that differs between the branches.
      ShapeError: a tensor whose rank differs between the branches.
      DTypeError: a value that is a list in one branch and a tensor in the other.
    """
    if not isinstance(pred, tensor.Symbolic):
        return tuple(true_fn(*operands) if pred else false_fn(*operands))
    parent = _current_builder("an if")
    pred = _truth(pred, "an if")
    flat = carried.flatten(operands, names)
    in_types = [carried.type_of(v) if isinstance(v, tensor.Symbolic) else None for v in flat.leaves]
    traces = [
        _trace(parent, label, fn, flat, in_types)
        for label, fn in (("then", true_fn), ("else", false_fn))
    ]
    traces[0].result, traces[1].result = carried.align_placeholders(
        traces[0].result, traces[1].result
    )
    then_out, else_out = (_results(t, names) for t in traces)
    joined = carried.merge_branches(then_out, else_out)
    outputs = [_outputs(t, out.leaves, joined) for t, out in zip(traces, (then_out, else_out))]
    captured, (then_graph, else_graph) = _close(traces, outputs, consts_first=False)
    explicit = [v for v, t in zip(flat.leaves, in_types) if t is not None]
    hints = [root for root, t in zip(then_out.roots, joined) if t is not None]
    params = {"then_graph": then_graph, "else_graph": else_graph}
    results = iter(parent.emit(control.cond_p, [pred, *explicit, *captured], params, hints=hints))
    return then_out.unflatten(
        [v if t is None else next(results) for v, t in zip(then_out.leaves, joined)]
    )


# ---- while_loop --------------------------------------------------------------------------


def while_loop(
    cond_fn: Callable[..., Any],
    body_fn: Callable[..., tuple[Any, ...]],
    init: tuple[Any, ...],
    names: tuple[str, ...],
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

    Returns:
      The variables' values after the loop; ``init`` itself when the condition is constant False.

    Raises:
      ConversionError: a variable first set in the body; a value that is not a tensor, or a
        structure, that the body changes.
      ShapeError: a tensor whose rank the body changes.
      DTypeError: a dtype change that has no common type (e.g. a list becoming a tensor).
    """
    parent = _current_builder("a while loop")
    init = _shaped_placeholders(parent, body_fn, tuple(init), names)
    flat = carried.flatten(init, names)
    carry = [carried.type_of(v) if carried.is_tensor_like(v) else None for v in flat.leaves]
    test = _trace_test(parent, cond_fn, flat, carry)
    if test.result is False:
        return tuple(init)
    body, body_out, stable = _trace_body(parent, body_fn, flat, carry)
    if stable != carry:
        test = _trace_test(parent, cond_fn, flat, stable)
    outputs = _outputs(body, body_out.leaves, stable)
    with test.builder.active():
        test_out = [test.builder.atom(test.result)]
    consts, (cond_graph, body_graph) = _close([test, body], [test_out, outputs], consts_first=True)
    inits = [carried.convert(v, t) for v, t in zip(flat.leaves, stable) if t is not None]
    hints = [root for root, t in zip(flat.roots, stable) if t is not None]
    params = {"cond_graph": cond_graph, "body_graph": body_graph, "num_consts": len(consts)}
    results = iter(parent.emit(control.while_loop_p, [*consts, *inits], params, hints=hints))
    return flat.unflatten([v if t is None else next(results) for v, t in zip(flat.leaves, stable)])


def _shaped_placeholders(
    parent: builder_mod.GraphBuilder,
    body_fn: Callable[..., tuple[Any, ...]],
    init: tuple[Any, ...],
    names: tuple[str, ...],
) -> tuple[Any, ...]:
    """``init`` whose placeholders take the structure the body gives them (a returned tuple)."""
    if not any(isinstance(v, carried.Placeholder) for v in carried.flatten(init, names).leaves):
        return init
    flat = carried.flatten(init, names)
    carry = [carried.type_of(v) if carried.is_tensor_like(v) else None for v in flat.leaves]
    probe = _trace(parent, "body", body_fn, flat, carry)
    return carried.align_placeholders(init, probe.result)[0]


def _trace_body(
    parent: builder_mod.GraphBuilder,
    body_fn: Callable[..., tuple[Any, ...]],
    flat: carried.Flat,
    carry: list[types.ValueType | None],
) -> tuple[_Trace, carried.Flat, list[types.ValueType | None]]:
    """Traces the body until the carry types are stable: the last trace, its results, the types."""
    previous = carry
    for _ in range(_MAX_LOOP_TRACES):
        body = _trace(parent, "body", body_fn, flat, carry)
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
    parent: builder_mod.GraphBuilder,
    cond_fn: Callable[..., Any],
    flat: carried.Flat,
    carry: Sequence[Any],
) -> _Trace:
    """Traces the loop condition; ``result`` becomes a bool tensor, or a Python bool if constant."""
    test = _trace(parent, "cond", cond_fn, flat, carry)
    with test.builder.active():
        test.result = _truth(test.result, "a while loop")
    return test
