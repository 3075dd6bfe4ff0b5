"""Elementwise primitives: arithmetic, comparisons, logic, math, ``where``, ``clip``, ``astype``.

Result dtypes are NumPy's own: the type rule asks NumPy for the dtype of the same ufunc applied to
tiny values of the input dtypes (weak inputs as Python scalars), so promotion follows NumPy 2 and
NEP 50 exactly. Operator primitives (``a + b``) are emitted as Python operators: on Python
scalars (weak values) they keep Python semantics, on arrays NumPy's. Between 0-d operands an
operator is NumPy's scalar arithmetic, which warns otherwise than the ufunc's loop; where eager
code runs the loop (a ufunc called by name, an operand that is a 0-d array) the operator's twin
is traced instead (``LOOP_TWINS``, ``power_array_p``), and where that depends on the path
``array_or_scalar_p``, so the graph warns as eager code whatever the kind of a 0-d value when it
runs.
"""

from __future__ import annotations

import functools
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import core, primitives, types
from tograph.trace import dispatch, tensor

# ---- type rules --------------------------------------------------------------------------


def _probe_value(t: types.TensorType) -> Any:
    if t.weak:
        return {"b": True, "i": 1, "u": 1, "f": 1.0, "c": 1.0 + 0j}[t.dtype.kind]
    return np.ones((), dtype=t.dtype)


@functools.lru_cache(maxsize=4096)
def _probe_dtype(
    name: str, fn: Callable[..., Any], in_types: tuple[types.TensorType, ...]
) -> tuple[np.dtype, bool]:
    """NumPy's result dtype of ``fn`` on values of ``in_types``, and whether it is Python's."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            out = fn(*(_probe_value(t) for t in in_types))
        except (TypeError, np.exceptions.DTypePromotionError) as exc:
            pretty = ", ".join(str(t) for t in in_types)
            raise errors.DTypeError(
                f"{name} does not support operands of types ({pretty}): {exc}"
            ) from None
    return np.asarray(out).dtype, types.is_python_scalar(out)


def elementwise_rule(
    name: str, fn: Callable[..., Any], pyop: Callable[..., Any] | None = None
) -> Callable[..., types.TensorType]:
    """Type rule of an elementwise op: broadcast shapes, NumPy's dtype; weak if Python's op is.

    The rule's answer is remembered per tuple of input types (types are immutable values, and
    an error is raised again each time)."""
    what = f"operands of {name}"

    @functools.lru_cache(maxsize=4096)
    def typed(in_types: tuple[types.TensorType, ...]) -> types.TensorType:
        shape = types.broadcast_shapes(*(t.shape for t in in_types), what=what)
        if pyop is not None and all(t.weak for t in in_types):
            dtype, weak = _probe_dtype(name, pyop, in_types)
        else:
            dtype, weak = _probe_dtype(name, fn, in_types)[0], False
        return types.TensorType(dtype, shape, weak and shape == ())

    def rule(*in_types: types.TensorType) -> types.TensorType:
        return typed(in_types)

    return rule


# ---- definitions -------------------------------------------------------------------------


def _operator_emit(symbol: str) -> primitives.Emitter:
    def emit(ctx: primitives.EmitContext, eqn: Any, args: Any) -> str:
        if len(args) == 1:
            return f"({symbol}{args[0]})"
        return f"({args[0]} {symbol} {args[1]})"

    return emit


# The ufunc each elementwise primitive computes on arrays, for executors that pass ``out=``: on an
# operand that is an array of at least one dimension, the primitive's kernel (or operator) is
# exactly this ufunc. The operator ``**`` is left out: ``a ** 0.5`` takes NumPy's ``sqrt``
# shortcut, which may differ from ``np.power`` on -0.0 and -inf (its twin, ``np.power`` called
# by name, is in).
UFUNCS: dict[primitives.Primitive, np.ufunc] = {}


def _define(
    name: str, ufunc: Any, pyop: Callable[..., Any] | None = None, symbol: str | None = None
) -> primitives.Primitive:
    """An elementwise primitive; with an operator ``symbol`` its kernel is Python's operator, which
    is the ufunc on arrays and keeps Python's meaning on Python scalars (weak values)."""
    emit = _operator_emit(symbol) if symbol else None
    kernel = pyop if symbol else ufunc
    prim = primitives.Primitive(
        name, kernel, elementwise_rule(name, ufunc, pyop), emit=emit, layout="K"
    )
    dispatch.implements(ufunc)(lambda *args, **kw: _ufunc_call(prim, args, kw))
    if ufunc is not np.power:
        UFUNCS[prim] = ufunc
    return prim


