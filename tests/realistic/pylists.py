"""Pure-Python list code, as people write it: ``sorted`` with keys, ``bisect``, ``heapq``,
``collections.deque`` and ``Counter``, ``itertools``, ``math`` on floats, generators, and reports
built as strings with f-strings."""

import bisect
import collections
import heapq
import itertools
import math
import statistics

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("pylists")

PRICES = [101.5, 99.25, 102.0, 104.75, 103.0, 98.5, 100.0, 105.25, 107.0, 106.5]
SCORES = [("ann", 88.5), ("bob", 72.0), ("cy", 95.25), ("dee", 72.0), ("eve", 60.5)]


@CASES.case(args=[(SCORES, 2), (SCORES[:1], 3), ([], 1)])
def top_students(records, k):
    """The k best scores, ties broken by name, with a formatted leaderboard."""
    ranked = sorted(records, key=lambda r: (-r[1], r[0]))
    lines = [f"{i + 1}. {name:<5}{score:6.2f}" for i, (name, score) in enumerate(ranked[:k])]
    return "\n".join(lines), [name for name, _ in ranked[k:]]


@CASES.case(args=[([5, 1, 8, 3, 9, 2], 3), ([4, 4, 4], 2), ([7], 5)])
def k_largest_heap(values, k):
    """The k largest values with a min-heap of size k."""
    heap = []
    for v in values:
        if len(heap) < k:
            heapq.heappush(heap, v)
        elif v > heap[0]:
            heapq.heapreplace(heap, v)
    return sorted(heap, reverse=True), heapq.nsmallest(2, values)


@CASES.case(args=[([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], 4), ([1.5, 2.5], 1)])
def sliding_window_max(values, w):
    """Sliding-window maxima with a monotone deque of indices."""
    dq = collections.deque()
    out = []
    for i, v in enumerate(values):
        while dq and values[dq[-1]] <= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - w:
            dq.popleft()
        if i >= w - 1:
            out.append(values[dq[0]])
    return out


@CASES.case(args=[(PRICES, 3), (PRICES[:2], 5)])
def moving_average_deque(prices, window):
    """A running mean with a bounded deque; None until the window fills."""
    buf = collections.deque(maxlen=window)
    total = 0.0
    out = []
    for p in prices:
        if len(buf) == window:
            total -= buf[0]
        buf.append(p)
        total += p
        out.append(total / window if len(buf) == window else None)
    return out


@CASES.case(args=[([1, 3, 5, 7, 9, 11], [0, 1, 6, 11, 12]), ([2.0, 2.0, 2.0], [2.0])])
def bisect_positions(sorted_values, queries):
    """Insertion points, counts of equal items and the nearest value, by ``bisect``."""
    out = []
    for q in queries:
        lo = bisect.bisect_left(sorted_values, q)
        hi = bisect.bisect_right(sorted_values, q)
        if lo == 0:
            nearest = sorted_values[0]
        elif lo == len(sorted_values):
            nearest = sorted_values[-1]
        else:
            before, after = sorted_values[lo - 1], sorted_values[lo]
            nearest = before if q - before <= after - q else after
        out.append((lo, hi - lo, nearest))
    return out


@CASES.case(args=[([90, 75, 60, 45], "FDCBA", [33, 99, 77, 70, 89, 90, 100])])
def grade_by_bisect(breakpoints, grades, scores):
    """The textbook grade lookup with ``bisect`` on ascending breakpoints."""
    cuts = sorted(breakpoints)
    return [grades[bisect.bisect(cuts, s)] for s in scores]


@CASES.case(args=[([1.0, 2.0, 3.0, 4.0],), ([0.5, -0.5, 2.5],), ([1e-3],)])
def pairwise_distances_itertools(points):
    """All pairwise gaps of 1-D points with ``itertools.combinations``; the closest pair."""
    pairs = list(itertools.combinations(range(len(points)), 2))
    if not pairs:
        return None, 0.0
    gaps = {(i, j): abs(points[i] - points[j]) for i, j in pairs}
    best = min(gaps, key=gaps.get)
    return best, round(sum(gaps.values()) / len(gaps), 6)


@CASES.case(args=[(PRICES,), (PRICES[:3],), ([100.0],)])
def returns_with_accumulate(prices):
    """Log returns with ``zip``, cumulative log growth with ``itertools.accumulate``."""
    rets = [math.log(b / a) for a, b in zip(prices, prices[1:])]
    growth = list(itertools.accumulate(rets))
    best_run = max(
        (len(list(g)) for up, g in itertools.groupby(rets, key=lambda r: r > 0) if up), default=0
    )
    return rets, growth, best_run


