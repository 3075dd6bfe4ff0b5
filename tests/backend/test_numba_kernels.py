"""The checked int64 helpers of compiled graphs against Python's exact integers: each gives the
exact result when it fits in int64 and raises ``Bail`` (the call then goes to NumPy) otherwise,
at and around every edge of the range."""

import random

import numba
import pytest

from tograph.backend import numba_kernels

MIN, MAX = -(2**63), 2**63 - 1
EDGES = [0, 1, -1, 2, -2, 3, -3, MIN, MAX, MIN + 1, MAX - 1, 2**31, -(2**31), 2**32]
EDGES += [3037000499, 3037000500, -3037000499, -3037000500]  # around sqrt(2**63)
EDGES += [3074457345618258602, 3074457345618258603, -3074457345618258603, 2**62, -(2**62)]
_rng = random.Random(14)
VALUES = EDGES + [_rng.randint(MIN, MAX) for _ in range(30)]
VALUES += [_rng.randint(-(2**33), 2**33) for _ in range(30)]
BINARY = {
    "add_i64": lambda a, b: a + b,
    "sub_i64": lambda a, b: a - b,
    "mul_i64": lambda a, b: a * b,
    "floordiv_i64": lambda a, b: a // b if b else None,
    "mod_i64": lambda a, b: a % b if b else None,
}
UNARY = {"neg_i64": lambda a: -a, "abs_i64": abs}


def fits(value):
    return value if value is not None and MIN <= value <= MAX else None


def call(fn, *args):
    try:
        return fn(*args)
    except numba_kernels.Bail:
        return None


@pytest.mark.parametrize("name", BINARY)
def test_binary_helper_is_exact_or_bails(name):
    helper = getattr(numba_kernels, name)
    compiled = numba.njit(lambda a, b: helper(a, b))
    for a in VALUES:
        for b in VALUES:
            assert call(compiled, a, b) == fits(BINARY[name](a, b)), (name, a, b)


@pytest.mark.parametrize("name", UNARY)
def test_unary_helper_is_exact_or_bails(name):
    helper = getattr(numba_kernels, name)
    compiled = numba.njit(lambda a: helper(a))
    for a in VALUES:
        assert call(compiled, a) == fits(UNARY[name](a)), (name, a)
