"""Algebraic simplification: identities that hold bit for bit, and shorter view chains.

Stage: optimize. Input: a graph. Output: the graph with these rewrites, in nested graphs too.
Requires: nothing. A graph in which no rule can apply (no literal 0 or 1 beside arithmetic, no
primitive of another rule, no ``broadcast_to``) is returned at once, without the rewrite.

- ``x * 1``, ``1 * x``, ``x / 1``, ``x - 0.0``, ``x + (-0.0)``, ``-0.0 + x`` (integers: any zero),
  ``-(-x)``, ``+x``, ``not(not(x))``, ``x.astype(x.dtype)``, a reshape or transpose that changes
  nothing: each becomes ``x``. ``x + 0.0`` stays, since ``-0.0 + 0.0`` is ``+0.0``.
- ``transpose(transpose(x, a), b)`` becomes one transpose (or ``x``), ``reshape(reshape(x))``
  one reshape, ``mT(mT(x))`` becomes ``x``.
- An operand of an elementwise ufunc or ``where`` made by ``broadcast_to`` is read before the
  broadcast when the operation's result keeps its type: NumPy broadcasts it the same way (the
  same zero strides, so the same values and layout) without ``np.broadcast_to``'s cost, a few
  microseconds a call. Gradients of reductions (``spread``) make such operands. Only where every
  shape involved is static, so the types prove the run-time shapes.

A rewrite applies only when it is exact on every value, NaN, infinities and signed zeros
included: the result's type must be the operand's exactly (dtype, shape and weakness, so a
literal that promotes or broadcasts blocks it), the dtype real (complex arithmetic with ``1``
turns ``inf`` parts into NaN), and the value an array or a Python scalar (a 0-d NumPy value may
be a 0-d array that NumPy's arithmetic turns into a scalar). A value that may reach its graph's
outputs (directly or through views or control flow) is never replaced (only its operands may be
read unbroadcast), because the caller must get a fresh array, not an argument or another result,
and a view must stay a view of what it was.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from tograph import passes
from tograph.ir import core, types
from tograph.ops import elementwise as ew
from tograph.ops import shape


def simplify_algebra(graph: core.Graph) -> passes.PassResult:
    """Applies the exact identities of the module docstring to ``graph`` and its nested graphs."""
    if not any(_may_apply(eqn) for eqn in graph.walk()):
        return passes.PassResult(graph, False)  # no identity in sight: nothing to rewrite
    new = passes.rewrite(graph, _visitor, {})
    return passes.PassResult(new, new is not graph)


def escaping(graph: core.Graph) -> set[core.Var]:
    """The vars of ``graph`` whose memory its outputs may share: the outputs, and the operands of
    view-making and control-flow equations that make such values."""
    found = {a for a in graph.outputs if isinstance(a, core.Var)}
    for eqn in reversed(graph.eqns):
        if any(v in found for v in eqn.outputs) and (
            eqn.prim.views or next(eqn.subgraphs(), None) is not None
        ):
            found.update(a for a in eqn.inputs if isinstance(a, core.Var))
    return found


def _visitor(graph: core.Graph) -> passes.Visitor:
    shared = escaping(graph)
    producers: dict[core.Var, core.Eqn] = {}
    # without a broadcast of its own, no operand of the graph's can be read unbroadcast
    broadcasts = any(eqn.prim is shape.broadcast_to_p for eqn in graph.eqns)

    def visit(eqn: core.Eqn) -> tuple[core.Atom, ...] | core.Eqn | None:
        if len(eqn.outputs) != 1:
            return None
        out = eqn.outputs[0]
        result = _rewrite(eqn, producers, out in shared, broadcasts)
        if isinstance(result, core.Eqn) and result.prim.out_types(
            [a.type for a in result.inputs], result.params
        ) != (out.type,):
            result = None
        if result is None or isinstance(result, core.Eqn):
            producers[out] = eqn if result is None else result
            return result
        if _stands_for(result, out):
            return (result,)
        producers[out] = eqn
        return None

    return visit


def _may_apply(eqn: core.Eqn) -> bool:
    """Whether a rewrite may apply to ``eqn`` (checked before the full pass, which most graphs
    would leave as they are): an arithmetic identity needs a literal 0 or 1 among the operands,
    the other rules their primitive, and reading operands unbroadcast a ``broadcast_to``."""
    if eqn.prim in _ARITHMETIC:
        return any(_scalar(a, _zero_or_one) for a in eqn.inputs)
    return eqn.prim in _RULES or eqn.prim is shape.broadcast_to_p


def _zero_or_one(value: Any) -> bool:
    return bool(value == 0 or value == 1)


def _stands_for(atom: core.Atom, out: core.Var) -> bool:
    """Whether ``atom``'s run-time value can replace ``out``'s: same type, an array or a Python
    scalar, real or boolean."""
    t, u = atom.type, out.type
    if not isinstance(t, types.TensorType) or t != u:
        return False
    return t.dtype.kind in "biuf" and (t.ndim >= 1 or t.weak)


def _rewrite(
    eqn: core.Eqn, producers: dict[core.Var, core.Eqn], escapes: bool, broadcasts: bool
) -> core.Atom | core.Eqn | None:
    """The rewrite of ``eqn``, if any. One whose result may leave the graph (``escapes``) only
    reads unbroadcast operands (where the graph has ``broadcasts``): that still makes a fresh
    array."""
    rule = None if escapes else _RULES.get(eqn.prim)
    found = None if rule is None else rule(eqn, producers)
    if found is None and broadcasts and (eqn.prim in ew.UFUNCS or eqn.prim is ew.where_p):
        return _unbroadcast_operands(eqn, producers)
    return found


def _unbroadcast_operands(eqn: core.Eqn, producers: dict[core.Var, core.Eqn]) -> core.Eqn | None:
    """The elementwise ``eqn`` reading each ``broadcast_to`` operand's own operand instead (the
    visitor keeps it only if the result's type is unchanged)."""
    inputs = list(eqn.inputs)
    for i, atom in enumerate(inputs):
        inner = producers.get(atom) if isinstance(atom, core.Var) else None
        if inner is not None and inner.prim is shape.broadcast_to_p and _static(inner.inputs[0]):
            inputs[i] = inner.inputs[0]
    if inputs == list(eqn.inputs):  # no broadcast operand (the common case, checked first)
        return None
    if not _static(eqn.outputs[0]) or not all(_static(atom) for atom in inputs):
        return None
    return dataclasses.replace(eqn, inputs=tuple(inputs))


