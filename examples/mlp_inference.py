"""The 512-256-128-2 MLP called 1000 times on single examples: plain NumPy vs compiled.

The compiled graph runs the same NumPy kernels, so per-call time is NumPy's plus a small dispatch;
this shows that overhead is small.

    python examples/mlp_inference.py
"""

import statistics
import time

import numpy as np

import tograph as tg


def mlp(x, params):
    """ReLU MLP; ``params`` is a list of (weight, bias) pairs."""
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < len(params) - 1:
            x = np.maximum(x, 0)
    return x


def per_call_us(fn, args, calls=1000, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn(*args)
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main():
    rng = np.random.default_rng(0)
    sizes = [512, 256, 128, 2]
    params = [
        (
            rng.standard_normal((m, n)).astype(np.float32) * np.float32(m**-0.5),
            np.zeros(n, np.float32),
        )
        for m, n in zip(sizes, sizes[1:])
    ]
    x = rng.standard_normal((1, 512)).astype(np.float32)
    compiled = tg.to_static(mlp)
    np.testing.assert_allclose(compiled(x, params), mlp(x, params), rtol=1e-6)
    print("output", compiled(x, params), "dtype", compiled(x, params).dtype)
    eager_us = per_call_us(mlp, (x, params))
    graph_us = per_call_us(compiled, (x, params))
    print(
        f"1000 calls, median per call: NumPy {eager_us:.1f} us, tograph {graph_us:.1f} us "
        f"(ratio {graph_us / eager_us:.2f})"
    )
    print("the graph:", compiled.concrete(x, params).op_counts())


if __name__ == "__main__":
    main()
