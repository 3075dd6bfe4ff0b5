"""Gradient checks for the autodiff tests: central finite differences in float64 are the oracle.

``assert_grads(fn, *args)`` compiles ``fn`` (plain Python + NumPy returning a scalar) with
``to_static(fallback="error")``, differentiates it with ``grad``, lints the gradient graph with the
IR checker, and compares the gradients with central differences of the plain Python function,
and with the gradients of the eager tape (the same rules, replayed on records).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import tograph as tg
from tograph import eager
from tograph import gradients as api
from tograph.ir import check


def numerical_grad(
    fn: Callable[..., Any], args: Sequence[Any], i: int, eps: float = 1e-6
) -> np.ndarray:
    """d fn / d args[i] by central differences, each element perturbed in turn.

    For a complex argument ``z = x + iy`` this is ``d fn/dx - i d fn/dy``, tograph's (and JAX's)
    convention: the real and the imaginary part of each element are perturbed in turn.
    """
    is_complex = np.iscomplexobj(args[i])
    x = np.array(args[i], dtype=np.complex128 if is_complex else np.float64)
    out = np.zeros_like(x)
    directions = (1, 1j) if is_complex else (1,)
    for idx in np.ndindex(x.shape):
        for direction in directions:
            values = []
            for step in (eps, -eps):
                moved = x.copy()
                moved[idx] += step * direction
                values.append(float(fn(*args[:i], moved, *args[i + 1 :])))
            out[idx] += np.conj(direction) * (values[0] - values[1]) / (2 * eps)
    return out


def assert_grads(
    fn: Callable[..., Any],
    *args: Any,
    argnums: Sequence[int] = (0,),
    input_spec: Any = None,
    rtol: float = 1e-5,
    atol: float = 1e-6,
    eps: float = 1e-6,
    tape: bool = True,
) -> tuple[Any, ...]:
    """Compiled gradients of ``fn`` equal finite differences (and the tape's); returns them."""
    float(fn(*args))  # runs the plain function once first (lets it set up constants)
    static = tg.to_static(fn, input_spec=input_spec, fallback="error")
    g = api.grad(static, argnums=tuple(argnums))
    got = g(*args)
    check.check_graph(g.concrete(*args).graph)
    for k, i in enumerate(argnums):
        expected = numerical_grad(fn, args, i, eps)
        assert np.shape(got[k]) == np.shape(args[i]), f"gradient {k} has shape {np.shape(got[k])}"
        np.testing.assert_allclose(
            got[k], expected, rtol=rtol, atol=atol, err_msg=f"gradient wrt argument {i}"
        )
    if tape:
        taped = eager.unwrap(g.python_function(*args))
        for k in range(len(argnums)):
            np.testing.assert_allclose(
                got[k], taped[k], rtol=1e-9, atol=1e-12, err_msg="graph != tape"
            )
    return got
