"""Which equations are total: they can neither raise nor warn, whatever their operands' values;
and which may raise (``may_raise``), which dead code elimination must keep.

Stage: optimize (an analysis other passes consult). Input: one equation. Output: a yes or no.
Requires: nothing. A pass may move a total equation to where it runs more often or when it would
not have run (out of a loop that may run zero times, before a branch), because nothing can
observe when it runs: it has no effects, cannot fail and emits no warning (NumPy's floating-point
warnings become exceptions under ``np.errstate(all="raise")``, so a warning counts as a failure).

Total are the comparisons and logical tests, selection (``where``, ``maximum``, ...), the sign
and rounding functions of floats, widening casts, the complex parts, the shape operations and
indexing by static indices (checked against the static shape when the graph is built), all
provided every operand's and result's shape is static (a run-time dimension could fail to
broadcast), no tensor list is involved, and every Python number among array operands converts to
the operation's dtype without overflow (``x < 1e300`` on float32 warns in the cast; a literal is
tried, a run-time number is allowed only into a 64-bit dtype of its kind or wider). Arithmetic is
not total: floats overflow, integers overflow with a warning on NumPy scalars, ``matmul`` warns
on ``inf * 0``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph.ir import core, types
from tograph.ops import complex_parts, decompositions, indexing, python_order, shape, solvers
from tograph.ops import elementwise as ew

# Total on operands of any dtype.
_ANY_DTYPE = frozenset(
    {
        ew.less_p,
        ew.less_equal_p,
        ew.greater_p,
        ew.greater_equal_p,
        ew.equal_p,
        ew.not_equal_p,
        ew.logical_and_p,
        ew.logical_or_p,
        ew.logical_xor_p,
        ew.logical_not_p,
        ew.isnan_p,
        ew.isinf_p,
        ew.isfinite_p,
        ew.where_p,
        complex_parts.real_p,
        complex_parts.imag_p,
        complex_parts.conj_p,
        shape.transpose_p,
        shape.matrix_transpose_p,
        shape.expand_dims_p,
        shape.squeeze_p,
        shape.flip_p,
        shape.reshape_p,
        shape.broadcast_to_p,
    }
)
# Total on integer and boolean operands only.
_INTEGER = frozenset({ew.bitwise_and_p, ew.bitwise_or_p, ew.bitwise_xor_p, ew.invert_p})
# Total on real floating-point operands only (on integers some overflow: ``-int64.min``).
_REAL_FLOAT = frozenset(
    {
        ew.maximum_p,
        ew.minimum_p,
        ew.fmax_p,
        ew.fmin_p,
        ew.negative_p,
        ew.positive_p,
        ew.abs_p,
        ew.sign_p,
        ew.floor_p,
        ew.ceil_p,
        ew.trunc_p,
        ew.rint_p,
    }
)


def is_total(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` can neither raise nor warn (see module docstring)."""
    if eqn.prim not in _CANDIDATES:  # any other primitive may raise or warn: no need to look
        return False
    if eqn.prim.effectful or next(eqn.subgraphs(), None) is not None:
        return False
    values = [a.type for a in (*eqn.inputs, *eqn.outputs)]
    if not all(isinstance(t, types.TensorType) and t.is_static_shape for t in values):
        return False
    operands = [types.tensor_type(a.type) for a in eqn.inputs]
    strong = [t.dtype for t in operands if not t.weak]
    if strong and not all(_fits(a, strong) for a, t in zip(eqn.inputs, operands) if t.weak):
        return False
    kinds = {t.dtype.kind for t in operands}
    if eqn.prim in _ANY_DTYPE:
        return True
    if eqn.prim in _INTEGER:
        return kinds <= {"b", "i", "u"}
    if eqn.prim in _REAL_FLOAT:  # a weak integer (``maximum(x, 0)``) becomes a float exactly
        return types.tensor_type(eqn.outputs[0].type).dtype.kind == "f" and all(
            t.dtype.kind == "f" or (t.weak and t.dtype.kind in "biu") for t in operands
        )
    if eqn.prim is indexing.getitem_p:  # static indices are checked when the graph is built
        return len(eqn.inputs) == 1
    if eqn.prim is ew.astype_p:
        source = types.tensor_type(eqn.inputs[0].type).dtype
        return bool(np.can_cast(source, eqn.params["dtype"], "safe"))
    return False


