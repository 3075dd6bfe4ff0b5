"""VJP rules of the functional scatters: ``put_along_axis`` and ``ufunc_at``.

Stage: autodiff. Input and output as in ``rules``. A written place passes its cotangent to the
value written, not to what it replaced; where ``put_along_axis`` writes one place several times,
only the write that lands (the last) gets it. ``multiply.at`` and ``divide.at`` give a value's
cotangent as ``g * out / value``, which assumes the value is not zero.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.autodiff.rules import defvjp, shape_of, unbroadcast
from tograph.ops import common, composites, creation, elementwise, indexing, scatter
from tograph.ops import shape as shape_ops
from tograph.trace import tensor


@defvjp(scatter.put_along_axis_p)
def _put_along_axis(
    g: Any, arr: Any, indices: Any, values: Any, *, out: Any, axis: int
) -> tuple[Any, ...]:
    kept = scatter.put_along_axis_p.bind(g, indices, 0, axis=axis)
    index = composites.along_axis_index(g, indices, axis)
    taken = indexing.getitem(g, index)
    # Of several writes to one place only the last lands: number the writes, write the numbers
    # the same way, and keep the cotangent of each write whose number is found there.
    dims = shape_of(taken)
    count = np.size(taken)
    steps = creation.arange(count) if tensor.is_tensor(count) else np.arange(count)
    numbers = shape_ops.reshape(steps, list(dims))
    owners = np.full_like(g, -1, dtype=np.intp)
    owners = scatter.put_along_axis_p.bind(owners, indices, numbers, axis=axis)
    landed = np.equal(indexing.getitem(owners, index), numbers)
    return kept, None, unbroadcast(np.where(landed, taken, 0), values)


@defvjp(scatter.ufunc_at_p)
def _ufunc_at(
    g: Any, a: Any, values: Any, *args: Any, out: Any, ufunc: str, index: indexing.Index
) -> tuple[Any, ...]:
    rest = (None,) * len(args)
    taken = indexing.getitem_p.bind(g, *args, index=index)
    if ufunc in ("add", "subtract"):
        return (g, unbroadcast(taken if ufunc == "add" else -taken, values)) + rest
    if ufunc in ("multiply", "divide"):
        ct_a = scatter.ufunc_at_p.bind(g, values, *args, ufunc=ufunc, index=index)
        share = indexing.getitem_p.bind(g * out, *args, index=index) / values
        return (ct_a, unbroadcast(share if ufunc == "multiply" else -share, values)) + rest
    if ufunc in ("maximum", "minimum", "fmax", "fmin"):
        return _extremum_at(g, a, values, args, out, index) + rest
    return (None, None) + rest  # bitwise and logical: no float cotangent


def _extremum_at(
    g: Any, a: Any, values: Any, args: tuple[Any, ...], out: Any, index: indexing.Index
) -> tuple[Any, Any]:
    """The cotangent of each place shared among the candidates that hold its extremum."""
    dtype = common.operand_type(out).dtype
    reached = indexing.getitem_p.bind(out, *args, index=index)
    spread = shape_ops.broadcast_to(values, shape_of(reached))
    hit_a = np.equal(a, out)
    hit_v = np.equal(spread, reached)
    as_float = (elementwise.astype_p.bind(h, dtype=dtype, weak=False) for h in (hit_a, hit_v))
    ties = scatter.ufunc_at_p.bind(*as_float, *args, ufunc="add", index=index)
    share = g / np.maximum(ties, 1)
    from_values = np.where(hit_v, indexing.getitem_p.bind(share, *args, index=index), 0)
    return np.where(hit_a, share, 0), unbroadcast(from_values, values)
