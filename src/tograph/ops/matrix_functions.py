"""Least squares and matrix functions: ``np.linalg.lstsq``, ``pinv``, ``slogdet`` and
``matrix_power``.

Stage: build (ops). Input: matrices (stacked in leading batch dims, except for ``lstsq``, which
NumPy defines for one matrix), real or complex; a static integer power. Output: one equation per
call with NumPy's kernel; dtypes are NumPy's (``decompositions.probe_dtypes``), results come back
as NumPy's (``lstsq``'s 4-tuple, ``SlogdetResult``). ``lstsq``'s residuals have a length that
depends on the rank, known only at run time (``None``) unless the matrix is not tall. ``pinv``'s
cutoff (``rcond``, or ``rtol``) is resolved while building to the one relative cutoff NumPy would
use. VJP rules are in ``tograph.autodiff.matrix_function_rules``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common
from tograph.ops.decompositions import matrix_dims, min_dim, probe_dtypes, square_dims
from tograph.trace import dispatch, tensor

SlogdetResult = type(np.linalg.slogdet(np.eye(1)))

# ---- lstsq -------------------------------------------------------------------------------


def _lstsq_impl(a: Any, b: Any, *, rcond: float | None) -> Any:
    return np.linalg.lstsq(a, b, rcond=rcond)


def _lstsq_rule(
    a: types.TensorType, b: types.TensorType, *, rcond: float | None
) -> tuple[types.TensorType, ...]:
    if a.ndim != 2 or b.ndim not in (1, 2):
        raise errors.ShapeError(
            f"lstsq: a must be two-dimensional and b one- or two-dimensional, got shapes "
            f"{common.fmt(a.shape)} and {common.fmt(b.shape)}"
        )
    m, n = a.shape
    if m is not None and b.shape[0] is not None and m != b.shape[0]:
        raise errors.ShapeError(
            f"lstsq: incompatible dimensions: a of shape {common.fmt(a.shape)} and b of shape "
            f"{common.fmt(b.shape)}"
        )
    x_dtype, res_dtype, rank_dtype, s_dtype = probe_dtypes(
        "lstsq", np.linalg.lstsq, (a.dtype, b.dtype)
    )
    columns = b.shape[1:]
    short = m is not None and n is not None and m <= n
    residuals: types.Shape = (0,) if short else (None,)
    return (
        types.TensorType(x_dtype, (n,) + columns),
        types.TensorType(res_dtype, residuals),
        types.TensorType(rank_dtype, ()),
        types.TensorType(s_dtype, (min_dim(m, n),)),
    )


lstsq_p = primitives.Primitive("lstsq", _lstsq_impl, _lstsq_rule, multiple_results=True)


@dispatch.implements(np.linalg.lstsq)
def lstsq(a: Any, b: Any, rcond: Any = None) -> Any:
    """``np.linalg.lstsq``: ``(x, residuals, rank, s)``; ``rcond`` must be static."""
    return tuple(lstsq_p.bind(a, b, rcond=_static_float("lstsq", "rcond", rcond)))


def _static_float(name: str, arg: str, value: Any) -> float | None:
    if value is None:
        return None
    if tensor.is_tensor(value) or np.ndim(value) != 0:
        raise dispatch.unsupported(f"np.linalg.{name} with a tensor or array {arg}")
    return float(value)


# ---- pinv --------------------------------------------------------------------------------


def _pinv_impl(a: Any, *, rcond: float, hermitian: bool) -> Any:
    return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian)


def _pinv_rule(a: types.TensorType, *, rcond: float, hermitian: bool) -> types.TensorType:
    batch, m, n = matrix_dims("pinv", a)
    (dtype,) = probe_dtypes("pinv", np.linalg.pinv, (a.dtype,))
    return types.TensorType(dtype, batch + (n, m))


pinv_p = primitives.Primitive("pinv", _pinv_impl, _pinv_rule)


@dispatch.implements(np.linalg.pinv)
def pinv(a: Any, rcond: Any = None, hermitian: bool = False, **kwargs: Any) -> Any:
    """``np.linalg.pinv``; ``rcond`` (or ``rtol``) must be static."""
    if set(kwargs) - {"rtol"}:
        raise dispatch.unsupported(f"np.linalg.pinv with {', '.join(sorted(kwargs))}=")
    cutoff = _static_float("pinv", "rcond", rcond)
    if "rtol" in kwargs:
        if cutoff is not None:
            raise ValueError("`rtol` and `rcond` can't be both set.")
        cutoff = _static_float("pinv", "rtol", kwargs["rtol"])
        if cutoff is None:  # NumPy: max(m, n) * eps
            t = common.operand_type(a)
            dims = t.shape[-2:]
            if None in dims:
                raise dispatch.unsupported("np.linalg.pinv(rtol=None) of run-time sizes")
            eps = np.finfo(probe_dtypes("pinv", np.linalg.pinv, (t.dtype,))[0]).eps
            cutoff = max(d for d in dims if d is not None) * float(eps)
    return pinv_p.bind(a, rcond=1e-15 if cutoff is None else cutoff, hermitian=bool(hermitian))


# ---- slogdet, matrix_power ---------------------------------------------------------------


def _slogdet_impl(a: Any) -> Any:
    return tuple(np.linalg.slogdet(a))


def _slogdet_rule(a: types.TensorType) -> tuple[types.TensorType, ...]:
    batch, _ = square_dims("slogdet", a)
    sign_dtype, log_dtype = probe_dtypes("slogdet", np.linalg.slogdet, (a.dtype,))
    return types.TensorType(sign_dtype, batch), types.TensorType(log_dtype, batch)


slogdet_p = primitives.Primitive("slogdet", _slogdet_impl, _slogdet_rule, multiple_results=True)


@dispatch.implements(np.linalg.slogdet)
def slogdet(a: Any) -> Any:
    """``np.linalg.slogdet``: ``SlogdetResult(sign, logabsdet)``."""
    sign, logabsdet = slogdet_p.bind(a)
    return SlogdetResult(sign, logabsdet)


def _matrix_power_rule(a: types.TensorType, *, n: int) -> types.TensorType:
    square_dims("matrix_power", a)
    (dtype,) = probe_dtypes("matrix_power", np.linalg.matrix_power, (a.dtype,), n=n)
    return types.TensorType(dtype, a.shape)


matrix_power_p = primitives.Primitive("matrix_power", np.linalg.matrix_power, _matrix_power_rule)


@dispatch.implements(np.linalg.matrix_power)
def matrix_power(a: Any, n: Any) -> Any:
    """``np.linalg.matrix_power`` with a static integer ``n`` (negative: powers of the inverse)."""
    if tensor.is_tensor(n):
        raise dispatch.unsupported("np.linalg.matrix_power with a tensor exponent")
    try:
        power = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    return matrix_power_p.bind(a, n=power)
