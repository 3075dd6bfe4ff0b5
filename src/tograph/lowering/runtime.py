"""The runtime of lowered code (``_t`` in ``cf.code``): decides, while a graph is built, what each
statement becomes.

A condition that is a tensor makes ``if_stmt`` a ``cond`` op and ``while_stmt``/``for_stmt`` a
``while_loop`` op; a Python condition runs as Python, so static code is evaluated (and loops over
Python ranges unrolled) exactly as the plain function would run. ``call`` converts user functions
on the fly and lets builtins and NumPy constructors accept tensors.
Requires: lowering.control_flow (the code calling these functions), ops.control.
"""

from __future__ import annotations

import builtins
import functools
from typing import Any, Callable, Sequence

import numpy as np

from tograph import errors, origin
from tograph.ir import types
from tograph.ops import carried, control, effects, elementwise, lists
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, tensor
from tograph.lowering import iterables

Undefined = control.Undefined
Placeholder = carried.Placeholder
State = tuple[Any, ...]


def is_symbolic(value: Any) -> bool:
    return isinstance(value, tensor.Symbolic)


def contains_symbolic(tree: Any) -> bool:
    """Whether a symbolic value occurs anywhere in nested lists, tuples and dicts."""
    if isinstance(tree, tensor.Symbolic):
        return True
    if isinstance(tree, (list, tuple)):
        return any(contains_symbolic(v) for v in tree)
    if isinstance(tree, dict):
        return any(contains_symbolic(v) for v in tree.values())
    return False


def _check_defined(value: Any, what: str) -> None:
    if isinstance(value, Undefined):
        raise errors.ConversionError(
            f"variable '{value.name}' is used in {what} before it is assigned", loc=origin.current_location()
        )


# ---- statements -----------------------------------------------------------------------------


def if_stmt(test: Any, body: Callable[..., State], orelse: Callable[..., State], state: State,
            names: Sequence[str], outputs: Sequence[str]) -> State:
    """``if test: body else: orelse`` over the variables ``names``; returns those in ``outputs``.

    The branches take and return the values of all of ``names``; only ``outputs`` are live after.
    """
    _check_defined(test, "an if condition")
    if is_symbolic(test):
        values = control.cond(test, body, orelse, _tensor_lists(state), tuple(names))
    else:
        values = body(*state) if test else orelse(*state)
    if len(outputs) == len(names):
        return tuple(values)
    return tuple(values[names.index(name)] for name in outputs)


def while_stmt(test: Callable[..., Any], body: Callable[..., State], state: State, names: Sequence[str]) -> State:
    """``while test: body``; Python iterations until the condition is a tensor, then a while_loop."""
    while True:
        cond = test(*state)
        _check_defined(cond, "a while condition")
        if is_symbolic(cond):
            return control.while_loop(test, body, _tensor_lists(state), tuple(names))
        if not cond:
            return state
        state = body(*state)


def for_stmt(iterable: Any, extra_test: Callable[..., Any] | None, body: Callable[..., State],
             state: State, names: Sequence[str]) -> State:
    """``for item in iterable: body``; a while_loop when the iterable is a tensor, else unrolled."""
    _check_defined(iterable, "a for loop")
    loop = iterables.as_tensor_iterable(iterable)
    if loop is not None:
        return _tensor_for(loop, extra_test, body, state, names)
    for position, item in enumerate(iterable):
        if extra_test is not None:
            keep_going = extra_test(*state)
            if is_symbolic(keep_going):
                rest = _remaining(iterable, position)
                return _guarded_for(rest, keep_going, extra_test, body, state, names)
            if not keep_going:
                break
        state = body(item, *state)
    return state


def _remaining(iterable: Any, position: int) -> Any:
    """The items of a Python iterable from ``position`` on, as a tensor loop if it is a range."""
    if isinstance(iterable, range):
        rest = iterable[position:]
        return iterables.TensorRange(rest.start, rest.stop, rest.step)
    return list(iterable)[position:]


def _guarded_for(rest: Any, keep_going: Any, extra_test: Callable[..., Any], body: Callable[..., State],
                 state: State, names: Sequence[str]) -> State:
    """The rest of a Python loop whose break flag became a tensor: a while_loop over a range, else
    each remaining iteration under a cond on the flag."""
    if isinstance(rest, iterables.TensorIterable):
        return _tensor_for(rest, extra_test, body, state, names)
    for item in rest:
        state = control.cond(keep_going, functools.partial(body, item), lambda *s: s, _tensor_lists(state), tuple(names))
        keep_going = extra_test(*state)
    return state


def _tensor_lists(state: State) -> State:
    """State entering tensor control flow: its Python lists become tensor lists (they may grow)."""
    return tuple(lists.as_list(v) if isinstance(v, list) else v for v in state)


