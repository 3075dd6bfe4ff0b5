"""The ONNX form of each primitive: ``OPS[name](writer, eqn, args) -> output names``.

Stage: export (ONNX). Input: an equation and the ONNX names of its operands (``export.onnx``'s
``Writer`` builds the nodes). Output: the names of its results. This module holds the elementwise
ops and reductions and gathers the table; ``onnx_arrays`` (shapes, linear algebra, lists, control
flow) and ``onnx_index`` (indexing) hold the rest. Operands are cast to the dtype NumPy computes
in, so results have the graph's types exactly; integer ``//`` and ``%`` and float ``%`` follow
NumPy's floor semantics, not C's. A primitive missing from ``OPS`` has no ONNX form yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tograph.export import onnx_arrays, onnx_index
from tograph.export import onnx_common as common
from tograph.ir import core, types
from tograph.ops import elementwise as ew

if TYPE_CHECKING:
    from tograph.export.onnx import Writer

OPS: dict[str, common.Convert] = {}


# ---- elementwise -------------------------------------------------------------------------


def _elementwise(op: str) -> common.Convert:
    """An op computed in the result dtype (arithmetic, math functions)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        return [w.one(op, *common.operands(w, eqn, common.out_type(eqn).dtype))]

    return convert


def _comparison(op: str) -> common.Convert:
    """A comparison, computed in the operands' promoted dtype."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype, _ = types.promote([types.tensor_type(a.type) for a in eqn.inputs])
        return [w.one(op, *common.operands(w, eqn, dtype))]

    return convert


def _logical(op: str) -> common.Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        return [w.one(op, *common.operands(w, eqn, np.bool_))]

    return convert


def _bitwise(op: str, boolean: str) -> common.Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = common.out_type(eqn).dtype
        return [w.one(boolean if dtype == np.bool_ else op, *common.operands(w, eqn, dtype))]

    return convert


for _name, _op in {
    "add": "Add",
    "subtract": "Sub",
    "multiply": "Mul",
    "divide": "Div",
    "maximum": "Max",
    "minimum": "Min",
    "fmax": "Max",
    "fmin": "Min",
    "power": "Pow",
    "negative": "Neg",
    "positive": "Identity",
    "stop_gradient": "Identity",  # an inference graph: no gradient to stop
    "abs": "Abs",
    "add_ufunc": "Add",  # the twins of operators for ufuncs on 0-d values (``ew.LOOP_TWINS``)
    "subtract_ufunc": "Sub",
    "multiply_ufunc": "Mul",
    "divide_ufunc": "Div",
    "power_ufunc": "Pow",
    "absolute_ufunc": "Abs",
    "negative_ufunc": "Neg",
    "power_array": "Pow",
    "sqrt": "Sqrt",
    "exp": "Exp",
    "log": "Log",
    "sin": "Sin",
    "cos": "Cos",
    "tan": "Tan",
    "arcsin": "Asin",
    "arccos": "Acos",
    "arctan": "Atan",
    "sinh": "Sinh",
    "cosh": "Cosh",
    "tanh": "Tanh",
    "arcsinh": "Asinh",
    "arccosh": "Acosh",
    "arctanh": "Atanh",
    "floor": "Floor",
    "ceil": "Ceil",
    "sign": "Sign",
    "reciprocal": "Reciprocal",
    "rint": "Round",
    "det": "Det",
}.items():
    OPS[_name] = _elementwise(_op)
for _name, _op in {
    "equal": "Equal",
    "not_equal": "Equal",
    "less": "Less",
    "less_equal": "LessOrEqual",
    "greater": "Greater",
    "greater_equal": "GreaterOrEqual",
}.items():
    OPS[_name] = _comparison(_op)
OPS["logical_and"] = _logical("And")
OPS["logical_or"] = _logical("Or")
OPS["logical_xor"] = _logical("Xor")
OPS["logical_not"] = _logical("Not")
OPS["bitwise_and"] = _bitwise("BitwiseAnd", "And")
OPS["bitwise_or"] = _bitwise("BitwiseOr", "Or")
OPS["bitwise_xor"] = _bitwise("BitwiseXor", "Xor")
OPS["invert"] = _bitwise("BitwiseNot", "Not")


def _not_equal(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Not", _comparison("Equal")(w, eqn, args)[0])]


def _square(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    (x,) = common.operands(w, eqn, common.out_type(eqn).dtype)
    return [w.one("Mul", x, x)]


def _isnan(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [
        w.one("IsNaN", args[0]) if common.in_type(eqn, 0).dtype.kind in "fc" else w.const(False)
    ]


def _isinf(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [
        w.one("IsInf", args[0]) if common.in_type(eqn, 0).dtype.kind in "fc" else w.const(False)
    ]


def _isfinite(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    if common.in_type(eqn, 0).dtype.kind not in "fc":
        return [w.const(True)]
    return [w.one("Not", w.one("Or", w.one("IsNaN", args[0]), w.one("IsInf", args[0])))]


def _signs_differ(w: Writer, a: str, b: str, dtype: Any) -> str:
    zero = w.const(0, dtype)
    return w.one("Xor", w.one("Less", a, zero), w.one("Less", b, zero))


def _mod(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = common.out_type(eqn).dtype
    a, b = common.operands(w, eqn, dtype)
    if dtype.kind in "iu":
        return [w.one("Mod", a, b, fmod=0)]  # the sign of the divisor, as Python and NumPy
    rest = w.one("Mod", a, b, fmod=1)  # C's fmod; NumPy moves a nonzero rest to b's sign
    fix = w.one(
        "And",
        w.one("Not", w.one("Equal", rest, w.const(0, dtype))),
        _signs_differ(w, rest, b, dtype),
    )
    return [w.one("Where", fix, w.one("Add", rest, b), rest)]


def _floor_divide(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = common.out_type(eqn).dtype
    a, b = common.operands(w, eqn, dtype)
    return _floor_divide_names(w, a, b, dtype)


def _floor_divide_names(w: Writer, a: str, b: str, dtype: Any) -> list[str]:
    if dtype.kind == "f":
        return [w.one("Floor", w.one("Div", a, b))]
    quotient = w.one("Div", a, b)  # truncates toward zero; floor it where the signs differ
    rest = w.one("Sub", a, w.one("Mul", quotient, b))
    inexact = w.one("Not", w.one("Equal", rest, w.const(0, dtype)))
    fix = w.one("And", inexact, _signs_differ(w, rest, b, dtype))
    return [w.one("Sub", quotient, w.one("Cast", fix, to=w.elem_type(dtype)))]


def _array_or_scalar(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    """The operator itself: the kind tags pick the array's or the NumPy scalar's arithmetic,
    which differ in their warnings only."""
    operator = ew.as_operator(eqn)
    return OPS[operator.prim.name](w, operator, args[eqn.params["tags"] :])


def _divmod(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [*_floor_divide(w, eqn, args), *_mod(w, eqn, args)]


def _where(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = common.out_type(eqn).dtype
    cond = w.operand(eqn.inputs[0], np.bool_)
    return [w.one("Where", cond, w.operand(eqn.inputs[1], dtype), w.operand(eqn.inputs[2], dtype))]


def _clip(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    x, lo, hi = common.operands(w, eqn, common.out_type(eqn).dtype)
    return [w.one("Min", w.one("Max", x, lo), hi)]


def _astype(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.cast(args[0], common.in_type(eqn, 0).dtype, common.out_type(eqn).dtype)]


def _round(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype, decimals = common.out_type(eqn).dtype, eqn.params["decimals"]
    x = w.operand(eqn.inputs[0], dtype)
    if dtype.kind in "iu" and decimals >= 0:
        return [x]
    if decimals == 0:
        return [w.one("Round", x)]
    scale = w.const(10.0**decimals, dtype)
    return [w.one("Div", w.one("Round", w.one("Mul", x, scale)), scale)]


def _shift(left: bool) -> common.Convert:
    """Shifts: BitShift for unsigned ints; for signed ones, times or floor-divided by 2**n."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = common.out_type(eqn).dtype
        a, n = common.operands(w, eqn, dtype)
        if dtype.kind == "u":
            return [w.one("BitShift", a, n, direction="LEFT" if left else "RIGHT")]
        if dtype.kind != "i":
            raise w.error(f"shifts of {dtype}")
        power = w.one("Pow", w.const(2, dtype), n)
        if left:
            return [w.one("Mul", a, power)]
        return _floor_divide_names(w, a, power, dtype)

    return convert