# Python numbers and NumPy scalars have arithmetic of their own, which for some operations rounds
# differently from the ufunc's loop (``x ** y`` of floats and complex, complex ``*``, ``/`` and
# ``abs``) and which warns differently: a NumPy scalar's integer ``+``, ``-``, ``*``, unary ``-``
# and ``abs`` warn on overflow where the loop wraps silently, and its warnings say "scalar
# divide" where the loop's say "divide". The operator primitives compute the operator, so a ufunc
# called by name on operands that are all 0-d (``dispatch.LOOPS``), and an operator of 0-d
# operands one of which is an array (a 0-d array's operator is the ufunc), bind the operator's
# twin here, whose kernel is the ufunc itself (its gradient is the operator's): the graph then
# computes and warns as eager code whether the value is a NumPy scalar or a 0-d array when it
# runs.
LOOP_TWINS: dict[primitives.Primitive, primitives.Primitive] = {}


def _loop_twin(prim: primitives.Primitive, ufunc: np.ufunc) -> None:
    name = ufunc.__name__
    twin = primitives.Primitive(f"{name}_ufunc", ufunc, elementwise_rule(name, ufunc), layout="K")
    LOOP_TWINS[prim] = twin
    UFUNCS[twin] = ufunc
    dispatch.LOOPS[ufunc] = lambda *args, **kw: _ufunc_call(prim, args, kw, by_name=True)


def _takes_loop(prim: primitives.Primitive, operands: list[Any], by_name: bool) -> bool:
    """Whether the ufunc's loop runs where the operator primitive would not: on 0-d operands
    (see ``LOOP_TWINS``) when the ufunc is called by name or one operand is an array (a
    power's exponent: its base, a number, takes no shortcut; ``power_array_p`` is a 0-d array
    base's own ``**``), and for
    ``np.power`` of a tensor called by name, whose array loop has no ``square``, ``sqrt`` or
    ``reciprocal`` shortcut that ``a ** 2`` takes, so that its warnings and errors name
    ``power``. (Where the base is a plain array, its own ``**`` may have called the ufunc: the
    operator is kept.)"""
    if all(_is_0d(a) for a in operands):
        return by_name or any(map(is_array, operands))
    return by_name and prim is power_p and tensor.is_tensor(operands[0])


def _is_0d(operand: Any) -> bool:
    return (operand.type.ndim if tensor.is_tensor(operand) else np.ndim(operand)) == 0


def is_array(operand: Any) -> bool:
    """Whether ``operand`` is a NumPy array (0-d ones included) in eager code, not a number; a
    number whose kind depends on the path (``staging.kinds``) is one when it is on every path
    (``staging.kind_rules`` refuses the operators that run differently on its paths)."""
    options = getattr(operand, "kind_options", None)
    if getattr(operand, "kind_tag", None) is not None and options:
        return all(map(types.is_array_code, options))
    if tensor.is_tensor(operand):
        return operand.is_array
    return isinstance(operand, np.ndarray)


def _ufunc_call(
    prim: primitives.Primitive,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    by_name: bool = False,
) -> Any:
    dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise dispatch.unsupported(f"np.{prim.impl.__name__} with {', '.join(sorted(kwargs))}=")
    operands = [_sequence_as_array(a) for a in args]
    if prim is power_p and not by_name and _is_0d(operands[0]) and is_array(operands[0]):
        prim = power_array_p
    elif prim in LOOP_TWINS and _takes_loop(prim, operands, by_name):
        prim = LOOP_TWINS[prim]
    out = prim.bind(*operands)
    if dtype is not None:
        return astype_p.bind(out, dtype=np.dtype(dtype), weak=False)
    return out


def _sequence_as_array(operand: Any) -> Any:
    """A list or tuple of numbers as the array NumPy makes of it: the kernel of an operator
    primitive is Python's operator, which would repeat or join a sequence."""
    if isinstance(operand, (list, tuple)) and not tensor.contains_tensor(operand):
        return np.asarray(operand)
    return operand


