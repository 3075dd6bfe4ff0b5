"""VJP rules of the splitting, repeating and sorting primitives: ``split``, ``repeat`` and
``sort``.

Stage: autodiff. Input and output as in ``rules``. A split's pieces join back (added back where
out-of-order indices make them overlap); a repeated element gets the sum of its copies'
cotangents; a sorted element's cotangent goes back to the position a stable argsort took it from
(among equal values the derivative is not defined, and which one gets it is that order's choice).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph.autodiff import vjp
from tograph.autodiff.rules import defvjp, shape_of
from tograph.ops import common, composites, creation, indexing, join, rearrange, stacking
from tograph.trace import tensor


def _zeros_like(x: Any) -> Any:
    return vjp.zeros(common.operand_type(x).strong(), x)


def _add_at(base: Any, update: Any, index: tuple[Any, ...]) -> Any:
    parsed, dynamic = indexing.parse_index(index)
    return indexing.index_add_p.bind(base, update, *dynamic, index=parsed)


@defvjp(stacking.split_p)
def _split(
    g: tuple[Any, ...],
    x: Any,
    *,
    out: tuple[Any, ...],
    sections: Any,
    indices: Any,
    axis: int,
    equal: bool,
) -> tuple[Any, ...]:
    pieces = [ct if ct is not None else _zeros_like(o) for ct, o in zip(g, out)]
    bounds = list(indices or ())
    if sections is not None or (all(b >= 0 for b in bounds) and bounds == sorted(bounds)):
        return (join.concatenate(pieces, axis=axis),)  # the pieces tile x in order
    total = _zeros_like(x)  # out-of-order indices: pieces may overlap or be empty
    for piece, start, stop in zip(pieces, [0, *bounds], [*bounds, None]):
        total = _add_at(total, piece, (slice(None),) * axis + (slice(start, stop),))
    return (total,)


@defvjp(rearrange.repeat_p)
def _repeat(g: Any, x: Any, repeats: Any, *, out: Any, axis: int) -> tuple[Any, ...]:
    n = shape_of(x)[axis]
    steps = creation.arange(n) if tensor.is_tensor(n) else np.arange(n)
    source = rearrange.repeat_p.bind(steps, repeats, axis=0)  # where each output came from
    return _add_at(_zeros_like(x), g, (slice(None),) * axis + (source,)), None


@defvjp(composites.sort_p)
def _sort(g: Any, x: Any, *, out: Any, axis: int, kind: str | None) -> tuple[Any, ...]:
    taken_from = composites.argsort_p.bind(x, axis=axis, kind="stable")
    back = composites.argsort_p.bind(taken_from, axis=axis, kind="stable")
    return (composites.take_along_axis(g, back, axis),)
