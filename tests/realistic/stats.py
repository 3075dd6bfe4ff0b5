"""Statistics as people write it: Welford's running moments, weighted moments, medians by sorting,
histograms by loops, linear regression, Spearman correlation, k-means, Welch's t statistic."""

import bisect
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


# ---- round 3 ------------------------------------------------------------------------------------


def _average_ranks(values):
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2.0 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    return ranks


@CASES.case(args=[(DATA, OTHER), (DATA[:3], OTHER[3:]), (np.array([1.0, 1.0]), np.array([1.0]))])
def mann_whitney_u(x, y):
    """The Mann-Whitney U statistic from average ranks of the pooled sample, with a normal z."""
    n1, n2 = len(x), len(y)
    ranks = _average_ranks(np.concatenate([x, y]))
    r1 = ranks[:n1].sum()
    u1 = r1 - n1 * (n1 + 1) / 2
    u = min(u1, n1 * n2 - u1)
    mu = n1 * n2 / 2
    sigma = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return u, (u - mu) / sigma


@CASES.case(
    args=[
        (DATA, np.random.default_rng(0), 40),
        (OTHER, np.random.default_rng(5), 15, 0.9),
    ]
)
def bootstrap_median_ci(x, rng, n_boot, level=0.95):
    """A percentile bootstrap interval of the median, resampling with the caller's Generator."""
    medians = np.empty(n_boot)
    for b in range(n_boot):
        sample = rng.choice(x, size=len(x), replace=True)
        medians[b] = np.median(sample)
    tail = (1 - level) / 2
    return np.quantile(medians, tail), np.quantile(medians, 1 - tail)