add_p = _define("add", np.add, operator.add, "+")
subtract_p = _define("subtract", np.subtract, operator.sub, "-")
multiply_p = _define("multiply", np.multiply, operator.mul, "*")
divide_p = _define("divide", np.divide, operator.truediv, "/")
floor_divide_p = _define("floor_divide", np.floor_divide, operator.floordiv, "//")
mod_p = _define("mod", np.remainder, operator.mod, "%")
power_p = _define("power", np.power, operator.pow, "**")
less_p = _define("less", np.less, operator.lt, "<")
less_equal_p = _define("less_equal", np.less_equal, operator.le, "<=")
greater_p = _define("greater", np.greater, operator.gt, ">")
greater_equal_p = _define("greater_equal", np.greater_equal, operator.ge, ">=")
equal_p = _define("equal", np.equal, operator.eq, "==")
not_equal_p = _define("not_equal", np.not_equal, operator.ne, "!=")
bitwise_and_p = _define("bitwise_and", np.bitwise_and, operator.and_, "&")
bitwise_or_p = _define("bitwise_or", np.bitwise_or, operator.or_, "|")
bitwise_xor_p = _define("bitwise_xor", np.bitwise_xor, operator.xor, "^")
left_shift_p = _define("left_shift", np.left_shift, operator.lshift, "<<")
right_shift_p = _define("right_shift", np.right_shift, operator.rshift, ">>")
negative_p = _define("negative", np.negative, operator.neg, "-")
positive_p = _define("positive", np.positive, operator.pos, "+")
invert_p = _define("invert", np.invert, operator.invert, "~")
abs_p = primitives.Primitive(
    "abs",
    abs,
    elementwise_rule("abs", np.abs, abs),
    emit=lambda ctx, eqn, a: f"abs({a[0]})",
    layout="K",
)
dispatch.implements(np.absolute)(lambda *args, **kw: _ufunc_call(abs_p, args, kw))
UFUNCS[abs_p] = np.absolute
_loop_twin(add_p, np.add)
_loop_twin(subtract_p, np.subtract)
_loop_twin(multiply_p, np.multiply)
_loop_twin(divide_p, np.divide)
_loop_twin(floor_divide_p, np.floor_divide)
_loop_twin(mod_p, np.remainder)
_loop_twin(power_p, np.power)
_loop_twin(negative_p, np.negative)
_loop_twin(abs_p, np.absolute)


def _array_power(base: Any, exponent: Any) -> Any:
    return operator.pow(np.asarray(base), exponent)


# ``a ** b`` of a 0-d array ``a``: the array's own ``**``, which takes NumPy's ``square``,
# ``sqrt`` or ``reciprocal`` for a float exponent of 2, 0.5 or -1 as a Python number, and the
# ``power`` loop otherwise; the kernel makes sure ``a`` is an array when the graph runs.
power_array_p = primitives.Primitive(
    "power_array", _array_power, elementwise_rule("power", np.power), layout="K"
)


def array_twin(prim: primitives.Primitive) -> primitives.Primitive:
    """The primitive of operator ``prim`` between 0-d operands one of which is an array."""
    return power_array_p if prim is power_p else LOOP_TWINS[prim]


def _array_or_scalar_impl(*values: Any, op: str, tags: int, arrays: tuple[int, ...]) -> Any:
    prim, operands = primitives.REGISTRY[op], values[tags:]
    if any(int(tag) in arrays for tag in values[:tags]):
        return array_twin(prim).impl(*operands)
    # a NumPy scalar's own arithmetic, whatever the graph made of the value
    return prim.impl(*[x[()] if isinstance(x, np.ndarray) else x for x in operands])


def _array_or_scalar_rule(*in_types: Any, op: str, tags: int, arrays: tuple[int, ...]) -> Any:
    return primitives.REGISTRY[op].type_rule(*in_types[tags:])


# The operator ``op`` (``add``, ``power``...) of 0-d values one of which is a 0-d array on some
# paths and a number on others (``staging.kind_rules``): its first ``tags`` operands are kind
# tags (``staging.kinds``), and where one holds a code of ``arrays`` an operand is an array on the
# path taken: the kernel then runs the array's operator (``array_twin``), else the NumPy
# scalars' own.
array_or_scalar_p = primitives.Primitive(
    "array_or_scalar", _array_or_scalar_impl, _array_or_scalar_rule, layout="K"
)


def as_operator(eqn: core.Eqn) -> core.Eqn:
    """``eqn`` as the operator it computes: an ``array_or_scalar``'s ``op`` on its operands past
    the kind tags, which pick the array's or the NumPy scalar's arithmetic (the same values, so
    executors that hand a warning's call to NumPy, and ONNX, compute the operator); any other
    equation itself."""
    if eqn.prim is not array_or_scalar_p:
        return eqn
    op = primitives.REGISTRY[eqn.params["op"]]
    return core.Eqn(op, eqn.inputs[eqn.params["tags"] :], {}, eqn.outputs, eqn.loc)