@CASES.case(args=[("mississippi",), ("aab",), ("",)])
def run_length_encode(text):
    """Run-length encoding with ``itertools.groupby``; the encoded string and its decoding."""
    runs = [(ch, len(list(group))) for ch, group in itertools.groupby(text)]
    encoded = "".join(f"{n}{ch}" for ch, n in runs)
    decoded = "".join(ch * n for ch, n in runs)
    return encoded, decoded == text


@CASES.case(args=[([3, 1, 3, 2, 1, 3, 5],), (["b", "a", "b"],), ([],)])
def counter_modes(values):
    """Modes and frequencies with ``collections.Counter``."""
    counts = collections.Counter(values)
    if not counts:
        return [], {}
    top = max(counts.values())
    modes = sorted(v for v, c in counts.items() if c == top)
    return modes, dict(counts.most_common(2))


def _primes_upto(n):
    sieve = [True] * (n + 1)
    sieve[0:2] = [False, False]
    for p in range(2, int(math.isqrt(n)) + 1):
        if sieve[p]:
            for m in range(p * p, n + 1, p):
                sieve[m] = False
    return [i for i, is_p in enumerate(sieve) if is_p]


@CASES.case(args=[(30,), (2,), (1,)])
def sieve_of_eratosthenes(n):
    """Primes up to n with a boolean list sieve, and their sum."""
    primes = _primes_upto(max(n, 1))
    return primes, sum(primes), len(primes)


def _fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


@CASES.case(args=[(10,), (1,), (0,)])
def fibonacci_generator(n):
    """The first n Fibonacci numbers from an endless generator with ``islice``."""
    return list(itertools.islice(_fib(), n))


def _chunks(seq, size):
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


@CASES.case(args=[(PRICES, 3), (PRICES[:4], 4), ([], 2)])
def chunked_means(values, size):
    """Means of consecutive chunks yielded by a generator function."""
    return [sum(chunk) / len(chunk) for chunk in _chunks(values, size)]


def _running_extremes(values):
    lo = hi = None
    for v in values:
        lo = v if lo is None or v < lo else lo
        hi = v if hi is None or v > hi else hi
        yield lo, hi


@CASES.case(args=[(PRICES,), ([2.0],)])
def running_extremes_generator(prices):
    """A generator of (min so far, max so far) pairs, consumed by a for loop."""
    spreads = []
    for lo, hi in _running_extremes(prices):
        spreads.append(hi - lo)
    return spreads


@CASES.case(args=[(np.array([3.0, 1.0, 2.0, 5.0, 4.0]),), (np.array([1.0]),)])
def generator_over_array(x):
    """A generator expression over an array's elements summed with ``sum``, and ``max`` of it."""
    total = sum(v * v for v in x)
    largest_gap = max((abs(a - b) for a, b in zip(x, x[1:])), default=0.0)
    return total, largest_gap


@CASES.case(args=[(PRICES,), ([1.0, 1.0],), ([5.0],)])
def describe_list(values):
    """A summary report with ``statistics`` and f-string formatting."""
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    med = statistics.median(values)
    return (
        f"n={n} mean={mean:.3f} sd={sd:.3f} median={med:.2f} range=[{min(values)}, {max(values)}]"
    )


@CASES.case(args=[(np.array([0.5, 1.25, -3.0, 2.0]),), (np.array([0.0]),)])
def format_array_table(x):
    """A text table of an array's values, their squares and running totals."""
    rows = ["  i      x     x^2   total"]
    total = 0.0
    for i, v in enumerate(x):
        total += v
        rows.append(f"{i:3d} {v:6.2f} {v * v:7.3f} {total:7.3f}")
    rows.append(f"sum={x.sum():.4f} mean={np.mean(x):+.2e}")
    return "\n".join(rows)


@CASES.case(args=[([0.1] * 10,), ([1e16, 1.0, -1e16],), ([],)])
def kahan_sum_list(values):
    """Compensated (Kahan) summation over a list of floats, beside ``sum`` and ``math.fsum``."""
    total = 0.0
    c = 0.0
    for v in values:
        y = v - c
        t = total + y
        c = (t - total) - y
        total = t
    return total, sum(values), math.fsum(values)


@CASES.case(args=[(np.full(10, 0.1),), (np.array([1e16, 1.0, -1e16]),)])
def kahan_sum_array(x):
    """Kahan summation over the elements of an array (NumPy scalars throughout)."""
    total = 0.0
    comp = 0.0
    for v in x:
        y = v - comp
        t = total + y
        comp = (t - total) - y
        total = t
    return total, comp


