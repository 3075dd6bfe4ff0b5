"""1-D signal functions: ``np.convolve``, ``np.correlate`` (all modes), ``np.interp`` and
``np.searchsorted``.

Stage: build (ops). Input: calls on tensors; ``mode``, ``left``, ``right``, ``period`` and
``side`` static. Output: one equation each with NumPy's kernel and dtype; a length known only at
run time is ``None``. ``searchsorted`` is integer-valued (no gradient); the others' VJP rules are
in ``tograph.autodiff.signal_rules``. ``correlate_offset`` and ``convolve_offset`` say where
each mode's output starts within the full-length result, which the rules need.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, indexing, shape
from tograph.trace import dispatch, tensor

MODES = ("full", "same", "valid")


def _minimum(n: Any, m: Any) -> Any:
    return np.minimum(n, m) if tensor.is_tensor(n) or tensor.is_tensor(m) else min(n, m)


def convolve_offset(mode: str, n: Any, m: Any) -> Any:
    """Where ``np.convolve(a, v, mode)`` starts in the full convolution (``len(a), len(v)``)."""
    if mode == "full":
        return 0
    low = _minimum(n, m)
    return (low - 1) // 2 if mode == "same" else low - 1


def correlate_offset(mode: str, n: Any, m: Any) -> Any:
    """Where ``np.correlate(a, v, mode)`` starts in the full correlation: as for convolve, except
    that for ``'same'`` with ``a`` shorter than ``v`` NumPy centres from the other end."""
    if mode != "same":
        return convolve_offset(mode, n, m)
    from_end = n - 1 - (n - 1) // 2
    if tensor.is_tensor(n) or tensor.is_tensor(m):
        return np.where(n >= m, convolve_offset(mode, n, m), from_end)
    return convolve_offset(mode, n, m) if n >= m else from_end


def _output_length(mode: str, n: types.Dim, m: types.Dim) -> types.Dim:
    if n is None or m is None:
        return None
    if mode == "full":
        return n + m - 1
    return max(n, m) if mode == "same" else max(n, m) - min(n, m) + 1


def _sliding_rule(name: str, fn: Any) -> primitives.TypeRule:
    def rule(a: types.TensorType, v: types.TensorType, *, mode: str) -> types.TensorType:
        if a.ndim != 1 or v.ndim != 1:
            raise errors.ShapeError(
                f"{name}: object too deep for desired array: operands must be 1-d, got shapes "
                f"{common.fmt(a.shape)} and {common.fmt(v.shape)}"
            )
        for label, t in (("a", a), ("v", v)):
            if t.shape[0] == 0:
                raise errors.ShapeError(f"{name}: {label} cannot be empty")
        dtype = common.probe_dtype(name, fn, (a, v))
        return types.TensorType(dtype, (_output_length(mode, a.shape[0], v.shape[0]),))

    return rule


def _convolve_impl(a: Any, v: Any, *, mode: str) -> Any:
    return np.convolve(a, v, mode)


def _correlate_impl(a: Any, v: Any, *, mode: str) -> Any:
    return np.correlate(a, v, mode)


convolve_p = primitives.Primitive(
    "convolve", _convolve_impl, _sliding_rule("convolve", np.convolve)
)
correlate_p = primitives.Primitive(
    "correlate", _correlate_impl, _sliding_rule("correlate", np.correlate)
)


def _as_vector(x: Any) -> Any:
    """A 0-d operand as a 1-element vector, as NumPy's ``array(x, ndmin=1)``."""
    return shape.reshape(x, (1,)) if common.operand_type(x).ndim == 0 else x


def _mode(mode: Any) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of 'full', 'same' or 'valid', got {mode!r}")
    return str(mode)


@dispatch.implements(np.convolve)
def convolve(a: Any, v: Any, mode: str = "full") -> Any:
    """``np.convolve``: the discrete linear convolution of two 1-d sequences."""
    return convolve_p.bind(_as_vector(a), _as_vector(v), mode=_mode(mode))


@dispatch.implements(np.correlate)
def correlate(a: Any, v: Any, mode: str = "valid") -> Any:
    """``np.correlate``: ``c[k] = sum_n a[n + k] conj(v[n])``, in NumPy's alignment."""
    return correlate_p.bind(a, v, mode=_mode(mode))  # unlike convolve, no scalars


# ---- interp ------------------------------------------------------------------------------


def _interp_impl(x: Any, xp: Any, fp: Any, *, left: Any, right: Any, period: Any) -> Any:
    return np.interp(x, xp, fp, left=left, right=right, period=period)


def _interp_rule(
    x: types.TensorType, xp: types.TensorType, fp: types.TensorType, **params: Any
) -> types.TensorType:
    if xp.ndim != 1 or fp.ndim != 1:
        raise errors.ShapeError(
            f"interp: xp and fp must be 1-d, got shapes {common.fmt(xp.shape)} and "
            f"{common.fmt(fp.shape)}"
        )
    if None not in (xp.shape[0], fp.shape[0]) and xp.shape[0] != fp.shape[0]:
        raise errors.ShapeError(
            f"interp: fp and xp are not of the same length ({fp.shape[0]} and {xp.shape[0]})"
        )
    if xp.shape[0] == 0:
        raise errors.ShapeError("interp: array of sample points is empty")
    dtype = common.probe_dtype("interp", np.interp, (x, xp, fp))
    return types.TensorType(dtype, x.shape)


interp_p = primitives.Primitive("interp", _interp_impl, _interp_rule)


def _static_scalar(name: str, value: Any) -> Any:
    if value is None:
        return None
    if tensor.is_tensor(value) or np.ndim(value) != 0:
        raise dispatch.unsupported(f"np.interp with a tensor or array {name}")
    return value.item() if isinstance(value, np.generic) else value


@dispatch.implements(np.interp)
def interp(
    x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None
) -> Any:
    """``np.interp``: piecewise-linear interpolation; ``left``, ``right``, ``period`` static."""
    if period is not None and _static_scalar("period", period) == 0:
        raise ValueError("period must be a non-zero value")
    return interp_p.bind(
        x,
        xp,
        fp,
        left=_static_scalar("left", left),
        right=_static_scalar("right", right),
        period=_static_scalar("period", period),
    )


# ---- searchsorted ------------------------------------------------------------------------


def _searchsorted_impl(a: Any, v: Any, *, side: str) -> Any:
    return np.searchsorted(a, v, side=side)


def _searchsorted_rule(a: types.TensorType, v: types.TensorType, *, side: str) -> types.TensorType:
    if a.ndim != 1:
        raise errors.ShapeError(f"searchsorted: a must be 1-d, got shape {common.fmt(a.shape)}")
    common.probe_dtype("searchsorted", np.searchsorted, (a, v))
    return types.TensorType(np.dtype(np.intp), v.shape)


searchsorted_p = primitives.Primitive("searchsorted", _searchsorted_impl, _searchsorted_rule)


@dispatch.implements(np.searchsorted)
def searchsorted(a: Any, v: Any, side: str = "left", sorter: Any = None) -> Any:
    """``np.searchsorted``: insertion indices; with ``sorter``, into ``a[sorter]``."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    if sorter is not None:
        a = indexing.getitem(a, sorter)
    return searchsorted_p.bind(a, v, side=side)
