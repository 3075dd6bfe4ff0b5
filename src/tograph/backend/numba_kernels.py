"""The helpers numba-compiled graphs call: floating-point flags, checked int64 arithmetic.

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
"""

from __future__ import annotations

import numba
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
