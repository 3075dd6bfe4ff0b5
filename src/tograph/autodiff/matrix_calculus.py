"""Building blocks of the linear-algebra VJP rules: transposes, diagonals, triangles, masks.

Stage: autodiff (helpers). Input: tensors or constants of shape ``(..., m, n)``. Output: values
built with primitives (so a gradient graph stays an ordinary graph); sizes known only at run time
become tensors (``arange``, ``eye`` with tensor sizes), so every helper works with ``None`` dims.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff.rules import shape_of
from tograph.ops import common, complex_parts, creation
from tograph.trace import tensor


def mT(x: Any) -> Any:
    """The transpose of the last two axes."""
    return np.matrix_transpose(x)


def dtype_of(x: Any) -> np.dtype:
    """The dtype of a tensor or a constant."""
    return common.operand_type(x).dtype


def eye(n: Any, dtype: Any) -> Any:
    """The ``n x n`` identity (``n`` may be a scalar tensor)."""
    return creation.eye(n, n, 0, dtype=dtype)


def arange(n: Any) -> Any:
    """``0, 1, ..., n - 1`` (``n`` may be a scalar tensor)."""
    return creation.arange(n) if tensor.is_tensor(n) else np.arange(n)


def diag_embed(v: Any) -> Any:
    """Matrices ``(..., n, n)`` with ``v`` ``(..., n)`` on their diagonals."""
    return np.expand_dims(v, -1) * eye(shape_of(v)[-1], dtype_of(v))


def diagonal(x: Any) -> Any:
    """The main diagonals ``(..., n)`` of square matrices ``(..., n, n)``."""
    return np.sum(x * eye(shape_of(x)[-1], dtype_of(x)), axis=-1)


def triangle_mask(m: Any, n: Any, k: int, lower: bool) -> Any:
    """A boolean ``m x n`` mask: on and below (``lower``) or above the ``k``-th diagonal."""
    rows = np.expand_dims(arange(m), -1)
    cols = np.expand_dims(arange(n), 0)
    return cols - rows <= k if lower else cols - rows >= k


def triangle(x: Any, k: int = 0, lower: bool = True) -> Any:
    """``np.tril(x, k)`` (or ``np.triu``) of stacked matrices, with run-time sizes allowed."""
    dims = shape_of(x)
    return np.where(triangle_mask(dims[-2], dims[-1], k, lower), x, 0)


def phi(x: Any, lower: bool = True) -> Any:
    """The lower (or upper) triangle of square matrices with the diagonal halved."""
    strict = triangle(x, -1 if lower else 1, lower)
    return strict + 0.5 * x * eye(shape_of(x)[-1], dtype_of(x))


def symmetric_part(s: Any, lower: bool) -> Any:
    """The gradient with respect to a matrix of which only one triangle is read.

    ``s`` is a gradient with respect to a symmetric matrix (e.g. ``V diag(w) V^T`` for ``eigh``).
    NumPy's ``eigh``, ``eigvalsh`` and ``cholesky`` read only the lower (or upper) triangle of
    their operand and take the rest to mirror it, so a change of an entry below the diagonal
    changes two entries of the symmetric matrix: the gradient is ``s + s^T`` on that triangle,
    ``s``'s diagonal on the diagonal, and zero on the other side.
    """
    return phi(s + mT(s), lower)


def safe_reciprocal(x: Any) -> Any:
    """``1 / x`` where ``x != 0``, else 0 (for singular values and eigenvalue gaps)."""
    zero = x == 0
    return np.where(zero, 0, 1 / np.where(zero, 1, x))


def gap_reciprocals(w: Any) -> Any:
    """``F[..., i, j] = 1 / (w_j - w_i)`` off the diagonal, 0 on it (0 also for equal values)."""
    row = np.expand_dims(w, -2)
    return safe_reciprocal(row - mT(row))


def require_real(name: str, *xs: Any) -> None:
    """Refuses gradients of decompositions of complex matrices (their phase conventions)."""
    if any(complex_parts.is_complex(x) for x in xs):
        raise errors.UnsupportedError(
            f"the gradient of {name} of complex matrices is not supported",
            construct=f"{name} gradient",
        )


def require_static(name: str, *dims: Any) -> tuple[int, ...]:
    """``dims`` as ints; a dim known only at run time makes the gradient unsupported."""
    if any(tensor.is_tensor(d) for d in dims):
        raise errors.UnsupportedError(
            f"the gradient of {name} needs the matrix sizes when the graph is built",
            construct=f"{name} gradient",
        )
    return tuple(int(d) for d in dims)
