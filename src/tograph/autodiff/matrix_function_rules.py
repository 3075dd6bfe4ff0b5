"""VJP rules of ``lstsq``, ``pinv``, ``slogdet`` and ``matrix_power``.

Stage: autodiff. Input and output as in ``rules``.

- ``pinv``: the derivative of the pseudo-inverse at constant rank (Golub and Pereyra 1973),
  ``dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P``, transposed.
- ``lstsq``: the solution is ``x = P b`` with ``P = pinv(a)`` at lstsq's cutoff, so
  ``gb = P^T g`` and ``ga = -gb x^T + r (P gb)^T + (P^T x) ((I - P a) g)^T`` with the residual
  ``r = b - a x``. Only the solution is differentiated: a cotangent for the residuals or the
  singular values is an ``UnsupportedError`` (the rank has none).
- ``slogdet``: ``d logabsdet = Re tr(a^-1 da)``, so ``ga = g inv(a)^T``; for complex matrices the
  sign's cotangent adds ``i Im(g_sign sign) inv(a)^T`` (a real sign has no gradient).
- ``matrix_power``: ``sum_k (a^T)^k g (a^T)^(n-1-k)``, through ``inv`` for negative powers.

``pinv`` and ``lstsq`` gradients are for real matrices; the other two hold for complex ones too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff.matrix_calculus import (
    dtype_of,
    eye,
    mT,
    require_real,
    require_static,
    symmetric_part,
)
from tograph.autodiff.rules import defvjp, shape_of
from tograph.ops import complex_parts
from tograph.ops import matrix_functions as mf


@defvjp(mf.pinv_p)
def _pinv(g: Any, a: Any, *, out: Any, rcond: float, hermitian: bool) -> tuple[Any, ...]:
    require_real("np.linalg.pinv", a)
    p, pt, gt = out, mT(out), mT(g)
    ga = -(pt @ g @ pt)
    left = gt @ p @ pt
    ga = ga + left - a @ (p @ left)  # (I - a p) g^T p p^T
    right = pt @ p @ gt
    ga = ga + right - (right @ p) @ a  # p^T p g^T (I - p a)
    return (symmetric_part(ga, lower=True) if hermitian else ga,)


@defvjp(mf.lstsq_p)
def _lstsq(
    g: tuple[Any, Any, Any, Any], a: Any, b: Any, *, out: tuple[Any, ...], rcond: float | None
) -> tuple[Any, ...]:
    require_real("np.linalg.lstsq", a, b)
    gx, g_residuals, _, g_s = g
    if g_residuals is not None or g_s is not None:
        raise errors.UnsupportedError(
            "the gradient of np.linalg.lstsq through its residuals or singular values is not "
            "supported, only through the solution",
            hint="compute the residuals from the solution: np.sum((a @ x - b) ** 2, axis=0)",
            construct="np.linalg.lstsq gradient",
        )
    if rcond is None:  # NumPy's default cutoff: eps * max(m, n)
        m, n = require_static("np.linalg.lstsq", *shape_of(a))
        rcond = float(np.finfo(dtype_of(out[0])).eps) * max(m, n)
    p = mf.pinv_p.bind(a, rcond=rcond, hermitian=False)
    return solution_cotangents(gx, a, b, out[0], p)


def solution_cotangents(g: Any, a: Any, b: Any, x: Any, p: Any) -> tuple[Any, Any]:
    """The cotangents of ``a`` and ``b`` for the least-squares solution ``x = p @ b``, where
    ``p = pinv(a)``; ``b``, ``x`` and ``g`` are vectors or matrices alike."""
    vector = np.ndim(b) == 1
    x, g, b = (np.expand_dims(v, -1) if vector else v for v in (x, g, b))
    gb = mT(p) @ g
    residual = b - a @ x
    off_range = g - p @ (a @ g)  # (I - p a) g
    ga = -(gb @ mT(x)) + residual @ mT(p @ gb) + (mT(p) @ x) @ mT(off_range)
    return ga, gb[..., 0] if vector else gb


@defvjp(mf.slogdet_p)
def _slogdet(g: tuple[Any, Any], a: Any, *, out: tuple[Any, Any]) -> tuple[Any, ...]:
    g_sign, g_log = g
    if g_sign is not None and complex_parts.is_complex(a):
        phase = 1j * complex_parts.imag(g_sign * out[0])
        scale = phase if g_log is None else g_log + phase
    elif g_log is not None:
        scale = g_log
    else:
        return (None,)  # the sign of a real determinant is piecewise constant
    return (np.expand_dims(scale, (-1, -2)) * mT(np.linalg.inv(a)),)


def _power_cotangent(g: Any, a: Any, n: int) -> Any:
    """The cotangent of ``a`` for ``matrix_power(a, n)`` with ``n > 0``."""
    powers = [eye(shape_of(a)[-1], dtype_of(a))]
    at = mT(a)
    for _ in range(n - 1):
        powers.append(powers[-1] @ at)
    total: Any = 0
    for k in range(n):
        total = total + powers[k] @ g @ powers[n - 1 - k]
    return total


@defvjp(mf.matrix_power_p)
def _matrix_power(g: Any, a: Any, *, out: Any, n: int) -> tuple[Any, ...]:
    if n == 0:
        return (None,)
    if n > 0:
        return (_power_cotangent(g, a, n),)
    inv = np.linalg.inv(a)
    inv_t = mT(inv)
    return (-(inv_t @ _power_cotangent(g, inv, -n) @ inv_t),)
