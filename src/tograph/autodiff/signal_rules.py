"""VJP rules of ``convolve``, ``correlate``, ``interp``, ``polyval``, ``polyfit`` and ``vdot``
(``searchsorted`` is integer-valued: no cotangent).

Stage: autodiff. Input and output as in ``rules``; complex values follow ``complex_rules``.

- ``convolve``: each mode's output is a slice of the full convolution starting at ``s``
  (``signal.convolve_offset``); the transpose of the full convolution with ``v`` is a valid
  convolution with ``v`` reversed, so ``ga = convolve(g, v[::-1])[m-1-s : m-1-s+n]`` (and
  ``gv`` the same with the roles swapped).
- ``correlate``: the full correlation is the full convolution with ``conj(v[::-1])``, so it reuses
  ``convolve``'s transpose, with its own offsets; ``v``'s cotangent comes back reversed and
  conjugated.
- ``interp``: on the segment ``[xp_i, xp_i+1]`` holding ``x``, ``y = fp_i (1-t) + fp_i+1 t`` with
  ``t = (x - xp_i) / (xp_i+1 - xp_i)``: ``x`` gets the slope, ``fp_i`` and ``fp_i+1`` the
  weights, ``xp_i`` and ``xp_i+1`` ``slope (t-1)`` and ``-slope t``. Outside the points ``y`` is
  ``fp[0]``/``fp[-1]`` (or the constant ``left``/``right``). With ``period`` it is unsupported.
- ``polyval``: ``x`` gets the derivative polynomial, ``p_k`` the power ``x^(n-1-k)``.
- ``polyfit``: the coefficients are the least-squares solution ``pinv(V) y`` of the Vandermonde
  matrix ``V`` (``matrix_function_rules.solution_cotangents``), and ``V`` depends on ``x``.
- ``vdot``: ``sum(conj(a) b)`` is linear in ``b`` and in ``conj(a)``: ``gb = g conj(a)``,
  ``ga = conj(g b)``, each reshaped to its operand.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff.matrix_calculus import arange, dtype_of, require_real, require_static
from tograph.autodiff.matrix_function_rules import solution_cotangents
from tograph.autodiff.rules import conj, defvjp, shape_of, zero
from tograph.ops import creation, indexing, polynomials, products, signal
from tograph.ops import matrix_functions as mf
from tograph.ops import shape as shape_ops

defvjp(signal.searchsorted_p)(zero)


def sliding_cotangents(g: Any, a: Any, v: Any, offset: Any) -> tuple[Any, Any]:
    """The cotangents of ``a`` and ``v`` for ``convolve(a, v, 'full')[offset:offset + len(g)]``."""
    n, m = shape_of(a)[0], shape_of(v)[0]
    ga = np.convolve(g, np.flip(v), "full")[m - 1 - offset : m - 1 - offset + n]
    gv = np.convolve(g, np.flip(a), "full")[n - 1 - offset : n - 1 - offset + m]
    return ga, gv


@defvjp(signal.convolve_p)
def _convolve(g: Any, a: Any, v: Any, *, out: Any, mode: str) -> tuple[Any, ...]:
    offset = signal.convolve_offset(mode, shape_of(a)[0], shape_of(v)[0])
    return sliding_cotangents(g, a, v, offset)


@defvjp(signal.correlate_p)
def _correlate(g: Any, a: Any, v: Any, *, out: Any, mode: str) -> tuple[Any, ...]:
    offset = signal.correlate_offset(mode, shape_of(a)[0], shape_of(v)[0])
    ga, g_flipped = sliding_cotangents(g, a, conj(np.flip(v)), offset)
    return ga, np.flip(conj(g_flipped))


# ---- interp ------------------------------------------------------------------------------


def _scatter(n: Any, dtype: Any, index: Any, update: Any) -> Any:
    """A length-``n`` vector of zeros with ``update`` added at ``index`` (repeats accumulate)."""
    parsed, dynamic = indexing.parse_index((index,))
    base = creation.zeros((n,), dtype=dtype)
    return indexing.index_add_p.bind(base, update, *dynamic, index=parsed)


@defvjp(signal.interp_p)
def _interp(
    g: Any, x: Any, xp: Any, fp: Any, *, out: Any, left: Any, right: Any, period: Any
) -> tuple[Any, ...]:
    if period is not None:
        raise errors.UnsupportedError(
            "the gradient of np.interp with period= is not supported",
            construct="np.interp gradient",
        )
    n = shape_of(xp)[0]
    i = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, np.maximum(n - 2, 0))
    j = np.minimum(i + 1, n - 1)
    # xp and fp may be constants: index them as tensors
    x0, x1, f0, f1 = (indexing.getitem(v, k) for v in (xp, fp) for k in (i, j))
    width = np.where(x1 == x0, 1, x1 - x0)
    slope = np.where(x1 == x0, 0, (f1 - f0) / width)
    t = (x - x0) / width
    below, above = x < xp[0], x > xp[n - 1]
    inside = ~(below | above)
    keep = inside | (below if left is None else False) | (above if right is None else False)
    weight = np.clip(t, 0, 1)
    g_fp = np.where(keep, g, 0)
    ct_fp = _scatter(n, dtype_of(out), i, g_fp * (1 - weight)) + _scatter(
        n, dtype_of(out), j, g_fp * weight
    )
    g_in = np.where(inside, g * slope, 0)
    ct_xp = _scatter(n, dtype_of(out), i, g_in * (t - 1)) - _scatter(n, dtype_of(out), j, g_in * t)
    return g_in, ct_xp, ct_fp


# ---- polynomials -------------------------------------------------------------------------


@defvjp(polynomials.polyval_p)
def _polyval(g: Any, p: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    length = shape_of(p)[0]
    powers = arange(length)[::-1]  # n-1, ..., 1, 0
    derivative = p[:-1] * powers[:-1]
    ct_x = g * polynomials.polyval_p.bind(derivative, x)
    terms = np.expand_dims(x, -1) ** powers
    ct_p = np.sum(np.expand_dims(g, -1) * terms, axis=tuple(range(np.ndim(x))))
    return ct_p, ct_x


@defvjp(polynomials.polyfit_p)
def _polyfit(g: Any, x: Any, y: Any, *, out: Any, deg: int, rcond: float | None) -> tuple[Any, ...]:
    require_real("np.polyfit", x, y)
    powers = np.arange(deg, -1, -1)
    vander = np.expand_dims(x, -1) ** powers
    scale = np.sqrt(np.sum(vander * vander, axis=0))
    if rcond is None:  # NumPy's default: len(x) * eps
        (m,) = require_static("np.polyfit", shape_of(x)[0])
        rcond = m * float(np.finfo(dtype_of(out)).eps)
    p = mf.pinv_p.bind(vander / scale, rcond=rcond, hermitian=False) / np.expand_dims(scale, -1)
    g_vander, g_y = solution_cotangents(g, vander, y, out, p)
    slopes = powers * np.expand_dims(x, -1) ** np.maximum(powers - 1, 0)
    return np.sum(g_vander * slopes, axis=-1), g_y


@defvjp(products.vdot_p)
def _vdot(g: Any, a: Any, b: Any, *, out: Any) -> tuple[Any, ...]:
    ga = conj(g * shape_ops.reshape(b, shape_of(a)))
    gb = g * shape_ops.reshape(conj(a), shape_of(b))
    return ga, gb
