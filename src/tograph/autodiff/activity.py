"""Activity analysis: which values of a graph need a cotangent.

Stage: autodiff. Input: a graph, which of its inputs are *varied* (the arguments differentiated
with respect to) and which of its outputs are *useful* (those whose cotangent is given). Output:
the set of active vars (by id): varied (they depend on a varied input) and useful (a useful
output depends on them), and of differentiable type (a float tensor, or a tensor list of floats).
Only active values get cotangents, and only their residuals are kept for the backward pass.
Requires: nothing.

``cond`` outputs depend on whatever their branch outputs depend on; ``while_loop`` carries are
solved to a fixed point over the body (a carry is varied if its initial value or the body makes
it so, and useful if a useful carry needs it in the next iteration).
"""

from __future__ import annotations

from collections.abc import Sequence

from tograph.ir import core, types
from tograph.ops import control


def differentiable(t: types.ValueType) -> bool:
    """Whether values of type ``t`` carry cotangents: float and complex tensors, lists of them."""
    if isinstance(t, types.ListType):
        return t.elem is not None and t.elem.dtype.kind in "fc"
    return t.dtype.kind in "fc"


def active_vars(
    graph: core.Graph, varied_inputs: Sequence[bool], useful_outputs: Sequence[bool]
) -> set[int]:
    """Ids of the vars of ``graph`` (not of nested graphs) that need a cotangent."""
    return varied(graph, varied_inputs) & useful(graph, useful_outputs)


def varied(graph: core.Graph, inputs: Sequence[bool]) -> set[int]:
    """Ids of the differentiable vars of ``graph`` that depend on a varied input."""
    found = {v.id for v, on in zip(graph.inputs, inputs) if on and differentiable(v.type)}
    for eqn in graph.eqns:
        mask = [isinstance(a, core.Var) and a.id in found for a in eqn.inputs]
        if not any(mask):
            continue
        if eqn.prim is control.cond_p:
            outs = _varied_cond(eqn, mask[1:])
        elif eqn.prim is control.while_loop_p:
            outs = varied_carries(eqn, mask)
        else:
            outs = [True] * len(eqn.outputs)
        found.update(v.id for v, on in zip(eqn.outputs, outs) if on and differentiable(v.type))
    return found


def _varied_cond(eqn: core.Eqn, operands: list[bool]) -> list[bool]:
    result = [False] * len(eqn.outputs)
    for branch in (eqn.params["then_graph"], eqn.params["else_graph"]):
        found = varied(branch, operands)
        result = [
            r or (isinstance(a, core.Var) and a.id in found) for r, a in zip(result, branch.outputs)
        ]
    return result


def varied_carries(eqn: core.Eqn, inputs: Sequence[bool]) -> list[bool]:
    """Which carries of a ``while_loop`` are varied, given which of its inputs are."""
    body, n = eqn.params["body_graph"], eqn.params["num_consts"]
    consts, carries = list(inputs[:n]), list(inputs[n:])
    while True:
        found = varied(body, consts + carries)
        grown = [
            c or (isinstance(a, core.Var) and a.id in found) for c, a in zip(carries, body.outputs)
        ]
        if grown == carries:
            return carries
        carries = grown


def useful(graph: core.Graph, outputs: Sequence[bool]) -> set[int]:
    """Ids of the differentiable vars of ``graph`` that a useful output depends on."""
    found = {
        a.id
        for a, on in zip(graph.outputs, outputs)
        if on and isinstance(a, core.Var) and differentiable(a.type)
    }
    for eqn in reversed(graph.eqns):
        mask = [v.id in found for v in eqn.outputs]
        if not any(mask):
            continue
        if eqn.prim is control.cond_p:
            ins = [False] + _useful_cond(eqn, mask)
        elif eqn.prim is control.while_loop_p:
            ins = useful_inputs(eqn, mask)
        else:
            ins = [True] * len(eqn.inputs)
        found.update(
            a.id
            for a, on in zip(eqn.inputs, ins)
            if on and isinstance(a, core.Var) and differentiable(a.type)
        )
    return found


def _useful_cond(eqn: core.Eqn, outputs: list[bool]) -> list[bool]:
    result = [False] * (len(eqn.inputs) - 1)
    for branch in (eqn.params["then_graph"], eqn.params["else_graph"]):
        found = useful(branch, outputs)
        result = [r or v.id in found for r, v in zip(result, branch.inputs)]
    return result


def useful_inputs(eqn: core.Eqn, outputs: Sequence[bool]) -> list[bool]:
    """Which inputs of a ``while_loop`` (consts, then carries) its useful outputs depend on."""
    body, n = eqn.params["body_graph"], eqn.params["num_consts"]
    carries = list(outputs)
    while True:
        found = useful(body, carries)
        ins = [v.id in found for v in body.inputs]
        grown = [c or i for c, i in zip(carries, ins[n:])]
        if grown == carries:
            return ins[:n] + carries
        carries = grown
