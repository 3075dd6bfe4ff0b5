"""The loop workloads written by hand for numba (``numba.njit``): what tograph's numba backend is
measured against.

Stage: benchmark peer. Input: a ``Variant`` (its NumPy inputs). Output: its contenders, for W1,
W2's forward pass and W3 (the loops numba is made for); none for the other workloads. The RNN's
matrix products are written as loops (numba's ``np.dot`` needs SciPy's BLAS). Each function is
compiled on its first call, which the correctness check makes before timing. Threads: numba's
``parallel`` is not used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from tograph.bench import timing
from tograph.bench.workloads import Variant

NAME = "numba.njit"


def setup(threads: int) -> str:
    """Returns the version (numba compiles serial code unless asked for ``parallel``)."""
    return str(numba.__version__)


@numba.njit(cache=True)
def w1(x: float) -> tuple[float, int]:
    n = 0
    while x > 1.0:
        x = x * 0.995
        n = n + 1
    return x, n


@numba.njit(cache=True)
def w3(x: Any, n: int) -> Any:
    for _ in range(n):
        if np.mean(x) > 0.0:
            x = np.sin(x) - 0.3
        else:
            x = np.cos(x) * 0.9
    return x


@numba.njit(cache=True)
def rnn(xs: Any, h0: Any, wx: Any, wh: Any, b: Any) -> float:
    h = h0.copy()
    pre = np.empty_like(h0)
    for t in range(xs.shape[0]):
        for i in range(h.shape[0]):
            for j in range(h.shape[1]):
                acc = b[j]
                for k in range(xs.shape[2]):
                    acc += xs[t, i, k] * wx[k, j]
                for k in range(h.shape[1]):
                    acc += h[i, k] * wh[k, j]
                pre[i, j] = acc
        h = np.tanh(pre)
    return float(np.sum(h * h))


_FUNCTIONS: dict[str, Callable[..., Any]] = {"W1": w1, "W2.fwd": rnn, "W3": w3}


def contenders(variant: Variant) -> list[timing.Contender]:
    """numba's contender for ``variant``, if it is one of the loop workloads."""
    fn = _FUNCTIONS.get(variant.key)
    return [] if fn is None else [timing.Contender(NAME, fn, variant.inputs)]
