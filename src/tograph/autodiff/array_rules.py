"""VJP rules of the shape, indexing, linear-algebra and tensor-list primitives.

Stage: autodiff. Input and output as in ``rules``: the output cotangent, inputs, ``out`` and
params; one cotangent (or None) per input. A tensor-list operand or output is seen as its length
at that point of the forward pass, and a list's cotangent is a cotangent list
(``ops.autodiff_ops``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff import vjp
from tograph.autodiff.rules import defvjp, shape_of, unbroadcast, zero
from tograph.ir import types
from tograph.ops import (
    common,
    creation,
    indexing,
    join,
    linalg,
    lists,
    rearrange,
    reductions,
    solvers,
    stacks,
)
from tograph.ops import shape as shape_ops
from tograph.trace import tensor

defvjp(
    shape_ops.dim_p,
    shape_ops.size_p,
    lists.list_new_p,
    lists.list_length_p,
    stacks.list_holes_p,
)(zero)


# ---- shape -------------------------------------------------------------------------------


@defvjp(shape_ops.reshape_p)
def _reshape(g: Any, x: Any, *dims: Any, out: Any, shape: Any) -> tuple[Any, ...]:
    return (shape_ops.reshape(g, shape_of(x)),) + (None,) * len(dims)


@defvjp(shape_ops.broadcast_to_p)
def _broadcast_to(g: Any, x: Any, *dims: Any, out: Any, shape: Any) -> tuple[Any, ...]:
    return (unbroadcast(g, x),) + (None,) * len(dims)


@defvjp(shape_ops.transpose_p)
def _transpose(g: Any, x: Any, *, out: Any, axes: tuple[int, ...]) -> tuple[Any, ...]:
    return (np.transpose(g, tuple(int(i) for i in np.argsort(axes))),)


@defvjp(shape_ops.expand_dims_p)
def _expand_dims(g: Any, x: Any, *, out: Any, axis: tuple[int, ...]) -> tuple[Any, ...]:
    return (shape_ops.squeeze_p.bind(g, axis=axis),)


@defvjp(shape_ops.squeeze_p)
def _squeeze(g: Any, x: Any, *, out: Any, axis: tuple[int, ...]) -> tuple[Any, ...]:
    return (shape_ops.expand_dims_p.bind(g, axis=axis) if axis else g,)


@defvjp(shape_ops.flip_p)
def _flip(g: Any, x: Any, *, out: Any, axis: Any) -> tuple[Any, ...]:
    return (shape_ops.flip_p.bind(g, axis=axis),)


@defvjp(join.concatenate_p)
def _concatenate(g: Any, *xs: Any, out: Any, axis: int | None) -> tuple[Any, ...]:
    cts, start = [], 0
    for x in xs:
        stop = start + (np.size(x) if axis is None else shape_of(x)[axis])
        if axis is None:
            cts.append(shape_ops.reshape(g[start:stop], shape_of(x)))
        else:
            cts.append(g[(slice(None),) * axis + (slice(start, stop),)])
        start = stop
    return tuple(cts)


@defvjp(join.stack_p)
def _stack(g: Any, *xs: Any, out: Any, axis: int) -> tuple[Any, ...]:
    return tuple(g[(slice(None),) * axis + (i,)] for i in range(len(xs)))


# ---- indexing ----------------------------------------------------------------------------


@defvjp(indexing.getitem_p)
def _getitem(g: Any, x: Any, *args: Any, out: Any, index: indexing.Index) -> tuple[Any, ...]:
    t = common.operand_type(x)
    if t.weak:
        return (g,) + (None,) * len(args)
    scattered = indexing.index_add_p.bind(vjp.zeros(t, x), g, *args, index=index)
    return (scattered,) + (None,) * len(args)


@defvjp(indexing.setitem_p)
def _setitem(
    g: Any, x: Any, value: Any, *args: Any, out: Any, index: indexing.Index
) -> tuple[Any, ...]:
    kept = indexing.setitem_p.bind(g, 0, *args, index=index)
    taken = indexing.getitem_p.bind(g, *args, index=index)
    return (kept, unbroadcast(taken, value)) + (None,) * len(args)


@defvjp(indexing.index_add_p)
def _index_add(
    g: Any, base: Any, update: Any, *args: Any, out: Any, index: indexing.Index
) -> tuple[Any, ...]:
    taken = indexing.getitem_p.bind(g, *args, index=index)
    return (g, unbroadcast(taken, update)) + (None,) * len(args)


@defvjp(shape_ops.matrix_transpose_p)
def _matrix_transpose(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (np.matrix_transpose(g),)


@defvjp(reductions.reduce_to_p)
def _reduce_to(g: Any, x: Any, *dims: Any, out: Any, shape: Any) -> tuple[Any, ...]:
    if np.ndim(g) > np.ndim(x):  # x was broadcast into leading unit dims
        g = shape_ops.reshape(g, shape_of(g)[np.ndim(g) - np.ndim(x) :])
    return (shape_ops.broadcast_to(g, shape_of(x)),) + (None,) * len(dims)


# ---- linear algebra ----------------------------------------------------------------------


@defvjp(solvers.inv_p)
def _inv(g: Any, a: Any, *, out: Any) -> tuple[Any, ...]:
    out_t = np.matrix_transpose(out)
    return (-(out_t @ g @ out_t),)


@defvjp(solvers.det_p)
def _det(g: Any, a: Any, *, out: Any) -> tuple[Any, ...]:
    scale = np.expand_dims(np.expand_dims(g * out, -1), -1)
    return (scale * np.matrix_transpose(np.linalg.inv(a)),)


@defvjp(solvers.solve_p)
def _solve(g: Any, a: Any, b: Any, *, out: Any) -> tuple[Any, ...]:
    gb = np.linalg.solve(np.matrix_transpose(a), g)
    if np.ndim(b) == 1:
        ga = -(np.expand_dims(gb, -1) * np.expand_dims(out, -2))
    else:
        ga = -(gb @ np.matrix_transpose(out))
    return unbroadcast(ga, a), unbroadcast(gb, b)


@defvjp(linalg.matmul_p)
def _matmul(g: Any, a: Any, b: Any, *, out: Any) -> tuple[Any, ...]:
    a_1d, b_1d = np.ndim(a) == 1, np.ndim(b) == 1
    if a_1d and b_1d:
        return g * b, g * a
    if b_1d and np.ndim(a) == 2:
        return np.expand_dims(g, -1) * b, np.matrix_transpose(a) @ g
    if a_1d and np.ndim(b) == 2:
        return b @ g, np.expand_dims(a, -1) * g
    a2 = np.expand_dims(a, 0) if a_1d else a
    b2 = np.expand_dims(b, -1) if b_1d else b
    g2 = np.expand_dims(g, -2) if a_1d else g
    g2 = np.expand_dims(g2, -1) if b_1d else g2
    ct_a = unbroadcast(g2 @ np.matrix_transpose(b2), a2)
    ct_b = unbroadcast(np.matrix_transpose(a2) @ g2, b2)
    return (np.squeeze(ct_a, 0) if a_1d else ct_a), (np.squeeze(ct_b, -1) if b_1d else ct_b)


def _contraction(
    g: Any, a: Any, b: Any, a_axes: Sequence[int], b_axes: Sequence[int]
) -> tuple[Any, ...]:
    """The cotangents of ``tensordot(a, b, (a_axes, b_axes))``."""
    free_a = [i for i in range(np.ndim(a)) if i not in a_axes]
    free_b = [j for j in range(np.ndim(b)) if j not in b_axes]
    g_b = tuple(range(len(free_a), len(free_a) + len(free_b)))
    ct_a = np.tensordot(g, b, axes=(g_b, tuple(free_b)))
    ct_a = _permute(ct_a, free_a + [a_axes[list(b_axes).index(j)] for j in sorted(b_axes)])
    ct_b = np.tensordot(a, g, axes=(tuple(free_a), tuple(range(len(free_a)))))
    ct_b = _permute(ct_b, [b_axes[list(a_axes).index(i)] for i in sorted(a_axes)] + free_b)
    return ct_a, ct_b


def _permute(x: Any, positions: list[int]) -> Any:
    """``x`` whose axis k stands for axis ``positions[k]``, with its axes put in that order."""
    order = tuple(int(i) for i in np.argsort(positions))
    return x if order == tuple(range(len(order))) else np.transpose(x, order)


@defvjp(linalg.tensordot_p)
def _tensordot(g: Any, a: Any, b: Any, *, out: Any, axes: Any) -> tuple[Any, ...]:
    return _contraction(g, a, b, axes[0], axes[1])


@defvjp(linalg.dot_p)
def _dot(g: Any, a: Any, b: Any, *, out: Any) -> tuple[Any, ...]:
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(g * b, a), unbroadcast(g * a, b)
    return _contraction(g, a, b, (np.ndim(a) - 1,), (0 if np.ndim(b) == 1 else np.ndim(b) - 2,))


@defvjp(linalg.einsum_p)
def _einsum(g: Any, *xs: Any, out: Any, subscripts: str) -> tuple[Any, ...]:
    lhs, result = subscripts.split("->")
    terms = lhs.split(",")
    return tuple(_einsum_operand(g, xs, terms, result, k) for k in range(len(xs)))


def _einsum_operand(g: Any, xs: Sequence[Any], terms: list[str], result: str, k: int) -> Any:
    """The cotangent of operand ``k``: an einsum of ``g`` with the other operands."""
    tokens = _tokens(terms[k])
    labels = [t for t in tokens if t != "..."]
    if len(set(labels)) != len(labels):
        raise errors.UnsupportedError(
            f"the gradient of einsum {','.join(terms)}->{result} with a label repeated in one "
            "operand "
            "is not supported",
            construct="einsum gradient",
        )
    others = [t for j, t in enumerate(terms) if j != k]
    seen = set(result + "".join(others))
    kept = [t for t in tokens if t == "..." or t in seen]
    spec = ",".join([result, *others]) + "->" + "".join(kept)
    ct = np.einsum(spec, g, *(x for j, x in enumerate(xs) if j != k))
    width = np.ndim(xs[k]) - len(labels)  # dims the ellipsis stands for
    axes, missing = 0, []
    for t in tokens:
        if t not in seen and t != "...":
            missing.append(axes)
        axes += width if t == "..." else 1
    if missing:
        ct = np.expand_dims(ct, tuple(missing))
    x = xs[k]
    target = tuple(1 if i in missing else d for i, d in enumerate(common.operand_type(x).shape))
    if common.operand_type(ct).shape != target or None in target:
        dims = [x.shape[i] for i, d in enumerate(target) if d is None]
        ct = reductions.reduce_to_p.bind(ct, *dims, shape=target)
    return shape_ops.broadcast_to(ct, shape_of(x)) if missing else ct


def _tokens(term: str) -> list[str]:
    """The labels of an einsum term, with ``...`` as one token."""
    head, dots, tail = term.partition("...")
    return [*head, *([dots] if dots else []), *tail]


@defvjp(linalg.trace_p)
def _trace(
    g: Any, x: Any, *, out: Any, offset: int, axis1: int, axis2: int, dtype: Any
) -> tuple[Any, ...]:
    ndim, dims = np.ndim(x), shape_of(x)
    i, j = axis1 % ndim, axis2 % ndim
    eye = creation.eye(dims[i], dims[j], offset, dtype=common.operand_type(x).dtype)
    if i > j:
        eye = np.transpose(eye)
    others = tuple(k for k in range(ndim) if k not in (i, j))
    return (np.expand_dims(g, (min(i, j), max(i, j))) * np.expand_dims(eye, others),)


@defvjp(linalg.diag_p)
def _diag(g: Any, v: Any, *, out: Any, k: int) -> tuple[Any, ...]:
    if np.ndim(v) == 1:
        return (np.diag(g, k),)
    return _diagonal(g, v, out=out, offset=k, axis1=0, axis2=1)  # a graph saved before diagonal_p


@defvjp(rearrange.diagonal_p)
def _diagonal(g: Any, a: Any, *, out: Any, offset: int, axis1: int, axis2: int) -> Any:
    """``g`` added onto the diagonal of zeros shaped like ``a`` (its two axes moved last, where
    the diagonal is the result's last axis, and back)."""
    last = (np.ndim(a) - 2, np.ndim(a) - 1)
    zeros = vjp.zeros(common.operand_type(a).strong(), a)
    if (axis1, axis2) != last:
        zeros = np.moveaxis(zeros, (axis1, axis2), last)
    length = shape_of(out)[-1]
    steps = creation.arange(length) if tensor.is_tensor(length) else np.arange(length)
    index = (Ellipsis, steps + max(-offset, 0), steps + max(offset, 0))
    parsed, dynamic = indexing.parse_index(index)
    grad = indexing.index_add_p.bind(zeros, g, *dynamic, index=parsed)
    if (axis1, axis2) != last:
        grad = np.moveaxis(grad, last, (axis1, axis2))
    return (grad,)


# ---- tensor lists (operands and outputs that are lists are seen as their lengths) ------------


@defvjp(lists.list_push_p)
def _list_push(g: Any, n: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    t = common.operand_type(x)
    dims = [x.shape[i] for i, d in enumerate(t.shape) if d is None]
    rest, ct_x = stacks.list_pop_ct_p.bind(g, *dims, shape=t.shape, dtype=t.dtype, weak=t.weak)
    return rest, ct_x


@defvjp(lists.list_set_p)
def _list_set(g: Any, n: Any, index: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    t = common.operand_type(x)
    rest, ct_x = stacks.list_take_ct_p.bind(g, index, dtype=t.dtype, weak=t.weak)
    return rest, None, ct_x


@defvjp(lists.list_stack_p)
def _list_stack(
    g: Any, n: Any, *, out: Any, elem: Any, like_array: bool = False, empty_error: Any = None
) -> tuple[Any, ...]:
    weak = isinstance(elem, types.TensorType) and elem.weak  # a list of Python numbers
    return (stacks.list_unstack_p.bind(g, weak=weak),)


@defvjp(lists.list_read_p)
def _list_read(g: Any, n: Any, index: Any, *, out: Any) -> tuple[Any, ...]:
    holes = stacks.list_holes_p.bind(n, elem=common.operand_type(out))
    return stacks.list_add_at_p.bind(holes, index, g), None


@defvjp(stacks.list_pop_p, stacks.list_pop_ct_p)
def _list_pop(
    g: tuple[Any, Any], n: Any, *dims: Any, out: tuple[Any, Any], **params: Any
) -> tuple[Any, ...]:
    rest, x = g
    elem = common.operand_type(out[1])
    rest = rest if rest is not None else stacks.list_holes_p.bind(out[0], elem=elem)
    x = x if x is not None else vjp.zeros(elem, out[1])
    return (lists.push(rest, x),) + (None,) * len(dims)
