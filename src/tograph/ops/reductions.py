"""Reduction primitives: sum, mean, prod, max, min, any, all, var, std, argmax, argmin, cumsum,
cumprod; ``count_nonzero`` is a sum of ``!= 0``.

Stage: graph building. Input: NumPy reductions called on tensors (``np.sum(x, axis=0)``,
``x.max()``; into an ``out=`` array of the result's dtype and shape, which is then written).
Output: one equation per call whose params are normalised (``axis`` None or a sorted tuple of
non-negative ints; a single int or None for argmax, argmin, cumsum and cumprod). The kernels are
NumPy's functions themselves, called with those params, but for the executor's shortcuts to the
same computation: ``sum``, ``prod``, ``max`` and ``min`` are emitted as the ``ufunc.reduce`` call
NumPy's function makes, and ``mean`` of a whole float array is NumPy's sum and division without its
Python-level steps (``mean_kernel``). Result dtypes are NumPy's, found by probing; reducing a weak
(Python scalar) value gives a NumPy scalar, so the result is strong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import common, indexing
from tograph.trace import dispatch, functional, tensor

# ---- type rules --------------------------------------------------------------------------


def _check_nonempty(name: str, x: types.TensorType, axes: tuple[int, ...] | None) -> None:
    """max, min, argmax and argmin have no identity: reducing a dimension of size 0 fails."""
    axes = tuple(range(x.ndim)) if axes is None else axes
    if any(x.shape[i] == 0 for i in axes):
        raise errors.ShapeError(
            f"{name}: zero-size array to reduction operation {name} which has no identity "
            f"(shape {common.fmt(x.shape)}, axis {axes})"
        )


def _reduction_rule(
    name: str, fn: Callable[..., Any], has_identity: bool = True
) -> primitives.TypeRule:
    def rule(x: types.TensorType, *, axis: Any, keepdims: bool, **params: Any) -> types.TensorType:
        axes = common.normalize_axes(axis, x, name)
        if not has_identity:
            _check_nonempty(name, x, axes)
        dtype = common.probe_dtype(name, fn, (x,), axis=axes, keepdims=keepdims, **params)
        return types.TensorType(dtype, common.reduced_shape(x, axes, keepdims))

    return rule


def _arg_reduction_rule(name: str, fn: Callable[..., Any]) -> primitives.TypeRule:
    def rule(x: types.TensorType, *, axis: int | None, keepdims: bool) -> types.TensorType:
        axes = None if axis is None else (common.normalize_axis(axis, x, name),)
        _check_nonempty(name, x, axes)
        dtype = common.probe_dtype(name, fn, (x,), axis=axis, keepdims=keepdims)
        return types.TensorType(dtype, common.reduced_shape(x, axes, keepdims))

    return rule


def _cumulative_rule(name: str, fn: Callable[..., Any]) -> primitives.TypeRule:
    def rule(x: types.TensorType, *, axis: int | None, dtype: np.dtype | None) -> types.TensorType:
        if axis is not None:
            common.normalize_axis(axis, x, name)
        out_dtype = common.probe_dtype(name, fn, (x,), axis=axis, dtype=dtype)
        return types.TensorType(out_dtype, (x.size,) if axis is None else x.shape)

    return rule


# ---- kernels -------------------------------------------------------------------------------


def _ufunc_reduce(ufunc: np.ufunc) -> primitives.Emitter:
    """Emits ``np.sum``, ``np.prod``, ``np.max`` or ``np.min`` as the ``ufunc.reduce`` call that
    NumPy's function makes after its Python-level checks, which cost as much as the reduction of
    a small array (``np.sum`` of 1000 floats: 1.5 us against 0.7 us)."""
    reduce = ufunc.reduce

    def emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
        params = dict(eqn.params)
        axis = primitives.param_expr(ctx, params.pop("axis"))
        dtype = primitives.param_expr(ctx, params.pop("dtype", None))
        keepdims = primitives.param_expr(ctx, params.pop("keepdims"))
        assert not params, f"unexpected params of {eqn.primitive}: {params}"
        return f"{ctx.const(reduce)}({args[0]}, {axis}, {dtype}, None, {keepdims})"

    return emit


_add_reduce = np.add.reduce


def mean_kernel(a: Any, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
    """``np.mean``; a float64 or float32 array averaged whole is the sum and division that
    NumPy's ``_mean`` makes (the sum, then ``/`` by the count as an intp, in float64), without
    its Python-level steps (1.5 us of the 2.5 a call on 1000 floats)."""
    if axis is None and dtype is None and not keepdims and type(a) is np.ndarray and a.size:
        kind = a.dtype.type
        if kind is np.float64:
            return _add_reduce(a, None) / a.size
        if kind is np.float32:
            return np.float32(float(_add_reduce(a, None)) / a.size)
    return np.mean(a, axis=axis, dtype=dtype, keepdims=keepdims)


# ---- primitives --------------------------------------------------------------------------

sum_p = primitives.Primitive(
    "sum", np.sum, _reduction_rule("sum", np.sum), layout="K", emit=_ufunc_reduce(np.add)
)
mean_p = primitives.Primitive("mean", mean_kernel, _reduction_rule("mean", np.mean), layout="K")
prod_p = primitives.Primitive(
    "prod", np.prod, _reduction_rule("prod", np.prod), layout="K", emit=_ufunc_reduce(np.multiply)
)
max_p = primitives.Primitive(
    "max",
    np.max,
    _reduction_rule("max", np.max, has_identity=False),
    layout="K",
    emit=_ufunc_reduce(np.maximum),
)
min_p = primitives.Primitive(
    "min",
    np.min,
    _reduction_rule("min", np.min, has_identity=False),
    layout="K",
    emit=_ufunc_reduce(np.minimum),
)
any_p = primitives.Primitive("any", np.any, _reduction_rule("any", np.any), layout="K")
all_p = primitives.Primitive("all", np.all, _reduction_rule("all", np.all), layout="K")
var_p = primitives.Primitive("var", np.var, _reduction_rule("var", np.var), layout="K")
std_p = primitives.Primitive("std", np.std, _reduction_rule("std", np.std), layout="K")
argmax_p = primitives.Primitive(
    "argmax", np.argmax, _arg_reduction_rule("argmax", np.argmax), layout="K"
)
argmin_p = primitives.Primitive(
    "argmin", np.argmin, _arg_reduction_rule("argmin", np.argmin), layout="K"
)
cumsum_p = primitives.Primitive(
    "cumsum", np.cumsum, _cumulative_rule("cumsum", np.cumsum), layout="K"
)
cumprod_p = primitives.Primitive(
    "cumprod", np.cumprod, _cumulative_rule("cumprod", np.cumprod), layout="K"
)
# Every reduction primitive of this module, for the tables that treat them alike.
ALL = (
    sum_p,
    mean_p,
    prod_p,
    max_p,
    min_p,
    any_p,
    all_p,
    var_p,
    std_p,
    argmax_p,
    argmin_p,
    cumsum_p,
    cumprod_p,
)


# ---- NumPy functions ---------------------------------------------------------------------


def reject(name: str, out: Any, rest: dict[str, Any]) -> None:
    """Raises UnsupportedError for ``out=`` and arguments tograph does not handle (``where=``)."""
    unknown = sorted(rest) + (["out"] if out is not None else [])
    if unknown:
        raise dispatch.unsupported(f"np.{name} with {', '.join(f'{k}=' for k in unknown)}")


def result_dtype(dtype: Any) -> np.dtype | None:
    """A reduction's ``dtype=`` as a NumPy dtype (None: NumPy's default)."""
    return None if dtype is None else np.dtype(dtype)


def _reduce(prim: primitives.Primitive, a: Any, axis: Any, keepdims: Any, **params: Any) -> Any:
    axes = common.normalize_axes(axis, common.operand_type(a), prim.name)
    return prim.bind(a, axis=axes, keepdims=bool(keepdims), **params)


def _into(name: str, result: Any, out: Any) -> Any:
    """``result`` written into ``out`` (and ``out`` returned, as NumPy returns it), or
    ``result`` when there is no ``out``. Only where that is NumPy's computation exactly: ``out``
    an array of the graph of the result's dtype and static shape. NumPy reduces into another
    dtype in that dtype (a float16 mean too), which rounds differently: refused, and so is a
    NumPy array from outside the graph."""
    if out is None:
        return result
    have = common.operand_type(result)
    exact = (
        tensor.is_symbolic(out)
        and out.is_array
        and out.type.dtype == have.dtype
        and out.type.shape == have.shape
        and have.is_static_shape
        and not (name == "mean" and have.dtype == np.float16)
    )
    if not exact:
        raise dispatch.unsupported(
            f"np.{name} with out=", "an out= of another dtype or shape, or from outside the graph"
        )
    if out.ndim == 0:  # kept a 0-d array (the reduction gives a NumPy scalar), as eager's is
        result = indexing.setitem(out, Ellipsis, result)
    functional.assign(out, result)
    return out


@dispatch.implements(np.sum)
def _sum(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **rest: Any
) -> Any:
    reject("sum", None, rest)
    return _into("sum", _reduce(sum_p, a, axis, keepdims, dtype=result_dtype(dtype)), out)


@dispatch.implements(np.count_nonzero)
def _count_nonzero(a: Any, axis: Any = None, *, keepdims: Any = False) -> Any:
    """``np.count_nonzero``: the sum of ``a != 0`` as intp counts (so a loss that divides by a
    count can be differentiated: the count's gradient is zero)."""
    return _sum(np.not_equal(a, 0), axis, np.intp, keepdims=keepdims)


@dispatch.implements(np.mean)
def _mean(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **rest: Any
) -> Any:
    reject("mean", None, rest)
    return _into("mean", _reduce(mean_p, a, axis, keepdims, dtype=result_dtype(dtype)), out)


@dispatch.implements(np.prod)
def _prod(
    a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = False, **rest: Any
) -> Any:
    reject("prod", None, rest)
    return _into("prod", _reduce(prod_p, a, axis, keepdims, dtype=result_dtype(dtype)), out)


@dispatch.implements(np.max, np.amax)
def _max(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **rest: Any) -> Any:
    reject("max", None, rest)
    return _into("max", _reduce(max_p, a, axis, keepdims), out)


@dispatch.implements(np.min, np.amin)
def _min(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **rest: Any) -> Any:
    reject("min", None, rest)
    return _into("min", _reduce(min_p, a, axis, keepdims), out)


@dispatch.implements(np.any)
def _any(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **rest: Any) -> Any:
    reject("any", out, rest)
    return _reduce(any_p, a, axis, keepdims)


@dispatch.implements(np.all)
def _all(a: Any, axis: Any = None, out: Any = None, keepdims: Any = False, **rest: Any) -> Any:
    reject("all", out, rest)
    return _reduce(all_p, a, axis, keepdims)


def _spread(
    prim: primitives.Primitive,
    a: Any,
    axis: Any,
    dtype: Any,
    out: Any,
    ddof: Any,
    keepdims: Any,
    rest: dict[str, Any],
) -> Any:
    if "correction" in rest:  # NumPy 2's Array API name for ddof
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = rest.pop("correction")
    reject(prim.name, out, rest)
    if tensor.is_tensor(ddof):
        raise dispatch.unsupported(f"np.{prim.name} with a tensor ddof")
    return _reduce(prim, a, axis, keepdims, dtype=result_dtype(dtype), ddof=ddof)


@dispatch.implements(np.var)
def _var(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    **rest: Any,
) -> Any:
    return _spread(var_p, a, axis, dtype, out, ddof, keepdims, rest)


@dispatch.implements(np.std)
def _std(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = False,
    **rest: Any,
) -> Any:
    return _spread(std_p, a, axis, dtype, out, ddof, keepdims, rest)


def arg_reduce(prim: primitives.Primitive, a: Any, axis: Any, out: Any, keepdims: Any) -> Any:
    """``np.argmax``-like calls of ``prim`` (also the nan* forms): one axis or all, no ``out=``."""
    reject(prim.name, out, {})
    if axis is not None:
        axis = common.normalize_axis(axis, common.operand_type(a), prim.name)
    return prim.bind(a, axis=axis, keepdims=bool(keepdims))


@dispatch.implements(np.argmax)
def _argmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    return arg_reduce(argmax_p, a, axis, out, keepdims)


@dispatch.implements(np.argmin)
def _argmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = False) -> Any:
    return arg_reduce(argmin_p, a, axis, out, keepdims)