maximum_p = _define("maximum", np.maximum)
minimum_p = _define("minimum", np.minimum)
arctan2_p = _define("arctan2", np.arctan2)
logical_and_p = _define("logical_and", np.logical_and)
logical_or_p = _define("logical_or", np.logical_or)
logical_xor_p = _define("logical_xor", np.logical_xor)
logical_not_p = _define("logical_not", np.logical_not)

sign_p = _define("sign", np.sign)
exp_p = _define("exp", np.exp)
log_p = _define("log", np.log)
log1p_p = _define("log1p", np.log1p)
expm1_p = _define("expm1", np.expm1)
sqrt_p = _define("sqrt", np.sqrt)
square_p = _define("square", np.square)
sin_p = _define("sin", np.sin)
cos_p = _define("cos", np.cos)
tan_p = _define("tan", np.tan)
tanh_p = _define("tanh", np.tanh)
arctan_p = _define("arctan", np.arctan)
sinh_p = _define("sinh", np.sinh)
cosh_p = _define("cosh", np.cosh)
floor_p = _define("floor", np.floor)
ceil_p = _define("ceil", np.ceil)
isnan_p = _define("isnan", np.isnan)
isfinite_p = _define("isfinite", np.isfinite)
isinf_p = _define("isinf", np.isinf)
log2_p = _define("log2", np.log2)
log10_p = _define("log10", np.log10)
exp2_p = _define("exp2", np.exp2)
arcsin_p = _define("arcsin", np.arcsin)
arccos_p = _define("arccos", np.arccos)
arcsinh_p = _define("arcsinh", np.arcsinh)
arccosh_p = _define("arccosh", np.arccosh)
arctanh_p = _define("arctanh", np.arctanh)
reciprocal_p = _define("reciprocal", np.reciprocal)
cbrt_p = _define("cbrt", np.cbrt)
deg2rad_p = _define("deg2rad", np.deg2rad)
rad2deg_p = _define("rad2deg", np.rad2deg)
trunc_p = _define("trunc", np.trunc)
rint_p = _define("rint", np.rint)
hypot_p = _define("hypot", np.hypot)
logaddexp_p = _define("logaddexp", np.logaddexp)
fmax_p = _define("fmax", np.fmax)
fmin_p = _define("fmin", np.fmin)


def _divmod_impl(x: Any, y: Any, *, python: bool) -> Any:
    return divmod(x, y) if python else np.divmod(x, y)


_quotient_rule = elementwise_rule("divmod", np.floor_divide, operator.floordiv)
_remainder_rule = elementwise_rule("divmod", np.remainder, operator.mod)


def _divmod_rule(
    x: types.TensorType, y: types.TensorType, *, python: bool
) -> tuple[types.TensorType, types.TensorType]:
    return _quotient_rule(x, y), _remainder_rule(x, y)


def _divmod_emit(ctx: primitives.EmitContext, eqn: Any, args: Any) -> str:
    fn = "divmod" if eqn.params["python"] else ctx.const(np.divmod)
    return f"{fn}({args[0]}, {args[1]})"


# ``divmod(a, b)`` on a NumPy value, and ``np.divmod``: one call, as eager makes it, so that its
# warnings and errors name divmod (a NumPy scalar's ``divmod`` names "scalar divmod")
divmod_p = primitives.Primitive(
    "divmod", _divmod_impl, _divmod_rule, emit=_divmod_emit, multiple_results=True, layout="K"
)


@dispatch.implements(np.divmod)
def _np_divmod(x: Any, y: Any, **kwargs: Any) -> Any:
    if kwargs:
        raise dispatch.unsupported(f"np.divmod with {', '.join(sorted(kwargs))}=")
    return tuple(divmod_p.bind(x, y, python=False))


@dispatch.implements(divmod)
def _builtin_divmod(x: Any, y: Any) -> Any:
    """Python's ``divmod(x, y)`` on tensors (``Tensor.__divmod__``): ``np.divmod`` where one is
    an array, whose ``divmod`` is the ufunc's."""
    python = not (is_array(x) or is_array(y))
    return tuple(divmod_p.bind(x, y, python=python))


dispatch.implements(np.radians)(lambda *args, **kw: _ufunc_call(deg2rad_p, args, kw))
dispatch.implements(np.degrees)(lambda *args, **kw: _ufunc_call(rad2deg_p, args, kw))


def _round_impl(x: Any, decimals: int) -> Any:
    return np.round(x, decimals)


