"""Polynomials: ``np.polyval`` and ``np.polyfit``.

Stage: build (ops). Input: coefficient vectors (highest power first, as NumPy orders them) and
points; for ``polyfit`` a static degree and ``rcond``. Output: one equation each with NumPy's
kernel and dtype. ``polyfit``'s ``full``, ``w`` and ``cov`` options are not supported (the call
falls back). VJP rules are in ``tograph.autodiff.signal_rules``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common
from tograph.trace import dispatch, tensor


def _polyval_impl(p: Any, x: Any) -> Any:
    return np.polyval(p, x)


def _polyval_rule(p: types.TensorType, x: types.TensorType) -> types.TensorType:
    if p.ndim != 1:
        raise errors.ShapeError(
            f"polyval: the coefficients must be 1-d, got shape {common.fmt(p.shape)}"
        )
    return types.TensorType(common.probe_dtype("polyval", np.polyval, (p, x)), x.shape)


polyval_p = primitives.Primitive("polyval", _polyval_impl, _polyval_rule)


@dispatch.implements(np.polyval)
def polyval(p: Any, x: Any) -> Any:
    """``np.polyval``: ``p[0] * x**(n-1) + ... + p[n-1]`` at each point of ``x``."""
    return polyval_p.bind(p, x)


def _polyfit_impl(x: Any, y: Any, *, deg: int, rcond: float | None) -> Any:
    return np.polyfit(x, y, deg, rcond=rcond)


def _polyfit_rule(
    x: types.TensorType, y: types.TensorType, *, deg: int, rcond: float | None
) -> types.TensorType:
    if x.ndim != 1:
        raise errors.ShapeError(f"polyfit: expected 1D vector for x, got shape {x.shape}")
    if x.shape[0] == 0:
        raise errors.ShapeError("polyfit: expected non-empty vector for x")
    if y.ndim not in (1, 2):
        raise errors.ShapeError(f"polyfit: expected 1D or 2D array for y, got shape {y.shape}")
    if None not in (x.shape[0], y.shape[0]) and x.shape[0] != y.shape[0]:
        raise errors.ShapeError(
            f"polyfit: expected x and y to have same length ({x.shape[0]} and {y.shape[0]})"
        )
    dtype = common.probe_dtype("polyfit", np.polyfit, (x, y), deg=0)
    return types.TensorType(dtype, (deg + 1,) + y.shape[1:])


def _polyfit_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    """``np.polyfit`` called from the generated line itself, so that its ``RankWarning`` (which
    NumPy attributes to its caller) names the user's line."""
    deg, rcond = eqn.params["deg"], eqn.params["rcond"]
    return f"{ctx.const(np.polyfit)}({args[0]}, {args[1]}, {deg!r}, rcond={ctx.const(rcond)})"


polyfit_p = primitives.Primitive("polyfit", _polyfit_impl, _polyfit_rule, emit=_polyfit_emit)


@dispatch.implements(np.polyfit)
def polyfit(
    x: Any,
    y: Any,
    deg: Any,
    rcond: Any = None,
    full: bool = False,
    w: Any = None,
    cov: Any = False,
) -> Any:
    """``np.polyfit``: least-squares coefficients of degree ``deg`` (static), highest first."""
    if full or w is not None or cov is not False:
        raise dispatch.unsupported("np.polyfit with full=, w= or cov=")
    if tensor.is_tensor(deg) or tensor.is_tensor(rcond):
        raise dispatch.unsupported("np.polyfit with a tensor deg or rcond")
    degree = operator.index(deg)
    if degree < 0:
        raise ValueError("expected deg >= 0")
    return polyfit_p.bind(x, y, deg=degree, rcond=None if rcond is None else float(rcond))
