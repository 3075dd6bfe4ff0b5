"""NumPy's in-place operations on tensors: ``x[i] = v``, ``x += y``, ``ufunc(..., out=x)``,
``x.sort()``, ``x.fill(v)``, ``x.partition(k)``, ``np.put``, ``np.copyto``,
``np.putmask``, ``np.place``, ``np.put_along_axis``, ``np.fill_diagonal``,
``np.add.at`` and the other ``ufunc.at``.

Stage: graph building. Each computes the array's new value with the functional primitives
(``setitem``, the ufunc's primitive, ``sort``, ``ops.scatter``...) and writes it into the array
in place (``trace.functional.assign``): into its base and so into every alias and view, as
NumPy's mutation would. NumPy's own refusals are kept, with NumPy's messages: item assignment to
a scalar, a result that does not broadcast to ``out``, a cast ``same_kind`` forbids; inside a
branch or loop over tensors they are raised when (and if) that code runs (``effects.raise_``).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types
from tograph.ops import common, composites, creation, effects, elementwise, indexing, scatter
from tograph.trace import dispatch, functional, tensor


def _scalar_name(t: types.TensorType) -> str:
    """How NumPy names the type of a scalar of type ``t`` in messages."""
    if t.weak:
        return {"b": "bool", "i": "int", "f": "float", "c": "complex"}[t.dtype.kind]
    return f"numpy.{t.dtype.type.__name__}"


def _writable(x: Any, what: str) -> bool:
    """Whether ``x`` is a symbolic array to write into; for a symbolic scalar, emits NumPy's
    refusal (raised when the write runs) and says no."""
    if not isinstance(x, tensor.SymbolicTensor):
        raise errors.InternalError(f"{what} of a {type(x).__name__} reached the symbolic path")
    if x.is_array:
        return True
    effects.raise_(TypeError(f"'{_scalar_name(x.type)}' object does not support {what}"))
    return False


@dispatch.implements(operator.setitem)
def setitem(x: Any, index: Any, value: Any) -> None:
    """``x[index] = value`` in place."""
    if not tensor.is_symbolic(x):
        x.mutate(operator.setitem, index, value)
    elif _writable(x, "item assignment"):
        functional.assign(x, indexing.setitem(x, index, value))


@dispatch.implements(np.ufunc.__call__)
def ufunc_into(ufunc: np.ufunc, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``ufunc(*inputs, out=out, where=where, casting=..., dtype=...)``: the result, cast to the
    dtype of ``out``, written into ``out`` (only where ``where`` holds); returns ``out``."""
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    where = kwargs.pop("where", True)
    casting = kwargs.pop("casting", "same_kind")
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != 1 or outs[0] is None:
        if where is not True:
            raise dispatch.unsupported(f"np.{ufunc.__name__} with where= and no out=")
        return dispatch.UFUNCS[ufunc](*inputs, **kwargs)
    target = outs[0]
    if tensor.is_tensor(target) and not target.is_array:  # a NumPy scalar, which NumPy refuses
        effects.raise_(TypeError("return arrays must be of ArrayType"))
        return target
    if not tensor.is_symbolic(target):
        if not tensor.is_tensor(target):
            raise errors.UnsupportedError(
                f"np.{ufunc.__name__}(..., out=) writes tensor values into a NumPy array that "
                "tograph does not track (one read from a global, say)",
                construct="in-place update of a NumPy array",
            )
        target.mutate(
            lambda v, *a: ufunc(*a, out=v, where=where, casting=casting, **kwargs), *inputs
        )
        return target
    if not _writable(target, f"np.{ufunc.__name__}(..., out=)"):
        return target
    # the ufunc itself runs, never a NumPy scalar's operator (``LOOPS``)
    result = dispatch.LOOPS.get(ufunc, dispatch.UFUNCS[ufunc])(*inputs, **kwargs)
    have, want = common.operand_type(result), target.type
    shape = types.broadcast_shapes(have.shape, want.shape, what=f"operands of {ufunc.__name__}")
    if len(shape) != want.ndim or any(
        s is not None and w is not None and s != w for s, w in zip(shape, want.shape)
    ):
        effects.raise_(
            ValueError(
                f"non-broadcastable output operand with shape {common.fmt(want.shape)} doesn't "
                f"match the broadcast shape {common.fmt(shape)}"
            )
        )
        return target
    if not np.can_cast(have.dtype, want.dtype, casting=casting):
        effects.raise_(_casting_error(ufunc, inputs, want, casting))
        return target
    if have.dtype != want.dtype:  # before the merge with ``out``, whose values stay exact
        result = elementwise.astype_p.bind(result, dtype=want.dtype, weak=False)
    if where is not True:
        result = np.where(where, result, target)
    elif have.shape != want.shape or not tensor.is_tensor(result) or target.array0d:
        # a new array, not a read-only view of a broadcast (or a NumPy array of operands that
        # are all known now, written as the constant it is; or a 0-d array, which the ufunc
        # would give as a NumPy scalar: later operations on it would warn as "scalar divide")
        result = indexing.setitem(target, Ellipsis, result)
    functional.assign(target, result)
    return target


