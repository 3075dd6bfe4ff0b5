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
taken (``boxed``). An operation on a tagged value is ``staging.kind_rules``' to decide.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import pytree, types
from tograph.ops import elementwise
from tograph.staging import carried
from tograph.trace import builder as builder_mod
from tograph.trace import containers, tensor

_Builders = tuple[builder_mod.GraphBuilder | None, builder_mod.GraphBuilder | None]


class Kinded:
    """A scalar and its kind tag (an int8 code: which Python number or NumPy scalar it is on the
    path taken), carried as two leaves through ``cond`` and ``while_loop``, and the codes the
    tag may hold (a static leaf, the same on every path)."""

    __slots__ = ("code", "value", "options")
    __tree_describe__ = "a number that is a Python number on some paths, a NumPy scalar on others"

    def __init__(self, code: Any, value: Any, options: frozenset[int]):
        self.code, self.value, self.options = code, value, options

    def __tree_children__(self) -> tuple[Any, Any, frozenset[int]]:
        return (self.code, self.value, self.options)

    @classmethod
    def __tree_build__(cls, children: Sequence[Any]) -> Kinded:
        code, value, options = children
        # a return value not yet set stands in with a Placeholder for every leaf, options too
        return cls(code, value, options if isinstance(options, frozenset) else frozenset())

    def __repr__(self) -> str:
        return f"Kinded({self.code!r}, {self.value!r}, {sorted(self.options)})"


def _kind(value: Any) -> int | None:
    """The kind code of a scalar (``types.kind_code``: a NumPy scalar, a 0-d array, symbolic or
    made while tracing, or a weak one, a Python number in eager code), None for anything else
    (arrays, tagged values)."""
    if isinstance(value, tensor.SymbolicTensor):
        t = value.graph_var.type
        if value.kind_tag is not None or not isinstance(t, types.TensorType):
            return None
        return types.kind_code(t.dtype, t.weak, value.array0d) if t.shape == () else None
    if types.is_python_scalar(value):
        return types.kind_code(np.asarray(value).dtype, weak=True)
    if isinstance(value, np.ndarray) and value.ndim == 0:  # made while tracing: np.zeros(())
        return types.kind_code(value.dtype, weak=False, array=True)
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
        return Kinded(value.kind_tag, value, value.kind_options)
    code = _kind(value)
    if code is None:
        raise errors.InternalError(f"{value!r} has no kind code. This is a bug")
    return Kinded(np.int8(code), value, frozenset({code}))


def differ(a: Any, b: Any) -> bool:
    """Whether two values of one variable are scalars of different kinds (or tagged)."""
    return _needs_tag(a, b)


def _needs_tag(a: Any, b: Any) -> bool:
    """Whether two values of one variable need a kind tag: scalars of different kinds, or a
    tagged value facing a scalar or another tagged value."""
    if _tagged(a) or _tagged(b):
        return (_tagged(a) or _kind(a) is not None) and (_tagged(b) or _kind(b) is not None)
    ka, kb = _kind(a), _kind(b)
    return ka is not None and kb is not None and ka != kb