round_p = primitives.Primitive(
    "round", _round_impl, lambda x, decimals: elementwise_rule("round", np.round)(x), layout="K"
)


def _python_round_rule(x: types.TensorType, ndigits: int) -> types.TensorType:
    if not x.weak:
        raise errors.InternalError(f"Python's round of a NumPy value ({x})")
    kind = np.dtype(np.int64) if x.dtype.kind == "b" else x.dtype  # round(True, 1) == 1
    return types.TensorType(kind, (), True)


# Python's round(x, ndigits) of a Python number: correctly rounded in decimal (round(2.675, 2) is
# 2.67), where np.round scales first (2.68); what eager code gets from a Python float.
python_round_p = primitives.Primitive(
    "python_round", lambda x, ndigits: round(x, ndigits), _python_round_rule
)


@dispatch.implements(np.round, np.around)
def _round(a: Any, decimals: int = 0, out: Any = None) -> Any:
    if out is not None:
        raise dispatch.unsupported("np.round with out=")
    return round_p.bind(a, decimals=decimals)


# ---- where, clip, astype -----------------------------------------------------------------

_ALL_ONES = {2: np.uint16(0xFFFF), 4: np.uint32(0xFFFFFFFF), 8: np.uint64(0xFFFFFFFFFFFFFFFF)}


def _where_impl(condition: Any, x: Any, y: Any) -> Any:
    """``np.where(condition, x, y)``. Choosing between a float array and +0 on a boolean mask (a
    ReLU's gradient, ``np.where(x > 0, g, 0)``) keeps or clears each element's bits with an
    integer AND instead, the same bits (NaN, inf and -0.0 included) 30 times faster. Both arrays
    must be C-contiguous, so that the result is laid out as ``np.where``'s."""
    if (
        type(condition) is np.ndarray
        and condition.dtype == np.bool_
        and condition.ndim
        and condition.flags.c_contiguous
    ):
        if _positive_zero(y) and _selectable(x, y):
            return _select_bits(condition, x, keep=True)
        if _positive_zero(x) and _selectable(y, x):
            return _select_bits(condition, y, keep=False)
    return np.where(condition, x, y)


def _select_bits(condition: Any, array: Any, keep: bool) -> Any:
    """``array`` where ``condition`` is ``keep``, +0 elsewhere (broadcast together)."""
    mask = np.multiply(condition, _ALL_ONES[array.dtype.itemsize])
    if not keep:
        np.invert(mask, out=mask)
    same = np.broadcast_shapes(mask.shape, array.shape) == mask.shape
    bits = np.bitwise_and(array.view(mask.dtype), mask, out=mask if same else None)
    return bits.view(array.dtype)


def _positive_zero(value: Any) -> bool:
    return (
        (type(value) in (int, float, bool) or (isinstance(value, np.generic) and value.ndim == 0))
        and value == 0
        and not np.signbit(value)
    )


def _selectable(array: Any, zero: Any) -> bool:
    """Whether ``where`` picking from ``array`` or ``zero`` gives ``array``'s float dtype."""
    return (
        type(array) is np.ndarray
        and array.flags.c_contiguous
        and array.dtype.kind == "f"
        and array.dtype.itemsize in _ALL_ONES
        and np.result_type(array, zero) == array.dtype
    )


where_p = primitives.Primitive(
    "where", _where_impl, elementwise_rule("where", np.where), layout="K"
)


