"""Scalars whose kind depends on the path taken: a Python number on one path of tensor control
flow and a NumPy scalar on another (``r = 0`` then ``r = np.int32(k)`` in a branch not taken).

Stage: build (helpers of ``staging.control_flow``). Input: the values of the variables entering
and leaving an ``if`` on a tensor or a loop over tensors. Output: where a variable is a weak
scalar (a Python number in eager code) on one side and a strong one (a NumPy scalar) on the
other (or scalars of two Python types, or of two dtypes), both sides become a ``Kinded``
pytree node of a run-time kind tag (a code: which kind on this path) and the value, of the joined
type (NEP 50: a Python int joined with ``int32`` stays
``int32``). After the op the variable is the value again, with the tag beside it
(``SymbolicTensor.kind_tag``); a returned tagged value comes back as eager gives it on the path
taken (``boxed``). Values computed from it take the joined type's kind, as before.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph.ir import pytree, types
from tograph.trace import tensor

# what a scalar is in eager code, by the code its kind tag holds: a Python number of the type
# NumPy gives weak scalars of each dtype kind, or a NumPy scalar of one of these dtypes
_PYTHON = {"b": (1, bool), "i": (2, int), "u": (2, int), "f": (3, float), "c": (4, complex)}
_NUMPY = [np.dtype(c) for c in "?bhilqBHILQefdgFDG"]
_BY_CODE: dict[int, Any] = {code: kind for code, kind in _PYTHON.values()}
_BY_CODE.update({16 + i: dtype.type for i, dtype in enumerate(_NUMPY)})


class Kinded:
    """A scalar and its kind tag (an int8 code: which Python number or NumPy scalar it is on the
    path taken), carried as two leaves through ``cond`` and ``while_loop``."""

    __slots__ = ("code", "value")

    def __init__(self, code: Any, value: Any):
        self.code, self.value = code, value

    def __tree_children__(self) -> tuple[Any, Any]:
        return (self.code, self.value)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Kinded:
        return cls(*children)

    def __repr__(self) -> str:
        return f"Kinded({self.code!r}, {self.value!r})"


def _kind(value: Any) -> int | None:
    """The kind code of a scalar (a NumPy scalar, or a weak one: a Python number in eager
    code), None for anything else (arrays, 0-d arrays, tagged values, containers)."""
    if isinstance(value, tensor.SymbolicTensor):
        t = value.graph_var.type
        if value.array0d or value.kind_tag is not None or not isinstance(t, types.TensorType):
            return None
        return _code(t.dtype, t.weak) if t.shape == () else None
    if types.is_python_scalar(value):
        return _code(np.asarray(value).dtype, weak=True)
    return _code(value.dtype, weak=False) if isinstance(value, np.generic) else None


def _code(dtype: np.dtype, weak: bool) -> int | None:
    if weak:
        return _PYTHON[dtype.kind][0] if dtype.kind in _PYTHON else None
    return 16 + _NUMPY.index(dtype) if dtype in _NUMPY else None


def _tagged(value: Any) -> bool:
    return isinstance(value, Kinded) or (
        isinstance(value, tensor.SymbolicTensor) and value.kind_tag is not None
    )


def _lift(value: Any) -> Any:
    """``value`` as a ``Kinded`` (it is one, a tagged tensor, or a scalar of a known kind)."""
    if isinstance(value, Kinded):
        return value
    if isinstance(value, tensor.SymbolicTensor) and value.kind_tag is not None:
        return Kinded(value.kind_tag, value)
    return Kinded(np.int8(_kind(value)), value)


def _needs_tag(a: Any, b: Any) -> bool:
    """Whether two values of one variable need a kind tag: scalars of different kinds, or a
    tagged value facing a scalar or another tagged value."""
    if _tagged(a) or _tagged(b):
        return (_tagged(a) or _kind(a) is not None) and (_tagged(b) or _kind(b) is not None)
    ka, kb = _kind(a), _kind(b)
    return ka is not None and kb is not None and ka != kb


def align(a: Any, b: Any, names: Sequence[str]) -> tuple[Any, Any]:
    """The two branches' results (tuples of the variables ``names``), each variable whose kind
    differs between them made ``Kinded`` on both sides."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == len(names)):
        return a, b
    pairs = [(_lift(x), _lift(y)) if _needs_tag(x, y) else (x, y) for x, y in zip(a, b)]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def lift_init(init: Sequence[Any], result: Any) -> tuple[Any, ...] | None:
    """A loop's initial values with each variable whose kind the body's ``result`` changes made
    ``Kinded``, or None if there is none."""
    if not isinstance(result, tuple) or len(result) < len(init):
        return None
    lifted = [
        _lift(v) if not isinstance(v, Kinded) and _needs_tag(v, out) else v
        for v, out in zip(init, result)
    ]
    return tuple(lifted) if any(x is not y for x, y in zip(lifted, init)) else None


def enter(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values entering control flow, tagged tensors among them as ``Kinded`` (so the tag is
    carried with them)."""
    return tuple(_lift(v) if _tagged(v) else v for v in values)


def expose(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values as user code sees them: each ``Kinded`` becomes its value with the tag beside it
    (with a static tag: the value itself, which is of its path's kind already)."""
    return tuple(_expose(v) if isinstance(v, Kinded) else v for v in values)


def _expose(value: Kinded) -> Any:
    if not tensor.is_symbolic(value.code):
        return value.value
    inner = value.value
    if isinstance(inner, tensor.SymbolicTensor):
        inner = inner.plain()
        inner.kind_tag = value.code
    return inner


def inside(fn: Callable[..., Any], results: bool) -> Callable[..., Any]:
    """``fn`` (a branch, loop test or body) seeing its arguments exposed; with ``results``, the
    tuple it returns has its tagged tensors ``Kinded`` again (the structure they entered with)."""

    def run(*values: Any) -> Any:
        out = fn(*expose(values))
        return enter(out) if results and isinstance(out, tuple) else out

    return run


def lifting(
    body: Callable[..., tuple[Any, ...]], init: Sequence[Any]
) -> Callable[..., tuple[Any, ...]]:
    """``body`` whose results for the variables that start ``Kinded`` are ``Kinded`` too."""
    if not any(isinstance(v, Kinded) for v in init):
        return body

    def lifted(*values: Any) -> tuple[Any, ...]:
        result = tuple(body(*values))
        head = [
            _lift(v) if isinstance(start, Kinded) and (_tagged(v) or _kind(v) is not None) else v
            for v, start in zip(result, init)
        ]
        return (*head, *result[len(init) :])

    return lifted


# ---- results -----------------------------------------------------------------------------


class Boxed:
    """A returned tagged scalar: rebuilt as a NumPy scalar or a Python number by its tag."""

    __slots__ = ("code", "value")

    def __init__(self, code: Any, value: Any):
        self.code, self.value = code, value

    def __tree_children__(self) -> tuple[Any, Any]:
        return (self.code, self.value)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Any:
        code, value = children
        kind = _BY_CODE[int(code)]
        if isinstance(kind, type) and issubclass(kind, np.generic):
            return kind(value)
        return kind(value.item() if isinstance(value, np.generic) else value)


def boxed(result: Any) -> Any:
    """``result`` with each tagged tensor in its containers a ``Boxed`` node of its tag and
    value (other nodes are left as they are)."""
    leaves, tree = pytree.flatten(result, lambda v: not isinstance(v, (tuple, list, dict)))
    if not any(_tagged(v) for v in leaves):
        return result
    return tree.unflatten([Boxed(v.kind_tag, v) if _tagged(v) else v for v in leaves])
