"""Small loop programs over scalars and small arrays, and the arguments to run them with: the
corpus the exactness tests of both backends (Python-number loop carries, numba) draw from.

Each argument set aims at one edge: int64 wrap-around, Python ints that never wrap, float32
carries meeting Python and NumPy floats, NaN and inf, division by zero, zero-trip loops, 0-d
arrays, indices out of range, conversions that overflow, values whose Python-vs-NumPy kind depends
on the path taken (a zero-trip loop leaves ``0.0`` a Python float)."""

import numpy as np

f64, i64, f32 = np.float64, np.int64, np.float32


def assert_same(got, expected):
    """``got`` is ``expected``: the same exception type and message, or equal values of the
    same types (arrays and NumPy scalars also of the same dtype)."""
    if isinstance(expected, Exception):
        assert isinstance(got, type(expected)), got
        assert str(expected) in str(got)
        return
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for a, b in zip(got, expected):
            assert_same(a, b)
        return
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, (np.ndarray, np.generic)):
        assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def shrink(x):
    n = 0
    while x > 1.0:
        x = x * 0.995
        n = n + 1
    return x, n


def grow(x, n):
    i = 0
    while i < n:
        x = x * 10.0
        i = i + 1
    return x


def divide_down(x, d, n):
    i = 0
    while i < n:
        x = x / d
        i = i + 1
    return x


def int_steps(k, n):
    i = 0
    while i < n:
        k = k * 7 + i
        i = i + 1
    return k, i


def floor_mod(k, d, n):
    i = 0
    while i < n:
        k = k // d
        k = k % d if d != 0 else k
        i = i + 1
    return k


def halve_f32(x, n):
    i = 0
    while i < n:
        x = x * 0.5 + 0.1
        i = i + 1
    return x


def times(x, y, n):
    i = 0
    while i < n:
        x = x * y
        i = i + 1
    return x


def count_positive(x, n):
    i = 0
    c = 0
    while i < n:
        if x > 0.0:
            c = c + 1
        x = x - 1.0
        i = i + 1
    return c, x


def sqrt_steps(x, n):
    i = 0
    while i < n:
        x = np.sqrt(x) - 2.0
        i = i + 1
    return x


def halve_while_big(x):
    while x > 1.0:
        x = x * 0.5
    return x


def double_vector(v, n):
    i = 0
    while i < n:
        v = v * 2.0
        i = i + 1
    return v


def truncate_sum(x, n):
    i = 0
    k = 0
    while i < n:
        k = k + int(x)
        x = x * 1e10
        i = i + 1
    return k


def negate_abs(k, n):
    i = 0
    while i < n:
        k = -abs(k) - 1
        i = i + 1
    return k


def cyclic_sum(v, n):
    i = 0
    t = 0
    while i < n:
        t = t + v[i % v.shape[0]]
        i = i + 1
    return t


def indexed_sum(v, n):
    i = 0
    t = 0.0
    while i < n:
        t = t + v[i]
        i = i + 1
    return t


def ratio_sum(a, b, n):
    i = 0
    s = 0.0
    while i < n:
        s = s + a / b
        a = a + 1
        i = i + 1
    return s


def count_down_past_2_53(k, n):
    i = 0
    while k > 9007199254740992.0 and i < n:
        k = k - 1
        i = i + 1
    return k, i


def shrink_tiny(x, n):
    i = 0
    while i < n:
        x = x * 1e-200
        i = i + 1
    return x


def fold_vector(v, n):
    i = 0
    while i < n:
        v = np.where(v > 1.0, v - 1.0, v * 3.0)
        i = i + 1
    return v


def int_extremes(k, j, n):
    i = 0
    while i < n:
        k = np.maximum(k, j) - 1
        j = np.minimum(k, j + 2)
        i = i + 1
    return k, j


def pass_through(v, n):
    i = 0
    while i < n:
        i = i + 1
    return v, i


def hypot_f32(x, n):
    i = 0
    while i < n:
        x = np.sqrt(x * x + 1.0)
        i = i + 1
    return x


def count_above(x, limit):
    i = 0
    hits = 0
    low = x[0]
    while i < x.shape[0]:
        if x[i] > limit:
            hits = hits + 1
        else:
            low = low - x[i]
        i = i + 1
    return hits, low


def affine_vector(v, n):
    for _ in range(n):
        v = v * 0.5 + 1.5
    return v


def wrap_vector(v, n):
    for i in range(n):
        v = v * 1000 + i
    return v, v.sum(), v.max()


