"""Fuzzy controllers as control-engineering notes write them: first-order Sugeno (TSK) rules
with linear consequents, Mamdani inference with min/max and five defuzzifiers on a sampled
universe, a fuzzy PI controller stepping a first-order plant, fuzzy c-means with a seeded
Generator and its partition coefficient, fuzzy entropy and a Larsen (product) implication."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("fuzzy")

U = np.linspace(0.0, 10.0, 41)
POINTS = np.array(
    [[1.0, 1.2], [0.8, 1.0], [1.1, 0.7], [5.0, 5.2], [5.3, 4.9], [4.8, 5.1], [9.0, 0.5], [8.7, 0.9]]
)


def _tri(x, a, b, c):
    return np.maximum(np.minimum((x - a) / (b - a), (c - x) / (c - b)), 0.0)


def _trap(x, a, b, c, d):
    return np.clip(np.minimum((x - a) / (b - a), (d - x) / (d - c)), 0.0, 1.0)


@CASES.case(
    args=[
        (3.0, 7.5),
        (0.0, 0.0),
        (np.float64(9.5), np.float64(2.0)),
        (np.array([2.0, 8.0]), np.array([5.0, 1.0])),
    ]
)
def tsk_first_order(temp, humidity):
    """Two inputs, four rules, consequents linear in the inputs; the output is the firing-
    weighted mean (0.0 when no rule fires), for scalars or arrays of operating points."""
    cold = _trap(temp, -1.0, 0.0, 2.0, 6.0)
    hot = _trap(temp, 4.0, 8.0, 10.0, 11.0)
    dry = _tri(humidity, -5.0, 0.0, 6.0)
    wet = _tri(humidity, 4.0, 10.0, 16.0)
    w = [np.minimum(cold, dry), np.minimum(cold, wet), np.minimum(hot, dry), np.minimum(hot, wet)]
    z = [
        0.5 * temp + 0.1 * humidity + 1.0,
        0.3 * temp + 0.4 * humidity,
        1.2 * temp - 0.2 * humidity + 2.0,
        temp + humidity,
    ]
    num = sum(wi * zi for wi, zi in zip(w, z))
    den = sum(w)
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


@CASES.case(
    args=[
        (U, 6.5, "centroid"),
        (U, 6.5, "bisector"),
        (U, 2.0, "mom"),
        (U, 2.0, "som"),
        (U, 9.9, "lom"),
    ]
)
def mamdani_defuzzifiers(u, error, method):
    """Clips two output sets by the firing of two rules, aggregates by max, defuzzifies by the
    method named: centroid, bisector, mean/smallest/largest of maximum."""
    small = _tri(error, 0.0, 2.0, 6.0)
    large = _tri(error, 4.0, 8.0, 12.0)
    low_out = _tri(u, 0.0, 2.5, 5.0)
    high_out = _tri(u, 5.0, 7.5, 10.0)
    agg = np.maximum(np.minimum(small, low_out), np.minimum(large, high_out))
    if agg.sum() == 0:
        return float("nan")
    if method == "centroid":
        return np.sum(u * agg) / np.sum(agg)
    if method == "bisector":
        cum = np.cumsum(agg)
        return u[np.searchsorted(cum, cum[-1] / 2)]
    peak = agg.max()
    at = u[agg == peak]
    if method == "mom":
        return at.mean()
    if method == "som":
        return at.min()
    if method == "lom":
        return at.max()
    raise ValueError(f"unknown defuzzification method {method!r}")


@CASES.case(args=[(1.0, 20, 0.1), (0.5, 10, 0.2), (0.0, 5, 0.1)])
def fuzzy_pi_first_order_plant(setpoint, steps, dt):
    """A fuzzy PI controller (error and change of error through three sets each, nine rules
    with singleton outputs) driving y' = (-y + u) / tau; the output trace as a list."""
    y = 0.0
    prev_e = setpoint - y
    u = 0.0
    trace = []
    singletons = np.array([[-1.0, -0.5, 0.0], [-0.5, 0.0, 0.5], [0.0, 0.5, 1.0]])
    for _ in range(steps):
        e = setpoint - y
        de = (e - prev_e) / dt
        mu_e = np.array([_tri(e, -2.0, -1.0, 0.0), _tri(e, -1.0, 0.0, 1.0), _tri(e, 0.0, 1.0, 2.0)])
        mu_de = np.array([_tri(de, -20, -10, 0), _tri(de, -10, 0, 10), _tri(de, 0, 10, 20)])
        firing = np.minimum(mu_e[:, None], mu_de[None, :])
        du = np.sum(firing * singletons) / max(np.sum(firing), 1e-9)
        u = u + du * dt * 5
        y = y + dt * (-y + u) / 0.5
        prev_e = e
        trace.append(y)
    return trace


