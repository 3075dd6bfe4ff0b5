"""Values that exist on some paths only: a variable that is ``None``, or unset, where tensor
control flow did not give it a value, and a tensor or number where it did.

Stage: build (helpers of ``staging.control_flow`` and of the runtime). Input: the values of the
variables after each branch of an ``if`` on a tensor, or before and after a loop body over
tensors. Output: where a variable is missing on one side and a value (a tensor or number, or a
tuple of them: ``return i, j`` or ``return None``) on the other, both sides become an
``Optional`` (TorchScript's ``Optional``): a pytree node of a present flag (a bool) and a value
of the tensor's type (a zero where missing, which no path observes), which ``cond`` and
``while_loop`` carry as leaves (``staging.reads`` reads them); ``boxed`` makes returned
optionals ``None`` or the value. Any other use of a value that may be ``None`` falls back, since
eager may raise there.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import pytree
from tograph.staging import carried, choices, kinds
from tograph.trace import tensor

_BINARY = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "matmul": operator.matmul,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
}
_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le}
_COMPARE.update({"gt": operator.gt, "ge": operator.ge})
_UNARY = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert}
_UNARY.update({"bool": bool, "float": float, "int": int, "index": operator.index})


class Optional:
    """A value that may be missing when the graph runs: ``present`` (a bool scalar) and
    ``value`` (meaningful only when present). Subclasses say what a missing value is.

    Operations on it act on ``value`` inside a branch where it is known present (``assuming``:
    ``if x is not None:``); elsewhere they fall back, since eager may raise there.
    """

    __slots__ = ("present", "value", "assumed")
    __hash__ = object.__hash__

    def __init__(self, present: Any, value: Any):
        self.present = present
        self.value = value
        self.assumed = 0

    def __tree_children__(self) -> tuple[Any, Any]:
        return (self.present, self.value)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Optional:
        return cls(*children)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.present!r}, {self.value!r})"

    def use(self) -> Any:
        """The value, where it is known present; else the compiler falls back."""
        if self.assumed:
            return self.value
        raise self.refusal()

    def refusal(self) -> errors.UnsupportedError:
        return errors.UnsupportedError(
            "a variable that is None on some paths and a tensor on others, used in an operation "
            "(only `is None`, `is not None`, returning it, and uses where `is not None` holds "
            "are compiled)",
            loc=origin.current_location(),
            hint="test `x is None` first, or give it a value on every path",
            construct="optional value",
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # probes of the compiler and of Python's protocols
            raise AttributeError(name)
        return getattr(self.use(), name)

    def __getitem__(self, index: Any) -> Any:
        return self.use()[index]

    def __iter__(self) -> Any:
        return iter(self.use())

    def __len__(self) -> int:
        return len(self.use())

    def __str__(self) -> str:
        raise self.refusal()  # text made now would not be the value's when the graph runs

    def __format__(self, spec: str) -> str:
        raise self.refusal()

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return getattr(ufunc, method)(*_used(inputs), **kwargs)

    def __array_function__(self, func: Any, kinds: Any, args: Any, kwargs: Any) -> Any:
        return func(*_used(args), **{k: _used([v])[0] for k, v in kwargs.items()})


def _used(values: Sequence[Any]) -> list[Any]:
    """``values`` (and the items of lists and tuples among them) with optionals used."""
    return [used(v) for v in values]


def used(value: Any) -> Any:
    """``value`` to compute with: an optional's value where it is known present (a write of it
    into a tensor, a push onto a tensor list); otherwise the compiler falls back."""
    if isinstance(value, Optional):
        return value.use()
    if type(value) in (list, tuple):
        return type(value)(_used(value))
    return value


def _binary(op: Callable[[Any, Any], Any]) -> tuple[Any, Any]:
    def forward(self: Optional, other: Any) -> Any:
        return op(self.use(), other.use() if isinstance(other, Optional) else other)

    def reflected(self: Optional, other: Any) -> Any:
        return op(other, self.use())

    return forward, reflected


def _unary(op: Callable[[Any], Any]) -> Any:
    def forward(self: Optional) -> Any:
        return op(self.use())

    return forward


for _name, _op in _BINARY.items():
    _forward, _reflected = _binary(_op)
    setattr(Optional, f"__{_name}__", _forward)
    setattr(Optional, f"__r{_name}__", _reflected)
for _name, _op in _COMPARE.items():
    setattr(Optional, f"__{_name}__", _binary(_op)[0])
for _name, _op in _UNARY.items():
    setattr(Optional, f"__{_name}__", _unary(_op))


def assuming(
    fn: Callable[..., tuple[Any, ...]], known: Optional, positions: Sequence[int]
) -> Callable[..., tuple[Any, ...]]:
    """``fn`` (a branch), during whose trace ``known`` and its copies passed at ``positions``
    are known to be present (the branch where ``x is not None`` holds)."""

    def branch(*values: Any) -> Any:
        marked = [known, *(values[i] for i in positions if isinstance(values[i], Optional))]
        for value in marked:
            value.assumed += 1
        try:
            result = fn(*values)
        finally:
            for value in marked:
                value.assumed -= 1
        if isinstance(result, tuple):
            return tuple(_present(v, marked) for v in result)
        return _present(result, marked)

    return branch


def _present(value: Any, marked: list[Optional]) -> Any:
    """A branch's result: an optional known present there is its value (so that a join with
    the other branch sees the value's type and kind)."""
    return value.value if any(value is m for m in marked) else value


