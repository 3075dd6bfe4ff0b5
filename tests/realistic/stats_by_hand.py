"""Statistics computed by hand as in course notes: a seeded-Generator bootstrap of a ratio,
Mann-Whitney U with midranks and the tie-corrected normal approximation (math.erf), Kendall's
tau-a by double loop, a Gaussian KDE with Scott's bandwidth, an online covariance, quantiles by
the lower/higher/nearest/midpoint rules, a weighted median, Wilcoxon's signed-rank statistic,
one-way ANOVA, Cohen's kappa, Welford on float32 samples and NaN-skipping summaries."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("stats")

A = np.array([2.1, 3.4, 1.9, 5.0, 4.2, 3.3, 2.8, 4.9])
B = np.array([3.0, 4.1, 3.9, 5.5, 2.2, 4.4, 5.1])
TIED = np.array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0])
W = np.array([0.5, 1.0, 2.0, 0.25, 1.5, 1.0, 0.75, 1.0])


@CASES.case(args=[(A, A[::-1] + 1.0, 200, 5), (A[:4], B[:4], 50, 1)])
def bootstrap_ratio_of_means(x, y, n_boot, seed):
    """Percentile interval of mean(x)/mean(y) from paired resamples drawn by a Generator."""
    rng = np.random.default_rng(seed)
    n = len(x)
    stats = np.empty(n_boot)
    for b in range(n_boot):
        idx = rng.integers(0, n, size=n)
        stats[b] = x[idx].mean() / y[idx].mean()
    lo, hi = np.percentile(stats, [2.5, 97.5])
    return x.mean() / y.mean(), lo, hi


def _midranks(values):
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values))
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[order[j + 1]] == values[order[i]]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


@CASES.case(args=[(A, B), (TIED, TIED[::-1] + 0.5), (TIED[:3], TIED[3:])])
def mann_whitney_tie_corrected(x, y):
    """U statistic from midranks, and the two-sided p-value of the normal approximation with
    the tie correction and a continuity correction."""
    n1, n2 = len(x), len(y)
    both = np.concatenate([x, y])
    ranks = _midranks(both)
    u1 = ranks[:n1].sum() - n1 * (n1 + 1) / 2
    u = min(u1, n1 * n2 - u1)
    _, counts = np.unique(both, return_counts=True)
    n = n1 + n2
    tie = np.sum(counts**3 - counts) / (n * (n - 1))
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie))
    if sigma == 0:
        return u, 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / sigma
    p = 2 * (1 - 0.5 * (1 + math.erf(z / math.sqrt(2))))
    return u, min(p, 1.0)


@CASES.case(args=[(A, A**2 - A), (TIED, np.arange(7.0)), (A[:1], B[:1])])
def kendall_tau_a_loops(x, y):
    """Kendall's tau-a: concordant minus discordant pairs over all pairs, by a double loop."""
    n = len(x)
    if n < 2:
        return float("nan")
    s = 0
    for i in range(n - 1):
        for j in range(i + 1, n):
            s += np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
    return s / (n * (n - 1) / 2)


@CASES.case(
    args=[
        (A, np.linspace(1.0, 6.0, 6)),
        (B.astype(np.float32), np.array([3.0])),
        (A[:2], np.array([2.0, 3.0])),
    ]
)
def kde_scott(data, grid):
    """A Gaussian KDE with Scott's bandwidth n**(-1/5) times the sample std, by broadcasting."""
    n = len(data)
    h = data.std(ddof=1) * n ** (-1 / 5)
    u = (grid[:, None] - data[None, :]) / h
    dens = np.exp(-0.5 * u**2).sum(axis=1) / (n * h * math.sqrt(2 * math.pi))
    return dens, h


@CASES.case(
    args=[(A, A * 2 - B.mean()), (A.astype(np.float32), A.astype(np.float32)), (A[:1], A[:1])]
)
def online_covariance(xs, ys):
    """Co-moment updated one pair at a time (the Welford form), against np.cov's answer."""
    n = 0
    mean_x = mean_y = 0.0
    c = 0.0
    for x, y in zip(xs, ys):
        n += 1
        dx = x - mean_x
        mean_x += dx / n
        mean_y += (y - mean_y) / n
        c += dx * (y - mean_y)
    sample = c / (n - 1) if n > 1 else float("nan")
    return sample, c / n


@CASES.case(args=[(A, 0.3), (TIED, 0.5), (A[:1], 0.9), (B, 1.0)])
def quantile_rules(x, q):
    """The lower, higher, nearest and midpoint quantiles from the sorted sample by index
    arithmetic, next to np.quantile's linear one."""
    s = np.sort(x)
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = int(math.ceil(pos))
    frac = pos - lo
    nearest = s[lo] if frac < 0.5 or (frac == 0.5 and lo % 2 == 0) else s[hi]
    return s[lo], s[hi], nearest, (s[lo] + s[hi]) / 2, np.quantile(x, q)