def align(
    a: Any, b: Any, names: Sequence[str], builders: _Builders = (None, None)
) -> tuple[Any, Any]:
    """The two branches' results (tuples of the variables ``names``), each variable whose kind
    differs between them (or an item of theirs: a dict entry, a list or tuple item) made
    ``Kinded`` on both sides; ``builders`` are the branches' own, where a value is widened to
    be held exactly by the join (``_exactly``)."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) == len(names)):
        return a, b
    pairs = [_align_one(x, y, builders) for x, y in zip(a, b)]
    return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)


def _align_one(a: Any, b: Any, builders: _Builders) -> tuple[Any, Any]:
    if _needs_tag(a, b):
        return _tag_pair(a, b, builders)
    (la, ta), (lb, tb) = _items(a), _items(b)
    if ta != tb or not any(_needs_tag(x, y) for x, y in zip(la, lb)):
        return a, b
    pairs = [_tag_pair(x, y, builders) if _needs_tag(x, y) else (x, y) for x, y in zip(la, lb)]
    return ta.unflatten([p[0] for p in pairs]), tb.unflatten([p[1] for p in pairs])


def _items(value: Any) -> tuple[list[Any], pytree.TreeDef]:
    """The items of the tuples, lists and dicts nested in ``value`` (other nodes are items)."""
    return pytree.flatten(value, lambda v: not _is_container(v))


def _is_container(value: Any) -> bool:
    return type(value) in (list, dict) or isinstance(value, tuple)


def _tag_pair(a: Any, b: Any, builders: _Builders) -> tuple[Kinded, Kinded]:
    """Both values ``Kinded``, each held exactly by the join (``_exactly``, in the builder of
    its side)."""
    la, lb = _lift(a), _lift(b)
    options = la.options | lb.options
    la, lb = Kinded(la.code, la.value, options), Kinded(lb.code, lb.value, options)
    return _exactly(la, lb.value, builders[0]), _exactly(lb, la.value, builders[1])


def _exactly(side: Kinded, other: Any, builder: builder_mod.GraphBuilder | None) -> Kinded:
    """``side``, whose Python number the other side's dtype cannot hold exactly carried as a
    NumPy scalar of the number's own dtype (0.1 facing a float32: a float64; a weak float64
    computed in the graph, as ``math.cos(x)``, facing a float32: a strong float64, cast in
    ``builder``, the graph that made it), so that the join holds it and it comes back as it
    was: a weak value joined with a strong one takes the strong one's dtype (NEP 50)."""
    value = side.value
    if not carried.is_tensor_like(other) or carried.type_of(other).weak:
        return side
    held = carried.type_of(other).dtype
    if types.is_python_scalar(value):
        if holds(held, value, np.asarray(value).dtype):
            return side
        return Kinded(side.code, np.asarray(value)[()], side.options)
    if not isinstance(value, tensor.SymbolicTensor) or not value.type.weak or builder is None:
        return side
    if np.can_cast(value.dtype, held, "safe"):
        return side
    with builder.active():
        strong = elementwise.astype_p.bind(value, dtype=value.dtype, weak=False)
    return Kinded(side.code, strong, side.options)


def lift_init(init: Sequence[Any], result: Any) -> tuple[Any, ...] | None:
    """A loop's initial values with each variable (or item of one) whose kind the body's
    ``result`` changes made ``Kinded``, or None if there is none."""
    if not isinstance(result, tuple) or len(result) < len(init):
        return None
    lifted = [_lift_start(v, out) for v, out in zip(init, result)]
    return tuple(lifted) if any(x is not y for x, y in zip(lifted, init)) else None


def _lift_start(start: Any, out: Any) -> Any:
    """A loop variable's initial value, ``Kinded`` where the body's result ``out`` needs it (in
    its items too), with every kind the result may have among its options."""
    if not _is_container(start):
        return _lift_leaf(start, out)
    (items, tree), (outs, out_tree) = _items(start), _items(out)
    if tree != out_tree:
        return start
    lifted = [_lift_leaf(v, o) for v, o in zip(items, outs)]
    if all(x is y for x, y in zip(lifted, items)):
        return start
    return _rebuilt(start, tree.unflatten(lifted))


def _lift_leaf(start: Any, out: Any) -> Any:
    if isinstance(start, Kinded):
        if isinstance(out, Kinded) and not out.options <= start.options:
            return Kinded(start.code, start.value, start.options | out.options)
        return start
    if not _needs_tag(start, out):
        return start
    return _tag_pair(start, out, (builder_mod.current(), None))[0]


def _rebuilt(original: Any, copy: Any) -> Any:
    """``copy``, a rebuilt ``original``, whose lists and dicts stand for the original's."""
    containers.register_copies(original, copy)
    return copy