@CASES.case(args=[([4.0, 1.0, 3.0], [2.0, 5.0, 1.0]), ([1.0], [1.0])])
def dot_and_norms_math(a, b):
    """Dot product, norms and the angle between two lists with ``math``."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.hypot(*b)
    cos = dot / (na * nb)
    angle = math.degrees(math.acos(max(-1.0, min(1.0, cos))))
    return dot, na, nb, round(angle, 9)


@CASES.case(args=[([(0.0, 0.0), (4.0, 0.0), (4.0, 3.0), (0.0, 3.0)],), ([(0, 0), (1, 0), (0, 1)],)])
def polygon_area_perimeter(vertices):
    """The shoelace area and the perimeter of a polygon given as a list of (x, y) tuples."""
    area = 0.0
    perimeter = 0.0
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:] + vertices[:1]):
        area += x1 * y2 - x2 * y1
        perimeter += math.dist((x1, y1), (x2, y2))
    return abs(area) / 2.0, perimeter


@CASES.case(args=[([[1, 2, 3], [4, 5, 6]],), ([[1.5], [2.5], [3.5]],)])
def transpose_and_flatten(matrix):
    """Transposes a list of lists with ``zip(*rows)`` and flattens it with ``chain``."""
    transposed = [list(col) for col in zip(*matrix)]
    flat = list(itertools.chain.from_iterable(matrix))
    return transposed, flat, sum(map(sum, matrix))


@CASES.case(args=[([5, 2, 8, 1, 9, 3],), ([1, 1],)])
def merge_k_sorted_runs(values):
    """Splits into ascending runs, then merges them with ``heapq.merge``."""
    runs = [[values[0]]]
    for v in values[1:]:
        if v >= runs[-1][-1]:
            runs[-1].append(v)
        else:
            runs.append([v])
    return list(heapq.merge(*runs)), len(runs)


@CASES.case(args=[(["3.5", "x", "1e3", "-2", ""],), (["1", "2"],)])
def parse_numbers_try(tokens):
    """Parses tokens as floats, counting the ones that fail with try/except ValueError."""
    good = []
    bad = 0
    for tok in tokens:
        try:
            good.append(float(tok))
        except ValueError:
            bad += 1
    return good, bad, sum(good)


@CASES.case(args=[({"a": [1.0, 2.0, 3.0], "b": [4.0], "c": []},), ({},)])
def dict_of_lists_summary(groups):
    """Per-group means from a dict of lists, skipping empty groups, sorted by mean."""
    means = {}
    for name, vals in groups.items():
        if vals:
            means[name] = sum(vals) / len(vals)
    order = sorted(means, key=means.get, reverse=True)
    return order, means


@CASES.case(args=[(PRICES, 0.02), ([100.0, 100.0], 0.0)])
def price_alerts_strings(prices, threshold):
    """Alerts on day-over-day moves above a threshold, as formatted strings."""
    alerts = []
    for day, (prev, cur) in enumerate(zip(prices, prices[1:]), start=1):
        change = (cur - prev) / prev
        if abs(change) > threshold:
            direction = "up" if change > 0 else "down"
            alerts.append(f"day {day}: {direction} {abs(change):.1%}")
    return alerts


@CASES.case(args=[(np.array([2.0, 7.0, 1.0, 8.0, 2.0, 8.0]),), (np.array([1.0, 1.0]),)])
def argsort_by_sorted(x):
    """Ranks of an array's values by ``sorted(range(n), key=x.__getitem__)``."""
    order = sorted(range(len(x)), key=lambda i: x[i])
    ranks = [0] * len(x)
    for rank, i in enumerate(order):
        ranks[i] = rank
    return order, ranks


@CASES.case(args=[([("a", 3), ("b", 1), ("a", 2), ("c", 5), ("b", 4)],), ([],)])
def group_totals_defaultdict(pairs):
    """Totals per key with ``collections.defaultdict(float)``, reported sorted by key."""
    totals = collections.defaultdict(float)
    counts = collections.defaultdict(int)
    for key, amount in pairs:
        totals[key] += amount
        counts[key] += 1
    return [(k, totals[k], counts[k]) for k in sorted(totals)]


@CASES.case(args=[(5,), (1,), (0,)])
def pascal_triangle(n):
    """Rows of Pascal's triangle built from the previous row, with ``math.comb`` as a check."""
    rows = []
    row = [1]
    for k in range(n):
        rows.append(row)
        assert row == [math.comb(k, j) for j in range(k + 1)]
        row = [1] + [a + b for a, b in zip(row, row[1:])] + [1]
    return rows
