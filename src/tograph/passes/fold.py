"""Constant folding: an equation whose operands are all literals becomes literals.

Stage: optimize. Input: a graph. Output: the graph with such equations computed by their kernel
at compile time and their uses replaced by ``Lit``s of the output types (a Python scalar for a
weak type, a NumPy value otherwise). Requires: nothing. Example::

    t0:f64[] = multiply 2.0:f64 3.0:f64       ->    t1:f64[3] = add x 6.0:f64
    t1:f64[3] = add x t0

An equation is left alone when it has effects, nested graphs (a loop could run for long) or
tensor lists (a literal list would be shared between runs), when it has no operands at all
(creation ops: nothing is saved by folding them, and a random draw must happen on each run), when
its kernel raises or warns (the error belongs to run time, where it points at the user's line),
when the result does not fit the output type, when it is larger than ``MAX_ELEMENTS``, or when
it is an array the graph returns (each call must get a fresh array it may change). Folded arrays
are read-only, as every run shares them.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tograph import passes
from tograph.ir import core, types

MAX_ELEMENTS = 1 << 20


def fold_constants(graph: core.Graph) -> passes.PassResult:
    """Folds the equations of ``graph`` and its nested graphs on literals; see module docstring."""
    if not any(_on_literals(eqn) for eqn in graph.walk()):
        return passes.PassResult(graph, False)  # no equation to start from: nothing folds
    new = passes.rewrite(graph, _visitor, {})
    return passes.PassResult(new, new is not graph)


def _visitor(graph: core.Graph) -> passes.Visitor:
    returned = {a for a in graph.outputs if isinstance(a, core.Var)}
    return lambda eqn: _fold(eqn, returned)


def _on_literals(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` has operands and all are literals (what folding needs, among more)."""
    return bool(eqn.inputs) and all(isinstance(a, core.Lit) for a in eqn.inputs)


def _fold(eqn: core.Eqn, returned: set[core.Var]) -> tuple[core.Atom, ...] | None:
    if not _on_literals(eqn):
        return None
    if passes.has_effects(eqn) or passes.touches_lists(eqn) or next(eqn.subgraphs(), None):
        return None
    values = _evaluate(eqn)
    if values is None or len(values) != len(eqn.outputs):
        return None
    lits = []
    for value, var in zip(values, eqn.outputs):
        if var in returned and isinstance(value, np.ndarray):
            return None  # each run must return a fresh array the caller may change
        lit = _literal(value, var.type)
        if lit is None:
            return None
        lits.append(lit)
    return tuple(lits)


def _evaluate(eqn: core.Eqn) -> tuple[Any, ...] | None:
    """The kernel's results, or None if it raises or warns."""
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        try:
            values = [lit.value for lit in eqn.inputs if isinstance(lit, core.Lit)]
            result = eqn.prim.impl(*values, **eqn.params)
        except Exception:  # noqa: BLE001 - raised again when the graph runs, at the user's line
            return None
    return tuple(result) if eqn.prim.multiple_results else (result,)


def _literal(value: Any, t: types.ValueType) -> core.Lit | None:
    """``value`` as a literal of type ``t``, or None if it does not fit or is too large."""
    is_numpy = isinstance(value, (np.ndarray, np.generic))
    if not isinstance(t, types.TensorType) or not (is_numpy or types.is_python_scalar(value)):
        return None
    if np.size(value) > MAX_ELEMENTS:
        return None
    if t.weak:
        if np.ndim(value) != 0:
            return None
        value = np.asarray(value).item()
    elif types.is_python_scalar(value):
        value = t.dtype.type(value)
    elif isinstance(value, np.ndarray):
        value = np.array(value)
        value.flags.writeable = False
    if not types.matches(t, value):
        return None
    return core.Lit(value, t)
