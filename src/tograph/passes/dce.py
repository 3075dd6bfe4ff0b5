"""Dead code elimination: drops equations whose outputs nothing uses.

Stage: optimize. Input: a graph. Output: the graph without dead equations, in its nested graphs
too. Requires: ``passes.totality``. Equations with effects (``print``, ``assert``, or a nested
graph holding one) always stay, and so do those that may raise (``totality.may_raise``: an index
out of range, a reshape of run-time dimensions, ``inv`` of a singular matrix, or a ``cond`` or
``while_loop`` holding one), since eager code raises there even when the value is never used.
(Equations that may only warn go: the lowered code has dead copies of some, a loop's first test,
say, that eager code evaluates once; but in an ``np.errstate`` region that raises, where eager
code raises on them, they stay.) Control flow is pruned inside as well:

- ``cond``: an output unused outside is removed from both branches, then an operand neither
  branch uses is removed.
- ``while_loop``: a carry unused outside is removed when neither the loop condition, nor another
  kept carry, nor an effect in the body depends on it; then a constant the loop no longer uses.

Example::

    t0:f64[3] = exp x
    t1:f64[3] = sin x       ->    t0:f64[3] = exp x
    return t0                     return t0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

from tograph import passes
from tograph.ir import core
from tograph.ops import control, errstates
from tograph.passes import totality

T = TypeVar("T")


def eliminate_dead_code(graph: core.Graph) -> passes.PassResult:
    """Removes the dead equations of ``graph`` and its nested graphs; see module docstring."""
    new = _sweep(graph)
    return passes.PassResult(new, new is not graph)


def _sweep(graph: core.Graph, raising: bool = False) -> core.Graph:
    """``graph`` without dead equations (same inputs and outputs); itself if nothing is dead.
    ``raising``: the graph runs where a warning is an error (``np.errstate`` with ``raise``)."""
    live = {a for a in graph.outputs if isinstance(a, core.Var)}
    kept: list[core.Eqn] = []
    regions = _raising_regions(graph) if not raising else set()
    for k in reversed(range(len(graph.eqns))):
        eqn = graph.eqns[k]
        new = _keep(eqn, [v in live for v in eqn.outputs], raising or k in regions)
        if new is not None:
            kept.append(new)
            live.update(a for a in new.inputs if isinstance(a, core.Var))
    kept.reverse()
    if len(kept) == len(graph.eqns) and all(a is b for a, b in zip(kept, graph.eqns)):
        return graph
    return graph.replace(eqns=tuple(kept))


def _raising_regions(graph: core.Graph) -> set[int]:
    """The indices of the equations of ``graph`` inside an ``errstate`` region that raises."""
    found: set[int] = set()
    for k, eqn in enumerate(graph.eqns):
        if eqn.prim is errstates.errstate_p and errstates.raises(eqn.params["settings"]):
            found.update(range(k + 1, errstates.region_end(graph.eqns, k)))
    return found


def _keep(eqn: core.Eqn, used: list[bool], raising: bool) -> core.Eqn | None:
    """``eqn`` pruned inside, or None if it is dead."""
    if not any(used) and _unobservable(eqn, raising):
        return None
    if eqn.prim is control.cond_p:
        return _prune_cond(eqn, used, raising)
    if eqn.prim is control.while_loop_p:
        return _prune_while(eqn, used, raising)
    swept = {k: _sweep(v, raising) for k, v in eqn.params.items() if isinstance(v, core.Graph)}
    if all(swept[k] is eqn.params[k] for k in swept):
        return eqn
    return dataclasses.replace(eqn, params={**eqn.params, **swept})


def _unobservable(eqn: core.Eqn, raising: bool) -> bool:
    """Whether nothing would tell that ``eqn`` did not run: it has no effects and cannot raise
    (nor warn, where warnings raise), nor can any equation nested in it."""
    nested = list(eqn.subgraphs())
    if nested:
        return all(_unobservable(e, raising) for graph in nested for e in graph.eqns)
    if raising and not totality.is_total(eqn):
        return False
    return not eqn.prim.effectful and not totality.may_raise(eqn)


def _prune_cond(eqn: core.Eqn, used: list[bool], raising: bool) -> core.Eqn:
    then_graph = _sweep(_select_outputs(eqn.params["then_graph"], used), raising)
    else_graph = _sweep(_select_outputs(eqn.params["else_graph"], used), raising)
    needed = [a or b for a, b in zip(_uses_inputs(then_graph), _uses_inputs(else_graph))]
    params = dict(
        eqn.params,
        then_graph=_select_inputs(then_graph, needed),
        else_graph=_select_inputs(else_graph, needed),
    )
    if all(used) and all(needed) and _same_graphs(params, eqn.params):
        return eqn
    pred, operands = eqn.inputs[0], eqn.inputs[1:]
    return dataclasses.replace(
        eqn,
        inputs=(pred, *_select(operands, needed)),
        params=params,
        outputs=_select(eqn.outputs, used),
    )


def _prune_while(eqn: core.Eqn, used: list[bool], raising: bool) -> core.Eqn:
    num_consts = eqn.params["num_consts"]
    cond_graph = _sweep(eqn.params["cond_graph"], raising)
    body = eqn.params["body_graph"]
    live, body_graph = _live_carries(cond_graph, body, num_consts, used, raising)
    consts = [a or b for a, b in zip(_uses_inputs(cond_graph), _uses_inputs(body_graph))][
        :num_consts
    ]
    keep_inputs = consts + live
    params = dict(
        eqn.params,
        cond_graph=_select_inputs(cond_graph, keep_inputs),
        body_graph=_select_inputs(body_graph, keep_inputs),
        num_consts=sum(consts),
    )
    if all(keep_inputs) and _same_graphs(params, eqn.params):
        return eqn
    return dataclasses.replace(
        eqn,
        inputs=_select(eqn.inputs, keep_inputs),
        params=params,
        outputs=_select(eqn.outputs, live),
    )


def _live_carries(
    cond_graph: core.Graph,
    body_graph: core.Graph,
    num_consts: int,
    used: list[bool],
    raising: bool,
) -> tuple[list[bool], core.Graph]:
    """The carries to keep (see module docstring), and the body computing only those."""
    live = [u or c for u, c in zip(used, _uses_inputs(cond_graph)[num_consts:])]
    while True:
        body = _sweep(_select_outputs(body_graph, live), raising)
        grown = [a or b for a, b in zip(live, _uses_inputs(body)[num_consts:])]
        if grown == live:
            return live, body
        live = grown


def _uses_inputs(graph: core.Graph) -> list[bool]:
    """For each input of ``graph``, whether an equation or an output uses it."""
    used = {a for eqn in graph.eqns for a in eqn.inputs if isinstance(a, core.Var)}
    used.update(a for a in graph.outputs if isinstance(a, core.Var))
    return [v in used for v in graph.inputs]


def _select(items: Sequence[T], keep: Sequence[bool]) -> tuple[T, ...]:
    return tuple(item for item, k in zip(items, keep) if k)


def _select_outputs(graph: core.Graph, keep: Sequence[bool]) -> core.Graph:
    return graph if all(keep) else graph.replace(outputs=_select(graph.outputs, keep))


def _select_inputs(graph: core.Graph, keep: Sequence[bool]) -> core.Graph:
    return graph if all(keep) else graph.replace(inputs=_select(graph.inputs, keep))


def _same_graphs(new: dict[str, object], old: dict[str, object]) -> bool:
    return all(new[k] is v for k, v in old.items() if isinstance(v, core.Graph))