def _casting_error(
    ufunc: np.ufunc, inputs: tuple[Any, ...], target: types.TensorType, casting: str
) -> Exception:
    """NumPy's own error for writing ``ufunc``'s result into an array of type ``target``."""
    probes = [common.probe_value(common.operand_type(a)) for a in inputs]
    try:
        ufunc(*probes, out=np.zeros((1,) * target.ndim, target.dtype), casting=casting)
    except TypeError as exc:
        return exc
    return TypeError(f"Cannot cast ufunc '{ufunc.__name__}' output to {target.dtype}")


@dispatch.implements(np.ndarray.sort)
def sort(a: Any, axis: Any = -1, kind: Any = None, order: Any = None) -> None:
    """``a.sort(axis)`` in place."""
    if not tensor.is_symbolic(a):
        a.mutate(lambda v: v.sort(axis=axis, kind=kind, order=order))
    elif _writable(a, "sort"):
        functional.assign(a, composites.sort(a, axis=axis, kind=kind, order=order))


@dispatch.implements(np.ndarray.fill)
def fill(a: Any, value: Any) -> None:
    """``a.fill(value)``: every element set to ``value`` (cast as NumPy assignment casts)."""
    if not tensor.is_symbolic(a):
        a.mutate(np.ndarray.fill, value)
    elif _writable(a, "fill"):
        functional.assign(a, indexing.setitem(a, Ellipsis, value))


@dispatch.implements(np.ndarray.partition)
def partition(
    a: Any, kth: Any, axis: Any = -1, kind: Any = "introselect", order: Any = None
) -> None:
    """``a.partition(kth)`` in place: the arrangement ``np.partition`` makes (a host call)."""
    if not tensor.is_symbolic(a):
        a.mutate(lambda v: v.partition(kth, axis=axis, kind=kind, order=order))
    elif _writable(a, "partition"):
        functional.assign(a, np.partition(a.plain(), kth, axis=axis, kind=kind, order=order))


@dispatch.implements(np.put)
def put(a: Any, ind: Any, v: Any, mode: str = "raise") -> None:
    """``np.put(a, ind, v, mode)``: items of the flattened array set in place (the last of
    repeated indices wins; ``v`` repeats to the length of ``ind``)."""
    if not _symbolic_target(a, "np.put", np.put, ind, v, mode):
        return
    flat = np.ravel(a.plain())
    size = flat.shape[0]
    index = np.ravel(np.asarray(ind) if not tensor.is_tensor(ind) else ind)
    if mode == "wrap":
        index = np.mod(index, size)
    elif mode == "clip":
        index = np.clip(index, 0, size - 1)
    values = np.resize(v, index.shape)
    flat = indexing.setitem(flat, index, values)
    functional.assign(a, np.reshape(flat, a.shape))


def _symbolic_target(dst: Any, name: str, update: Any, *args: Any) -> bool:
    """Whether ``dst``, the array a NumPy function writes, is a symbolic array to write into.
    An eager tensor is updated by ``update(value, *args)`` here; a NumPy array (one from
    outside the function, as those made in it are tensors) cannot be written while tracing."""
    if tensor.is_symbolic(dst):
        return _writable(dst, name)
    if not tensor.is_tensor(dst):
        raise errors.UnsupportedError(
            f"{name} writes tensor values into a NumPy array that tograph does not track",
            construct="in-place update of a NumPy array",
        )
    dst.mutate(update, *args)
    return False


