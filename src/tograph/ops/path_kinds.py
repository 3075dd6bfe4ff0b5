"""The kind of a number computed from one whose kind depends on the path taken.

Stage: graph building (a helper of ``elementwise``). Input: an elementwise primitive, its
operands and its scalar result, where an operand carries a run-time kind tag (``t = 0.0`` that a
tensor loop may or may not make a NumPy scalar: ``SymbolicTensor.kind_tag``, set by
``staging.kinds``). Output: the result tagged too, with the kind eager code gives it on each
path: ``t * 2`` is a Python float where ``t`` is one and a ``np.float64`` where ``t`` is, so a
returned ``t * 2`` comes back as eager's. The result's kind for each kind the operand may have
comes from the primitive's own type rule (NEP 50); the tag picks it with one select per kind the
result may have besides its type's own (none when every path gives the same kind).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.trace import tensor

# Every kind code (``types.kind_code``): the Python numbers, then the NumPy scalar types.
_CODES = [c for c in range(64) if types.kind_name(c) is not None]
_SIZE = max(_CODES) + 1


def tag_result(prim: primitives.Primitive, args: Sequence[Any], out: Any) -> None:
    """Tags ``out`` (``prim`` of ``args``) by path when an operand is tagged; see docstring."""
    tagged = [i for i, a in enumerate(args) if _tag(a) is not None]
    if not tagged or not _scalar(out):
        return
    in_types = [a.type if isinstance(a, tensor.TensorBase) else types.type_of(a) for a in args]
    own = types.kind_code(out.type.dtype, out.type.weak)
    kinds: dict[int, list[tuple[int, ...]]] = {}  # result kind -> the operand kinds giving it
    for codes in itertools.product(*(_held_by(in_types[i]) for i in tagged)):
        path = list(in_types)
        for i, code in zip(tagged, codes):
            path[i] = types.kind_type(code)
        kind = _result_kind(prim, path)
        if kind is not None and kind != own:
            kinds.setdefault(kind, []).append(codes)
    if not kinds:
        return  # the result's kind is the same on every path: its type says it
    index: Any = _tag(args[tagged[0]])
    for i in tagged[1:]:
        index = index.astype(np.int64) * _SIZE + _tag(args[i])
    tag: Any = np.int8(own if own is not None else 0)
    for kind, paths in kinds.items():
        hit = functools.reduce(operator.or_, (index == _flat(codes) for codes in paths))
        tag = np.where(hit, np.int8(kind), tag)
    out.kind_tag = tag


def _flat(codes: tuple[int, ...]) -> int:
    """The index of one combination of operand kinds (as ``index`` combines the tags)."""
    return functools.reduce(lambda acc, code: acc * _SIZE + code, codes, 0)


def _held_by(t: types.ValueType) -> list[int]:
    """The kinds a tagged value of joined type ``t`` may have on a path: those that join into
    its dtype as NEP 50 joins them (a ``float32`` or a Python float in a ``float32``, not a
    ``float64`` nor a Python complex)."""
    if not isinstance(t, types.TensorType):
        return []
    return [c for c in _CODES if types.promote([types.kind_type(c), t])[0] == t.dtype]


def _tag(value: Any) -> Any:
    return value.kind_tag if isinstance(value, tensor.SymbolicTensor) else None


def _scalar(value: Any) -> bool:
    return (
        isinstance(value, tensor.SymbolicTensor)
        and not value.array0d
        and isinstance(value.type, types.TensorType)
        and value.type.shape == ()
    )


def _result_kind(prim: primitives.Primitive, in_types: list[types.ValueType]) -> int | None:
    """The kind code of ``prim``'s result on one path, None where that path would not type."""
    try:
        (out,) = prim.out_types(in_types, {})
    except (errors.ToGraphError, TypeError, ValueError):
        return None
    return types.kind_code(out.dtype, out.weak) if isinstance(out, types.TensorType) else None