def _tensor_for(loop: "iterables.TensorIterable", extra_test: Callable[..., Any] | None,
                body: Callable[..., State], state: State, names: Sequence[str], start: int = 0) -> State:
    if _peel_first(loop, extra_test, state, start):
        # A variable starting as None (``best = None``) takes its tensor type in the first
        # iteration, which runs here in Python; the rest of the loop is a while_loop.
        state = body(loop.item(start), *state)
        return _tensor_for(loop, extra_test, body, state, names, start + 1)

    def test(index: Any, *carried: Any) -> Any:
        more = loop.has_next(index)
        if extra_test is None:
            return more
        return np.logical_and(more, extra_test(*carried))

    def step(index: Any, *carried: Any) -> State:
        return (index + 1, *body(loop.item(index), *carried))

    final = control.while_loop(test, step, (start, *_tensor_lists(state)), ("loop index", *names))
    return tuple(final[1:])


def _peel_first(loop: "iterables.TensorIterable", extra_test: Callable[..., Any] | None,
                state: State, start: int) -> bool:
    """Whether to run iteration ``start`` in Python: it surely runs and a variable is still None."""
    if not (isinstance(loop.length, int) and start < loop.length and any(v is None for v in state)):
        return False
    return extra_test is None or extra_test(*state) is True


# ---- expressions ----------------------------------------------------------------------------


def _select(test: Any, body: Callable[[], Any], orelse: Callable[[], Any]) -> Any:
    """``body() if test else orelse()`` for a tensor ``test``: a cond with one result."""
    result = Undefined("expression value")
    then_fn, else_fn = (lambda _: (body(),)), (lambda _: (orelse(),))
    return control.cond(test, then_fn, else_fn, (result,), ("expression value",))[0]


def and_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    """``left() and right()``; a cond when the left value is a tensor, so right stays lazy."""
    value = left()
    if is_symbolic(value):
        return _select(value, right, lambda: value)
    return value and right()


def or_(left: Callable[[], Any], right: Callable[[], Any]) -> Any:
    """``left() or right()``, lazily as in Python, also for tensors."""
    value = left()
    if is_symbolic(value):
        return _select(value, lambda: value, right)
    return value or right()


def not_(value: Any) -> Any:
    if is_symbolic(value):
        return np.logical_not(value)
    return not value


def if_exp(test: Any, body: Callable[[], Any], orelse: Callable[[], Any]) -> Any:
    """``body() if test else orelse()``."""
    _check_defined(test, "a conditional expression")
    if is_symbolic(test):
        return _select(test, body, orelse)
    return body() if test else orelse()


def setitem(target: Any, index: Any, value: Any) -> Any:
    """``target[index] = value``: a new value for tensors and arrays receiving tensors, else in place."""
    _check_defined(target, "an item assignment")
    if is_symbolic(target) or contains_symbolic(index) or contains_symbolic(value):
        if isinstance(target, (list, dict)):
            target[index] = value
            return target
        from tograph.ops import indexing

        return indexing.setitem(target, index, value)
    target[index] = value
    return target


def list_append(target: Any, value: Any) -> Any:
    """``target.append(value)``: a push onto a tensor list, or Python's append."""
    _check_defined(target, "an append")
    if isinstance(target, lists.SymbolicList):
        return lists.push(target, value)
    target.append(value)
    return target


class TensorText:
    """An f-string with tensors in it: printable, or usable as an assert message, at run time."""

    def __init__(self, parts: Sequence[Any]):
        self.parts = tuple(parts)

    def __str__(self) -> str:
        raise errors.TracerError(
            "an f-string of a tensor has no text while the graph is built",
            hint="inside compiled functions such strings can be printed or used as assert messages",
        )


def formatted(value: Any, conversion: int, spec: str) -> Any:
    """One f-string field ``{value!conversion:spec}`` (conversion as in ``ast.FormattedValue``)."""
    conv = {-1: "", 115: "s", 114: "r", 97: "a"}[conversion]
    slot = effects.FormatSlot(spec, conv)
    return effects.Formatted(value, slot) if is_symbolic(value) else slot.render(value)


def fstring(*parts: Any) -> Any:
    """The text of an f-string, or a ``TensorText`` when a field holds a tensor."""
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    return TensorText(parts)


def _message_parts(message: Any) -> tuple[Any, ...]:
    if message is None:
        return ()
    return message.parts if isinstance(message, TensorText) else (message,)


def assert_(test: Any, message: Callable[[], Any]) -> None:
    """``assert test, message``: checked when the graph runs if the test is a tensor."""
    if is_symbolic(test):
        effects.assert_(test, *_message_parts(message()))
        return
    if not test:
        msg = message()
        raise AssertionError(*(() if msg is None else (msg,)))


