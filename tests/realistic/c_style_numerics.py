"""Numerical recipes written the way C and Fortran programmers write Python: index loops with
``while i < n``, nested loops with ``break`` and ``continue``, swaps ``a[i], a[j] = a[j], a[i]``
and row swaps by fancy indexing, flags like ``swapped = True``, explicit iteration caps, and
results written into preallocated arrays."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("linalg")

A3 = np.array([[2.0, 1.0, -1.0], [-3.0, -1.0, 2.0], [-2.0, 1.0, 2.0]])
B3 = np.array([8.0, -11.0, -3.0])


@CASES.case(
    args=[(A3.copy(), B3.copy()), (np.array([[0.0, 1.0], [1.0, 1.0]]), np.array([2.0, 3.0]))]
)
def gauss_partial_pivot_while(A, b):
    """Gaussian elimination with partial pivoting in place (row swaps by fancy indexing), then
    back substitution with a while loop counting down."""
    n = len(b)
    k = 0
    while k < n - 1:
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[k], b[p] = b[p], b[k]
        i = k + 1
        while i < n:
            f = A[i, k] / A[k, k]
            A[i, k:] -= f * A[k, k:]
            b[i] -= f * b[k]
            i += 1
        k += 1
    x = np.zeros(n)
    i = n - 1
    while i >= 0:
        x[i] = (b[i] - A[i, i + 1 :] @ x[i + 1 :]) / A[i, i]
        i -= 1
    return x


@CASES.case(
    args=[
        (
            np.array([0.0, 1.0, 1.0, 1.0]),
            np.array([4.0, 4.0, 4.0, 4.0]),
            np.array([1.0, 1.0, 1.0, 0.0]),
            np.array([5.0, 6.0, 6.0, 5.0]),
        ),
        (np.array([0.0]), np.array([2.0]), np.array([0.0]), np.array([3.0])),
    ]
)
def thomas_c_style(a, b, c, d):
    """The Thomas algorithm with its own scratch arrays c' and d' and index loops."""
    n = len(d)
    cp = np.zeros(n)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        m = b[i] - a[i] * cp[i - 1]
        cp[i] = c[i] / m
        dp[i] = (d[i] - a[i] * dp[i - 1]) / m
    x = np.zeros(n)
    x[n - 1] = dp[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


@CASES.case(
    args=[
        (
            np.array([[4.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 4.0]]),
            np.array([2.0, 4.0, 10.0]),
            1e-10,
            100,
        )
    ]
)
def gauss_seidel_with_break(A, b, tol, max_iter):
    """Gauss-Seidel sweeps with an inner j loop that skips the diagonal by continue, stopping
    by break once the update is small; returns the iterations used."""
    n = len(b)
    x = np.zeros(n)
    it = 0
    for it in range(1, max_iter + 1):
        delta = 0.0
        for i in range(n):
            s = 0.0
            for j in range(n):
                if j == i:
                    continue
                s += A[i, j] * x[j]
            new = (b[i] - s) / A[i, i]
            delta = max(delta, abs(new - x[i]))
            x[i] = new
        if delta < tol:
            break
    return x, it


@CASES.case(args=[(0.0, 1.0, 5), (0.0, math.pi, 4), (1.0, 2.0, 1)])
def romberg_table(a, b, levels):
    """Romberg integration of exp(-x^2) (or sin on [0, pi]) into a square table."""
    R = np.zeros((levels, levels))
    h = b - a
    R[0, 0] = 0.5 * h * (math.exp(-a * a) + math.exp(-b * b))
    for i in range(1, levels):
        h /= 2
        s = 0.0
        k = 1
        while k < 2**i:
            x = a + k * h
            s += math.exp(-x * x)
            k += 2
        R[i, 0] = 0.5 * R[i - 1, 0] + h * s
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4**j - 1)
    return R[levels - 1, levels - 1], R


@CASES.case(
    args=[(np.array([5.0, 1.0, 4.0, 2.0, 8.0, 0.0, 2.0]),), (np.array([1, 2, 3]),), (np.zeros(0),)]
)
def cocktail_sort_swapped_flag(a):
    """Cocktail shaker sort with a swapped flag and shrinking bounds, in place."""
    start, end = 0, len(a) - 1
    swapped = True
    passes = 0
    while swapped:
        swapped = False
        for i in range(start, end):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        if not swapped:
            break
        end -= 1
        swapped = False
        for i in range(end - 1, start - 1, -1):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        start += 1
        passes += 1
    return a, passes


@CASES.case(
    args=[(np.array([9, 8, 7, 6, 5, 4, 3, 2, 1], dtype=np.int32),), (np.array([2.0, 1.0]),)]
)
def comb_sort_shrink(a):
    """Comb sort: a gap that shrinks by 1.3 until a gap-1 pass makes no swap."""
    gap = len(a)
    done = False
    while not done:
        gap = int(gap / 1.3)
        if gap <= 1:
            gap = 1
            done = True
        i = 0
        while i + gap < len(a):
            if a[i] > a[i + gap]:
                a[i], a[i + gap] = a[i + gap], a[i]
                done = False
            i += 1
    return a


@CASES.case(args=[(np.array([1.0, -6.0, 11.0, -6.0]), 3.5), (np.array([2.0, 0.0, -8.0]), 1.0)])
def newton_with_horner_deflation(coeffs, x0):
    """All real roots by Newton with Horner evaluation of p and p', deflating the polynomial
    by synthetic division after each root."""
    p = coeffs.copy()
    roots = []
    while len(p) > 1:
        x = x0
        for _ in range(50):
            val = p[0]
            der = 0.0
            for c in p[1:]:
                der = der * x + val
                val = val * x + c
            if der == 0:
                break
            step = val / der
            x -= step
            if abs(step) < 1e-13:
                break
        roots.append(x)
        q = np.zeros(len(p) - 1)
        q[0] = p[0]
        for i in range(1, len(p) - 1):
            q[i] = p[i] + x * q[i - 1]
        p = q
    return np.array(roots)


@CASES.case(args=[(np.array([[2.0, 1.0], [1.0, 3.0]]), 50), (np.diag([3.0, 1.0, 0.5]), 20)])
def power_method_with_break(A, max_iter):
    """The power method with a Rayleigh quotient and a break once it settles."""
    v = np.ones(A.shape[0]) / math.sqrt(A.shape[0])
    lam = 0.0
    k = 0
    while k < max_iter:
        w = A @ v
        new_lam = v @ w
        v = w / np.linalg.norm(w)
        k += 1
        if abs(new_lam - lam) < 1e-12 * abs(new_lam):
            lam = new_lam
            break
        lam = new_lam
    return lam, v, k


@CASES.case(
    args=[
        (np.array([1.0, 0.5, -0.25, 0.125]), np.array([-1.0, -0.3, 0.0, 0.6, 1.0])),
        (np.array([2.0]), np.array([0.5])),
    ]
)
def clenshaw_chebyshev(c, xs):
    """A Chebyshev series at each x by Clenshaw's recurrence, written with b1, b2 swaps."""
    out = np.empty_like(xs)
    for m in range(len(xs)):
        x = xs[m]
        b1 = b2 = 0.0
        for k in range(len(c) - 1, 0, -1):
            b1, b2 = 2 * x * b1 - b2 + c[k], b1
        out[m] = x * b1 - b2 + c[0]
    return out


