"""Host calls: a pure NumPy function with no primitive of its own runs as one graph equation.

Stage: graph building. Input: a NumPy function, ufunc or ufunc method called on tensors that has
no handler (or whose handler refused these arguments), when ``ops.host_api`` says it is pure.
Output: one ``numpy_call`` equation whose kernel calls the NumPy function itself each time the
graph runs, so its values, dtypes and errors are NumPy's. Printed form::

    t0:f64[] = numpy_call[fn=np.median] x
    t1:i64[None] = numpy_call[args=($0, 4), fn=np.bincount, kwargs=()] t0

``args`` and ``kwargs`` (left out when the tensors are the only, positional, arguments) hold the
call's static arguments with ``$k`` where the k-th tensor goes, inside lists too. The output type
comes from probing NumPy on small arrays of the input types (``host_probe``): dims that differ
between probes, or that ``host_api.DATA_SHAPED`` says depend on the values, are unknown (None).
The generated code checks each result's known dims, so a probe that guessed a dim wrongly is an
error, never a wrong shape. A host call has no gradient: differentiating through one is an error
naming the function and its line (``autodiff.vjp``). Saved graphs name the function (a
``NumpyFunction``), which loading looks up in NumPy's own namespaces only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import host_api, host_probe, indexing
from tograph.trace import dispatch, tensor


@dataclasses.dataclass(frozen=True)
class NumpyFunction:
    """A pure NumPy callable by name: ``path`` as ``host_api.SPACES`` reaches it (``"median"``,
    ``"linalg.tensorsolve"``) and, for a ufunc, the method (``"reduceat"``; empty: a call)."""

    path: str
    method: str = ""

    def __post_init__(self) -> None:
        reason = host_api.why_impure(self.path)
        if reason is not None:
            raise ValueError(f"np.{self.path} {reason}: it cannot run as a host call")
        if self.method and not isinstance(host_api.resolve(self.path), np.ufunc):
            raise ValueError(f"np.{self.path} is not a ufunc, so it has no method {self.method}")
        if self.method not in ("", "reduce", "accumulate", "reduceat", "outer"):
            raise ValueError(f"ufunc method {self.method!r} cannot run as a host call")

    @property
    def fn(self) -> Any:
        """The NumPy callable itself."""
        found = host_api.resolve(self.path)
        return getattr(found, self.method) if self.method else found

    def __repr__(self) -> str:
        return f"np.{self.path}" + (f".{self.method}" if self.method else "")


def _impl(
    *values: Any,
    fn: NumpyFunction,
    args: tuple[Any, ...] | None = None,
    kwargs: tuple[tuple[str, Any], ...] = (),
) -> tuple[Any, ...]:
    positional, keywords = host_probe.call_parts(values, args, kwargs)
    result = fn.fn(*positional, **keywords)
    return tuple(_fresh(leaf, values) for leaf in host_probe.leaves(result))


def _fresh(leaf: Any, inputs: Sequence[Any]) -> Any:
    """``leaf``, copied if it may share memory with an input (a host call never aliases)."""
    if isinstance(leaf, np.ndarray) and any(
        isinstance(a, np.ndarray) and np.may_share_memory(leaf, a) for a in inputs
    ):
        return leaf.copy()
    return leaf


def _rule(
    *in_types: types.TensorType,
    fn: NumpyFunction,
    args: tuple[Any, ...] | None = None,
    kwargs: tuple[tuple[str, Any], ...] = (),
) -> tuple[types.TensorType, ...]:
    return host_probe.result(fn, in_types, args, kwargs).types


def _check_shape(value: Any, shape: tuple[int | None, ...], fn: NumpyFunction) -> Any:
    got = np.shape(value)
    if len(got) != len(shape) or any(d is not None and d != g for d, g in zip(shape, got)):
        raise errors.ShapeError(
            f"{fn!r} returned shape {got} where the graph expects {shape}: the shape of its "
            "result depends on the values in a way the probes did not show"
        )
    return value


def _emit(ctx: primitives.EmitContext, eqn: Any, arg_exprs: Sequence[str]) -> str:
    """The kernel's call, each result with known dims checked against its type. A ufunc called
    on the tensors alone is called straight from the generated line, as the user's line calls it
    (its results are new arrays), so its floating-point warnings name that line."""
    fn = eqn.params["fn"]
    operands = _ufunc_operands(ctx, eqn.params, arg_exprs)
    if operands is not None:
        call = f"{ctx.const(fn.fn)}({', '.join(operands)})"
        call = call if fn.fn.nout > 1 else f"({call},)"
    else:
        call = numpy_call_p._emit_call(ctx, eqn, arg_exprs)
    shapes = tuple(v.type.shape for v in eqn.outputs)
    if all(all(d is None for d in shape) for shape in shapes if shape):
        return call
    check = ctx.const(_check_all)
    return f"{check}({call}, {primitives.param_expr(ctx, shapes)}, {ctx.const(fn)})"


def _ufunc_operands(
    ctx: primitives.EmitContext, params: dict[str, Any], arg_exprs: Sequence[str]
) -> list[str] | None:
    """The operands' code of a ufunc called on tensors and Python numbers alone (None for any
    other call)."""
    fn = params["fn"]
    if fn.method or not isinstance(fn.fn, np.ufunc) or params.get("kwargs"):
        return None
    args = params.get("args")
    if args is None:
        return list(arg_exprs)
    if not all(isinstance(a, (indexing.Arg, bool, int, float, complex)) for a in args):
        return None
    return [
        arg_exprs[a.k]
        if isinstance(a, indexing.Arg)
        else repr(a)
        if isinstance(a, int)
        else ctx.const(a)
        for a in args
    ]


def _check_all(
    results: tuple[Any, ...], shapes: tuple[tuple[int | None, ...], ...], fn: NumpyFunction
) -> tuple[Any, ...]:
    return tuple(_check_shape(v, s, fn) for v, s in zip(results, shapes))


numpy_call_p = primitives.Primitive(
    "numpy_call", _impl, _rule, emit=_emit, multiple_results=True, layout=None
)


# ---- building the call -------------------------------------------------------------------------


def template(value: Any, tensors: list[Any]) -> Any:
    """``value`` as a static template: tensors become ``$k`` (collected), arrays StaticArrays."""
    if tensor.is_tensor(value):
        tensors.append(value.plain() if isinstance(value, tensor.SymbolicTensor) else value)
        return indexing.Arg(len(tensors) - 1)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(template(item, tensors) for item in value)
    if isinstance(value, np.ndarray):
        return indexing.StaticArray(value)
    if isinstance(value, dict) or tensor.is_symbolic(value):
        raise errors.UnsupportedError(
            f"a host call cannot pass a {type(value).__name__} holding tensors",
            construct="NumPy call",
        )
    return value


def host_call(name: NumpyFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``name.fn(*args, **kwargs)`` as one ``numpy_call`` equation; the result is structured as
    NumPy's (a value, or a tuple or list of values)."""
    tensors: list[Any] = []
    arg_template = template(tuple(args), tensors)
    kw_template = tuple((k, template(v, tensors)) for k, v in kwargs.items())
    params: dict[str, Any] = {"fn": name}
    if kw_template or any(
        not isinstance(a, indexing.Arg) or a.k != i for i, a in enumerate(arg_template)
    ):
        params.update(args=arg_template, kwargs=kw_template)
    probed = host_probe.result(
        name, tuple(types.tensor_type(t.type) for t in tensors), params.get("args"), kw_template
    )
    outs = numpy_call_p.bind(*tensors, **params)
    for out, is_array in zip(outs, probed.array0d):
        if isinstance(out, tensor.SymbolicTensor):
            out.array0d = is_array
    return probed.tree.unflatten(list(outs))


