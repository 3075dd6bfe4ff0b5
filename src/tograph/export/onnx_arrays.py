"""The ONNX form of shape ops, linear algebra, creation, tensor lists and control flow.

Stage: export (ONNX); part of the table ``onnx_ops.OPS``. Input: an equation and its operands'
names. Output: its results' names. Shapes known only at run time are built from their dims
(``Concat`` of constants and run-time values). ``cond`` is an ``If`` whose branches read the
operands from the enclosing scope; ``while_loop`` is a ``Loop`` with no trip count whose first
test runs before it (the body computes the next, ``Writer.loop_body``). Tensor lists are ONNX
sequences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from tograph import passes
from tograph.export import onnx_common as common
from tograph.ir import core, types

if TYPE_CHECKING:
    from tograph.export.onnx import Writer

OPS: dict[str, common.Convert] = {}


def _matmul(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("MatMul", *common.operands(w, eqn, common.out_type(eqn).dtype))]


def _einsum(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    operands = common.operands(w, eqn, common.out_type(eqn).dtype)
    return [w.one("Einsum", *operands, equation=eqn.params["subscripts"])]


def _shape_tensor(w: Writer, static: Sequence[int | None], dims: Sequence[str]) -> str:
    """A 1-d int64 shape: static dims as constants, each None the next run-time dim (a 0-d
    shape is an empty constant: ONNX's Concat needs an input)."""
    if not static:
        return w.ints([])
    values = iter(dims)
    parts = [
        w.ints([d]) if d is not None else w.one("Reshape", next(values), w.ints([1]))
        for d in static
    ]
    return w.one("Concat", *parts, axis=0)


def _dims(w: Writer, eqn: core.Eqn, first: int) -> list[str]:
    return [w.operand(a, np.int64) for a in eqn.inputs[first:]]


def _reshape(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Reshape", args[0], shape)]


def _reduce_to(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    """A gradient summed back to its operand's shape: over the leading dims it gained, and over
    the dims that are 1 in the target (a sum over a dim that is already 1 changes nothing)."""
    target, ndim = eqn.params["shape"], common.in_type(eqn, 0).ndim
    lead = max(ndim - len(target), 0)
    offset = len(target) - (ndim - lead)
    axes = [*range(lead), *(lead + i for i in range(ndim - lead) if target[offset + i] == 1)]
    summed = w.one("ReduceSum", args[0], w.ints(axes), keepdims=1) if axes else args[0]
    return [w.one("Reshape", summed, _shape_tensor(w, target, _dims(w, eqn, 1)))]


def _broadcast_to(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Expand", args[0], shape)]


def _full(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Expand", w.operand(eqn.inputs[0], common.out_type(eqn).dtype), shape)]


def _transpose(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Transpose", args[0], perm=list(eqn.params["axes"]))]


def _matrix_transpose(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    n = common.in_type(eqn, 0).ndim
    return [w.one("Transpose", args[0], perm=[*range(n - 2), n - 1, n - 2])]


def _diagonal(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    """The two axes moved last and flattened into one, then the diagonal's elements gathered."""
    params = eqn.params
    i, j, k = params["axis1"], params["axis2"], params["offset"]
    shape = [d for d in common.in_type(eqn, 0).shape if d is not None]
    if len(shape) < common.in_type(eqn, 0).ndim:
        raise w.error("np.diagonal of an array whose shape is known only when the graph runs")
    rest = [a for a in range(len(shape)) if a not in (i, j)]
    moved = w.one("Transpose", args[0], perm=[*rest, i, j])
    cols = shape[j]
    flat = w.one("Reshape", moved, w.ints([*(shape[a] for a in rest), shape[i] * cols]))
    length = common.out_type(eqn).shape[-1] or 0  # static, as the input's shape is
    picks = [(s + max(-k, 0)) * cols + s + max(k, 0) for s in range(length)]
    return [w.one("Gather", flat, w.ints(picks), axis=len(rest))]


def _expand_dims(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    return [w.one("Unsqueeze", args[0], w.ints(axis if isinstance(axis, tuple) else (axis,)))]


def _squeeze(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    if axis is None:
        axis = tuple(i for i, d in enumerate(common.in_type(eqn, 0).shape) if d == 1)
    return [w.one("Squeeze", args[0], w.ints(axis))]


def _flip(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    t, axis = common.in_type(eqn, 0), eqn.params["axis"]
    axes = list(range(t.ndim)) if axis is None else list(axis)
    if not axes:
        return [args[0]]
    big = np.iinfo(np.int64)
    starts, ends, steps = (
        w.ints([-1] * len(axes)),
        w.ints([big.min] * len(axes)),
        w.ints([-1] * len(axes)),
    )
    return [w.one("Slice", args[0], starts, ends, w.ints(axes), steps)]


def _dim(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    shape = w.one("Shape", args[0], start=axis, end=axis + 1)
    return [w.one("Squeeze", shape, w.ints([0]))]


def _size(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Size", args[0])]


def _concatenate(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    operands, axis = common.operands(w, eqn, common.out_type(eqn).dtype), eqn.params["axis"]
    if axis is None:
        operands, axis = [w.one("Reshape", x, w.ints([-1])) for x in operands], 0
    return [w.one("Concat", *operands, axis=axis)]


def _stack(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = w.ints([eqn.params["axis"]])
    parts = [
        w.one("Unsqueeze", x, axis) for x in common.operands(w, eqn, common.out_type(eqn).dtype)
    ]
    return [w.one("Concat", *parts, axis=eqn.params["axis"])]


def _arange(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = common.out_type(eqn).dtype
    bounds = common.operands(w, eqn, dtype)
    if len(bounds) == 1:
        bounds = [w.const(0, dtype), bounds[0]]
    if len(bounds) == 2:
        bounds.append(w.const(1, dtype))
    return [w.one("Range", *bounds)]


OPS.update(
    matmul=_matmul,
    dot=_matmul,
    einsum=_einsum,
    reshape=_reshape,
    reduce_to=_reduce_to,
    broadcast_to=_broadcast_to,
    full=_full,
    transpose=_transpose,
    matrix_transpose=_matrix_transpose,
    diagonal=_diagonal,
    expand_dims=_expand_dims,
    squeeze=_squeeze,
    flip=_flip,
    dim=_dim,
    size=_size,
    concatenate=_concatenate,
    stack=_stack,
    arange=_arange,
)


# ---- tensor lists ------------------------------------------------------------------------


def _list_new(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    elem = eqn.params["elem"] or w.list_elems.get(eqn.outputs[0].id)
    if elem is None:
        raise w.error("a tensor list that is never pushed to has no element type")
    return [w.one("SequenceEmpty", dtype=w.elem_type(elem.dtype))]


def _list_push(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    out = eqn.outputs[0].type
    elem = out.elem if isinstance(out, types.ListType) else None
    if elem is None:
        raise w.error(f"a push whose list type {out} has no element type")
    return [w.one("SequenceInsert", args[0], w.operand(eqn.inputs[1], elem.dtype))]


def _list_stack(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    """ConcatFromSequence, which refuses an empty sequence: where tograph stacks an empty list to
    shape ``(0, *elem.shape)``, a row of zeros goes on the end first and is sliced off after."""
    elem, params = eqn.params["elem"], eqn.params
    pads = (
        elem.is_static_shape
        and params.get("empty_error") is None
        and (not params.get("like_array") or elem.shape == ())
    )
    if not pads:
        return [w.one("ConcatFromSequence", args[0], axis=0, new_axis=1)]
    padded = w.one("SequenceInsert", args[0], w.const(np.zeros(elem.shape, elem.dtype)))
    stacked = w.one("ConcatFromSequence", padded, axis=0, new_axis=1)
    return [w.one("Slice", stacked, w.ints([0]), w.ints([-1]), w.ints([0]))]


def _list_length(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("SequenceLength", args[0])]


def _list_read(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("SequenceAt", args[0], w.operand(eqn.inputs[1], np.int64))]


def _list_pop(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    """The last element and the list without it (a gradient's backward loop pops the forward
    loop's stack)."""
    last = w.const(-1, np.int64)
    return [w.one("SequenceErase", args[0], last), w.one("SequenceAt", args[0], last)]


OPS.update(
    list_new=_list_new,
    list_pop=_list_pop,
    list_push=_list_push,
    list_stack=_list_stack,
    list_length=_list_length,
    list_read=_list_read,
)


# ---- control flow ------------------------------------------------------------------------


def _cond(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    if not eqn.outputs and (w.drop_effects or not passes.has_effects(eqn)):
        return []  # a branch that only had effects, or checks ONNX has no exceptions for
    out_types = [v.type for v in eqn.outputs]
    pred, operands = w.operand(eqn.inputs[0], np.bool_), list(args[1:])
    then = w.subgraph(eqn.params["then_graph"], operands, "then", out_types)
    other = w.subgraph(eqn.params["else_graph"], operands, "else", out_types)
    return w.node("If", [pred], len(eqn.outputs), then_branch=then, else_branch=other)


def _while_loop(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    num_consts = eqn.params["num_consts"]
    test = eqn.params["cond_graph"]
    consts, inits = list(args[:num_consts]), list(args[num_consts:])
    carry_types = [v.type for v in eqn.outputs]
    inits = [
        _fit(w, name, a.type, t) for name, a, t in zip(inits, eqn.inputs[num_consts:], carry_types)
    ]
    for var, source in zip(test.inputs, [*consts, *inits]):
        w.env[var.id] = source
    w.block(test)  # the first test, before the loop
    w.eqn = eqn
    first = w.value(test.outputs[0])
    body = w.loop_body(eqn, consts, carry_types)
    w.eqn = eqn
    return w.node("Loop", ["", first, *inits], len(eqn.outputs), body=body)


def _fit(w: Writer, name: str, source: types.ValueType, target: types.ValueType) -> str:
    """A loop's initial value, cast where its dtype was widened for the carry."""
    if isinstance(source, types.TensorType) and isinstance(target, types.TensorType):
        return w.cast(name, source.dtype, target.dtype)
    return name


OPS.update(cond=_cond, while_loop=_while_loop)
