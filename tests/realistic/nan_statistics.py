"""Statistics on real-world data with holes: ``np.nan*`` reductions, masked selections,
``np.unique(..., return_counts=True)``, ``np.histogram`` with edges, ``np.searchsorted``,
``np.lexsort``, ``np.argpartition``, ``np.cumsum``/``np.diff`` chains, ranks with ties, on
float32 and int32 inputs, empty inputs and all-NaN inputs."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("stats")

D = np.array([2.5, np.nan, 1.0, 4.0, np.nan, 3.5, 1.0, 6.0])
G = np.array([1, 0, 1, 2, 0, 2, 1, 0])
INT32 = np.array([3, 7, 7, 1, 9, 3, 3, 0], dtype=np.int32)


@CASES.case(args=[(D,), (D.astype(np.float32),), (np.array([1.0, 2.0, 3.0]),)])
def nan_summary(x):
    """The nan-aware count, mean, median, std, min and max, and the share missing."""
    valid = np.count_nonzero(~np.isnan(x))
    return (
        valid,
        np.nanmean(x),
        np.nanmedian(x),
        np.nanstd(x, ddof=1),
        np.nanmin(x),
        np.nanmax(x),
        1 - valid / len(x),
    )


@CASES.case(args=[(D, G), (D.astype(np.float32), G), (np.array([1.0, 2.0]), np.array([5, 5]))])
def group_means_by_unique(values, groups):
    """Group labels with np.unique(return_inverse, return_counts) and a bincount of the valid
    values per group."""
    labels, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    ok = ~np.isnan(values)
    sums = np.bincount(inverse[ok], weights=values[ok], minlength=len(labels))
    n_ok = np.bincount(inverse[ok], minlength=len(labels))
    means = np.where(n_ok > 0, sums / np.maximum(n_ok, 1), np.nan)
    return labels, counts, means


@CASES.case(args=[(INT32,), (np.array([4, 4, 4]),), (np.array([2.5, 1.0, 2.5, 9.0]),)])
def mode_by_unique_counts(x):
    """The mode (smallest among ties) and its count from np.unique(return_counts=True)."""
    values, counts = np.unique(x, return_counts=True)
    best = np.argmax(counts)
    return values[best], counts[best], len(values)


@CASES.case(args=[(D, 4), (np.array([0.5, 0.5, 0.5]), 2), (np.arange(10.0), 3)])
def histogram_density_and_cdf(x, bins):
    """np.histogram of the finite values: counts, density, edges and an empirical cdf."""
    finite = x[np.isfinite(x)]
    counts, edges = np.histogram(finite, bins=bins)
    density, _ = np.histogram(finite, bins=edges, density=True)
    cdf = np.cumsum(counts) / counts.sum()
    return counts, edges, density, cdf


@CASES.case(args=[(np.array([0.0, 1.0, 2.5, 4.0]), D), (np.array([1.0, 2.0]), np.zeros(0))])
def bin_by_searchsorted(edges, x):
    """Assigns values to bins with np.searchsorted (side='right'), NaNs and out-of-range to -1."""
    idx = np.searchsorted(edges, x, side="right") - 1
    bad = np.isnan(x) | (idx < 0) | (idx >= len(edges) - 1)
    idx[bad] = -1
    return idx, np.bincount(idx[idx >= 0], minlength=len(edges) - 1)


@CASES.case(
    args=[
        (np.array([3, 1, 3, 2, 1]), np.array([0.5, 0.7, 0.1, 0.9, 0.2])),
        (np.array([1, 1], dtype=np.int32), np.array([2.0, 1.0])),
    ]
)
def lexsort_two_keys(primary, secondary):
    """Orders rows by a primary then a secondary key with np.lexsort (last key first)."""
    order = np.lexsort((secondary, primary))
    return order, primary[order], secondary[order]


@CASES.case(args=[(D, 3), (INT32.astype(float), 2), (np.array([5.0]), 1)])
def k_smallest_by_argpartition(x, k):
    """The k smallest finite values, unordered by np.argpartition then sorted."""
    finite = x[~np.isnan(x)]
    k = min(k, len(finite))
    part = np.argpartition(finite, k - 1)[:k]
    return np.sort(finite[part])


@CASES.case(args=[(np.array([1.0, 3.0, 6.0, 10.0, 15.0]),), (INT32,), (np.array([2.0]),)])
def diff_cumsum_round_trip(x):
    """First and second differences, and the cumsum that undoes the first."""
    d1 = np.diff(x)
    d2 = np.diff(x, n=2)
    back = np.concatenate(([x[0]], x[0] + np.cumsum(d1)))
    return d1, d2, np.array_equal(back, x)


@CASES.case(args=[(np.array([10.0, 20.0, 20.0, 5.0, 20.0]),), (INT32,), (np.zeros(0),)])
def average_ranks_with_ties(x):
    """Ranks 1..n with ties sharing their average rank, by sorting and runs of equal values."""
    n = len(x)
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(n)
    i = 0
    while i < n:
        j = i
        while j + 1 < n and x[order[j + 1]] == x[order[i]]:
            j += 1
        ranks[order[i : j + 1]] = 0.5 * (i + j) + 1
        i = j + 1
    return ranks


@CASES.case(args=[(D,), (np.full(3, np.nan),), (np.array([], dtype=np.float64),)])
def masked_zscores(x):
    """z-scores of the finite values, NaN kept where the data is missing; empty and all-NaN
    inputs give NaNs with a RuntimeWarning as eagerly."""
    ok = ~np.isnan(x)
    out = np.full(x.shape, np.nan)
    if ok.sum() > 1:
        v = x[ok]
        out[ok] = (v - v.mean()) / v.std(ddof=1)
    return out


@CASES.case(args=[(D, 0.25), (D.astype(np.float32), 0.9), (np.array([1.0, np.nan]), 0.5)])
def nan_quantiles_and_iqr(x, q):
    """np.nanquantile at q and the interquartile range with np.nanpercentile."""
    q25, q75 = np.nanpercentile(x, [25, 75])
    return np.nanquantile(x, q), q75 - q25


@CASES.case(args=[(D,), (np.array([np.nan, np.nan, 1.0]),)])
def nan_cumulative_and_argmax(x):
    """np.nancumsum, np.nancumprod, np.nanargmax and np.nanargmin."""
    return np.nancumsum(x), np.nancumprod(x / 2), np.nanargmax(x), np.nanargmin(x)


@CASES.case(args=[(INT32,), (np.array([5], dtype=np.int32),), (np.array([1, 2, 2, 1]),)])
def int32_moments(x):
    """Mean and variance of int32 data (float64 results), a sum that stays int, and
    the count above the mean."""
    m = x.mean()
    v = x.var()
    s = x.sum()
    above = int((x > m).sum())
    return m, v, s, s.dtype, above


@CASES.case(args=[(D, G), (np.array([1.0, np.nan]), np.array([0, 0]))])
def pivot_counts_and_sums(values, groups):
    """A little pivot table: per group the valid count, sum (np.nansum) and max (np.fmax.reduce)."""
    out = {}
    for g in np.unique(groups):
        v = values[groups == g]
        out[int(g)] = (int(np.count_nonzero(~np.isnan(v))), np.nansum(v), np.fmax.reduce(v))
    return out


@CASES.case(args=[(np.array([1.0, 2.0, 4.0, 7.0, 11.0]), 2), (D, 3)])
def rolling_mean_by_cumsum(x, w):
    """A rolling mean from a padded cumsum difference; NaNs propagate to every window
    holding one."""
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


@CASES.case(args=[(np.array([1.0, 4.0, 2.0, 8.0, 5.0, 7.0]),), (np.array([3.0, 3.0, 3.0]),)])
def pearson_and_spearman(x):
    """Pearson of x with its squares, Spearman by double argsort."""
    y = x**2 - 3 * x
    xm, ym = x - x.mean(), y - y.mean()
    denom = np.sqrt((xm**2).sum() * (ym**2).sum())
    pearson = (xm * ym).sum() / denom if denom > 0 else np.nan
    rx = np.argsort(np.argsort(x))
    ry = np.argsort(np.argsort(y))
    n = len(x)
    spearman = 1 - 6 * ((rx - ry) ** 2).sum() / (n * (n * n - 1))
    return pearson, spearman
