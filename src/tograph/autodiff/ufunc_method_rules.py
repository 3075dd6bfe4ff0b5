"""VJP rules of the generic ufunc reductions and accumulations: ``ufunc_reduce`` and
``ufunc_accumulate`` (``np.subtract.reduce``, ``np.maximum.accumulate``, ...).

Stage: autodiff. Input and output as in ``rules``. An extremum shares its cotangent among the
elements that hold it; a running extremum sends each cotangent to the element that held the
extremum then (the earlier one on ties, as ``maximum``'s rule does). Logical and bitwise ones pass
nothing back; ``divide``, ``logaddexp`` and ``hypot`` accumulations have no rule (their gradient
raises ``UnsupportedError``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff import cumulative_rules, vjp
from tograph.autodiff.rules import defvjp, spread
from tograph.ops import common, composites, indexing, ufunc_methods

# ---- ufunc_reduce --------------------------------------------------------------------------


def _first_along(x: Any, axis: int) -> Any:
    return np.equal(cumulative_rules.steps_along(x, axis), 0)


@defvjp(ufunc_methods.ufunc_reduce_p)
def _ufunc_reduce(
    g: Any, x: Any, *, out: Any, ufunc: str, axis: Any, keepdims: bool, dtype: Any
) -> tuple[Any, ...]:
    g_all = spread(g, x, axis, keepdims)
    out_all = spread(out, x, axis, keepdims)
    if ufunc in ("maximum", "minimum", "fmax", "fmin"):
        hits = np.equal(x, out_all)
        ties = np.sum(hits, axis=axis, keepdims=True, dtype=common.operand_type(x).dtype)
        return (np.where(hits, g_all / np.maximum(ties, 1), 0),)
    if ufunc == "logaddexp":
        return (g_all * np.exp(x - out_all),)
    if ufunc == "hypot":
        return (np.where(out_all > 0, g_all * x / np.where(out_all > 0, out_all, 1), 0),)
    k = 0 if axis is None else axis[0]
    first = _first_along(x, k)
    if ufunc == "subtract":
        return (np.where(first, g_all, -g_all),)
    if ufunc == "divide":
        rest = indexing.getitem(x, (slice(None),) * k + (slice(1, None),))
        rest_prod = np.prod(rest, axis=k, keepdims=True)
        return (np.where(first, g_all / rest_prod, -(g_all * out_all) / x),)
    return (None,)  # logical and bitwise reductions: no float cotangent


# ---- ufunc_accumulate --------------------------------------------------------------------


@defvjp(ufunc_methods.ufunc_accumulate_p)
def _ufunc_accumulate(
    g: Any, x: Any, *, out: Any, ufunc: str, axis: int, dtype: Any
) -> tuple[Any, ...]:
    if ufunc in ("maximum", "minimum", "fmax", "fmin"):
        return (_running_extremum(g, x, out, ufunc, axis),)
    if ufunc == "subtract":
        summed = cumulative_rules.reverse_cumsum(g, axis)
        return (np.where(_first_along(x, axis), summed, -summed),)
    if common.operand_type(x).dtype.kind not in "fc":
        return (None,)
    raise errors.UnsupportedError(
        f"the gradient of np.{ufunc}.accumulate is not supported",
        construct=f"gradient of {ufunc}.accumulate",
    )


def _running_extremum(g: Any, x: Any, out: Any, ufunc: str, axis: int) -> Any:
    """Each cotangent sent to the position whose value the running extremum held then."""
    prev = cumulative_rules.shift(out, axis, 0)
    better = np.greater(x, prev) if ufunc in ("maximum", "fmax") else np.less(x, prev)
    if ufunc in ("maximum", "minimum"):  # a NaN takes over and stays
        nan_turn = np.logical_and(np.isnan(x), np.logical_not(np.isnan(prev)))
    else:  # NaNs are skipped: the first number after them takes over
        nan_turn = np.logical_and(np.isnan(prev), np.logical_not(np.isnan(x)))
    steps = cumulative_rules.steps_along(x, axis)
    changed = np.logical_or(np.logical_or(np.equal(steps, 0), better), nan_turn)
    since = np.where(changed, steps, 0)
    holder = ufunc_methods.ufunc_accumulate_p.bind(since, ufunc="maximum", axis=axis, dtype=None)
    ct = vjp.zeros(common.operand_type(x).strong(), x)
    index = composites.along_axis_index(ct, holder, axis)
    parsed, dynamic = indexing.parse_index(index)
    return indexing.index_add_p.bind(ct, g, *dynamic, index=parsed)
