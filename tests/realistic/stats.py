"""Statistics as people write it: Welford's running moments, weighted moments, medians by sorting,
histograms by loops, linear regression, Spearman correlation, k-means, Welch's t statistic."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import DATA, OTHER

CASES = Registry("stats")


@CASES.case(
    args=[(DATA, OTHER), ([1.0, 2.0, 3.0], [0.0, 1.0, 1.0]), (DATA, np.zeros(8)), (DATA, OTHER[:3])]
)
def weighted_moments(x, w):
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    if x.shape != w.shape:
        raise ValueError(f"shapes differ: {x.shape} and {w.shape}")
    total = w.sum()
    if total <= 0:
        raise ValueError("weights must have a positive sum")
    mean = np.sum(w * x) / total
    var = np.sum(w * (x - mean) ** 2) / total
    return mean, var


@CASES.case(
    args=[(DATA,), (DATA[:5],), (np.array([3, 1, 2]),), (np.array([np.nan, 1.0]),), (np.array([]),)]
)
def median_by_sort(x):
    n = len(x)
    if n == 0:
        raise ValueError("median of nothing")
    s = np.sort(x)
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


@CASES.case(
    args=[
        (DATA, 4, 0.0, 10.0),
        (DATA, 3, 2.0, 5.0),
        (np.array([]), 2, 0.0, 1.0),
        (DATA, 0, 0.0, 1.0),
    ]
)
def histogram_loop(x, bins, lo, hi):
    if bins <= 0:
        raise ValueError("bins must be positive")
    counts = np.zeros(bins, dtype=np.int64)
    outside = 0
    width = (hi - lo) / bins
    for v in x:
        if v < lo or v > hi:
            outside += 1
            continue
        idx = int((v - lo) / width)
        if idx == bins:
            idx -= 1
        counts[idx] += 1
    return counts, outside


def _ranks(v):
    order = np.argsort(v, kind="stable")
    ranks = np.empty(len(v))
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


@CASES.case(
    args=[
        (DATA, OTHER),
        (np.arange(4.0), np.array([4.0, 3.0, 2.0, 1.0])),
        ([1, 2, 2, 3], [3, 1, 1, 2]),
    ]
)
def spearman(x, y):
    rx = _ranks(np.asarray(x))
    ry = _ranks(np.asarray(y))
    dx = rx - rx.mean()
    dy = ry - ry.mean()
    return float(np.sum(dx * dy) / np.sqrt(np.sum(dx * dx) * np.sum(dy * dy)))


CLUSTERED = np.array(
    [[1.0, 1.0], [1.5, 2.0], [3.0, 4.0], [5.0, 7.0], [3.5, 5.0], [4.5, 5.0], [3.5, 4.5]]
)


@CASES.case(
    args=[
        (CLUSTERED, np.array([[1.0, 1.0], [5.0, 7.0]]), 10),
        (CLUSTERED, np.array([[0.0, 0.0], [100.0, 100.0]]), 3),
    ]
)
def kmeans(points, centers, max_iter):
    """Lloyd's k-means from fixed centers; an empty cluster keeps its center."""
    centers = centers.copy()
    labels = np.zeros(len(points), dtype=np.int64)
    for it in range(max_iter):
        for i in range(len(points)):
            d = np.sum((centers - points[i]) ** 2, axis=1)
            labels[i] = np.argmin(d)
        moved = 0.0
        for j in range(len(centers)):
            members = points[labels == j]
            if len(members) > 0:
                new = members.mean(axis=0)
                moved = max(moved, float(np.abs(new - centers[j]).max()))
                centers[j] = new
        if moved < 1e-9:
            return centers, labels, it + 1
    return centers, labels, max_iter


@CASES.case(args=[(DATA, OTHER), (DATA[:3], OTHER + 1.0), (DATA[:1], OTHER)])
def welch_t(a, b):
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        raise ValueError("each sample needs two values")
    va = np.var(a, ddof=1)
    vb = np.var(b, ddof=1)
    se = math.sqrt(va / na + vb / nb)
    t = (np.mean(a) - np.mean(b)) / se
    dof = (va / na + vb / nb) ** 2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return t, dof


class RunningStats:
    def __init__(self):
        self.n = 0
        self.total = 0.0
        self.lo = math.inf
        self.hi = -math.inf

    def push(self, x):
        self.n += 1
        self.total += x
        if x < self.lo:
            self.lo = x
        if x > self.hi:
            self.hi = x


@CASES.case(args=[(RunningStats(), DATA), (RunningStats(), np.array([np.nan, 1.0]))])
def running_stats(stats, xs):
    for x in xs:
        stats.push(float(x))
    print("n =", stats.n, "range", stats.lo, stats.hi)
    return stats.total / stats.n


@CASES.case(args=[(DATA,), (np.array([1, 1, 2, 3, 3, 3]),), (np.array([5.0]),), ([2, 2, 1],)])
def mode_by_dict(xs):
    """The most frequent value (the smallest on ties) by counting in a dict."""
    counts = {}
    for v in xs:
        key = float(v)
        counts[key] = counts.get(key, 0) + 1
    best, best_count = None, 0
    for key in sorted(counts):
        if counts[key] > best_count:
            best, best_count = key, counts[key]
    return best, best_count


