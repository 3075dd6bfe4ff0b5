"""Fuzzy logic the way tutorials write it: triangular, trapezoidal, gaussian and bell membership
functions on scalars and arrays, Mamdani and Sugeno inference, defuzzification by centroid,
bisector and the mean, smallest and largest of the maximum, and fuzzy c-means; with crisp inputs
on a set's edges, all-zero aggregates and flat plateaus."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("fuzzy")

X = np.linspace(0.0, 10.0, 41)
POINTS = np.array(
    [[1.0, 1.2], [0.8, 0.9], [1.1, 0.7], [5.0, 5.2], [5.3, 4.8], [4.9, 5.1], [9.0, 1.0]]
)


@CASES.case(
    args=[
        (2.5, 0.0, 5.0, 10.0),
        (5.0, 0.0, 5.0, 10.0),
        (-1.0, 0.0, 5.0, 10.0),
        (3.0, 3.0, 3.0, 6.0),
    ]
)
def trimf_scalar(x, a, b, c):
    """A triangular membership of one crisp value, with shoulders when a == b or b == c."""
    if x <= a or x >= c:
        return 1.0 if x == b else 0.0
    if x <= b:
        return (x - a) / (b - a)
    return (c - x) / (c - b)


@CASES.case(
    args=[
        (X, [1.0, 3.0, 6.0, 8.0]),
        (list(X[:5]), [0.0, 0.0, 1.0, 2.0]),
        (X.astype(np.float32), [2, 4, 4, 9]),
    ]
)
def trapmf_array(x, abcd):
    """A trapezoidal membership over an array, written with np.minimum and np.maximum."""
    a, b, c, d = abcd
    x = np.asarray(x)
    rise = (x - a) / (b - a) if b != a else np.where(x >= a, 1.0, 0.0)
    fall = (d - x) / (d - c) if d != c else np.where(x <= d, 1.0, 0.0)
    return np.maximum(np.minimum(np.minimum(rise, 1.0), fall), 0.0)


@CASES.case(args=[(X, 5.0, 1.5), (4.0, 4.0, 0.5), (np.array([1, 2, 3]), 2.0, 1.0)])
def gaussmf_value(x, mean, sigma):
    return np.exp(-((x - mean) ** 2.0) / (2 * sigma**2.0))


@CASES.case(args=[(X, 2.0, 4.0, 6.0), (6.0, 2.0, 4.0, 6.0), (X, 1.0, 1.0, 0.0)])
def gbellmf_value(x, a, b, c):
    """The generalised bell 1 / (1 + |(x - c) / a|^(2b))."""
    return 1.0 / (1.0 + np.abs((x - c) / a) ** (2 * b))


def _tri(x, a, b, c):
    return np.maximum(np.minimum((x - a) / (b - a), (c - x) / (c - b)), 0)


@CASES.case(args=[(6.5, 9.8), (0.0, 0.0), (10.0, 10.0), (3.0, 7.5)])
def mamdani_tipping(quality, service):
    """The classic tipping problem: three rules, min implication, max aggregation, centroid."""
    tip = np.arange(0, 26, 1.0)
    q_lo = max(0.0, min(1.0, (5 - quality) / 5))
    q_hi = max(0.0, min(1.0, (quality - 5) / 5))
    s_lo = max(0.0, min(1.0, (5 - service) / 5))
    s_md = max(0.0, 1 - abs(service - 5) / 5)
    s_hi = max(0.0, min(1.0, (service - 5) / 5))
    tip_lo = _tri(tip, -1e-9, 0, 13)
    tip_md = _tri(tip, 0, 13, 25)
    tip_hi = _tri(tip, 13, 25, 25 + 1e-9)
    rule1 = np.fmin(max(q_lo, s_lo), tip_lo)
    rule2 = np.fmin(s_md, tip_md)
    rule3 = np.fmin(max(q_hi, s_hi), tip_hi)
    aggregated = np.fmax(rule1, np.fmax(rule2, rule3))
    if aggregated.sum() == 0:
        return 0.0
    return np.sum(tip * aggregated) / np.sum(aggregated)


@CASES.case(args=[(22.0, 45.0), (35.0, 80.0), (10.0, 10.0)])
def sugeno_fan_speed(temperature, humidity):
    """First-order Sugeno: rule strengths by product, linear consequents, weighted average."""
    cold = max(0.0, min(1.0, (25.0 - temperature) / 10.0))
    hot = max(0.0, min(1.0, (temperature - 20.0) / 10.0))
    dry = max(0.0, min(1.0, (60.0 - humidity) / 40.0))
    humid = max(0.0, min(1.0, (humidity - 40.0) / 40.0))
    rules = [
        (cold * dry, 0.0 * temperature + 0.0 * humidity + 10.0),
        (cold * humid, 0.5 * temperature + 0.1 * humidity),
        (hot * dry, 1.5 * temperature + 0.2 * humidity),
        (hot * humid, 2.0 * temperature + 0.5 * humidity + 5.0),
    ]
    total = sum(w for w, _ in rules)
    if total == 0:
        return 0.0
    return sum(w * z for w, z in rules) / total


@CASES.case(
    args=[(X, _tri(X, 2.0, 5.0, 8.0)), (X, np.zeros(41)), ([0.0, 1.0, 2.0], [0.5, 1.0, 0.5])]
)
def defuzz_centroid(x, mfx):
    x = np.asarray(x, dtype=float)
    mfx = np.asarray(mfx, dtype=float)
    total = np.sum(mfx)
    if total == 0:
        raise ValueError("total area is zero: cannot defuzzify")
    return np.sum(x * mfx) / total


@CASES.case(args=[(X, _tri(X, 2.0, 5.0, 8.0)), (X, np.minimum(_tri(X, 0.0, 3.0, 10.0), 0.6))])
def defuzz_bisector(x, mfx):
    """The point that splits the area under mfx in two, by the trapezoid rule and a scan."""
    areas = (mfx[1:] + mfx[:-1]) / 2 * np.diff(x)
    total = areas.sum()
    running = 0.0
    for i, a in enumerate(areas):
        running += a
        if running >= total / 2:
            return x[i + 1]
    return x[-1]


@CASES.case(
    args=[
        (X, np.minimum(_tri(X, 0.0, 5.0, 10.0), 0.7)),
        (X, _tri(X, 1.0, 4.0, 9.0)),
        (X, np.zeros(41)),
    ]
)
def defuzz_maxima(x, mfx):
    """Mean, smallest and largest of maximum; on an all-zero set every point is a maximum."""
    peak = mfx.max()
    at_peak = x[mfx == peak]
    return at_peak.mean(), at_peak.min(), at_peak.max()


@CASES.case(
    args=[
        (X, _tri(X, 2.0, 5.0, 8.0), 0.5),
        (X, _tri(X, 2.0, 5.0, 8.0), 1.0),
        (X, np.zeros(41), 0.1),
    ]
)
def alpha_cut_interval(x, mfx, alpha):
    """The interval where membership reaches alpha, or None when it never does."""
    inside = [xi for xi, m in zip(x, mfx) if m >= alpha]
    if not inside:
        return None
    return min(inside), max(inside)


@CASES.case(args=[(POINTS, 2, 2.0, 0), (POINTS, 3, 2.0, 1), (POINTS[:3], 2, 1.5, 3)])
def fuzzy_c_means_seeded(data, c, m, seed, iters=15):
    """Fuzzy c-means from a seeded random membership matrix, with a zero-distance guard."""
    rng = np.random.default_rng(seed)
    n = data.shape[0]
    u = rng.random((c, n))
    u /= u.sum(axis=0)
    for _ in range(iters):
        um = u**m
        centers = um @ data / um.sum(axis=1, keepdims=True)
        dist = np.linalg.norm(data[None, :, :] - centers[:, None, :], axis=2)
        dist = np.fmax(dist, 1e-10)
        inv = dist ** (-2 / (m - 1))
        u = inv / inv.sum(axis=0)
    return centers, u.argmax(axis=0)


@CASES.case(
    args=[
        ([0.2, 0.7, 1.0, 0.4], [0.5, 0.5, 0.3, 0.9]),
        (np.array([0.0, 1.0]), np.array([1.0, 0.0])),
    ]
)
def fuzzy_set_algebra(a, b):
    """Zadeh union, intersection and complement, the algebraic product and bounded sum, and
    the similarity |A and B| / |A or B|."""
    a = np.asarray(a)
    b = np.asarray(b)
    union = np.maximum(a, b)
    inter = np.minimum(a, b)
    comp = 1 - a
    product = a * b
    bounded = np.minimum(1.0, a + b)
    similarity = inter.sum() / union.sum()
    return union, inter, comp, product, bounded, similarity


@CASES.case(args=[(0.3,), (0.0,), (1.0,), (0.75,)])
def hedges_and_labels(mu):
    """Linguistic hedges (very, somewhat, not) and the label with the largest degree."""
    degrees = {"very": mu**2, "somewhat": math.sqrt(mu), "not": 1 - mu, "plain": mu}
    best = max(degrees, key=degrees.get)
    return degrees, best


@CASES.case(args=[(np.array([0.1, 0.6, 0.9]), np.array([0.3, 0.8, 0.4]))])
def max_min_composition(r_row, s_col):
    """The max-min composition of a relation row with a column, and max-product for contrast."""
    max_min = 0.0
    max_prod = 0.0
    for a, b in zip(r_row, s_col):
        max_min = max(max_min, min(a, b))
        max_prod = max(max_prod, a * b)
    return max_min, max_prod