def inf_minus_inf(x, n):
    for _ in range(n):
        x = x - x
    return x


def extremes_sum(v, n):
    t = 0
    for _ in range(n):
        t = t + v.min() + v.max() + v.sum()
    return t


def flip_zero(x, n):
    for _ in range(n):
        x = -x * 1.0
    return x, 1.0 / x if x != 0.0 else x


def half_sum(k, n):
    s = 0.0
    for _ in range(n):
        s = s + k * 0.5
        k = k - 1
    return s, k


def compare_int_float(k, x):
    return k == x, k < x, k >= x


def nested_sum(n, m):
    t = 0
    i = 0
    while i < n:
        j = 0
        while j < m:
            t = t + i * j
            j = j + 1
        i = i + 1
    return t


def double_until(x, n):
    i = 0
    while i < n:
        if x > 100.0:
            break
        x = x * 2.0
        i = i + 1
    return x, i


def lcg(k, d, n):
    for _ in range(n):
        k = (k * 31 + 7) % d
    return k


def rounding_steps(x, n):
    for _ in range(n):
        x = np.floor(x * 1.5) + np.ceil(x / 3.0) - np.trunc(-x / 7.0)
    return x


def square_steps(k, n):
    for _ in range(n):
        k = np.square(k) + 1
    return k


def grow_f32_past_range(x, n):
    i = 0
    while x < 1e39 and i < n:
        x = x * 2.0
        i = i + 1
    return x, i


def add_big_int(v, n):
    for _ in range(n):
        v = v + 2**63
    return v


def where_scalar(x, n):
    for _ in range(n):
        x = np.where(x > 0.5, x * 0.5, x + 0.75)
    return x


def flip_flag(x, n):
    b = x > 0.0
    i = 0
    while i < n:
        b = not b if x > 2.0 else b
        x = x - 1.0
        i = i + 1
    return b, x


def max_of_empty(v, n):
    t = 0.0
    for _ in range(n):
        t = t + v.max()
    return t


def mean_wave(v, n):
    """W3's step: the vector's mean picks sin or cos; then its sum."""
    for _ in range(n):
        if np.mean(v) > 0.0:
            v = np.sin(v) - 0.3
        else:
            v = np.cos(v) * 0.9
    return v, np.sum(v)


