"""VJP rules of the elementwise, reduction and creation primitives, one short rule per primitive.

Stage: autodiff. Input: the cotangent ``g`` of a primitive's output, its inputs and output
(``out``) and its params. Output: one cotangent per input, or None where none flows (constants,
integer operands, non-differentiable primitives). Rules are written with NumPy functions on
tensors, so they emit ordinary equations while a gradient graph is built: the gradient graph is a
graph like any other. A rule may return a cotangent of a broader dtype than its input; the sweep
converts it (``vjp.fit``). Inputs may be constants (NumPy values or Python numbers).
Rules of the array primitives are in ``array_rules``, ``rearrange_rules``, ``scatter_rules`` and
``index_rules``, of products in ``cumulative_rules``, of the generic ufunc methods in
``ufunc_method_rules``; ``cond`` and ``while_loop`` in ``control_flow``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives
from tograph.ops import (
    common,
    complex_parts,
    composites,
    creation,
    python_order,
    reductions,
    stop_gradient,
)
from tograph.ops import elementwise as ew
from tograph.ops import shape as shape_ops
from tograph.trace import tensor

Rule = Callable[..., tuple[Any, ...]]


def defvjp(*prims: primitives.Primitive) -> Callable[[Rule], Rule]:
    """Registers the decorated function as the VJP rule of ``prims``."""

    def register(rule: Rule) -> Rule:
        for prim in prims:
            prim.vjp = rule
        return rule

    return register


def unbroadcast(g: Any, x: Any) -> Any:
    """``g`` summed back to the shape of the operand ``x`` that was broadcast to produce it."""
    return reductions.reduce_to(g, x)


def shape_of(x: Any) -> tuple[Any, ...]:
    """The shape of a tensor (run-time dims as scalar tensors) or of a constant."""
    return x.shape if tensor.is_tensor(x) else np.shape(x)


def conj(x: Any) -> Any:
    """``x`` conjugated if it is complex; a real ``x`` itself (no equation)."""
    return complex_parts.conj_p.bind(x) if complex_parts.is_complex(x) else x


def is_number(x: Any, value: float) -> bool:
    """Whether ``x`` is the constant ``value`` (not a tensor)."""
    return not tensor.is_tensor(x) and np.ndim(x) == 0 and x == value


# ---- elementwise -------------------------------------------------------------------------


@defvjp(
    ew.less_p,
    ew.less_equal_p,
    ew.greater_p,
    ew.greater_equal_p,
    ew.equal_p,
    ew.not_equal_p,
    ew.bitwise_and_p,
    ew.bitwise_or_p,
    ew.bitwise_xor_p,
    ew.invert_p,
    ew.left_shift_p,
    ew.right_shift_p,
    ew.logical_and_p,
    ew.logical_or_p,
    ew.logical_xor_p,
    ew.logical_not_p,
    ew.isnan_p,
    ew.isfinite_p,
    ew.isinf_p,
    ew.trunc_p,
    ew.rint_p,
    ew.floor_divide_p,
    ew.LOOP_TWINS[ew.floor_divide_p],
    ew.sign_p,
    ew.floor_p,
    ew.ceil_p,
    ew.round_p,
    ew.python_round_p,
    reductions.any_p,
    reductions.all_p,
    reductions.argmax_p,
    reductions.argmin_p,
    composites.argsort_p,
    python_order.python_order_p,
    creation.arange_p,
    creation.eye_p,
    stop_gradient.stop_gradient_p,
)
def zero(g: Any, *args: Any, out: Any, **params: Any) -> tuple[Any, ...]:
    """Piecewise constant or non-float results, or a stopped gradient: no cotangent flows back."""
    return (None,) * len(args)


@defvjp(ew.add_p, ew.LOOP_TWINS[ew.add_p])
def _add(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g, x), unbroadcast(g, y)


@defvjp(ew.subtract_p, ew.LOOP_TWINS[ew.subtract_p])
def _subtract(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g, x), unbroadcast(-g, y)


@defvjp(ew.multiply_p, ew.LOOP_TWINS[ew.multiply_p])
def _multiply(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g * y, x), unbroadcast(g * x, y)


@defvjp(ew.divide_p, ew.LOOP_TWINS[ew.divide_p])
def _divide(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g / y, x), unbroadcast(-g * out / y, y)


@defvjp(ew.mod_p, ew.LOOP_TWINS[ew.mod_p])
def _mod(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g, x), unbroadcast(-g * np.floor_divide(x, y), y)


@defvjp(ew.divmod_p)
def _divmod(g: tuple[Any, Any], x: Any, y: Any, *, out: tuple[Any, Any], python: bool) -> Any:
    """The quotient is piecewise constant; the remainder is ``mod``'s: ``x - y * quotient``."""
    remainder = g[1]
    if remainder is None:
        return None, None
    return unbroadcast(remainder, x), unbroadcast(-remainder * out[0], y)


