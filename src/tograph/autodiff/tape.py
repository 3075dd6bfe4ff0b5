"""Backward over an eager tape: the records become a graph, differentiated like any other.

Stage: autodiff (eager mode). Input: a ``tograph.eager.Tape``, the scalar output computed on it,
and the watched values to differentiate with respect to. Output: the gradients, as eager values
(so that an enclosing tape records their computation too: gradients of gradients).

The records form a straight-line graph whose inputs are the watched values; values the tape did
not record are constants. ``vjp.gradient`` differentiates it in *replay* mode: the recorded
values are inputs of the gradient graph instead of being computed again, and dead-code
elimination keeps only what the gradient needs. ``run_eagerly`` then runs it equation by equation
on eager values. Requires: tograph.autodiff.vjp.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff import activity, vjp
from tograph.eager import tape as tape_mod
from tograph.eager import tensor as eager_tensor
from tograph.ir import core, types
from tograph.passes import manager


def backward(
    tape: tape_mod.Tape, output: Any, wrt: Sequence[eager_tensor.EagerTensor]
) -> list[Any]:
    """The gradients of the scalar ``output`` with respect to the watched values ``wrt``.

    Raises:
      UnsupportedError: a recorded primitive has no gradient rule, or works on tensor lists.
    """
    graph, replayed = gradient_graph(tape, output, wrt)
    if graph is None:
        return [np.zeros_like(w.value) for w in wrt]
    return run_eagerly(graph, [*wrt, *replayed])[1:]


def gradient_graph(
    tape: tape_mod.Tape, output: Any, wrt: Sequence[eager_tensor.EagerTensor]
) -> tuple[core.Graph | None, list[Any]]:
    """The optimized graph computing ``output`` and its gradients from ``wrt`` and recorded values.

    Returns:
      The graph (None if ``output`` was not computed from ``wrt`` on the tape) and the recorded
      values it takes after ``wrt``.
    """
    graph, replay = _graph_of(tape, output, wrt)
    if not isinstance(graph.outputs[0], core.Var):
        return None, []
    grad = vjp.gradient(graph, range(len(wrt)), 0, "tape_grad", replay=replay)
    return manager.optimize_gradient(grad.graph).graph, grad.replayed


def _graph_of(
    tape: tape_mod.Tape, output: Any, wrt: Sequence[eager_tensor.EagerTensor]
) -> tuple[core.Graph, dict[int, Any]]:
    """The tape's records as a graph from ``wrt`` to ``output``; the recorded values by var id."""
    env: dict[int, core.Var] = {}
    inputs = []
    for k, value in enumerate(wrt):
        var = core.Var(value.type, f"x{k}")
        env[id(value)] = var
        inputs.append(var)
    eqns, replay = [], {}
    for record in tape.records:
        args = tuple(_atom(value, env, record.prim) for value in record.inputs)
        outs = tuple(core.Var(eager_tensor.value_type(v)) for v in record.outputs)
        for value, var in zip(record.outputs, outs):
            env[id(value)] = var
            replay[var.id] = value
        eqns.append(core.Eqn(record.prim, args, record.params, outs, record.loc))
    result = env.get(id(output)) or core.Lit.of(eager_tensor.unwrap(output))
    return core.Graph("tape", tuple(inputs), tuple(eqns), (result,)), replay


def _atom(value: Any, env: dict[int, core.Var], prim: Any) -> core.Atom:
    if id(value) in env:
        found = env[id(value)]
        if isinstance(found.type, types.ListType) and activity.differentiable(found.type):
            raise errors.UnsupportedError(
                f"gradients through tensor lists on an eager tape are not supported ({prim.name})",
                hint="use Python lists in eager code, or compile the function with to_static",
                construct="tensor list on a tape",
            )
        return found
    if isinstance(value, eager_tensor.EagerTensor):
        return core.Lit(value.value, value.type)
    if isinstance(value, (eager_tensor.EagerList, list)):
        return core.Lit(eager_tensor.unwrap(value), eager_tensor.value_type(value))
    return core.Lit.of(value)


def run_eagerly(graph: core.Graph, args: Sequence[Any]) -> list[Any]:
    """Runs ``graph`` by applying each primitive to eager values (active tapes record them)."""
    env: dict[int, Any] = {v.id: a for v, a in zip(graph.inputs, args)}

    def read(atom: core.Atom) -> Any:
        return atom.value if isinstance(atom, core.Lit) else env[atom.id]

    for eqn in graph.eqns:
        out = eqn.prim.bind(*(read(a) for a in eqn.inputs), **eqn.params)
        env.update(zip((v.id for v in eqn.outputs), out if eqn.prim.multiple_results else (out,)))
    return [read(a) for a in graph.outputs]
