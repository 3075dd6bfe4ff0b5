"""Matrix decompositions: ``np.linalg.qr``, ``svd``, ``svdvals``, ``eigh``, ``eigvalsh``,
``cholesky``, ``eig`` and ``eigvals``.

Stage: build (ops). Input: matrices ``(..., m, n)``, stacked in leading batch dims, real or
complex. Output: one equation per call, whose kernel is NumPy's own; results come back in NumPy's
named tuples (``QRResult``, ``SVDResult``, ``EighResult``, ``EigResult``), so ``q, r = ...`` and
``res.Q`` both work. Dtypes are NumPy's, probed on a tiny identity matrix (``float32`` stays
``float32``, integers become ``float64``, ``float16`` is a ``DTypeError`` as in NumPy). Sizes
known only at run time are ``None``, and so is ``min(m, n)`` when either is.

One deliberate difference: NumPy's ``eig`` and ``eigvals`` return a real array when every
eigenvalue happens to be real, a dtype that depends on the values. A graph needs the dtype
before it runs, so here they are always complex (the values are NumPy's). ``eig`` and
``eigvals`` have no gradient: differentiating through them is an error naming the call.
VJP rules of the others are in ``tograph.autodiff.decomposition_rules``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common
from tograph.trace import dispatch

_EYE = np.eye(2)
QRResult = type(np.linalg.qr(_EYE))
SVDResult = type(np.linalg.svd(_EYE))
EighResult = type(np.linalg.eigh(_EYE))
EigResult = type(np.linalg.eig(_EYE))


@functools.lru_cache(maxsize=512)
def probe_dtypes(
    name: str, fn: Callable[..., Any], in_dtypes: tuple[np.dtype, ...], **params: Any
) -> tuple[np.dtype, ...]:
    """The dtypes of ``fn``'s result(s) on 2x2 identity matrices of ``in_dtypes``.

    Raises:
      DTypeError: NumPy refuses these dtypes (``float16``, ``bool`` for some functions).
    """
    try:
        out = fn(*(np.eye(2, dtype=d) for d in in_dtypes), **params)
    except (TypeError, np.linalg.LinAlgError) as exc:
        pretty = ", ".join(types.dtype_name(d) for d in in_dtypes)
        raise errors.DTypeError(f"{name}: unsupported dtype ({pretty}): {exc}") from None
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(np.asarray(o).dtype for o in outs)


def matrix_dims(name: str, a: types.TensorType) -> tuple[types.Shape, types.Dim, types.Dim]:
    """``a``'s batch dims and its matrix dims ``m, n``; raises a ShapeError below 2-d."""
    if a.ndim < 2:
        raise errors.ShapeError(
            f"{name}: {a.ndim}-dimensional array given; array must be at least two-dimensional "
            "(..., m, n)"
        )
    return a.shape[:-2], a.shape[-2], a.shape[-1]


def square_dims(name: str, a: types.TensorType) -> tuple[types.Shape, types.Dim]:
    """``a``'s batch dims and its size ``n``; raises a ShapeError unless it is ``(..., n, n)``."""
    batch, m, n = matrix_dims(name, a)
    if m is not None and n is not None and m != n:
        raise errors.ShapeError(
            f"{name}: last 2 dimensions of the array must be square, got shape "
            f"{common.fmt(a.shape)}"
        )
    return batch, n if n is not None else m


def min_dim(m: types.Dim, n: types.Dim) -> types.Dim:
    """``min(m, n)``, or None when either is unknown."""
    return None if m is None or n is None else min(m, n)


# ---- qr ----------------------------------------------------------------------------------


def _qr_impl(a: Any, *, mode: str) -> Any:
    return tuple(np.linalg.qr(a, mode=mode))


def _qr_rule(a: types.TensorType, *, mode: str) -> tuple[types.TensorType, ...]:
    batch, m, n = matrix_dims("qr", a)
    q_dtype, r_dtype = probe_dtypes("qr", np.linalg.qr, (a.dtype,), mode=mode)
    k = m if mode == "complete" else min_dim(m, n)
    return types.TensorType(q_dtype, batch + (m, k)), types.TensorType(r_dtype, batch + (k, n))


qr_p = primitives.Primitive("qr", _qr_impl, _qr_rule, multiple_results=True)


@dispatch.implements(np.linalg.qr)
def qr(a: Any, mode: str = "reduced") -> Any:
    """``np.linalg.qr`` in modes ``'reduced'``, ``'complete'`` and ``'r'`` (R alone)."""
    if mode not in ("reduced", "complete", "r"):
        raise dispatch.unsupported(f"np.linalg.qr with mode={mode!r}")
    q, r = qr_p.bind(a, mode="reduced" if mode == "r" else mode)
    return r if mode == "r" else QRResult(q, r)


# ---- svd ---------------------------------------------------------------------------------


def _svd_impl(a: Any, *, full_matrices: bool, hermitian: bool) -> Any:
    return tuple(np.linalg.svd(a, full_matrices=full_matrices, hermitian=hermitian))


def _svd_rule(
    a: types.TensorType, *, full_matrices: bool, hermitian: bool
) -> tuple[types.TensorType, ...]:
    batch, m, n = matrix_dims("svd", a)
    u_dtype, s_dtype, vh_dtype = probe_dtypes("svd", np.linalg.svd, (a.dtype,))
    k = min_dim(m, n)
    u_cols, vh_rows = (m, n) if full_matrices else (k, k)
    return (
        types.TensorType(u_dtype, batch + (m, u_cols)),
        types.TensorType(s_dtype, batch + (k,)),
        types.TensorType(vh_dtype, batch + (vh_rows, n)),
    )


def _svdvals_impl(a: Any, *, hermitian: bool) -> Any:
    return np.linalg.svd(a, compute_uv=False, hermitian=hermitian)