def _composed(build: Callable[[Writer, str, Any], str]) -> common.Convert:
    """A unary ufunc ONNX has no op for, built from ones it has (in the result dtype)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = common.out_type(eqn).dtype
        return [build(w, w.operand(eqn.inputs[0], dtype), dtype)]

    return convert


def _hypot(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    a, b = common.operands(w, eqn, common.out_type(eqn).dtype)
    return [w.one("Sqrt", w.one("Add", w.one("Mul", a, a), w.one("Mul", b, b)))]


OPS.update(
    log1p=_composed(lambda w, x, t: w.one("Log", w.one("Add", x, w.const(1, t)))),
    expm1=_composed(lambda w, x, t: w.one("Sub", w.one("Exp", x), w.const(1, t))),
    log2=_composed(lambda w, x, t: w.one("Div", w.one("Log", x), w.const(np.log(2), t))),
    log10=_composed(lambda w, x, t: w.one("Div", w.one("Log", x), w.const(np.log(10), t))),
    exp2=_composed(lambda w, x, t: w.one("Pow", w.const(2, t), x)),
    trunc=_composed(
        lambda w, x, t: w.one("Mul", w.one("Sign", x), w.one("Floor", w.one("Abs", x)))
    ),
    deg2rad=_composed(lambda w, x, t: w.one("Mul", x, w.const(np.pi / 180, t))),
    rad2deg=_composed(lambda w, x, t: w.one("Mul", x, w.const(180 / np.pi, t))),
    hypot=_hypot,
    left_shift=_shift(True),
    right_shift=_shift(False),
    not_equal=_not_equal,
    square=_square,
    isnan=_isnan,
    isinf=_isinf,
    isfinite=_isfinite,
    mod=_mod,
    remainder_ufunc=_mod,
    floor_divide=_floor_divide,
    floor_divide_ufunc=_floor_divide,
    array_or_scalar=_array_or_scalar,
    divmod=_divmod,
    where=_where,
    clip=_clip,
    astype=_astype,
    round=_round,
)


# ---- reductions --------------------------------------------------------------------------


def _reduction(op: str) -> common.Convert:
    """sum, prod, max, min, mean: computed in the result dtype over ``axis`` (None: all)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = common.out_type(eqn).dtype
        x = w.operand(eqn.inputs[0], dtype)
        return [_reduce(w, op, x, eqn.params["axis"], eqn.params["keepdims"])]

    return convert