@CASES.case(args=[(DATA,), (OTHER[:4],), (np.array([3.0]),)])
def running_median_insort(xs):
    """Running medians with a sorted list kept by bisect.insort."""
    window = []
    medians = []
    for v in xs:
        bisect.insort(window, float(v))
        n = len(window)
        if n % 2:
            medians.append(window[n // 2])
        else:
            medians.append((window[n // 2 - 1] + window[n // 2]) / 2)
    return medians


@CASES.case(args=[(DATA, OTHER), (DATA, DATA[::-1]), (np.array([1.0, 2.0]), np.array([3.0, 3.0]))])
def kendall_tau(x, y):
    """Kendall's tau-a by counting concordant and discordant pairs."""
    n = len(x)
    concordant = discordant = 0
    for i in range(n - 1):
        for j in range(i + 1, n):
            s = (x[i] - x[j]) * (y[i] - y[j])
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


@CASES.case(args=[(DATA, OTHER), (list(DATA), list(OTHER)), (np.ones(3), np.arange(3.0))])
def pearson_by_sums(xs, ys):
    """Pearson's r from running sums, the textbook one-pass formula."""
    n = 0
    sx = sy = sxx = syy = sxy = 0.0
    for x, y in zip(xs, ys):
        n += 1
        sx += x
        sy += y
        sxx += x * x
        syy += y * y
        sxy += x * y
    num = n * sxy - sx * sy
    den = math.sqrt(n * sxx - sx**2) * math.sqrt(n * syy - sy**2)
    if den == 0:
        return float("nan")
    return num / den


@CASES.case(args=[(DATA,), (DATA, False), (np.array([1.0, 2.0, 3.0, 10.0]), True)])
def skew_kurtosis(x, bias=True):
    """Sample skewness and excess kurtosis, with the bias correction as a keyword."""
    n = len(x)
    m = x.mean()
    m2 = ((x - m) ** 2).mean()
    m3 = ((x - m) ** 3).mean()
    m4 = ((x - m) ** 4).mean()
    g1 = m3 / m2**1.5
    g2 = m4 / m2**2 - 3.0
    if not bias:
        g1 = g1 * math.sqrt(n * (n - 1)) / (n - 2)
        g2 = ((n + 1) * g2 + 6) * (n - 1) / ((n - 2) * (n - 3))
    return g1, g2


@CASES.case(args=[(DATA,), (OTHER[:3],)])
def jackknife_std_of_mean(x):
    """The jackknife estimate of the standard error of the mean, leaving one out by np.delete."""
    n = len(x)
    estimates = np.array([np.delete(x, i).mean() for i in range(n)])
    return math.sqrt((n - 1) / n * np.sum((estimates - estimates.mean()) ** 2))


@CASES.case(
    args=[
        (DATA, OTHER, np.random.default_rng(1), 40),
        (DATA[:4], DATA[4:], np.random.default_rng(2), 15),
    ]
)
def permutation_test(a, b, rng, n_perm):
    """A two-sided permutation test of the difference of means with the caller's Generator."""
    observed = abs(a.mean() - b.mean())
    pooled = np.concatenate([a, b])
    count = 0
    for _ in range(n_perm):
        rng.shuffle(pooled)
        diff = abs(pooled[: len(a)].mean() - pooled[len(a) :].mean())
        if diff >= observed:
            count += 1
    return (count + 1) / (n_perm + 1)


@CASES.case(args=[(DATA, OTHER), (DATA, DATA + 0.5), (np.array([1.0]), np.array([2.0, 3.0]))])
def ks_two_sample(a, b):
    """The two-sample Kolmogorov-Smirnov statistic by walking both sorted samples."""
    a = np.sort(a)
    b = np.sort(b)
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            x = a[i]
        else:
            x = b[j]
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    return d


@CASES.case(args=[(DATA, 0.1), (DATA, 0.25), (OTHER, 0.0), (DATA, 0.5)])
def trimmed_mean(x, proportion):
    """The mean after cutting int(proportion * n) values from each end."""
    if not 0 <= proportion < 0.5:
        raise ValueError(f"proportion must be in [0, 0.5), got {proportion}")
    s = np.sort(x)
    cut = int(proportion * len(s))
    return s[cut : len(s) - cut].mean()


@CASES.case(args=[(np.stack([DATA, OTHER, DATA * OTHER]),), (np.array([[1.0, 2.0], [2.0, 4.0]]),)])
def covariance_by_loops(rows):
    """A sample covariance matrix filled entry by entry (rows are variables)."""
    k, n = rows.shape
    means = [sum(r) / n for r in rows]
    cov = np.zeros((k, k))
    for i in range(k):
        for j in range(i, k):
            acc = 0.0
            for t in range(n):
                acc += (rows[i, t] - means[i]) * (rows[j, t] - means[j])
            cov[i, j] = cov[j, i] = acc / (n - 1)
    return cov


@CASES.case(args=[(DATA, 4), (OTHER, 3), (np.array([5.0, 5.0, 5.0]), 2)])
def histogram_dict_labels(x, bins):
    """A histogram keyed by range labels like '2.5-4.6', built with dict.get and f-strings."""
    lo, hi = float(x.min()), float(x.max())
    width = (hi - lo) / bins or 1.0
    counts = {}
    for v in x:
        k = min(int((v - lo) / width), bins - 1)
        label = f"{lo + k * width:.1f}-{lo + (k + 1) * width:.1f}"
        counts[label] = counts.get(label, 0) + 1
    return counts


@CASES.case(args=[(DATA,), (list(OTHER),), ([1, 2, 3, 4],)])
def median_abs_deviation_lists(values):
    """The median and median absolute deviation with sorted() and list comprehensions."""
    s = sorted(values)
    n = len(s)
    mid = n // 2
    med = s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2
    dev = sorted(abs(v - med) for v in values)
    mad = dev[mid] if n % 2 else (dev[mid - 1] + dev[mid]) / 2
    return med, mad, 1.4826 * mad


@CASES.case(
    args=[
        (np.random.default_rng(9), np.array([0.2, 0.5, 0.3]), 30),
        (np.random.default_rng(10), np.array([1.0, 0.0]), 5),
    ]
)
def categorical_frequencies(rng, p, n):
    """Draws n categories with rng.choice(p=...) and tallies them in a list, with the chi-square
    distance to the expected counts."""
    draws = rng.choice(len(p), size=n, p=p)
    tally = [0] * len(p)
    for d in draws:
        tally[d] += 1
    chi2 = 0.0
    for k in range(len(p)):
        expected = n * p[k]
        if expected > 0:
            chi2 += (tally[k] - expected) ** 2 / expected
    return tally, chi2


@CASES.case(
    args=[(np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int32),), (np.array([7], dtype=np.int8),)]
)
def integer_running_sums(x):
    """Running sums and products of a small-integer array, kept in its own dtype and in Python."""
    acc = np.zeros_like(x)
    total = 0
    prod = 1
    for i in range(len(x)):
        total += int(x[i])
        prod *= x[i]
        acc[i] = total % 100
    return acc, total, prod, total // 3, -total // 3, -total % 7


@CASES.case(
    args=[
        (np.array([[1.0, 3.0], [2.0, 2.0], [0.5, 0.5]]),),
        (np.array([[1.0, 1.0], [0.0, 0.0], [4.0, 0.0]]),),
    ]
)
def normalize_rows_inplace(counts):
    """Turns rows of counts into probabilities in place; a zero row raises after the rows
    before it were already written."""
    for i in range(counts.shape[0]):
        total = counts[i].sum()
        if total == 0:
            raise ValueError(f"row {i} has no counts")
        counts[i] /= total
    return counts


@CASES.case(
    args=[(np.array([1.0, 2.0, 3.0], dtype=np.float32),), (np.array([0.1, 0.7], dtype=np.float32),)]
)
def float32_accumulate(x):
    """Sums a float32 array into a Python-float start: the sum becomes a float32 scalar."""
    s = 0.0
    sq = 0
    for v in x:
        s += v * 0.1
        sq = sq + v * v
    return s, sq, s / len(x)


@CASES.case(args=[(np.array([4, 0, 2]), 12), (np.array([3, 5]), 7)])
def integer_shares(weights, total):
    """Splits an integer total in proportion to integer weights (largest remainder); a zero
    weight sum raises ZeroDivisionError from Python ints."""
    wsum = int(weights.sum())
    shares = [total * int(w) // wsum for w in weights]
    rema = [total * int(w) % wsum for w in weights]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: -rema[i])
    for i in order[:left]:
        shares[i] += 1
    return shares