CASES = [
    (grow, (f64(1.0), i64(400))),
    (grow, (1.0, i64(400))),
    (grow, (f64(1.0), i64(3))),
    (grow, (f32(1.0), i64(50))),
    (grow, (np.array(1.0), i64(3))),
    (grow, (i64(3), i64(3))),
    (divide_down, (f64(1.0), f64(0.0), i64(2))),
    (divide_down, (1.0, 0.0, 2)),
    (divide_down, (f64(1.0), 0, i64(2))),
    (divide_down, (f64(0.0), f64(0.0), i64(1))),
    (divide_down, (1.0, f64(0.0), 2)),
    (divide_down, (i64(7), i64(2), i64(3))),
    (divide_down, (i64(7), i64(0), i64(1))),
    (int_steps, (i64(3), i64(10))),
    (int_steps, (i64(3), i64(40))),
    (int_steps, (3, i64(40))),
    (floor_mod, (i64(100), i64(3), i64(3))),
    (floor_mod, (i64(100), i64(0), i64(2))),
    (floor_mod, (100, 0, i64(2))),
    (floor_mod, (-100, i64(-3), i64(3))),
    (floor_mod, (f64(100.0), f64(3.0), i64(2))),
    (floor_mod, (i64(-(2**63)), i64(-1), i64(1))),
    (halve_f32, (f32(1.0), i64(5))),
    (times, (f32(1.5), f64(1.5), i64(3))),
    (times, (f32(1.5), 1.5, i64(3))),
    (times, (f32(3e38), f32(10.0), i64(2))),
    (times, (f32(1.5), i64(2), i64(3))),
    (count_positive, (f64(np.nan), i64(3))),
    (count_positive, (f64(np.inf), i64(3))),
    (count_positive, (float("nan"), 3)),
    (sqrt_steps, (f64(4.0), i64(3))),
    (sqrt_steps, (f64(-1.0), i64(1))),
    (halve_while_big, (f64(0.5),)),
    (halve_while_big, (0.5,)),
    (halve_while_big, (np.array(0.5),)),
    (halve_while_big, (f64(8.0),)),
    (halve_while_big, (i64(8),)),
    (double_vector, (np.ones(3), i64(0))),
    (double_vector, (np.ones(3, np.float32), i64(2))),
    (double_vector, (np.arange(3), i64(2))),
    (truncate_sum, (f64(1.5), i64(3))),
    (truncate_sum, (f64(1.5), i64(40))),
    (truncate_sum, (f64(np.nan), i64(1))),
    (negate_abs, (i64(5), i64(3))),
    (negate_abs, (i64(-(2**63) + 1), i64(2))),
    (negate_abs, (-(2**63) + 1, i64(2))),
    (cyclic_sum, (np.arange(5), i64(7))),
    (cyclic_sum, (np.arange(5, dtype=np.float32), i64(7))),
    (cyclic_sum, (np.array([2**62, 2**62]), i64(3))),
    (cyclic_sum, (np.array([True, False]), i64(3))),
    (indexed_sum, (np.arange(3.0), i64(4))),
    (ratio_sum, (i64(1), i64(3), i64(3))),
    (ratio_sum, (i64(1), i64(3), i64(0))),
    (ratio_sum, (1, 3, i64(3))),
    (ratio_sum, (i64(1), i64(0), i64(2))),
    (ratio_sum, (1, 0, i64(2))),
    (count_down_past_2_53, (i64(2**53 + 3), i64(5))),
    (count_down_past_2_53, (2**53 + 3, i64(5))),
    (shrink_tiny, (f64(1.0), i64(3))),
    (fold_vector, (np.array([0.5, 2.0, 5.0]), i64(3))),
    (int_extremes, (i64(5), i64(3), i64(4))),
    (int_extremes, (f64(5), f64(-0.0), i64(2))),
    (pass_through, (np.ones(2), i64(2))),
    (hypot_f32, (f32(2.0), i64(3))),
    (hypot_f32, (f32(2e19), i64(3))),
    (count_above, (np.array([1.0, np.nan, 3.0, -np.inf]), f64(2.0))),
    (count_above, (np.arange(4), i64(1))),
    (count_above, (np.array([1.0, 2.0], np.float32), 1.5)),
    (affine_vector, (np.arange(3, dtype=np.float32), 4)),
    (wrap_vector, (np.arange(3), i64(8))),
    (inf_minus_inf, (f64(np.inf), 1)),
    (inf_minus_inf, (np.array([np.inf, 1.0]), 1)),
    (extremes_sum, (np.arange(4), i64(3))),
    (flip_zero, (f64(0.0), 3)),
    (flip_zero, (0.0, 3)),
    (half_sum, (i64(3), 4)),
    (half_sum, (True, 2)),
    (compare_int_float, (i64(2**53 + 1), f64(2.0**53))),
    (compare_int_float, (i64(2**53 + 1), 2.0**53)),
    (compare_int_float, (2**53 + 1, f64(2.0**53))),
    (nested_sum, (i64(3), i64(4))),
    (nested_sum, (i64(0), i64(4))),
    (double_until, (f64(1.0), i64(100))),
    (double_until, (1.0, 100)),
    (lcg, (i64(-5), i64(-97), i64(10))),
    (lcg, (5, 97, i64(10))),
    (lcg, (i64(5), i64(0), i64(1))),
    (rounding_steps, (f32(2.3), i64(3))),
    (rounding_steps, (f64(-1.7), i64(3))),
    (square_steps, (i64(3), i64(10))),
    (square_steps, (3, i64(10))),
    (grow_f32_past_range, (f32(1.0), i64(300))),
    (add_big_int, (np.ones(2, np.int64), i64(1))),
    (where_scalar, (f64(3.0), 4)),
    (flip_flag, (f64(5.0), i64(6))),
    (flip_flag, (f64(5.0), i64(0))),
    (flip_flag, (f64(-1.0), i64(2))),
    (max_of_empty, (np.zeros(0), 1)),
    (max_of_empty, (np.zeros(0), 0)),
    (mean_wave, (np.linspace(-2.0, 3.0, 300), i64(4))),
    (mean_wave, (np.array([np.inf, 1.0, 2.0]), i64(2))),  # sin(inf): invalid
    (mean_wave, (np.array([1e308, 1e308, -1.0]), i64(1))),  # the mean's sum overflows
]


def mixed_steps(x, y, n):
    i = 0
    while i < n:
        x = x * y - x / (y + 1.5)
        if x != x or x > 1e30:
            y = y - 1.0
        i = i + 1
    return x, y, i


def int_mix(k, j, n):
    i = 0
    while i < n:
        k = k * 3 - j
        j = (j + k) // 5 + k % 7
        i = i + 1
    return k, j
