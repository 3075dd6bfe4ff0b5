"""Control-flow primitives ``cond`` and ``while_loop``, and the tracing functions that build them.

Stage: build. Input: what lowered code passes for a tensor-dependent ``if`` or ``while``: the
condition, the branch / loop functions, and the values of the variables they use, as pytrees
(nested tuples, lists, dicts) of symbolic tensors, Python and NumPy numbers, and static Python
values. Output: the variables' values afterwards, the tensors among them produced by one ``cond``
or ``while_loop`` equation whose params hold the traced branches / loop as closed graphs.
Requires: a graph being built (``tograph.trace.builder``).

Printed form::

    y:f64[] = cond p x
      then(x_1:f64[]):
        t0:f64[] = negative x_1
        return t0
      else(x_2:f64[]):
        return x_2
    i:i64[]~, s:f64[] = while_loop[num_consts=1] n 0 x
      cond(n_1:i64[], i_1:i64[]~, s_1:f64[]):
        t1:bool[] = less i_1 n_1
        return t1
      body(n_2:i64[], i_2:i64[]~, s_2:f64[]):
        ...

The graphs are closed: outer values a branch or body uses are captured as extra inputs (operands
after the explicit ones for ``cond``; the leading ``num_consts`` inputs for ``while_loop``). A
branch or body output may be more specific than the equation's type (``f64[3]`` for ``f64[None]``,
see ``types.fits``); dtypes and weakness always agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, primitives, types
from tograph.ops import carried, elementwise
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

_MAX_LOOP_TRACES = 16


Undefined = carried.Undefined


# ---- primitives --------------------------------------------------------------------------


def _require(ok: bool, problem: str) -> None:
    if not ok:
        raise errors.InternalError(problem)


def _cond_rule(
    pred: types.ValueType,
    *operands: types.ValueType,
    then_graph: core.Graph,
    else_graph: core.Graph,
) -> tuple[types.ValueType, ...]:
    _require(_is_bool_scalar(pred), f"cond predicate must be a bool scalar, got {pred}")
    _require(then_graph.in_types == else_graph.in_types, "cond branches take different inputs")
    _require(_all_fit(operands, then_graph.in_types), "cond operands do not fit the branch inputs")
    _require(
        len(then_graph.outputs) == len(else_graph.outputs), "cond branches return different counts"
    )
    outs = []
    for a, b in zip(then_graph.out_types, else_graph.out_types):
        joined = types.join(a, b)
        _require(
            types.fits(a, joined) and types.fits(b, joined), f"cond branches return {a} and {b}"
        )
        outs.append(joined)
    return tuple(outs)


def _while_rule(
    *in_types: types.ValueType, cond_graph: core.Graph, body_graph: core.Graph, num_consts: int
) -> tuple[types.ValueType, ...]:
    carries = body_graph.in_types[num_consts:]
    _require(
        cond_graph.in_types == body_graph.in_types, "while_loop cond and body take different inputs"
    )
    _require(
        _all_fit(in_types, body_graph.in_types), "while_loop operands do not fit the loop inputs"
    )
    _require(
        len(cond_graph.outputs) == 1 and _is_bool_scalar(cond_graph.out_types[0]),
        f"while_loop cond must return one bool scalar, got {_types_text(cond_graph.out_types)}",
    )
    _require(
        _all_fit(body_graph.out_types, carries), "while_loop body outputs do not fit the carries"
    )
    return tuple(carries)


def _types_text(ts: Sequence[types.ValueType]) -> str:
    return f"({', '.join(map(str, ts))})"


def _is_bool_scalar(t: types.ValueType) -> bool:
    return isinstance(t, types.TensorType) and t.dtype == np.bool_ and t.shape == ()


def _all_fit(values: Sequence[types.ValueType], targets: Sequence[types.ValueType]) -> bool:
    return len(values) == len(targets) and all(types.fits(v, t) for v, t in zip(values, targets))


def _cond_impl(
    pred: Any, *operands: Any, then_graph: core.Graph, else_graph: core.Graph
) -> tuple[Any, ...]:
    from tograph.backend import codegen

    return codegen.execute(then_graph if pred else else_graph, *operands)


def _while_impl(
    *args: Any, cond_graph: core.Graph, body_graph: core.Graph, num_consts: int
) -> tuple[Any, ...]:
    from tograph.backend import codegen

    consts, carries = args[:num_consts], tuple(args[num_consts:])
    test, body = codegen.compile_graph(cond_graph), codegen.compile_graph(body_graph)
    while test(*consts, *carries)[0]:
        carries = body(*consts, *carries)
    return carries


cond_p = primitives.Primitive("cond", _cond_impl, _cond_rule, multiple_results=True)
while_loop_p = primitives.Primitive("while_loop", _while_impl, _while_rule, multiple_results=True)


# ---- tracing -----------------------------------------------------------------------------


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
            outer.setdefault(value.var.id, value)
    graphs = []
    for trace, outs in zip(traces, outputs):
        mine = {value.var.id: inner for value, inner in trace.builder.captures}
        extra = tuple(mine.get(key) or core.Var(v.var.type, v.var.hint) for key, v in outer.items())
        explicit = tuple(trace.inputs)
        inputs = extra + explicit if consts_first else explicit + extra
        graphs.append(
            core.Graph(trace.builder.name, inputs, tuple(trace.builder.eqns), tuple(outs))
        )
    return list(outer.values()), graphs


def _emit(
    parent: builder_mod.GraphBuilder,
    prim: primitives.Primitive,
    args: Sequence[Any],
    params: dict[str, Any],
    hints: Sequence[str],
) -> list[Any]:
    """Like ``GraphBuilder.emit``, but names the outputs after the user's variables."""
    inputs = tuple(parent.atom(a) for a in args)
    out_types = prim.out_types([a.type for a in inputs], params)
    outputs = tuple(core.Var(t, h) for t, h in zip(out_types, hints))
    parent.eqns.append(core.Eqn(prim, inputs, params, outputs, origin.current_location()))
    return [tensor.wrap(v, parent) for v in outputs]


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
    t = value.var.type
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
    traces[0].result, traces[1].result = carried.align_placeholders(traces[0].result, traces[1].result)
    then_out, else_out = (_results(t, names) for t in traces)
    joined = carried.merge_branches(then_out, else_out)
    outputs = [_outputs(t, out.leaves, joined) for t, out in zip(traces, (then_out, else_out))]
    captured, (then_graph, else_graph) = _close(traces, outputs, consts_first=False)
    explicit = [v for v, t in zip(flat.leaves, in_types) if t is not None]
    hints = [root for root, t in zip(then_out.roots, joined) if t is not None]
    params = {"then_graph": then_graph, "else_graph": else_graph}
    results = iter(_emit(parent, cond_p, [pred, *explicit, *captured], params, hints))
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
    results = iter(_emit(parent, while_loop_p, [*consts, *inits], params, hints))
    return flat.unflatten([v if t is None else next(results) for v, t in zip(flat.leaves, stable)])


def _shaped_placeholders(parent: builder_mod.GraphBuilder, body_fn: Callable[..., tuple[Any, ...]],
                         init: tuple[Any, ...], names: tuple[str, ...]) -> tuple[Any, ...]:
    """``init`` whose placeholders take the structure the body gives them (e.g. a returned tuple)."""
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
