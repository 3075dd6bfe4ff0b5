"""Shape primitives: reshape, broadcast_to, transpose, expand_dims, squeeze, flip, ``ix_`` (views
spread along their own axes), and a tensor's run-time ``dim`` and ``size`` (joining arrays is in
``join.py``).

Stage: graph building. Input: NumPy shape functions called on tensors (``np.reshape(x, (n, -1))``,
``x.T``, ``x.shape[0]``). Output: equations whose type rules give NumPy's shapes, with ``None`` for
dimensions known only at run time. A shape argument may hold scalar tensors (e.g. ``x.shape[0]``
of an unknown dim): they become extra inputs, and ``shape`` params hold ``None`` in their place.
``swapaxes`` and ``moveaxis`` become ``transpose``; ``ravel`` becomes ``reshape``. ``dim`` and
``size`` are weak ints, as ``x.shape[i]`` and ``x.size`` are Python ints in eager code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common
from tograph.trace import dispatch, functional, tensor

# ---- reshape and broadcast_to: shapes that may hold run-time dims --------------------------


def _shape_source(static: Sequence[int | None], dims: Sequence[str]) -> str:
    values = iter(dims)
    parts = [next(values) if d is None else str(d) for d in static]
    return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"


def _reshape_impl(x: Any, *dims: Any, shape: tuple[int | None, ...]) -> Any:
    return np.reshape(x, common.fill_dims(shape, dims))


def _reshape_rule(
    x: types.TensorType, *dims: types.TensorType, shape: tuple[int | None, ...]
) -> types.TensorType:
    common.check_dim_types(dims, "reshape")
    if shape.count(-1) > 1 or any(d is not None and d < -1 for d in shape):
        raise errors.ShapeError(
            f"reshape: invalid shape {common.fmt(shape)}: at most one -1, no other negative dims"
        )
    out = [None if d == -1 else d for d in shape]
    unknown = [i for i, d in enumerate(out) if d is None]
    if x.size is None or len(unknown) > 1:
        return types.TensorType(x.dtype, tuple(out))
    known = math.prod(d for d in out if d is not None)
    if unknown and known and x.size % known == 0:
        out[unknown[0]] = x.size // known
    elif (not unknown and known != x.size) or -1 in shape:
        raise errors.ShapeError(
            f"reshape: cannot reshape array of shape {common.fmt(x.shape)} (size {x.size}) "
            f"into shape {common.fmt(shape)}"
        )
    return types.TensorType(x.dtype, tuple(out))


def _reshape_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    return f"{ctx.const(np.reshape)}({args[0]}, {_shape_source(eqn.params['shape'], args[1:])})"


reshape_p = primitives.Primitive(
    "reshape", _reshape_impl, _reshape_rule, emit=_reshape_emit, views=True
)


def _broadcast_to_impl(x: Any, *dims: Any, shape: tuple[int | None, ...]) -> Any:
    return np.broadcast_to(x, common.fill_dims(shape, dims))


def _broadcast_to_rule(
    x: types.TensorType, *dims: types.TensorType, shape: tuple[int | None, ...]
) -> types.TensorType:
    common.check_dim_types(dims, "broadcast_to")
    error = errors.ShapeError(
        f"broadcast_to: cannot broadcast shape {common.fmt(x.shape)} to {common.fmt(shape)}"
    )
    if x.ndim > len(shape) or any(d is not None and d < 0 for d in shape):
        raise error
    out = list(shape)
    for j, d in enumerate(x.shape, start=len(shape) - x.ndim):
        if d is None or d == 1:
            continue
        if out[j] is None:
            out[j] = d  # the run-time dim must equal d for broadcasting to succeed
        elif out[j] != d:
            raise error
    return types.TensorType(x.dtype, tuple(out))


def _broadcast_to_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    return (
        f"{ctx.const(np.broadcast_to)}({args[0]}, {_shape_source(eqn.params['shape'], args[1:])})"
    )


broadcast_to_p = primitives.Primitive(
    "broadcast_to", _broadcast_to_impl, _broadcast_to_rule, emit=_broadcast_to_emit, views=True
)


@dispatch.implements(np.reshape)
def reshape(
    a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: Any = None
) -> Any:
    """``np.reshape``; ``shape`` entries may be scalar tensors (their output dims are unknown)."""
    if order != "C" or copy:
        raise dispatch.unsupported("np.reshape with order= or copy=")
    static, dynamic = common.split_dims(newshape if shape is None else shape, "reshape")
    return _reshape_view(a, static, dynamic, "reshape")


@dispatch.implements(np.ravel)
def ravel(a: Any, order: str = "C") -> Any:
    """``np.ravel`` as a reshape to ``(-1,)``."""
    if order != "C":
        raise dispatch.unsupported("np.ravel with order=")
    return _reshape_view(a, (-1,), [], "ravel")


def _reshape_view(a: Any, static: tuple[int | None, ...], dynamic: list[Any], what: str) -> Any:
    """``a`` reshaped: a view of ``a`` as NumPy's is when ``a`` is C-contiguous. When tracing
    cannot tell whether ``a`` is (NumPy then copies), writing to ``a`` or to the result, or
    returning the result beside ``a`` or when ``a`` is an argument, is refused (the compiler
    falls back), since the answer would depend on the memory layout."""
    if tensor.is_symbolic(a) and (a.layout == "C" or a.type.ndim == 0):
        view = common.as_view(
            a, reshape_p, dynamic, {"shape": static}, lambda base, new: np.reshape(new, base.shape)
        )
        view.layout = "C"
        return view
    out = reshape_p.bind(a, *dynamic, shape=static)
    if tensor.is_symbolic(a):
        reason = (
            f"{what} of an array whose memory layout is not known while tracing may or may not "
            "share memory with it (NumPy returns a view only of a contiguous array), so an "
            "in-place write to either cannot be traced"
        )
        functional.freeze_path_alias(out, [a], reason, alias_argument=True)
    return out


@dispatch.implements(np.broadcast_to)
def broadcast_to(array: Any, shape: Any, subok: bool = False) -> Any:
    """``np.broadcast_to``: a read-only view; ``shape`` entries may be scalar tensors."""
    static, dynamic = common.split_dims(shape, "broadcast_to")
    view = common.as_view(array, broadcast_to_p, dynamic, {"shape": static}, None)
    if isinstance(view, tensor.SymbolicTensor) and not static:
        view.array0d = True  # a NumPy scalar broadcast to () is a 0-d array
    return view


# ---- axis permutations and unit dims -----------------------------------------------------


def _transpose_rule(x: types.TensorType, *, axes: tuple[int, ...]) -> types.TensorType:
    if sorted(axes) != list(range(x.ndim)):
        raise errors.ShapeError(
            f"transpose: axes {axes} don't match array of shape {common.fmt(x.shape)}"
        )
    return types.TensorType(x.dtype, tuple(x.shape[i] for i in axes))


def _expand_dims_rule(x: types.TensorType, *, axis: tuple[int, ...]) -> types.TensorType:
    ndim = x.ndim + len(axis)
    axes = common.normalize_axes(axis, x, "expand_dims", ndim) or ()
    dims = iter(x.shape)
    return types.TensorType(x.dtype, tuple(1 if i in axes else next(dims) for i in range(ndim)))


def _squeeze_rule(x: types.TensorType, *, axis: tuple[int, ...]) -> types.TensorType:
    axes = common.normalize_axes(axis, x, "squeeze") or ()
    for i in axes:
        if x.shape[i] not in (1, None):
            raise errors.ShapeError(
                f"squeeze: cannot select an axis to squeeze out which has size not equal to one "
                f"(axis {i} of shape {common.fmt(x.shape)})"
            )
    return types.TensorType(x.dtype, tuple(d for i, d in enumerate(x.shape) if i not in axes))


def _flip_rule(x: types.TensorType, *, axis: tuple[int, ...] | None) -> types.TensorType:
    common.normalize_axes(axis, x, "flip")
    return x.strong()


def _flip_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    x, axis = eqn.inputs[0].type, eqn.params["axis"]
    if x.weak:
        return f"{ctx.const(np.flip)}({args[0]})"
    axes = range(x.ndim) if axis is None else axis
    parts = ["::-1" if i in axes else ":" for i in range(x.ndim)]
    return f"{args[0]}[{', '.join(parts) or '()'}]"


transpose_p = primitives.Primitive("transpose", np.transpose, _transpose_rule, views=True)
expand_dims_p = primitives.Primitive("expand_dims", np.expand_dims, _expand_dims_rule, views=True)
squeeze_p = primitives.Primitive("squeeze", np.squeeze, _squeeze_rule, views=True)
flip_p = primitives.Primitive("flip", np.flip, _flip_rule, emit=_flip_emit, views=True)


def permuted(a: Any, axes: tuple[int, ...]) -> Any:
    """``a`` with its axes permuted: a view of ``a``, as NumPy's transposes are."""
    inverse = tuple(int(i) for i in np.argsort(axes))
    return common.as_view(
        a, transpose_p, (), {"axes": axes}, lambda base, new: transpose_p.bind(new, axes=inverse)
    )


