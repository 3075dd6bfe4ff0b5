"""A nested graph (loop body, cond branch) split into a forward half and a backward half.

Stage: autodiff (used by ``control_flow``). Input: the nested graph, which of its inputs are
varied and which outputs get cotangents. Output: ``Halves``: the forward half F (computing the
graph's outputs; still open, so the caller can add pushes) and the backward half B (a closed
graph from the outputs' cotangents to the inputs'), and the *residuals*: the forward values B
reads. Requires: tograph.autodiff.vjp, tograph.autodiff.activity.

Scalar arithmetic that B does on residuals only (run-time dims and counts) moves into F, so a
scalar is saved instead of an array. ``hoist_invariants`` moves loop-invariant equations out of a
loop body.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from tograph.autodiff import activity, vjp
from tograph.ir import core, types
from tograph.passes import dce


@dataclasses.dataclass
class Residual:
    """A forward value that the backward half reads: B's input ``var``, F's ``value``.

    ``input`` is the index of the nested graph's input that ``value`` is, if it is one.
    """

    var: core.Var
    value: Any
    input: int | None


@dataclasses.dataclass
class Halves:
    """A nested graph split by a ``vjp.Sweep`` in a ``vjp.Split`` frame.

    F (``split.fwd``) computes ``outputs`` from ``inputs`` (and the slots' stacks). B (``bwd``)
    takes the cotangents of the useful outputs, the slots' stacks and the residuals' vars; it
    returns the cotangents of the inputs chosen by ``ct_mask`` (zeros where none flows), then
    the slots' stacks.
    """

    split: vjp.Split
    inputs: list[core.Var]
    outputs: list[Any]
    bwd: core.Graph
    residuals: list[Residual]


def split_graph(
    graph: core.Graph,
    varied: Sequence[bool],
    useful: Sequence[bool],
    ct_types: Sequence[types.ValueType],
    ct_mask: Sequence[bool],
) -> Halves:
    """Differentiates the nested ``graph`` into its two halves (see ``Halves``).

    Args:
      graph: a cond branch or loop body.
      varied: which inputs depend on a differentiated value.
      useful: which outputs get a cotangent.
      ct_types: the types of the outputs' cotangents (the enclosing equation's output types).
      ct_mask: which inputs' cotangents B returns.
    """
    split = vjp.Split(graph.name)
    f_inputs = [split.fwd.add_input(v.type, v.hint) for v in graph.inputs]
    sweep = vjp.Sweep(split, activity.active_vars(graph, varied, useful))
    sweep.forward(graph, f_inputs)
    outputs = [sweep.read(a) for a in graph.outputs]
    head = [split.bwd.add_input(t, "ct") for t, on in zip(ct_types, useful) if on]
    cts = iter(head)
    sweep.backward(graph, [next(cts) if on else None for on in useful])
    with split.bwd.active():
        wanted = [v for v, on in zip(graph.inputs, ct_mask) if on]
        in_cts = [vjp.fit(sweep.ct_or_zeros(v), v.type) for v in wanted]
    stacks = [s.bwd_cur for s in split.slots]
    bwd, residuals = _close_bwd(split, [h.graph_var for h in head], [*in_cts, *stacks])
    index = {v.graph_var.id: i for i, v in enumerate(f_inputs)}
    found = [Residual(var, value, index.get(value.graph_var.id)) for var, value in residuals]
    return Halves(split, [v.graph_var for v in f_inputs], outputs, bwd, found)


def _close_bwd(
    split: vjp.Split, head: list[core.Var], outputs: list[Any]
) -> tuple[core.Graph, list[tuple[core.Var, Any]]]:
    """B as a closed graph: inputs ``head``, the slots' stacks, then the residuals it uses."""
    b = split.bwd
    with b.active():
        out_atoms = tuple(b.atom(v) for v in outputs)
    outer: dict[int, Any] = {inner.id: value for value, inner in b.captures}
    residuals: dict[int, core.Var] = {inner.id: inner for _, inner in b.captures}
    kept: list[core.Eqn] = []
    for eqn in b.eqns:
        if not _scalar_on_residuals(eqn, outer):
            kept.append(eqn)
            continue
        args = [outer[a.id] if isinstance(a, core.Var) else a.value for a in eqn.inputs]
        for var, value in zip(eqn.outputs, vjp.emit(split.fwd, eqn, args)):
            outer[var.id], residuals[var.id] = value, var
    fixed = (*head, *(s.bwd_in for s in split.slots))
    candidates = tuple(residuals.values())
    graph = core.Graph(b.name, (*fixed, *candidates), tuple(kept), out_atoms)
    graph = dce.eliminate_dead_code(graph).graph
    used = _used_vars(graph.eqns, graph.outputs)
    needed = [v for v in candidates if v.id in used]
    return graph.replace(inputs=(*fixed, *needed)), [(v, outer[v.id]) for v in needed]


def _scalar_on_residuals(eqn: core.Eqn, outer: dict[int, Any]) -> bool:
    """Scalar arithmetic on forward values only: cheaper to save than its operands."""
    if not _movable(eqn):
        return False
    if not all(isinstance(v.type, types.TensorType) and v.type.shape == () for v in eqn.outputs):
        return False
    return all(isinstance(a, core.Lit) or a.id in outer for a in eqn.inputs)


def _movable(eqn: core.Eqn) -> bool:
    """Pure, without nested graphs, and not on tensor lists (their kernels work in place)."""
    if eqn.prim.effectful or any(True for _ in eqn.subgraphs()):
        return False
    return not any(isinstance(a.type, types.ListType) for a in (*eqn.inputs, *eqn.outputs))


def _used_vars(eqns: Sequence[core.Eqn], outputs: Sequence[core.Atom]) -> set[int]:
    used = {a.id for eqn in eqns for a in eqn.inputs if isinstance(a, core.Var)}
    used.update(a.id for a in outputs if isinstance(a, core.Var))
    return used


def hoist_invariants(body: core.Graph, n: int) -> tuple[core.Graph, list[core.Eqn], list[core.Var]]:
    """Moves the equations of a loop body that read only its ``n`` constants out of it.

    Returns:
      The body, which takes the hoisted values it uses as extra constants (after the first
      ``n``); the hoisted equations, in order, for the caller to emit before the loop; and the
      vars of those extra constants.
    """
    invariant = {v.id for v in body.inputs[:n]}
    hoisted: list[core.Eqn] = []
    kept: list[core.Eqn] = []
    for eqn in body.eqns:
        if _movable(eqn) and all(isinstance(a, core.Lit) or a.id in invariant for a in eqn.inputs):
            hoisted.append(eqn)
            invariant.update(v.id for v in eqn.outputs)
        else:
            kept.append(eqn)
    used = _used_vars(kept, body.outputs)
    extra = [v for eqn in hoisted for v in eqn.outputs if v.id in used]
    inputs = (*body.inputs[:n], *extra, *body.inputs[n:])
    return body.replace(inputs=inputs, eqns=tuple(kept)), hoisted, extra
