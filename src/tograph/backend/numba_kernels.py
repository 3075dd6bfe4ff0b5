"""The helpers numba-compiled graphs call: floating-point flags, checked int64 arithmetic,
NumPy's float sums.

Stage: execute (run-time support of ``tograph.backend.numba_exec``; imports numba). Generated
modules import these by name. Every helper is compiled with numba's on-disk cache.

NumPy reports a float64 overflow, an invalid operation (``inf - inf``, ``sqrt(-1)``, a NaN cast
to int) or a division by zero by warning (or raising, per ``np.errstate``); numba says nothing.
A compiled graph clears the processor's exception flags on entry (``feclearexcept``) and returns
them on exit (``fetestexcept``): a flag NumPy would have reported sends the call to the NumPy
executor, which reports it as NumPy does. Integer operations set no flag, so the int64 helpers
check the conditions NumPy (scalar overflow, zero divisors) or Python (weak ints, which do not
wrap) would not let pass, and raise ``Bail``, which does the same. The checks compare the
operands before the operation: LLVM takes signed overflow for impossible and folds away a test
of the wrapped result (``(a * b) // a != b``).

``sum_float`` and ``mean_float`` reduce a whole float64 or float32 array as ``np.sum`` and
``np.mean`` do, bit for bit. NumPy adds the elements of a C-contiguous array, seen as one flat run,
to the identity ``0.0`` in one call of its pairwise summation (``pairwise_sum`` in NumPy's
``loops_utils.h.src``): a run of fewer than 8 elements is added in order; a run of at most 128
goes into eight interleaved accumulators (element ``i`` into ``i % 8``) that are combined as
``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`` before the leftover elements past the last
multiple of 8 are added in order; a longer run is split where its half, rounded down to a multiple
of 8, ends, and the sums of the two parts are added. Every addition is in the array's dtype (a
float32 sum accumulates in float32). NumPy buffers (in runs of ``np.getbufsize()`` elements) only
when it casts, which a float array summed in its own dtype never needs. ``np.mean`` divides that
sum by the element count as a float64 division and converts the quotient back to the sum's dtype
(``numpy/_core/_methods.py``: ``_mean``). The recursion of NumPy's split is written as a loop over
an explicit stack (numba's on-disk cache crashes on loading a recursive function), which a
compiled graph allocates once per call (``new_sum_stack``), not once per sum.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types

FE_INVALID, FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW = 1, 4, 8, 16
REPORTED = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW
WATCHED = REPORTED | FE_UNDERFLOW
ALL_FLAGS = 61  # the four above and FE_INEXACT

feclearexcept = types.ExternalFunction("feclearexcept", types.int32(types.int32))
fetestexcept = types.ExternalFunction("fetestexcept", types.int32(types.int32))

_MIN, _MAX = -(2**63), 2**63 - 1
_jit = numba.njit(cache=True, error_model="numpy", inline="always")


class Bail(Exception):
    """Raised by compiled code where NumPy would warn or Python would differ: the call is run by
    the NumPy executor instead."""


@_jit
def add_i64(a: int, b: int) -> int:
    if (b > 0 and a > _MAX - b) or (b < 0 and a < _MIN - b):
        raise Bail()
    return a + b


@_jit
def sub_i64(a: int, b: int) -> int:
    if (b < 0 and a > _MAX + b) or (b > 0 and a < _MIN + b):
        raise Bail()
    return a - b


@_jit
def mul_i64(a: int, b: int) -> int:
    # b against the bounds a allows, as floor or ceiling divisions that cannot overflow themselves
    if a > 0:
        wraps = b > _MAX // a if b > 0 else b < (_MIN + a - 1) // a
    elif a < 0:
        wraps = a < (_MIN + b - 1) // b if b > 0 else b < -((_MIN + 1) // a)
    else:
        wraps = False
    if wraps:
        raise Bail()
    return a * b


@_jit
def neg_i64(a: int) -> int:
    if a == _MIN:
        raise Bail()
    return -a


@_jit
def abs_i64(a: int) -> int:
    if a == _MIN:
        raise Bail()
    return abs(a)


@_jit
def floordiv_i64(a: int, b: int) -> int:
    if b == 0 or (a == _MIN and b == -1):
        raise Bail()
    return a // b


@_jit
def mod_i64(a: int, b: int) -> int:
    if b == 0:
        raise Bail()
    return a % b


# ---- NumPy's float sums -------------------------------------------------------------------------

_BLOCK = 128  # the longest run summed with the eight accumulators (NumPy's PW_BLOCKSIZE)
_DEPTH = 64  # bounds the split's depth: each part is at most half the run plus 8 elements
_kernel = numba.njit(cache=True, error_model="numpy")


@_kernel
def _run_sum(a: np.ndarray, start: Any, n: Any) -> Any:
    """The pairwise sum of the run ``a[start:start + n]`` (1 <= n <= 128) as NumPy adds it.

    Every index is unsigned (``start`` and ``n`` are uintp, so are the offsets): numba then
    indexes without testing for negative ones, and LLVM keeps the eight accumulators in vector
    registers, five times faster."""
    u1, u2, u3, u4 = np.uintp(1), np.uintp(2), np.uintp(3), np.uintp(4)
    u5, u6, u7, u8 = np.uintp(5), np.uintp(6), np.uintp(7), np.uintp(8)
    stop = start + n
    if n < u8:  # NumPy starts from -0.0, which gives each element back unchanged
        res = a[start]
        i = start + u1
        while i < stop:
            res += a[i]
            i += u1
        return res
    r0, r1, r2, r3 = a[start], a[start + u1], a[start + u2], a[start + u3]
    r4, r5, r6, r7 = a[start + u4], a[start + u5], a[start + u6], a[start + u7]
    end = stop - n % u8
    i = start + u8
    while i < end:
        r0 += a[i]
        r1 += a[i + u1]
        r2 += a[i + u2]
        r3 += a[i + u3]
        r4 += a[i + u4]
        r5 += a[i + u5]
        r6 += a[i + u6]
        r7 += a[i + u7]
        i += u8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < stop:
        res += a[i]
        i += u1
    return res


@_kernel
def new_sum_stack() -> Any:
    """Room for ``_pairwise_sum``'s stack, made once per call of a compiled graph: the start and
    length of each right part still to sum, and each finished left part's sum (a float32 sum is
    exact as a float64)."""
    return np.empty(2 * _DEPTH, np.uintp), np.empty(_DEPTH, np.float64)


@_kernel
def _pairwise_sum(a: np.ndarray, stack: Any) -> Any:
    """NumPy's pairwise sum of the flat C-contiguous array ``a`` (at least one element).

    NumPy's recursion as a loop: descend into left parts, noting each right part on the stack,
    sum the run reached, then climb while the part just summed is a right one (adding it to its
    left sibling's sum) and go on with the next right part."""
    rights, lefts = stack
    u0, u1, u2, u8 = np.uintp(0), np.uintp(1), np.uintp(2), np.uintp(8)
    block = np.uintp(_BLOCK)
    start, n = u0, np.uintp(a.size)
    depth = u0
    while True:
        while n > block:
            half = n // u2
            half -= half % u8
            rights[u2 * depth] = start + half
            rights[u2 * depth + u1] = n - half
            depth += u1
            n = half
        value = _run_sum(a, start, n)
        while depth > u0 and rights[u2 * (depth - u1) + u1] == u0:  # a right part's sum
            depth -= u1
            value = a.dtype.type(lefts[depth]) + value
        if depth == u0:
            return value
        top = depth - u1
        lefts[top] = value
        start, n = rights[u2 * top], rights[u2 * top + u1]
        rights[u2 * top + u1] = u0  # marks the part entered as a right one


@_kernel
def sum_float(a: np.ndarray, stack: Any) -> Any:
    """``np.sum(a)`` of a C-contiguous float64 or float32 array of any shape, in its dtype;
    ``stack`` is ``new_sum_stack()``'s.

    A non-contiguous array raises (``reshape`` cannot view it flat), and the call goes to NumPy."""
    flat = a.reshape(a.size)
    zero = a.dtype.type(0)
    if flat.size == 0:
        return zero
    return zero + _pairwise_sum(flat, stack)


@_kernel
def mean_float(a: np.ndarray, stack: Any) -> Any:
    """``np.mean(a)`` of a C-contiguous float64 or float32 array: its sum divided by the count in
    float64, in the sum's dtype. An empty array bails: NumPy warns ("Mean of empty slice")."""
    if a.size == 0:
        raise Bail()
    return a.dtype.type(np.float64(sum_float(a, stack)) / np.float64(a.size))
