"""Common subexpression elimination: an equation identical to an earlier one reuses its outputs.

Stage: optimize. Input: a graph. Output: the graph with later duplicates removed and their uses
pointing at the first occurrence. Requires: nothing. Two equations are identical when they apply
the same primitive to the same operands (vars by identity, literals by type and value) with equal
params (compared by value; nested graphs by identity). Equations with effects, equations on
tensor lists and equations that may warn or raise (not ``totality.is_total``: eager code warns
once per evaluation, so ``np.log(x)`` written twice warns twice) are never merged. Each nested
graph is handled on its own. A graph none of whose equations can be merged (every one may
warn, as most straight-line arithmetic may) is returned at once, without the rewrite. Example::

    a:f64[3] = maximum x 0.0         a:f64[3] = maximum x 0.0
    b:f64[3] = maximum x 0.0   ->    c:f64[3] = add a a
    c:f64[3] = add a b               return c
    return c
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Hashable
from typing import Any

import numpy as np

from tograph import passes
from tograph.ir import core, types
from tograph.passes import totality


def eliminate_common_subexpressions(graph: core.Graph) -> passes.PassResult:
    """Merges identical pure equations of ``graph`` and its nested graphs that can neither warn
    nor raise; see module docstring."""
    if not any(_quiet(eqn) for eqn in graph.walk()):
        return passes.PassResult(graph, False)  # every equation may warn: none is merged
    new = passes.rewrite(graph, functools.partial(_visitor, quiet_only=True), {})
    return passes.PassResult(new, new is not graph)


def eliminate_in_gradient(graph: core.Graph) -> passes.PassResult:
    """``eliminate_common_subexpressions`` for a gradient graph, which merges equations that may
    warn too: no eager run has warnings to match there (the backward pass recomputes forward
    values the forward pass already made)."""
    new = passes.rewrite(graph, functools.partial(_visitor, quiet_only=False), {})
    return passes.PassResult(new, new is not graph)


def _visitor(_graph: core.Graph, quiet_only: bool) -> passes.Visitor:
    seen: dict[Hashable, core.Eqn] = {}

    def visit(eqn: core.Eqn) -> tuple[core.Atom, ...] | None:
        if passes.has_effects(eqn) or passes.touches_lists(eqn):
            return None
        if quiet_only and not _quiet(eqn):
            return None
        key = (eqn.prim.name, tuple([_atom_key(a) for a in eqn.inputs]), freeze(eqn.params))
        first = seen.setdefault(key, eqn)
        return None if first is eqn else first.outputs

    return visit


def _quiet(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` can neither raise nor warn: it is total, or it is control flow whose
    nested equations all are."""
    nested = list(eqn.subgraphs())
    if not nested:
        return totality.is_total(eqn)
    return all(_quiet(e) for graph in nested for e in graph.eqns)


def _atom_key(atom: core.Atom) -> Hashable:
    if isinstance(atom, core.Var):
        return ("var", atom.id)
    return ("lit", atom.type, freeze(atom.value))


def freeze(value: Any) -> Hashable:
    """A hashable key equal for values that are equal by value (graphs: by identity).

    Keys carry the value's type, so ``1``, ``1.0`` and ``True`` differ, also inside dataclasses
    (indices, compared field by field); other hashable objects compare by their own equality,
    unhashable ones by identity.
    """
    if isinstance(value, core.Graph):
        return ("graph", id(value))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (np.generic, bool, int, float, complex)):
        return (type(value).__name__, repr(value))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        if not value:  # most equations' params
            return ("dict", ())
        return ("dict", tuple(sorted((repr(k), freeze(v)) for k, v in value.items())))
    if isinstance(value, slice):
        return ("slice", freeze(value.start), freeze(value.stop), freeze(value.step))
    if isinstance(
        value, (str, bytes, type(None), np.dtype, type, types.TensorType, types.ListType)
    ):
        return (type(value).__name__, value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = tuple(freeze(getattr(value, f.name)) for f in dataclasses.fields(value))
        return (type(value).__qualname__, fields)
    try:  # another hashable param object (an index's array) is equal by its own __eq__
        hash(value)
    except TypeError:
        return ("object", id(value))
    return (type(value).__qualname__, value)
