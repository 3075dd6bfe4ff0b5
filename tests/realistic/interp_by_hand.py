"""Interpolation written out by hand: a clamped cubic spline solved with the Thomas algorithm,
monotone PCHIP slopes (Fritsch-Carlson), Akima-style weights, inverse-distance weighting in 2-d,
linear extrapolation beyond the table, Neville's tableau and a 2-d bilinear lookup with
``int(np.floor(...))`` cell indices clipped to the grid."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("interpolation")

XK = np.array([0.0, 1.0, 2.0, 3.5, 5.0])
YK = np.array([1.0, 2.5, 2.0, 4.0, 3.0])
Q = np.array([-0.5, 0.25, 1.5, 3.0, 4.9, 5.5])


@CASES.case(args=[(XK, YK, Q, 0.0, 0.0), (XK, YK, Q, 1.0, -1.0), (XK[:3], YK[:3], Q[:3], 0.5, 0.5)])
def clamped_spline_thomas(x, y, q, d0, dn):
    """A clamped cubic spline: second derivatives from a tridiagonal system swept by Thomas,
    then each query evaluated in its bracket (clamped to the end intervals)."""
    n = len(x)
    h = np.diff(x)
    a = np.zeros(n)
    b = np.zeros(n)
    c = np.zeros(n)
    r = np.zeros(n)
    b[0], c[0] = 2 * h[0], h[0]
    r[0] = 6 * ((y[1] - y[0]) / h[0] - d0)
    for i in range(1, n - 1):
        a[i], b[i], c[i] = h[i - 1], 2 * (h[i - 1] + h[i]), h[i]
        r[i] = 6 * ((y[i + 1] - y[i]) / h[i] - (y[i] - y[i - 1]) / h[i - 1])
    a[-1], b[-1] = h[-1], 2 * h[-1]
    r[-1] = 6 * (dn - (y[-1] - y[-2]) / h[-1])
    for i in range(1, n):
        m = a[i] / b[i - 1]
        b[i] -= m * c[i - 1]
        r[i] -= m * r[i - 1]
    M = np.zeros(n)
    M[-1] = r[-1] / b[-1]
    for i in range(n - 2, -1, -1):
        M[i] = (r[i] - c[i] * M[i + 1]) / b[i]
    idx = np.clip(np.searchsorted(x, q) - 1, 0, n - 2)
    hi = h[idx]
    t0, t1 = x[idx + 1] - q, q - x[idx]
    return (
        M[idx] * t0**3 / (6 * hi)
        + M[idx + 1] * t1**3 / (6 * hi)
        + (y[idx] / hi - M[idx] * hi / 6) * t0
        + (y[idx + 1] / hi - M[idx + 1] * hi / 6) * t1
    )


@CASES.case(args=[(XK, YK), (XK, np.array([0.0, 1.0, 1.0, 2.0, 5.0])), (XK[:2], YK[:2])])
def pchip_slopes(x, y):
    """Fritsch-Carlson slopes: the weighted harmonic mean of neighbouring secants where they
    agree in sign, zero at extrema, one-sided three-point formulas at the ends."""
    h = np.diff(x)
    delta = np.diff(y) / h
    n = len(x)
    d = np.zeros(n)
    if n == 2:
        d[:] = delta[0]
        return d
    for k in range(1, n - 1):
        if delta[k - 1] * delta[k] > 0:
            w1 = 2 * h[k] + h[k - 1]
            w2 = h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / delta[k - 1] + w2 / delta[k])
    d[0] = ((2 * h[0] + h[1]) * delta[0] - h[0] * delta[1]) / (h[0] + h[1])
    if np.sign(d[0]) != np.sign(delta[0]):
        d[0] = 0.0
    d[-1] = ((2 * h[-1] + h[-2]) * delta[-1] - h[-1] * delta[-2]) / (h[-1] + h[-2])
    if np.sign(d[-1]) != np.sign(delta[-1]):
        d[-1] = 0.0
    return d


@CASES.case(
    args=[
        (
            np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
            np.array([1.0, 2.0, 3.0, 4.0]),
            np.array([[0.5, 0.5], [1.0, 0.0], [2.0, 2.0]]),
            2,
        ),
        (np.array([[0.0, 0.0], [3.0, 4.0]]), np.array([0.0, 10.0]), np.array([[0.0, 0.0]]), 1),
    ]
)
def inverse_distance_weighting(points, values, queries, power):
    """Shepard's method: weights 1/d**p, and the sample value itself where a query hits one."""
    out = np.empty(len(queries))
    for i, q in enumerate(queries):
        d = np.sqrt(((points - q) ** 2).sum(axis=1))
        hit = np.flatnonzero(d == 0)
        if len(hit):
            out[i] = values[hit[0]]
            continue
        w = 1.0 / d**power
        out[i] = np.dot(w, values) / w.sum()
    return out


@CASES.case(args=[(XK, YK, Q), (XK, YK.astype(np.float32), Q), (XK[:2], YK[:2], Q)])
def linear_with_extrapolation(x, y, q):
    """np.interp inside the table, the end segments' lines outside it."""
    inside = np.interp(q, x, y)
    left = y[0] + (q - x[0]) * (y[1] - y[0]) / (x[1] - x[0])
    right = y[-1] + (q - x[-1]) * (y[-1] - y[-2]) / (x[-1] - x[-2])
    return np.where(q < x[0], left, np.where(q > x[-1], right, inside))


@CASES.case(args=[(XK, YK, 2.7), (XK[:3], YK[:3], 0.5), (XK[:1], YK[:1], 9.0)])
def neville_tableau(x, y, t):
    """Neville's algorithm on a copy of y, with the error estimate from the last correction."""
    p = [float(v) for v in y]
    n = len(p)
    err = 0.0
    for k in range(1, n):
        for i in range(n - k):
            new = ((t - x[i + k]) * p[i] + (x[i] - t) * p[i + 1]) / (x[i] - x[i + k])
            if i == 0:
                err = abs(new - p[0])
            p[i] = new
    return p[0], err


GRID = np.arange(20.0).reshape(4, 5) ** 0.5


@CASES.case(args=[(GRID, 1.5, 2.25), (GRID, -1.0, 10.0), (GRID, np.float64(3.0), np.float64(4.0))])
def bilinear_floor_clip(grid, r, c):
    """Bilinear interpolation at a real (row, col), indices from int(np.floor(...)) clipped so
    that the cell stays inside the grid, weights clipped to [0, 1]."""
    rows, cols = grid.shape
    i = min(max(int(np.floor(r)), 0), rows - 2)
    j = min(max(int(np.floor(c)), 0), cols - 2)
    fr = min(max(r - i, 0.0), 1.0)
    fc = min(max(c - j, 0.0), 1.0)
    top = grid[i, j] * (1 - fc) + grid[i, j + 1] * fc
    bottom = grid[i + 1, j] * (1 - fc) + grid[i + 1, j + 1] * fc
    return top * (1 - fr) + bottom * fr
