"""Effects: ``print``, ``assert``, ``raise``, and NumPy's own warnings and checks, on values known
only when the graph runs.

Stage: build (ops). Input: the arguments of a ``print(...)`` or ``assert`` in user code. Output:
while a graph is built, an effectful equation with no outputs (passes never remove, merge or fold
it), so the effect happens on every run of the graph, in the branch or loop body it belongs to;
otherwise the Python statement runs at once. Printed form::

    print[end='\\n', sep=' ', template=('loss', None, '3')] x
    assert[message=('x must be positive, got ', None)] t0 x
    raise[exception=ValueError(''), message=('no root near ', None)] x
    warn[category='RuntimeWarning', each=False, message='Mean of empty slice'] t3
    raise_if[exception=ZeroDivisionError("Weights sum to zero, can't be normalized")] t5

A ``template`` holds the text of each static argument, already converted with ``str``, and
``None`` where a tensor's value goes (a ``KindSlot`` where a scalar whose kind depends on the path
goes, filled by its kind code and value; in an f-string field, a ``kinded`` ``FormatSlot``), so the
kernel prints exactly what Python's ``print`` would
print with the tensor's run-time value; ``assert`` and ``raise`` make their messages the same
way; a list, tuple or dict holding tensors is text in parts too, as ``str`` writes it (its
items' ``repr``s: ``[np.float64(3.0)]``). The primitives have zero outputs: they are
``multiple_results`` primitives whose kernels return ``()``.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

import numpy as np

from tograph import errors, origin
from tograph.ir import primitives, types
from tograph.trace import builder as builder_mod
from tograph.trace import tensor


@dataclasses.dataclass(frozen=True)
class FormatSlot:
    """How a template slot is formatted: ``{x!r:.3f}`` is ``FormatSlot(".3f", "r")``. A
    ``kinded`` slot formats a scalar whose kind depends on the path: it takes its kind code and
    its value, and formats the Python number or NumPy scalar the code names (``repr`` tells
    ``0.0`` from ``np.float64(0.0)``)."""

    spec: str = ""
    conversion: str = ""
    kinded: bool = False
    array: bool = False  # a 0-d array in eager code, which the graph may hold as a NumPy scalar

    def render(self, value: Any) -> str:
        value = np.asarray(value) if self.array else value
        converted = {"r": repr, "a": ascii, "s": str}.get(self.conversion, lambda v: v)(value)
        return format(converted, self.spec)

    def __repr__(self) -> str:
        return (
            "{"
            + ("kind" if self.kinded else "")
            + ("array" if self.array else "")
            + (f"!{self.conversion}" if self.conversion else "")
            + (f":{self.spec}" if self.spec else "")
            + "}"
        )


@dataclasses.dataclass(frozen=True)
class Formatted:
    """A tensor in an f-string field, with the field's format spec and conversion."""

    value: Any
    slot: FormatSlot


@dataclasses.dataclass(frozen=True)
class KindSlot:
    """A scalar whose kind depends on the path taken: filled by its kind code and its value,
    shown as the Python number or NumPy scalar the code names (``types.of_kind``)."""

    def __repr__(self) -> str:
        return "{kind}"


Template = tuple[str | FormatSlot | KindSlot | None, ...]


def _fill(template: Template, values: Iterable[Any]) -> list[Any]:
    """The template's parts with the run-time values in the ``None``, ``FormatSlot`` and
    ``KindSlot`` slots (a ``KindSlot`` takes two: the code and the value)."""
    remaining = iter(values)
    filled: list[Any] = []
    for part in template:
        if isinstance(part, str):
            filled.append(part)
        elif part is None:
            filled.append(next(remaining))
        elif isinstance(part, KindSlot):
            filled.append(types.of_kind(next(remaining), next(remaining)))
        elif part.kinded:
            filled.append(part.render(types.of_kind(next(remaining), next(remaining))))
        else:
            filled.append(part.render(next(remaining)))
    return filled


def _values_taken(part: str | FormatSlot | KindSlot | None) -> int:
    if isinstance(part, str):
        return 0
    return 2 if isinstance(part, KindSlot) or getattr(part, "kinded", False) else 1


def _check_slots(name: str, template: Template, count: int) -> None:
    slots = sum(_values_taken(part) for part in template)
    if slots != count:
        raise errors.InternalError(
            f"{name} template {template!r} has {slots} slots for {count} values"
        )


# ---- print -------------------------------------------------------------------------------


def _print_impl(*values: Any, template: Template, sep: str, end: str) -> tuple[()]:
    builtins.print(*_fill(template, values), sep=sep, end=end)
    return ()


def _print_rule(*in_types: types.ValueType, template: Template, sep: str, end: str) -> tuple[()]:
    _check_slots("print", template, len(in_types))
    return ()


print_p = primitives.Primitive(
    "print", _print_impl, _print_rule, multiple_results=True, effectful=True
)


