"""The helpers of compiled graphs against their oracles. The checked int64 helpers against
Python's exact integers: each gives the exact result when it fits in int64 and raises ``Bail``
(the call then goes to NumPy) otherwise, at and around every edge of the range. The float sums and
means against ``np.sum`` and ``np.mean``, bit for bit, over every length to 3000 and past NumPy's
buffer size, on values whose sum depends on the order of the additions."""

import random

import numba
import numpy as np
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


# ---- NumPy's float sums --------------------------------------------------------------------------

sum_float = numba.njit(lambda a: numba_kernels.sum_float(a, numba_kernels.new_sum_stack()))
mean_float = numba.njit(lambda a: numba_kernels.mean_float(a, numba_kernels.new_sum_stack()))
LENGTHS = [*range(3001), 8191, 8192, 8193, 16384, 16385, 100_003]


def same_bits(got, expected):
    """``got`` (numba returns a Python float) is ``expected``'s value in ``expected``'s dtype,
    bit for bit: signed zeros and NaN payloads included."""
    return np.asarray(expected.dtype.type(got)).tobytes() == np.asarray(expected).tobytes()


def cancelling(rng, n, dtype):
    """Values whose sum depends on the order of the additions: huge ones of both signs that
    cancel among ordinary and tiny ones."""
    scale = rng.choice([1e16, -1e16, 1.0, 1e-3], size=n)
    return (rng.normal(size=n) * scale).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_sums_and_means_are_numpys_bit_for_bit(dtype):
    rng = np.random.default_rng(7)
    for n in LENGTHS:
        a = cancelling(rng, n, dtype)
        assert same_bits(sum_float(a), np.sum(a)), (dtype, n)
        if n:
            assert same_bits(mean_float(a), np.mean(a)), (dtype, n)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_sums_of_special_values(dtype):
    rng = np.random.default_rng(8)
    for n in [1, 2, 7, 8, 9, 127, 128, 129, 300]:
        for fill in (-0.0, 0.0, np.inf, -np.inf, np.nan):
            a = np.full(n, fill, dtype)
            assert same_bits(sum_float(a), np.sum(a)), (n, fill)
            assert same_bits(mean_float(a), np.mean(a)), (n, fill)
        a = cancelling(rng, n, dtype)
        a[rng.integers(n)] = rng.choice([np.inf, -np.inf, np.nan, -0.0])
        with np.errstate(invalid="ignore"):
            assert same_bits(sum_float(a), np.sum(a)), (n, a)
    big = np.full(1000, np.finfo(dtype).max / 4, dtype)  # overflows part way: inf either way
    with np.errstate(over="ignore"):
        assert same_bits(sum_float(big), np.sum(big))


def test_float_sums_of_c_contiguous_arrays_of_any_shape():
    """NumPy reduces a C-contiguous array whole as one flat run, whichever its shape."""
    rng = np.random.default_rng(9)
    for shape in [(3, 700), (64, 129), (2, 3, 1500), (5, 1), (1, 0), (4, 2048, 2)]:
        for dtype in (np.float64, np.float32):
            a = cancelling(rng, int(np.prod(shape)), dtype).reshape(shape)
            assert same_bits(sum_float(a), np.sum(a)), shape
            assert same_bits(sum_float(a), np.sum(a, axis=tuple(range(a.ndim)))), shape
            if a.size:
                assert same_bits(mean_float(a), np.mean(a)), shape


def test_float_sums_refuse_other_layouts_and_means_of_nothing():
    """A non-contiguous array (NumPy sums it in memory order) raises, as does the mean of an
    empty array (NumPy warns): either sends the call to NumPy."""
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(NotImplementedError):
        sum_float(a.T)
    with pytest.raises(numba_kernels.Bail):
        mean_float(np.empty(0))