def _cumulative(prim: primitives.Primitive, a: Any, axis: Any, dtype: Any, out: Any) -> Any:
    if axis is not None:
        axis = common.normalize_axis(axis, common.operand_type(a), prim.name)
    return _into(prim.name, prim.bind(a, axis=axis, dtype=result_dtype(dtype)), out)


@dispatch.implements(np.cumsum)
def _cumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumulative(cumsum_p, a, axis, dtype, out)


@dispatch.implements(np.cumprod)
def _cumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
    return _cumulative(cumprod_p, a, axis, dtype, out)


# ---- reduce_to -----------------------------------------------------------------------------


def _reduce_to_impl(g: Any, *dims: Any, shape: tuple[int | None, ...]) -> Any:
    target = common.fill_dims(shape, dims)
    g = np.asarray(g)
    lead = max(g.ndim - len(target), 0)
    offset = len(target) - (g.ndim - lead)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(g.shape[lead:]) if target[offset + i] == 1 and d != 1
    )
    if axes:
        g = np.sum(g, axis=axes, keepdims=True)
    return np.reshape(g, target)[()] if target == () else np.reshape(g, target)


def _reduce_to_rule(
    g: types.TensorType, *dims: types.TensorType, shape: tuple[int | None, ...]
) -> types.TensorType:
    common.check_dim_types(dims, "reduce_to")
    if len(dims) != shape.count(None):
        raise errors.InternalError(f"reduce_to to {shape} got {len(dims)} run-time dims")
    return types.TensorType(g.dtype, shape)


