"""Which array a value is on the path taken: an argument returned on some paths of tensor control
flow and a new array on others (``if c: return x * 2`` then ``return x``, a loop that may run no
time), or a view of one.

Stage: build (helpers of ``staging.control_flow`` and ``staging.build_graph``). A ``cond`` or
``while_loop`` output is a new graph value, so the graph alone cannot say that eager would
return the caller's very array. Each argument array, or view of one, that flows into a branch or
loop state is given a code (``code_of``: its index among the ``Entry``s of the graph being built,
or ``FRESH`` for any other array); where the codes of a variable's array (or an object's
attribute's) differ between the paths, an int64 identity tag is carried beside it as one more
value of the op (``SymbolicTensor.identity``), computed when the graph runs. A returned (or
attribute-set) tagged array is then, by its tag, the caller's argument (or the same view of it)
or the computed value
(``build_graph.Tagged``). Copies (``x.copy()``) are new tensor objects, so they never take an
argument's code even where the graph elides them. A view of an array whose tag is only known
when the graph runs cannot be named by one code (``UNKNOWN``): returning one falls back.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import dataclasses
import weakref
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.trace import context, tensor

FRESH = np.int64(-1)  # an array made inside the control flow: no argument on this path
UNKNOWN = np.int64(-2)  # a view of an array whose identity is decided at run time


@dataclasses.dataclass(frozen=True, eq=False)
class Entry:
    """What a code names: the top-level array ``array`` (an argument or a view of one), then the
    view ``steps`` taken of it (``functional.ViewStep``)."""

    array: Any
    steps: tuple[Any, ...] = ()


class _Registry:
    """The codes of one graph being built: its entries, and where a value's identity could not
    be named (the first such line), for the fallback reason."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.codes: dict[int, np.int64] = {}
        self.arguments: dict[int, np.int64] = {}  # id of an argument's graph input -> its code
        self.unknown: errors.SourceLocation | None = None

    def add(self, array: Any, steps: tuple[Any, ...] = ()) -> np.int64:
        key = id(array) if not steps else None
        if key is not None and key in self.codes:
            return self.codes[key]
        self.entries.append(Entry(array, steps))
        code = np.int64(len(self.entries) - 1)
        if key is not None:
            self.codes[key] = code
        return code


_registries: weakref.WeakKeyDictionary[Any, _Registry] = weakref.WeakKeyDictionary()


def registry(builder: Any | None = None) -> _Registry:
    """The codes of the graph that ``builder`` (or the current builder) belongs to."""
    root = (builder if builder is not None else context.current()).root()
    found = _registries.get(root)
    if found is None:
        found = _registries[root] = _Registry()
    return found


def is_static(code: Any) -> bool:
    return not isinstance(code, tensor.Symbolic)


def _at_top(value: Any, root: Any) -> bool:
    """Whether ``value`` (a symbolic tensor or a view step's operand) belongs to the top-level
    graph ``root``: a view of it can be taken again of the caller's array."""
    if isinstance(value, tensor.SymbolicTensor):
        builder = value._builder if value._storage is None else value._storage.born
        return builder is root and all(_at_top(o, root) for s in value._path for o in s.operands)
    if isinstance(value, tensor.Symbolic):
        return value.builder is root
    return True


def code_of(value: Any) -> Any:
    """The identity code of ``value`` where it is now: an int64 (``FRESH``, ``UNKNOWN`` or an
    entry's index) or a symbolic int64 tag."""
    if not isinstance(value, tensor.SymbolicTensor):
        return FRESH
    if value.identity is not None:
        return value.identity
    if not value.is_array:
        return FRESH
    found = registry()
    root = context.current().root()
    storage = value._storage
    base = storage.identity if storage is not None else None
    if base is not None:  # a view of a tagged array
        operands = all(_at_top(o, root) for step in value._path for o in step.operands)
        if is_static(base) and base == FRESH:
            return FRESH
        if not is_static(base) or base == UNKNOWN or not operands:
            found.unknown = found.unknown or origin.current_location()
            return UNKNOWN
        entry = found.entries[int(base)]
        return found.add(entry.array, (*entry.steps, *value._path))
    began = value._var if storage is None else storage.began
    argument = any(began is var for var in root.inputs)
    if not (argument and _at_top(value, root)):
        return FRESH
    if value._path:
        return found.add(value)
    code = found.arguments.get(id(began))  # the argument itself: one code for its tensors
    if code is None:
        code = found.arguments[id(began)] = found.add(value)
    return code


def same_array(left: Any, right: Any) -> Any:
    """``left is right`` for two array tensors that are distinct objects while the graph is built
    (a loop or branch output stands for the array its path left in the variable): True or False
    when their codes decide it, a bool tensor when one is a tag and the other names an argument,
    and None when identity is not followed that far: arrays made here, views of tagged arrays,
    and two arguments, which one call may pass the very same array for (``f(a, a)``) and
    another not, while the compiled function serves both."""
    found = registry()
    codes = [code_of(v) for v in (left, right)]
    named = [is_static(c) and c >= 0 and not found.entries[int(c)].steps for c in codes]
    fresh = [is_static(c) and c == FRESH for c in codes]
    arguments = set(found.arguments.values())
    if all(named):
        if codes[0] == codes[1]:
            return True
        return None if all(c in arguments for c in codes) else False
    if (named[0] and fresh[1]) or (fresh[0] and named[1]):
        return False  # an argument or a view of one is not an array made by the function
    for tag, other, other_named in ((codes[0], codes[1], named[1]), (codes[1], codes[0], named[0])):
        if is_static(tag) or not other_named:
            continue
        if other not in arguments or not (arguments - {other}):  # another could be its twin
            return np.equal(tag, other)
    return None


def enter(inner: Any, outer: Any) -> None:
    """Gives ``inner``, the branch input standing for ``outer``, ``outer``'s identity."""
    if isinstance(inner, tensor.SymbolicTensor):
        code = code_of(outer)
        if not (is_static(code) and code == FRESH):
            inner.identity = code


def needs_tag(codes: list[Any]) -> bool:
    """Whether a value whose codes on the paths are ``codes`` needs an identity tag."""
    return not all(is_static(c) and c == FRESH for c in codes)


def mark(value: Any, tag: Any) -> None:
    """Gives ``value`` (an output of the op, standing for a variable's array) its tag."""
    if isinstance(value, tensor.SymbolicTensor) and not (is_static(tag) and tag == FRESH):
        value.identity = tag


def tag_name(path: str) -> str:
    return f"{path} identity"


def refuse_unknown(where: Any) -> None:
    """Falls back: a returned array's identity includes a view that no code names."""
    found = registry(where)
    raise errors.UnsupportedError(
        "a result may be a view of an argument on some paths only, through a view whose "
        "array is decided when the graph runs, so whether it shares the caller's memory "
        "cannot be followed",
        loc=found.unknown or origin.current_location(),
        construct="path-dependent view returned",
    )
