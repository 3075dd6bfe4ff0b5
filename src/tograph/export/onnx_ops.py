"""The ONNX form of each primitive: ``OPS[name](writer, eqn, args) -> output names``.

Stage: export (ONNX). Input: an equation and the ONNX names of its operands (``export.onnx``'s
``Writer`` builds the nodes). Output: the names of its results. Operands are cast to the dtype
NumPy computes in, so results have the graph's types exactly; integer ``//`` and ``%`` and float
``%`` follow NumPy's floor semantics, not C's. A primitive missing here has no ONNX form yet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tograph.export import onnx_index
from tograph.ir import core, types

if TYPE_CHECKING:
    from tograph.export.onnx import Writer

Convert = Callable[["Writer", core.Eqn, Sequence[str]], list[str]]
OPS: dict[str, Convert] = {}


def _out(eqn: core.Eqn, k: int = 0) -> types.TensorType:
    return types.tensor_type(eqn.outputs[k].type)


def _in(eqn: core.Eqn, k: int) -> types.TensorType:
    return types.tensor_type(eqn.inputs[k].type)


def _operands(w: Writer, eqn: core.Eqn, dtype: Any) -> list[str]:
    return [w.operand(a, dtype) for a in eqn.inputs]


# ---- elementwise -------------------------------------------------------------------------


def _elementwise(op: str) -> Convert:
    """An op computed in the result dtype (arithmetic, math functions)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        return [w.one(op, *_operands(w, eqn, _out(eqn).dtype))]

    return convert


def _comparison(op: str) -> Convert:
    """A comparison, computed in the operands' promoted dtype."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype, _ = types.promote([types.tensor_type(a.type) for a in eqn.inputs])
        return [w.one(op, *_operands(w, eqn, dtype))]

    return convert


def _logical(op: str) -> Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        return [w.one(op, *_operands(w, eqn, np.bool_))]

    return convert


def _bitwise(op: str, boolean: str) -> Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = _out(eqn).dtype
        return [w.one(boolean if dtype == np.bool_ else op, *_operands(w, eqn, dtype))]

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
    "abs": "Abs",
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
    (x,) = _operands(w, eqn, _out(eqn).dtype)
    return [w.one("Mul", x, x)]


def _isnan(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("IsNaN", args[0]) if _in(eqn, 0).dtype.kind in "fc" else w.const(False)]


def _isinf(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("IsInf", args[0]) if _in(eqn, 0).dtype.kind in "fc" else w.const(False)]


def _isfinite(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    if _in(eqn, 0).dtype.kind not in "fc":
        return [w.const(True)]
    return [w.one("Not", w.one("Or", w.one("IsNaN", args[0]), w.one("IsInf", args[0])))]


def _signs_differ(w: Writer, a: str, b: str, dtype: Any) -> str:
    zero = w.const(0, dtype)
    return w.one("Xor", w.one("Less", a, zero), w.one("Less", b, zero))


def _mod(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = _out(eqn).dtype
    a, b = _operands(w, eqn, dtype)
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
    dtype = _out(eqn).dtype
    a, b = _operands(w, eqn, dtype)
    return _floor_divide_names(w, a, b, dtype)


def _floor_divide_names(w: Writer, a: str, b: str, dtype: Any) -> list[str]:
    if dtype.kind == "f":
        return [w.one("Floor", w.one("Div", a, b))]
    quotient = w.one("Div", a, b)  # truncates toward zero; floor it where the signs differ
    rest = w.one("Sub", a, w.one("Mul", quotient, b))
    inexact = w.one("Not", w.one("Equal", rest, w.const(0, dtype)))
    fix = w.one("And", inexact, _signs_differ(w, rest, b, dtype))
    return [w.one("Sub", quotient, w.one("Cast", fix, to=w.elem_type(dtype)))]


def _where(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = _out(eqn).dtype
    cond = w.operand(eqn.inputs[0], np.bool_)
    return [w.one("Where", cond, w.operand(eqn.inputs[1], dtype), w.operand(eqn.inputs[2], dtype))]


def _clip(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    x, lo, hi = _operands(w, eqn, _out(eqn).dtype)
    return [w.one("Min", w.one("Max", x, lo), hi)]


def _astype(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.cast(args[0], _in(eqn, 0).dtype, _out(eqn).dtype)]


def _round(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype, decimals = _out(eqn).dtype, eqn.params["decimals"]
    x = w.operand(eqn.inputs[0], dtype)
    if dtype.kind in "iu" and decimals >= 0:
        return [x]
    if decimals == 0:
        return [w.one("Round", x)]
    scale = w.const(10.0**decimals, dtype)
    return [w.one("Div", w.one("Round", w.one("Mul", x, scale)), scale)]


def _shift(left: bool) -> Convert:
    """Shifts: BitShift for unsigned ints; for signed ones, times or floor-divided by 2**n."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = _out(eqn).dtype
        a, n = _operands(w, eqn, dtype)
        if dtype.kind == "u":
            return [w.one("BitShift", a, n, direction="LEFT" if left else "RIGHT")]
        if dtype.kind != "i":
            raise w.error(f"shifts of {dtype}")
        power = w.one("Pow", w.const(2, dtype), n)
        if left:
            return [w.one("Mul", a, power)]
        return _floor_divide_names(w, a, power, dtype)

    return convert


