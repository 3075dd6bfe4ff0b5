"""Values carried through control flow: the user's variables as flat leaves, compared and merged.

Stage: build (helpers of ``tograph.ops.control``). Input: the values of the variables an if or a
loop uses, as pytrees (nested tuples, lists, dicts, namedtuples) whose leaves are symbolic values,
Python and NumPy numbers, static Python values, or ``Undefined``. Output: ``Flat`` (the leaves,
each with its variable and a display path such as ``state[0]``) and, per leaf, what the graph
needs: ``merge_branches`` gives the type holding both branches' values of a leaf,
``widen_carries`` the type holding a loop variable's value before and after the body, or None
for a static value that must then be the same. Errors name the variable and point at the user's
line.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import numpy as np

from tograph import errors, origin
from tograph.ir import pytree, types
from tograph.ops import elementwise
from tograph.trace import tensor


class Undefined:
    """Stands for a variable that has no value yet (assigned later, or only on some paths)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"Undefined({self.name!r})"


class Placeholder(Undefined):
    """A variable whose value is never read before it is set, e.g. a function's return value while
    a ``do_return`` flag is unset. Where control flow joins it with a tensor it becomes a zero of
    that tensor's type (dims that may vary are 0), which no path ever observes.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Placeholder({self.name!r})"


def align_placeholders(a: Any, b: Any) -> tuple[Any, Any]:
    """``a`` and ``b`` with each ``Placeholder`` facing a container replaced by that container's
    structure filled with placeholders, so the two have the same structure where they can, and
    each facing a static value (None from a bare ``return``) replaced by that value. A
    container with no placeholder to replace is kept itself (a caller's dict is known by its
    identity: ``trace.containers``)."""
    if isinstance(a, Placeholder) and pytree.is_node(b):
        return _placeholders_like(b, a.name), b
    if isinstance(b, Placeholder) and pytree.is_node(a):
        return a, _placeholders_like(a, b.name)
    if isinstance(a, Placeholder) and _static_leaf(b):
        return b, b  # read only where set, and where set it is b
    if isinstance(b, Placeholder) and _static_leaf(a):
        return a, a
    if isinstance(a, (tuple, list, dict)) and type(a) is type(b) and len(a) == len(b):
        if isinstance(a, dict):
            if set(a) != set(b):
                return a, b
            pairs = {k: align_placeholders(a[k], b[k]) for k in a}
            new_a = {k: p[0] for k, p in pairs.items()}
            new_b = {k: p[1] for k, p in pairs.items()}
            return _kept(a, new_a, a.values()), _kept(b, new_b, b.values())
        pairs = [align_placeholders(x, y) for x, y in zip(a, b)]
        new_a = pytree.rebuild(a, [p[0] for p in pairs])
        new_b = pytree.rebuild(b, [p[1] for p in pairs])
        return _kept(a, new_a, a), _kept(b, new_b, b)
    return a, b


def _static_leaf(value: Any) -> bool:
    """Whether ``value`` is a value other than a number or tensor (None, a string, an object)
    that a placeholder facing it may become."""
    return not (isinstance(value, Undefined) or is_tensor_like(value) or pytree.is_node(value))


def _kept(old: Any, new: Any, old_items: Any) -> Any:
    """``old`` itself where ``new``, its rebuilt copy, holds the very same items."""
    new_items = new.values() if isinstance(new, dict) else new
    same = all(x is y for x, y in zip(old_items, new_items))
    return old if same else new


def _placeholders_like(value: Any, name: str) -> Any:
    """``value``'s structure with a placeholder for each leaf but its static ones (a choice's
    options), which a placeholder facing them would become anyway."""
    leaves, tree = pytree.flatten(value)
    return tree.unflatten([v if _static_leaf(v) else Placeholder(name) for v in leaves])


def _is_unset(value: Any) -> bool:
    """An ``Undefined`` that is not a ``Placeholder``: reading it would be an error."""
    return isinstance(value, Undefined) and not isinstance(value, Placeholder)


@dataclasses.dataclass
class Flat:
    """The values of some variables as leaves, each with its display path and variable name."""

    names: Sequence[str]
    values: Sequence[Any]
    trees: list[pytree.TreeDef] = dataclasses.field(default_factory=list)
    leaves: list[Any] = dataclasses.field(default_factory=list)
    paths: list[str] = dataclasses.field(default_factory=list)
    roots: list[str] = dataclasses.field(default_factory=list)

    def unflatten(self, leaves: Sequence[Any]) -> tuple[Any, ...]:
        out, start = [], 0
        for tree in self.trees:
            count = tree.num_leaves
            out.append(tree.unflatten(list(leaves[start : start + count])))
            start += count
        return tuple(out)


def flatten(values: Sequence[Any], names: Sequence[str]) -> Flat:
    """The leaves of ``values``, the values of the variables ``names``."""
    if len(values) != len(names):
        raise errors.InternalError(f"{len(values)} values but {len(names)} names")
    flat = Flat(names, values)
    for value, name in zip(values, names):
        leaves, tree = pytree.flatten(value)
        flat.trees.append(tree)
        flat.leaves.extend(leaves)
        flat.paths.extend(tree.paths(name))
        flat.roots.extend([name] * len(leaves))
    return flat


def is_tensor_like(value: Any) -> bool:
    """Symbolic values and numbers: leaves that a graph carries as values."""
    return tensor.is_symbolic(value) or tensor.is_number(value)


def type_of(value: Any) -> types.ValueType:
    """The graph type of a tensor-like leaf (Python numbers are weak)."""
    return value.graph_var.type if isinstance(value, tensor.Symbolic) else types.type_of(value)


def same_static(a: Any, b: Any) -> bool:
    """Whether two non-symbolic leaves are the same value (numbers: same type and same bits)."""
    if a is b or (isinstance(a, Undefined) and isinstance(b, Undefined)):
        return True
    if type(a) is not type(b) or isinstance(a, tensor.Symbolic):
        return False
    if types.is_python_scalar(a):
        return repr(a) == repr(b)
    if isinstance(a, (np.ndarray, np.generic)):
        return bool(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes())
    equal = a == b
    return isinstance(equal, (bool, np.bool_)) and bool(equal)


def describe(value: Any) -> str:
    """A leaf as error messages show it."""
    if isinstance(value, tensor.Symbolic):
        kind = "a list" if isinstance(value.graph_var.type, types.ListType) else "a tensor"
        return f"{kind} ({value.graph_var.type})"
    if isinstance(value, Undefined):
        return "unset"
    if callable(value) and not isinstance(value, type) and hasattr(value, "__name__"):
        return f"function {value.__name__}"  # its repr would show the converter's qualname
    return repr(value)


def convert(value: Any, target: types.ValueType) -> Any:
    """``value`` with the dtype and weakness of ``target``: an ``astype`` where they differ.

    A ``Placeholder`` becomes a zero of type ``target``.
    """
    if isinstance(value, Placeholder):
        return _zero(target, value.name)
    have = type_of(value)
    if not isinstance(have, types.TensorType) or not isinstance(target, types.TensorType):
        return value
    if (have.dtype, have.weak) == (target.dtype, target.weak):
        return value
    return elementwise.astype_p.bind(value, dtype=target.dtype, weak=target.weak)


def _zero(target: types.ValueType, name: str) -> Any:
    if not isinstance(target, types.TensorType):
        fail(
            f"variable '{name}' is a list on one path and unset on another",
            hint="set it on every path",
        )
    if target.weak:
        return types.weak_proxy(target)
    return np.zeros(tuple(0 if d is None else d for d in target.shape), dtype=target.dtype)[()]


def join_named(
    a: types.ValueType, b: types.ValueType, path: str, where: tuple[str, str]
) -> types.ValueType:
    """``types.join(a, b)``, or an error naming the variable whose two types cannot be merged.

    Arrays of two dtypes are refused: the graph would give the promoted dtype on every path,
    where eager keeps the array's own dtype on a path that does not change it (a branch not
    taken, a loop run zero times). Scalars of two kinds carry a kind tag instead (``kinds``).
    """
    if (
        isinstance(a, types.TensorType)
        and isinstance(b, types.TensorType)
        and a.dtype != b.dtype
        and (a.ndim > 0 or b.ndim > 0)
    ):
        raise errors.UnsupportedError(
            f"{contrast(path, str(a), str(b), where)}: its dtype would depend on the path taken",
            origin.current_location(),
            hint="give the array its final dtype before the if or loop (e.g. np.asarray(x, float))",
            construct="array whose dtype depends on the path",
        )
    try:
        return types.join(a, b)
    except (errors.ShapeError, errors.DTypeError, np.exceptions.DTypePromotionError) as exc:
        detail = exc.message if isinstance(exc, errors.ToGraphError) else str(exc)
        kind = errors.ShapeError if isinstance(exc, errors.ShapeError) else errors.DTypeError
        message = f"{contrast(path, str(a), str(b), where)}: {detail}"
        raise kind(message, origin.current_location()) from None


def contrast(path: str, a: str, b: str, where: tuple[str, str]) -> str:
    """The message ``variable 'path' is <a> <where[0]> but <b> <where[1]>``; the variables the
    compiler makes for a return value or a conditional expression are named as such."""
    return f"{_subject(path)} is {a} {where[0]} but {b} {where[1]}"


_MADE_NAMES = (
    (re.compile(r"retval(_\d+)?(?=\[|$)"), "the return value"),
    (re.compile(r"expression value(?=\[|$)"), "the value of the conditional expression"),
    (
        re.compile(r"short_circuit_\d+(?=\[|$)"),
        "the value of an `and`, `or`, conditional expression or comparison chain",
    ),
)


def _subject(path: str) -> str:
    for pattern, what in _MADE_NAMES:
        found = pattern.match(path)
        if found:
            return what + path[found.end() :]
    return f"variable '{path}'"


def contrast_trees(name: str, a: pytree.TreeDef, b: pytree.TreeDef, where: tuple[str, str]) -> str:
    """``contrast`` of two structures of one variable at the first place they differ
    (``variable 'r[0]' is a list of 0 ... but a single value ...``)."""
    path = name
    while a.kind is b.kind and a.kind is not None and a.meta == b.meta:
        if len(a.children) != len(b.children):
            break
        keys = a.meta if a.kind is dict else range(len(a.children))
        differing = [(k, x, y) for k, x, y in zip(keys, a.children, b.children) if x != y]
        key, a, b = differing[0]
        path += f"[{key!r}]"
    return contrast(path, a.describe(), b.describe(), where)


def fail(message: str, hint: str) -> NoReturn:
    """Raises a ``ConversionError`` at the user's current line."""
    raise errors.ConversionError(message, origin.current_location(), hint)