@dispatch.implements(np.copyto)
def copyto(dst: Any, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """``np.copyto(dst, src)``: ``src`` broadcast and cast into ``dst``."""
    update = lambda v, s: np.copyto(v, s, casting=casting, where=where)  # noqa: E731
    if not _symbolic_target(dst, "np.copyto", update, src):
        return
    have, want = common.operand_type(src), dst.type.dtype
    if have.weak:
        refusal = _python_number_refusal(src, have, want, casting)
        if refusal is not None:
            effects.raise_(refusal)
            return
    elif not np.can_cast(have.dtype, want, casting=casting):
        message = f"Cannot cast array data from {have.dtype!r} to {want!r} according to the rule"
        effects.raise_(TypeError(f"{message} '{casting}'"))
        return
    value = src if where is True else np.where(where, src, dst)
    functional.assign(dst, indexing.setitem(dst, Ellipsis, value))


def _python_number_refusal(src: Any, have: Any, want: np.dtype, casting: str) -> Exception | None:
    """The error ``np.copyto`` raises for a Python number ``src`` (of weak type ``have``) cast
    into ``want`` (NumPy 2 casts a Python int into a bool array under ``same_kind`` no more than
    an int64 array), or None; a traced number is tried as a sample of its kind."""
    sample = src if not tensor.is_tensor(src) else have.dtype.type(0).item()
    try:
        np.copyto(np.empty((), want), sample, casting=casting)
    except (TypeError, ValueError, OverflowError) as exc:
        return exc
    return None


def _numpy_refusal(update: Any, target: Any, *args: Any) -> Exception | None:
    """The error NumPy's ``update(target, *args)`` raises on arrays of these types and shapes
    (a scalar target, sizes that differ, a cast NumPy forbids), or None."""
    values = [target, *args]
    if any(tensor.is_tensor(v) and None in v.type.shape for v in values):
        raise dispatch.unsupported(
            f"np.{update.__name__}", "an argument's shape is known only when the graph runs"
        )
    probes = [
        (v.type.dtype.type(1).item() if v.type.weak else np.ones(v.type.shape, v.type.dtype))
        if tensor.is_tensor(v)
        else v
        for v in values
    ]
    if tensor.is_tensor(target) and not target.is_array and not target.type.weak:
        probes[0] = probes[0][()]
    try:
        update(*probes)
    except (TypeError, ValueError) as exc:
        return exc
    return None


def _masked_target(update: Any, target: Any, mask: Any, values: Any) -> bool:
    """Whether ``update`` (``np.putmask``, ``np.place``) is to be traced into ``target``: not
    when NumPy refuses these arguments (its error is raised when the graph runs) or when the
    target is an eager tensor (updated here)."""
    refusal = _numpy_refusal(update, target, mask, values)
    if refusal is not None:
        effects.raise_(refusal)
        return False
    return _symbolic_target(target, f"np.{update.__name__}", update, mask, values)


@dispatch.implements(np.putmask)
def putmask(a: Any, mask: Any, values: Any) -> None:
    """``np.putmask(a, mask, values)``: ``a.flat[n] = values.flat[n % values.size]`` where
    ``mask.flat[n]``, in place."""
    if not _masked_target(np.putmask, a, mask, values):
        return
    flat = np.ravel(values)
    if flat.shape[0] == 0:
        return
    n, size = flat.shape[0], a.size
    repeated = flat if n == size else np.take(flat, np.arange(size) % n)
    new = np.where(
        np.reshape(mask, a.shape), np.reshape(repeated, a.shape).astype(a.dtype), a.plain()
    )
    functional.assign(a, new)


@dispatch.implements(np.place)
def place(arr: Any, mask: Any, vals: Any) -> None:
    """``np.place(arr, mask, vals)``: the elements where ``mask`` holds, in order, set to
    ``vals`` (repeated as needed), in place."""
    if not _masked_target(np.place, arr, mask, vals):
        return
    flat = np.ravel(vals) if tensor.is_tensor(vals) else creation.constant(np.ravel(vals))
    if flat.shape[0] == 0:
        raise dispatch.unsupported("np.place", "with no values it raises only if a mask holds")
    where = np.ravel(mask).astype(bool)
    picked = np.take(flat, np.mod(np.cumsum(where) - 1, flat.shape[0]))
    new = np.where(where, picked.astype(arr.dtype), np.ravel(arr.plain()))
    functional.assign(arr, np.reshape(new, arr.shape))


@dispatch.implements(np.put_along_axis)
def put_along_axis(arr: Any, indices: Any, values: Any, axis: Any) -> None:
    """``np.put_along_axis(arr, indices, values, axis)`` in place."""
    if _symbolic_target(arr, "np.put_along_axis", np.put_along_axis, indices, values, axis):
        functional.assign(arr, scatter.put_along_axis(arr, indices, values, axis))


@dispatch.implements(np.fill_diagonal)
def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """``np.fill_diagonal(a, val, wrap)`` in place."""
    if _symbolic_target(a, "np.fill_diagonal", np.fill_diagonal, val, wrap):
        functional.assign(a, scatter.fill_diagonal(a, val, wrap))


def _ufunc_at(ufunc: np.ufunc, a: Any, indices: Any, b: Any = None) -> None:
    """``ufunc.at(a, indices, b)`` in place (unbuffered: repeated indices combine each time)."""
    if b is None:
        raise dispatch.unsupported(f"np.{ufunc.__name__}.at of a unary ufunc")
    if _symbolic_target(a, f"np.{ufunc.__name__}.at", ufunc.at, indices, b):
        functional.assign(a, scatter.ufunc_at(ufunc, a, indices, b))


dispatch.implements_method("at", *(getattr(np, name) for name in scatter.AT_UFUNCS))(_ufunc_at)
