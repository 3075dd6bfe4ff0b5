"""Statistics the way tutorials write it: one- and two-sample t tests (Welch), chi-square,
Mann-Whitney U with tie-averaged ranks, Spearman and Kendall tau, bootstrap intervals with a
seeded generator, kernel density estimates, histograms, quantiles with interpolation modes, OLS
by the normal equations and by lstsq, logistic regression by IRLS and a running-statistics
object; on lists, int arrays, ties, NaN and zero-variance samples."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("stats")

A = [5.1, 4.9, 6.2, 5.8, 6.0, 5.5, 5.3]
B = [4.1, 4.5, 4.8, 5.0, 4.2, 4.9]
TIED = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3])
XS = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
YS = np.array([2.1, 3.9, 6.2, 7.8, 10.1, 12.2])


@CASES.case(
    args=[(A, 5.0), (np.array(B), 4.0), ([2.0, 2.0, 2.0], 2.0), (np.array([1, 2, 3, 4]), 2)]
)
def one_sample_t(sample, mu0):
    """The one-sample t statistic and degrees of freedom; NaN for a zero-variance sample."""
    n = len(sample)
    mean = sum(sample) / n
    var = sum((x - mean) ** 2 for x in sample) / (n - 1)
    if var == 0:
        return float("nan"), n - 1
    return (mean - mu0) / math.sqrt(var / n), n - 1


@CASES.case(args=[(A, B), (np.array(A), np.array(B, dtype=np.float32)), ([1.0, 2.0], [1.0, 2.0])])
def welch_t_test(a, b):
    """Welch's t statistic with the Welch-Satterthwaite degrees of freedom."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    va = a.var(ddof=1) / len(a)
    vb = b.var(ddof=1) / len(b)
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return t, df


@CASES.case(
    args=[
        ([[10, 20], [30, 40]],),
        (np.array([[12.0, 5.0, 7.0], [3.0, 9.0, 4.0]]),),
        ([[0, 5], [0, 5]],),
    ]
)
def chi_square_independence(table):
    """The chi-square statistic of a contingency table, its dof, and the smallest expected
    count; a zero row or column gives NaN through 0/0, as NumPy does."""
    obs = np.asarray(table, dtype=float)
    row = obs.sum(axis=1, keepdims=True)
    col = obs.sum(axis=0, keepdims=True)
    expected = row @ col / obs.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = ((obs - expected) ** 2 / expected).sum()
    dof = (obs.shape[0] - 1) * (obs.shape[1] - 1)
    return chi2, dof, expected.min()