def _static(atom: core.Atom) -> bool:
    """Whether ``atom`` is a tensor whose every dimension is known."""
    return isinstance(atom.type, types.TensorType) and atom.type.is_static_shape


def _scalar(atom: core.Atom, test: Any) -> bool:
    """Whether ``atom`` is a scalar literal for which ``test(value)`` holds."""
    if not isinstance(atom, core.Lit):
        return False
    value = atom.value
    if type(value) not in (bool, int, float, complex) and np.ndim(value) != 0:
        return False  # (a Python number is a scalar: np.ndim would convert it to find out)
    return not isinstance(value, (complex, np.complexfloating)) and bool(test(value))


def _one(atom: core.Atom) -> bool:
    return _scalar(atom, lambda v: v == 1)


def _zero(atom: core.Atom, sign_bit: bool, kind: str) -> bool:
    """A literal zero that adds (``sign_bit``: -0.0) or subtracts (+0.0) exactly for ``kind``."""
    if kind in "iu":
        return _scalar(atom, lambda v: v == 0)
    return _scalar(atom, lambda v: v == 0 and bool(np.signbit(v)) == sign_bit)


def _kind(eqn: core.Eqn) -> str:
    return types.tensor_type(eqn.outputs[0].type).dtype.kind


def _multiply(eqn: core.Eqn, _: Any) -> core.Atom | None:
    x, y = eqn.inputs
    return x if _one(y) else y if _one(x) else None


def _divide(eqn: core.Eqn, _: Any) -> core.Atom | None:
    x, y = eqn.inputs
    return x if _one(y) else None


def _add(eqn: core.Eqn, _: Any) -> core.Atom | None:
    x, y = eqn.inputs
    if _zero(y, True, _kind(eqn)):
        return x
    return y if _zero(x, True, _kind(eqn)) else None


def _subtract(eqn: core.Eqn, _: Any) -> core.Atom | None:
    x, y = eqn.inputs
    return x if _zero(y, False, _kind(eqn)) else None


def _involution(eqn: core.Eqn, producers: dict[core.Var, core.Eqn]) -> core.Atom | None:
    """``f(f(x))`` is ``x`` (negative, logical_not, matrix_transpose)."""
    inner = producers.get(eqn.inputs[0]) if isinstance(eqn.inputs[0], core.Var) else None
    return inner.inputs[0] if inner is not None and inner.prim is eqn.prim else None


def _same(eqn: core.Eqn, _: Any) -> core.Atom | None:
    """The operand itself, when the types agree (``+x``, ``x.astype(x.dtype)``)."""
    return eqn.inputs[0]


def _transpose(eqn: core.Eqn, producers: dict[core.Var, core.Eqn]) -> core.Atom | core.Eqn | None:
    axes = eqn.params["axes"]
    if tuple(axes) == tuple(range(len(axes))):
        return eqn.inputs[0]
    inner = producers.get(eqn.inputs[0]) if isinstance(eqn.inputs[0], core.Var) else None
    if inner is None or inner.prim is not shape.transpose_p:
        return None
    composed = tuple(inner.params["axes"][i] for i in axes)
    if composed == tuple(range(len(axes))):
        return inner.inputs[0]
    params = dict(eqn.params, axes=composed)
    return dataclasses.replace(eqn, inputs=inner.inputs, params=params)


def _reshape(eqn: core.Eqn, producers: dict[core.Var, core.Eqn]) -> core.Atom | core.Eqn | None:
    x = eqn.inputs[0]
    if len(eqn.inputs) != 1:
        return None  # run-time dims
    if types.tensor_type(x.type).is_static_shape and x.type == eqn.outputs[0].type:
        return x
    inner = producers.get(x) if isinstance(x, core.Var) else None
    if inner is None or inner.prim is not shape.reshape_p:
        return None
    return dataclasses.replace(eqn, inputs=inner.inputs[:1])


_ARITHMETIC = frozenset({ew.multiply_p, ew.divide_p, ew.add_p, ew.subtract_p})
_RULES = {
    ew.multiply_p: _multiply,
    ew.divide_p: _divide,
    ew.add_p: _add,
    ew.subtract_p: _subtract,
    ew.negative_p: _involution,
    ew.logical_not_p: _involution,
    shape.matrix_transpose_p: _involution,
    ew.positive_p: _same,
    ew.astype_p: _same,
    shape.transpose_p: _transpose,
    shape.reshape_p: _reshape,
}