def _composed(build: Callable[[Writer, str, Any], str]) -> Convert:
    """A unary ufunc ONNX has no op for, built from ones it has (in the result dtype)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = _out(eqn).dtype
        return [build(w, w.operand(eqn.inputs[0], dtype), dtype)]

    return convert


def _hypot(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    a, b = _operands(w, eqn, _out(eqn).dtype)
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
    floor_divide=_floor_divide,
    where=_where,
    clip=_clip,
    astype=_astype,
    round=_round,
)


# ---- reductions --------------------------------------------------------------------------


def _reduction(op: str) -> Convert:
    """sum, prod, max, min, mean: computed in the result dtype over ``axis`` (None: all)."""

    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        dtype = _out(eqn).dtype
        x = w.operand(eqn.inputs[0], dtype)
        return [_reduce(w, op, x, eqn.params["axis"], eqn.params["keepdims"])]

    return convert


def _reduce(w: Writer, op: str, x: str, axis: Any, keepdims: bool) -> str:
    keep = int(bool(keepdims))
    if axis is None:
        return w.one(op, x, keepdims=keep)
    return w.one(op, x, w.ints(axis), keepdims=keep)


def _any_all(op: str) -> Convert:
    def convert(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
        x = w.cast(w.operand(eqn.inputs[0], np.bool_), np.bool_, np.int32)
        folded = _reduce(w, op, x, eqn.params["axis"], eqn.params["keepdims"])
        return [w.cast(folded, np.int32, np.bool_)]

    return convert


def _var(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype, axis, keepdims = _out(eqn).dtype, eqn.params["axis"], eqn.params["keepdims"]
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


def _arg_reduction(op: str) -> Convert:
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
    x, axis = w.operand(eqn.inputs[0], _out(eqn).dtype), eqn.params["axis"]
    if axis is None:
        x, axis = w.one("Reshape", x, w.ints([-1])), 0
    return [w.one("CumSum", x, w.const(axis, np.int64))]


def _norm(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    ord_, axis, keepdims = eqn.params["ord"], eqn.params["axis"], eqn.params["keepdims"]
    x = w.operand(eqn.inputs[0], _out(eqn).dtype)
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


# ---- linear algebra and shapes -----------------------------------------------------------


def _matmul(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("MatMul", *_operands(w, eqn, _out(eqn).dtype))]


def _einsum(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    operands = _operands(w, eqn, _out(eqn).dtype)
    return [w.one("Einsum", *operands, equation=eqn.params["subscripts"])]


def _shape_tensor(w: Writer, static: Sequence[int | None], dims: Sequence[str]) -> str:
    """A 1-d int64 shape: static dims as constants, each None the next run-time dim."""
    values = iter(dims)
    parts = [
        w.ints([d]) if d is not None else w.one("Reshape", next(values), w.ints([1]))
        for d in static
    ]
    return w.one("Concat", *parts, axis=0)


def _dims(w: Writer, eqn: core.Eqn, first: int) -> list[str]:
    return [w.operand(a, np.int64) for a in eqn.inputs[first:]]


def _reshape(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Reshape", args[0], shape)]


def _broadcast_to(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Expand", args[0], shape)]


def _full(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    shape = _shape_tensor(w, eqn.params["shape"], _dims(w, eqn, 1))
    return [w.one("Expand", w.operand(eqn.inputs[0], _out(eqn).dtype), shape)]


def _transpose(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Transpose", args[0], perm=list(eqn.params["axes"]))]


def _matrix_transpose(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    n = _in(eqn, 0).ndim
    return [w.one("Transpose", args[0], perm=[*range(n - 2), n - 1, n - 2])]


def _expand_dims(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    return [w.one("Unsqueeze", args[0], w.ints(axis if isinstance(axis, tuple) else (axis,)))]


def _squeeze(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    if axis is None:
        axis = tuple(i for i, d in enumerate(_in(eqn, 0).shape) if d == 1)
    return [w.one("Squeeze", args[0], w.ints(axis))]


def _flip(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    t, axis = _in(eqn, 0), eqn.params["axis"]
    axes = list(range(t.ndim)) if axis is None else list(axis)
    if not axes:
        return [args[0]]
    big = np.iinfo(np.int64)
    starts, ends, steps = (
        w.ints([-1] * len(axes)),
        w.ints([big.min] * len(axes)),
        w.ints([-1] * len(axes)),
    )
    return [w.one("Slice", args[0], starts, ends, w.ints(axes), steps)]


def _dim(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = eqn.params["axis"]
    shape = w.one("Shape", args[0], start=axis, end=axis + 1)
    return [w.one("Squeeze", shape, w.ints([0]))]


def _size(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("Size", args[0])]


def _concatenate(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    operands, axis = _operands(w, eqn, _out(eqn).dtype), eqn.params["axis"]
    if axis is None:
        operands, axis = [w.one("Reshape", x, w.ints([-1])) for x in operands], 0
    return [w.one("Concat", *operands, axis=axis)]


def _stack(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    axis = w.ints([eqn.params["axis"]])
    parts = [w.one("Unsqueeze", x, axis) for x in _operands(w, eqn, _out(eqn).dtype)]
    return [w.one("Concat", *parts, axis=eqn.params["axis"])]


def _arange(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    dtype = _out(eqn).dtype
    bounds = _operands(w, eqn, dtype)
    if len(bounds) == 1:
        bounds = [w.const(0, dtype), bounds[0]]
    if len(bounds) == 2:
        bounds.append(w.const(1, dtype))
    return [w.one("Range", *bounds)]


OPS.update(
    matmul=_matmul,
    dot=_matmul,
    einsum=_einsum,
    reshape=_reshape,
    broadcast_to=_broadcast_to,
    full=_full,
    transpose=_transpose,
    matrix_transpose=_matrix_transpose,
    expand_dims=_expand_dims,
    squeeze=_squeeze,
    flip=_flip,
    dim=_dim,
    size=_size,
    concatenate=_concatenate,
    stack=_stack,
    arange=_arange,
    getitem=onnx_index.getitem,
    setitem=onnx_index.setitem,
    index_add=onnx_index.index_add,
)


# ---- tensor lists ------------------------------------------------------------------------


def _list_new(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    elem = eqn.params["elem"] or w.list_elems.get(eqn.outputs[0].id)
    if elem is None:
        raise w.error("a tensor list that is never pushed to has no element type")
    return [w.one("SequenceEmpty", dtype=w.elem_type(elem.dtype))]


def _list_push(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    out = eqn.outputs[0].type
    elem = out.elem if isinstance(out, types.ListType) else None
    if elem is None:
        raise w.error(f"a push whose list type {out} has no element type")
    return [w.one("SequenceInsert", args[0], w.operand(eqn.inputs[1], elem.dtype))]


def _list_stack(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("ConcatFromSequence", args[0], axis=0, new_axis=1)]


def _list_length(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("SequenceLength", args[0])]


def _list_read(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    return [w.one("SequenceAt", args[0], w.operand(eqn.inputs[1], np.int64))]


OPS.update(
    list_new=_list_new,
    list_push=_list_push,
    list_stack=_list_stack,
    list_length=_list_length,
    list_read=_list_read,
)


# ---- control flow ------------------------------------------------------------------------


def _cond(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    if not eqn.outputs and w.drop_effects:
        return []  # a branch that only had effects
    out_types = [v.type for v in eqn.outputs]
    pred, operands = w.operand(eqn.inputs[0], np.bool_), list(args[1:])
    then = w.subgraph(eqn.params["then_graph"], operands, "then", out_types)
    other = w.subgraph(eqn.params["else_graph"], operands, "else", out_types)
    return w.node("If", [pred], len(eqn.outputs), then_branch=then, else_branch=other)


def _while_loop(w: Writer, eqn: core.Eqn, args: Sequence[str]) -> list[str]:
    num_consts = eqn.params["num_consts"]
    test = eqn.params["cond_graph"]
    consts, inits = list(args[:num_consts]), list(args[num_consts:])
    carry_types = [v.type for v in eqn.outputs]
    inits = [
        _fit(w, name, a.type, t) for name, a, t in zip(inits, eqn.inputs[num_consts:], carry_types)
    ]
    for var, source in zip(test.inputs, [*consts, *inits]):
        w.env[var.id] = source
    w.block(test)  # the first test, before the loop
    w.eqn = eqn
    first = w.value(test.outputs[0])
    body = w.loop_body(eqn, consts, carry_types)
    w.eqn = eqn
    return w.node("Loop", ["", first, *inits], len(eqn.outputs), body=body)


def _fit(w: Writer, name: str, source: types.ValueType, target: types.ValueType) -> str:
    """A loop's initial value, cast where its dtype was widened for the carry."""
    if isinstance(source, types.TensorType) and isinstance(target, types.TensorType):
        return w.cast(name, source.dtype, target.dtype)
    return name


OPS.update(cond=_cond, while_loop=_while_loop)
