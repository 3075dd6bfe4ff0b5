"""Helpers shared by the op families: operand types, axes, NumPy's result dtypes, run-time dims.

Stage: graph building (NumPy-function handlers and type rules). Input: the arguments of a NumPy
call, or the input types and params of an equation. Output: normalised params (axes as sorted
tuples of non-negative ints, shapes split into static dims and tensor dims) and NumPy's own result
dtype, found by running the NumPy function on tiny values of the input types (as
``elementwise.py`` does), so type rules predict NumPy 2 exactly.
"""

from __future__ import annotations

import functools
import operator
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import types
from tograph.trace import functional, tensor

# The Python scalar a weak value of each dtype kind is at run time, for probing NumPy.
_WEAK_PROBES = {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}


def operand_type(value: Any) -> types.TensorType:
    """The type of a NumPy-call argument: a tensor's type, or the type of a static value."""
    return value.type if tensor.is_tensor(value) else types.type_of(value)


def fmt(shape: Sequence[Any]) -> str:
    """A shape as NumPy prints it: ``(3, 4)``, ``(3,)``, ``(None, 2)``."""
    return str(tuple(shape))


def normalize_axis(axis: Any, t: types.TensorType, op: str, ndim: int | None = None) -> int:
    """``axis`` as a non-negative int below ``ndim`` (default ``t.ndim``); raises a ShapeError."""
    ndim = t.ndim if ndim is None else ndim
    try:
        index = operator.index(axis)
    except TypeError:
        raise errors.ShapeError(f"{op}: axis must be an integer, got {axis!r}") from None
    if not -ndim <= index < ndim:
        raise errors.ShapeError(
            f"{op}: axis {index} is out of bounds for array of shape {fmt(t.shape)}"
        )
    return index % ndim


def normalize_axes(
    axis: Any, t: types.TensorType, op: str, ndim: int | None = None
) -> tuple[int, ...] | None:
    """``axis`` (None, an int or a sequence of ints) as None or a sorted tuple of distinct axes."""
    if axis is None:
        return None
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(sorted(normalize_axis(a, t, op, ndim) for a in items))
    if len(set(axes)) != len(axes):
        raise errors.ShapeError(
            f"{op}: repeated axis in {axis!r} for array of shape {fmt(t.shape)}"
        )
    return axes


def axis_sequence(axis: Any, t: types.TensorType, op: str) -> tuple[int, ...]:
    """``axis`` (an int or a sequence of ints) as distinct non-negative axes, in the given order."""
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    normalize_axes(items, t, op)
    return tuple(normalize_axis(i, t, op) for i in items)


def probe_value(t: types.TensorType) -> Any:
    """A tiny value of type ``t``: a Python scalar if weak, else ones with every dim 1."""
    if t.weak:
        return _WEAK_PROBES[t.dtype.kind]
    return np.ones((1,) * t.ndim, dtype=t.dtype)


def probe_dtype(
    op: str, fn: Callable[..., Any], in_types: Iterable[types.TensorType], **kwargs: Any
) -> np.dtype:
    """The dtype NumPy's ``fn`` returns on values of ``in_types`` (weak ones as Python scalars).

    ``kwargs`` are passed to ``fn`` and must be hashable (results are cached).

    Raises:
      DTypeError: NumPy refuses these dtypes; the message names them.
    """
    return _probe(op, fn, tuple(in_types), tuple(sorted(kwargs.items())))


@functools.lru_cache(maxsize=4096)
def _probe(
    op: str,
    fn: Callable[..., Any],
    in_types: tuple[types.TensorType, ...],
    kwargs: tuple[tuple[str, Any], ...],
) -> np.dtype:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = fn(*(probe_value(t) for t in in_types), **dict(kwargs))
        except (TypeError, np.exceptions.DTypePromotionError) as exc:
            pretty = ", ".join(str(t) for t in in_types)
            raise errors.DTypeError(
                f"{op} does not support operands of types ({pretty}): {exc}"
            ) from None
    return np.asarray(out).dtype


def split_dims(shape: Any, op: str) -> tuple[tuple[int | None, ...], list[Any]]:
    """A shape argument as static dims (None where an entry is a tensor) and the tensor entries.

    ``shape`` is an int, a scalar tensor, a sequence of ints and scalar tensors, or a 1-D tensor
    of known length (split into its elements).
    """
    if tensor.is_tensor(shape):
        entries: Sequence[Any] = (shape,) if shape.ndim == 0 else tuple(shape)
    elif isinstance(shape, np.ndarray):
        entries = tuple(shape.reshape(-1).tolist()) if shape.ndim else (shape.item(),)
    elif isinstance(shape, (tuple, list)):
        entries = shape
    else:
        entries = (shape,)
    static: list[int | None] = []
    dynamic: list[Any] = []
    for entry in entries:
        if tensor.is_tensor(entry):
            static.append(None)
            dynamic.append(entry)
            continue
        try:
            static.append(operator.index(entry))
        except TypeError:
            raise errors.DTypeError(
                f"{op}: shape entries must be integers, got {entry!r}"
            ) from None
    return tuple(static), dynamic


def fill_dims(static: Sequence[int | None], dynamic: Sequence[Any]) -> tuple[int, ...]:
    """The run-time shape: ``static`` with each None replaced by the next value of ``dynamic``."""
    values = iter(dynamic)
    return tuple(int(next(values)) if d is None else d for d in static)


def check_dim_types(dim_types: Sequence[types.TensorType], op: str) -> None:
    """Tensor shape entries must be integer scalars."""
    for t in dim_types:
        if t.shape != () or t.dtype.kind not in "iu":
            raise errors.DTypeError(
                f"{op}: a shape entry must be an integer scalar, got a tensor of type {t}"
            )


def broadcastable_to(src: types.Shape, dst: types.Shape) -> bool:
    """Whether an array of shape ``src`` broadcasts to exactly ``dst`` (unknown dims may)."""
    if len(src) > len(dst):
        return False
    return all(s in (1, None) or d is None or s == d for s, d in zip(reversed(src), reversed(dst)))


def reduced_shape(t: types.TensorType, axes: tuple[int, ...] | None, keepdims: bool) -> types.Shape:
    """The shape of reducing ``t`` over ``axes`` (None: all), keeping them as 1s if ``keepdims``."""
    axes = tuple(range(t.ndim)) if axes is None else axes
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(t.shape))
    return tuple(d for i, d in enumerate(t.shape) if i not in axes)


def as_view(
    source: Any,
    prim: Any,
    operands: Sequence[Any],
    params: dict[str, Any],
    update: Callable[[Any, Any], Any] | None,
) -> Any:
    """``prim(source, *operands, **params)``, a view of ``source`` as NumPy's is: a write to
    either shows in the other (``trace.functional``). ``update`` gives ``source``'s value once
    the view's value changes (None: the view is read-only, as ``np.broadcast_to``'s). Only
    symbolic tensors are tracked: an eager tensor's value is a real NumPy view already.
    """
    held = tuple(snapshots(operands))
    view = prim.bind(source, *held, **params)
    if isinstance(source, tensor.SymbolicTensor) and isinstance(view, tensor.SymbolicTensor):
        functional.make_view(view, source, functional.ViewStep(prim, held, params, update))
        if view.type.ndim == 0 and source.is_array:  # an array's view is an array, 0-d too
            view.array0d = True
    return view


def snapshots(values: Sequence[Any]) -> list[Any]:
    """``values`` with each symbolic tensor replaced by a snapshot of its value now: what a view
    step keeps of its index or shape operands, which later writes must not change."""
    return [v.plain() if isinstance(v, tensor.SymbolicTensor) else v for v in values]
