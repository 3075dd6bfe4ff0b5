"""VJP rules of the matrix decompositions: ``qr``, ``svd``, ``svdvals``, ``eigh``, ``eigvalsh`` and
``cholesky`` (``eig`` and ``eigvals`` have none: differentiating through them is an error).

Stage: autodiff. Input and output as in ``rules``: the output cotangents (None for an unused
output), the operand, the outputs and the params; one cotangent for the operand. The rules are the
standard results for real matrices (Murray 2016 for Cholesky, Townsend 2016 for the SVD, Walter
and Lehmann 2018 for QR; JAX's JVPs transposed), written with ``mT`` for the transpose of the last
two axes so that stacks of matrices are handled at once. They assume what makes the
decomposition differentiable: distinct eigenvalues and singular values, full rank for QR and SVD;
only losses that do not depend on the sign of an eigenvector or singular vector have a gradient.
The gradients of complex decompositions are not supported (an ``UnsupportedError``).

``eigh``, ``eigvalsh`` and ``cholesky`` read one triangle of their operand (NumPy ignores the
other), so their gradients live on that triangle (``matrix_calculus.symmetric_part``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff.matrix_calculus import (
    diag_embed,
    dtype_of,
    eye,
    gap_reciprocals,
    mT,
    phi,
    require_real,
    require_static,
    safe_reciprocal,
    symmetric_part,
    triangle,
)
from tograph.autodiff.rules import defvjp, shape_of
from tograph.ops import decompositions as dec
from tograph.ops import join


def right_solve(x: Any, r: Any) -> Any:
    """``x @ inv(r).T`` for square ``r``, by a solve."""
    return mT(np.linalg.solve(r, mT(x)))


# ---- qr ----------------------------------------------------------------------------------


def _qr_tall(q: Any, r: Any, gq: Any, gr: Any) -> Any:
    """The cotangent of ``a = q @ r`` (reduced, ``m >= n``): ``(gq + q copyltu(M)) r^-T`` with
    ``M = r gr^T - gq^T q``."""
    m: Any = 0
    if gr is not None:
        m = m + r @ mT(gr)
    if gq is not None:
        m = m - mT(gq) @ q
    lower = triangle(m, -1)
    b = q @ (lower + mT(lower) + m * eye(shape_of(m)[-1], dtype_of(m)))
    return right_solve(b if gq is None else gq + b, r)


@defvjp(dec.qr_p)
def _qr(g: tuple[Any, Any], a: Any, *, out: tuple[Any, Any], mode: str) -> tuple[Any, ...]:
    require_real("np.linalg.qr", a)
    gq, gr = g
    q, r = out
    m, n = require_static("np.linalg.qr", *shape_of(a)[-2:])
    if mode == "complete" and m > n:
        if gq is not None:
            raise errors.UnsupportedError(
                "the gradient of np.linalg.qr(mode='complete') through Q of a tall matrix is not "
                "defined (its last columns are arbitrary)",
                hint="use mode='reduced'",
                construct="np.linalg.qr gradient",
            )
        q, r, gr = q[..., :n], r[..., :n, :], gr[..., :n, :]  # gr is set: the rule runs
    if m >= n:
        return (_qr_tall(q, r, gq, gr),)
    # a wide a = [x | y], x square: q, r[:, :m] = qr(x) and r[:, m:] = q^T y, so y's cotangent
    # is q gr[:, m:] and q gets y gr[:, m:]^T more
    y = a[..., m:]
    if gr is None:
        return (join.concatenate([_qr_tall(q, r[..., :m], gq, None), 0 * y], axis=-1),)
    gv = gr[..., m:]
    gq_x = y @ mT(gv) if gq is None else gq + y @ mT(gv)
    gx = _qr_tall(q, r[..., :m], gq_x, gr[..., :m])
    return (join.concatenate([gx, q @ gv], axis=-1),)


# ---- svd ---------------------------------------------------------------------------------


def svd_cotangent(u: Any, s: Any, vh: Any, gu: Any, gs: Any, gvh: Any) -> Any:
    """The cotangent of ``a = u @ diag(s) @ vh`` (reduced SVD) for cotangents of its parts."""
    v = mT(vh)
    s_row = np.expand_dims(s, -2)
    s_col = mT(s_row)
    inner = 0 if gs is None else diag_embed(gs)
    extra = 0
    if gu is not None or gvh is not None:
        f = gap_reciprocals(s * s)
        s_inv = safe_reciprocal(s)
    if gu is not None:
        j = f * (mT(u) @ gu)
        inner = inner + (j + mT(j)) * s_row
        extra = extra + ((gu - u @ (mT(u) @ gu)) * np.expand_dims(s_inv, -2)) @ vh
    if gvh is not None:
        gv = mT(gvh)
        k = f * (vh @ gv)
        inner = inner + s_col * (k + mT(k))
        extra = extra + u @ (mT(gv - v @ (vh @ gv)) * np.expand_dims(s_inv, -1))
    return u @ inner @ vh + extra


@defvjp(dec.svd_p)
def _svd(
    g: tuple[Any, Any, Any],
    a: Any,
    *,
    out: tuple[Any, Any, Any],
    full_matrices: bool,
    hermitian: bool,
) -> tuple[Any, ...]:
    require_real("np.linalg.svd", a)
    gu, gs, gvh = g
    u, s, vh = out
    if full_matrices:
        m, n = require_static("np.linalg.svd", *shape_of(a)[-2:])
        if m != n and (gu is not None or gvh is not None):
            raise errors.UnsupportedError(
                "the gradient of np.linalg.svd(full_matrices=True) through U or Vh of a "
                "non-square matrix is not defined (their extra columns are arbitrary)",
                hint="use full_matrices=False",
                construct="np.linalg.svd gradient",
            )
        k = min(m, n)
        u, vh = u[..., :k], vh[..., :k, :]
    ga = svd_cotangent(u, s, vh, gu, gs, gvh)
    return (symmetric_part(ga, lower=True) if hermitian else ga,)


@defvjp(dec.svdvals_p)
def _svdvals(g: Any, a: Any, *, out: Any, hermitian: bool) -> tuple[Any, ...]:
    require_real("np.linalg.svd", a)
    u, _, vh = dec.svd_p.bind(a, full_matrices=False, hermitian=hermitian)
    ga = svd_cotangent(u, out, vh, None, g, None)
    return (symmetric_part(ga, lower=True) if hermitian else ga,)


# ---- eigh, eigvalsh ----------------------------------------------------------------------


def eigh_cotangent(w: Any, v: Any, gw: Any, gv: Any) -> Any:
    """``v (diag(gw) + F * (v^T gv)) v^T``: the cotangent with respect to a symmetric matrix."""
    inner = 0 if gw is None else diag_embed(gw)
    if gv is not None:
        inner = inner + gap_reciprocals(w) * (mT(v) @ gv)
    return v @ inner @ mT(v)


@defvjp(dec.eigh_p)
def _eigh(g: tuple[Any, Any], a: Any, *, out: tuple[Any, Any], UPLO: str) -> tuple[Any, ...]:
    require_real("np.linalg.eigh", a)
    return (symmetric_part(eigh_cotangent(*out, *g), lower=UPLO == "L"),)


@defvjp(dec.eigvalsh_p)
def _eigvalsh(g: Any, a: Any, *, out: Any, UPLO: str) -> tuple[Any, ...]:
    require_real("np.linalg.eigvalsh", a)
    _, v = dec.eigh_p.bind(a, UPLO=UPLO)
    return (symmetric_part(eigh_cotangent(out, v, g, None), lower=UPLO == "L"),)


# ---- cholesky ----------------------------------------------------------------------------


@defvjp(dec.cholesky_p)
def _cholesky(g: Any, a: Any, *, out: Any, upper: bool) -> tuple[Any, ...]:
    require_real("np.linalg.cholesky", a)
    # upper=True reads the upper triangle: it is the lower factor of a^T, transposed
    low, g_low = (mT(out), mT(g)) if upper else (out, g)
    s = np.linalg.solve(mT(low), phi(mT(low) @ g_low))  # L^-T phi(L^T gL) L^-1
    s = right_solve(s, mT(low))
    ga = symmetric_part(s, lower=True)
    return (mT(ga) if upper else ga,)
