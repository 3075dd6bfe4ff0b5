"""Run-time kinds: values whose Python kind depends on the path a tensor ``if`` takes.

Stage: build (a helper of ``staging.control_flow`` and ``staging.build_graph``). In eager code
``x[0] if c else 0.5`` is a NumPy ``float32`` on one path and a Python ``float`` on the other; a
graph value has one type. A ``cond`` joining scalars of different *kinds* (dtype, Python or NumPy,
0-d array or NumPy scalar) therefore also outputs a *tag*, an ``int64`` that says which kind the
branch taken gave, and the joined value carries it (``SymbolicTensor.kinds``). A result leaf
with a tag becomes a ``Kinded`` slot: the call converts the value to the kind its tag names, so
the caller gets what eager code would have returned. An operation on tagged values (``propagate``,
which ``trace.builder`` calls) is kept when it computes the same values for every kind, as ``+``
does for a Python float and a ``float64``: its result is tagged with the kind each combination
gives. Any other operation on one (a ``float32`` that was computed as ``float64``, a division,
which raises for a Python zero, a print) cannot be traced faithfully and falls back. Inside a
loop over tensors no ``if`` tags: a tag would not survive the loop's carries, whose kind is
their joined type.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import types
from tograph.trace import builder as builder_mod
from tograph.trace import tensor

# A scalar's kind: its dtype, whether it is a Python number (weak), whether it is a 0-d array.
Kind = tuple[np.dtype, bool, bool]
_PYTHON = {"b": bool, "i": int, "f": float, "c": complex}
# Primitives computing the same value for a Python number and a NumPy scalar of one dtype (a
# division would not: a Python float raises ZeroDivisionError where NumPy gives inf).
_SAME_VALUES = frozenset(
    {"add", "subtract", "multiply", "negative", "positive", "abs"}
    | {"less", "less_equal", "greater", "greater_equal", "equal", "not_equal"}
)
# Primitives whose result is independent of the kinds of all operands but the first (an index,
# a value stored into an array).
_FIRST_DECIDES = frozenset({"getitem", "setitem"})


@dataclasses.dataclass(frozen=True)
class Kinds:
    """The kinds a value may have, and the ``int64`` tensor saying which one it has."""

    tag: Any
    alternatives: tuple[Kind, ...]


@dataclasses.dataclass(frozen=True)
class Kinded:
    """A result leaf of a run-time kind: graph output ``index`` converted to the kind among
    ``alternatives`` that output ``tag`` names."""

    index: int
    tag: int
    alternatives: tuple[Kind, ...]

    def value(self, outputs: Sequence[Any]) -> Any:
        value, tag = outputs[self.index], outputs[self.tag]
        if isinstance(value, tensor.SymbolicTensor):  # the graph inlined in another trace
            value.kinds = Kinds(tag, self.alternatives)
            return value
        return convert(value, self.alternatives[int(tag)])


def convert(value: Any, kind: Kind) -> Any:
    """``value`` as a value of ``kind``: a Python number, a NumPy scalar or a 0-d array."""
    dtype, weak, array0d = kind
    if weak:
        return _PYTHON[dtype.kind](value)
    if array0d:
        return np.array(value, dtype=dtype)
    return dtype.type(value)


def kind_of(value: Any) -> Kind | None:
    """The kind of a scalar leaf (a Python number, a NumPy scalar or 0-d array, a 0-d tensor);
    None for anything else."""
    if isinstance(value, tensor.SymbolicTensor):
        t = value.type
        return (t.dtype, t.weak, value.array0d) if t.shape == () else None
    if not tensor.is_number(value) or np.ndim(value) != 0:
        return None
    return (
        types.type_of(value).dtype,
        types.is_python_scalar(value),
        isinstance(value, np.ndarray),
    )


def alternatives(value: Any) -> tuple[Kind, ...]:
    """The kinds ``value`` may have at run time (one, unless it carries a tag)."""
    found = getattr(value, "kinds", None)
    if found is not None:
        return tuple(found.alternatives)
    kind = kind_of(value)
    return () if kind is None else (kind,)


def union(a: Any, b: Any) -> tuple[Kind, ...] | None:
    """The kinds the join of ``a`` and ``b`` may have, when there are several (else None, as
    inside a loop over tensors)."""
    left, right = alternatives(a), alternatives(b)
    if not left or not right or _in_loop():
        return None
    joined = tuple(dict.fromkeys((*left, *right)))
    return joined if len(joined) > 1 else None


def _in_loop() -> bool:
    """Whether the graph being built is a while loop's test or body, or inside one."""
    builder = builder_mod.current()
    while builder is not None:
        if builder.name in ("body", "cond"):
            return True
        builder = builder.parent
    return False


