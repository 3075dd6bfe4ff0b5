"""NumPy functions that call back into a Python function: ``np.apply_along_axis``,
``np.apply_over_axes``, ``np.piecewise``, ``np.fromfunction`` and ``np.mask_indices``, called from
converted code.

NumPy would call the user's function itself, unconverted: its prints would happen once, while
the graph is built, and a branch on a tensor in it would fail. Each handler here does what
NumPy's own Python code does, step for step, with the callback called as converted code calls
any function (``runtime.call``): so it is converted too, and its effects happen when the graph
runs. ``apply_along_axis`` calls it once per slice, so the slices must be known while the graph
is built (at most ``MAX_CALLS`` of them); ``piecewise`` calls it on the elements a condition
selects only if there are some, as NumPy does, with a ``cond`` when that count is a tensor.
``runtime.call`` looks the callables up in ``HANDLERS``, and refuses an ``np.vectorize`` object
called on tensors (``PER_ELEMENT``).
"""

from __future__ import annotations

import collections.abc
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ops import creation
from tograph.trace import tensor

MAX_CALLS = 256  # slices apply_along_axis unrolls into the graph before it falls back


PER_ELEMENT = "calls a Python function once per element, on NumPy scalars, which a graph cannot"


def refuse(name: str, reason: str) -> errors.UnsupportedError:
    """The fallback for ``np.<name>``, saying why."""
    return errors.UnsupportedError(
        f"np.{name} {reason}", loc=origin.current_location(), construct=f"np.{name}"
    )


def apply_along_axis(
    rt: types.ModuleType, func1d: Any, axis: Any, arr: Any, *args: Any, **kw: Any
) -> Any:
    """``np.apply_along_axis``: ``func1d`` on each 1-d slice along ``axis``, results stacked."""
    arr = rt.call(np.asanyarray, arr)
    nd = arr.ndim
    axis = np.lib.array_utils.normalize_axis_index(axis, nd)
    dims = list(range(nd))
    view = rt.call(np.transpose, arr, dims[:axis] + dims[axis + 1 :] + [axis])
    outer = view.shape[:-1]
    if not all(isinstance(d, int) for d in outer):
        raise refuse("apply_along_axis", "needs the number of slices while the graph is built")
    if int(np.prod(outer)) > MAX_CALLS:
        raise refuse("apply_along_axis", f"would call the function {int(np.prod(outer))} times")
    indices = [(*ind, Ellipsis) for ind in np.ndindex(outer)]
    if not indices:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    first = rt.call(np.asanyarray, rt.call(func1d, view[indices[0]], *args, **kw))
    buff = _tensor(np.zeros(tuple(outer) + tuple(first.shape), first.dtype))
    buff_dims = list(range(buff.ndim))
    permute = (
        buff_dims[:axis]
        + buff_dims[buff.ndim - first.ndim :]
        + buff_dims[axis : buff.ndim - first.ndim]
    )
    rt.setitem(buff, indices[0], first)
    for ind in indices[1:]:
        rt.setitem(buff, ind, rt.call(np.asanyarray, rt.call(func1d, view[ind], *args, **kw)))
    return rt.call(np.transpose, buff, permute)


def apply_over_axes(rt: types.ModuleType, func: Any, a: Any, axes: Any) -> Any:
    """``np.apply_over_axes``: ``func(a, axis)`` for each axis in turn, keeping the dims."""
    val = rt.call(np.asarray, a)
    n = a.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = rt.call(func, val, axis)
        if res.ndim != val.ndim:
            res = rt.call(np.expand_dims, res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def fromfunction(
    rt: types.ModuleType,
    function: Any,
    shape: Any,
    *,
    dtype: Any = float,
    like: Any = None,
    **kw: Any,
) -> Any:
    """``np.fromfunction``: ``function`` called once, on the index arrays of ``shape``."""
    if like is not None:
        raise refuse("fromfunction", "with like= makes another library's arrays")
    return rt.call(function, *rt.call(np.indices, shape, dtype=dtype), **kw)


def mask_indices(rt: types.ModuleType, n: Any, mask_func: Any, k: Any = 0) -> Any:
    """``np.mask_indices``: where ``mask_func(ones((n, n)), k)`` is nonzero."""
    ones = rt.call(np.ones, (n, n), int)
    return rt.call(np.nonzero, rt.call(mask_func, ones, k) != 0)


def piecewise(
    rt: types.ModuleType, x: Any, condlist: Any, funclist: Any, *args: Any, **kw: Any
) -> Any:
    """``np.piecewise``: where each condition holds, its function of those elements (or its
    value); a function is called only when its condition selects some element."""
    x = rt.call(np.asanyarray, x)
    n2 = len(funclist)
    if np.isscalar(condlist) or (not _is_array_like(condlist[0]) and x.ndim != 0):
        condlist = [condlist]
    condlist = rt.call(np.asarray, condlist, dtype=bool)
    n = len(condlist)
    if n == n2 - 1:
        otherwise = ~rt.call(np.any, condlist, axis=0, keepdims=True)
        condlist = rt.call(np.concatenate, [condlist, otherwise], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = _tensor(rt.call(np.zeros_like, x))
    for k, func in enumerate(funclist):
        cond = condlist[k]
        if not isinstance(func, collections.abc.Callable):
            rt.setitem(y, cond, func)
            continue
        vals = x[cond]
        rt.if_stmt(
            vals.size > 0,
            _write(rt, y, cond, lambda v=vals, f=func: rt.call(f, v, *args, **kw)),
            lambda: (),
            (),
            (),
            (),
        )
    return y


def _write(
    rt: types.ModuleType, y: Any, cond: Any, value: Callable[[], Any]
) -> Callable[[], tuple[()]]:
    def branch() -> tuple[()]:
        rt.setitem(y, cond, value())
        return ()

    return branch


def _tensor(value: Any) -> Any:
    """``value`` as a tensor to write into (a NumPy array made while tracing is a constant)."""
    return value if tensor.is_tensor(value) else creation.constant(np.asarray(value))


def _is_array_like(value: Any) -> bool:
    """NumPy's ``isinstance(value, (list, ndarray))``, with a tensor array as an ndarray."""
    return isinstance(value, (list, np.ndarray)) or (tensor.is_tensor(value) and value.is_array)


HANDLERS: dict[Any, Callable[..., Any]] = {
    np.apply_along_axis: apply_along_axis,
    np.apply_over_axes: apply_over_axes,
    np.fromfunction: fromfunction,
    np.mask_indices: mask_indices,
    np.piecewise: piecewise,
}