def _reduce_to_emit(ctx: primitives.EmitContext, eqn: Any, args: Sequence[str]) -> str:
    """The sum (``np.add.reduce``, what an array's ``.sum`` calls) and a ``.reshape`` when both
    shapes are static, else the kernel."""
    g, target = eqn.inputs[0].type, eqn.params["shape"]
    lead = g.ndim - len(target)
    if g.weak or not g.is_static_shape or None in target or lead < 0:
        return f"{ctx.const(_reduce_to_impl)}({', '.join(args)}, shape={target!r})"
    ones = tuple(lead + i for i, d in enumerate(target) if d == 1 and g.shape[lead + i] != 1)
    add = ctx.const(_add_reduce)
    if not ones:
        return f"{add}({args[0]}, {tuple(range(lead))!r}, None, None, False)"
    summed = f"{add}({args[0]}, {tuple(range(lead)) + ones!r}, None, None, True)"
    return summed if not lead else f"{summed}.reshape({target!r})"


reduce_to_p = primitives.Primitive(
    "reduce_to", _reduce_to_impl, _reduce_to_rule, emit=_reduce_to_emit
)


def reduce_to(g: Any, like: Any) -> Any:
    """``g`` summed over the axes along which ``like`` was broadcast to ``g``'s shape.

    Emits nothing when the shapes are the same and static; else a ``reduce_to`` whose unknown
    target dims are read from ``like`` at run time.
    """
    g_type, target = common.operand_type(g), common.operand_type(like).shape
    if g_type.shape == target and g_type.is_static_shape:
        return g
    dims = [like.shape[i] for i, d in enumerate(target) if d is None]
    return reduce_to_p.bind(g, *dims, shape=target)
