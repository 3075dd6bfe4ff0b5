"""Root finders from numerical-methods courses: bisection that reports iterations, regula
falsi, Newton with a numerical derivative and a step cap, Muller's method in complex
arithmetic (cmath.sqrt), polynomial roots by Durand-Kerner, Newton on vectors with a Jacobian
by finite differences, inverse quadratic interpolation and a fixed-point iteration with
Aitken acceleration."""

import cmath
import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("roots")


def _cubic(x):
    return x**3 - 2 * x - 5


@CASES.case(args=[(2.0, 3.0, 1e-10), (np.float64(2.0), np.float64(3.0), 1e-6), (3.0, 4.0, 1e-6)])
def bisection_counting(a, b, tol):
    """Bisection on x^3 - 2x - 5 returning the root and the iteration count; a bracket without
    a sign change raises."""
    fa = _cubic(a)
    if fa * _cubic(b) > 0:
        raise ValueError(f"f({a}) and f({b}) have the same sign")
    n = 0
    while (b - a) / 2 > tol:
        m = (a + b) / 2
        fm = _cubic(m)
        if fm == 0:
            return m, n
        if fa * fm < 0:
            b = m
        else:
            a, fa = m, fm
        n += 1
    return (a + b) / 2, n


@CASES.case(args=[(2.0, 3.0, 1e-12, 100), (np.float32(2.0), np.float32(3.0), 1e-5, 50)])
def regula_falsi(a, b, tol, max_iter):
    """False position: the secant of the bracket ends; stops when |f| is below tol."""
    fa, fb = _cubic(a), _cubic(b)
    c = a
    for i in range(max_iter):
        c = b - fb * (b - a) / (fb - fa)
        fc = _cubic(c)
        if abs(fc) < tol:
            return c, i + 1
        if fa * fc < 0:
            b, fb = c, fc
        else:
            a, fa = c, fc
    return c, max_iter


@CASES.case(args=[(1.0, 1e-12), (np.float64(10.0), 1e-10), (0.0, 1e-10)])
def newton_numeric_derivative_capped(x, tol):
    """Newton with a central-difference derivative and steps capped at 1 in size; a zero
    derivative raises ZeroDivisionError as the Python division would."""
    h = 1e-6
    for _ in range(60):
        fx = _cubic(x)
        d = (_cubic(x + h) - _cubic(x - h)) / (2 * h)
        step = fx / d
        step = max(-1.0, min(1.0, step))
        x = x - step
        if abs(step) < tol:
            break
    return x


@CASES.case(args=[(0.0, 1.0, 2.0), (-1.0, 0.0, 1.0)])
def muller_complex(x0, x1, x2):
    """Muller's method for x^2 + 1 (complex roots) with cmath.sqrt and complex iterates."""

    def f(z):
        return z * z + 1

    for _ in range(30):
        h1, h2 = x1 - x0, x2 - x1
        d1, d2 = (f(x1) - f(x0)) / h1, (f(x2) - f(x1)) / h2
        a = (d2 - d1) / (h2 + h1)
        b = a * h2 + d2
        disc = cmath.sqrt(b * b - 4 * f(x2) * a)
        den = b + disc if abs(b + disc) > abs(b - disc) else b - disc
        dx = -2 * f(x2) / den
        x0, x1, x2 = x1, x2, x2 + dx
        if abs(dx) < 1e-14:
            break
    return x2


@CASES.case(
    args=[
        (np.array([1.0, -6.0, 11.0, -6.0]),),
        (np.array([1.0, 0.0, -1.0]),),
        (np.array([2.0, -3.0]),),
    ]
)
def durand_kerner(coeffs):
    """All roots of a polynomial at once: Weierstrass updates from complex starting points
    (0.4 + 0.9j) ** k; returns them sorted by real part."""
    c = coeffs / coeffs[0]
    n = len(c) - 1
    roots = np.array([(0.4 + 0.9j) ** k for k in range(n)])
    for _ in range(100):
        new = roots.copy()
        for i in range(n):
            num = np.polyval(c, new[i])
            den = 1.0 + 0j
            for j in range(n):
                if i != j:
                    den *= new[i] - new[j]
            new[i] = new[i] - num / den
        if np.max(np.abs(new - roots)) < 1e-13:
            roots = new
            break
        roots = new
    return np.sort_complex(roots)


@CASES.case(args=[(np.array([1.0, 1.0]),), (np.array([-1.0, 2.0]),)])
def newton_system_fd_jacobian(x):
    """Newton on x^2 + y^2 = 4, e^x + y = 1 with a forward-difference Jacobian."""

    def F(v):
        return np.array([v[0] ** 2 + v[1] ** 2 - 4, math.exp(v[0]) + v[1] - 1])

    for it in range(25):
        fx = F(x)
        if np.linalg.norm(fx) < 1e-12:
            return x, it
        J = np.empty((2, 2))
        for j in range(2):
            e = np.zeros(2)
            e[j] = 1e-7
            J[:, j] = (F(x + e) - fx) / 1e-7
        x = x - np.linalg.solve(J, fx)
    return x, 25


@CASES.case(args=[(1.0, 2.0, 3.0), (2.0, 2.5, 3.0)])
def inverse_quadratic_interpolation(x0, x1, x2):
    """Inverse quadratic interpolation on the cubic until two iterates agree to 1e-14."""
    for i in range(50):
        f0, f1, f2 = _cubic(x0), _cubic(x1), _cubic(x2)
        if f0 == f1 or f1 == f2 or f0 == f2:
            break
        x3 = (
            x0 * f1 * f2 / ((f0 - f1) * (f0 - f2))
            + x1 * f0 * f2 / ((f1 - f0) * (f1 - f2))
            + x2 * f0 * f1 / ((f2 - f0) * (f2 - f1))
        )
        x0, x1, x2 = x1, x2, x3
        if abs(x2 - x1) < 1e-14:
            return x2, i + 1
    return x2, -1


@CASES.case(args=[(1.0,), (np.float64(0.5),), (np.float32(0.5),)])
def aitken_fixed_point(x):
    """Fixed point of cos by Aitken's delta-squared on triples of iterates."""
    for n in range(20):
        x1 = math.cos(x)
        x2 = math.cos(x1)
        denom = x2 - 2 * x1 + x
        if denom == 0:
            return x2, n
        x_new = x - (x1 - x) ** 2 / denom
        if abs(x_new - x) < 1e-15:
            return x_new, n
        x = x_new
    return x, 20


@CASES.case(
    args=[
        (np.array([1.0, 2.0, 3.0, 10.0]),),
        (np.array([0.25]),),
        (np.array([4.0], dtype=np.float32),),
    ]
)
def cube_roots_by_newton_vectorised(a):
    """Cube roots of an array by Newton's iteration on all elements at once, stopping when
    every element has converged (np.all in the while test)."""
    x = np.where(a > 1, a / 3, 1.0).astype(a.dtype)
    while True:
        x_new = x - (x**3 - a) / (3 * x**2)
        if np.all(np.abs(x_new - x) <= 1e-6 * np.abs(x_new)):
            return x_new
        x = x_new
