"""Interpolation as people write it: a linear table lookup with a bracket search, natural cubic
splines by the tridiagonal sweep, Lagrange and Newton divided differences, nearest-neighbour
resampling and bilinear lookups on a grid."""

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import QUERY, XS, YS

CASES = Registry("interpolation")


@CASES.case(
    args=[
        (XS, YS, QUERY),
        (XS, YS.astype(np.float32), QUERY),
        (XS, YS, np.array([])),
        (XS[:1], YS[:1], QUERY),
        (XS, YS[:3], QUERY),
    ]
)
def lerp_table(xs, ys, query):
    """Linear interpolation in a sorted table, clamped at both ends, by a moving bracket."""
    if len(xs) != len(ys):
        raise ValueError(f"table sizes differ: {len(xs)} and {len(ys)}")
    out = np.zeros(len(query), dtype=ys.dtype)
    for n, q in enumerate(query):
        if q <= xs[0]:
            out[n] = ys[0]
            continue
        if q >= xs[-1]:
            out[n] = ys[-1]
            continue
        i = 0
        while xs[i + 1] < q:
            i += 1
        t = (q - xs[i]) / (xs[i + 1] - xs[i])
        out[n] = ys[i] + t * (ys[i + 1] - ys[i])
    return out


@CASES.case(args=[(XS, YS, QUERY), (XS, YS, np.array([2.0])), (np.arange(3.0), YS[:3], QUERY)])
def lerp_searchsorted(xs, ys, query):
    """The vectorised form: bracket indices from ``np.searchsorted``, clipped to the table."""
    idx = np.searchsorted(xs, query, side="right") - 1
    idx = np.clip(idx, 0, len(xs) - 2)
    x0, x1 = xs[idx], xs[idx + 1]
    t = np.clip((query - x0) / (x1 - x0), 0.0, 1.0)
    return ys[idx] * (1 - t) + ys[idx + 1] * t


@CASES.case(
    args=[([0.0, 1.0, 2.0], [1.0, 3.0, 2.0], 1.5), (XS, YS, 3.0), (XS, YS, np.float32(2.5))]
)
def lagrange(xs, ys, x):
    """The Lagrange form, with Python lists or arrays as the nodes."""
    total = 0.0
    n = len(xs)
    for i in range(n):
        term = ys[i]
        for j in range(n):
            if j != i:
                term = term * (x - xs[j]) / (xs[i] - xs[j])
        total += term
    return total


@CASES.case(args=[(XS, YS, QUERY), (XS[:2], YS[:2], QUERY[:3]), (XS, YS.astype(np.float32), QUERY)])
def newton_divided_differences(xs, ys, query):
    """Divided-difference coefficients computed in place, the polynomial evaluated by Horner."""
    coef = np.array(ys, dtype=float)
    n = len(xs)
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            coef[i] = (coef[i] - coef[i - 1]) / (xs[i] - xs[i - j])
    values = np.full(len(query), coef[-1])
    for k in reversed(range(n - 1)):
        values = values * (query - xs[k]) + coef[k]
    return coef, values


@CASES.case(args=[(np.arange(8.0) ** 2, 3), (np.arange(5), 9), (np.array([1.5]), 4)])
def nearest_resample(signal, new_len):
    """Nearest-neighbour resampling with ``round`` of each fractional position."""
    old_len = len(signal)
    out = []
    for i in range(new_len):
        pos = i * (old_len - 1) / max(new_len - 1, 1)
        out.append(signal[round(pos)])
    return np.array(out)


GRID = np.array([[0.0, 1.0, 4.0], [2.0, 3.0, 5.0], [4.0, 4.5, 9.0]])


@CASES.case(
    args=[(GRID, 0.5, 1.25), (GRID, 2.0, 2.0), (GRID, -1.0, 0.3), (GRID.astype(np.int64), 1.5, 0.5)]
)
def bilinear(grid, x, y):
    """Bilinear lookup on a unit grid; outside points raise."""
    rows, cols = grid.shape
    if not (0 <= x <= cols - 1 and 0 <= y <= rows - 1):
        raise ValueError(f"({x}, {y}) is outside the {rows}x{cols} grid")
    x0 = min(int(x), cols - 2)
    y0 = min(int(y), rows - 2)
    fx, fy = x - x0, y - y0
    top = grid[y0, x0] * (1 - fx) + grid[y0, x0 + 1] * fx
    bottom = grid[y0 + 1, x0] * (1 - fx) + grid[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(args=[(XS, YS, QUERY[1:6]), (XS[:2], YS[:2], np.array([0.5]))])
def catmull_rom(xs, ys, query):
    """Cubic Hermite interpolation with finite-difference (Catmull-Rom style) tangents."""
    n = len(xs)
    slopes = np.zeros(n)
    for i in range(n):
        if i == 0:
            slopes[i] = (ys[1] - ys[0]) / (xs[1] - xs[0])
        elif i == n - 1:
            slopes[i] = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
        else:
            slopes[i] = (ys[i + 1] - ys[i - 1]) / (xs[i + 1] - xs[i - 1])
    out = []
    for q in query:
        k = 0
        while k < n - 2 and q > xs[k + 1]:
            k += 1
        h = xs[k + 1] - xs[k]
        t = (q - xs[k]) / h
        h00 = 2 * t**3 - 3 * t**2 + 1
        h10 = t**3 - 2 * t**2 + t
        h01 = -2 * t**3 + 3 * t**2
        h11 = t**3 - t**2
        out.append(h00 * ys[k] + h10 * h * slopes[k] + h01 * ys[k + 1] + h11 * h * slopes[k + 1])
    return np.array(out)


@CASES.case(args=[(XS, YS, 2.0), (XS, YS, 5.0), (XS, YS, -1.0), (XS, YS, 4.0)])
def interp_bisect(xs, ys, x):
    """np.interp for one point by hand: a bisection for the interval, clamped at the ends."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    lo, hi = 0, len(xs) - 1
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if xs[mid] > x:
            hi = mid
        else:
            lo = mid
    frac = (x - xs[lo]) / (xs[hi] - xs[lo])
    return ys[lo] * (1 - frac) + ys[hi] * frac


@CASES.case(args=[(XS, YS, QUERY), (XS[:3], YS[:3], XS[:3])])
def barycentric_lagrange(xs, ys, query):
    """Barycentric Lagrange interpolation; a query on a node returns that node's value."""
    n = len(xs)
    w = np.ones(n)
    for j in range(n):
        for k in range(n):
            if k != j:
                w[j] /= xs[j] - xs[k]
    result = np.empty(len(query))
    for i, q in enumerate(query):
        exact = np.nonzero(q == xs)[0]
        if len(exact):
            result[i] = ys[exact[0]]
            continue
        terms = w / (q - xs)
        result[i] = np.dot(terms, ys) / terms.sum()
    return result