class MaybeNone(Optional):
    """``None`` where missing."""

    __slots__ = ()
    __tree_describe__ = "a value that is None on some paths"


class MaybeUnset(Optional):
    """Unbound where missing: reading it then raises ``UnboundLocalError``."""

    __slots__ = ()
    __tree_describe__ = "a value set on some paths only"


def _kind(value: Any) -> type[Optional] | str:
    """The optional class ``value`` belongs in when missing, or "value" / "other"."""
    if isinstance(value, Optional):
        return type(value)
    if value is None:
        return MaybeNone
    if isinstance(value, carried.Undefined) and not isinstance(value, carried.Placeholder):
        return MaybeUnset
    return "value" if _values(value) else "other"


def _values(value: Any) -> bool:
    """Whether ``value`` is what an optional may hold: a tensor-like leaf, or a tuple of them
    (``return i, j`` on the paths that find a pair, ``return None`` on the others)."""
    if type(value) is tuple:
        return bool(value) and all(carried.is_tensor_like(v) for v in value)
    return carried.is_tensor_like(value)


def _lift(value: Any, cls: type[Optional], name: str, like: Any = None) -> Optional:
    """``value`` as an optional of class ``cls`` (present unless it is missing). A missing one
    holds a zero of the type of ``like`` (what a loop body gives it) when that is a value: a
    trace that uses it where a test showed it present then meets a value of its type (never
    read while missing)."""
    if isinstance(value, Optional):
        return value
    if _kind(value) == "value":
        return cls(np.bool_(True), value)
    like = like.value if isinstance(like, Optional) else like
    if type(like) is tuple and _values(like):
        fillers = [carried.Placeholder(f"{name}[{i}]") for i in range(len(like))]
        return cls(np.bool_(False), tuple(_filler(f, v) for f, v in zip(fillers, like)))
    return cls(np.bool_(False), _filler(carried.Placeholder(name), like))


def _filler(filler: carried.Placeholder, like: Any) -> Any:
    """What a missing value holds: a zero of the type of ``like`` where that is a value."""
    if carried.is_tensor_like(like):
        return carried.convert(filler, carried.type_of(like))
    return filler


def _common(a: Any, b: Any) -> type[Optional] | None:
    """The optional class that holds both ``a`` and ``b``, if they need one: one is a value or
    an optional, the other missing the same way (or a value)."""
    pair = (_kind(a), _kind(b))
    classes = {k for k in pair if isinstance(k, type)}
    if "other" in pair or len(classes) != 1:
        return None
    if "value" not in pair and not (isinstance(a, Optional) or isinstance(b, Optional)):
        return None  # missing alike on both sides: nothing to carry
    return classes.pop()