def function_handler(fn: Any, method: str = "") -> Any:
    """The host-call handler of NumPy callable ``fn`` (a ufunc's ``method``); for an impure one
    a handler that falls back naming the reason; None for a callable NumPy does not name.
    Installed as ``dispatch``'s fallback."""
    path = host_api.name_of(fn)
    if path is None or method == "at":
        return None
    reason = host_api.why_impure(path)
    if reason is not None:
        return _refusal(dispatch.numpy_name(fn), reason)
    if method and method not in ("reduce", "accumulate", "reduceat", "outer"):
        return None
    if path in host_api.STATIC_QUERIES:
        return lambda *args, **kwargs: fn(*host_probe.stand_ins(args), **kwargs)
    if path in host_api.SHAPE_QUERIES:
        return lambda *args, **kwargs: fn(*host_probe.stand_ins(args, exact=True), **kwargs)
    if path in host_api.BUILD_TIME:
        return lambda *args, **kwargs: _refuse_build_time(path)
    name = NumpyFunction(path, method)

    def handler(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("out") is not None:
            raise dispatch.unsupported(repr(name), "it writes into out=")
        return host_call(name, args, kwargs)

    return handler


def _refusal(name: str, reason: str) -> Any:
    """The handler of an impure function: it falls back, saying why (``refuses`` tells
    ``trace.tensor`` to keep a primitive handler's own refusal instead)."""

    def handler(*args: Any, **kwargs: Any) -> Any:
        raise dispatch.unsupported(name, reason)

    handler.refuses = True  # type: ignore[attr-defined]
    return handler


def _refuse_build_time(path: str) -> Any:
    raise dispatch.unsupported(
        f"np.{path}",
        "it is evaluated while the graph is built, and an argument is known only when it runs",
    )


dispatch.set_fallback(function_handler)
