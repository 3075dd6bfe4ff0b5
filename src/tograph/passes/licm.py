"""Loop-invariant code motion: total equations that a loop recomputes move before the loop.

Stage: optimize. Input: a graph. Output: the graph with, for each ``while_loop``, the equations of
its cond and body graphs that read only the loop's constants (and literals, and each other)
computed once before the loop and passed in as new constants; and, for each ``cond``, the
equations both branches compute from the same operands computed once before the branch.
Requires: nothing.

Only total equations move (``passes.totality``: no effects, cannot raise, cannot warn), so a loop
that runs zero times or a branch not taken cannot observe the move, and effects keep their order.
Arithmetic is not total (it can overflow or divide by zero: a warning, or an error under
``np.errstate``), so ``x * 2`` of a loop constant stays in the loop. Example::

    x:f64[3] = while_loop[num_consts=1] w x0
      body(w_1:f64[4,3], x_1:f64[3]):
        t0:f64[3,4] = transpose w_1
        t1:f64[3] = matmul t0 x_1
    ->
    t0:f64[3,4] = transpose w
    x:f64[3] = while_loop[num_consts=2] w t0 x0
      body(w_1:f64[4,3], t0_1:f64[3,4], x_1:f64[3]):
        t1:f64[3] = matmul t0_1 x_1

Nested loops are handled inside out: the pass manager's next round moves an equation hoisted into
an outer body further out when it is invariant there too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable

from tograph import passes
from tograph.ir import core
from tograph.ops import control
from tograph.passes import cse, totality


def hoist_loop_invariants(graph: core.Graph) -> passes.PassResult:
    """Moves loop-invariant and branch-common total equations out; see module docstring."""
    if not any(isinstance(v, core.Graph) for eqn in graph.eqns for v in eqn.params.values()):
        return passes.PassResult(graph, False)  # no loop or branch: nothing to move
    new = _graph(graph, {})
    return passes.PassResult(new, new is not graph)


def _graph(graph: core.Graph, memo: dict[int, core.Graph]) -> core.Graph:
    eqns: list[core.Eqn] = []
    changed = False
    for eqn in graph.eqns:
        inner = _nested(eqn, memo)
        if eqn.prim is control.while_loop_p:
            moved = _hoist_while(inner)
        elif eqn.prim is control.cond_p:
            moved = _hoist_cond(inner)
        else:
            moved = [inner]
        changed = changed or moved != [eqn]
        eqns.extend(moved)
    return graph.replace(eqns=tuple(eqns)) if changed else graph


def _nested(eqn: core.Eqn, memo: dict[int, core.Graph]) -> core.Eqn:
    params = dict(eqn.params)
    for key, value in eqn.params.items():
        if isinstance(value, core.Graph):
            if id(value) not in memo:
                memo[id(value)] = _graph(value, memo)
            params[key] = memo[id(value)]
    if all(params[k] is v for k, v in eqn.params.items()):
        return eqn
    return dataclasses.replace(eqn, params=params)


@dataclasses.dataclass
class _Hoisting:
    """Equations moved out of nested graphs, and the outer value of each invariant inner value."""

    outer: dict[core.Var, core.Atom]
    moved: list[core.Eqn] = dataclasses.field(default_factory=list)

    def move(self, eqn: core.Eqn) -> None:
        """Emits ``eqn`` outside, its inputs read from outer values, its outputs fresh vars."""
        outputs = tuple(core.Var(v.type, v.hint) for v in eqn.outputs)
        inputs = tuple(self.outer.get(a, a) if isinstance(a, core.Var) else a for a in eqn.inputs)
        self.moved.append(dataclasses.replace(eqn, inputs=inputs, outputs=outputs))
        self.outer.update(zip(eqn.outputs, outputs))

    def invariant(self, eqn: core.Eqn) -> bool:
        return totality.is_total(eqn) and all(
            isinstance(a, core.Lit) or a in self.outer for a in eqn.inputs
        )


def _split(graph: core.Graph, hoisting: _Hoisting) -> tuple[core.Graph, list[core.Var]]:
    """``graph`` without its invariant equations (moved into ``hoisting``), and the vars of the
    moved values it still uses, which become its new inputs."""
    kept = []
    for eqn in graph.eqns:
        if hoisting.invariant(eqn):
            hoisting.move(eqn)
        else:
            kept.append(eqn)
    if len(kept) == len(graph.eqns):
        return graph, []
    used = {a for eqn in kept for a in eqn.inputs if isinstance(a, core.Var)}
    used.update(a for a in graph.outputs if isinstance(a, core.Var))
    own = {v for eqn in graph.eqns for v in eqn.outputs}
    needed = [v for v in hoisting.outer if v in own and v in used]
    return graph.replace(eqns=tuple(kept)), needed


def _hoist_while(eqn: core.Eqn) -> list[core.Eqn]:
    n = eqn.params["num_consts"]
    consts, carries = eqn.inputs[:n], eqn.inputs[n:]
    test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
    hoisting = _Hoisting(
        {**dict(zip(test.inputs[:n], consts)), **dict(zip(body.inputs[:n], consts))}
    )
    test, from_test = _split(test, hoisting)
    body, from_body = _split(body, hoisting)
    if not from_test and not from_body:
        return [eqn]  # nothing moved, or only values the loop does not use
    # each new constant is an input of both graphs: the var its own graph uses, a fresh one in the
    # other graph
    test_new = [*from_test, *(_fresh(v) for v in from_body)]
    body_new = [*(_fresh(v) for v in from_test), *from_body]
    outer = [hoisting.outer[v] for v in (*from_test, *from_body)]
    test = test.replace(inputs=(*test.inputs[:n], *test_new, *test.inputs[n:]))
    body = body.replace(inputs=(*body.inputs[:n], *body_new, *body.inputs[n:]))
    params = dict(eqn.params, cond_graph=test, body_graph=body, num_consts=n + len(outer))
    loop = dataclasses.replace(eqn, inputs=(*consts, *outer, *carries), params=params)
    return [*hoisting.moved, loop]


def _hoist_cond(eqn: core.Eqn) -> list[core.Eqn]:
    pred, operands = eqn.inputs[0], eqn.inputs[1:]
    then_graph, else_graph = eqn.params["then_graph"], eqn.params["else_graph"]
    hoisting = _Hoisting(
        {**dict(zip(then_graph.inputs, operands)), **dict(zip(else_graph.inputs, operands))}
    )
    pairs = _common(then_graph, else_graph, hoisting)
    if not pairs:
        return [eqn]
    then_new = [v for first, _ in pairs for v in first.outputs]
    else_new = [v for _, second in pairs for v in second.outputs]
    params = dict(
        eqn.params,
        then_graph=_without(then_graph, {id(first) for first, _ in pairs}, then_new),
        else_graph=_without(else_graph, {id(second) for _, second in pairs}, else_new),
    )
    outer = [hoisting.outer[v] for v in then_new]
    branch = dataclasses.replace(eqn, inputs=(pred, *operands, *outer), params=params)
    return [*hoisting.moved, branch]


def _common(
    then_graph: core.Graph, else_graph: core.Graph, hoisting: _Hoisting
) -> list[tuple[core.Eqn, core.Eqn]]:
    """Pairs of invariant equations, one per branch, that compute the same from the same outer
    values; each is moved into ``hoisting`` (the else one's outputs read the moved outputs)."""
    pairs: list[tuple[core.Eqn, core.Eqn]] = []
    unmatched = list(else_graph.eqns)
    for first in then_graph.eqns:
        if not hoisting.invariant(first):
            continue
        key = _key(first, hoisting)
        for second in unmatched:
            if hoisting.invariant(second) and _key(second, hoisting) == key:
                unmatched.remove(second)
                hoisting.move(first)
                hoisting.outer.update(zip(second.outputs, hoisting.moved[-1].outputs))
                pairs.append((first, second))
                break
    return pairs


def _key(eqn: core.Eqn, hoisting: _Hoisting) -> Hashable:
    inputs: list[Hashable] = []
    for a in eqn.inputs:
        atom = hoisting.outer[a] if isinstance(a, core.Var) else a
        if isinstance(atom, core.Var):
            inputs.append(("var", atom.id))
        else:
            inputs.append(("lit", atom.type, cse.freeze(atom.value)))
    return (eqn.prim.name, tuple(inputs), cse.freeze(eqn.params))


def _without(graph: core.Graph, dropped: set[int], new_inputs: list[core.Var]) -> core.Graph:
    """``graph`` without the ``dropped`` equations, whose outputs become new inputs."""
    eqns = tuple(e for e in graph.eqns if id(e) not in dropped)
    return graph.replace(inputs=(*graph.inputs, *new_inputs), eqns=eqns)


def _fresh(var: core.Var) -> core.Var:
    return core.Var(var.type, var.hint)