# ---- merging the values of two branches, or of a loop's start and its body's end ----------

_BRANCHES = ("in the if-branch", "in the else-branch")
_LOOP = ("before the loop", "after the loop body")


def merge_branches(a: Flat, b: Flat) -> list[types.ValueType | None]:
    """Per leaf, the joined type of the two branches' values, or None for an agreed static value."""
    for name, va, vb, ta, tb in zip(a.names, a.values, b.values, a.trees, b.trees):
        if _is_unset(va) != _is_unset(vb) and not (
            isinstance(va, Placeholder) or isinstance(vb, Placeholder)
        ):
            where = "if" if _is_unset(vb) else "else"
            fail(
                f"variable '{name}' is set only in the {where}-branch; "
                "cond needs it in both branches",
                hint=f"initialise '{name}' before the if",
            )
        if ta != tb:
            fail(
                contrast_trees(name, ta, tb, _BRANCHES),
                hint="give it the same structure in both branches",
            )
    return [_merge_leaf(path, va, vb) for path, va, vb in zip(a.paths, a.leaves, b.leaves)]


def _merge_leaf(path: str, va: Any, vb: Any) -> types.ValueType | None:
    if va is vb:  # the very same object after both branches (an array kept, or a static value)
        return None
    symbolic = isinstance(va, tensor.Symbolic) or isinstance(vb, tensor.Symbolic)
    if not symbolic and same_static(va, vb):
        return None
    if isinstance(va, Placeholder) and is_tensor_like(vb):
        return type_of(vb)
    if isinstance(vb, Placeholder) and is_tensor_like(va):
        return type_of(va)
    if not (is_tensor_like(va) and is_tensor_like(vb)):
        fail(
            contrast(path, describe(va), describe(vb), _BRANCHES),
            hint="after an if on a tensor, a value that is not a number, tensor or constant (a "
            "string, None) must be the same in both branches",
        )
    return join_named(type_of(va), type_of(vb), path, _BRANCHES)


