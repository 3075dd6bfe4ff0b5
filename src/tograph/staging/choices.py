"""Constants chosen by a tensor test: a label or status that tensor control flow picks
(``return "cold" if t < 10 else "hot"``, ``status = "converged"`` before a ``break``).

Stage: build (helpers of ``staging.control_flow`` and of the runtime). Input: the values of the
variables after each branch of an ``if`` on a tensor, or before and after a loop body over
tensors. Output: where a variable holds one constant (a string, ``None``, a bool, another
immutable constant: an ``Options`` member) on one side and another on the other, both sides
become a ``Choice``: a pytree node of an int32 index (a leaf that ``cond`` and ``while_loop``
carry) and the static ``Options`` (the same on both sides: their union). A loop whose body adds
options traces again with the larger set. Only exact uses compile: returning it or leaving it in
a result, container or attribute (``boxed``: the very option object comes back), ``==`` and
``!=`` against a constant or another choice, ``is`` and ``is not``, ``in`` a container of
constants; each is decided per option now and becomes a test of the index. Any other use
(printing, formatting, string methods, hashing, ``len``, a library call) falls back, naming the
line, since eager may do anything with the option it holds.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import enum
import types as pytypes
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import pytree
from tograph.ops import elementwise
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

_LABELS = (str, bytes, type(None), pytypes.EllipsisType)
_NUMBERS = (bool, int, float, complex)


def _label(value: Any) -> bool:
    """A constant that no graph carries as a number: a string, None, an enum member."""
    return type(value) in _LABELS or isinstance(value, enum.Enum)


def _option(value: Any) -> bool:
    """A constant a choice may hold: a label, or a Python number facing one."""
    return _label(value) or type(value) in _NUMBERS


def _key(value: Any) -> tuple[type, Any]:
    """What tells options apart: their type, and their value (numbers by ``repr``: ``0.0`` and
    ``-0.0`` differ, ``nan`` is itself) or, for singletons, their identity."""
    if type(value) in (str, bytes):
        return type(value), value
    if type(value) in _NUMBERS:
        return type(value), repr(value)
    return type(value), id(value)


class Options:
    """The constants a choice may hold, in order: a static leaf, equal to another when it holds
    the same options (by type and value) in the same order."""

    __slots__ = ("values", "keys")

    def __init__(self, values: Sequence[Any]):
        self.values = tuple(values)
        self.keys = tuple(_key(v) for v in self.values)

    def __eq__(self, other: object) -> bool:
        return type(other) is Options and self.keys == other.keys

    def __hash__(self) -> int:
        return hash(self.keys)

    def __repr__(self) -> str:
        return f"Options{self.values!r}"

    def position(self, value: Any) -> int | None:
        """The index of ``value`` among the options, or None."""
        key = _key(value)
        return next((i for i, k in enumerate(self.keys) if k == key), None)

    def union(self, values: Sequence[Any]) -> Options:
        """These options, then those of ``values`` not among them."""
        extra = [v for v in values if self.position(v) is None]
        unique = [v for i, v in enumerate(extra) if _key(v) not in map(_key, extra[:i])]
        return self if not unique else Options([*self.values, *unique])


class Choice:
    """One of ``options``, which the int32 ``index`` (known when the graph runs) picks."""

    __slots__ = ("index", "options")
    __tree_describe__ = "a constant chosen by a tensor test"

    def __init__(self, index: Any, options: Options):
        self.index, self.options = index, options

    def __tree_children__(self) -> tuple[Any, Options]:
        return (self.index, self.options)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Choice:
        return cls(*children)

    def refusal(self, use: str) -> errors.UnsupportedError:
        """The error for a use of this choice that is not compiled."""
        shown = ", ".join(repr(v) for v in self.options.values)
        return errors.UnsupportedError(
            f"a value that is one of {shown} depending on a tensor test is {use} (only returning "
            "or storing it, ==, !=, is, is not and in against constants are compiled)",
            loc=origin.current_location(),
            hint="compare it with its options (`if status == 'done':`) and act on the result",
            construct="constant chosen by a tensor test",
        )

    def __eq__(self, other: object) -> Any:  # type: ignore[override]
        return _test(self, other, lambda a, b: a == b, "==")

    def __ne__(self, other: object) -> Any:  # type: ignore[override]
        return _test(self, other, lambda a, b: a != b, "!=")

    def __hash__(self) -> int:
        raise self.refusal("hashed (a dict key or set member)")

    def __bool__(self) -> bool:
        raise self.refusal("tested for truth")

    def __str__(self) -> str:
        raise self.refusal("turned into text")

    def __repr__(self) -> str:
        raise self.refusal("turned into text")

    def __format__(self, spec: str) -> str:
        raise self.refusal("formatted")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # protocols probed with getattr (copy, pickle) are absent
            raise AttributeError(name)
        raise self.refusal(f"used for its attribute .{name}")

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise self.refusal("made into an array")

    def __array_ufunc__(self, *args: Any, **kwargs: Any) -> Any:
        raise self.refusal("passed to a NumPy function")

    def __array_function__(self, *args: Any, **kwargs: Any) -> Any:
        raise self.refusal("passed to a NumPy function")

    def _refused(self, *args: Any) -> Any:
        raise self.refusal("used in an operation")

    __len__ = __iter__ = __getitem__ = __contains__ = __call__ = _refused
    __lt__ = __le__ = __gt__ = __ge__ = _refused
    __add__ = __radd__ = __mul__ = __rmul__ = __mod__ = __rmod__ = _refused
    __int__ = __float__ = __complex__ = __index__ = _refused


def _test(choice: Choice, other: Any, compare: Callable[[Any, Any], Any], op: str) -> Any:
    """``compare(choice, other)``, per pair of options decided now (eager's very comparison of
    the constants), as a weak bool known when the graph runs."""
    if isinstance(other, Choice):
        pairs = [
            ((choice, i), (other, j))
            for i, a in enumerate(choice.options.values)
            for j, b in enumerate(other.options.values)
            if _decided(compare(a, b), op, choice)
        ]
        return _any_of([[c, d] for c, d in pairs])
    if not (_option(other) or (op.startswith("is") and not tensor.is_symbolic(other))):
        raise choice.refusal(f"compared ({op}) with a value that is not a constant")
    return _any_of(
        [
            [(choice, i)]
            for i, a in enumerate(choice.options.values)
            if _decided(compare(a, other), op, choice)
        ]
    )


def _decided(answer: Any, op: str, choice: Choice) -> bool:
    if type(answer) is not bool:
        raise choice.refusal(f"compared ({op}) with a value that gives no bool")
    return answer


def _any_of(cases: list[list[tuple[Choice, int]]]) -> Any:
    """Whether one of ``cases`` holds, each a list of (choice, option index) that all hold: a
    weak bool (a Python bool when it is known now)."""
    if not cases:
        return False
    result: Any = None
    for case in cases:
        term: Any = None
        for choice, i in case:
            if not tensor.is_symbolic(choice.index):
                holds: Any = int(choice.index) == i
            else:
                holds = np.equal(choice.index, np.int32(i))
            term = holds if term is None else np.logical_and(term, holds)
        result = term if result is None else np.logical_or(result, term)
    if not tensor.is_symbolic(result):
        return bool(result)
    if result.type.weak:
        return result
    return elementwise.astype_p.bind(result, dtype=result.dtype, weak=True)  # a Python bool


def identical(left: Any, right: Any, negated: bool = False) -> Any:
    """``left is right`` (``is not`` if ``negated``) where one of them (or both) is a choice:
    which options are the other, decided now, as a test of the index."""
    choice, other = (left, right) if isinstance(left, Choice) else (right, left)
    if negated:
        return _test(choice, other, lambda a, b: a is not b, "is not")
    return _test(choice, other, lambda a, b: a is b, "is")


def within(item: Choice, container: Any) -> Any:
    """``item in container`` for a container of constants (a tuple, list, set, frozenset)."""
    if type(container) not in (tuple, list, set, frozenset) or not all(
        _option(v) for v in container
    ):
        raise item.refusal("looked up in a container other than a tuple, list or set of constants")
    return _any_of([[(item, i)] for i, a in enumerate(item.options.values) if a in container])


def holds(value: Any) -> bool:
    """Whether ``value`` is a choice or holds one in its lists, tuples and dicts."""
    return _first(value) is not None


def _first(value: Any) -> Choice | None:
    """The first choice in ``value`` or its lists, tuples and dicts."""
    if isinstance(value, Choice):
        return value
    if type(value) in (list, tuple, dict):
        items = value.values() if type(value) is dict else value
        return next((c for c in map(_first, items) if c is not None), None)
    return None


def refuse_call(
    fn: Any, args: Sequence[Any], kwargs: dict[str, Any], converts: Callable[[Any], bool]
) -> None:
    """Refuses passing a choice to a callable that ``converts`` says is not converted: a library
    function or a builtin may do anything with the option it holds. Putting it in a list is
    storing it."""
    choice = _first((tuple(args), kwargs))
    if choice is None or converts(fn):
        return
    if type(getattr(fn, "__self__", None)) is list and getattr(fn, "__name__", "") in (
        "append",
        "insert",
    ):
        return
    name = getattr(fn, "__qualname__", None) or type(fn).__name__
    raise choice.refusal(f"passed to {name}()")


# ---- joining the values of two branches, or of a loop's start and its body's end ----------


def _eligible(a: Any, b: Any) -> bool:
    """Whether two values of one variable become choices: constants (or choices) that differ,
    one of them a label or a choice (two numbers are the graph's to carry)."""
    if not all(isinstance(v, Choice) or _option(v) for v in (a, b)):
        return False
    if not any(isinstance(v, Choice) or _label(v) for v in (a, b)):
        return False
    _refuse_equal_twins(a, b)
    if isinstance(a, Choice) and isinstance(b, Choice):
        return a.options != b.options
    if isinstance(a, Choice) or isinstance(b, Choice):
        return True
    return _key(a) != _key(b)


def _refuse_equal_twins(a: Any, b: Any) -> None:
    """Refuses two options that are equal (by type and value) but not the very same object
    (``"a b"`` from two functions, a string argument equal to a constant): the choice would
    hold one for both, and eager's ``is`` and identity of the result tell them apart."""
    sides = [v.options.values if isinstance(v, Choice) else (v,) for v in (a, b)]
    if not all(isinstance(v.options, Options) for v in (a, b) if isinstance(v, Choice)):
        return
    for u in sides[0]:
        for v in sides[1]:
            if u is not v and _key(u) == _key(v):
                raise errors.UnsupportedError(
                    f"a value that is {u!r} on one path and an equal but distinct {v!r} on "
                    "another, depending on a tensor test (the graph would give back one object "
                    "for both)",
                    loc=origin.current_location(),
                    hint="use the same constant on both paths",
                    construct="constant chosen by a tensor test",
                )


def _values(value: Any) -> tuple[Any, ...]:
    return value.options.values if isinstance(value, Choice) else (value,)


def _as_choice(value: Any, options: Options, builder: builder_mod.GraphBuilder | None) -> Choice:
    """``value`` (a constant or a choice) as a choice over ``options``, which hold its options;
    a choice of other options has its index mapped (in ``builder``, the graph that made it)."""
    if not isinstance(value, Choice):
        position = options.position(value)
        assert position is not None
        return Choice(np.int32(position), options)
    if value.options == options:
        return value
    table = [options.position(v) for v in value.options.values]
    if table == list(range(len(table))):
        return Choice(value.index, options)
    if not tensor.is_symbolic(value.index):
        return Choice(np.int32(table[int(value.index)]), options)  # type: ignore[index]
    with (builder or builder_mod.current()).active():
        index: Any = np.int32(table[0])
        for old, new in enumerate(table[1:], start=1):
            index = np.where(np.equal(value.index, np.int32(old)), np.int32(new), index)
    return Choice(index, options)


_KEEP = object()  # a builder for ``_pair`` meaning: leave that side as it is


def _pair(a: Any, b: Any, builders: Sequence[Any]) -> tuple[Any, Any]:
    """Both values choices over the union of their options where they differ as ``_eligible``
    says (in their tuples, lists and dicts too), each converted in its side's builder."""
    if isinstance(a, Choice) and isinstance(b, Choice):
        a, b = _unset_options(a, b), _unset_options(b, a)
    if _eligible(a, b):
        first, second = (b, a) if isinstance(b, Choice) and not isinstance(a, Choice) else (a, b)
        options = Options(_values(first)).union(_values(second))
        sides = [v if k is _KEEP else _as_choice(v, options, k) for v, k in zip((a, b), builders)]
        return sides[0], sides[1]
    if type(a) is type(b) is tuple and len(a) == len(b):  # lists and dicts are known by identity
        items = [_pair(x, y, builders) for x, y in zip(a, b)]
        if all(p[0] is x and p[1] is y for p, x, y in zip(items, a, b)):
            return a, b
        return tuple(p[0] for p in items), tuple(p[1] for p in items)
    return a, b


def _unset_options(choice: Choice, other: Choice) -> Choice:
    """``choice``, a return value not yet set (a ``Placeholder`` for each leaf, facing a choice
    on the other path), with ``other``'s options: it is read only where it is set."""
    if isinstance(choice.options, Options) or not isinstance(other.options, Options):
        return choice
    return Choice(choice.index, other.options)


def align(
    a: Any, b: Any, names: Sequence[str], builders: Sequence[Any] = (None, None)
) -> tuple[Any, Any]:
    """The two branches' results (tuples of the variables ``names``), each variable (or item of
    a tuple, list or dict) holding two different constants, or a choice, made a choice over the
    union of their options on both sides; ``builders`` are the branches' own."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == len(names)):
        return a, b
    pairs = [_pair(x, y, builders) for x, y in zip(a, b)]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def lift_init(init: Sequence[Any], result: Any) -> tuple[Any, ...] | None:
    """A loop's initial values with each variable the body's ``result`` gives another constant
    (or a choice of options the start lacks) a choice over both, or None if there is none."""
    if not isinstance(result, tuple) or len(result) < len(init):
        return None
    lifted = [_pair(start, out, (None, _KEEP))[0] for start, out in zip(init, result)]
    return tuple(lifted) if any(x is not y for x, y in zip(lifted, init)) else None


def lifting(
    body: Callable[..., tuple[Any, ...]], init: Sequence[Any]
) -> Callable[..., tuple[Any, ...]]:
    """``body`` whose results for the variables that start as choices are choices of the
    start's options where those hold them (else ``lift_init`` widens the start)."""
    if not holds(tuple(init)):
        return body
    return carried.map_results(body, init, lambda v, start, _: _like(v, start))


def _like(value: Any, start: Any) -> Any:
    if isinstance(start, Choice):
        if not (isinstance(value, Choice) or _option(value)):
            return value
        if not isinstance(start.options, Options):  # a return value not yet set
            return value
        if all(start.options.position(v) is not None for v in _values(value)):
            return _as_choice(value, start.options, builder_mod.current())
        return value
    if type(start) is type(value) is tuple and len(start) == len(value):
        items = [_like(v, s) for v, s in zip(value, start)]
        return value if all(x is y for x, y in zip(items, value)) else tuple(items)
    return value


# ---- results -----------------------------------------------------------------------------


class Boxed:
    """A returned choice: a pytree node of the index and the tuple of options (static leaves,
    which a saved graph holds too), rebuilt as the option the index picks."""

    __slots__ = ("index", "options")

    def __init__(self, index: Any, options: tuple[Any, ...]):
        self.index, self.options = index, options

    def __tree_children__(self) -> tuple[Any, tuple[Any, ...]]:
        return (self.index, self.options)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Any:
        index, options = children
        return options[int(index)]


def boxed(result: Any, keep: Callable[[Any], bool] = lambda v: False) -> Any:
    """``result`` as it leaves the graph: each choice in its containers the option itself where
    the index is known now, else a ``Boxed`` node; containers that ``keep`` says are left."""
    leaves, tree = pytree.flatten(
        result, lambda v: keep(v) or not isinstance(v, (tuple, list, dict))
    )
    if not any(isinstance(v, Choice) for v in leaves):
        return result
    return tree.unflatten([_box(v) if isinstance(v, Choice) else v for v in leaves])


def _box(choice: Choice) -> Any:
    if tensor.is_symbolic(choice.index):
        return Boxed(choice.index, choice.options.values)
    return choice.options.values[int(choice.index)]
