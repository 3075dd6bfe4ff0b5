"""Python builtins called on tensors from converted code: ``range``, ``len``, ``min``, ``max``,
``sum``, ``any``, ``all``, ``int``, ``float``, ``bool``, ``complex``, ``print``, ``isinstance``,
``type``, ``str``, ``repr``, ``format``, ``enumerate``, ``zip``, and the ``math`` module's functions
of numbers.

Each handler gives what the builtin gives in eager code, computed by graph ops when an argument is
a tensor: ``len`` of a dynamic dimension is a tensor, ``range`` of a tensor bound a ``TensorRange``
for a loop, ``max`` of Python numbers a Python number (weak), ``print`` an effect that prints when
the graph runs, ``type`` the type eager code would see (``eager_type``), ``str`` a text known when
the graph runs (``staging.text``). ``runtime.call`` looks callables up in ``HANDLERS``.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import types
from tograph.ops import effects, elementwise, lists, scalars
from tograph.staging import iterables, kinds, made_objects, objects, text
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
        if kind is bool:
            value = lists.truth(value)
        if tensor.is_symbolic(value) and not rest:
            return scalars.cast(value, kind)
        return kind(value, *rest)

    return cast


def _extremum(python_fn: Callable[..., Any], smallest: bool) -> Callable[..., Any]:
    """``min`` or ``max`` as Python computes it: the first item no later item is less (greater)
    than, so NaN and ties pick what eager code picks, and the result is that item, of its kind."""

    def extremum(*args: Any, **kwargs: Any) -> Any:
        if set(kwargs) - {"default"} or (kwargs and len(args) != 1):
            return python_fn(*args, **kwargs)
        if len(args) == 1:
            if isinstance(args[0], (tensor.SymbolicTensor, lists.SymbolicList)) and not kwargs:
                return _extremum_of_sequence(args[0], smallest)
            # an iterable (a generator expression over tensors, say) is read once, here
            args = tuple(args[0])
            if not args or not tensor.contains_symbolic(args):
                return python_fn(args, **kwargs)
        elif not tensor.contains_symbolic(args):
            return python_fn(*args, **kwargs)
        _check_scalars(args, python_fn.__name__)
        result = args[0]
        for arg in args[1:]:
            result = kinds.select(arg < result if smallest else arg > result, arg, result)
        return result

    return extremum


def as_weak(value: Any) -> Any:
    """``value`` (a tensor) marked as a Python number of eager code: a weak tensor."""
    if value.type.weak:
        return value
    return elementwise.astype_p.bind(value, dtype=value.dtype, weak=True)


def _check_scalars(args: tuple[Any, ...], name: str) -> None:
    for arg in args:
        if not _real_scalar(arg):
            raise errors.UnsupportedError(
                f"{name}() of arrays or complex numbers: Python compares them with < and its "
                "truth, which tograph does not reproduce",
                origin.current_location(),
                construct=f"{name}() of arrays",
            )


def _real_scalar(value: Any) -> bool:
    if isinstance(value, tensor.SymbolicTensor):
        return value.ndim == 0 and value.dtype.kind != "c" and not value.array0d
    if isinstance(value, np.ndarray):  # a 0-d array is returned itself, which a select is not
        return False
    return tensor.is_number(value) and np.ndim(value) == 0 and not np.iscomplexobj(value)


def _empty_message(python_fn: Callable[..., Any]) -> str:
    try:
        python_fn([])
    except ValueError as error:
        return str(error)
    raise errors.InternalError(f"{python_fn.__name__}([]) did not raise")


# what this Python says when ``min``/``max`` meet an empty sequence
_EMPTY_MESSAGE = {fn.__name__: _empty_message(fn) for fn in (builtins.min, builtins.max)}


def _extremum_of_sequence(items: Any, smallest: bool) -> Any:
    """``min(x)`` of a 1-d tensor or a tensor list of numbers: its first element if that is NaN
    (no NaN is ever less or greater), else the first of the extreme non-NaN elements."""
    name = "min" if smallest else "max"
    values = lists.stack(items) if isinstance(items, lists.SymbolicList) else items
    if values.ndim != 1 or values.dtype.kind == "c":
        _check_scalars((values,), name)
    count = lists.length(items) if isinstance(items, lists.SymbolicList) else values.shape[0]
    effects.raise_if(np.equal(count, 0), ValueError(_EMPTY_MESSAGE[name]))
    if values.dtype.kind == "f":
        unpicked = np.where(np.isnan(values), np.inf if smallest else -np.inf, values)
        at = np.argmin(unpicked) if smallest else np.argmax(unpicked)
        first = values[0]
        found = np.where(np.isnan(first), first, values[at])
    else:
        found = np.min(values, axis=0) if smallest else np.max(values, axis=0)
    weak = isinstance(items, lists.SymbolicList) and items.type.elem.weak
    return elementwise.astype_p.bind(found, dtype=values.dtype, weak=weak)


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
    """``sum`` of a tensor or tensor list along its first axis, after ``start``: Python numbers
    (a list of them, a Python ``start``) sum to a Python number, as eagerly.

    Python adds one item at a time, left to right, from ``start``; NumPy's ``np.sum`` adds in
    pairs and rounds differently, and widens small integers. So the sum is the last entry of a
    cumulative sum (NumPy's is sequential) over ``start`` then the items, in the dtype Python's
    first addition gives, which rounds as each of Python's additions does.
    """
    python = (
        isinstance(items, lists.SymbolicList)
        and isinstance(items.type.elem, types.TensorType)
        and items.type.elem.weak
        and types.is_python_scalar(start)
    )
    count = lists.length(items) if isinstance(items, lists.SymbolicList) else None
    if isinstance(items, lists.SymbolicList):
        items = lists.stack(items)
    if not isinstance(items, tensor.SymbolicTensor):
        return builtins.sum(items, start)
    if items.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if items.type.shape[0] == 0:
        return start
    if not _real_scalar(start) and not (tensor.is_number(start) and np.ndim(start) == 0):
        raise errors.UnsupportedError(
            "sum() from an array start: Python adds each item to it in turn, which tograph does "
            "not reproduce",
            origin.current_location(),
            construct="sum() from an array",
        )
    if count is None and items.type.shape[0] is None:
        count = items.shape[0]
    dtype = (start + items[:0]).dtype
    head = start.astype(dtype) if tensor.is_tensor(start) else np.asarray(start, dtype=dtype)
    first = np.broadcast_to(head, (1, *items.shape[1:]))
    running = np.cumsum(np.concatenate([first, items.astype(dtype)]), axis=0, dtype=dtype)
    total = running[-1]
    if python and total.ndim == 0:
        total = elementwise.astype_p.bind(total, dtype=total.dtype, weak=True)
    if count is not None and total.ndim == 0:
        total = kinds.select(count == 0, start, total)  # an empty list sums to start itself
    return total


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
        return tensor.PYTHON_TYPES[t.dtype.kind]
    return np.ndarray if value.is_array else t.dtype.type  # type: ignore[no-any-return]


def _eager_types(value: tensor.SymbolicTensor) -> set[type]:
    """The types ``value`` may have in eager code: one, or each kind a kind-tagged value (a
    Python number on some paths, a NumPy scalar on others: ``staging.kinds``) may hold."""
    if value.kind_tag is not None:
        return {builtins.type(types.of_kind(code, 0)) for code in value.kind_options}
    return {eager_type(value)}


def _path_dependent(name: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{name} of a number that is a Python number on some paths and a NumPy scalar on "
        "others: the answer would depend on the path taken",
        origin.current_location(),
        hint="give the number one kind on every path (e.g. np.float64(...) or float(...))",
        construct="operation on a number whose kind depends on the path",
    )


def _type(value: Any, *rest: Any) -> Any:
    if isinstance(value, tensor.SymbolicTensor) and not rest:
        found = _eager_types(value)
        if len(found) > 1:
            raise _path_dependent("type()")
        return found.pop()
    if type(value) is objects.TracedObject and not rest:
        return value.__class__  # the class of the object the view stands for
    return builtins.type(value, *rest)


def _isinstance(value: Any, classes: Any) -> bool:
    if isinstance(value, tensor.SymbolicTensor):
        answers = {builtins.issubclass(t, classes) for t in _eager_types(value)}
        if len(answers) > 1:
            raise _path_dependent("isinstance()")
        if answers.pop():
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
    builtins.complex: _scalar_cast(complex),
    builtins.min: _extremum(builtins.min, smallest=True),
    builtins.max: _extremum(builtins.max, smallest=False),
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
    builtins.setattr: made_objects.setattr_call,
    builtins.delattr: made_objects.delattr_call,
    **{
        getattr(math, name): scalars.math_handler(getattr(math, name))
        for name in scalars.MATH_FUNCTIONS
    },
}