@dispatch.implements(np.transpose)
def transpose(a: Any, axes: Any = None) -> Any:
    """``np.transpose``: the axes are reversed when ``axes`` is None."""
    t = common.operand_type(a)
    if axes is None:
        return permuted(a, tuple(reversed(range(t.ndim))))
    order = tuple(common.normalize_axis(i, t, "transpose") for i in axes)
    return permuted(a, order)


@dispatch.implements(np.swapaxes)
def swapaxes(a: Any, axis1: Any, axis2: Any) -> Any:
    """``np.swapaxes`` as a transpose."""
    t = common.operand_type(a)
    i, j = (common.normalize_axis(ax, t, "swapaxes") for ax in (axis1, axis2))
    perm = list(range(t.ndim))
    perm[i], perm[j] = j, i
    return permuted(a, tuple(perm))


@dispatch.implements(np.moveaxis)
def moveaxis(a: Any, source: Any, destination: Any) -> Any:
    """``np.moveaxis`` as a transpose."""
    t = common.operand_type(a)
    src = common.axis_sequence(source, t, "moveaxis")
    dst = common.axis_sequence(destination, t, "moveaxis")
    if len(src) != len(dst):
        raise errors.ShapeError(
            "moveaxis: `source` and `destination` arguments must have the same number of elements"
        )
    order = [i for i in range(t.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permuted(a, tuple(order))


@dispatch.implements(np.expand_dims)
def expand_dims(a: Any, axis: Any) -> Any:
    """``np.expand_dims``; ``axis`` may be a tuple."""
    t = common.operand_type(a)
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = common.normalize_axes(items, t, "expand_dims", t.ndim + len(items))
    return common.as_view(
        a, expand_dims_p, (), {"axis": axes}, lambda base, new: squeeze_p.bind(new, axis=axes)
    )


@dispatch.implements(np.squeeze)
def squeeze(a: Any, axis: Any = None) -> Any:
    """``np.squeeze``; with ``axis=None`` every dim must be known, to know which ones are 1."""
    t = common.operand_type(a)
    if axis is None and None in t.shape:
        raise errors.ShapeError(
            f"squeeze: cannot tell which axes of shape {common.fmt(t.shape)} are 1, because some "
            "dimensions are only known at run time",
            hint="pass axis= to name the axes to remove",
        )
    axes = (
        tuple(i for i, d in enumerate(t.shape) if d == 1)
        if axis is None
        else common.normalize_axes(axis, t, "squeeze")
    ) or ()
    return common.as_view(
        a, squeeze_p, (), {"axis": axes}, lambda base, new: expand_dims_p.bind(new, axis=axes)
    )


def _flipped(m: Any, axis: tuple[int, ...] | None) -> Any:
    """``m`` reversed along ``axis``: a view of ``m``, as NumPy's flips are."""
    return common.as_view(
        m, flip_p, (), {"axis": axis}, lambda base, new: flip_p.bind(new, axis=axis)
    )


@dispatch.implements(np.flip)
def flip(m: Any, axis: Any = None) -> Any:
    """``np.flip``: reverses the order of elements along ``axis`` (all axes if None)."""
    return _flipped(m, common.normalize_axes(axis, common.operand_type(m), "flip"))


@dispatch.implements(np.flipud)
def flipud(m: Any) -> Any:
    """``np.flipud``: flips axis 0."""
    return _flipped(m, (0,))


@dispatch.implements(np.fliplr)
def fliplr(m: Any) -> Any:
    """``np.fliplr``: flips axis 1."""
    return _flipped(m, (1,))


@dispatch.implements(np.ix_)
def ix_(*args: Any) -> tuple[Any, ...]:
    """``np.ix_``: each 1-d index (a mask: its positions) as a view spread along its own axis."""
    out = []
    for k, index in enumerate(args):
        if not tensor.is_tensor(index):
            index = np.asarray(index)
            if index.size == 0:
                index = index.astype(np.intp)
        if index.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if index.dtype == np.bool_:
            (index,) = np.nonzero(index)
        out.append(index[(None,) * k + (slice(None),) + (None,) * (len(args) - k - 1)])
    return tuple(out)


# ---- run-time dims -----------------------------------------------------------------------


def _dim_impl(x: Any, axis: int) -> int:
    return np.shape(x)[axis]


def _dim_rule(x: types.TensorType, *, axis: int) -> types.TensorType:
    common.normalize_axis(axis, x, "dim")
    return types.TensorType(np.int64, (), weak=True)


def _size_rule(x: types.TensorType) -> types.TensorType:
    return types.TensorType(np.int64, (), weak=True)


dim_p = primitives.Primitive(
    "dim",
    _dim_impl,
    _dim_rule,
    emit=lambda ctx, eqn, args: f"{args[0]}.shape[{eqn.params['axis']}]",
)
size_p = primitives.Primitive(
    "size", np.size, _size_rule, emit=lambda ctx, eqn, args: f"{args[0]}.size"
)


@dispatch.implements(np.shape)
def _shape(a: Any) -> tuple[Any, ...]:
    """``np.shape``: ints for static dims, weak scalar tensors for run-time ones."""
    return tuple(d if d is not None else dim_p.bind(a, axis=i) for i, d in enumerate(a.type.shape))


@dispatch.implements(np.ndim)
def _ndim(a: Any) -> int:
    return a.ndim


@dispatch.implements(np.size)
def _size(a: Any, axis: Any = None) -> Any:
    """``np.size``: an int if known statically, else a weak scalar tensor."""
    if axis is not None:
        return _shape(a)[common.normalize_axis(axis, a.type, "size")]
    return a.type.size if a.type.size is not None else size_p.bind(a)


# ---- matrix_transpose ------------------------------------------------------------------------


def _matrix_transpose_rule(x: types.TensorType) -> types.TensorType:
    if x.ndim < 2:
        raise errors.ShapeError(
            f"matrix_transpose: the array must be at least 2-d, got shape {common.fmt(x.shape)}"
        )
    return types.TensorType(x.dtype, x.shape[:-2] + (x.shape[-1], x.shape[-2]))


matrix_transpose_p = primitives.Primitive(
    "matrix_transpose",
    np.matrix_transpose,
    _matrix_transpose_rule,
    emit=lambda ctx, eqn, args: f"{args[0]}.mT",
    views=True,
)


@dispatch.implements(np.matrix_transpose)
def matrix_transpose(x: Any) -> Any:
    """``np.matrix_transpose`` (``x.mT``): a view of ``x`` with its last two axes swapped."""
    return common.as_view(
        x, matrix_transpose_p, (), {}, lambda base, new: matrix_transpose_p.bind(new)
    )