def _svdvals_rule(a: types.TensorType, *, hermitian: bool) -> types.TensorType:
    batch, m, n = matrix_dims("svd", a)
    (dtype,) = probe_dtypes("svd", np.linalg.svd, (a.dtype,), compute_uv=False)
    return types.TensorType(dtype, batch + (min_dim(m, n),))


svd_p = primitives.Primitive("svd", _svd_impl, _svd_rule, multiple_results=True)
svdvals_p = primitives.Primitive("svdvals", _svdvals_impl, _svdvals_rule)


@dispatch.implements(np.linalg.svd)
def svd(
    a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> Any:
    """``np.linalg.svd``: ``SVDResult(U, S, Vh)``, or the singular values alone."""
    if not compute_uv:
        return svdvals_p.bind(a, hermitian=bool(hermitian))
    u, s, vh = svd_p.bind(a, full_matrices=bool(full_matrices), hermitian=bool(hermitian))
    return SVDResult(u, s, vh)


@dispatch.implements(np.linalg.svdvals)
def svdvals(x: Any, /) -> Any:
    """``np.linalg.svdvals``: the singular values, largest first."""
    return svdvals_p.bind(x, hermitian=False)


# ---- eigh, eigvalsh, cholesky ------------------------------------------------------------


def _eigh_impl(a: Any, *, UPLO: str) -> Any:
    return tuple(np.linalg.eigh(a, UPLO=UPLO))


def _eigh_rule(a: types.TensorType, *, UPLO: str) -> tuple[types.TensorType, ...]:
    batch, n = square_dims("eigh", a)
    w_dtype, v_dtype = probe_dtypes("eigh", np.linalg.eigh, (a.dtype,))
    return types.TensorType(w_dtype, batch + (n,)), types.TensorType(v_dtype, batch + (n, n))


def _eigvalsh_rule(a: types.TensorType, *, UPLO: str) -> types.TensorType:
    batch, n = square_dims("eigvalsh", a)
    (dtype,) = probe_dtypes("eigvalsh", np.linalg.eigvalsh, (a.dtype,))
    return types.TensorType(dtype, batch + (n,))


def _cholesky_rule(a: types.TensorType, *, upper: bool) -> types.TensorType:
    square_dims("cholesky", a)
    (dtype,) = probe_dtypes("cholesky", np.linalg.cholesky, (a.dtype,))
    return types.TensorType(dtype, a.shape)


def _check_uplo(UPLO: Any) -> str:
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return str(UPLO)


eigh_p = primitives.Primitive("eigh", _eigh_impl, _eigh_rule, multiple_results=True)
eigvalsh_p = primitives.Primitive("eigvalsh", np.linalg.eigvalsh, _eigvalsh_rule)
cholesky_p = primitives.Primitive("cholesky", np.linalg.cholesky, _cholesky_rule)


@dispatch.implements(np.linalg.eigh)
def eigh(a: Any, UPLO: str = "L") -> Any:
    """``np.linalg.eigh``: ``EighResult(eigenvalues, eigenvectors)``, ascending eigenvalues."""
    w, v = eigh_p.bind(a, UPLO=_check_uplo(UPLO))
    return EighResult(w, v)


@dispatch.implements(np.linalg.eigvalsh)
def eigvalsh(a: Any, UPLO: str = "L") -> Any:
    """``np.linalg.eigvalsh``: the eigenvalues of a symmetric (Hermitian) matrix, ascending."""
    return eigvalsh_p.bind(a, UPLO=_check_uplo(UPLO))


@dispatch.implements(np.linalg.cholesky)
def cholesky(a: Any, /, *, upper: bool = False) -> Any:
    """``np.linalg.cholesky``: the lower (or, with ``upper=True``, upper) Cholesky factor."""
    return cholesky_p.bind(a, upper=bool(upper))


# ---- eig, eigvals (always complex here; no gradient) -------------------------------------


def _complex_of(x: np.ndarray) -> np.ndarray:
    return x.astype(np.result_type(x.dtype, np.complex64), copy=False)


def _eig_impl(a: Any) -> Any:
    w, v = np.linalg.eig(a)
    return _complex_of(w), _complex_of(v)


def _eigvals_impl(a: Any) -> Any:
    return _complex_of(np.linalg.eigvals(a))


def _complex_dtype(name: str, fn: Callable[..., Any], a: types.TensorType) -> np.dtype:
    return np.result_type(probe_dtypes(name, fn, (a.dtype,))[0], np.complex64)


def _eig_rule(a: types.TensorType) -> tuple[types.TensorType, ...]:
    batch, n = square_dims("eig", a)
    dtype = _complex_dtype("eig", np.linalg.eig, a)
    return types.TensorType(dtype, batch + (n,)), types.TensorType(dtype, batch + (n, n))


def _eigvals_rule(a: types.TensorType) -> types.TensorType:
    batch, n = square_dims("eigvals", a)
    return types.TensorType(_complex_dtype("eigvals", np.linalg.eigvals, a), batch + (n,))


eig_p = primitives.Primitive("eig", _eig_impl, _eig_rule, multiple_results=True)
eigvals_p = primitives.Primitive("eigvals", _eigvals_impl, _eigvals_rule)


@dispatch.implements(np.linalg.eig)
def eig(a: Any) -> Any:
    """``np.linalg.eig``: ``EigResult(eigenvalues, eigenvectors)``, always complex here."""
    w, v = eig_p.bind(a)
    return EigResult(w, v)


@dispatch.implements(np.linalg.eigvals)
def eigvals(a: Any) -> Any:
    """``np.linalg.eigvals``: the eigenvalues of a general matrix, always complex here."""
    return eigvals_p.bind(a)