def print_(*values: Any, sep: str | None = " ", end: str | None = "\n") -> None:
    """Python's ``print``; while a graph is built, it prints each time the graph runs.

    Outside graph building this is ``print`` itself. Inside, even a print of static values becomes
    an equation, so that it happens on every run, and only when its branch or loop body runs.

    Raises:
      TypeError: ``sep`` or ``end`` is neither None nor a string (as ``print`` does).
    """
    sep = _text_option("sep", sep, " ")
    end = _text_option("end", end, "\n")
    current = builder_mod.current()
    if current is None:
        builtins.print(*values, sep=sep, end=end)
        return
    if sep and any(holds_symbolic(v) for v in values):  # a container's text is several parts
        values = tuple(part for i, v in enumerate(values) for part in [sep] * bool(i) + [v])
        sep = ""
    template, symbolic = _split(values)
    current.emit(print_p, symbolic, {"template": template, "sep": sep, "end": end})


def _text_option(name: str, value: Any, default: str) -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise TypeError(f"{name} must be None or a string, not {type(value).__name__}")
    return value


def holds_symbolic(value: Any) -> bool:
    """Whether ``value`` is a list, tuple or dict with a graph value among its items (nested
    ones too): its text exists only when the graph runs."""
    if type(value) in (list, tuple):
        return any(isinstance(v, tensor.Symbolic) or holds_symbolic(v) for v in value)
    if type(value) is dict:
        return holds_symbolic(list(value.values()))
    return False


def container_parts(value: Any) -> list[Any]:
    """The text of a list, tuple or dict as ``str`` writes it (its items' ``repr``s), as parts:
    strings, and ``Formatted`` repr fields where its tensors' values go. A graph value other
    than a tensor (a tensor list) among the items is refused."""
    if isinstance(value, tensor.SymbolicTensor):
        return [Formatted(value, FormatSlot("", "r"))]
    if isinstance(value, tensor.Symbolic):
        raise errors.UnsupportedError(
            "a list, tuple or dict holding a tensor list is printed or formatted: its text "
            "exists only when the graph runs",
            loc=origin.current_location(),
            construct="text of a container of tensor lists",
        )
    if type(value) is dict:
        items = [[repr(k), ": ", *container_parts(v)] for k, v in value.items()]
        return ["{", *_joined(items), "}"]
    if type(value) in (list, tuple):
        items = [container_parts(v) for v in value]
        if type(value) is list:
            return ["[", *_joined(items), "]"]
        return ["(", *_joined(items), "," if len(items) == 1 else "", ")"]
    return [repr(value)]


def _joined(items: list[list[Any]]) -> list[Any]:
    parts: list[Any] = []
    for i, item in enumerate(items):
        parts += [", "] * bool(i) + item
    return parts


def _split(values: Sequence[Any]) -> tuple[Template, list[Any]]:
    """The template of ``values`` and the symbolic values that fill its slots."""
    template: list[str | FormatSlot | KindSlot | None] = []
    symbolic: list[Any] = []
    for v in values:
        if holds_symbolic(v):  # its parts, in a template whose parts are joined with ""
            inner, inner_symbolic = _split(container_parts(v))
            template.extend(inner)
            symbolic.extend(inner_symbolic)
        elif isinstance(v, Formatted) and getattr(v.value, "kind_tag", None) is not None:
            template.append(dataclasses.replace(v.slot, kinded=True))
            symbolic.extend([v.value.kind_tag, v.value])
        elif isinstance(v, Formatted):
            array = isinstance(v.value, tensor.SymbolicTensor) and v.value.array0d
            template.append(dataclasses.replace(v.slot, array=True) if array else v.slot)
            symbolic.append(v.value)
        elif isinstance(v, tensor.SymbolicTensor) and v.kind_tag is not None:
            template.append(KindSlot())
            symbolic.extend([v.kind_tag, v])
        elif isinstance(v, tensor.Symbolic):
            template.append(None)
            symbolic.append(v)
        else:
            template.append(str(v))
    return tuple(template), symbolic


# ---- assert ------------------------------------------------------------------------------


def _assert_impl(cond: Any, *values: Any, message: Template | None) -> tuple[()]:
    if not cond:
        if message is None:
            raise AssertionError()
        raise AssertionError("".join(str(part) for part in _fill(message, values)))
    return ()


def _assert_rule(
    cond: types.ValueType, *in_types: types.ValueType, message: Template | None
) -> tuple[()]:
    if isinstance(cond, types.ListType):
        raise errors.DTypeError(f"the condition of an assert is a tensor list ({cond})")
    if cond.size is not None and cond.size != 1:
        raise errors.ShapeError(
            f"the truth value of an array with more than one element ({cond}) is ambiguous",
            hint="use a.any() or a.all()",
        )
    _check_slots("assert", message or (), len(in_types))
    return ()


assert_p = primitives.Primitive(
    "assert", _assert_impl, _assert_rule, multiple_results=True, effectful=True
)