@dispatch.implements(np.where)
def _where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """``np.where(c, x, y)``; ``np.where(c)`` is ``np.nonzero(c)`` (``ops.dynamic_shape``)."""
    if x is None and y is None:
        return dispatch.FUNCTIONS[np.nonzero](condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    out = where_p.bind(condition, x, y)
    if isinstance(out, tensor.SymbolicTensor) and out.type.ndim == 0:
        out.array0d = True  # ``np.where`` gives an array, a 0-d one of 0-d operands
    return out


def _clip_impl(x: Any, lo: Any, hi: Any) -> Any:
    return np.clip(x, lo, hi)


clip_p = primitives.Primitive("clip", _clip_impl, elementwise_rule("clip", _clip_impl), layout="K")


@dispatch.implements(np.clip)
def _clip(a: Any, a_min: Any = None, a_max: Any = None, **kwargs: Any) -> Any:
    """``np.clip``; with ``out=`` the result is written into ``out`` (``np.copyto``)."""
    a_min = kwargs.pop("min", a_min)
    a_max = kwargs.pop("max", a_max)
    out = kwargs.pop("out", None)
    if kwargs:
        raise dispatch.unsupported(f"np.clip with {', '.join(sorted(kwargs))}=")
    if a_min is None and a_max is None:
        raise ValueError("np.clip: at least one of a_min and a_max must be given")
    if a_min is None:
        result = minimum_p.bind(a, a_max)
    elif a_max is None:
        result = maximum_p.bind(a, a_min)
    else:
        result = clip_p.bind(a, a_min, a_max)
    if out is None:
        return result
    np.copyto(out, result)
    return out


_PY_TYPES = {"b": "bool", "i": "int", "f": "float", "c": "complex"}


def _astype_impl(x: Any, dtype: np.dtype, weak: bool) -> Any:
    if weak:
        return getattr(__import__("builtins"), _PY_TYPES[dtype.kind])(x)
    return np.asarray(x).astype(dtype)[()] if np.ndim(x) == 0 else np.asarray(x).astype(dtype)


def _astype_rule(x: types.TensorType, dtype: np.dtype, weak: bool) -> types.TensorType:
    if weak and (x.shape != () or dtype.kind not in _PY_TYPES):
        raise errors.InternalError(f"astype to a weak {dtype} from {x}")
    return types.TensorType(dtype, x.shape, weak)


def _astype_emit(ctx: primitives.EmitContext, eqn: Any, args: Any) -> str:
    dtype, weak = eqn.params["dtype"], eqn.params["weak"]
    if weak:
        return f"{_PY_TYPES[dtype.kind]}({args[0]})"
    if eqn.inputs[0].type.shape == ():
        return f"{ctx.const(dtype.type)}({args[0]})"
    return f"{args[0]}.astype({ctx.const(dtype)})"


astype_p = primitives.Primitive("astype", _astype_impl, _astype_rule, emit=_astype_emit, layout="K")


@dispatch.implements(np.astype)
def _astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    """``np.astype`` and ``x.astype``: a strong (NumPy) value of ``dtype``; with ``copy=False``
    an array of that dtype already is returned itself, as NumPy returns it (the same object,
    sharing its memory)."""
    if not copy and tensor.is_tensor(x) and x.is_array and x.dtype == np.dtype(dtype):
        return x
    out = astype_p.bind(x, dtype=np.dtype(dtype), weak=False)
    if isinstance(out, tensor.SymbolicTensor) and out.type.ndim == 0:
        out.array0d = is_array(x)  # a 0-d array's copy is an array, a NumPy scalar's a scalar
    return out


def python_not(x: Any) -> Any:
    """Python's ``not x`` of a tensor: a Python bool (weak), as ``not`` gives one.

    Raises:
      ValueError: ``x`` has more than one element (NumPy's truth-value error, as eager raises).
      UnsupportedError: its size is known only at run time.
    """
    t: types.TensorType = x.type  # a symbolic or eager tensor: Python's ``not`` does the rest
    if t.size is None:
        raise dispatch.unsupported("not", "of an array whose size is known only at run time")
    if t.size != 1:
        raise ValueError(
            "The truth value of an array with more than one element is ambiguous. "
            "Use a.any() or a.all()"
        )
    scalar = x if t.shape == () else np.reshape(x, ())
    return astype_p.bind(logical_not_p.bind(scalar), dtype=np.dtype(np.bool_), weak=True)


@dispatch.implements(round)
def _round_scalar(x: Any, ndigits: Any = None) -> Any:
    """``round(x)`` of a 0-d tensor: a Python int, as for a Python or NumPy scalar;
    ``round(x, ndigits)``: a number of ``x``'s kind, rounded as Python rounds a Python number
    and NumPy a NumPy scalar."""
    if ndigits is None:
        return astype_p.bind(round_p.bind(x, decimals=0), dtype=np.dtype(np.int64), weak=True)
    if getattr(x, "kind_tag", None) is not None:
        # a Python number on some paths and a NumPy scalar on others (``staging.kinds``)
        raise errors.UnsupportedError(
            "round(x, ndigits) of a number that is a Python number on some paths and a NumPy "
            "scalar on others: Python rounds a Python float in decimal and returns one, NumPy "
            "rounds in binary and returns a NumPy scalar, so the result would depend on the path",
            hint="give the number one kind on every path (e.g. np.float64(...) or float(...))",
            construct="operation on a number whose kind depends on the path",
        )
    if x.type.weak:
        return python_round_p.bind(x, ndigits=operator.index(ndigits))
    return round_p.bind(x, decimals=operator.index(ndigits))
