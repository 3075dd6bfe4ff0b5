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