@CASES.case(args=[(A, W), (TIED, np.ones(7)), (A[:2], W[:2]), (np.array([5.0]), np.array([2.0]))])
def weighted_median(x, w):
    """The smallest value whose cumulative weight reaches half the total, found by a while
    loop over the sorted pairs."""
    order = np.argsort(x)
    xs, ws = x[order], w[order]
    half = ws.sum() / 2
    acc = 0.0
    i = 0
    while i < len(xs):
        acc += ws[i]
        if acc >= half:
            return xs[i]
        i += 1
    return xs[-1]


@CASES.case(
    args=[(A, A + np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.2, -0.1])), (TIED, TIED[::-1])]
)
def wilcoxon_signed_rank(x, y):
    """The signed-rank statistic: drop zero differences, midrank the absolute ones, sum the
    ranks of the positive differences; and its normal z."""
    d = y - x
    d = d[d != 0]
    n = len(d)
    if n == 0:
        return 0.0, 0.0
    ranks = _midranks(np.abs(d))
    w_plus = ranks[d > 0].sum()
    mean = n * (n + 1) / 4
    sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    return w_plus, (w_plus - mean) / sd


@CASES.case(
    args=[([A, B, TIED],), ([A[:3], B[:3]],), ([A.astype(np.float32), B.astype(np.float32)],)]
)
def one_way_anova(groups):
    """The F statistic of a one-way ANOVA from a list of arrays, with its degrees of freedom."""
    k = len(groups)
    n = sum(len(g) for g in groups)
    grand = np.concatenate(groups).mean()
    ss_between = sum(len(g) * (g.mean() - grand) ** 2 for g in groups)
    ss_within = sum(((g - g.mean()) ** 2).sum() for g in groups)
    df_b, df_w = k - 1, n - k
    return (ss_between / df_b) / (ss_within / df_w), df_b, df_w


@CASES.case(
    args=[
        (np.array([0, 1, 2, 1, 0, 2, 2, 1]), np.array([0, 1, 1, 1, 0, 2, 0, 1]), 3),
        (np.array([1, 1, 1]), np.array([1, 1, 1]), 2),
        (np.array([0, 1], dtype=np.int32), np.array([1, 0], dtype=np.int32), 2),
    ]
)
def cohens_kappa(r1, r2, k):
    """Cohen's kappa from a confusion matrix filled by np.add.at; perfect chance agreement
    gives NaN as the formula does (a RuntimeWarning that must match)."""
    cm = np.zeros((k, k))
    np.add.at(cm, (r1, r2), 1)
    n = cm.sum()
    po = np.trace(cm) / n
    pe = np.sum(cm.sum(axis=0) * cm.sum(axis=1)) / n**2
    return (po - pe) / (1 - pe)


@CASES.case(
    args=[
        (A.astype(np.float32),),
        (np.array([1e8, 1.0, -1e8, 2.0], dtype=np.float32),),
        (np.zeros(0, np.float32),),
    ]
)
def welford_float32(x):
    """Welford's mean and variance with the state kept in the samples' float32."""
    n = 0
    mean = np.float32(0.0)
    m2 = np.float32(0.0)
    for v in x:
        n += 1
        delta = v - mean
        mean += delta / np.float32(n)
        m2 += delta * (v - mean)
    if n < 2:
        return mean, np.float32(np.nan)
    return mean, m2 / np.float32(n - 1)


@CASES.case(
    args=[(np.array([1.0, np.nan, 3.0, 4.5, np.nan]),), (A,), (np.array([np.nan, np.nan]),)]
)
def nan_skipping_summary(x):
    """Count, mean, min and max that skip NaNs with a mask; an all-NaN sample gives NaNs and a
    count of 0 without warnings."""
    ok = ~np.isnan(x)
    n = int(ok.sum())
    if n == 0:
        return 0, float("nan"), float("nan"), float("nan")
    vals = x[ok]
    return n, float(vals.mean()), float(vals.min()), float(vals.max())


@CASES.case(args=[(A, B), (TIED, TIED + 0.5), (A[:2], B[:3])])
def ks_statistic_by_merge(x, y):
    """Two-sample Kolmogorov-Smirnov D by walking both sorted samples with two indices."""
    xs, ys = sorted(x), sorted(y)
    i = j = 0
    d = 0.0
    while i < len(xs) and j < len(ys):
        v = min(xs[i], ys[j])
        while i < len(xs) and xs[i] == v:
            i += 1
        while j < len(ys) and ys[j] == v:
            j += 1
        d = max(d, abs(i / len(xs) - j / len(ys)))
    return d


@CASES.case(args=[(A, 2.0), (TIED, 1.0), (np.array([1.0, 1.0, 1.0]), 3.0)])
def iqr_outlier_fences(x, k):
    """Tukey's fences from the quartiles; the outliers as a list of (index, value) pairs."""
    q1, q3 = np.percentile(x, [25, 75])
    iqr = q3 - q1
    lo, hi = q1 - k * iqr, q3 + k * iqr
    outliers = [(i, float(v)) for i, v in enumerate(x) if v < lo or v > hi]
    return lo, hi, outliers
