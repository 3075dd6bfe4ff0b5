"""Python builtins called on tensors from converted code: ``range``, ``len``, ``min``, ``max``,
``sum``, ``any``, ``all``, ``int``, ``float``, ``bool``, ``print``, ``isinstance``, ``type``,
``str``, ``repr``, ``format``, ``enumerate`` and ``zip``.

Each handler gives what the builtin gives in eager code, computed by graph ops when an argument is
a tensor: ``len`` of a dynamic dimension is a tensor, ``range`` of a tensor bound a ``TensorRange``
for a loop, ``max`` of Python numbers a Python number (weak), ``print`` an effect that prints when
the graph runs, ``type`` the type eager code would see (``eager_type``), ``str`` a text known when
the graph runs (``staging.text``). ``runtime.call`` looks callables up in ``HANDLERS``.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import types
from tograph.ops import effects, elementwise, lists
from tograph.staging import iterables, text
from tograph.trace import builder as builder_mod
from tograph.trace import tensor


def _range(*args: Any) -> Any:
    if tensor.contains_symbolic(args):
        for arg in args:
            if tensor.is_symbolic(arg) and not _integral(arg):
                name = eager_type(arg).__name__
                module = "numpy." if eager_type(arg).__module__ == "numpy" else ""
                raise TypeError(f"'{module}{name}' object cannot be interpreted as an integer")
        return iterables.TensorRange(*args)
    return range(*args)


def _integral(value: Any) -> bool:
    """Whether a tensor stands for a value with ``__index__``: an integer, or a Python bool."""
    kind = value.dtype.kind
    return kind in "iu" or (kind == "b" and value.type.weak)


def _len(value: Any) -> Any:
    if isinstance(value, lists.SymbolicList):
        return lists.length(value)
    if isinstance(value, tensor.SymbolicTensor) and value.ndim > 0 and value.type.shape[0] is None:
        return value.shape[0]
    return len(value)


def _scalar_cast(kind: type) -> Callable[..., Any]:
    def cast(value: Any = 0, *rest: Any) -> Any:
        if tensor.is_symbolic(value) and not rest:
            return elementwise.astype_p.bind(value, dtype=np.dtype(kind), weak=True)
        return kind(value, *rest)

    return cast


def _extremum(python_fn: Callable[..., Any], pairwise: Any, reduce: Any) -> Callable[..., Any]:
    def extremum(*args: Any, **kwargs: Any) -> Any:
        if not tensor.contains_symbolic(args) or kwargs:
            return python_fn(*args, **kwargs)
        if len(args) == 1:
            items = args[0]
            if tensor.is_symbolic(items):
                return _over_first_axis(items, reduce)
            args = tuple(items)
        _check_pairwise(args)
        result = args[0]
        for arg in args[1:]:
            result = pairwise(result, arg)
        if all(_is_weak(a) for a in args):  # Python's max of Python numbers is a Python number
            result = elementwise.astype_p.bind(result, dtype=result.dtype, weak=True)
        return result

    return extremum


def as_weak(value: Any) -> Any:
    """``value`` (a tensor) marked as a Python number of eager code: a weak tensor."""
    if value.type.weak:
        return value
    return elementwise.astype_p.bind(value, dtype=value.dtype, weak=True)


def _check_pairwise(args: tuple[Any, ...]) -> None:
    """``max(a, b, ...)`` returns one of its arguments, chosen by comparing them: arrays of more
    than one element make NumPy's ValueError; arguments of different types (a NumPy scalar and a
    Python float, two dtypes) make a result whose type depends on the values: refused."""
    kinds = set()
    for arg in args:
        if tensor.is_tensor(arg) and arg.is_array:
            shape = arg.type.shape
            if all(isinstance(d, int) for d in shape) and int(np.prod(shape)) > 1:
                raise ValueError(
                    "The truth value of an array with more than one element is ambiguous. "
                    "Use a.any() or a.all()"
                )
        kinds.add(_eager_kind(arg))
    if len(kinds) > 1:
        raise errors.UnsupportedError(
            "max() or min() of values of different types returns one of them by value, so its "
            "type is known only when the graph runs",
            loc=origin.current_location(),
            construct="max() or min() of mixed types",
            hint="use np.maximum / np.minimum, or give the arguments one type",
        )


def _eager_kind(value: Any) -> Any:
    """The type (and dtype) a value has in eager code: ``float``, ``(np.float32, float32)``."""
    if tensor.is_tensor(value):
        kind = eager_type(value)
        return kind if value.type.weak else (kind, value.dtype)
    if isinstance(value, (np.ndarray, np.generic)):
        return type(value), value.dtype
    return type(value)


def _over_first_axis(items: Any, reduce: Any) -> Any:
    """``max(x)`` of one tensor: Python compares its items, which for rows of more than one
    element raises NumPy's ValueError, so only a vector's items (or a single row) are reduced."""
    if items.ndim == 0:
        raise TypeError(f"'{eager_type(items).__name__}' object is not iterable")
    if items.ndim > 1 and items.type.shape[0] != 1:
        raise errors.UnsupportedError(
            "max() or min() of an array of rows compares the rows, which NumPy refuses when "
            "they have more than one element",
            loc=origin.current_location(),
            construct="max() or min() of rows",
            hint="use np.max(x, axis=0)",
        )
    return reduce(items, axis=0)


def _is_weak(value: Any) -> bool:
    return types.is_python_scalar(value) or (
        isinstance(value, tensor.TensorBase) and value.type.weak
    )


def _any_all(python_fn: Callable[..., Any], combine: Any) -> Callable[..., Any]:
    """``any``/``all`` over an iterable that may yield tensors: one bool from all of them."""

    def reduce(items: Any) -> Any:
        if isinstance(items, tensor.SymbolicTensor):
            items = [items[i] for i in range(len(items))]
        values = list(items)
        if not tensor.contains_symbolic(values):
            return python_fn(values)
        result = np.asarray(python_fn([]))[()]
        for value in values:
            result = combine(result, value)
        return elementwise.astype_p.bind(result, dtype=np.dtype(np.bool_), weak=True)

    return reduce


def _sum(items: Any, start: Any = 0) -> Any:
    if isinstance(items, lists.SymbolicList):
        items = lists.stack(items)
    if isinstance(items, tensor.SymbolicTensor):
        total = np.sum(items, axis=0)
        return total if isinstance(start, int) and start == 0 else start + total
    return builtins.sum(items, start)


def _print(
    *values: Any,
    sep: str | None = " ",
    end: str | None = "\n",
    file: Any = None,
    flush: bool = False,
) -> None:
    if builder_mod.current() is None or file is not None:
        builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    if not any(isinstance(v, text.TensorText) for v in values):
        effects.print_(*values, sep=sep, end=end)
        return
    parts: list[Any] = []
    for i, value in enumerate(values):
        if i:
            parts.append(" " if sep is None else sep)
        parts.extend(text.message_parts(value) if isinstance(value, text.TensorText) else (value,))
    effects.print_(*parts, sep="", end=end)


def eager_type(value: tensor.TensorBase) -> type:
    """The type of the value a tensor stands for in eager code: a Python number (weak), an
    ndarray, or the NumPy scalar type of its dtype."""
    t = value.type
    if t.weak:
        return _PYTHON_TYPES[t.dtype.kind]
    return np.ndarray if value.is_array else t.dtype.type  # type: ignore[no-any-return]


_PYTHON_TYPES: dict[str, type] = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def _type(value: Any, *rest: Any) -> Any:
    if isinstance(value, tensor.SymbolicTensor) and not rest:
        return eager_type(value)
    return builtins.type(value, *rest)


def _isinstance(value: Any, classes: Any) -> bool:
    if isinstance(value, tensor.SymbolicTensor) and builtins.issubclass(eager_type(value), classes):
        return True
    return builtins.isinstance(value, classes)


def _text(conversion: int, python_fn: Callable[..., str]) -> Callable[..., Any]:
    """``str``/``repr``/``format`` of a tensor: its text when the graph runs (``text``)."""

    def convert(value: Any = "", *rest: Any) -> Any:
        if not tensor.is_symbolic(value) or (rest and conversion != -1):
            return python_fn(value, *rest)
        return text.convert(value, conversion, *rest)

    return convert


def _enumerate(items: Any, start: Any = 0) -> Any:
    loop = iterables.as_tensor_iterable(items)
    if loop is not None or tensor.is_symbolic(start):
        return iterables.TensorEnumerate(items, start)
    return enumerate(items, start)


def _zip(*items: Any) -> Any:
    if any(iterables.as_tensor_iterable(i) is not None for i in items):
        return iterables.TensorZip(*items)
    return zip(*items)


HANDLERS: dict[Any, Callable[..., Any]] = {
    builtins.range: _range,
    builtins.len: _len,
    builtins.int: _scalar_cast(int),
    builtins.float: _scalar_cast(float),
    builtins.bool: _scalar_cast(bool),
    builtins.min: _extremum(builtins.min, np.minimum, np.min),
    builtins.max: _extremum(builtins.max, np.maximum, np.max),
    builtins.sum: _sum,
    builtins.any: _any_all(builtins.any, np.logical_or),
    builtins.all: _any_all(builtins.all, np.logical_and),
    builtins.print: _print,
    builtins.isinstance: _isinstance,
    builtins.type: _type,
    builtins.str: _text(115, builtins.str),
    builtins.repr: _text(114, builtins.repr),
    builtins.format: _text(-1, builtins.format),
    builtins.enumerate: _enumerate,
    builtins.zip: _zip,
}