@CASES.case(args=[(np.array([[4.0, 3.0], [6.0, 3.0]]),), (A3.copy(),)])
def crout_lu_loops(A):
    """Crout's LU (unit upper diagonal) with triple loops into preallocated L and U."""
    n = A.shape[0]
    L = np.zeros((n, n))
    U = np.eye(n)
    for j in range(n):
        for i in range(j, n):
            s = 0.0
            for k in range(j):
                s += L[i, k] * U[k, j]
            L[i, j] = A[i, j] - s
        for i in range(j + 1, n):
            s = 0.0
            for k in range(j):
                s += L[j, k] * U[k, i]
            U[j, i] = (A[j, i] - s) / L[j, j]
    return L, U, np.allclose(L @ U, A)


@CASES.case(args=[(0.0, 2.0, 1e-8), (1.0, 4.0, 1e-4), (2.0, 3.0, 1e-8)])
def bisection_max_iter_and_flag(a, b, tol):
    """Bisection on x^3 - 2x - 5 with an iteration cap, a converged flag and an early exit
    when the bracket is invalid."""
    fa = a**3 - 2 * a - 5
    fb = b**3 - 2 * b - 5
    if fa * fb > 0:
        return None, False, 0
    converged = False
    n = 0
    while n < 100:
        n += 1
        m = 0.5 * (a + b)
        fm = m**3 - 2 * m - 5
        if fm == 0 or 0.5 * (b - a) < tol:
            converged = True
            break
        if fa * fm < 0:
            b, fb = m, fm
        else:
            a, fa = m, fm
    return 0.5 * (a + b), converged, n


@CASES.case(
    args=[(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]),), (np.array([[2.0]]),)]
)
def matrix_inverse_gauss_jordan(A):
    """The inverse by Gauss-Jordan on an augmented matrix built with np.hstack, with row swaps
    by a temporary copy."""
    n = A.shape[0]
    M = np.hstack([A.astype(float), np.eye(n)])
    for col in range(n):
        pivot = col
        for r in range(col + 1, n):
            if abs(M[r, col]) > abs(M[pivot, col]):
                pivot = r
        if pivot != col:
            tmp = M[col].copy()
            M[col] = M[pivot]
            M[pivot] = tmp
        M[col] /= M[col, col]
        for r in range(n):
            if r != col:
                M[r] -= M[r, col] * M[col]
    return M[:, n:]


@CASES.case(
    args=[
        (np.array([3.0, 1.0, 2.0]), np.array([1.0, 5.0, 2.0, 4.0])),
        (np.zeros(0), np.array([1.0])),
    ]
)
def merge_two_sorted_c_style(a, b):
    """Merges two arrays after sorting copies, with three indices into a preallocated output."""
    a = np.sort(a)
    b = np.sort(b)
    out = np.empty(len(a) + len(b))
    i = j = k = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    while i < len(a):
        out[k] = a[i]
        i += 1
        k += 1
    while j < len(b):
        out[k] = b[j]
        j += 1
        k += 1
    return out
