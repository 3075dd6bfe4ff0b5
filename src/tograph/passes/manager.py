"""The pass manager: runs IR passes until none changes the graph.

Stage: optimize. Input: a built graph. Output: ``PassResult(graph, modified)`` after running the
passes in order, repeatedly, until every pass has left the graph as it is (the last to change it
counts, having reached its own fixed point) or ``max_iterations`` rounds ran.
Requires: nothing. Each pass must keep the graph's input and output types; the manager checks,
and with ``ir.check`` checks on it runs the graph checker after every pass that changed the graph.
"""

from __future__ import annotations

from collections.abc import Sequence

from tograph import errors
from tograph.ir import check, core
from tograph.passes import Pass, PassResult, cse, dce, fold, licm, simplify

DEFAULT_PASSES: tuple[Pass, ...] = (
    fold.fold_constants,
    simplify.simplify_algebra,
    cse.eliminate_common_subexpressions,
    licm.hoist_loop_invariants,
    dce.eliminate_dead_code,
)
# a gradient graph's: no eager run has warnings for it to keep one by one
GRADIENT_PASSES: tuple[Pass, ...] = tuple(
    cse.eliminate_in_gradient if p is cse.eliminate_common_subexpressions else p
    for p in DEFAULT_PASSES
)


def run_passes(
    graph: core.Graph, passes: Sequence[Pass] = DEFAULT_PASSES, max_iterations: int = 10
) -> PassResult:
    """Runs ``passes`` over ``graph`` in order, round after round (at most ``max_iterations``),
    until each has run on the graph as it is without changing it.

    A pass reaches its own fixed point in one run (each rewrites the graph in one sweep that sees
    its own rewrites), so the pass that changed the graph last is not run again on its own
    result: the others running after it without a change ends the iteration.

    Raises:
      InternalError: a pass changed the graph's input or output types.
    """
    modified = False
    unchanged = 0  # passes run in a row on the current graph without changing it
    settled = len(passes)  # that many: each has left the current graph as it is
    for _ in range(max_iterations):
        for run in passes:
            if unchanged >= settled:
                return PassResult(graph, modified)
            result = run(graph)
            if result.modified:
                _check_signature(graph, result.graph, run)
                check.check_if_enabled(result.graph, f"after pass {run.__name__}")
                graph, modified = result.graph, True
                unchanged, settled = 0, len(passes) - 1
            else:
                unchanged += 1
    return PassResult(graph, modified)


def optimize_gradient(graph: core.Graph) -> PassResult:
    """``run_passes`` with a gradient graph's passes (``GRADIENT_PASSES``)."""
    return run_passes(graph, GRADIENT_PASSES)


def _check_signature(before: core.Graph, after: core.Graph, run: Pass) -> None:
    if before.in_types != after.in_types or before.out_types != after.out_types:
        raise errors.InternalError(
            f"pass {run.__name__} changed the signature of graph {before.name} from "
            f"{_signature_text(before)} to {_signature_text(after)}\n{after}"
        )


def _signature_text(graph: core.Graph) -> str:
    ins = ", ".join(map(str, graph.in_types))
    outs = ", ".join(map(str, graph.out_types))
    return f"({ins}) -> ({outs})"
