"""Chunked forms of the primitives, for running graphs on ``dask.array`` arrays.

Stage: execute (the Dask backend's table; ``backend.dask_exec`` walks the graph). Input: a
primitive with at least one ``dask.array.Array`` operand. Output: the lazy dask array(s) that
compute what the primitive's NumPy kernel would compute on the whole arrays. Four kinds:

* elementwise primitives (``ops.elementwise``, ``ops.complex_parts``) run their own kernel on
  each block, operands broadcast and their chunks aligned by ``dask.array``: an elementwise
  kernel gives per block exactly what it gives on the whole array;
* reductions, products, joins and rearrangements call ``dask.array``'s function of the same
  meaning (``da.sum``, ``da.matmul``, ``da.concatenate``, ``x[index]``, ...), and the result is
  cast to the dtype the graph's type rule gave if ``dask.array`` chose another;
* any other primitive whose dask operands are each one chunk runs its kernel on those chunks,
  which are the whole arrays, so it is exact too (``np.linalg.inv`` of a small matrix, say);
* everything else raises ``UnsupportedError`` naming the primitive: a kernel that needs the
  whole array cannot run on pieces of it, and gathering a larger-than-memory array in one
  place is the user's call (``x.rechunk(-1)``), never made silently.

Data movement (indexing, reshapes, joins) and integer, boolean, ``max``/``min`` and ``arg*``
results are bit-for-bit NumPy's. Floating-point sums, means, variances, cumulative sums and
matrix products add in chunk order, so they can differ from NumPy's in the last bits, as
``dask.array``'s own do. Requires: ``dask[array]`` installed (imported on first use).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import core, primitives, types
from tograph.ops import (
    common,
    complex_parts,
    elementwise,
    join,
    linalg,
    lists,
    products,
    reductions,
    shape,
    stacking,
)
from tograph.ops import indexing as indexing_ops

Form = Callable[[core.Eqn, Sequence[Any]], Any]


def run(eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
    """The outputs of ``eqn`` for operands ``values``, at least one a dask array.

    Raises:
      UnsupportedError: the primitive has no chunked form and a dask operand has several chunks.
    """
    form = _FORMS.get(eqn.prim)
    if form is None and eqn.prim in _ELEMENTWISE:
        form = _per_block
    if form is None:
        return _whole_blocks(eqn, values)
    out = form(eqn, values)
    outs = tuple(out) if eqn.prim.multiple_results else (out,)
    return tuple(_as_type(value, var) for value, var in zip(outs, eqn.outputs))


def _as_type(value: Any, var: core.Var) -> Any:
    """``value`` in the dtype of ``var``'s type (dask.array may pick another for a reduction)."""
    dtype = getattr(var.type, "dtype", None)
    if types.is_dask_array(value) and dtype is not None and value.dtype != dtype:
        return value.astype(dtype)
    return value


# ---- elementwise, per block ----------------------------------------------------------------

_ELEMENTWISE = frozenset(
    value
    for module in (elementwise, complex_parts)
    for value in vars(module).values()
    if isinstance(value, primitives.Primitive)
)


def _block_kernel(kernel: Callable[..., Any], params: dict[str, Any], *blocks: Any) -> Any:
    return np.asarray(kernel(*blocks, **params))