def may_raise(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` may raise an exception when the graph runs, not only warn: indexing by
    run-time indices, indexing, shape and elementwise operations on run-time dimensions, the
    solvers that refuse a singular matrix, ``int()`` of a float, ``list.index`` of an item the
    list lacks, division, powers and shifts of Python numbers, and item stores that may
    (``_store_may_raise``). (Dead code elimination keeps such an equation.)"""
    if eqn.prim in _VALUE_CHECKED:
        return True
    if eqn.prim is python_order.python_order_p:
        return bool(eqn.params["op"] == "index")
    if eqn.prim in _PYTHON_CHECKED and all(
        types.tensor_type(a.type).weak for a in eqn.inputs
    ):  # Python numbers: ``n // 0`` raises ZeroDivisionError, ``10.0 ** 400`` OverflowError
        return True
    if eqn.prim is indexing.setitem_p:
        return _store_may_raise(eqn)
    if eqn.prim is ew.astype_p:  # ``int(x)`` of a float: Python refuses inf and nan
        source = types.tensor_type(eqn.inputs[0].type).dtype
        target = np.dtype(eqn.params["dtype"])
        return bool(eqn.params.get("weak")) and source.kind in "fc" and target.kind in "iu"
    if eqn.prim in _BROADCASTING:  # operands of run-time shapes may not broadcast together
        shapes = [s for s in (types.tensor_type(a.type).shape for a in eqn.inputs) if s != ()]
        return len(shapes) > 1 and any(None in s for s in shapes)
    if eqn.prim not in _SHAPE_CHECKED:
        return False
    if eqn.prim is indexing.getitem_p and len(eqn.inputs) > 1:
        return True
    values = [a.type for a in (*eqn.inputs, *eqn.outputs)]
    return not all(isinstance(t, types.TensorType) and t.is_static_shape for t in values)


def _store_may_raise(eqn: core.Eqn) -> bool:
    """Whether an item store ``x[index] = value`` may raise: at a run-time index (IndexError), of
    run-time shapes (a value that does not broadcast), or of a Python number into an integer
    array (``OverflowError: Python integer -3 out of bounds for uint8``, and NaN into int)."""
    if len(eqn.inputs) > 2:
        return True
    target, value = (types.tensor_type(a.type) for a in eqn.inputs[:2])
    if value.weak and target.dtype.kind in "iu":
        return True
    return not all(t.is_static_shape for t in (target, value))


# Elementwise: operands broadcast together, checked when the graph runs where a shape is not
# known before.
_BROADCASTING = frozenset({*ew.UFUNCS, ew.power_p, ew.where_p, ew.clip_p})
# Checked against the static shape when the graph is built, else when it runs.
_SHAPE_CHECKED = frozenset({indexing.getitem_p, shape.reshape_p, shape.broadcast_to_p})
# Raise on some values of their operands.
_VALUE_CHECKED = frozenset({solvers.inv_p, solvers.solve_p, decompositions.cholesky_p})
# Raise on some values when every operand is a Python number (where NumPy warns instead).
_PYTHON_CHECKED = frozenset(
    {
        ew.divide_p,
        ew.floor_divide_p,
        ew.mod_p,
        ew.divmod_p,
        ew.power_p,
        ew.left_shift_p,
        ew.right_shift_p,
    }
)

# The primitives that are total on some operands.
_CANDIDATES = _ANY_DTYPE | _INTEGER | _REAL_FLOAT | {indexing.getitem_p, ew.astype_p}

# A sample Python number of each kind, for NumPy's promotion of Python numbers (NEP 50).
_SAMPLES: dict[str, complex] = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


def _fits(atom: core.Atom, strong: list[np.dtype]) -> bool:
    """Whether the Python number ``atom`` converts without overflow to the dtype NumPy computes
    in with arrays of the ``strong`` dtypes."""
    kind = types.tensor_type(atom.type).dtype.kind
    if kind == "b":
        return True
    if isinstance(atom, core.Lit):
        value = atom.value
        if type(value) in (bool, int, float, complex):  # hashable: the answer is cached
            return _number_fits(type(value).__name__, value, tuple(strong))
        return _literal_fits(value, strong)
    target = np.result_type(*strong, _SAMPLES[kind])
    if target.kind in "iu":
        return kind in "iu" and target == np.int64
    wide = target.itemsize >= (8 if target.kind == "f" else 16)
    return wide and (target.kind == "c" or kind != "c")


@functools.lru_cache(maxsize=1024)
def _number_fits(kind: str, value: Any, strong: tuple[np.dtype, ...]) -> bool:
    """``_literal_fits`` of a Python number ``value`` whose type is named ``kind`` (which the
    cache key needs: ``1``, ``1.0`` and ``True`` are equal)."""
    return _literal_fits(value, strong)


def _literal_fits(value: Any, strong: Sequence[np.dtype]) -> bool:
    """Whether ``value`` converts to the dtype NumPy computes ``value`` with ``strong`` in,
    without overflow or warning."""
    try:
        with warnings.catch_warnings(), np.errstate(all="raise"):
            warnings.simplefilter("error")
            np.asarray(value, dtype=np.result_type(*strong, value))
    except (ArithmeticError, ValueError, TypeError, Warning):
        return False
    return True
