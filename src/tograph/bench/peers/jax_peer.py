"""The workloads in JAX, compiled with ``jax.jit``.

Stage: benchmark peer. Input: a ``Variant`` (its NumPy inputs). Output: its contenders. JAX has
no conversion of Python control flow, so the loops are written with ``lax.while_loop``,
``lax.fori_loop``, ``lax.scan`` and ``lax.cond`` (what a JAX user writes); gradients are
``jax.value_and_grad`` inside the jitted function. 64-bit types are enabled so the float64
workloads stay float64. Every call waits for its result (``jax.block_until_ready``): JAX
dispatches asynchronously. Threads: XLA_FLAGS, set before JAX initialises its CPU backend.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from tograph.bench import timing
from tograph.bench.workloads import Variant, conversion

NAME = "jax.jit"
LEARNING_RATE = 0.1


def setup(threads: int) -> str:
    """Enables float64 on the CPU backend (threads come from XLA_FLAGS); returns the version."""
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax.__version__


def _jit(fn: Callable[..., Any]) -> Callable[..., Any]:
    compiled = jax.jit(fn)
    return lambda *args: jax.block_until_ready(compiled(*args))


def _contender(fn: Callable[..., Any], variant: Variant) -> timing.Contender:
    return timing.Contender(NAME, _jit(fn), tuple(jnp.asarray(a) for a in variant.inputs))


def w1(x: Any) -> Any:
    return lax.while_loop(lambda c: c[0] > 1.0, lambda c: (c[0] * 0.995, c[1] + 1), (x, 0))


def w3(x: Any, n: Any) -> Any:
    def step(_: Any, x: Any) -> Any:
        return lax.cond(
            jnp.mean(x) > 0.0, lambda v: jnp.sin(v) - 0.3, lambda v: jnp.cos(v) * 0.9, x
        )

    return lax.fori_loop(0, n, step, x)


def w4(a: Any, b: Any, c: Any) -> Any:
    return jnp.tanh(a * b + c) * 0.5 + a * jnp.exp(-(b * b))


def rnn(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    def step(h: Any, x: Any) -> Any:
        return jnp.tanh(x @ wx + h @ wh + b), None

    h, _ = lax.scan(step, h0, xs)
    return jnp.sum(h * h)


def mlp_loss(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    h = jnp.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    z = logits - jnp.max(logits, axis=1, keepdims=True)
    log_p = z - jnp.log(jnp.sum(jnp.exp(z), axis=1, keepdims=True))
    return -jnp.sum(y * log_p) / x.shape[0]


def sgd_step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    loss, grads = jax.value_and_grad(mlp_loss, argnums=(0, 1, 2, 3))(w1, b1, w2, b2, x, y)
    return (loss, *(p - LEARNING_RATE * g for p, g in zip((w1, b1, w2, b2), grads)))


def mlp_forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any) -> Any:
    h = jnp.maximum(x @ w1 + b1, 0.0)
    h = jnp.maximum(h @ w2 + b2, 0.0)
    return h @ w3 + b3


def two_chains(a: Any, b: Any, c: Any, d: Any) -> Any:
    x = jnp.tanh(jnp.tanh(a @ b) @ b)
    y = jnp.tanh(jnp.tanh(c @ d) @ d)
    return x + y


_FUNCTIONS = {
    "W1": w1,
    "W2.fwd": rnn,
    "W2.fwd+bwd": jax.value_and_grad(rnn, argnums=(2, 3, 4)),
    "W3": w3,
    "W4": w4,
    "W5": sgd_step,
    "W7": mlp_forward,
    "W8": two_chains,
}


def contenders(variant: Variant) -> list[timing.Contender]:
    """JAX's contenders for ``variant``."""
    if variant.workload == "W6":
        args = tuple(jnp.asarray(a) for a in variant.inputs)
        return [
            conversion.first_call(
                NAME, variant.param, jax.jit, args, jnp, finish=jax.block_until_ready
            )
        ]
    return [_contender(_FUNCTIONS[variant.key], variant)]