@CASES.case(args=[(POINTS, 3, 2.0, 7), (POINTS[:4], 2, 1.5, 0)])
def fuzzy_cmeans_partition(X, c, m, seed):
    """Fuzzy c-means from a random membership matrix (rows normalised) for a fixed number of
    iterations; the centres sorted by their first coordinate and the partition coefficient."""
    rng = np.random.default_rng(seed)
    U_ = rng.random((len(X), c))
    U_ /= U_.sum(axis=1, keepdims=True)
    for _ in range(25):
        W = U_**m
        centres = W.T @ X / W.sum(axis=0)[:, None]
        d = np.linalg.norm(X[:, None, :] - centres[None, :, :], axis=2)
        d = np.fmax(d, 1e-12)
        inv = d ** (-2 / (m - 1))
        U_ = inv / inv.sum(axis=1, keepdims=True)
    order = np.argsort(centres[:, 0])
    pc = np.sum(U_**2) / len(X)
    return centres[order], pc


@CASES.case(
    args=[(np.array([0.0, 0.2, 0.5, 0.9, 1.0]),), (np.full(3, 0.5),), (np.array([0.0, 1.0]),)]
)
def fuzzy_entropy_de_luca(mu):
    """De Luca-Termini entropy with 0 log 0 taken as 0 (np.where guards both logs)."""
    safe = np.clip(mu, 1e-300, 1.0)
    safe_c = np.clip(1 - mu, 1e-300, 1.0)
    h = -(
        np.where(mu > 0, mu * np.log(safe), 0.0) + np.where(mu < 1, (1 - mu) * np.log(safe_c), 0.0)
    )
    return h.sum() / (len(mu) * np.log(2))


@CASES.case(args=[(U, 3.0, 6.0), (U, 0.0, 10.0), (U.astype(np.float32), 5.0, 5.0)])
def larsen_product_centroid(u, service, food):
    """Larsen implication: output sets scaled (not clipped) by the firing strengths, summed,
    and a centroid by the trapezoid rule (np.trapz-free: by hand)."""
    poor = _tri(service, -5, 0, 5)
    good = _tri(food, 5, 10, 15)
    cheap = _tri(u, 0, 5, 10)
    generous = _tri(u, 10, 15, 20) + _tri(u, 5, 10, 15)
    agg = poor * cheap + good * generous
    du = np.diff(u)
    area = np.sum((agg[1:] + agg[:-1]) * du) / 2
    moment = np.sum((u[1:] * agg[1:] + u[:-1] * agg[:-1]) * du) / 2
    return moment / area if area > 0 else None


@CASES.case(
    args=[
        (np.array([0.1, 0.6, 0.9, 0.3]), np.array([0.5, 0.4, 0.95, 0.0])),
        (np.zeros(2), np.ones(2)),
    ]
)
def t_norms_and_conorms(a, b):
    """Minimum, product, Lukasiewicz and drastic t-norms and their dual t-conorms."""
    drastic = np.where(a == 1, b, np.where(b == 1, a, 0.0))
    drastic_s = np.where(a == 0, b, np.where(b == 0, a, 1.0))
    return {
        "min": np.minimum(a, b),
        "product": a * b,
        "lukasiewicz": np.maximum(a + b - 1, 0),
        "drastic": drastic,
        "max": np.maximum(a, b),
        "prob_sum": a + b - a * b,
        "bounded_sum": np.minimum(a + b, 1),
        "drastic_sum": drastic_s,
    }


@CASES.case(args=[([0.2, 0.7, 0.1], [[0.9, 0.1], [0.4, 0.8], [0.5, 0.5]]), ([1.0], [[0.3, 0.6]])])
def sup_product_composition_lists(r, s):
    """The sup-product composition of a fuzzy set (list) with a relation (list of lists),
    in pure Python with max over a generator."""
    cols = len(s[0])
    return [max(r[i] * s[i][j] for i in range(len(r))) for j in range(cols)]
