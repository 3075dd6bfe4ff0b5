"""Whether numba's float64 ``sin`` and ``cos`` give NumPy's bits on this machine.

Stage: execute (a check made by ``tograph.backend.numba_exec`` before compiling a graph that
calls one of them; imports numba). Input: a function's name. Output: ``agrees(name)``.

NumPy 2.x computes float64 ``sin`` and ``cos`` with the C library's functions, element by element
(``DOUBLE_sin`` in ``loops_trigonometric.dispatch``: its SIMD version was withdrawn for accuracy),
and numba's compiled code calls the same library function, so the two give the same bits. That
holds only as long as both really call it: another NumPy may bring back a SIMD kernel (it has
its own for float32 and for ``exp``, ``log``, ``tanh`` and their kin, whose last bits differ
from the C library's), and numba with Intel's SVML installed vectorizes loops with SVML's
functions. So the claim is checked once per process, by comparing NumPy's and numba's results
bit for bit on a fixed probe of 25,000 values (ordinary, near multiples of pi/4, huge, tiny,
subnormal, random bit patterns, signed zeros, inf and NaN), as a whole array and element by
element. Kernels of another lineage differ from the C library on a share of such values (on a
machine where NumPy's float64 ``log``, ``exp`` and ``tanh`` are its own: 0.1%, 3% and 17% of a
similar sample), so any disagreement, or SVML, keeps the graph on NumPy.
"""

from __future__ import annotations

import functools

import numba
import numpy as np

FUNCTIONS = ("sin", "cos")


@numba.njit(cache=True, error_model="numpy")
def _sin(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    each = np.empty_like(x)
    for i in range(x.size):
        each[i] = np.sin(x[i])
    return np.sin(x), each


@numba.njit(cache=True, error_model="numpy")
def _cos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    each = np.empty_like(x)
    for i in range(x.size):
        each[i] = np.cos(x[i])
    return np.cos(x), each


_COMPILED = {"sin": _sin, "cos": _cos}


def probe_values() -> np.ndarray:
    """The float64 values both are compared on."""
    rng = np.random.default_rng(20260)
    quarter_turns = np.arange(-2000, 2001) * (np.pi / 4)
    near = [np.nextafter(quarter_turns, np.inf), np.nextafter(quarter_turns, -np.inf)]
    bits = rng.integers(0, 2**64, 4000, dtype=np.uint64).view(np.float64)
    tiny = np.finfo(np.float64).smallest_normal
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, tiny, -tiny])
    return np.concatenate(
        [
            rng.normal(size=4000),
            rng.uniform(-10.0, 10.0, 4000),
            rng.uniform(-1e6, 1e6, 1000) * rng.choice([1.0, 1e-8, 1e8, 1e20], 1000),
            quarter_turns,
            *near,
            bits,
            special,
        ]
    )


@functools.cache
def agrees(name: str) -> bool:
    """Whether numba's float64 ``name`` (``sin`` or ``cos``) gives NumPy's bits here."""
    if numba.config.USING_SVML:
        return False
    x = probe_values()
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(x).view(np.int64)
        whole, each = _COMPILED[name](x)
    return bool(np.array_equal(whole.view(np.int64), expected)) and bool(
        np.array_equal(each.view(np.int64), expected)
    )
