"""Helpers for op tests: trace a function on symbolic inputs, run the graph, compare with NumPy.

A graph is run two ways, neither depending on the executor in ``tograph.backend``: ``interpret``
calls each equation's kernel, ``run_emitted`` evaluates the expression each primitive's ``emit``
writes (as the code generator will). ``check`` compares both with the eager NumPy result: the
output type must be the type of the NumPy value (dtype, shape, Python scalar or not), and the
values must agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tograph.ir import core, types
from tograph.trace import builder, dispatch, tensor


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` as converted code makes it: through ``dispatch.OVERRIDES`` when an
    argument holds a tensor (NumPy does not dispatch ``np.zeros(n)`` or ``np.array([t])``)."""
    handler = dispatch.OVERRIDES.get(fn)
    if handler is not None and _holds_tensor((args, kwargs)):
        return handler(*args, **kwargs)
    return fn(*args, **kwargs)


def _holds_tensor(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_holds_tensor(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_tensor(v) for v in value)
    return isinstance(value, tensor.Symbolic)


def trace(fn: Callable[..., Any], *in_types: types.TensorType) -> core.Graph:
    """The graph of ``fn`` applied to symbolic inputs of ``in_types``."""
    b = builder.GraphBuilder("f")
    with b.active():
        args = [b.add_input(t, f"x{i}") for i, t in enumerate(in_types)]
        out = fn(*args)
        return b.finish(out if isinstance(out, tuple) else (out,))


def out_type(fn: Callable[..., Any], *in_types: types.TensorType) -> types.TensorType:
    """The type of the single output of ``fn`` traced on ``in_types``."""
    (result,) = trace(fn, *in_types).out_types
    return result


def interpret(graph: core.Graph, *args: Any) -> tuple[Any, ...]:
    """Runs ``graph`` by calling ``eqn.prim.impl(*inputs, **eqn.params)`` for each equation."""
    env: dict[int, Any] = {v.id: a for v, a in zip(graph.inputs, args)}

    def read(atom: core.Atom) -> Any:
        return env[atom.id] if isinstance(atom, core.Var) else atom.value

    for eqn in graph.eqns:
        out = eqn.prim.impl(*map(read, eqn.inputs), **eqn.params)
        env.update(zip((v.id for v in eqn.outputs), out if eqn.prim.multiple_results else (out,)))
    return tuple(read(a) for a in graph.outputs)


class _Context:
    """The ``EmitContext`` of ``run_emitted``: constants and values share one namespace."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {}

    def const(self, value: Any) -> str:
        name = f"c{len(self.namespace)}"
        self.namespace[name] = value
        return name


def run_emitted(graph: core.Graph, *args: Any) -> tuple[Any, ...]:
    """Runs ``graph`` by evaluating each equation's emitted expression."""
    ctx = _Context()
    names: dict[int, str] = {}
    for var, value in zip(graph.inputs, args):
        names[var.id] = ctx.const(value)

    def expr(atom: core.Atom) -> str:
        return names[atom.id] if isinstance(atom, core.Var) else ctx.const(atom.value)

    for eqn in graph.eqns:
        source = eqn.prim.emit(ctx, eqn, [expr(a) for a in eqn.inputs])
        out = eval(source, ctx.namespace)  # noqa: S307  (source built by the primitives under test)
        for var, value in zip(eqn.outputs, out if eqn.prim.multiple_results else (out,)):
            names[var.id] = ctx.const(value)
    return tuple(ctx.namespace[expr(a)] for a in graph.outputs)


def fits(expected: types.TensorType, got: types.TensorType) -> bool:
    """Whether ``got`` describes values of type ``expected`` (its unknown dims match anything)."""
    if (got.dtype, got.weak, got.ndim) != (expected.dtype, expected.weak, expected.ndim):
        return False
    return all(g is None or g == e for g, e in zip(got.shape, expected.shape))


def assert_same_value(got: Any, expected: Any) -> None:
    """Same type (dtype, shape, Python scalar or not) and the same values; no 0-d array where
    NumPy gives a NumPy scalar (the graph holds a 0-d array as a NumPy scalar: ``to_static``
    makes it an array again by what the trace knows, so the other way round is not an error)."""
    assert types.type_of(got) == types.type_of(expected), (
        types.type_of(got),
        types.type_of(expected),
    )
    assert isinstance(expected, np.ndarray) or not isinstance(got, np.ndarray), (got, expected)
    if np.asarray(expected).dtype.kind in "fc":
        rtol = 1e-2 if np.asarray(expected).dtype in (np.float16,) else 1e-5
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def check(
    fn: Callable[..., Any],
    *args: Any,
    unknown: Mapping[int, Sequence[int]] | None = None,
    exact: bool = True,
) -> core.Graph:
    """Traces ``fn`` and checks its output types and both runs against ``fn(*args)`` in NumPy.

    Args:
      fn: the function under test, called with NumPy values and with symbolic tensors.
      *args: concrete inputs; Python scalars become weak inputs.
      unknown: for some argument positions, the axes whose dims are ``None`` in the traced type.
      exact: require the output types to equal NumPy's; else known dims must match (for outputs
        with dims known only at run time). Implied false when ``unknown`` is given.

    Returns:
      The traced graph.
    """
    in_types = [types.type_of(a) for a in args]
    for i, axes in (unknown or {}).items():
        t = in_types[i]
        in_types[i] = t.with_shape([None if k in axes else d for k, d in enumerate(t.shape)])
    expected = fn(*args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    graph = trace(fn, *in_types)
    for got_type, value in zip(graph.out_types, expected, strict=True):
        want = types.type_of(value)
        assert fits(want, got_type), f"type {got_type} does not describe NumPy's {want}\n{graph}"
        if exact and not unknown:
            assert got_type == want, f"type {got_type} != NumPy's {want}\n{graph}"
    for run in (interpret, run_emitted):
        for got, value in zip(run(graph, *args), expected, strict=True):
            assert_same_value(got, value)
    return graph