def widen_carries(
    init: Flat, out: Flat, carry: Sequence[types.ValueType | None]
) -> list[types.ValueType | None]:
    """The carry types widened by the body's results; errors for changes a loop cannot make."""
    for name, vi, vo, ti, to in zip(init.names, init.values, out.values, init.trees, out.trees):
        if _is_unset(vi) and not isinstance(vo, Undefined):
            fail(
                f"variable '{name}' is first set inside a loop over tensors; "
                "initialise it before the loop",
                hint=f"give '{name}' a value of the same type and shape before the loop",
            )
        if ti != to:
            fail(
                contrast_trees(name, ti, to, _LOOP),
                hint="a loop over tensors keeps the structure of its variables; a list that grows "
                "must be a tensor list",
            )
    return [
        _widen(path, vi, vo, t)
        for path, vi, vo, t in zip(init.paths, init.leaves, out.leaves, carry)
    ]


def _widen(path: str, vi: Any, vo: Any, carry: types.ValueType | None) -> types.ValueType | None:
    if carry is None and isinstance(vi, Placeholder) and is_tensor_like(vo):
        return type_of(vo)
    if carry is None and not same_static(vi, vo):
        fail(
            contrast(path, describe(vi), describe(vo), _LOOP),
            hint="a value that is not a number or tensor cannot change in a loop over tensors; "
            "set it before the loop",
        )
    if carry is None:
        return None
    if not is_tensor_like(vo):
        fail(
            contrast(path, f"a tensor ({carry})", describe(vo), _LOOP),
            hint="keep it a tensor of the same rank throughout the loop",
        )
    return join_named(carry, type_of(vo), path, _LOOP)


def map_results(
    body: Callable[..., tuple[Any, ...]],
    init: Sequence[Any],
    like: Callable[[Any, Any, int], Any],
) -> Callable[..., tuple[Any, ...]]:
    """``body`` (a loop body) whose result for each variable ``init`` starts is
    ``like(result, start, position)``: a value that starts optional, kinded or a choice is made
    one after the body too, so the loop's carry keeps its structure."""

    def mapped(*values: Any) -> tuple[Any, ...]:
        result = tuple(body(*values))
        head = [like(v, start, i) for i, (v, start) in enumerate(zip(result, init))]
        return (*head, *result[len(init) :])

    return mapped
