"""Fuzzy logic as people write it: triangular and trapezoidal memberships, Mamdani inference,
centroid, bisector and mean-of-maximum defuzzification, alpha cuts, fuzzy c-means."""

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import UNIVERSE

CASES = Registry("fuzzy")


@CASES.case(
    args=[(UNIVERSE, 1.0, 3.0, 6.0, 9.0), (np.array([0.0, 4.0, 12.0]), 0.0, 0.0, 5.0, 10.0)]
)
def trapezoid(x, a, b, c, d):
    left = np.where(b > a, (x - a) / max(b - a, 1e-12), 1.0)
    right = np.where(d > c, (d - x) / max(d - c, 1e-12), 1.0)
    return np.clip(np.minimum(np.minimum(left, right), 1.0), 0.0, None)


def _tri(x, a, b, c):
    return np.maximum(np.minimum((x - a) / (b - a), (c - x) / (c - b)), 0.0)


@CASES.case(args=[(3.0, 8.0), (9.5, 1.0), (np.float64(5.0), np.float64(5.0))])
def mamdani_tip(service, food):
    """Two inputs, three rules, the tip by centroid over 0..25 percent."""
    tips = np.linspace(0.0, 25.0, 51)
    poor = max(0.0, min(1.0, (5.0 - service) / 5.0))
    good = max(0.0, 1.0 - abs(service - 5.0) / 5.0)
    excellent = max(0.0, min(1.0, (service - 5.0) / 5.0))
    tasty = max(0.0, min(1.0, food / 10.0))
    rule_low = poor
    rule_mid = good
    rule_high = max(excellent, tasty)
    low = np.minimum(rule_low, _tri(tips, -0.1, 0.0, 13.0))
    mid = np.minimum(rule_mid, _tri(tips, 0.0, 13.0, 25.0))
    high = np.minimum(rule_high, _tri(tips, 13.0, 25.0, 25.1))
    aggregated = np.maximum(np.maximum(low, mid), high)
    area = aggregated.sum()
    if area == 0:
        return 0.0
    return float((tips * aggregated).sum() / area)


@CASES.case(args=[(UNIVERSE, np.exp(-((UNIVERSE - 4.0) ** 2))), (np.arange(4.0), np.ones(4))])
def bisector(x, mu):
    total = np.sum(mu)
    running = 0.0
    for i in range(len(mu)):
        running += mu[i]
        if running >= total / 2:
            return x[i]
    return x[-1]


@CASES.case(
    args=[
        (UNIVERSE, _tri(UNIVERSE, 2.0, 5.0, 8.0)),
        (np.arange(5.0), np.array([0.2, 0.9, 0.9, 0.1, 0.9])),
    ]
)
def mean_of_maximum(x, mu):
    peak = mu.max()
    at_peak = []
    for i in range(len(mu)):
        if mu[i] == peak:
            at_peak.append(x[i])
    return sum(at_peak) / len(at_peak)


@CASES.case(
    args=[
        (np.array([0.1, 0.6, 0.95, 0.4, 0.7]), 0.5),
        (np.array([0.1, 0.2]), 0.9),
        (np.array([0.5, 0.2]), 1.5),
    ]
)
def alpha_cut(mu, alpha):
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha {alpha} outside [0, 1]")
    members = []
    strongest = -1
    for i, m in enumerate(mu):
        if m >= alpha:
            members.append(i)
            if strongest < 0 or m > mu[strongest]:
                strongest = i
    return members, strongest


@CASES.case(
    args=[
        (np.array([0.2, 0.7, 0.5]), np.array([0.6, 0.3, 0.5])),
        (np.array([1.0]), np.array([0.0])),
    ]
)
def fuzzy_set_ops(a, b):
    union = np.maximum(a, b)
    inter = np.minimum(a, b)
    prob_or = a + b - a * b
    complement_a = 1.0 - a
    similarity = inter.sum() / union.sum() if union.sum() > 0 else 1.0
    return union, inter, prob_or, complement_a, similarity


POINTS = np.array([[0.0, 0.0], [0.5, 0.2], [0.1, 0.4], [5.0, 5.0], [5.5, 4.8], [4.9, 5.3]])


@CASES.case(
    args=[
        (POINTS, np.array([[0.0, 1.0], [4.0, 4.0]]), 2.0, 3),
        (POINTS, np.array([[1.0, 1.0], [2.0, 2.0]]), 1.5, 2),
    ]
)
def fuzzy_cmeans(points, centers, m, iters):
    """Fuzzy c-means from fixed initial centers; the centers are updated in place."""
    n = len(points)
    c = len(centers)
    u = np.zeros((n, c))
    for _ in range(iters):
        for i in range(n):
            dists = np.sqrt(np.sum((centers - points[i]) ** 2, axis=1))
            for j in range(c):
                if dists[j] == 0:
                    u[i] = 0.0
                    u[i, j] = 1.0
                    break
                u[i, j] = 1.0 / np.sum((dists[j] / dists) ** (2.0 / (m - 1.0)))
        weights = u**m
        for j in range(c):
            centers[j] = weights[:, j] @ points / weights[:, j].sum()
    return u


