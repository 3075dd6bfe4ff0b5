"""Autodiff benchmark: value_and_grad against the forward pass and against hand-written NumPy.

Run as ``python benchmarks/bench_autodiff.py [--repeats N] [--blas-threads N]``. Two cases:

* ``rnn``: a tanh RNN, ``h = tanh(x[t] @ Wx + h @ Wh + b)`` for ``t in range(T)`` over a tensor
  range (T=200 known only at run time, so a ``while_loop``), batch 16, hidden 64, inputs 32,
  loss ``sum(h * h)``, gradients with respect to Wx, Wh and b;
* ``mlp``: a 784-256-10 ReLU network on a batch of 128 (float32), softmax cross-entropy loss,
  gradients with respect to all four parameters (one training step's work).

Four functions are timed per case, in short interleaved samples (a busy machine slows all alike):
the compiled forward pass, ``tg.value_and_grad`` of it (compiled), the forward pass in plain
NumPy, and value and gradients hand-written in NumPy. The table shows the medians (ms) and the
ratios value_and_grad / forward (target: at most 3) and value_and_grad / hand-written (target:
at most 1.5). BLAS runs on ``--blas-threads`` threads (default 1): idle BLAS threads spinning
on a small machine would otherwise slow down whichever side runs just after a matrix product.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=31)
    parser.add_argument("--blas-threads", type=int, default=1)
    return parser.parse_args()


OPTIONS = (
    _options() if __name__ == "__main__" else argparse.Namespace(repeats=31, blas_threads=None)
)
if OPTIONS.blas_threads:  # must be set before NumPy loads its BLAS
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = str(OPTIONS.blas_threads)

import numpy as np

import tograph as tg
from tograph import gradients as api

# ---- rnn -----------------------------------------------------------------------------------

T, B, D, H = 200, 16, 32, 64


def rnn(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    """The forward pass (compiled as is, and timed as plain NumPy)."""
    h = h0
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return np.sum(h * h)


def rnn_by_hand(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> Any:
    """Value and gradients (wx, wh, b), written out in NumPy."""
    hs = [h0]
    for t in range(xs.shape[0]):
        hs.append(np.tanh(xs[t] @ wx + hs[-1] @ wh + b))
    dh = 2 * hs[-1]
    dwx, dwh, db = np.zeros_like(wx), np.zeros_like(wh), np.zeros_like(b)
    for t in range(xs.shape[0] - 1, -1, -1):
        dpre = dh * (1 - hs[t + 1] * hs[t + 1])
        dwx += xs[t].T @ dpre
        dwh += hs[t].T @ dpre
        db += dpre.sum(axis=0)
        dh = dpre @ wh.T
    return np.sum(hs[-1] * hs[-1]), (dwx, dwh, db)


def rnn_case(rng: np.random.Generator) -> tuple[Any, ...]:
    args = (
        rng.normal(size=(T, B, D)),
        np.zeros((B, H)),
        rng.normal(size=(D, H)) * 0.2,
        rng.normal(size=(H, H)) * 0.2,
        np.zeros(H),
    )
    forward = tg.to_static(rnn, input_spec=[tg.TensorSpec((None, B, D)), None, None, None, None])
    return forward, api.value_and_grad(forward, argnums=(2, 3, 4)), rnn, rnn_by_hand, args


# ---- mlp -----------------------------------------------------------------------------------

BATCH, IN, HIDDEN, OUT = 128, 784, 256, 10


def mlp(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    """Softmax cross-entropy of a 784-256-10 ReLU network (y: one-hot labels)."""
    h = np.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    z = logits - np.max(logits, axis=1, keepdims=True)
    log_p = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.sum(y * log_p) / x.shape[0]


def mlp_by_hand(w1: Any, b1: Any, w2: Any, b2: Any, x: Any, y: Any) -> Any:
    """Value and gradients of ``mlp`` for the four parameters, written out in NumPy."""
    pre = x @ w1 + b1
    h = np.maximum(pre, 0.0)
    logits = h @ w2 + b2
    z = logits - np.max(logits, axis=1, keepdims=True)
    e = np.exp(z)
    total = e.sum(axis=1, keepdims=True)
    loss = -np.sum(y * (z - np.log(total))) / x.shape[0]
    dlogits = (e / total - y) / x.shape[0]
    dh = (dlogits @ w2.T) * (pre > 0)
    return loss, (x.T @ dh, dh.sum(axis=0), h.T @ dlogits, dlogits.sum(axis=0))


def mlp_case(rng: np.random.Generator) -> tuple[Any, ...]:
    f32 = np.float32
    args = (
        (rng.normal(size=(IN, HIDDEN)) * 0.05).astype(f32),
        np.zeros(HIDDEN, f32),
        (rng.normal(size=(HIDDEN, OUT)) * 0.05).astype(f32),
        np.zeros(OUT, f32),
        rng.normal(size=(BATCH, IN)).astype(f32),
        np.eye(OUT, dtype=f32)[rng.integers(0, OUT, BATCH)],
    )
    forward = tg.to_static(mlp)
    return forward, api.value_and_grad(forward, argnums=(0, 1, 2, 3)), mlp, mlp_by_hand, args


# ---- timing --------------------------------------------------------------------------------


def _seconds(fn: Callable[..., Any], args: tuple[Any, ...], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - start) / number


def _check(ours: Any, theirs: Any) -> None:
    value, grads = ours
    np.testing.assert_allclose(value, theirs[0], rtol=1e-4)
    for got, expected in zip(grads, theirs[1]):
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-5)


def run_case(make: Callable[..., tuple[Any, ...]], number: int, repeats: int) -> list[float]:
    """Medians (seconds) of: compiled forward, value_and_grad, NumPy forward, hand-written."""
    forward, value_and_grad, numpy_forward, by_hand, args = make(np.random.default_rng(0))
    _check(value_and_grad(*args), by_hand(*args))
    fns = (forward, value_and_grad, numpy_forward, by_hand)
    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, times in zip(fns, samples):
            times.append(_seconds(fn, args, number))
    return [statistics.median(times) for times in samples]


def main() -> None:
    print(
        f"python {sys.version.split()[0]}, numpy {np.__version__}, "
        f"BLAS threads: {OPTIONS.blas_threads or 'default'}"
    )
    columns = ("forward", "v&g", "np fwd", "by hand", "v&g/fwd", "v&g/hand")
    header = "case  " + "".join(f"{c:>10}" for c in columns)
    print(header + f"   (ms, median of {OPTIONS.repeats} repeats)")
    for name, make, number in (("rnn", rnn_case, 2), ("mlp", mlp_case, 10)):
        fwd, vg, np_fwd, hand = run_case(make, number, OPTIONS.repeats)
        ms = " ".join(f"{t * 1e3:9.3f}" for t in (fwd, vg, np_fwd, hand))
        print(f"{name:<6} {ms}{vg / fwd:>10.2f}{vg / hand:>10.2f}")


if __name__ == "__main__":
    main()
