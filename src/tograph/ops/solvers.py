"""Dense linear solvers: ``np.linalg.inv``, ``np.linalg.solve`` and ``np.linalg.det``.

Stage: build (ops). Input: square matrices, stacked in leading batch dims. Output: primitives
whose kernels are NumPy's own and whose result dtype is NumPy's (probed on a tiny identity
matrix of the input dtypes). A non-square operand is a ``ShapeError`` naming its shape. Their
VJP rules are in ``tograph.autodiff.array_rules``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.trace import dispatch


def _square(name: str, a: types.TensorType) -> None:
    n, m = (a.shape[-2], a.shape[-1]) if a.ndim >= 2 else (None, None)
    if a.ndim < 2 or (n is not None and m is not None and n != m):
        raise errors.ShapeError(
            f"{name}: expected square matrices (..., n, n), got shape {a.shape}"
        )


@functools.lru_cache(maxsize=256)
def _result_dtype(fn: Any, *dtypes: np.dtype) -> np.dtype:
    probes = [np.eye(2, dtype=d) for d in dtypes]
    try:
        return fn(*probes).dtype
    except TypeError as exc:
        raise errors.DTypeError(
            f"{fn.__name__}: unsupported dtypes {[str(d) for d in dtypes]}: {exc}"
        ) from None


def _inv_rule(a: types.TensorType) -> types.TensorType:
    _square("inv", a)
    return types.TensorType(_result_dtype(np.linalg.inv, a.dtype), a.shape)


def _det_rule(a: types.TensorType) -> types.TensorType:
    _square("det", a)
    return types.TensorType(_result_dtype(np.linalg.det, a.dtype), a.shape[:-2])


def _solve_rule(a: types.TensorType, b: types.TensorType) -> types.TensorType:
    _square("solve", a)
    n = a.shape[-1]
    dtype = _result_dtype(np.linalg.solve, a.dtype, b.dtype)
    if b.ndim == 1:  # NumPy 2: a 1-d b is one right-hand side
        if n is not None and b.shape[0] is not None and b.shape[0] != n:
            raise errors.ShapeError(
                f"solve: a of shape {a.shape} and b of shape {b.shape} do not match"
            )
        return types.TensorType(dtype, a.shape[:-1])
    if n is not None and b.shape[-2] is not None and b.shape[-2] != n:
        raise errors.ShapeError(
            f"solve: a of shape {a.shape} and b of shape {b.shape} do not match"
        )
    batch = types.broadcast_shapes(a.shape[:-2], b.shape[:-2], what="batch dims of solve")
    return types.TensorType(dtype, batch + b.shape[-2:])


inv_p = primitives.Primitive("inv", np.linalg.inv, _inv_rule)
det_p = primitives.Primitive("det", np.linalg.det, _det_rule)
solve_p = primitives.Primitive("solve", np.linalg.solve, _solve_rule)

dispatch.implements(np.linalg.inv)(inv_p.bind)
dispatch.implements(np.linalg.det)(det_p.bind)
dispatch.implements(np.linalg.solve)(solve_p.bind)
