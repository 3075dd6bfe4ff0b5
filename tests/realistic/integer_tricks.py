"""Integer algorithms as competitive programmers and Rosetta Code write them: Euclid and its
extended form on NumPy ints, sieves on boolean arrays, modular exponentiation, bit tricks on
int64 and int32 arrays (popcount by SWAR, lowest set bit, Gray code), a Fenwick tree, Bresenham's
line, Collatz lengths, integer square roots and digit sums, with ``//``, ``%``, ``>>`` and
``&`` on Python and NumPy integers alike."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("search")

INTS = np.array([12, 18, 30, 7, 1024, 0, 255], dtype=np.int64)


@CASES.case(args=[(np.int64(48), np.int64(18)), (240, 46), (np.int32(7), np.int32(0))])
def gcd_while_modulo(a, b):
    """Euclid with while b: a, b = b, a % b; the lcm too (0 when either is 0)."""
    x, y = a, b
    while y:
        x, y = y, x % y
    lcm = 0 if x == 0 else a // x * b
    return x, lcm


@CASES.case(args=[(np.int64(240), np.int64(46)), (17, 5), (np.int64(3), np.int64(0))])
def extended_euclid_iterative(a, b):
    """Iterative extended Euclid: returns g, s, t with a s + b t = g."""
    old_r, r = a, b
    old_s, s = 1, 0
    old_t, t = 0, 1
    while r != 0:
        q = old_r // r
        old_r, r = r, old_r - q * r
        old_s, s = s, old_s - q * s
        old_t, t = t, old_t - q * t
    return old_r, old_s, old_t


@CASES.case(args=[(30,), (2,), (1,), (97,)])
def sieve_bool_array(n):
    """Sieve of Eratosthenes on a bool array with slice assignment; returns the primes and
    their count."""
    if n < 2:
        return np.zeros(0, dtype=np.int64), 0
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    p = 2
    while p * p <= n:
        if is_prime[p]:
            is_prime[p * p :: p] = False
        p += 1
    primes = np.nonzero(is_prime)[0]
    return primes, len(primes)


@CASES.case(args=[(np.int64(7), np.int64(128), np.int64(13)), (3, 200, 1000007), (2, 0, 5)])
def modpow_right_to_left(base, exp, mod):
    """Square-and-multiply with exp & 1 and exp >>= 1."""
    result = 1
    base = base % mod
    while exp > 0:
        if exp & 1:
            result = result * base % mod
        base = base * base % mod
        exp >>= 1
    return result


@CASES.case(args=[(INTS,), (INTS.astype(np.int32),), (np.array([-1, 1 << 40]),)])
def popcount_swar_int64(x):
    """Counts set bits of non-negative values with the SWAR trick on the whole array
    (negatives are masked to their low 32 bits first)."""
    v = np.where(x < 0, x & 0xFFFFFFFF, x).astype(np.int64)
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (v * 0x0101010101010101) >> 56 & 0xFF


@CASES.case(args=[(INTS,), (np.array([6, 40, 3], dtype=np.int32),)])
def lowest_set_bit_and_power_of_two(x):
    """x & -x isolates the lowest set bit; x & (x - 1) == 0 tests for powers of two."""
    low = x & -x
    is_pow2 = (x > 0) & ((x & (x - 1)) == 0)
    return low, is_pow2, np.count_nonzero(is_pow2)


@CASES.case(args=[(5,), (1,), (0,)])
def gray_code_bits(n_bits):
    """The n-bit Gray code as ints (i ^ (i >> 1)) and back by prefix xor."""
    codes = np.arange(1 << n_bits) ^ (np.arange(1 << n_bits) >> 1)
    back = codes.copy()
    shift = 1
    while shift < n_bits:
        back ^= back >> shift
        shift <<= 1
    return codes, np.array_equal(back, np.arange(1 << n_bits))


class Fenwick:
    def __init__(self, n):
        self.n = n
        self.tree = [0] * (n + 1)

    def add(self, i, delta):
        i += 1
        while i <= self.n:
            self.tree[i] += delta
            i += i & -i

    def prefix(self, i):
        s = 0
        i += 1
        while i > 0:
            s += self.tree[i]
            i -= i & -i
        return s


@CASES.case(args=[([5, 3, 7, 9, 6, 4, 1, 2], 2, 5), ([1, 1, 1], 0, 2)])
def fenwick_range_sums(values, lo, hi):
    """A Fenwick tree over Python ints: builds, updates, then answers a range sum."""
    ft = Fenwick(len(values))
    for i, v in enumerate(values):
        ft.add(i, v)
    ft.add(lo, 10)
    return ft.prefix(hi) - (ft.prefix(lo - 1) if lo > 0 else 0), ft.tree


@CASES.case(args=[(INTS[:5].copy(), 1, 3), (np.array([4, 4, 4, 4]), 0, 3)])
def fenwick_on_numpy_array(a, lo, hi):
    """The same tree in a NumPy int array, built in place by propagating to parents."""
    n = len(a)
    tree = np.zeros(n + 1, dtype=a.dtype)
    tree[1:] = a
    for i in range(1, n + 1):
        parent = i + (i & -i)
        if parent <= n:
            tree[parent] += tree[i]

    def prefix(i):
        s = 0
        i += 1
        while i > 0:
            s += tree[i]
            i -= i & -i
        return s

    return prefix(hi) - prefix(lo - 1), tree


@CASES.case(args=[(0, 0, 7, 3), (2, 5, -3, 1), (4, 4, 4, 4)])
def bresenham_line(x0, y0, x1, y1):
    """Bresenham's all-octant line: the points as an (n, 2) int array."""
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    points = []
    while True:
        points.append((x0, y0))
        if x0 == x1 and y0 == y1:
            break
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy
    return np.array(points)


