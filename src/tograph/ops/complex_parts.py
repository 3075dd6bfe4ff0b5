"""Parts of complex values: ``np.real``, ``np.imag`` and ``np.conj`` (also ``.real``, ``.imag``,
``.conj()`` on tensors).

Stage: build (ops). Input: calls on tensors of any numeric dtype. Output: ``real``, ``imag`` and
``conj`` equations for complex operands; for real operands ``np.real`` and ``np.conj`` return the
operand itself and ``np.imag`` zeros of its type and kind, as NumPy and Python do (no equation
for the first two; ``np.conj`` of bools is an ``int8`` equation, as in NumPy).
Their VJP rules, and the convention for cotangents of complex values, are in
``tograph.autodiff.complex_rules``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.ir import primitives, types
from tograph.ops import common, creation, elementwise
from tograph.trace import dispatch, functional, tensor


def _part_rule(name: str, fn: Any) -> primitives.TypeRule:
    def rule(x: types.TensorType) -> types.TensorType:
        return types.TensorType(common.probe_dtype(name, fn, (x,)), x.shape, x.weak)

    return rule


def _real_impl(x: Any) -> Any:
    return np.real(x)


def _imag_impl(x: Any) -> Any:
    return np.imag(x)


# NumPy's parts of a complex array are views of it (the graph's memory planner must know)
real_p = primitives.Primitive("real", _real_impl, _part_rule("real", np.real), views=True)
imag_p = primitives.Primitive("imag", _imag_impl, _part_rule("imag", np.imag), views=True)
conj_p = primitives.Primitive("conj", np.conjugate, _part_rule("conj", np.conjugate))


def is_complex(x: Any) -> bool:
    """Whether ``x`` (a tensor or a constant) has a complex dtype."""
    return common.operand_type(x).dtype.kind == "c"


_PART_VIEW = (
    "the real or imaginary part of a complex array is a view of it in NumPy, so a write to "
    "either would show in the other: not followed"
)


def _part(prim: primitives.Primitive, val: Any) -> Any:
    """``val``'s part, with writes to it and, from now on, to ``val`` refused (NumPy's part is a
    view; the graph's is a copy)."""
    part = prim.bind(val)
    for value in (val, part):
        if isinstance(value, tensor.SymbolicTensor) and value.is_array:
            functional.freeze(value, _PART_VIEW)
    return part


@dispatch.implements(np.real)
def real(val: Any) -> Any:
    """``np.real``: the real part; a real operand itself."""
    return _part(real_p, val) if is_complex(val) else val


@dispatch.implements(np.imag)
def imag(val: Any) -> Any:
    """``np.imag``: the imaginary part; zeros of a real operand's type: an array for an array, a
    NumPy scalar for a NumPy scalar, a Python number for a Python number (``x.imag`` of a float
    is ``0.0``; of a bool, the int ``0``)."""
    if is_complex(val):
        return _part(imag_p, val)
    zeros = creation.zeros_like(val)
    if not tensor.is_tensor(val) or val.ndim > 0 or getattr(val, "array0d", False):
        return zeros
    t = common.operand_type(val)
    dtype = np.dtype(np.int64) if t.weak and t.dtype == np.bool_ else t.dtype
    return elementwise.astype_p.bind(zeros, dtype=dtype, weak=t.weak)


@dispatch.implements(np.conjugate)
def conj(x: Any, **kwargs: Any) -> Any:
    """``np.conj`` (``np.conjugate``): the complex conjugate; a real operand itself."""
    if kwargs:
        raise dispatch.unsupported(f"np.conjugate with {', '.join(sorted(kwargs))}=")
    # NumPy conjugates bools to int8; other real values come back as they are
    return x if common.operand_type(x).dtype.kind in "iuf" else conj_p.bind(x)