def raise_(exception: Any) -> None:
    """``raise exception``: now, or when the graph runs if it is inside tensor control flow."""
    if isinstance(exception, type) and issubclass(exception, BaseException):
        exception = exception()
    effects.raise_(exception)


# ---- calls ----------------------------------------------------------------------------------


def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Calls ``fn`` as converted code should: see module docstring."""
    if any(isinstance(a, lists.SymbolicList) for a in args) and _is_numpy(fn):
        args = tuple(lists.stack(a) if isinstance(a, lists.SymbolicList) else a for a in args)
    handler = _BUILTINS.get(fn) if _hashable(fn) else None
    if handler is not None:
        return handler(*args, **kwargs)
    if _hashable(fn) and fn in dispatch.OVERRIDES and contains_symbolic((args, kwargs)):
        return dispatch.OVERRIDES[fn](*args, **kwargs)
    from tograph.lowering import calls

    return calls.call_user(fn, args, kwargs)


def _is_numpy(fn: Any) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return isinstance(fn, np.ufunc) or module == "numpy" or module.startswith("numpy.")


def _hashable(fn: Any) -> bool:
    try:
        hash(fn)
    except TypeError:
        return False
    return True


def _range(*args: Any) -> Any:
    if contains_symbolic(args):
        return iterables.TensorRange(*args)
    return range(*args)


def _len(value: Any) -> Any:
    if isinstance(value, lists.SymbolicList):
        return lists.length(value)
    if isinstance(value, tensor.SymbolicTensor) and value.ndim > 0 and value.type.shape[0] is None:
        return value.shape[0]
    return len(value)


def _scalar_cast(kind: type) -> Callable[..., Any]:
    def cast(value: Any = 0, *rest: Any) -> Any:
        if is_symbolic(value) and not rest:
            return elementwise.astype_p.bind(value, dtype=np.dtype(kind), weak=True)
        return kind(value, *rest)

    return cast


def _extremum(python_fn: Callable[..., Any], pairwise: Any, reduce: Any) -> Callable[..., Any]:
    def extremum(*args: Any, **kwargs: Any) -> Any:
        if not contains_symbolic(args) or kwargs:
            return python_fn(*args, **kwargs)
        if len(args) == 1:
            items = args[0]
            if is_symbolic(items):
                return reduce(items, axis=0)
            args = tuple(items)
        result = args[0]
        for arg in args[1:]:
            result = pairwise(result, arg)
        if all(_is_weak(a) for a in args):  # Python's max of Python numbers is a Python number
            result = elementwise.astype_p.bind(result, dtype=result.dtype, weak=True)
        return result

    return extremum


def _is_weak(value: Any) -> bool:
    return types.is_python_scalar(value) or (isinstance(value, tensor.TensorBase) and value.type.weak)


def _any_all(python_fn: Callable[..., Any], combine: Any) -> Callable[..., Any]:
    """``any``/``all`` over an iterable that may yield tensors: one bool from all of them."""

    def reduce(items: Any) -> Any:
        if isinstance(items, tensor.SymbolicTensor):
            items = [items[i] for i in range(len(items))]
        values = list(items)
        if not contains_symbolic(values):
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


def _print(*values: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None, flush: bool = False) -> None:
    if builder_mod.current() is None or file is not None:
        builtins.print(*values, sep=sep, end=end, file=file, flush=flush)
        return
    if not any(isinstance(v, TensorText) for v in values):
        effects.print_(*values, sep=sep, end=end)
        return
    parts: list[Any] = []
    for i, value in enumerate(values):
        if i:
            parts.append(" " if sep is None else sep)
        parts.extend(_message_parts(value) if isinstance(value, TensorText) else (value,))
    effects.print_(*parts, sep="", end=end)


def _isinstance(value: Any, classes: Any) -> bool:
    if isinstance(value, tensor.SymbolicTensor):
        classes = classes if isinstance(classes, tuple) else (classes,)
        return any(c in (np.ndarray, np.generic, tensor.TensorBase) for c in classes) or builtins.isinstance(
            value, classes
        )
    return builtins.isinstance(value, classes)


def _enumerate(items: Any, start: Any = 0) -> Any:
    loop = iterables.as_tensor_iterable(items)
    if loop is not None or is_symbolic(start):
        return iterables.TensorEnumerate(items, start)
    return enumerate(items, start)


def _zip(*items: Any) -> Any:
    if any(iterables.as_tensor_iterable(i) is not None for i in items):
        return iterables.TensorZip(*items)
    return zip(*items)


_BUILTINS: dict[Any, Callable[..., Any]] = {
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
    builtins.enumerate: _enumerate,
    builtins.zip: _zip,
}