@CASES.case(args=[(DATA, 1.5), (np.array([1.0, 1.0, 1.0]), 2.0), (np.append(DATA, 40.0), 2.0)])
def zscore_outliers(x, threshold):
    """Indices and z-scores of values further than ``threshold`` deviations from the mean."""
    mean = np.mean(x)
    sd = np.std(x)
    if sd == 0:
        return [], np.zeros_like(x)
    z = (x - mean) / sd
    flagged = [i for i in range(len(x)) if abs(z[i]) > threshold]
    return flagged, z


@CASES.case(
    args=[(np.array([3, 1, 2], dtype=np.int32),), (np.array([250, 10], dtype=np.uint8),), ([4, 5],)]
)
def integer_moments(a):
    """Sum, product, mean and half of the sum of integer data, in its own integer types."""
    total = 0
    product = 1
    for v in a:
        total += v
        product *= v
    return total, product, total / len(a), total // 2


@CASES.case(args=[(DATA, 0.25), (DATA, 0.5), (DATA, 1.0), (np.array([3.0]), 0.9), (DATA, 1.5)])
def quantile_linear(x, q):
    """The linear-interpolation quantile (NumPy's default) by sorting and indexing by hand."""
    if not 0 <= q <= 1:
        raise ValueError(f"q={q} outside [0, 1]")
    s = np.sort(x)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    frac = pos - lo
    return s[lo] + (s[hi] - s[lo]) * frac


@CASES.case(
    args=[
        (DATA, np.linspace(0.0, 10.0, 11)),
        (DATA, np.array([2.5]), 0.5),
        (np.array([1.0]), np.arange(3.0)),
    ]
)
def gaussian_kde(samples, grid, bandwidth=None):
    """A Gaussian kernel density estimate by loops, Silverman's bandwidth by default."""
    n = len(samples)
    if bandwidth is None:
        std = np.std(samples, ddof=1) if n > 1 else 1.0
        bandwidth = 1.06 * std * n ** (-1 / 5)
    norm = 1.0 / (n * bandwidth * math.sqrt(2 * math.pi))
    density = np.zeros_like(grid)
    for j, g in enumerate(grid):
        total = 0.0
        for s in samples:
            u = (g - s) / bandwidth
            total += math.exp(-0.5 * u * u)
        density[j] = norm * total
    return density


@CASES.case(args=[(DATA, OTHER), (DATA, DATA), (DATA[:1], OTHER[:1])])
def paired_t(a, b):
    """The paired t statistic with its degrees of freedom; identical samples give t = 0 and a
    single pair raises."""
    if len(a) != len(b):
        raise ValueError("samples must be paired")
    d = a - b
    n = len(d)
    if n < 2:
        raise ValueError("need at least two pairs")
    mean = d.mean()
    sd = d.std(ddof=1)
    if sd == 0:
        return 0.0, n - 1
    return mean / (sd / math.sqrt(n)), n - 1


@CASES.case(args=[(np.array([18, 22, 20, 40]),), (np.array([10, 10, 10]),), (np.array([0, 0]),)])
def chi_square_uniform(observed):
    """Pearson's chi-square statistic against a uniform expectation, summed in a Python float."""
    total = observed.sum()
    if total == 0:
        raise ZeroDivisionError("no observations")
    expected = total / len(observed)
    chi2 = 0.0
    for o in observed:
        chi2 += (o - expected) ** 2 / expected
    return chi2, len(observed) - 1


class Welford:
    """Streaming mean and variance (Welford), updated one value at a time."""

    def __init__(self):
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0

    def update(self, x):
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)

    def variance(self):
        return self.m2 / (self.count - 1) if self.count > 1 else float("nan")


@CASES.case(
    args=[(Welford(), DATA), (Welford(), DATA[:1]), (Welford(), np.array([], dtype=np.float32))]
)
def welford_object(acc, xs):
    for x in xs:
        acc.update(x)
    return acc.mean, acc.variance()


@CASES.case(args=[(DATA, 4), (np.array([1.0, 1.0, 1.0]), 2), (DATA, 1)])
def histogram_and_format(x, bins):
    """Equal-width bin counts with np.searchsorted and a printed text bar chart."""
    lo, hi = x.min(), x.max()
    if lo == hi:
        hi = lo + 1.0
    edges = np.linspace(lo, hi, bins + 1)
    idx = np.searchsorted(edges, x, side="right") - 1
    idx = np.minimum(idx, bins - 1)
    counts = np.bincount(idx, minlength=bins)
    for k in range(bins):
        print(f"[{edges[k]:6.2f}, {edges[k + 1]:6.2f}) {'#' * int(counts[k])}")
    return counts, edges


@CASES.case(
    args=[
        (np.array([0.5, 0.25, 0.25]),),
        (np.array([0.1, 0.0, 0.9]),),
        (np.array([0.0, 0.0]),),
    ]
)
def shannon_entropy(p):
    """Entropy in bits by a loop that skips zero probabilities, and its value to three places;
    a distribution that does not sum to one raises."""
    if abs(p.sum() - 1.0) > 1e-9 and p.sum() != 0:
        raise ValueError(f"probabilities sum to {p.sum()}")
    h = 0.0
    for q in p:
        if q > 0:
            h -= q * math.log2(q)
    return h, round(h, 3)
