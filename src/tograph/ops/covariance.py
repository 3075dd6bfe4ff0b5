"""Integrals and covariances: ``np.trapezoid``, ``np.cov`` and ``np.corrcoef``, as compositions.

Stage: build (ops). Input: calls on tensors. Output: the equations of NumPy's own Python
implementations of these functions (``diff``, slices, products and sums for ``trapezoid``;
centring, ``dot`` with the conjugate transpose and a scale for ``cov``; a division by the standard
deviations and a clip for ``corrcoef``), written functionally where NumPy works in place and cast
back where an in-place operation keeps NumPy's dtype. Values, dtypes and gradients follow from
those primitives. ``cov``'s ``fweights`` and ``aweights`` are not supported (the call falls back),
nor is a number of variables known only at run time (NumPy squeezes the result).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tograph.ops import common, complex_parts, elementwise, join, shape
from tograph.trace import dispatch, tensor


@dispatch.implements(np.trapezoid)
def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """``np.trapezoid``: the integral of ``y`` along ``axis`` by the trapezoidal rule."""
    ndim = common.operand_type(y).ndim
    axis = common.normalize_axis(axis, common.operand_type(y), "trapezoid")
    if x is None:
        d = dx
    elif common.operand_type(x).ndim == 1:
        d = np.diff(x)
        dims = [1] * ndim
        dims[axis] = np.shape(d)[0]
        d = shape.reshape(d, tuple(dims))
    else:
        d = np.diff(x, axis=axis)
    later = tuple(slice(1, None) if k == axis else slice(None) for k in range(ndim))
    earlier = tuple(slice(None, -1) if k == axis else slice(None) for k in range(ndim))
    return np.sum(d * (y[later] + y[earlier]) / 2.0, axis=axis)


def _as_matrix(m: Any, dtype: np.dtype, rowvar: bool) -> Any:
    """``array(m, ndmin=2, dtype=dtype)``, transposed unless ``rowvar`` (2-d inputs only)."""
    t = common.operand_type(m)
    if t.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if t.dtype != dtype or t.weak:
        m = elementwise.astype_p.bind(m, dtype=dtype, weak=False)
    if t.ndim < 2:
        m = shape.reshape(m, (1, -1))
    return m if rowvar or t.ndim != 2 else np.transpose(m)


@dispatch.implements(np.cov)
def cov(
    m: Any,
    y: Any = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: Any = None,
    fweights: Any = None,
    aweights: Any = None,
    *,
    dtype: Any = None,
) -> Any:
    """``np.cov``: the covariance matrix of the rows (variables) of ``m`` and ``y``."""
    if fweights is not None or aweights is not None:
        raise dispatch.unsupported("np.cov with fweights= or aweights=")
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    if dtype is None:
        operands = [m] if y is None else [m, y]
        dtype = np.result_type(*(common.operand_type(v).dtype for v in operands), np.float64)
    dtype = np.dtype(dtype)
    X = _as_matrix(m, dtype, rowvar)
    if y is not None:
        X = join.concatenate([X, _as_matrix(y, dtype, rowvar)], axis=0)
    variables, samples = common.operand_type(X).shape
    if variables is None:
        raise dispatch.unsupported("np.cov of a number of variables known only at run time")
    if variables == 0:
        return np.array([]).reshape(0, 0)
    ddof = (1 if bias == 0 else 0) if ddof is None else int(ddof)
    fact: Any = np.shape(X)[1] - ddof
    if samples is not None and fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
        fact = 0.0
    X = X - np.expand_dims(np.mean(X, axis=1), 1)
    c = np.dot(X, np.conj(np.transpose(X)))
    scale = np.true_divide(1, fact) if not tensor.is_tensor(fact) else 1 / fact
    c = c * scale
    if common.operand_type(c).dtype != dtype:  # NumPy scales in place: c *= scale
        c = elementwise.astype_p.bind(c, dtype=dtype, weak=False)
    return np.squeeze(c)


@dispatch.implements(np.corrcoef)
def corrcoef(x: Any, y: Any = None, rowvar: bool = True, *, dtype: Any = None) -> Any:
    """``np.corrcoef``: the correlation coefficients, ``cov`` over the standard deviations."""
    c = cov(x, y, rowvar, dtype=dtype)
    if common.operand_type(c).ndim == 0:
        return c / c
    stddev = np.sqrt(complex_parts.real(np.diag(c)))
    c = c / np.expand_dims(stddev, 1)
    c = c / np.expand_dims(stddev, 0)
    if not complex_parts.is_complex(c):
        return np.clip(c, -1, 1)
    real = np.clip(complex_parts.real(c), -1, 1)
    return real + 1j * np.clip(complex_parts.imag(c), -1, 1)