def assert_(cond: Any, *message: Any) -> None:
    """Python's ``assert cond, message``; checked when the graph runs if a graph is being built.

    A static true condition does nothing. A static false one raises at once outside graph
    building, and inside becomes an equation that raises when (and only if) it runs.

    Args:
      cond: the condition; a tensor of one element or a Python value.
      *message: the message, in parts joined like an f-string (``"x is ", x``); none for a bare
        ``assert cond``.

    Raises:
      AssertionError: at once, when ``cond`` is static and false outside graph building.
    """
    current = builder_mod.current()
    if not isinstance(cond, tensor.Symbolic):
        if cond:
            return
        if current is None:
            _raise_static(message)
    template, symbolic = _split(message)
    params = {"message": template if message else None}
    if current is None:  # a symbolic value outside graph building: binding reports it
        assert_p.bind(cond, *symbolic, **params)
    else:
        current.emit(assert_p, (cond, *symbolic), params)


def _raise_static(message: Sequence[Any]) -> NoReturn:
    if not message:
        raise AssertionError()
    if len(message) == 1:
        raise AssertionError(message[0])
    raise AssertionError("".join(str(part) for part in message))


# ---- NumPy's own warnings ------------------------------------------------------------------


def _warn_impl(cond: Any, *, message: str, category: str, each: bool) -> tuple[()]:
    for _ in range(np.count_nonzero(cond) if each else int(np.any(cond))):
        # stacklevel 2: the caller, the generated line of the user's call (``backend.user_lines``)
        warnings.warn(message, getattr(builtins, category), stacklevel=2)
    return ()


def _warn_rule(cond: types.ValueType, *, message: str, category: str, each: bool) -> tuple[()]:
    if not (isinstance(getattr(builtins, category, None), type) and category.endswith("Warning")):
        raise errors.InternalError(f"warn: {category!r} is not a built-in warning category")
    return ()


warn_p = primitives.Primitive("warn", _warn_impl, _warn_rule, multiple_results=True, effectful=True)


def warn_if(
    cond: Any, message: str, *, each: bool = False, category: str = "RuntimeWarning"
) -> None:
    """Warns ``message`` when any element of ``cond`` is true (``each``: once per true element),
    as NumPy's Python code warns after computing (``Mean of empty slice`` from ``np.nanmean``):
    each time the graph runs, if a graph is being built, attributed to the user's line of the
    call."""
    _check(warn_p, cond, {"message": message, "category": category, "each": each})


def _raise_if_impl(cond: Any, *, exception: BaseException) -> tuple[()]:
    if np.any(cond):
        raise copy.copy(exception)  # a fresh one per run: notes and tracebacks do not pile up
    return ()


def _raise_if_rule(cond: types.ValueType, *, exception: BaseException) -> tuple[()]:
    return ()


raise_if_p = primitives.Primitive(
    "raise_if", _raise_if_impl, _raise_if_rule, multiple_results=True, effectful=True
)


def raise_if(cond: Any, exception: BaseException) -> None:
    """Raises ``exception`` when any element of ``cond`` is true, as NumPy's Python code checks
    a computed value (``np.average``'s weights summing to zero): when the graph runs, if a graph
    is being built."""
    _check(raise_if_p, cond, {"exception": exception})


def _check(prim: primitives.Primitive, cond: Any, params: dict[str, Any]) -> None:
    """``prim`` of ``cond``: an equation while a graph is built and ``cond`` is symbolic, else
    its kernel at once."""
    current = builder_mod.current()
    if current is None or not isinstance(cond, tensor.Symbolic):
        prim.impl(cond, **params)
        return
    current.emit(prim, (cond,), params)


# ---- raise -------------------------------------------------------------------------------


def _raise_impl(*values: Any, exception: BaseException, message: Template | None) -> tuple[()]:
    if message is None:
        raise copy.copy(exception)  # a fresh one per run: notes and tracebacks do not pile up
    raise type(exception)("".join(str(part) for part in _fill(message, values)))


def _raise_rule(
    *in_types: types.ValueType, exception: BaseException, message: Template | None
) -> tuple[()]:
    _check_slots("raise", message or (), len(in_types))
    return ()


raise_p = primitives.Primitive(
    "raise", _raise_impl, _raise_rule, multiple_results=True, effectful=True
)


def in_branch() -> bool:
    """Whether a branch or loop body is being traced (where a ``raise`` becomes an equation)."""
    current = builder_mod.current()
    return current is not None and current.parent is not None


def raise_(exception: BaseException, message: Sequence[Any] = ()) -> None:
    """Python's ``raise``: at once in straight-line code, when the graph runs in a tensor branch.

    In a branch or loop body being traced, the exception becomes an equation that raises only if
    that branch or iteration runs; elsewhere it is raised now, as Python would.

    Args:
      exception: the exception to raise.
      message: its message in parts joined like an f-string (``"x is ", x``), when the message
        holds tensors; the exception is then raised as ``type(exception)(text)``, its text made
        when the graph runs. Only in a branch or loop body.
    """
    current = builder_mod.current()
    if current is None or current.parent is None:
        raise exception
    template, symbolic = _split(message)
    params = {"exception": exception, "message": template if message else None}
    current.emit(raise_p, tuple(symbolic), params)
