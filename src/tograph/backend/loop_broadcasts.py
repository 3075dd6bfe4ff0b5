"""Loop-invariant operands a loop body broadcasts, copied once to full shape before the loop.

Stage: execute (planning for the code generator). Input: a ``while_loop``'s body graph and its
number of loop-invariant inputs. Output: the ``Broadcast``s to make before the loop, each an
invariant input copied to the shape its ufuncs broadcast it to, and the operands it replaces.

NumPy adds a bias ``b`` of shape ``(64,)`` to an array of shape ``(16, 64)`` one row at a time,
sixteen calls of its inner loop; added to a ``(16, 64)`` copy of ``b`` it is one call over 1024
contiguous elements, about half the time on arrays of this size. The copy holds the very
values the broadcast reads, so each element's operation, and so its result, its dtype and the
floating-point conditions it reports, are the same. An operand is replaced only when all of
these hold:

- its equation, at the body's top level, is ``add``, ``subtract``, ``multiply`` or ``divide`` on
  real or integer operands: NumPy runs a ufunc through SIMD kernels on contiguous operands and
  through scalar code on broadcast ones, which for these (one correctly rounded IEEE operation
  per element) give the same bits and flags, but for ``power``, ``arctan2`` and complex products
  may not;
- its result is a real or integer array of a static shape of at least one dimension;
- the operand is a loop-invariant input of the body, an array (not a weak Python number) of a
  static shape of at least one dimension other than the result's, and its copy to the result's
  shape takes at most ``MAX_BYTES`` (it is held while the loop runs);
- the other operand has the result's shape and is known to be C-contiguous
  (``memory.c_contiguous``), so the result's layout, which NumPy derives from its operands'
  strides, is C order either way.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from tograph.backend import memory
from tograph.ir import core, types
from tograph.ops import elementwise

MAX_BYTES = 1 << 16
_EXACT = frozenset(
    {elementwise.add_p, elementwise.subtract_p, elementwise.multiply_p, elementwise.divide_p}
)


@dataclasses.dataclass(frozen=True)
class Broadcast:
    """The body input ``body.inputs[index]`` copied to ``shape`` before the loop; ``uses`` are
    the ``(id(eqn), var.id)`` operands that read the copy instead."""

    index: int
    shape: tuple[int, ...]
    uses: tuple[tuple[int, int], ...]


def find(body: core.Graph, num_consts: int) -> list[Broadcast]:
    """The broadcasts of ``body``'s first ``num_consts`` inputs worth making once (see module
    docstring), in the order of their first use."""
    invariant = {v.id: k for k, v in enumerate(body.inputs[:num_consts])}
    contiguous = memory.c_contiguous(body)
    found: dict[tuple[int, tuple[int, ...]], list[tuple[int, int]]] = {}
    for eqn in body.eqns:
        if eqn.prim not in _EXACT or len(eqn.inputs) != 2 or len(eqn.outputs) != 1:
            continue
        out = eqn.outputs[0].type
        if (
            not isinstance(out, types.TensorType)
            or out.ndim == 0
            or not out.is_static_shape
            or out.dtype.kind not in "biuf"
        ):
            continue
        shape = tuple(d for d in out.shape if d is not None)
        for operand, other in (eqn.inputs, eqn.inputs[::-1]):
            if (
                isinstance(operand, core.Var)
                and operand.id in invariant
                and _broadcast_operand(operand.type, shape)
                and isinstance(other, core.Var)
                and other in contiguous
                and types.tensor_type(other.type).shape == shape
            ):
                found.setdefault((invariant[operand.id], shape), []).append((id(eqn), operand.id))
    return [Broadcast(k, shape, tuple(uses)) for (k, shape), uses in found.items()]


def broadcast_copy(value: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` broadcast to ``shape``, as a new C-contiguous array."""
    return np.broadcast_to(value, shape).copy()


def _broadcast_operand(t: types.ValueType, shape: tuple[int, ...]) -> bool:
    """Whether an operand of type ``t`` may be copied to ``shape`` (see module docstring)."""
    return (
        isinstance(t, types.TensorType)
        and t.ndim >= 1
        and t.is_static_shape
        and not t.weak
        and t.dtype.kind in "biuf"
        and t.shape != shape
        and math.prod(shape) * t.dtype.itemsize <= MAX_BYTES
    )
