"""Fuzzy inference written with Python tables: membership functions held in dicts of
``(a, b, c)`` tuples, rule bases as lists of ``(antecedent, consequent)`` name pairs, Mamdani
clipping and aggregation on a universe array, defuzzification by centroid, bisector and mean of
maxima, Sugeno weighted averages, and fuzzy sets as dicts from element to grade."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("fuzzy")

UNIVERSE = np.linspace(0.0, 10.0, 41)

TEMP_SETS = {"cold": (0.0, 0.0, 5.0), "warm": (2.5, 5.0, 7.5), "hot": (5.0, 10.0, 10.0)}
FAN_SETS = {"slow": (0.0, 0.0, 5.0), "medium": (2.5, 5.0, 7.5), "fast": (5.0, 10.0, 10.0)}
RULES = [("cold", "slow"), ("warm", "medium"), ("hot", "fast")]


def tri(x, a, b, c):
    """A triangle (or shoulder when a == b or b == c) that works on scalars and arrays."""
    left = np.where(b > a, (x - a) / (b - a if b > a else 1.0), 1.0)
    right = np.where(c > b, (c - x) / (c - b if c > b else 1.0), 1.0)
    return np.clip(np.minimum(left, right), 0.0, 1.0)


@CASES.case(args=[(3.0,), (7.2,), (0.0,), (np.float32(5.0),)])
def mamdani_from_rule_table(temp):
    """Fires each rule of the table, clips its output set, aggregates by max, and returns the
    centroid with the firing strengths by name."""
    aggregated = np.zeros_like(UNIVERSE)
    strengths = {}
    for antecedent, consequent in RULES:
        w = float(tri(temp, *TEMP_SETS[antecedent]))
        strengths[antecedent] = w
        clipped = np.minimum(w, tri(UNIVERSE, *FAN_SETS[consequent]))
        aggregated = np.maximum(aggregated, clipped)
    total = aggregated.sum()
    centroid = (UNIVERSE * aggregated).sum() / total if total > 0 else 5.0
    return centroid, strengths


@CASES.case(args=[(np.array([0.0, 0.2, 0.7, 1.0, 0.7, 0.2, 0.0]),), (np.array([0.0, 1.0, 1.0]),)])
def three_defuzzifiers(mu):
    """Centroid, bisector (first point where the cumulative area passes half) and mean of
    maxima of a sampled membership function on 0..n-1."""
    xs = np.arange(len(mu), dtype=float)
    centroid = (xs * mu).sum() / mu.sum()
    area = np.cumsum(mu)
    half = area[-1] / 2
    bisector = xs[np.searchsorted(area, half)]
    peak = mu.max()
    mom = xs[mu == peak].mean()
    return centroid, bisector, mom


@CASES.case(args=[(0.3, 0.8), (0.9, 0.1), (0.0, 0.0)])
def sugeno_zero_order_table(error, rate):
    """A zero-order Sugeno controller: a 3x3 rule matrix of crisp outputs, AND by product."""
    levels = {"neg": (-1.0, -1.0, 0.0), "zero": (-1.0, 0.0, 1.0), "pos": (0.0, 1.0, 1.0)}
    outputs = np.array([[-1.0, -0.7, -0.2], [-0.5, 0.0, 0.5], [0.2, 0.7, 1.0]])
    names = ["neg", "zero", "pos"]
    num = den = 0.0
    for i, e_name in enumerate(names):
        mu_e = float(tri(error, *levels[e_name]))
        if mu_e == 0.0:
            continue
        for j, r_name in enumerate(names):
            w = mu_e * float(tri(rate, *levels[r_name]))
            num += w * outputs[i, j]
            den += w
    return num / den if den > 0 else 0.0


@CASES.case(
    args=[
        ({"a": 0.2, "b": 0.9, "c": 0.5}, {"b": 0.4, "c": 0.8, "d": 1.0}),
        ({"x": 1.0}, {"y": 1.0}),
    ]
)
def fuzzy_sets_as_dicts(A, B):
    """Union, intersection, complement and the Jaccard similarity of fuzzy sets held as dicts
    from element to grade (missing elements have grade 0)."""
    keys = sorted(set(A) | set(B))
    union = {k: max(A.get(k, 0.0), B.get(k, 0.0)) for k in keys}
    inter = {k: min(A.get(k, 0.0), B.get(k, 0.0)) for k in keys}
    complement_a = {k: 1.0 - A.get(k, 0.0) for k in keys}
    jaccard = sum(inter.values()) / sum(union.values())
    return union, inter, complement_a, jaccard


@CASES.case(args=[(np.array([22.0, 31.0, 15.0, 27.5]),), (np.array([], dtype=float),)])
def comfort_labels_by_table(temps):
    """Grades each reading against a dict of trapezoids and counts the best labels."""
    table = {
        "cool": (10.0, 12.0, 18.0, 22.0),
        "comfy": (18.0, 21.0, 25.0, 28.0),
        "hot": (25.0, 30.0, 40.0, 45.0),
    }
    grades = np.zeros((len(temps), len(table)))
    for j, (a, b, c, d) in enumerate(table.values()):
        rise = np.clip((temps - a) / (b - a), 0, 1)
        fall = np.clip((d - temps) / (d - c), 0, 1)
        grades[:, j] = np.minimum(rise, fall)
    best = np.argmax(grades, axis=1)
    counts = np.bincount(best, minlength=len(table))
    return grades, counts


@CASES.case(
    args=[(np.array([0.1, 0.6, 1.0, 0.4]), np.array([0.3, 0.9, 0.2])), (np.ones(2), np.ones(2))]
)
def max_min_relation_by_loops(r_row, s_col):
    """Max-min composition of a relation built as an outer min, by three nested loops."""
    R = np.minimum.outer(r_row, s_col)
    n, m = R.shape
    T = np.zeros((n, n))
    for i in range(n):
        for k in range(n):
            best = 0.0
            for j in range(m):
                v = min(R[i, j], R[k, j])
                if v > best:
                    best = v
            T[i, k] = best
    return T


@CASES.case(args=[(np.array([0.0, 0.25, 0.5, 1.0, 0.5]), 0.5), (np.array([0.2, 0.3]), 0.9)])
def alpha_cut_and_support(mu, alpha):
    """The alpha-cut indices, the support and the core of a discrete fuzzy set; an empty cut
    gives (-1, -1)."""
    cut = np.flatnonzero(mu >= alpha)
    support = np.flatnonzero(mu > 0)
    core = np.flatnonzero(mu == 1.0)
    bounds = (int(cut[0]), int(cut[-1])) if len(cut) else (-1, -1)
    return bounds, len(support), core


@CASES.case(args=[(6.5, 2.0), (1.0, 9.0), (5.0, 5.0)])
def tipping_two_inputs_dict_rules(service, food):
    """The tipping problem with two inputs, rules as dicts, OR by max and centroid output on a
    tip universe 0..25."""
    tip_u = np.linspace(0, 25, 26)
    poor = float(tri(service, 0.0, 0.0, 5.0))
    good = float(tri(service, 0.0, 5.0, 10.0))
    excellent = float(tri(service, 5.0, 10.0, 10.0))
    rancid = float(tri(food, 0.0, 0.0, 5.0))
    delicious = float(tri(food, 5.0, 10.0, 10.0))
    rules = [
        {"w": max(poor, rancid), "out": (0.0, 0.0, 13.0)},
        {"w": good, "out": (0.0, 13.0, 25.0)},
        {"w": max(excellent, delicious), "out": (13.0, 25.0, 25.0)},
    ]
    agg = np.zeros_like(tip_u)
    for rule in rules:
        agg = np.fmax(agg, np.fmin(rule["w"], tri(tip_u, *rule["out"])))
    return (tip_u * agg).sum() / agg.sum()


@CASES.case(args=[(np.array([0.1, 0.5, 0.9, 0.5]),), (np.array([0.0, 1.0]),), (np.array([0.5]),)])
def fuzziness_indices(mu):
    """Linear and quadratic indices of fuzziness and the De Luca-Termini entropy with 0 log 0
    taken as 0."""
    n = len(mu)
    linear = 2.0 / n * np.abs(mu - (mu > 0.5)).sum()
    quadratic = 2.0 / np.sqrt(n) * np.sqrt(((mu - (mu > 0.5)) ** 2).sum())
    p = mu[(mu > 0) & (mu < 1)]
    entropy = -(p * np.log(p) + (1 - p) * np.log(1 - p)).sum() / (n * np.log(2))
    return linear, quadratic, entropy