def _per_block(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    from dask.array import core as dask_core

    kernel = functools.partial(_block_kernel, eqn.prim.impl, dict(eqn.params))
    return dask_core.elemwise(kernel, *values, dtype=eqn.outputs[0].type.dtype)


# ---- dask.array's own functions ------------------------------------------------------------


def _reduction(name: str) -> Form:
    def form(eqn: core.Eqn, values: Sequence[Any]) -> Any:
        import dask.array as da

        return getattr(da, name)(values[0], **eqn.params)

    return form


def _function(name: str, *param_names: str) -> Form:
    """``da.<name>(*operands, *params)``, the params passed positionally in the order given."""

    def form(eqn: core.Eqn, values: Sequence[Any]) -> Any:
        import dask.array as da

        return getattr(da, name)(*values, *(eqn.params[p] for p in param_names))

    return form


def _einsum(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    return da.einsum(eqn.params["subscripts"], *values)


def _tensordot(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    return da.tensordot(values[0], values[1], axes=eqn.params["axes"])


def _reshape(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    x, *dims = values
    return da.reshape(x, common.fill_dims(eqn.params["shape"], dims))


def _broadcast_to(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    x, *dims = values
    return da.broadcast_to(x, common.fill_dims(eqn.params["shape"], dims))


def _concatenate(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    axis = eqn.params["axis"]
    if axis is None:
        return da.concatenate([da.ravel(v) for v in values], axis=0)
    return da.concatenate(list(values), axis=axis)


def _stack(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    return da.stack(list(values), axis=eqn.params["axis"])


def _matrix_transpose(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    return da.swapaxes(values[0], -1, -2)


def _getitem(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    x, *parts = values
    index = eqn.params["index"].build(parts)
    try:
        return x[index]
    except NotImplementedError as exc:
        raise errors.UnsupportedError(
            f"getitem with index {eqn.params['index']} on a dask array: dask.array cannot "
            f"index this way ({exc})",
            hint="index with slices and at most one integer array, or compute the array first",
        ) from None


def _dim(eqn: core.Eqn, values: Sequence[Any]) -> int:
    extent = values[0].shape[eqn.params["axis"]]
    if np.isnan(extent):
        raise errors.UnsupportedError(
            "dim of a dask array whose size along that axis is unknown (it came from a mask)",
            hint="call compute_chunk_sizes() on the array first",
        )
    return int(extent)


def _size(eqn: core.Eqn, values: Sequence[Any]) -> int:
    if any(np.isnan(n) for n in values[0].shape):
        raise errors.UnsupportedError(
            "size of a dask array whose shape is unknown (it came from a mask)",
            hint="call compute_chunk_sizes() on the array first",
        )
    return int(values[0].size)


def _list_stack(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    import dask.array as da

    (items,) = values
    return da.stack(items) if items else eqn.prim.impl(items, **eqn.params)


def _split(eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
    x = values[0]
    params = eqn.params
    axis = params["axis"] % x.ndim
    extent = x.shape[axis]
    if params["sections"] is None:
        bounds = [0, *params["indices"], extent]
    else:
        pieces = np.array_split(np.empty(extent, dtype=np.bool_), params["sections"])
        bounds = [0, *np.cumsum([len(p) for p in pieces]).tolist()]
    lead = (slice(None),) * axis
    return tuple(x[(*lead, slice(lo, hi))] for lo, hi in zip(bounds, bounds[1:]))


def _python_kernel(eqn: core.Eqn, values: Sequence[Any]) -> Any:
    """Tensor lists are Python lists: their kernels only move the dask arrays about."""
    return eqn.prim.impl(*values, **eqn.params)


_FORMS: dict[primitives.Primitive, Form] = {
    **{prim: _reduction(prim.name) for prim in reductions.ALL},
    linalg.matmul_p: _function("matmul"),
    linalg.dot_p: _function("dot"),
    linalg.tensordot_p: _tensordot,
    linalg.einsum_p: _einsum,
    products.vdot_p: _function("vdot"),
    shape.reshape_p: _reshape,
    shape.broadcast_to_p: _broadcast_to,
    shape.transpose_p: _function("transpose", "axes"),
    shape.expand_dims_p: _function("expand_dims", "axis"),
    shape.squeeze_p: _function("squeeze", "axis"),
    shape.flip_p: _function("flip", "axis"),
    shape.matrix_transpose_p: _matrix_transpose,
    shape.dim_p: _dim,
    shape.size_p: _size,
    join.concatenate_p: _concatenate,
    join.stack_p: _stack,
    stacking.split_p: _split,
    indexing_ops.getitem_p: _getitem,
    lists.list_push_p: _python_kernel,
    lists.list_read_p: _python_kernel,
    lists.list_set_p: _python_kernel,
    lists.list_length_p: _python_kernel,
    lists.list_stack_p: _list_stack,
}


# ---- anything else: the kernel on whole arrays held in one chunk ---------------------------


def _whole_blocks(eqn: core.Eqn, values: Sequence[Any]) -> tuple[Any, ...]:
    import dask
    import dask.array as da

    split = [v for v in values if types.is_dask_array(v) and v.npartitions != 1]
    shapes = [getattr(var.type, "shape", None) for var in eqn.outputs]
    if split or any(s is None or None in s for s in shapes):
        chunks = f"an operand has {split[0].npartitions} chunks" if split else "its result's "
        chunks += "" if split else "shape is known only when it runs"
        raise errors.UnsupportedError(
            f"{eqn.prim.name} has no chunked form in tograph's dask backend, and {chunks}",
            hint="rechunk its operands to one chunk (x.rechunk(-1)) or compute them first",
        )
    wholes = [v.to_delayed().ravel()[0] if types.is_dask_array(v) else v for v in values]
    nout = len(eqn.outputs) if eqn.prim.multiple_results else None
    result = dask.delayed(eqn.prim.impl, nout=nout)(*wholes, **eqn.params)
    results = tuple(result) if eqn.prim.multiple_results else (result,)
    return tuple(
        da.from_delayed(dask.delayed(np.asarray)(r), shape=var.type.shape, dtype=var.type.dtype)
        for r, var in zip(results, eqn.outputs)
    )
