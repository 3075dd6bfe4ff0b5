"""Recursion and integer code, as people write it: quicksort and mergesort on lists, a recursive
radix-2 FFT, divide-and-conquer maxima, gcd and modular powers, bit counting and bit tricks,
binary searches on integers, and early returns deep inside nested loops."""

import cmath
import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("recursive")

WORDS = [38, 27, 43, 3, 9, 82, 10, 3]


def _quicksort(items):
    if len(items) <= 1:
        return items
    pivot = items[len(items) // 2]
    less = [x for x in items if x < pivot]
    equal = [x for x in items if x == pivot]
    greater = [x for x in items if x > pivot]
    return _quicksort(less) + equal + _quicksort(greater)


@CASES.case(args=[(WORDS,), ([2.5, -1.0, 2.5, 0.0],), ([],)])
def quicksort_list(values):
    """The three-way list quicksort on a Python list."""
    return _quicksort(list(values))


def _merge_sort(a):
    if len(a) < 2:
        return a, 0
    mid = len(a) // 2
    left, inv_l = _merge_sort(a[:mid])
    right, inv_r = _merge_sort(a[mid:])
    merged = []
    i = j = 0
    inversions = inv_l + inv_r
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            inversions += len(left) - i
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged, inversions


@CASES.case(args=[(WORDS,), ([1, 2, 3],), ([3, 2, 1, 0],)])
def count_inversions(values):
    """Merge sort that counts inversions along the way."""
    return _merge_sort(values)


def _fft(x):
    n = len(x)
    if n == 1:
        return [x[0]]
    even = _fft(x[0::2])
    odd = _fft(x[1::2])
    out = [0j] * n
    for k in range(n // 2):
        t = cmath.exp(-2j * math.pi * k / n) * odd[k]
        out[k] = even[k] + t
        out[k + n // 2] = even[k] - t
    return out


@CASES.case(args=[([1.0, 2.0, 0.0, -1.0, 0.5, 0.0, 3.0, 1.0],), ([1.0, -1.0],), ([4.0],)])
def recursive_fft_list(samples):
    """The recursive radix-2 Cooley-Tukey FFT on a list of floats, with the power spectrum."""
    spectrum = _fft([complex(s) for s in samples])
    power = [abs(c) ** 2 / len(samples) for c in spectrum]
    return spectrum, power


def _fft_np(x):
    n = x.shape[0]
    if n <= 2:
        return np.fft.fft(x)
    even = _fft_np(x[::2])
    odd = _fft_np(x[1::2])
    twiddle = np.exp(-2j * np.pi * np.arange(n // 2) / n)
    return np.concatenate([even + twiddle * odd, even - twiddle * odd])


@CASES.case(args=[(np.array([1.0, 2.0, 0.0, -1.0, 0.5, 0.0, 3.0, 1.0]),), (np.arange(4.0),)])
def recursive_fft_numpy(x):
    """The recursive FFT on arrays, splitting by slices until two points are left."""
    return _fft_np(x)


def _max_subarray(a, lo, hi):
    if lo == hi:
        return a[lo]
    mid = (lo + hi) // 2
    best_left = best_right = -math.inf
    s = 0.0
    for i in range(mid, lo - 1, -1):
        s += a[i]
        best_left = max(best_left, s)
    s = 0.0
    for i in range(mid + 1, hi + 1):
        s += a[i]
        best_right = max(best_right, s)
    return max(_max_subarray(a, lo, mid), _max_subarray(a, mid + 1, hi), best_left + best_right)


@CASES.case(
    args=[(np.array([-2.0, 1.0, -3.0, 4.0, -1.0, 2.0, 1.0, -5.0, 4.0]),), (np.array([-1.0]),)]
)
def max_subarray_divide_conquer(a):
    """The maximum subarray sum by divide and conquer on an array."""
    return _max_subarray(a, 0, len(a) - 1)


def _power(base, exp):
    if exp == 0:
        return 1.0
    half = _power(base, exp // 2)
    return half * half if exp % 2 == 0 else half * half * base


@CASES.case(args=[(1.0001, 1000), (np.float64(0.5), 10), (2.0, 0)])
def fast_power_recursive(base, exp):
    """Exponentiation by squaring, recursively, beside the ``**`` operator."""
    return _power(base, exp), base**exp


def _gcd(a, b):
    return a if b == 0 else _gcd(b, a % b)


@CASES.case(args=[([48, 180, 36, 1024],), ([17, 5],), ([0, 9],)])
def gcd_lcm_recursive(numbers):
    """gcd and lcm of a list with a recursive Euclid, checked against ``math.gcd``."""
    g = numbers[0]
    lcm = numbers[0]
    for n in numbers[1:]:
        g = _gcd(g, n)
        lcm = lcm * n // _gcd(lcm, n) if lcm and n else 0
    return g, lcm, math.gcd(*numbers)


@CASES.case(args=[(np.array([48, 180, 36, 1024]),), (np.array([17, 5]),), (np.array([7]),)])
def gcd_of_array(a):
    """The gcd of an integer array by Euclid's loop on its elements."""
    g = a[0]
    for v in a[1:]:
        x, y = g, v
        while y != 0:
            x, y = y, x % y
        g = x
    return g, np.gcd.reduce(a)


def _extended_gcd(a, b):
    if b == 0:
        return a, 1, 0
    g, x, y = _extended_gcd(b, a % b)
    return g, y, x - (a // b) * y


@CASES.case(args=[(3, 11), (10, 17), (6, 9)])
def modular_inverse(a, m):
    """The modular inverse by the extended Euclidean algorithm; None if there is none."""
    g, x, _ = _extended_gcd(a, m)
    if g != 1:
        return None
    return x % m, pow(a, -1, m)


@CASES.case(args=[(2, 100, 97), (7, 13, 1), (3, 0, 5)])
def modpow_by_bits(base, exp, mod):
    """Right-to-left binary modular exponentiation, beside ``pow(base, exp, mod)``."""
    result = 1 % mod
    b = base % mod
    e = exp
    while e > 0:
        if e & 1:
            result = result * b % mod
        b = b * b % mod
        e >>= 1
    return result, pow(base, exp, mod)


@CASES.case(args=[(np.array([0, 1, 7, 8, 255, 1023, 12345]),), (np.array([2**40 + 3]),)])
def popcount_loop(values):
    """Set bits of each integer by clearing the lowest one (Kernighan's loop)."""
    counts = np.zeros(len(values), dtype=np.int64)
    for i in range(len(values)):
        v = values[i]
        c = 0
        while v:
            v &= v - 1
            c += 1
        counts[i] = c
    return counts


@CASES.case(args=[([0, 1, 7, 8, 255, 1023],), ([2**40 + 3, 6],)])
def popcount_and_parity_python(values):
    """Popcounts with ``bin(v).count('1')`` and parities with xor folding, on Python ints."""
    counts = [bin(v).count("1") for v in values]
    parities = []
    for v in values:
        p = 0
        while v:
            p ^= v & 1
            v >>= 1
        parities.append(p)
    return counts, parities, [v.bit_length() for v in values]


@CASES.case(
    args=[(np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=np.uint8),), (np.array([255], dtype=np.uint8),)]
)
def bit_reverse_bytes(values):
    """Reverses the bits of each byte with shifts and masks on a uint8 array."""
    v = values.copy()
    v = ((v & 0xF0) >> 4) | ((v & 0x0F) << 4)
    v = ((v & 0xCC) >> 2) | ((v & 0x33) << 2)
    v = ((v & 0xAA) >> 1) | ((v & 0x55) << 1)
    return v


@CASES.case(args=[(8,), (5,), (1,)])
def gray_code_sequence(bits):
    """Gray codes of 0..2^bits-1 and their decoding back by xor folding."""
    codes = [i ^ (i >> 1) for i in range(2**bits)]
    decoded = []
    for g in codes:
        n = 0
        while g:
            n ^= g
            g >>= 1
        decoded.append(n)
    return codes[:6], decoded == list(range(2**bits))


@CASES.case(
    args=[(np.array([1, 3, 5, 7, 9, 11, 13]), 9), (np.array([2, 4]), 3), (np.array([5]), 5)]
)
def binary_search_int(a, target):
    """Binary search on a sorted int array: the index, or -(insertion point) - 1."""
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -(lo + 1)


@CASES.case(args=[(10**12,), (26,), (0,)])
def isqrt_newton(n):
    """The integer square root by Newton's method on Python ints."""
    if n < 2:
        return n, math.isqrt(n)
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x, math.isqrt(n)


@CASES.case(args=[(np.int64(10**12),), (np.int64(26),)])
def isqrt_bisection_numpy(n):
    """The integer square root of a NumPy integer by bisection on its range."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid * mid <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _collatz_len(n, memo):
    if n == 1:
        return 1
    if n in memo:
        return memo[n]
    nxt = n // 2 if n % 2 == 0 else 3 * n + 1
    length = 1 + _collatz_len(nxt, memo)
    memo[n] = length
    return length


@CASES.case(args=[(30,), (3,)])
def longest_collatz_memo(limit):
    """The start below ``limit`` with the longest Collatz chain, memoised in a dict."""
    memo = {}
    best, best_len = 1, 1
    for start in range(1, limit):
        length = _collatz_len(start, memo)
        if length > best_len:
            best, best_len = start, length
    return best, best_len, len(memo)


@CASES.case(
    args=[(np.array([[0, 2, 0], [1, 0, 3], [0, 0, 4]]),), (np.zeros((2, 2), dtype=np.int64),)]
)
def first_nonzero_2d(grid):
    """The first nonzero cell in row-major order: a return from inside two nested loops."""
    rows, cols = grid.shape
    for r in range(rows):
        for c in range(cols):
            if grid[r, c] != 0:
                return r, c, grid[r, c]
    return None


@CASES.case(args=[(np.array([2.0, 7.0, 11.0, 15.0]), 9.0), (np.array([1.0, 2.0]), 10.0)])
def pair_with_sum_nested(values, target):
    """Two indices whose values sum to target: return from inside nested loops, else (-1, -1)."""
    n = len(values)
    for i in range(n):
        for j in range(i + 1, n):
            if values[i] + values[j] == target:
                return i, j
    return -1, -1


def _hanoi(n, src, dst, via, moves):
    if n == 0:
        return
    _hanoi(n - 1, src, via, dst, moves)
    moves.append((src, dst))
    _hanoi(n - 1, via, dst, src, moves)


@CASES.case(args=[(3,), (1,), (0,)])
def towers_of_hanoi(n):
    """The recursive Towers of Hanoi, collecting moves in a list passed down."""
    moves = []
    _hanoi(n, "A", "C", "B", moves)
    return moves, len(moves) == 2**n - 1


def _permutations(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i in range(len(items)):
        for rest in _permutations(items[:i] + items[i + 1 :]):
            out.append([items[i]] + rest)
    return out


@CASES.case(args=[([1, 2, 3],), (["a", "b"],)])
def permutations_recursive(items):
    """All permutations by recursion on the remaining items."""
    return _permutations(items)


def _det(m):
    n = len(m)
    if n == 1:
        return m[0][0]
    total = 0.0
    for j in range(n):
        minor = [row[:j] + row[j + 1 :] for row in m[1:]]
        total += (-1) ** j * m[0][j] * _det(minor)
    return total


@CASES.case(args=[([[2.0, 1.0, 3.0], [0.0, -1.0, 4.0], [1.0, 2.0, 0.5]],), ([[5.0]],)])
def determinant_cofactor(matrix):
    """The determinant by cofactor expansion along the first row, recursively on lists."""
    return _det(matrix)


@CASES.case(
    args=[(np.array([[2.0, 1.0, 3.0], [0.0, -1.0, 4.0], [1.0, 2.0, 0.5]]),), (np.array([[3.0]]),)]
)
def determinant_cofactor_array(a):
    """The same expansion on an array, minors made with ``np.delete``."""

    def det(m):
        if m.shape[0] == 1:
            return m[0, 0]
        total = 0.0
        for j in range(m.shape[0]):
            minor = np.delete(m[1:], j, axis=1)
            total += (-1) ** j * m[0, j] * det(minor)
        return total

    return det(a)


@CASES.case(args=[(0.0, 2.0, 1e-6), (1.0, 4.0, 1e-3)])
def adaptive_simpson(a, b, eps):
    """Adaptive Simpson integration of exp(-x^2), recursing until the estimate settles."""

    def f(x):
        return math.exp(-x * x)

    def simpson(lo, hi, flo, fmid, fhi):
        return (hi - lo) / 6.0 * (flo + 4.0 * fmid + fhi)

    def recurse(lo, hi, flo, fmid, fhi, whole, tol, depth):
        mid = (lo + hi) / 2
        lm, rm = (lo + mid) / 2, (mid + hi) / 2
        flm, frm = f(lm), f(rm)
        left = simpson(lo, mid, flo, flm, fmid)
        right = simpson(mid, hi, fmid, frm, fhi)
        if depth <= 0 or abs(left + right - whole) <= 15 * tol:
            return left + right + (left + right - whole) / 15.0
        return recurse(lo, mid, flo, flm, fmid, left, tol / 2, depth - 1) + recurse(
            mid, hi, fmid, frm, fhi, right, tol / 2, depth - 1
        )

    fa, fm, fb = f(a), f((a + b) / 2), f(b)
    return recurse(a, b, fa, fm, fb, simpson(a, b, fa, fm, fb), eps, 30)
