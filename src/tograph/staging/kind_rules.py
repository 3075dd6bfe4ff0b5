"""Operations on a scalar whose kind depends on the path (a kind-tagged value, ``staging.kinds``):
``r + 1`` where ``r`` is a Python int on one path and an ``np.int64`` on another.

Stage: build. Input: each operation the graph builder emits on a tagged operand (the rule
``propagate``, which ``staging.runtime`` installs in ``trace.builder``). Output: the result
tagged with the kind eager code gives on each path, where every path computes the same values
in the graph's dtypes (a Python float and an ``np.float64`` under ``+``, ``-``, ``*``, ``/``,
comparisons; a division first raises Python's ``ZeroDivisionError`` on the paths where Python
would); an ``UnsupportedError`` naming the line where the result's dtype, kind or values would
depend on the path (a Python int and an ``np.float32``, ``0.1`` compared with a ``float32``,
``r ** 2``, which raises in Python on overflow). An operator of a value that is a 0-d array on
some paths and a NumPy scalar on others is the ufunc's loop on the first and the scalar's own
arithmetic on the second, which warn differently: it becomes ``array_or_scalar``, which reads
the kind tags when the graph runs.
Requires: a graph being built (``tograph.trace.builder``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, types
from tograph.ops import effects
from tograph.ops import elementwise as ew
from tograph.staging import carried, control_flow, kinds
from tograph.trace import tensor

# Primitives whose result has one kind whatever the kinds of their operands: a conversion to a
# given type (``float(r)``, ``np.float32(r)``: exact, as the joined type holds every value) and
# control flow, which carries the tag itself.
_ANY_KIND = frozenset({"astype", "cond", "while_loop"})
# Primitives that give the same values for a Python number and a NumPy scalar of one dtype, so
# that their result may be tagged with each path's kind (powers and shifts differ: Python raises
# where NumPy warns; ``divide`` is checked by ``_python_zero_division``, ``//`` and ``%`` by a
# constant allowed by ``_integer_division``).
_SAME_VALUES = frozenset(
    "add subtract multiply negative positive abs "
    "less less_equal greater greater_equal equal not_equal".split()
)
# Operators that compute, warn or raise differently on 0-d arrays (the ufunc's loop) and on
# NumPy scalars (their own arithmetic: "overflow encountered in scalar add"; an array's ``**``
# takes ``square`` for ``** 2``), and Python's ``divmod``.
_BY_ARRAY = frozenset(
    "add subtract multiply divide floor_divide mod power negative abs divmod".split()
)
# Primitives whose result type is the promotion of all their operands' types at once, so that it
# depends on which types occur, not on their order or repeats: the kinds of ``np.array([a, b,
# ...])`` are checked once per set of operand types, not once per combination (2^n for n numbers
# of two kinds).
_BY_SET = frozenset({"stack", "concatenate"})


def propagate(
    prim: Any, args: Sequence[Any], in_types: Sequence[Any], params: dict[str, Any], result: Any
) -> None:
    """Tags ``result`` of ``prim`` on kind-tagged ``args`` with the kind eager code gives on each
    path; raises ``UnsupportedError`` where its dtype or its values would depend on the path
    (``r + 1`` of a Python int and an ``np.float32``). ``staging.runtime`` installs it in
    ``trace.builder``."""
    outs = result if prim.multiple_results else (result,)
    if kinds.QUIET[0] or prim.name in _ANY_KIND or not outs:
        return
    options = [_options(a, t) for a, t in zip(args, in_types)]
    if prim.name in _BY_ARRAY and _array_on_some_paths(args, options):
        _by_path(prim, params, args, result)
    host_ufunc = getattr(params.get("fn"), "fn", None) if prim.name == "numpy_call" else None
    if isinstance(host_ufunc, np.ufunc) and _array_on_some_paths(args, options):
        # ``np.float32(2) ** y``: the ufunc called on the operands, where eager's operator on
        # NumPy scalars is their own arithmetic ("overflow encountered in scalar power")
        raise _refused_array(host_ufunc.__name__)
    graph_outs = [carried.type_of(out) for out in outs]
    combos = _one_per_set(options) if prim.name in _BY_SET else itertools.product(*options)
    given = [
        ([c for c, _ in combo], _combination(prim, args, in_types, params, combo, graph_outs))
        for combo in combos
    ]
    found = {tuple(g) for _, g in given}
    if found == {tuple((t.dtype, t.weak) for t in graph_outs)}:
        return
    division = prim.name == "divide" and len(args) == 2
    if not (prim.name in _SAME_VALUES or division or _integer_division(prim, args, in_types)):
        raise _refused(prim.name)
    if not _scalar(result):
        raise _refused(prim.name)
    if division:
        _python_zero_division(args, in_types, result)
    _tag_result(result, args, given)


def _array_on_some_paths(
    args: Sequence[Any], options: Sequence[list[tuple[int | None, Any]]]
) -> bool:
    """Whether an operand is a 0-d array on some paths and a number on others, where no other
    operand is an array on every path (which makes the operation the ufunc's on all of them)."""
    if any(c is None and _is_array(a) for a, ((c, _), *_) in zip(args, options)):
        return False
    found = {
        any(c is not None and types.is_array_code(c) for c, _ in combo)
        for combo in itertools.product(*options)
    }
    return len(found) > 1


def _by_path(prim: Any, params: dict[str, Any], args: Sequence[Any], result: Any) -> None:
    """Replaces the operator ``prim`` just emitted for ``result`` by ``array_or_scalar``, which
    runs the array's operator on the paths where an operand is a 0-d array and the NumPy
    scalars' own elsewhere; refuses Python's ``divmod`` (a tuple of two) and a power whose
    exponent may be the array (a Python number base then stays weak, which the array base of
    ``power_array`` would not)."""
    out = result[0] if prim.multiple_results else result
    builder = out._builder
    eqn = builder.eqns[-1]
    exponent = prim.name == "power" and _is_tagged_array(args[1])
    if prim.multiple_results or params or exponent or eqn.outputs[0] is not out.graph_var:
        raise _refused_array(prim.name)
    tagged = [a for a in args if _is_tagged_array(a)]
    arrays = sorted({c for a in tagged for c in a.kind_options if types.is_array_code(c)})
    builder.eqns.remove(eqn)
    inputs = (*[builder.atom(a.kind_tag) for a in tagged], *eqn.inputs)
    kept = {"op": prim.name, "tags": len(tagged), "arrays": tuple(arrays)}
    builder.eqns.append(core.Eqn(ew.array_or_scalar_p, inputs, kept, eqn.outputs, eqn.loc))


def _is_tagged_array(value: Any) -> bool:
    """Whether ``value`` is tagged with a kind that may be a 0-d array's."""
    return (
        isinstance(value, tensor.SymbolicTensor)
        and value.kind_tag is not None
        and any(map(types.is_array_code, value.kind_options))
    )


def _is_array(value: Any) -> bool:
    if isinstance(value, tensor.SymbolicTensor):
        return value.is_array
    return isinstance(value, np.ndarray)


def _refused_array(name: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{name} of a value that is a 0-d array on some paths and a NumPy scalar or Python "
        "number on others: NumPy computes it by the array's loop on some paths and by the "
        "scalar's own arithmetic on the others, which warn differently",
        origin.current_location(),
        hint="give the value one kind on every path (np.asarray(...) or ....item())",
        construct="operation on a value that is a 0-d array on some paths only",
    )


def _python_zero_division(args: Sequence[Any], in_types: Sequence[Any], result: Any) -> None:
    """Raises Python's ``ZeroDivisionError`` when the graph runs, before the division ``result``
    comes from, on the paths where both operands are Python numbers and the divisor is zero:
    there Python raises where NumPy gives inf or nan (and warns). Elsewhere the values are the
    same, an IEEE double division either way."""
    divisor = args[1]
    if not tensor.is_symbolic(divisor) and divisor != 0:
        return
    builder = result._builder
    division = builder.eqns.pop()  # the division, emitted just now, goes after the check
    if division.outputs[0] is not result.graph_var:
        builder.eqns.append(division)
        raise _refused("divide")
    kinds.QUIET[0] = True
    try:
        python = [_python_on_path(a, t, _PYTHON) for a, t in zip(args, in_types)]
        ints = [_python_on_path(a, t, _PYTHON_INT) for a, t in zip(args, in_types)]
        hit = np.logical_and(np.logical_and(python[0], python[1]), divisor == 0)
        both_ints = np.logical_and(ints[0], ints[1])
        for message, chosen in (
            ("division by zero", both_ints),
            ("float division by zero", np.logical_not(both_ints)),
        ):
            control_flow.cond(
                np.logical_and(hit, chosen),
                functools.partial(_raise_zero_division, message),
                tuple,
                (),
                (),
            )
    finally:
        kinds.QUIET[0] = False
    builder.eqns.append(division)


def _raise_zero_division(message: str) -> tuple[()]:
    effects.raise_(ZeroDivisionError(message))
    return ()


def _python_on_path(value: Any, t: Any, codes: frozenset[int]) -> Any:
    """Whether ``value`` (of graph type ``t``) is a Python number of one of the kinds ``codes``
    on the path taken: a bool, or a tensor computing it from the kind tag."""
    if isinstance(value, tensor.SymbolicTensor) and value.kind_tag is not None:
        test: Any = False
        for code in value.kind_options & codes:
            test = np.logical_or(test, value.kind_tag == code)
        return test
    if isinstance(value, tensor.SymbolicTensor):
        return bool(t.weak) and types.kind_code(t.dtype, True) in codes
    return types.is_python_scalar(value) and types.kind_code(np.asarray(value).dtype, True) in codes


# The kind codes of Python numbers (weak scalar types), and of Python's bools and ints.
_PYTHON = frozenset(
    c
    for c in range(64)
    if types.kind_name(c) is not None and types.is_python_scalar(types.of_kind(c, 0))
)
_PYTHON_INT = frozenset(c for c in _PYTHON if type(types.of_kind(c, 0)) in (bool, int))


def _integer_division(prim: Any, args: Sequence[Any], in_types: Sequence[Any]) -> bool:
    """``//`` and ``%`` of integers by a nonzero Python int: Python and NumPy give the same
    values (both round toward minus infinity); by zero Python raises where NumPy warns."""
    if prim.name not in ("floor_divide", "mod") or len(args) != 2:
        return False
    divisor = args[1]
    integers = all(isinstance(t, types.TensorType) and t.dtype.kind in "iu" for t in in_types)
    return integers and type(divisor) is int and divisor != 0


def _combination(
    prim: Any,
    args: Sequence[Any],
    in_types: Sequence[Any],
    params: dict[str, Any],
    combo: Sequence[tuple[int | None, Any]],
    graph_outs: Sequence[Any],
) -> list[tuple[np.dtype, bool]]:
    """The (dtype, weak) of each result of ``prim`` on the path where its operands have the
    kinds ``combo``; refuses where the dtype is not the graph's, or where an operand converts
    to what the operation computes in differently from the graph (0.1 as a float32 there, as a
    float64 in the graph)."""
    try:
        out_types = prim.out_types([t for _, t in combo], params)
    except (errors.ToGraphError, TypeError, ValueError):
        raise _refused(prim.name) from None
    if len(out_types) != len(graph_outs) or any(
        not isinstance(t, types.TensorType) or t.dtype != g.dtype
        for t, g in zip(out_types, graph_outs)
    ):
        raise _refused(prim.name)
    loop = _loop_dtype(out_types, [t for _, t in combo])
    graph_loop = _loop_dtype(graph_outs, in_types)
    for arg, t, (_, kind) in zip(args, in_types, combo):
        # the same conversion of the same value (the joined type holds it exactly), or exact ones
        if loop != graph_loop and not (
            _exact_in(arg, t, loop, kind) and _exact_in(arg, t, graph_loop, kind)
        ):
            raise _refused(prim.name)
    return [(t.dtype, t.weak) for t in out_types]


def _one_per_set(
    options: Sequence[list[tuple[int | None, Any]]],
) -> list[tuple[tuple[int | None, Any], ...]]:
    """One combination of the operands' options for each set of types they may take together,
    for a primitive of ``_BY_SET``: its result type is the same for every combination of a set
    (and never a scalar to tag, so which combination stands for it does not matter)."""
    found: dict[frozenset[Any], tuple[tuple[int | None, Any], ...]] = {frozenset(): ()}
    for choices in options:
        found = {
            types_so_far | {option[1]}: combo + (option,)
            for types_so_far, combo in found.items()
            for option in choices
        }
    return list(found.values())


def _options(value: Any, t: Any) -> list[tuple[int | None, Any]]:
    """The (kind code, type) pairs an operand may have: one per kind of a tagged scalar."""
    if isinstance(value, tensor.SymbolicTensor) and value.kind_tag is not None:
        return [(code, _type_of_code(code)) for code in sorted(value.kind_options)]
    return [(None, t)]


def _type_of_code(code: int) -> types.TensorType:
    example = types.of_kind(code, 0)
    return (
        types.type_of(example)
        if types.is_python_scalar(example)
        else types.TensorType(example.dtype, (), False)
    )


def _loop_dtype(out_types: Sequence[Any], in_types: Sequence[Any]) -> Any:
    """The dtype an operation computes in: its result's, or for a comparison (a bool result)
    its operands' promoted dtype."""
    first = out_types[0] if out_types else None
    if isinstance(first, types.TensorType) and first.dtype != np.bool_:
        return first.dtype
    tensors = [t for t in in_types if isinstance(t, types.TensorType)]
    return types.promote(tensors)[0] if tensors else None


def _exact_in(arg: Any, t: Any, loop: Any, kind: Any) -> bool:
    """Whether the operand ``arg`` of graph type ``t`` (of type ``kind`` on the path taken, its
    value held exactly by ``t``) converts exactly to ``loop``: an operation on exact values gives
    the same result whatever dtype it computes in."""
    if loop is None or not isinstance(t, types.TensorType):
        return True
    if np.can_cast(kind.dtype, loop, "safe"):
        return True
    if np.can_cast(t.dtype, loop, "safe"):  # the joined type holds a tagged value exactly
        return True
    return types.is_python_scalar(arg) and kinds.holds(np.dtype(loop), arg, t.dtype)


def _scalar(value: Any) -> bool:
    return (
        isinstance(value, tensor.SymbolicTensor)
        and value.type.shape == ()
        and not value.array0d
        and value.kind_tag is None
    )


def _tag_result(result: Any, args: Sequence[Any], given: list[tuple[list[Any], list[Any]]]) -> None:
    """Sets the kind tag of ``result``: per combination of its operands' kinds, the kind of
    ``given`` whose operand codes the operands' tags hold."""
    tags = [a.kind_tag if c is not None else None for a, c in zip(args, given[0][0])]
    kinds.QUIET[0] = True
    try:
        code: Any = None
        for codes, [(dtype, weak)] in given:
            out_code = types.kind_code(dtype, weak)
            if out_code is None:
                raise _refused("this operation")
            test: Any = True
            for tag, c in zip(tags, codes):
                if c is not None:
                    test = np.logical_and(test, tag == c)
            code = np.int8(out_code) if code is None else _pick(test, out_code, code)
    finally:
        kinds.QUIET[0] = False
    result.kind_tag = code
    result.kind_options = frozenset(types.kind_code(d, w) for _, [(d, w)] in given)


def _pick(test: Any, code: int, otherwise: Any) -> Any:
    if not tensor.is_symbolic(test):
        return np.int8(code) if test else otherwise
    return np.where(test, np.int8(code), otherwise)


def _refused(name: str) -> errors.UnsupportedError:
    return errors.UnsupportedError(
        f"{name} of a number that is a Python number on some paths and a NumPy scalar (or "
        "another dtype) on others: the result's dtype or value would depend on the path taken",
        origin.current_location(),
        hint="give the number one kind on every path (e.g. np.float64(...) or float(...))",
        construct="operation on a number whose kind depends on the path",
    )