def _reduce(w: Writer, op: str, x: str, axis: Any, keepdims: bool) -> str:
    keep = int(bool(keepdims))
    if axis is None:
        return w.one(op, x, keepdims=keep)
    return w.one(op, x, w.ints(axis), keepdims=keep)


def _any_all(op: str) -> common.Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        x = w.cast(w.operand(eqn.inputs[0], np.bool_), np.bool_, np.int32)
        folded = _reduce(w, op, x, eqn.params["axis"], eqn.params["keepdims"])
        return [w.cast(folded, np.int32, np.bool_)]

    return convert


def _var(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype, axis, keepdims = common.out_type(eqn).dtype, eqn.params["axis"], eqn.params["keepdims"]
    ddof = eqn.params.get("ddof", 0)
    x = w.operand(eqn.inputs[0], dtype)
    centred = w.one("Sub", x, _reduce(w, "ReduceMean", x, axis, True))
    squares = w.one("Mul", centred, centred)
    if not ddof:
        return [_reduce(w, "ReduceMean", squares, axis, keepdims)]
    total = _reduce(w, "ReduceSum", squares, axis, keepdims)
    count = w.cast(w.one("Size", x), np.int64, dtype)
    if axis is not None:
        shape = w.one("Shape", x)
        count = w.cast(
            w.one("ReduceProd", w.one("Gather", shape, w.ints(axis)), keepdims=0), np.int64, dtype
        )
    return [w.one("Div", total, w.one("Sub", count, w.const(ddof, dtype)))]


def _std(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Sqrt", _var(w, eqn, args)[0])]


def _arg_reduction(op: str) -> common.Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        axis, keepdims = eqn.params["axis"], eqn.params["keepdims"]
        x = args[0]
        if axis is None:
            x, axis = w.one("Reshape", x, w.ints([-1])), 0
            if keepdims:
                raise w.error("keepdims with axis=None")
        return [w.one(op, x, axis=axis, keepdims=int(bool(keepdims)), select_last_index=0)]

    return convert


def _cumsum(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    x, axis = w.operand(eqn.inputs[0], common.out_type(eqn).dtype), eqn.params["axis"]
    if axis is None:
        x, axis = w.one("Reshape", x, w.ints([-1])), 0
    return [w.one("CumSum", x, w.const(axis, np.int64))]


def _norm(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    ord_, axis, keepdims = eqn.params["ord"], eqn.params["axis"], eqn.params["keepdims"]
    x = w.operand(eqn.inputs[0], common.out_type(eqn).dtype)
    vector = axis is None or len(axis) == 1
    if ord_ is None or (vector and ord_ == 2) or ord_ == "fro":
        return [_reduce(w, "ReduceL2", x, axis, keepdims)]
    if vector and ord_ == 1:
        return [_reduce(w, "ReduceL1", x, axis, keepdims)]
    if vector and ord_ == np.inf:
        return [_reduce(w, "ReduceMax", w.one("Abs", x), axis, keepdims)]
    raise w.error(f"norm of order {ord_!r} over axes {axis}")


OPS.update(
    sum=_reduction("ReduceSum"),
    prod=_reduction("ReduceProd"),
    max=_reduction("ReduceMax"),
    min=_reduction("ReduceMin"),
    mean=_reduction("ReduceMean"),
    any=_any_all("ReduceMax"),
    all=_any_all("ReduceMin"),
    var=_var,
    std=_std,
    argmax=_arg_reduction("ArgMax"),
    argmin=_arg_reduction("ArgMin"),
    cumsum=_cumsum,
    norm=_norm,
)


OPS.update(onnx_arrays.OPS)
OPS.update(getitem=onnx_index.getitem, setitem=onnx_index.setitem, index_add=onnx_index.index_add)
