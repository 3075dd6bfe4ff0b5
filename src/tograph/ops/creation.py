"""Creation primitives: ``full`` (behind zeros, ones, empty, full and their ``*_like`` forms),
``arange``, ``eye`` and ``linspace``, plus ``np.array``/``np.asarray`` of lists holding tensors.

Stage: graph building. Input: NumPy creation calls with a tensor among their arguments. NumPy does
not dispatch ``np.zeros(n)``, ``np.arange(n)`` or ``np.array([t, u])`` to tensors, so those handlers
are registered with ``dispatch.overrides`` (converted code calls them when an argument holds a
tensor); ``*_like`` and ``np.linspace`` dispatch by themselves. Output: equations; a tensor shape
entry or length gives a dimension known only at run time (``None``). Printed form::

    z:f64[None,3] = full[dtype=f64, shape=(None, 3)] 0 n

A call whose result does not depend on a tensor (``np.zeros_like(x)`` for ``x`` of static shape)
returns a NumPy array, like any static value.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, elementwise, join, layouts, shape
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, functional, tensor


def _check_static_dims(dims: tuple[int | None, ...], op: str) -> None:
    if any(d is not None and d < 0 for d in dims):
        raise errors.ShapeError(
            f"{op}: negative dimensions are not allowed, got shape {common.fmt(dims)}"
        )


def _reject(name: str, order: Any, kwargs: dict[str, Any]) -> None:
    """Raises UnsupportedError for memory-layout, device and array-like arguments."""
    given = sorted(k for k, v in kwargs.items() if v is not None) + (
        [] if order in (None, "K", "A", "C") else ["order"]
    )
    if given:
        raise dispatch.unsupported(f"np.{name} with {', '.join(f'{k}=' for k in given)}")


# ---- full and its NumPy forms ------------------------------------------------------------


def _full_impl(fill: Any, *dims: Any, shape: tuple[int | None, ...], dtype: np.dtype) -> Any:
    return np.full(common.fill_dims(shape, dims), fill, dtype=dtype)


def _full_rule(
    fill: types.TensorType, *dims: types.TensorType, shape: tuple[int | None, ...], dtype: np.dtype
) -> types.TensorType:
    common.check_dim_types(dims, "full")
    _check_static_dims(shape, "full")
    if not common.broadcastable_to(fill.shape, shape):
        raise errors.ShapeError(
            f"full: a fill value of shape {common.fmt(fill.shape)} does not broadcast to "
            f"shape {common.fmt(shape)}"
        )
    return types.TensorType(dtype, shape)


full_p = primitives.Primitive("full", _full_impl, _full_rule, layout="C")


def _full(
    name: str, shape: Any, fill_value: Any, dtype: Any, order: Any, kwargs: dict[str, Any]
) -> Any:
    _reject(name, order, kwargs)
    static, dynamic = common.split_dims(shape, name)
    dtype = common.operand_type(fill_value).dtype if dtype is None else np.dtype(dtype)
    out = full_p.bind(fill_value, *dynamic, shape=static, dtype=dtype)
    if isinstance(out, tensor.SymbolicTensor) and not static:
        out.array0d = True  # ``np.zeros(())`` is a 0-d array
    return out


def _like(
    name: str, a: Any, fill_value: Any, dtype: Any, order: Any, shape: Any, kwargs: dict[str, Any]
) -> Any:
    """The shape of ``a`` unless given (unknown dims read at run time); its dtype by default."""
    t = common.operand_type(a)
    if shape is None:
        shape = a.shape if tensor.is_tensor(a) else t.shape
    return _full(name, shape, fill_value, t.dtype if dtype is None else dtype, order, kwargs)


@dispatch.overrides(np.full)
def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", **kwargs: Any) -> Any:
    """``np.full``; ``shape`` entries and ``fill_value`` may be tensors."""
    return _full("full", shape, fill_value, dtype, order, kwargs)


@dispatch.overrides(np.zeros, np.empty)
def zeros(shape: Any, dtype: Any = float, order: str = "C", **kwargs: Any) -> Any:
    """``np.zeros``, and ``np.empty`` (filled with zeros too)."""
    return _full("zeros", shape, 0, np.dtype(dtype), order, kwargs)


@dispatch.overrides(np.ndarray)
def ndarray(
    shape: Any,
    dtype: Any = float,
    buffer: Any = None,
    offset: int = 0,
    strides: Any = None,
    order: Any = None,
) -> Any:
    """``np.ndarray(shape, dtype)``: a new array, as ``np.empty`` makes one; over a ``buffer``
    (or with ``strides``) it would view memory, which falls back."""
    if buffer is not None or strides is not None:
        raise dispatch.unsupported("np.ndarray", "over a buffer or with strides it views memory")
    return zeros(shape, dtype, "C" if order is None else order)


@dispatch.overrides(np.ones)
def ones(shape: Any, dtype: Any = float, order: str = "C", **kwargs: Any) -> Any:
    """``np.ones``; ``shape`` entries may be tensors."""
    return _full("ones", shape, 1, np.dtype(dtype), order, kwargs)


@dispatch.implements(np.full_like)
def full_like(
    a: Any,
    fill_value: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    **kwargs: Any,
) -> Any:
    """``np.full_like``; ``subok`` has no effect (there are no array subclasses in graphs)."""
    return _like("full_like", a, fill_value, dtype, order, shape, kwargs)


@dispatch.implements(np.zeros_like, np.empty_like)
def zeros_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    **kwargs: Any,
) -> Any:
    """``np.zeros_like``, and ``np.empty_like`` (filled with zeros too)."""
    return _like("zeros_like", a, 0, dtype, order, shape, kwargs)


@dispatch.implements(np.ones_like)
def ones_like(
    a: Any,
    dtype: Any = None,
    order: str = "K",
    subok: bool = True,
    shape: Any = None,
    **kwargs: Any,
) -> Any:
    """``np.ones_like``."""
    return _like("ones_like", a, 1, dtype, order, shape, kwargs)


# ---- arange, eye, linspace ---------------------------------------------------------------


def _arange_rule(*args: types.TensorType, dtype: np.dtype | None) -> types.TensorType:
    for t in args:
        if t.shape != ():
            raise errors.ShapeError(
                f"arange: start, stop and step must be scalars, got a tensor of type {t}"
            )
    return types.TensorType(common.probe_dtype("arange", np.arange, args, dtype=dtype), (None,))


arange_p = primitives.Primitive("arange", np.arange, _arange_rule, layout="C")


@dispatch.overrides(np.arange)
def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, **kwargs: Any) -> Any:
    """``np.arange`` with tensor bounds: the length is known only at run time."""
    _reject("arange", None, kwargs)
    if stop is None:
        args = (start,) if step is None else (0, start, step)
    else:
        args = (start, stop) if step is None else (start, stop, step)
    return arange_p.bind(*args, dtype=None if dtype is None else np.dtype(dtype))


def _eye_impl(*dims: Any, shape: tuple[int | None, int | None], k: int, dtype: np.dtype) -> Any:
    rows, cols = common.fill_dims(shape, dims)
    return np.eye(rows, cols, k, dtype=dtype)


def _eye_rule(
    *dims: types.TensorType, shape: tuple[int | None, int | None], k: int, dtype: np.dtype
) -> types.TensorType:
    common.check_dim_types(dims, "eye")
    _check_static_dims(shape, "eye")
    return types.TensorType(dtype, shape)


eye_p = primitives.Primitive("eye", _eye_impl, _eye_rule, layout="C")


@dispatch.overrides(np.eye)
def eye(
    N: Any, M: Any = None, k: Any = 0, dtype: Any = float, order: str = "C", **kwargs: Any
) -> Any:
    """``np.eye`` with tensor sizes; ``k`` must be static."""
    _reject("eye", order, kwargs)
    if tensor.is_tensor(k):
        raise dispatch.unsupported("np.eye with a tensor k")
    static, dynamic = common.split_dims((N, N if M is None else M), "eye")
    return eye_p.bind(*dynamic, shape=static, k=operator.index(k), dtype=np.dtype(dtype))


@dispatch.overrides(np.identity)
def identity(n: Any, dtype: Any = None, **kwargs: Any) -> Any:
    """``np.identity``: ``np.eye(n)``."""
    return eye(n, dtype=dtype, **kwargs)


def _linspace_impl(
    start: Any,
    stop: Any,
    *dims: Any,
    num: int | None,
    endpoint: bool,
    dtype: np.dtype | None,
    axis: int,
) -> Any:
    count = int(dims[0]) if num is None else num
    return np.linspace(start, stop, count, endpoint=endpoint, dtype=dtype, axis=axis)


def _linspace_rule(
    start: types.TensorType,
    stop: types.TensorType,
    *dims: types.TensorType,
    num: int | None,
    endpoint: bool,
    dtype: np.dtype | None,
    axis: int,
) -> types.TensorType:
    common.check_dim_types(dims, "linspace")
    if num is not None and num < 0:
        raise errors.ShapeError(f"linspace: number of samples, {num}, must be non-negative")
    base = types.broadcast_shapes(start.shape, stop.shape, what="linspace: start and stop")
    axis = common.normalize_axis(
        axis, types.TensorType(start.dtype, base), "linspace", len(base) + 1
    )
    out_dtype = common.probe_dtype(
        "linspace", np.linspace, (start, stop), num=2, endpoint=endpoint, dtype=dtype, axis=axis
    )
    return types.TensorType(out_dtype, base[:axis] + (num,) + base[axis:])


linspace_p = primitives.Primitive("linspace", _linspace_impl, _linspace_rule, layout="C")


@dispatch.overrides(np.linspace)
@dispatch.implements(np.linspace)
def linspace(
    start: Any,
    stop: Any,
    num: Any = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
    **kwargs: Any,
) -> Any:
    """``np.linspace``; ``start`` and ``stop`` may be array tensors, ``num`` a scalar tensor."""
    _reject("linspace", None, kwargs)
    if retstep:
        raise dispatch.unsupported("np.linspace with retstep=True")
    dynamic = [num] if tensor.is_tensor(num) else []
    static_num = None if dynamic else operator.index(num)
    dtype = None if dtype is None else np.dtype(dtype)
    return linspace_p.bind(
        start, stop, *dynamic, num=static_num, endpoint=bool(endpoint), dtype=dtype, axis=int(axis)
    )


# ---- arrays from lists -------------------------------------------------------------------


@dispatch.implements(np.copy)
def copy_array(a: Any, order: str = "K", subok: bool = False) -> Any:
    """``np.copy`` (and ``x.copy()``, ``TensorBase.copy``): a new array, which later writes to
    ``a`` leave alone.

    A symbolic array shares its graph value, since graph values never change in place; writes
    to either one make a new value for it alone (``trace.functional``). A Python number becomes
    a NumPy array; an eager tensor's value is copied on the tape.
    """
    if not isinstance(a, tensor.SymbolicTensor) or a.type.weak:
        out = elementwise.astype_p.bind(a, dtype=a.type.dtype, weak=False)
        if isinstance(out, tensor.SymbolicTensor):
            out.array0d = True
        return out
    out = tensor.SymbolicTensor(a.graph_var, a.builder)
    out.array0d = True  # ``np.copy`` of a NumPy scalar is a 0-d array
    out.layout = "C" if order == "C" else a.layout if order in ("K", "A") else None
    functional.new_base(out)
    return out


@dispatch.overrides(np.asarray, np.asanyarray)
@dispatch.implements(np.asarray, np.asanyarray)
def asarray(a: Any, dtype: Any = None, order: Any = None, **kwargs: Any) -> Any:
    """``np.asarray``: a tensor itself (the very object, as NumPy returns an array itself) when
    no cast is asked for; lists holding tensors stacked as ``np.array`` does."""
    if tensor.is_tensor(a) and a.is_array and (dtype is None or np.dtype(dtype) == a.dtype):
        return layouts.in_order(a, order, "np.asarray")
    return array(a, dtype, copy=None, order=order, **kwargs)


@dispatch.overrides(np.array)
def array(
    object: Any,
    dtype: Any = None,
    *,
    copy: Any = True,
    order: Any = None,
    ndmin: int = 0,
    **kwargs: Any,
) -> Any:
    """``np.array`` of a tensor or of (nested) lists holding tensors: stacked, with NumPy's dtype.

    The result is never weak: ``np.asarray(i)`` of a Python-scalar-like ``i`` is a NumPy value.
    A tensor is copied unless ``copy`` is False or None (then it is the very object).
    """
    _reject("array", order, kwargs)
    if ndmin:
        raise dispatch.unsupported("np.array with ndmin=")
    if dtype is None:
        _refuse_path_dtypes(object)
    if tensor.is_tensor(object) and object.is_array:
        if dtype is None or np.dtype(dtype) == object.dtype:
            if copy is False or copy is None:
                return layouts.in_order(object, order, "np.array", copy)
            return copy_array(object, "K" if order is None else order)
    out = join.as_array(object, dtype)
    if out is object:
        out = copy_array(object)
    if isinstance(out, tensor.SymbolicTensor) and out.type.ndim == 0:
        out.array0d = True  # np.array of a scalar is a 0-d array
    return out


def _refuse_path_dtypes(value: Any) -> None:
    """Refuses ``np.array(s)`` of a number (or a list or tuple holding one) whose NumPy dtype
    depends on the path (``staging.kinds``: an ``np.float32`` on some paths, a float on others):
    the array's dtype would be the path's, the graph has one."""
    if isinstance(value, (list, tuple)):
        for item in value:
            _refuse_path_dtypes(item)
        return
    options = getattr(value, "kind_options", None)
    if getattr(value, "kind_tag", None) is None or not options:
        return
    dtypes = {np.asarray(types.of_kind(code, 0)).dtype for code in options}
    if len(dtypes) > 1:
        raise errors.UnsupportedError(
            f"np.array of a number whose dtype depends on the path taken "
            f"({', '.join(sorted(map(str, dtypes)))}): the array's dtype would too",
            hint="give the number one kind on every path (e.g. np.float64(...) or float(...))",
            construct="np.array of a number whose kind depends on the path",
        )


# ---- concrete arrays made tensors ----------------------------------------------------------


def constant(value: np.ndarray, frozen: str | None = None) -> Any:
    """The concrete array ``value`` as a tensor of the graph being built (its value a constant of
    the graph), so that in-place writes to it are traced; ``frozen`` refuses them, saying why.

    Outside graph building the value itself is returned.
    """
    current = builder_mod.current()
    if current is None:
        return value
    out = current.emit(shape.reshape_p, [value], {"shape": value.shape})
    out.layout = "C" if value.flags.c_contiguous else None
    out.array0d = value.ndim == 0
    if frozen is not None:
        functional.freeze(out, frozen)
    return out
