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
taken (``boxed``). Values computed from it by elementwise operations are tagged by
``ops.path_kinds`` with their own kind on each path.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph.ir import pytree, types
from tograph.ops import elementwise
from tograph.staging import carried
from tograph.trace import tensor


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
    """The kind code of a scalar (``types.kind_code``: a NumPy scalar, or a weak one, a Python
    number in eager code), None for anything else (arrays, 0-d arrays, tagged values)."""
    if isinstance(value, tensor.SymbolicTensor):
        t = value.graph_var.type
        if value.array0d or value.kind_tag is not None or not isinstance(t, types.TensorType):
            return None
        return types.kind_code(t.dtype, t.weak) if t.shape == () else None
    if types.is_python_scalar(value):
        return types.kind_code(np.asarray(value).dtype, weak=True)
    return types.kind_code(value.dtype, weak=False) if isinstance(value, np.generic) else None


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
    pairs = [_align_pair(x, y) for x, y in zip(a, b)]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def _align_pair(a: Any, b: Any) -> tuple[Any, Any]:
    """Two values of one variable, ``Kinded`` where their kinds differ; tuples and lists of one
    length are aligned item by item (``return x, 0.0`` on one path, ``return x, s`` on another)."""
    if _needs_tag(a, b):
        return _tag_pair(a, b)
    if type(a) is type(b) and type(a) in (tuple, list) and len(a) == len(b):
        pairs = [_align_pair(x, y) for x, y in zip(a, b)]
        return type(a)(p[0] for p in pairs), type(b)(p[1] for p in pairs)
    return a, b


def _tag_pair(a: Any, b: Any) -> tuple[Kinded, Kinded]:
    """Both values ``Kinded``, each held exactly by the join (``_exactly``)."""
    la, lb = _lift(a), _lift(b)
    return _exactly(la, lb.value), _exactly(lb, la.value)


def _exactly(side: Kinded, other: Any) -> Kinded:
    """``side``, whose Python number the other side's dtype cannot hold exactly carried as a
    NumPy scalar of the number's own dtype (0.1 facing a float32: a float64), so that the join
    holds it and it comes back as it was."""
    value = side.value
    if not types.is_python_scalar(value) or not carried.is_tensor_like(other):
        return side
    held = carried.type_of(other)
    if held.weak or _holds(held.dtype, value, np.asarray(value).dtype):
        return side
    return Kinded(side.code, np.asarray(value)[()])


def lift_init(init: Sequence[Any], result: Any) -> tuple[Any, ...] | None:
    """A loop's initial values with each variable whose kind the body's ``result`` changes made
    ``Kinded``, or None if there is none."""
    if not isinstance(result, tuple) or len(result) < len(init):
        return None
    lifted = [
        _tag_pair(v, out)[0] if not isinstance(v, Kinded) and _needs_tag(v, out) else v
        for v, out in zip(init, result)
    ]
    return tuple(lifted) if any(x is not y for x, y in zip(lifted, init)) else None


def enter(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values entering control flow, tagged tensors among them as ``Kinded`` (so the tag is
    carried with them)."""
    return tuple(_enter(v) for v in values)


def _enter(value: Any) -> Any:
    if _tagged(value):
        return _lift(value)
    if type(value) in (tuple, list):
        return type(value)(_enter(v) for v in value)
    return value


def expose(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values as user code sees them: each ``Kinded`` becomes its value with the tag beside it
    (with a static tag: the value itself, which is of its path's kind already)."""
    return tuple(_expose(v) for v in values)


def _expose(value: Any) -> Any:
    if type(value) in (tuple, list):
        return type(value)(_expose(v) for v in value)
    if not isinstance(value, Kinded):
        return value
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
        return types.of_kind(code, value)


def boxed(result: Any, keep: Callable[[Any], bool] = lambda v: False) -> Any:
    """``result`` with each tagged tensor in its containers a ``Boxed`` node of its tag and
    value (other nodes, and containers that ``keep`` says, are left as they are)."""
    leaves, tree = pytree.flatten(
        result, lambda v: keep(v) or not isinstance(v, (tuple, list, dict))
    )
    if not any(_tagged(v) for v in leaves):
        return result
    return tree.unflatten([Boxed(v.kind_tag, v) if _tagged(v) else v for v in leaves])


# ---- selects -----------------------------------------------------------------------------


def select(test: Any, a: Any, b: Any) -> Any:
    """``a if test else b`` of two scalars as one select (Python's ``min`` and ``max``): their
    joined value, tagged with the kind of the one picked when their kinds differ. The join is
    widened where it cannot hold a Python number exactly (0.1 and a ``float32``: ``float64``),
    so the value comes back as eager gives it on either path."""
    la, lb = (_lift(a), _lift(b)) if _needs_tag(a, b) else (None, None)
    va, vb = (la.value, lb.value) if la is not None and lb is not None else (a, b)
    joined = types.join(carried.type_of(va), carried.type_of(vb))
    if la is not None and isinstance(joined, types.TensorType):
        joined = _exact(joined, va, vb)
    value = np.where(test, carried.convert(va, joined), carried.convert(vb, joined))
    value = elementwise.astype_p.bind(value, dtype=joined.dtype, weak=joined.weak)
    if la is not None and lb is not None:
        value.kind_tag = np.where(test, la.code, lb.code)
    return value


def _exact(joined: types.TensorType, *sides: Any) -> types.TensorType:
    """``joined``, promoted to hold every weak side's values exactly."""
    for side in sides:
        t = carried.type_of(side)
        if t.weak and not _holds(joined.dtype, side, t.dtype):
            joined = types.TensorType(np.promote_types(joined.dtype, t.dtype), (), False)
    return joined


def _holds(target: np.dtype, side: Any, dtype: np.dtype) -> bool:
    """Whether ``target`` holds every value a weak ``side`` of natural ``dtype`` may have."""
    if np.can_cast(dtype, target, "safe"):
        return True
    if not types.is_python_scalar(side):
        return False
    with np.errstate(all="ignore"):
        try:
            back = np.asarray(side).astype(target).item()  # compared exactly, as Python numbers
        except (OverflowError, ValueError):
            return False
    return bool(back == side) or (side != side and back != back)
