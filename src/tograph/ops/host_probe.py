"""The type of a host call's result, found by running the NumPy function on probe values.

Stage: graph building (the type rule of ``numpy_call``, ``ops.host_call``). Input: the NumPy
function, the types of its tensor arguments and the static rest. Output: the result's structure
(a value, or a tuple or list of values), each value's type, and whether it is a 0-d array rather
than a NumPy scalar.

The function runs three times on made-up values of the input types: unknown dims take a
different size each time, and the values differ in every element (random, then shifted, then
alternating zeros and ones, which show trimmed zeros and repeated values). A result dim that
differs between the runs, or any dim of a function ``host_api.DATA_SHAPED`` lists, is unknown
(None). The dtype, the number of dims and the structure must agree between runs (a dtype that
depends on the values cannot be a graph's). A probe that raises is skipped; two must succeed.
When fewer do, the probes are made again with values that increase (``_increasing``), as bin
edges must. A result that is not numeric, or that shares memory with an argument (a view), makes
the call unsupported, so the function falls back to eager.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import pytree, types
from tograph.ops import host_api, indexing
from tograph.trace import tensor

_SIZES = (2, 3, 4)  # what an unknown input dim is in each probe
_DTYPES = frozenset("?bhilqBHILQefdFD")  # the dtype chars of the types a graph carries
_MAX_PROBE_SIZE = 1 << 22


@dataclasses.dataclass(frozen=True)
class Probed:
    """What the probes found: the result's nesting, each leaf's type, which leaves are 0-d
    arrays (rather than NumPy scalars)."""

    tree: pytree.TreeDef
    types: tuple[types.TensorType, ...]
    array0d: tuple[bool, ...]


def leaves(result: Any) -> list[Any]:
    """The values of a NumPy result, flattened out of its tuples and lists."""
    if isinstance(result, (tuple, list)) and not hasattr(result, "_fields"):
        return [leaf for item in result for leaf in leaves(item)]
    return [result]


def _tree(result: Any) -> pytree.TreeDef:
    if isinstance(result, (tuple, list)) and not hasattr(result, "_fields"):
        return pytree.TreeDef(type(result), None, tuple(_tree(item) for item in result))
    return pytree.LEAF


def _probe_value(t: types.TensorType, k: int) -> Any:
    """The k-th probe value of type ``t``."""
    shape = tuple(_SIZES[k] if d is None else d for d in t.shape)
    size = math.prod(shape)
    if size > _MAX_PROBE_SIZE:
        raise errors.UnsupportedError(
            f"a host call probes NumPy on arrays of its inputs' shapes, and {shape} is too big",
            construct="NumPy call",
        )
    rng = np.random.default_rng(7)
    kind = t.dtype.kind
    if k == 2:
        base = np.arange(size) % 2
    elif kind == "b":
        base = rng.integers(0, 2, size)
    elif kind in "iu":
        base = rng.integers(1, 4, size)
    else:
        base = rng.standard_normal(size) + (1j * rng.standard_normal(size) if kind == "c" else 0)
    if k == 1:
        base = ~base.astype(bool) if kind == "b" else base * 2 + 3
    value = np.asarray(base).astype(t.dtype).reshape(shape)
    if t.weak:
        return value.item()
    return value if t.ndim else value[()]


def _increasing(in_types: Sequence[types.TensorType], k: int) -> list[Any]:
    """Probe values that increase strictly along their flattened order, for functions that
    insist on sorted arguments (bin edges); booleans stay ``probe_values``'s."""
    values = probe_values(in_types, k)
    for i, (t, v) in enumerate(zip(in_types, values)):
        if t.dtype.kind in "iuf" and not t.weak:
            size = int(np.size(v))
            values[i] = np.asarray((np.arange(size) + k) * (k + 1), dtype=t.dtype).reshape(
                np.shape(v)
            )[()]
    return values


def stand_ins(values: Sequence[Any], exact: bool = False) -> list[Any]:
    """``values`` with each tensor replaced by a probe value of its type (for questions whose
    answer depends on dtypes alone, or with ``exact`` on dtypes and shapes: then a dim known
    only when the graph runs, or a Python number, whose value NumPy may show, is refused)."""
    if exact:
        for v in values:
            if tensor.is_tensor(v) and (None in v.type.shape or v.type.weak):
                raise errors.UnsupportedError(
                    f"the answer depends on a {v.type} known only when the graph runs",
                    construct="NumPy shape query",
                )
    return [_probe_value(v.type, 0) if tensor.is_tensor(v) else v for v in values]


def _fill(template: Any, values: Sequence[Any]) -> Any:
    """A static argument with each ``$k`` replaced by the k-th value."""
    if isinstance(template, indexing.Arg):
        return values[template.k]
    if isinstance(template, indexing.StaticArray):
        return template.value
    if isinstance(template, (list, tuple)):
        return type(template)(_fill(item, values) for item in template)
    return template