def _rank_with_ties(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    return ranks


@CASES.case(args=[(A, B), ([1, 2, 2, 3], [2, 3, 3, 4]), ([1.0], [2.0, 3.0])])
def mann_whitney_u_tie_ranks(x, y):
    """U statistics of two lists from tie-averaged ranks of the pooled sample, and the normal
    approximation's z (without the tie correction)."""
    ranks = _rank_with_ties(list(x) + list(y))
    n1, n2 = len(x), len(y)
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    mu = n1 * n2 / 2
    sigma = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return u1, u2, (min(u1, u2) - mu) / sigma


@CASES.case(args=[(XS, YS), (TIED[:6].astype(float), XS), (XS, np.ones(6))])
def spearman_by_argsort_ranks(x, y):
    """Spearman's rho as the Pearson correlation of ranks from a double argsort (no tie
    averaging: ties get consecutive ranks); NaN when one side is constant."""
    rx = np.argsort(np.argsort(x)).astype(float)
    ry = np.argsort(np.argsort(y, kind="stable"), kind="stable").astype(float)
    rx -= rx.mean()
    ry -= ry.mean()
    denom = np.sqrt((rx**2).sum() * (ry**2).sum())
    return (rx * ry).sum() / denom if denom > 0 else np.nan


@CASES.case(args=[(XS, YS), (TIED[:6], TIED[4:]), ([1, 2, 3], [3, 2, 1]), ([1.0, 1.0], [2.0, 3.0])])
def kendall_tau_b(x, y):
    """Kendall's tau-b by counting pairs, with the tie corrections in the denominator."""
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = x[i] - x[j]
            dy = y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    denom = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    if denom == 0:
        return float("nan")
    return (concordant - discordant) / denom


@CASES.case(args=[(np.array(A), 60, 0), (np.array(B), 40, 1), (np.array([3.0]), 10, 2)])
def bootstrap_mean_percentile_ci(data, n_boot, seed, alpha=0.05):
    """A percentile bootstrap interval for the mean, with a seeded default_rng."""
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    for i in range(n_boot):
        sample = rng.choice(data, size=len(data), replace=True)
        means[i] = sample.mean()
    lo, hi = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return data.mean(), lo, hi


@CASES.case(
    args=[
        (np.array(A), np.linspace(4.0, 7.0, 7)),
        (np.array([1.0, 1.0]), np.array([1.0])),
        (np.array(B), np.array([4.5])),
    ]
)
def gaussian_kde_silverman(data, grid):
    """A Gaussian KDE with Silverman's bandwidth (falls back to 1.0 for zero spread)."""
    n = len(data)
    std = np.std(data, ddof=1)
    iqr = np.subtract(*np.percentile(data, [75, 25]))
    spread = min(std, iqr / 1.34) if iqr > 0 else std
    h = 0.9 * spread * n ** (-0.2) if spread > 0 else 1.0
    u = (grid[:, None] - data[None, :]) / h
    return np.exp(-0.5 * u**2).sum(axis=1) / (n * h * np.sqrt(2 * np.pi)), h


@CASES.case(
    args=[(A, 4), (np.array(TIED), 3), ([1.0, 1.0, 1.0], 2), (np.array([0.5, np.nan, 1.5]), 2)]
)
def histogram_manual(values, bins):
    """Equal-width bin counts by hand (the last bin closed, as np.histogram does) and the edges;
    an all-equal sample gets a unit-wide range around its value."""
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in values:
        k = int((v - lo) / width)
        if k == bins:
            k -= 1
        if 0 <= k < bins:
            counts[k] += 1
    edges = [lo + i * width for i in range(bins + 1)]
    return counts, edges


@CASES.case(
    args=[(A, 0.25), (np.array(TIED), 0.5), (XS, 0.9), ([7.0], 0.3), (np.array([1, 2, 3, 4]), 1.0)]
)
def quantile_modes(values, q):
    """The q-quantile by linear interpolation, lower, higher, nearest and midpoint, by hand."""
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = math.ceil(pos)
    frac = pos - lo
    linear = s[lo] + (s[hi] - s[lo]) * frac
    nearest = s[lo] if frac < 0.5 or (frac == 0.5 and lo % 2 == 0) else s[hi]
    return linear, s[lo], s[hi], nearest, (s[lo] + s[hi]) / 2


@CASES.case(
    args=[
        (XS, YS),
        (XS.astype(np.float32), YS.astype(np.float32)),
        (np.arange(4), np.array([1, 3, 5, 7])),
    ]
)
def ols_normal_equations(x, y):
    """Simple regression through the normal equations with a design matrix, R squared and the
    residual standard error."""
    X = np.column_stack([np.ones(len(x)), x])
    beta = np.linalg.inv(X.T @ X) @ X.T @ y
    fitted = X @ beta
    ss_res = np.sum((y - fitted) ** 2)
    ss_tot = np.sum((y - np.mean(y)) ** 2)
    r2 = 1 - ss_res / ss_tot
    se = np.sqrt(ss_res / (len(x) - 2))
    return beta, r2, se


@CASES.case(args=[(np.column_stack([XS, XS**2]), YS), (np.ones((3, 2)), np.array([1.0, 2.0, 3.0]))])
def ols_lstsq_with_rank(X, y):
    """Least squares with an intercept by np.linalg.lstsq, reporting the rank it found."""
    design = np.hstack([np.ones((X.shape[0], 1)), X])
    coef, residuals, rank, sv = np.linalg.lstsq(design, y, rcond=None)
    return coef, rank, sv


@CASES.case(
    args=[
        (
            np.array([[0.5], [1.0], [1.5], [2.0], [2.5], [3.0]]),
            np.array([0.0, 0.0, 1.0, 0.0, 1.0, 1.0]),
        ),
        (
            np.array([[1.0, 0.2], [0.3, 1.1], [1.2, 0.9], [0.1, 0.4]]),
            np.array([1.0, 0.0, 1.0, 0.0]),
        ),
    ]
)
def logistic_irls(X, y, iters=8):
    """Logistic regression by iteratively reweighted least squares (Newton), with an intercept
    and a small ridge term so separable data stays finite."""
    Xd = np.hstack([np.ones((len(X), 1)), X])
    w = np.zeros(Xd.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-Xd @ w))
        W = p * (1 - p)
        H = Xd.T @ (Xd * W[:, None]) + 1e-3 * np.eye(len(w))
        g = Xd.T @ (y - p) - 1e-3 * w
        w = w + np.linalg.solve(H, g)
    return w, p


class RunningStats:
    """Welford's online mean and variance, plus the minimum and maximum seen."""

    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.lo = math.inf
        self.hi = -math.inf

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        self.lo = min(self.lo, x)
        self.hi = max(self.hi, x)

    def variance(self):
        return self.m2 / (self.n - 1) if self.n > 1 else 0.0


@CASES.case(args=[(A,), ([3.0],), ([],), ([1, 2, 3, 4],)])
def running_stats_over_list(values):
    """A running-statistics object fed a list of Python numbers."""
    rs = RunningStats()
    for v in values:
        rs.push(v)
    return rs.n, rs.mean, rs.variance(), rs.lo, rs.hi


@CASES.case(
    args=[
        (np.array(A), 2.0),
        (np.array([1.0, 1.0, 1.0]), 2.0),
        (np.array([1.0, 2.0, np.nan, 40.0]), 1.0),
    ]
)
def zscore_filter(x, threshold):
    """The values whose z-score is within threshold; nothing is dropped for zero spread."""
    sd = np.std(x)
    if sd == 0:
        return x.copy(), 0
    z = (x - np.mean(x)) / sd
    keep = np.abs(z) <= threshold
    return x[keep], int(np.sum(~keep))


@CASES.case(
    args=[
        (np.array(A), np.array(B[:5] + [5.0])),
        (XS, YS),
        (np.array([1, 2, 3]), np.array([2, 4, 6])),
    ]
)
def paired_t_and_cohens_d(before, after):
    """The paired t statistic on the differences and Cohen's d of the differences."""
    d = after - before
    mean_d = d.mean()
    sd_d = d.std(ddof=1)
    t = mean_d / (sd_d / np.sqrt(len(d)))
    return t, mean_d / sd_d