def align(a: Any, b: Any, names: Sequence[str]) -> tuple[Any, Any]:
    """The two branches' results (tuples of the variables ``names``), each variable that is
    missing on one side (or optional) and a value on the other made optional on both."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == len(names)):
        return a, b
    left, right = list(a), list(b)
    for i, name in enumerate(names):
        cls = _common(a[i], b[i])
        if cls is not None:  # a missing tuple is shaped as the other side's
            left[i] = _lift(a[i], cls, name, like=_tuple_or_none(b[i]))
            right[i] = _lift(b[i], cls, name, like=_tuple_or_none(a[i]))
    return tuple(left), tuple(right)


def _tuple_or_none(value: Any) -> Any:
    """``value`` (an optional's value) if it is a tuple, which a missing side is shaped as."""
    value = value.value if isinstance(value, Optional) else value
    return value if type(value) is tuple else None


def refuse_kinds(a: Any, b: Any, names: Sequence[str]) -> None:
    """Refuses a variable that is optional (None or unset on some paths) in ``a`` or ``b`` (two
    branches' results, or a loop's start and its body's result) and a number of one kind in one
    and of another in the other: an optional carries one kind."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return
    for name, x, y in zip(names, a, b):
        vx = x.value if isinstance(x, Optional) else x
        vy = y.value if isinstance(y, Optional) else y
        pairs = zip(vx, vy) if type(vx) is type(vy) is tuple else [(vx, vy)]
        if (vx is not x or vy is not y) and any(kinds.differ(p, q) for p, q in pairs):
            raise errors.UnsupportedError(
                f"variable '{name}' is None or unset on some paths and a number of another kind "
                "(a Python number or a NumPy scalar, or another dtype) on others",
                origin.current_location(),
                hint="give it one kind on every path, or a value before the if or loop",
                construct="optional value whose kind depends on the path",
            )


def lift_init(init: Sequence[Any], result: Any, names: Sequence[str]) -> tuple[Any, ...] | None:
    """A loop's initial values with each variable the body's ``result`` makes optional (or sets
    where it starts missing) made optional, or None if there is none."""
    if not isinstance(result, tuple) or len(result) < len(init):
        return None
    lifted = list(init)
    for i, name in enumerate(names[: len(init)]):
        cls = _common(init[i], result[i])
        if cls is not None and not isinstance(init[i], Optional):
            lifted[i] = _lift(init[i], cls, name, like=result[i])
    return tuple(lifted) if any(x is not y for x, y in zip(lifted, init)) else None


def lifting(
    body: Callable[..., tuple[Any, ...]], init: Sequence[Any], names: Sequence[str]
) -> Callable[..., tuple[Any, ...]]:
    """``body`` whose results for the variables that start optional are optional too."""
    if not any(isinstance(v, Optional) for v in init):
        return body
    return carried.map_results(body, init, lambda v, start, i: _like(v, start, names[i]))


def _like(value: Any, start: Any, name: str) -> Any:
    """A body's result ``value`` for a variable that starts as ``start``: optional if it is."""
    if isinstance(start, Optional) and _kind(value) != "other":
        return _lift(value, type(start), name, like=_tuple_or_none(start))
    return value


# ---- results -----------------------------------------------------------------------------


class Boxed:
    """A returned optional: a pytree node that rebuilds as ``None`` or the value when the graph's
    outputs fill it."""

    __slots__ = ("present", "value")

    def __init__(self, present: Any, value: Any):
        self.present, self.value = present, value

    def __tree_children__(self) -> tuple[Any, Any]:
        return (self.present, self.value)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Any:
        present, value = children
        return value if present else None


def boxed(
    result: Any,
    keep: Callable[[Any], bool] = lambda v: False,
    where: errors.SourceLocation | None = None,
) -> Any:
    """``result`` as it leaves the graph: its optionals ``None`` or the value where the flag is
    known now, else ``Boxed`` nodes of the flag and the value, and its tagged numbers boxed by
    their kind (``kinds.boxed``); containers that ``keep`` says are left as they are. ``where``
    (the function) names a refusal made after its code has run."""
    result = choices.boxed(kinds.boxed(result, keep), keep)
    leaves, tree = pytree.flatten(
        result, lambda v: keep(v) or not isinstance(v, (tuple, list, dict))
    )
    if not any(isinstance(v, Optional) for v in leaves):
        return result
    return tree.unflatten([_box(v, where) if isinstance(v, Optional) else v for v in leaves])


def _box(value: Optional, where: errors.SourceLocation | None) -> Any:
    if isinstance(value, MaybeUnset):
        raise errors.UnsupportedError(
            "a value the function returns or leaves in an attribute or container is unbound on "
            "some paths",
            origin.current_location() or where,
            construct="unbound result",
        )
    if tensor.is_symbolic(value.present):
        return Boxed(value.present, kinds.boxed(value.value))
    return value.value if value.present else None