def call_parts(
    values: Sequence[Any], args: tuple[Any, ...] | None, kwargs: tuple[tuple[str, Any], ...]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The positional and keyword arguments of a host call, given its tensors' values."""
    positional = tuple(values) if args is None else _fill(args, values)
    return positional, {key: _fill(value, values) for key, value in kwargs}


def probe_values(in_types: Sequence[types.TensorType], k: int) -> list[Any]:
    """The k-th probe's values of ``in_types`` (the default ``make_values`` of ``result``)."""
    return [_probe_value(t, k) for t in in_types]


MakeValues = Callable[[Sequence[types.TensorType], int], list[Any]]


def _run(
    fn: Any,
    in_types: Sequence[types.TensorType],
    args: Any,
    kwargs: Any,
    k: int,
    make_values: MakeValues,
) -> tuple[Any, list[Any]] | Exception:
    values = make_values(in_types, k)
    positional, keywords = call_parts(values, args, kwargs)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn.fn(*positional, **keywords), values
        except Exception as exc:  # noqa: BLE001  (NumPy's error on made-up values: skip it)
            return exc


def _leaf_type(fn: Any, leaf: Any, inputs: Sequence[Any]) -> tuple[types.TensorType, bool]:
    if types.is_python_scalar(leaf):
        return types.type_of(leaf), False
    if not isinstance(leaf, (np.ndarray, np.generic)) or leaf.dtype.char not in _DTYPES:
        raise errors.UnsupportedError(
            f"{fn!r} returns {type(leaf).__name__} values, which a graph cannot carry",
            construct=repr(fn),
        )
    if isinstance(leaf, np.ndarray) and any(
        isinstance(a, np.ndarray) and np.shares_memory(leaf, a) for a in inputs
    ):
        raise errors.UnsupportedError(
            f"{fn!r} returns a view of its argument, which a host call cannot track",
            construct=repr(fn),
        )
    return types.TensorType(leaf.dtype, leaf.shape), isinstance(leaf, np.ndarray) and not leaf.ndim


def result(
    fn: Any,
    in_types: tuple[types.TensorType, ...],
    args: tuple[Any, ...] | None,
    kwargs: tuple[tuple[str, Any], ...],
    make_values: MakeValues = probe_values,
) -> Probed:
    """What ``fn`` (a ``host_call.NumpyFunction``, or anything with a ``fn`` to call and a
    ``path``) returns on arguments of these types, made by ``make_values`` for each probe."""
    try:
        return _cached(fn, in_types, args, kwargs, make_values)
    except TypeError as exc:
        if "unhashable" not in str(exc):
            raise
        return _result(fn, in_types, args, kwargs, make_values)


@functools.lru_cache(maxsize=1024)
def _cached(fn: Any, in_types: Any, args: Any, kwargs: Any, make_values: MakeValues) -> Probed:
    return _result(fn, in_types, args, kwargs, make_values)


def _result(
    fn: Any,
    in_types: tuple[types.TensorType, ...],
    args: tuple[Any, ...] | None,
    kwargs: tuple[tuple[str, Any], ...],
    make_values: MakeValues,
) -> Probed:
    runs = [_run(fn, in_types, args, kwargs, k, make_values) for k in range(len(_SIZES))]
    done = [r for r in runs if not isinstance(r, Exception)]
    if len(done) < 2 and make_values is probe_values:
        # functions that want sorted input raise on the made-up values (np.histogram's bins)
        runs = [_run(fn, in_types, args, kwargs, k, _increasing) for k in range(len(_SIZES))]
        done = [r for r in runs if not isinstance(r, Exception)]
    if len(done) < 2:
        failure = next(r for r in runs if isinstance(r, Exception))
        raise errors.UnsupportedError(
            f"{fn!r} raised {type(failure).__name__} on every probe of its result's type: "
            f"{failure}",
            construct=repr(fn),
        )
    trees = {_tree(out) for out, _ in done}
    if len(trees) != 1:
        raise _depends(fn, "the structure of the result")
    found = [[_leaf_type(fn, leaf, inputs) for leaf in leaves(out)] for out, inputs in done]
    out_types = []
    for per_leaf in zip(*found):
        kinds = {(t.dtype, t.ndim, t.weak, is_0d) for t, is_0d in per_leaf}
        if len(kinds) != 1:
            raise _depends(fn, "the dtype or number of dims of the result")
        first = per_leaf[0][0]
        data_shaped = fn.path in host_api.DATA_SHAPED
        shape = tuple(
            None if data_shaped or len({t.shape[i] for t, _ in per_leaf}) > 1 else d
            for i, d in enumerate(first.shape)
        )
        out_types.append(first.with_shape(shape))
    return Probed(trees.pop(), tuple(out_types), tuple(is_0d for _, is_0d in found[0]))


def _depends(fn: Any, what: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{what} of {fn!r} depends on the values, which a graph's types cannot",
        construct=repr(fn),
    )