@CASES.case(args=[(np.array([6, 7, 27, 1]),), (np.array([3], dtype=np.int32),)])
def collatz_steps_array(starts):
    """The Collatz stopping time of each start, the inner while on NumPy ints."""
    steps = np.zeros(len(starts), dtype=np.int64)
    for k in range(len(starts)):
        n = starts[k]
        count = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            count += 1
        steps[k] = count
    return steps, steps.max()


@CASES.case(args=[(np.int64(10**12 + 39),), (0,), (np.int64(99),), (15,)])
def isqrt_digit_by_digit(n):
    """Integer square root by the binary digit-by-digit method with shifts."""
    x = n
    result = 0
    bit = 1 << 62
    while bit > n:
        bit >>= 2
    while bit != 0:
        if x >= result + bit:
            x -= result + bit
            result = (result >> 1) + bit
        else:
            result >>= 1
        bit >>= 2
    return result


@CASES.case(args=[(INTS,), (np.array([987654321, 10], dtype=np.int64),)])
def digit_sums_vectorised(x):
    """Digit sums of a whole array with a while loop on any(remaining)."""
    rest = np.abs(x)
    total = np.zeros_like(rest)
    while np.any(rest > 0):
        total += rest % 10
        rest //= 10
    return total


@CASES.case(args=[(20,), (1,), (6,)])
def pascal_row_mod_prime(n):
    """Row n of Pascal's triangle mod 1_000_003 built in place from the right."""
    row = np.zeros(n + 1, dtype=np.int64)
    row[0] = 1
    for i in range(1, n + 1):
        for j in range(i, 0, -1):
            row[j] = (row[j] + row[j - 1]) % 1_000_003
    return row


@CASES.case(args=[(np.array([3, -4, 5, -1, 2, -6, 4], dtype=np.int32),), (np.array([-2, -3]),)])
def kadane_with_bounds(a):
    """Kadane's maximum subarray sum with its start and end, on int32 values."""
    best = a[0]
    cur = a[0]
    start = best_start = best_end = 0
    for i in range(1, len(a)):
        if cur < 0:
            cur = a[i]
            start = i
        else:
            cur += a[i]
        if cur > best:
            best = cur
            best_start, best_end = start, i
    return best, best_start, best_end


@CASES.case(args=[(np.array([2, 3, 5, 7, 11, 13, 17, 19, 23, 29]), 24), (np.array([1, 5]), 4)])
def two_pointer_pair_count(sorted_a, target):
    """Counts the pairs that sum below target with two pointers."""
    i, j = 0, len(sorted_a) - 1
    count = 0
    while i < j:
        if sorted_a[i] + sorted_a[j] < target:
            count += j - i
            i += 1
        else:
            j -= 1
    return count


@CASES.case(args=[(np.array([1, 3, 4, 7, 9, 12]), 8), (np.array([5]), 1)])
def sum_of_subset_bitmask(a, target):
    """Enumerates every subset by a bitmask (continue on the too-large, break on a hit)."""
    n = len(a)
    found = -1
    for mask in range(1 << n):
        s = 0
        for i in range(n):
            if mask >> i & 1:
                s += a[i]
        if s != target:
            continue
        found = mask
        break
    return found


@CASES.case(args=[(np.array([10, 20, 30], dtype=np.int32), 3), (np.array([7]), 0)])
def int32_shift_and_wrap(a, k):
    """Left shifts of int32 values that wrap, and a right shift that keeps the sign."""
    shifted = a << k
    doubled = a * np.int32(2**28)
    negated = (-a) >> 2
    return shifted, doubled, negated, shifted.dtype
