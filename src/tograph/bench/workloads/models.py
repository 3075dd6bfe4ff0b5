"""W2 (RNN), W5 (MLP SGD step) and W7 (MLP inference, batch 1).

Stage: benchmark definitions. Input: a size. Output: the workloads' ``Variant``s. W2 and W5 use
the RNN and MLP of ``benchmarks/bench_autodiff.py`` (``rnn``, ``rnn_by_hand``, ``mlp``,
``mlp_by_hand``): tograph compiles ``rnn`` (its ``for`` over ``range(xs.shape[0])`` with the
time dimension dynamic, so a ``while_loop``) and differentiates it and ``mlp`` with
``value_and_grad``; the NumPy side is the same forward pass and the hand-written gradients.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph as tg
from tograph import gradients as autodiff
from tograph.bench import scripts, timing
from tograph.bench.workloads.base import Variant

LEARNING_RATE = 0.1


def _numpy_and_tograph(
    fn: Callable[..., Any], compiled: Any, inputs: tuple[Any, ...]
) -> dict[str, Any]:
    return {
        "inputs": inputs,
        "numpy": timing.Contender("numpy", fn, inputs),
        "tograph": timing.Contender("tograph", compiled, inputs),
    }


# ---- W2 ----------------------------------------------------------------------------------------


def rnn_inputs(size: str) -> tuple[Any, ...]:
    """``(xs, h0, wx, wh, b)``: T=200, B=16, D=32, H=64 float64 (smoke: 5, 2, 3, 4)."""
    t, b, d, h = (200, 16, 32, 64) if size == "full" else (5, 2, 3, 4)
    rng = np.random.default_rng(2)
    return (
        rng.normal(size=(t, b, d)),
        np.zeros((b, h)),
        rng.normal(size=(d, h)) * 0.2,
        rng.normal(size=(h, h)) * 0.2,
        np.zeros(h),
    )


def w2_variants(size: str) -> list[Variant]:
    """W2 forward (``rnn``) and forward+backward (value and gradients wrt wx, wh, b)."""
    bench = scripts.load("bench_autodiff")
    inputs = rnn_inputs(size)
    spec = [tg.TensorSpec((None,) + inputs[0].shape[1:]), None, None, None, None]
    forward = tg.to_static(bench.rnn, input_spec=spec, fallback="error")
    value_and_grad = autodiff.value_and_grad(forward, argnums=(2, 3, 4))
    t, batch, _ = inputs[0].shape
    hidden = inputs[1].shape[1]
    return [
        Variant(
            key="W2.fwd",
            workload="W2",
            title=f"RNN T={t} B={batch} H={hidden} fwd",
            **_numpy_and_tograph(bench.rnn, forward, inputs),
            rtol=1e-9,
        ),
        Variant(
            key="W2.fwd+bwd",
            workload="W2",
            title=f"RNN T={t} B={batch} H={hidden} fwd+bwd",
            **_numpy_and_tograph(bench.rnn_by_hand, value_and_grad, inputs),
            rtol=1e-7,
            atol=1e-9,
        ),
    ]


# ---- W5 ----------------------------------------------------------------------------------------


def mlp_inputs(size: str) -> tuple[Any, ...]:
    """``(w1, b1, w2, b2, x, y)`` float32: 784-256-10, batch 128, one-hot ``y`` (smoke: 6-5-3)."""
    n_in, hidden, n_out, batch = (784, 256, 10, 128) if size == "full" else (6, 5, 3, 4)
    rng = np.random.default_rng(5)
    f32 = np.float32
    return (
        (rng.normal(size=(n_in, hidden)) * 0.05).astype(f32),
        np.zeros(hidden, f32),
        (rng.normal(size=(hidden, n_out)) * 0.05).astype(f32),
        np.zeros(n_out, f32),
        rng.normal(size=(batch, n_in)).astype(f32),
        np.eye(n_out, dtype=f32)[rng.integers(0, n_out, batch)],
    )


def _sgd_steps() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The SGD step by hand in NumPy, and the same step written with ``value_and_grad``."""
    bench = scripts.load("bench_autodiff")
    value_and_grad = autodiff.value_and_grad(bench.mlp, argnums=(0, 1, 2, 3))

    def numpy_step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
        loss, (g1, gb1, g2, gb2) = bench.mlp_by_hand(w1, b1, w2, b2, x, y)
        lr = LEARNING_RATE
        return loss, w1 - lr * g1, b1 - lr * gb1, w2 - lr * g2, b2 - lr * gb2

    def sgd_step(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
        loss, (g1, gb1, g2, gb2) = value_and_grad(w1, b1, w2, b2, x, y)
        lr = LEARNING_RATE
        return loss, w1 - lr * g1, b1 - lr * gb1, w2 - lr * g2, b2 - lr * gb2

    return numpy_step, sgd_step


def w5_variants(size: str) -> list[Variant]:
    """W5: one SGD step (loss, gradients, updated parameters), compiled whole by tograph."""
    numpy_step, sgd_step = _sgd_steps()
    inputs = mlp_inputs(size)
    compiled = tg.to_static(sgd_step, fallback="error")
    layers = f"{inputs[0].shape[0]}-{inputs[0].shape[1]}-{inputs[2].shape[1]}"
    title = f"MLP {layers} SGD, batch {inputs[4].shape[0]}"
    return [
        Variant(
            key="W5",
            workload="W5",
            title=title,
            **_numpy_and_tograph(numpy_step, compiled, inputs),
            rtol=1e-4,
            atol=1e-6,
        )
    ]


# ---- W7 ----------------------------------------------------------------------------------------


def mlp_forward(x: Any, w1: Any, b1: Any, w2: Any, b2: Any, w3: Any, b3: Any) -> Any:
    """A ReLU network's logits."""
    h = np.maximum(x @ w1 + b1, 0.0)
    h = np.maximum(h @ w2 + b2, 0.0)
    return h @ w3 + b3


def w7_inputs(size: str) -> tuple[Any, ...]:
    """``(x, w1, b1, w2, b2, w3, b3)`` float32, 512-256-128-2, batch 1 (smoke: 8-6-4-2)."""
    sizes = (512, 256, 128, 2) if size == "full" else (8, 6, 4, 2)
    rng = np.random.default_rng(7)
    params: list[Any] = []
    for n_in, n_out in itertools.pairwise(sizes):
        params += [rng.normal(size=(n_in, n_out)) / np.sqrt(n_in), rng.normal(size=n_out) * 0.1]
    x = rng.normal(size=(1, sizes[0]))
    return tuple(a.astype(np.float32) for a in (x, *params))


def w7_variants(size: str) -> list[Variant]:
    """W7: ``mlp_forward`` per call, samples of 1000 calls (smoke: 2)."""
    inputs = w7_inputs(size)
    compiled = tg.to_static(mlp_forward, fallback="error")
    layers = "-".join(str(w.shape[0]) for w in inputs[1::2]) + f"-{inputs[-1].shape[0]}"
    return [
        Variant(
            key="W7",
            workload="W7",
            title=f"MLP {layers} b=1, per call",
            **_numpy_and_tograph(mlp_forward, compiled, inputs),
            rtol=1e-4,
            atol=1e-5,
            number=1000 if size == "full" else 2,
        )
    ]
