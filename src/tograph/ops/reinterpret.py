"""The same bytes seen another way: ``x.view()``, ``x.view(dtype)``, ``x.getfield(dtype)``,
``x.setfield(value, dtype)`` and ``x.byteswap()``.

Stage: graph building. ``x.view()`` is a view of all of ``x``; ``x.view(dtype)`` of a dtype of the
same item size is the ``bitcast`` primitive, whose kernel is NumPy's own ``view`` (so its values
are NumPy's bits) and which is a view too: a write to either shows in the other, carried back by
the opposite bitcast (``trace.functional``). A dtype of another item size, which changes the last
dim, falls back. ``x.getfield(dtype)`` at offset 0 is that view and ``x.setfield(value, dtype)``
a write into it (another offset, a part of each item, falls back). ``x.byteswap()`` is the
``byteswap`` primitive (a new array); with ``inplace=True`` it writes the swapped bytes into
``x``. Neither primitive has a gradient. Printed form::

    t0:i64[3] = bitcast[dtype=int64] x
    t1:f64[3] = byteswap x
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from tograph.ir import primitives, types
from tograph.ops import common, effects
from tograph.trace import dispatch, functional, tensor


def _bitcast_impl(x: Any, *, dtype: np.dtype) -> Any:
    return x.view(dtype)


def _bitcast_rule(x: types.TensorType, *, dtype: np.dtype) -> types.TensorType:
    return types.TensorType(dtype, x.shape)


bitcast_p = primitives.Primitive("bitcast", _bitcast_impl, _bitcast_rule, views=True)


def _byteswap_rule(x: types.TensorType) -> types.TensorType:
    return x


byteswap_p = primitives.Primitive("byteswap", lambda x: x.byteswap(), _byteswap_rule, layout="K")


def _no_attribute(x: Any, name: str) -> AttributeError:
    """Python's error for a method a Python number does not have."""
    kind = {"b": "bool", "i": "int", "f": "float", "c": "complex"}[x.dtype.kind]
    return AttributeError(f"'{kind}' object has no attribute '{name}'")


@dispatch.implements(np.ndarray.view)
def view(x: Any, dtype: Any = None, type: Any = None) -> Any:
    """``x.view()``: a view of all of ``x``; ``x.view(dtype)``: its bytes as ``dtype``."""
    if x.type.weak:
        raise _no_attribute(x, "view")
    if isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray):
        dtype, type = None, dtype
    if type not in (None, np.ndarray):
        raise dispatch.unsupported("ndarray.view", f"it makes a {type.__name__}")
    if not x.is_array:
        raise dispatch.unsupported("ndarray.view", "of a NumPy scalar")
    if dtype is None or np.dtype(dtype) == x.dtype:
        return x[...]
    dtype = np.dtype(dtype)
    if dtype.itemsize != x.dtype.itemsize or dtype.kind not in "biufc":
        raise dispatch.unsupported("ndarray.view", f"as {dtype}, whose items have another size")
    back = x.dtype
    out = common.as_view(
        x, bitcast_p, [], {"dtype": dtype}, lambda base, new: bitcast_p.bind(new, dtype=back)
    )
    if isinstance(out, tensor.SymbolicTensor):
        out.array0d, out.layout = x.array0d, x.layout
    return out


def _whole_field(x: Any, dtype: Any, offset: Any, what: str) -> np.dtype:
    """``dtype``, when the field at ``offset`` is each whole item (then it is a view's dtype)."""
    dtype = np.dtype(dtype)
    if offset != 0 or dtype.itemsize != x.dtype.itemsize:
        raise dispatch.unsupported(what, "of a field that is part of each item")
    return dtype


@dispatch.implements(np.ndarray.getfield)
def getfield(x: Any, dtype: Any, offset: Any = 0) -> Any:
    """``x.getfield(dtype)``: the items' bytes as ``dtype``, a view (``x.view(dtype)``)."""
    return view(x, _whole_field(x, dtype, offset, "ndarray.getfield"))


@dispatch.implements(np.ndarray.setfield)
def setfield(x: Any, val: Any, dtype: Any, offset: Any = 0) -> None:
    """``x.setfield(val, dtype)``: ``val`` written into the items seen as ``dtype``."""
    view(x, _whole_field(x, dtype, offset, "ndarray.setfield"))[...] = val


@dispatch.implements(np.ndarray.byteswap)
def byteswap(x: Any, inplace: bool = False) -> Any:
    """``x.byteswap(inplace)``: the bytes of each element in reverse order."""
    if x.type.weak:
        raise _no_attribute(x, "byteswap")
    swapped = byteswap_p.bind(x.plain() if isinstance(x, tensor.SymbolicTensor) else x)
    if not inplace:
        if isinstance(swapped, tensor.SymbolicTensor):
            swapped.array0d = x.array0d
        return swapped
    if not tensor.is_symbolic(x):
        x.mutate(lambda v: v.byteswap(inplace=True))
    elif x.is_array:
        functional.assign(x, swapped)
    else:
        effects.raise_(ValueError("cannot byteswap a scalar in-place"))
    return x