def enter(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values entering control flow, tagged tensors among them (and among their items) as
    ``Kinded``, so the tag is carried with them."""
    return tuple(_enter_one(v) for v in values)


def _enter_one(value: Any) -> Any:
    if _tagged(value):
        return _lift(value)
    if not _is_container(value):
        return value
    items, tree = _items(value)
    if not any(_tagged(v) for v in items):
        return value
    return _rebuilt(value, tree.unflatten([_lift(v) if _tagged(v) else v for v in items]))


def expose(values: Sequence[Any]) -> tuple[Any, ...]:
    """Values as user code sees them: each ``Kinded`` (an item of a list or dict too, which is
    changed in place) becomes its value with the tag beside it (with a static tag: the value
    itself, which is of its path's kind already)."""
    return tuple(_expose_one(v) for v in values)


def _expose_one(value: Any) -> Any:
    if isinstance(value, Kinded):
        return _expose(value)
    if type(value) is dict:
        for key, item in value.items():
            value[key] = _expose_one(item)
    elif type(value) is list:
        value[:] = [_expose_one(item) for item in value]
    elif isinstance(value, tuple):
        items = [_expose_one(item) for item in value]
        if any(x is not y for x, y in zip(items, value)):
            return pytree.rebuild(value, items)
    return value


def _expose(value: Any) -> Any:
    if not isinstance(value, Kinded):
        return value
    if not tensor.is_symbolic(value.code):
        return value.value
    inner = value.value
    if isinstance(inner, tensor.SymbolicTensor):
        inner = inner.plain()
        inner.kind_tag, inner.kind_options = value.code, value.options
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
    if not any(isinstance(v, Kinded) for start in init for v in _items(start)[0]):
        return body
    return carried.map_results(body, init, lambda v, start, _: _like(v, start))


def _like(value: Any, start: Any) -> Any:
    """A body's result for a variable that starts as ``start``: ``Kinded`` where it is (in its
    items too), with the start's options besides its own."""
    if isinstance(start, Kinded):
        if not (_tagged(value) or _kind(value) is not None):
            return value
        lifted = _lift(value)
        options = start.options | lifted.options
        return _exactly(
            Kinded(lifted.code, lifted.value, options), start.value, builder_mod.current()
        )
    if not _is_container(start):
        return value
    (starts, tree), (items, out_tree) = _items(start), _items(value)
    if tree != out_tree or not any(isinstance(v, Kinded) for v in starts):
        return value
    return _rebuilt(value, out_tree.unflatten([_like(v, s) for v, s in zip(items, starts)]))


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
    value, and each 0-d array one whose tag says so (a graph may compute it as a NumPy scalar);
    other nodes, and containers that ``keep`` says, are left as they are."""
    leaves, tree = pytree.flatten(
        result, lambda v: keep(v) or not isinstance(v, (tuple, list, dict))
    )
    if not any(_tagged(v) or _is_0d_array(v) for v in leaves):
        return result
    return tree.unflatten([_box(v) for v in leaves])


def _box(value: Any) -> Any:
    if _tagged(value):
        return Boxed(value.kind_tag, value)
    if _is_0d_array(value):
        return Boxed(np.int8(_kind(value)), value)
    return value


def _is_0d_array(value: Any) -> bool:
    return isinstance(value, tensor.SymbolicTensor) and value.array0d and _kind(value) is not None


# ---- selects -----------------------------------------------------------------------------


# Set while this module computes with tagged values itself (``select``): the operation rule
# (``staging.kind_rules``) leaves those operations alone.
QUIET = [False]


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
    QUIET[0] = True
    try:
        value = np.where(test, carried.convert(va, joined), carried.convert(vb, joined))
        value = elementwise.astype_p.bind(value, dtype=joined.dtype, weak=joined.weak)
    finally:
        QUIET[0] = False
    if la is not None and lb is not None:
        value.kind_tag = np.where(test, la.code, lb.code)
        value.kind_options = la.options | lb.options
    return value


def _exact(joined: types.TensorType, *sides: Any) -> types.TensorType:
    """``joined``, promoted to hold every weak side's values exactly."""
    for side in sides:
        t = carried.type_of(side)
        if t.weak and not holds(joined.dtype, side, t.dtype):
            joined = types.TensorType(np.promote_types(joined.dtype, t.dtype), (), False)
    return joined


def holds(target: np.dtype, side: Any, dtype: np.dtype) -> bool:
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
