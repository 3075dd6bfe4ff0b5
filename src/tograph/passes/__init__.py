"""IR passes: pure functions ``Graph -> PassResult(graph, modified)``.

Stage: optimize. Input: a graph from graph building. Output: an equivalent graph with the same
input and output types. ``dce`` drops dead equations, ``cse`` reuses identical computations,
``fold`` computes equations on constants at compile time, ``simplify`` applies exact algebraic
identities, ``licm`` moves total equations out of
loops and shared ones out of branches (``totality`` says which equations are total: they can
neither raise nor warn), ``manager.run_passes`` iterates them to a fixed point. Every pass
recurses into nested graphs (which are closed: graph building turns the outer values they use
into explicit inputs), never removes, merges or folds an equation with
effects, and leaves tensor lists to DCE alone (list values are used once; see ``ops.lists``).
A pass that changes nothing returns the very same graph object.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence

from tograph.ir import core, types


@dataclasses.dataclass(frozen=True, slots=True)
class PassResult:
    """The graph after a pass, and whether the pass changed anything."""

    graph: core.Graph
    modified: bool


Pass = Callable[[core.Graph], PassResult]


def has_effects(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` is effectful or holds a nested graph with an effectful equation."""
    if eqn.prim.effectful:
        return True
    for sub in eqn.subgraphs():
        if any(inner.prim.effectful for inner in sub.walk()):
            return True
    return False


def touches_lists(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` takes or makes a tensor list (list values must never be shared)."""
    for atoms in (eqn.inputs, eqn.outputs):
        for a in atoms:
            if isinstance(a.type, types.ListType):
                return True
    return False


def substitute(
    env: dict[core.Var, core.Atom], atoms: tuple[core.Atom, ...]
) -> tuple[core.Atom, ...]:
    """``atoms`` with each var that ``env`` maps replaced."""
    if env.keys().isdisjoint(atoms):  # atoms hash by identity: a literal is never a key
        return tuple(atoms)
    return tuple(env.get(a, a) if isinstance(a, core.Var) else a for a in atoms)


# Decides one equation, its inputs already substituted and its nested graphs rewritten: None keeps
# it, a tuple of atoms replaces its outputs (and drops it), an equation with the same outputs
# takes its place.
Visitor = Callable[[core.Eqn], "tuple[core.Atom, ...] | core.Eqn | None"]


def rewrite(
    graph: core.Graph, new_visitor: Callable[[core.Graph], Visitor], memo: dict[int, core.Graph]
) -> core.Graph:
    """``graph`` with each equation kept or replaced as a fresh visitor decides, nested graphs too.

    Args:
      graph: the graph to rewrite; returned itself when nothing changes.
      new_visitor: makes the visitor for one graph, given that graph (each nested graph gets its
        own).
      memo: rewritten nested graphs by ``id`` of the original, so that a graph shared by several
        equations stays shared (passes compare nested graphs by identity).
    """
    visit = new_visitor(graph)
    env: dict[core.Var, core.Atom] = {}
    eqns: list[core.Eqn] = []
    for eqn in graph.eqns:
        eqn = _updated(eqn, env, new_visitor, memo)
        replacement = visit(eqn)
        if replacement is None:
            eqns.append(eqn)
        elif isinstance(replacement, core.Eqn):
            eqns.append(replacement)
        else:
            env.update(zip(eqn.outputs, replacement))
    outputs = substitute(env, graph.outputs)
    if _same(eqns, graph.eqns) and _same(outputs, graph.outputs):
        return graph
    return graph.replace(eqns=tuple(eqns), outputs=outputs)


def _updated(
    eqn: core.Eqn,
    env: dict[core.Var, core.Atom],
    new_visitor: Callable[[core.Graph], Visitor],
    memo: dict[int, core.Graph],
) -> core.Eqn:
    inputs = substitute(env, eqn.inputs)
    graphs: dict[str, core.Graph] = {}
    for key, value in eqn.params.items():
        if isinstance(value, core.Graph):
            if id(value) not in memo:
                memo[id(value)] = rewrite(value, new_visitor, memo)
            if memo[id(value)] is not value:
                graphs[key] = memo[id(value)]
    if not graphs and (inputs is eqn.inputs or _same(inputs, eqn.inputs)):
        return eqn
    return dataclasses.replace(eqn, inputs=inputs, params={**eqn.params, **graphs})


def _same(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(map(operator.is_, a, b))
