"""Arrays in the memory order asked for: ``np.ascontiguousarray``, ``np.asfortranarray``,
``np.require``, ``np.asarray_chkfinite`` and the ``order=`` of ``np.asarray``/``np.array``.

Stage: graph building. NumPy returns the argument itself when its memory already has the order
asked for, else a copy in that order; a later write to one then shows in the other or not. A
tensor's layout is "C" when tracing knows it is C-contiguous (``SymbolicTensor.layout``), and a
C-contiguous array is also Fortran-contiguous when at most one of its dims exceeds 1. So the
answer is the tensor itself, a copy (known not to be in order), or, when tracing cannot tell, a
copy that is frozen as a reshape of an unknown layout is (``functional.freeze_path_alias``):
writing either, or returning it beside the argument, falls back. ``np.asarray_chkfinite``
checks when the graph runs (``check_finite``, an effect) and raises NumPy's ``ValueError``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tograph.ir import primitives, types
from tograph.trace import dispatch, functional, tensor

_UNKNOWN = (
    "an array whose memory layout is not known while tracing may or may not be returned itself "
    "by {what} (NumPy copies only an array not in the order asked for), so an in-place write to "
    "either cannot be traced"
)


def _in_order(a: tensor.SymbolicTensor, order: str) -> bool | None:
    """Whether ``a``'s memory is in ``order`` ("C" or "F"); None when tracing cannot tell."""
    if a.type.ndim <= 1 and order == "F":
        order = "C"
    if a.layout != "C" and a.type.ndim > 0:
        return None
    if order == "C":
        return True
    dims = a.type.shape
    if None in dims:
        return None
    return math.prod(dims) == 0 or sum(d > 1 for d in dims) <= 1  # type: ignore[operator]


def in_order(a: Any, order: Any, what: str, copy: Any = None) -> Any:
    """``a`` itself if its memory is in ``order`` (None, "K", "A", "C" or "F"), else a copy in
    that order; ``copy=False`` (NumPy's "never copy") raises NumPy's error instead of copying."""
    if order not in (None, "K", "A", "C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order in (None, "K", "A") or not isinstance(a, tensor.SymbolicTensor):
        return a
    known = _in_order(a, order)
    if known:
        return a
    if copy is False:
        if known is None:
            raise dispatch.unsupported(what, "whether it must copy depends on the memory layout")
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    out = np.copy(a, order=order)
    out.layout = "C" if order == "C" else None
    if known is None:
        functional.freeze_path_alias(out, [a], _UNKNOWN.format(what=what), alias_argument=True)
    return out


def _asarray(a: Any, dtype: Any) -> Any:
    """``np.asarray(a, dtype)`` of a tensor (which NumPy does not dispatch: ``ops.creation``)."""
    return dispatch.OVERRIDES[np.asarray](a, dtype)


def _at_least_1d(a: Any) -> Any:
    """NumPy's ``ndmin=1``: a 0-d array becomes a 1-d view of it."""
    if tensor.is_tensor(a) and a.type.ndim == 0:
        return np.reshape(a, (1,))
    return a


@dispatch.overrides(np.ascontiguousarray)
@dispatch.implements(np.ascontiguousarray)
def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> Any:
    """``np.ascontiguousarray``: ``a`` itself when C-contiguous (at least 1-d), else a copy."""
    return in_order(_at_least_1d(_asarray(a, dtype)), "C", "np.ascontiguousarray")


@dispatch.overrides(np.asfortranarray)
@dispatch.implements(np.asfortranarray)
def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> Any:
    """``np.asfortranarray``: ``a`` itself when Fortran-contiguous (at least 1-d), else a copy."""
    return in_order(_at_least_1d(_asarray(a, dtype)), "F", "np.asfortranarray")


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F"}
_REQUIREMENTS.update({"F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A"})
_REQUIREMENTS.update({"E": "E", "ENSUREARRAY": "E"})


@dispatch.overrides(np.require)
@dispatch.implements(np.require)
def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> Any:
    """``np.require`` with requirements among C, F, A (aligned: every array is) and E (a base
    class array: every tensor is); W and O ask about memory a graph does not keep."""
    if isinstance(requirements, str):
        requirements = [requirements]
    names = [str(r).upper() for r in requirements or ()]
    unknown = [r for r in names if r not in _REQUIREMENTS]
    if unknown:
        raise dispatch.unsupported("np.require", f"requirement {unknown[0]} asks about memory")
    wanted = {_REQUIREMENTS[r] for r in names}
    if {"C", "F"} <= wanted:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    out = _asarray(a, dtype)
    order = "C" if "C" in wanted else "F" if "F" in wanted else None
    return in_order(out, order, "np.require")


def _check_finite_impl(x: Any) -> tuple[()]:
    if not np.isfinite(x).all():
        raise ValueError("array must not contain infs or NaNs")
    return ()


def _check_finite_rule(x: types.TensorType) -> tuple[()]:
    return ()


check_finite_p = primitives.Primitive(
    "check_finite", _check_finite_impl, _check_finite_rule, multiple_results=True, effectful=True
)


@dispatch.overrides(np.asarray_chkfinite)
@dispatch.implements(np.asarray_chkfinite)
def asarray_chkfinite(a: Any, dtype: Any = None, order: Any = None) -> Any:
    """``np.asarray_chkfinite``: ``np.asarray(a, dtype, order)``, whose floating values are
    checked when the graph runs (NumPy's ``ValueError`` for an inf or a NaN)."""
    out = in_order(_asarray(a, dtype), order, "np.asarray_chkfinite")
    if out.dtype.kind in "fc":
        check_finite_p.bind(out)
    return out
