"""The VJP rule of ``norm``: every vector and matrix order NumPy has, over any axes and keepdims.

Stage: autodiff. Input and output as in ``rules``. With ``s(x) = conj(sign(x))`` (``x / |x|``
conjugated, per ``complex_rules``) and ``g`` spread back over the reduced axes:

- vectors: ``ord=None`` or 2: ``g s(x) |x| / out``; 1: ``g s(x)``; ``inf`` and ``-inf``: ``g s(x)``
  at the entries of largest (smallest) magnitude, shared between ties; 0 (a count): no gradient;
  any other ``p``: ``g s(x) (|x| / out)^(p - 1)``.
- matrices (``axis=(rows, cols)``): ``None`` and ``'fro'`` as the vector 2-norm; ``'nuc'``:
  ``g conj(U Vh)`` of the reduced SVD; 2 and -2: ``g conj(u v^H)`` of the largest (smallest)
  singular pair; 1 and -1 (largest or smallest column sum of magnitudes): ``g s(x)`` on the
  chosen columns, shared between ties; ``inf`` and ``-inf`` the same for rows.

At a zero norm the gradient is taken as 0, as for ``abs`` at 0. ``out`` is the norm itself.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tograph.autodiff.matrix_calculus import dtype_of
from tograph.autodiff.rules import conj, defvjp
from tograph.ops import linalg


def _keep(v: Any, axes: tuple[int, ...], keepdims: bool) -> Any:
    """``v`` with the reduced ``axes`` back as 1s (a no-op with ``keepdims``)."""
    return v if keepdims else np.expand_dims(v, tuple(sorted(axes)))


def _safe_divide(a: Any, b: Any) -> Any:
    """``a / b`` where ``b != 0``, else 0."""
    zero = b == 0
    return np.where(zero, 0, a / np.where(zero, 1, b))


def _shared(hits: Any, axes: tuple[int, ...], like: Any) -> Any:
    """``hits`` (booleans) as weights of ``like``'s dtype that sum to one over ``axes``: ties
    share the gradient."""
    weights = np.astype(hits, dtype_of(like))
    return weights / np.sum(weights, axis=axes, keepdims=True)


def _vector(g: Any, x: Any, out: Any, ord: Any, axes: tuple[int, ...]) -> Any:
    sign = conj(np.sign(x))
    magnitude = np.abs(x)
    if ord in (None, "fro", 2):
        return g * sign * _safe_divide(magnitude, out)
    if ord == 1:
        return g * sign
    if ord in (math.inf, -math.inf):
        return g * sign * _shared(magnitude == out, axes, out)
    return g * sign * _safe_divide(magnitude, out) ** (ord - 1)


def _svd_norm(g: Any, x: Any, ord: Any, rows: int, cols: int) -> Any:
    """The cotangent of the nuclear norm or the 2 / -2 norm over axes ``(rows, cols)``."""
    perm = [i for i in range(np.ndim(x)) if i not in (rows, cols)] + [rows, cols]
    u, _, vh = np.linalg.svd(np.transpose(x, perm), full_matrices=False)
    if ord == 2:
        u, vh = u[..., :1], vh[..., :1, :]
    elif ord == -2:
        u, vh = u[..., -1:], vh[..., -1:, :]
    inverse = tuple(int(i) for i in np.argsort(perm))
    return g * conj(np.transpose(u @ vh, inverse))


def _sum_norm(g: Any, x: Any, out: Any, summed: int, picked: int) -> Any:
    """The cotangent of the largest or smallest sum of ``|x|`` along ``summed`` over ``picked``."""
    sums = np.sum(np.abs(x), axis=summed, keepdims=True)
    return g * conj(np.sign(x)) * _shared(sums == out, (picked,), out)


@defvjp(linalg.norm_p)
def _norm(g: Any, x: Any, *, out: Any, ord: Any, axis: Any, keepdims: bool) -> tuple[Any, ...]:
    axes = tuple(range(np.ndim(x))) if axis is None else tuple(axis)
    g, out = _keep(g, axes, keepdims), _keep(out, axes, keepdims)
    if ord == 0 and len(axes) == 1:
        return (None,)  # a count of non-zeros
    if ord in (None, "fro") or len(axes) == 1:
        return (_vector(g, x, out, ord, axes),)
    rows, cols = axes
    if ord in ("nuc", 2, -2):
        return (_svd_norm(g, x, ord, rows, cols),)
    if ord in (1, -1):
        return (_sum_norm(g, x, out, rows, cols),)
    return (_sum_norm(g, x, out, cols, rows),)  # inf, -inf: sums along rows