@defvjp(ew.power_p, ew.LOOP_TWINS[ew.power_p], ew.power_array_p)
def _power(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    slope = 2 * x if is_number(y, 2) else y * x ** (y - 1)
    log_x = np.log(np.where(x > 0, x, 1))
    return unbroadcast(g * slope, x), unbroadcast(g * out * log_x, y)


@defvjp(ew.array_or_scalar_p)
def _array_or_scalar(g: Any, *args: Any, out: Any, op: str, tags: int, **params: Any) -> Any:
    """The operator's own rule: on arrays and on scalars it computes the same function."""
    rule = primitives.REGISTRY[op].vjp
    if rule is None:
        raise errors.InternalError(f"array_or_scalar of {op}, which has no VJP rule. This is a bug")
    return (None,) * tags + tuple(rule(g, *args[tags:], out=out))


@defvjp(ew.arctan2_p)
def _arctan2(g: Any, y: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    g = g / (x * x + y * y)
    return unbroadcast(g * x, y), unbroadcast(-g * y, x)


@defvjp(ew.maximum_p)
def _maximum(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    pick_x = x >= y
    return unbroadcast(np.where(pick_x, g, 0), x), unbroadcast(np.where(pick_x, 0, g), y)


@defvjp(ew.minimum_p)
def _minimum(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    pick_x = x <= y
    return unbroadcast(np.where(pick_x, g, 0), x), unbroadcast(np.where(pick_x, 0, g), y)


@defvjp(ew.clip_p)
def _clip(g: Any, x: Any, lo: Any, hi: Any, *, out: Any) -> tuple[Any, ...]:
    below, above = x < lo, x > hi
    inside = np.logical_not(np.logical_or(below, above))
    return (
        unbroadcast(np.where(inside, g, 0), x),
        unbroadcast(np.where(below, g, 0), lo),
        unbroadcast(np.where(above, g, 0), hi),
    )


@defvjp(ew.where_p)
def _where(g: Any, c: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return None, unbroadcast(np.where(c, g, 0), x), unbroadcast(np.where(c, 0, g), y)


@defvjp(ew.negative_p, ew.LOOP_TWINS[ew.negative_p])
def _negative(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (-g,)


@defvjp(ew.positive_p, ew.astype_p)
def _identity(g: Any, x: Any, *, out: Any, **params: Any) -> tuple[Any, ...]:
    return (g,)


@defvjp(ew.abs_p, ew.LOOP_TWINS[ew.abs_p])
def _abs(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * conj(np.sign(x)),)  # z / |z| for complex z, conjugated (see complex_rules)


@defvjp(ew.exp_p)
def _exp(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * out,)


@defvjp(ew.expm1_p)
def _expm1(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (out + 1),)


@defvjp(ew.log_p)
def _log(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / x,)


@defvjp(ew.log1p_p)
def _log1p(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (1 + x),)


@defvjp(ew.sqrt_p)
def _sqrt(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (2 * out),)


@defvjp(ew.square_p)
def _square(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (2 * x),)


@defvjp(ew.sin_p)
def _sin(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * np.cos(x),)


@defvjp(ew.cos_p)
def _cos(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (-g * np.sin(x),)


@defvjp(ew.tan_p)
def _tan(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (1 + out * out),)


@defvjp(ew.tanh_p)
def _tanh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (1 - out * out),)


@defvjp(ew.arctan_p)
def _arctan(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (1 + x * x),)


@defvjp(ew.sinh_p)
def _sinh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * np.cosh(x),)


@defvjp(ew.cosh_p)
def _cosh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * np.sinh(x),)


@defvjp(ew.log2_p)
def _log2(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (x * np.log(2.0)),)


@defvjp(ew.log10_p)
def _log10(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (x * np.log(10.0)),)


@defvjp(ew.exp2_p)
def _exp2(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * out * np.log(2.0),)


@defvjp(ew.arcsin_p)
def _arcsin(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / np.sqrt(1 - x * x),)


@defvjp(ew.arccos_p)
def _arccos(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (-g / np.sqrt(1 - x * x),)


@defvjp(ew.arcsinh_p)
def _arcsinh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / np.sqrt(x * x + 1),)


@defvjp(ew.arccosh_p)
def _arccosh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / np.sqrt(x * x - 1),)


@defvjp(ew.arctanh_p)
def _arctanh(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (1 - x * x),)


@defvjp(ew.reciprocal_p)
def _reciprocal(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (-g * out * out,)


@defvjp(ew.cbrt_p)
def _cbrt(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g / (3 * out * out),)


@defvjp(ew.deg2rad_p)
def _deg2rad(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (np.pi / 180),)


@defvjp(ew.rad2deg_p)
def _rad2deg(g: Any, x: Any, *, out: Any) -> tuple[Any, ...]:
    return (g * (180 / np.pi),)


@defvjp(ew.hypot_p)
def _hypot(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g * x / out, x), unbroadcast(g * y / out, y)


@defvjp(ew.logaddexp_p)
def _logaddexp(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    return unbroadcast(g * np.exp(x - out), x), unbroadcast(g * np.exp(y - out), y)


@defvjp(ew.fmax_p)
def _fmax(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    pick_x = (x >= y) | np.isnan(y)
    return unbroadcast(np.where(pick_x, g, 0), x), unbroadcast(np.where(pick_x, 0, g), y)


@defvjp(ew.fmin_p)
def _fmin(g: Any, x: Any, y: Any, *, out: Any) -> tuple[Any, ...]:
    pick_x = (x <= y) | np.isnan(y)
    return unbroadcast(np.where(pick_x, g, 0), x), unbroadcast(np.where(pick_x, 0, g), y)


# ---- reductions --------------------------------------------------------------------------


def spread(g: Any, x: Any, axis: tuple[int, ...] | None, keepdims: bool) -> Any:
    """The cotangent of a reduction of ``x`` over ``axis`` broadcast back to ``x``'s shape."""
    if not keepdims:
        g = np.expand_dims(g, tuple(range(np.ndim(x))) if axis is None else axis)
    return shape_ops.broadcast_to(g, shape_of(x))


def count(x: Any, axis: tuple[int, ...] | None) -> Any:
    """How many elements of ``x`` a reduction over ``axis`` combines (a tensor for unknown dims)."""
    dims = shape_of(x)
    total: Any = 1
    for i in range(len(dims)) if axis is None else axis:
        total = total * dims[i]
    return total


@defvjp(reductions.sum_p)
def _sum(g: Any, x: Any, *, out: Any, axis: Any, dtype: Any, keepdims: bool) -> tuple[Any, ...]:
    return (spread(g, x, axis, keepdims),)


@defvjp(reductions.mean_p)
def _mean(g: Any, x: Any, *, out: Any, axis: Any, dtype: Any, keepdims: bool) -> tuple[Any, ...]:
    return (spread(g, x, axis, keepdims) / count(x, axis),)


@defvjp(reductions.max_p, reductions.min_p)
def _extremum(g: Any, x: Any, *, out: Any, axis: Any, keepdims: bool) -> tuple[Any, ...]:
    hits = x == spread(out, x, axis, keepdims)
    ties = np.sum(hits, axis=axis, keepdims=True, dtype=common.operand_type(x).dtype)
    return (np.where(hits, spread(g, x, axis, keepdims), 0) / ties,)


@defvjp(reductions.var_p)
def _var(
    g: Any, x: Any, *, out: Any, axis: Any, dtype: Any, ddof: Any, keepdims: bool
) -> tuple[Any, ...]:
    centred = conj(x - np.mean(x, axis=axis, keepdims=True))
    return (spread(g, x, axis, keepdims) * (2 * centred) / (count(x, axis) - ddof),)


@defvjp(reductions.std_p)
def _std(
    g: Any, x: Any, *, out: Any, axis: Any, dtype: Any, ddof: Any, keepdims: bool
) -> tuple[Any, ...]:
    centred = conj(x - np.mean(x, axis=axis, keepdims=True))
    return (spread(g / out, x, axis, keepdims) * centred / (count(x, axis) - ddof),)


@defvjp(reductions.cumsum_p)
def _cumsum(g: Any, x: Any, *, out: Any, axis: Any, dtype: Any) -> tuple[Any, ...]:
    if axis is None:
        return (shape_ops.reshape(np.flip(np.cumsum(np.flip(g))), shape_of(x)),)
    return (np.flip(np.cumsum(np.flip(g, axis), axis=axis), axis),)


# ---- creation ----------------------------------------------------------------------------


@defvjp(creation.full_p)
def _full(g: Any, fill: Any, *dims: Any, out: Any, shape: Any, dtype: Any) -> tuple[Any, ...]:
    return (unbroadcast(g, fill),) + (None,) * len(dims)


@defvjp(creation.linspace_p)
def _linspace(
    g: Any,
    start: Any,
    stop: Any,
    *dims: Any,
    out: Any,
    num: Any,
    endpoint: bool,
    dtype: Any,
    axis: int,
) -> tuple[Any, ...]:
    steps = creation.linspace_p.bind(
        0.0, 1.0, *dims, num=num, endpoint=endpoint, dtype=None, axis=0
    )
    trailing = np.ndim(g) - axis - 1
    steps = shape_ops.reshape(steps, (-1,) + (1,) * trailing)
    to_stop = np.sum(g * steps, axis=axis)
    to_start = np.sum(g, axis=axis) - to_stop
    return (unbroadcast(to_start, start), unbroadcast(to_stop, stop)) + (None,) * len(dims)