@CASES.case(
    args=[
        (np.array([0.1, 0.7, 0.4]), np.array([0.3, 0.2, 0.9])),
        (np.array([0.5]), np.array([0.5])),
    ]
)
def fuzzy_relation_composition(a, b):
    """Max-min composition of the relation a x b with itself."""
    n = len(a)
    rel = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            rel[i, j] = min(a[i], b[j])
    comp = np.zeros_like(rel)
    for i in range(n):
        for j in range(n):
            best = 0.0
            for k in range(n):
                best = max(best, min(rel[i, k], rel[k, j]))
            comp[i, j] = best
    return comp


@CASES.case(args=[(np.array([20.0, 25.0, 31.0]),), (np.array([-5.0]),), (np.array([]),)])
def temperature_labels(readings):
    """The fuzzy label with the highest membership for each reading, and the memberships."""
    labels = []
    grades = []
    for t in readings:
        cold = max(0.0, min(1.0, (18.0 - t) / 8.0))
        warm = max(0.0, 1.0 - abs(t - 22.0) / 6.0)
        hot = max(0.0, min(1.0, (t - 26.0) / 6.0))
        scores = {"cold": cold, "warm": warm, "hot": hot}
        label = max(scores, key=scores.get)
        labels.append(label)
        grades.append(scores[label])
    return labels, grades


def gaussian_mf(x, mean, sigma):
    return np.exp(-0.5 * ((x - mean) / sigma) ** 2)


RULES = [
    ("cold", "high"),
    ("warm", "medium"),
    ("hot", "low"),
]
TEMPERATURE_SETS = {"cold": (0.0, 8.0), "warm": (20.0, 6.0), "hot": (35.0, 7.0)}
HEATER_LEVELS = {"low": 10.0, "medium": 50.0, "high": 90.0}


@CASES.case(args=[(18.0,), (np.float64(-5.0),), (np.float32(30.0),), (100.0,)])
def sugeno_heater(temperature):
    """Zero-order Sugeno inference: rule strengths from Gaussian sets in a dict, output a
    weighted average of crisp levels; no firing rule raises."""
    num = 0.0
    den = 0.0
    for antecedent, consequent in RULES:
        mean, sigma = TEMPERATURE_SETS[antecedent]
        w = gaussian_mf(temperature, mean, sigma)
        num += w * HEATER_LEVELS[consequent]
        den += w
    if den < 1e-9:
        raise ValueError(f"no rule fires at {temperature}")
    return num / den


@CASES.case(
    args=[(UNIVERSE, 0.7, 0.2), (UNIVERSE, 0.0, 0.0), (UNIVERSE.astype(np.float32), 1.0, 0.5)]
)
def mamdani_two_rules_centroid(universe, strength_low, strength_high):
    """Clipped output sets aggregated by max, then the centroid by a loop over the universe;
    an empty aggregate gives the universe's midpoint."""
    low = np.maximum(0, 1 - universe / 5.0)
    high = np.clip((universe - 5.0) / 5.0, 0, 1)
    aggregate = np.fmax(np.fmin(low, strength_low), np.fmin(high, strength_high))
    area = 0.0
    moment = 0.0
    for x, mu in zip(universe, aggregate):
        area += mu
        moment += x * mu
    if area == 0:
        return (universe[0] + universe[-1]) / 2
    return moment / area


@CASES.case(
    args=[(np.array([0.2, 0.9, 0.5]), np.array([0.6, 0.3, 0.8])), (np.zeros(2), np.ones(2))]
)
def fuzzy_similarity(a, b):
    """Jaccard similarity and the Hamming distance between two fuzzy sets; two empty sets are
    identical."""
    union = np.maximum(a, b).sum()
    inter = np.minimum(a, b).sum()
    jaccard = 1.0 if union == 0 else inter / union
    hamming = float(np.abs(a - b).sum())
    return jaccard, hamming, "identical" if hamming == 0 else "different"


# ---- round 3 ------------------------------------------------------------------------------------


def gaussmf(x, mean, sigma):
    return np.exp(-((x - mean) ** 2.0) / (2 * sigma**2.0))


def gbellmf(x, a, b, c):
    return 1.0 / (1.0 + np.abs((x - c) / a) ** (2 * b))