def tag(value: Any, choices: tuple[Kind, ...]) -> Any:
    """The index in ``choices`` of ``value``'s kind: an ``int64`` constant, or, for a tagged
    value, its tag mapped to ``choices`` (an equation of the graph being built)."""
    found = getattr(value, "kinds", None)
    if found is None:
        return np.int64(choices.index(alternatives(value)[0]))
    mapping = [choices.index(k) for k in found.alternatives]
    if mapping == list(range(len(mapping))):
        return found.tag
    mapped = np.int64(mapping[0])
    for old, new in enumerate(mapping[1:], 1):
        mapped = np.where(found.tag == old, np.int64(new), mapped)
    return mapped


def attach(value: Any, tag_value: Any, choices: tuple[Kind, ...]) -> None:
    """Marks the joined ``value`` (a cond output) as having the kind ``tag_value`` names."""
    if isinstance(value, tensor.SymbolicTensor):
        value.kinds = Kinds(tag_value, choices)


@contextlib.contextmanager
def ignored(*values: Any) -> Iterator[None]:
    """Lets operations use ``values`` whatever their kinds, for a result whose kind does not
    matter (the truth of a comparison, a value tagged anew): ``trace.builder`` refuses them."""
    saved = [(v, v.kinds) for v in values if isinstance(v, tensor.SymbolicTensor)]
    for value, _ in saved:
        value.kinds = None
    try:
        yield
    finally:
        for value, found in saved:
            value.kinds = found


def exact_join(a: Any, b: Any, joined: types.TensorType) -> types.TensorType:
    """``joined`` (NumPy's promotion of two kinds), widened when it cannot hold one side's values
    exactly: a Python float joined with a ``float32`` is a ``float64`` unless it is a constant
    that ``float32`` holds, so that converting to either kind gives eager's value."""
    if joined.shape != () or union(a, b) is None:
        return joined
    for side in (a, b):
        for dtype, weak, _ in alternatives(side):
            if weak and not _holds(joined.dtype, side, dtype):
                return types.TensorType(np.promote_types(joined.dtype, dtype), (), False)
    return joined


def _holds(target: np.dtype, side: Any, dtype: np.dtype) -> bool:
    """Whether ``target`` holds every value a weak ``side`` of natural ``dtype`` may have."""
    if np.can_cast(dtype, target, "safe"):
        return True
    if not types.is_python_scalar(side):
        return False
    with np.errstate(all="ignore"):
        try:
            converted = np.asarray(side).astype(target)[()]
        except (OverflowError, ValueError):
            return False
    back = converted.item()  # a Python number: compared exactly, not in ``target``'s precision
    return bool(back == side) or (side != side and back != back)


def propagate(prim: Any, args: Sequence[Any], params: dict[str, Any], results: Any) -> None:
    """Tags the result of ``prim`` on tagged ``args`` with the kind each combination of their
    kinds gives eagerly; raises ``UnsupportedError`` when that cannot be done exactly."""
    if prim.name in _FIRST_DECIDES and getattr(args[0], "kinds", None) is None:
        return
    if prim.name not in _SAME_VALUES or not isinstance(results, tensor.SymbolicTensor):
        raise _refused(prim.name)
    options = [_computed_kinds(a, prim.name) for a in args]
    combos = list(itertools.product(*options))
    given = []
    for combo in combos:
        t = prim.out_types([types.TensorType(d, (), weak) for d, weak, _ in combo], params)[0]
        if t.dtype != results.type.dtype:
            raise _refused(prim.name)
        given.append((t.dtype, t.weak, False))
    choices = tuple(dict.fromkeys(given))
    if choices == ((results.type.dtype, results.type.weak, False),):
        return
    if _in_loop():
        raise _refused(prim.name)
    index: Any = np.int64(0)
    for arg, kinds_of_arg in zip(args, options):
        found = getattr(arg, "kinds", None)
        index = index * len(kinds_of_arg) + (found.tag if found is not None else np.int64(0))
    mapped: Any = np.int64(choices.index(given[0]))
    for k, kind in enumerate(given[1:], 1):
        mapped = np.where(index == k, np.int64(choices.index(kind)), mapped)
    attach(results, mapped, choices)


def refuse_carried(leaves: Sequence[Any]) -> None:
    """Raises ``UnsupportedError`` for a tagged value among a loop's variables: its carries have
    one kind, so the loop would lose which kind each has."""
    if any(getattr(leaf, "kinds", None) is not None for leaf in leaves):
        raise _refused("a loop over tensors")


def _computed_kinds(value: Any, name: str) -> tuple[Kind, ...]:
    """The kinds of an operand, which must all have the dtype the graph computes it in."""
    found = alternatives(value)
    dtype = value.type.dtype if isinstance(value, tensor.SymbolicTensor) else None
    if dtype is None and found:
        dtype = types.type_of(value).dtype
    if not found or any(d != dtype for d, _, _ in found):
        raise _refused(name)
    return found


def _refused(name: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{name} of a number whose kind (Python or NumPy, dtype) depends on the way an if over "
        "tensors went, which tograph cannot compute for each kind",
        origin.current_location(),
        construct="a number whose kind the data decides",
    )


builder_mod.set_kind_rule(propagate)