@CASES.case(args=[(UNIVERSE, 22.0, 65.0), (UNIVERSE, 30.0, 20.0), (UNIVERSE, 15.0, 90.0)])
def fan_speed_mamdani(speeds, temperature, humidity):
    """A skfuzzy-style Mamdani controller: memberships by np.fmin/np.fmax, centroid output."""
    speed = speeds * 10.0
    slow = gaussmf(speed, 0.0, 20.0)
    medium = gaussmf(speed, 50.0, 15.0)
    fast = gaussmf(speed, 100.0, 20.0)
    cold = float(gbellmf(np.array(temperature), 6.0, 2.0, 10.0))
    warm = float(gbellmf(np.array(temperature), 5.0, 2.0, 22.0))
    hot = float(gbellmf(np.array(temperature), 6.0, 2.0, 34.0))
    humid = min(1.0, max(0.0, (humidity - 40.0) / 40.0))
    r1 = np.fmin(cold, slow)
    r2 = np.fmin(warm, medium)
    r3 = np.fmin(max(hot, humid), fast)
    agg = np.fmax(r1, np.fmax(r2, r3))
    return np.sum(agg * speed) / np.sum(agg)


@CASES.case(args=[(UNIVERSE, _tri(UNIVERSE, 1.0, 4.0, 6.0)), (np.arange(5.0), np.zeros(5))])
def centroid_trapezoids(x, mu):
    """Centroid defuzzification integrating each trapezoid between samples exactly."""
    num = 0.0
    area = 0.0
    for i in range(len(x) - 1):
        dx = x[i + 1] - x[i]
        a, b = mu[i], mu[i + 1]
        seg_area = 0.5 * (a + b) * dx
        if seg_area == 0:
            continue
        if a == b:
            cx = x[i] + dx / 2
        else:
            cx = x[i] + dx * (a + 2 * b) / (3 * (a + b))
        num += cx * seg_area
        area += seg_area
    if area == 0:
        raise ValueError("the membership function has zero area")
    return num / area


@CASES.case(
    args=[
        (UNIVERSE, _tri(UNIVERSE, 2.0, 5.0, 8.0)),
        (np.arange(5.0), np.array([0.2, 0.9, 0.9, 0.1, 0.9])),
    ]
)
def smallest_and_largest_of_maximum(x, mu):
    """SOM and LOM defuzzification in one scan."""
    peak = -1.0
    som = lom = None
    for xi, m in zip(x, mu):
        if m > peak:
            peak = m
            som = lom = xi
        elif m == peak:
            lom = xi
    return som, lom


HEDGES = {
    "very": lambda mu: mu**2,
    "extremely": lambda mu: mu**3,
    "somewhat": np.sqrt,
    "not": lambda mu: 1 - mu,
}


@CASES.case(
    args=[
        (_tri(UNIVERSE, 2.0, 5.0, 8.0), ["very"]),
        (_tri(UNIVERSE, 2.0, 5.0, 8.0), ["not", "somewhat"]),
        (np.array([0.3, 1.0]), []),
        (np.array([0.3]), ["slightly"]),
    ]
)
def apply_hedges(mu, words):
    """Linguistic hedges applied right to left, as in 'not somewhat hot'."""
    for word in reversed(words):
        if word not in HEDGES:
            raise KeyError(f"unknown hedge {word!r}")
        mu = HEDGES[word](mu)
    return mu


@CASES.case(args=[(4.0,), (0.0,), (9.0,), (12.0,)])
def tsukamoto_level(error):
    """Tsukamoto inference: monotone consequents inverted at each rule's firing strength."""
    small = max(0.0, min(1.0, (5.0 - error) / 5.0))
    large = max(0.0, min(1.0, error / 10.0))
    z_low = 50.0 - 40.0 * small
    z_high = 10.0 + 80.0 * large
    weights = [small, large]
    outputs = [z_low, z_high]
    total = sum(weights)
    if total == 0:
        return None
    return sum(w * z for w, z in zip(weights, outputs)) / total


@CASES.case(
    args=[
        (
            np.array([[0.2, 0.8], [0.6, 0.4], [1.0, 0.0]]),
            np.array([[0.5, 0.1, 0.9], [0.3, 0.7, 0.2]]),
        ),
        (np.eye(2), np.array([[0.4, 0.6], [0.9, 0.1]])),
    ]
)
def max_product_composition(r, s):
    """The max-product composition of two fuzzy relations by triple loops."""
    n, m = r.shape
    m2, p = s.shape
    if m != m2:
        raise ValueError(f"inner sizes differ: {m} and {m2}")
    out = np.zeros((n, p))
    for i in range(n):
        for k in range(p):
            best = 0.0
            for j in range(m):
                best = max(best, r[i, j] * s[j, k])
            out[i, k] = best
    return out
