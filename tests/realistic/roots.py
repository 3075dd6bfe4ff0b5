"""Root finding as people write it: Newton's method with derivative callbacks, the secant method,
Brent's method, regula falsi with the Illinois tweak, fixed-point iteration with a dict of
settings, Halley's method on arrays, and bracketing by expansion."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("roots")

SETTINGS = {"tol": 1e-12, "max_iter": 60, "verbose": False}


def _cubic(x):
    return x**3 - 2 * x - 5


def _cubic_prime(x):
    return 3 * x**2 - 2


@CASES.case(args=[(2.0,), (np.float64(3.0),), (0.8164965809277261,), (np.float32(2.0),)])
def newton_callbacks(x0, f=_cubic, fprime=_cubic_prime, tol=1e-12, max_iter=50):
    """Newton's method given f and f' as functions; a flat derivative raises."""
    x = x0
    for i in range(max_iter):
        fx = f(x)
        dfx = fprime(x)
        if abs(dfx) < 1e-14:
            raise ZeroDivisionError(f"zero derivative at iteration {i}")
        step = fx / dfx
        x = x - step
        if abs(step) < tol:
            return x, i + 1
    raise RuntimeError("Newton did not converge")


@CASES.case(args=[(1.0, 3.0), (np.float64(2.0), np.float64(2.1)), (1.0, 1.0)])
def secant(x0, x1, tol=1e-12, max_iter=100):
    f0, f1 = _cubic(x0), _cubic(x1)
    for _ in range(max_iter):
        denom = f1 - f0
        try:
            x2 = x1 - f1 * (x1 - x0) / denom
        except ZeroDivisionError:
            return x1
        x0, f0 = x1, f1
        x1, f1 = x2, _cubic(x2)
        if abs(x1 - x0) < tol:
            break
    return x1


@CASES.case(
    args=[(np.array([1.0, 2.0, 10.0]),), (np.array([0.25], dtype=np.float32),), (np.array([]),)]
)
def halley_cube_roots(a, iters=8):
    """Cube roots of every element by Halley's iteration, vectorised."""
    x = np.where(a > 1, a / 3, 1.0)
    for _ in range(iters):
        fx = x**3 - a
        x = x - 2 * fx * 3 * x**2 / (2 * (3 * x**2) ** 2 - fx * 6 * x)
    return x


@CASES.case(
    args=[
        (2.0, 3.0),
        (np.float64(1.0), np.float64(3.0)),
        (3.0, 4.0),
        (np.float64(2.0946), np.float64(2.0946)),
    ]
)
def brent(a, b, tol=1e-12, max_iter=100):
    """Brent's method (bisection, secant and inverse quadratic steps) on x^3 - 2x - 5."""
    fa, fb = _cubic(a), _cubic(b)
    if fa * fb > 0:
        raise ValueError("root is not bracketed")
    if abs(fa) < abs(fb):
        a, b, fa, fb = b, a, fb, fa
    c, fc = a, fa
    mflag = True
    d = c
    for _ in range(max_iter):
        if fb == 0 or abs(b - a) < tol:
            return b
        if fa != fc and fb != fc:
            s = (
                a * fb * fc / ((fa - fb) * (fa - fc))
                + b * fa * fc / ((fb - fa) * (fb - fc))
                + c * fa * fb / ((fc - fa) * (fc - fb))
            )
        else:
            s = b - fb * (b - a) / (fb - fa)
        quarter = (3 * a + b) / 4
        if (
            not (quarter < s < b or b < s < quarter)
            or (mflag and abs(s - b) >= abs(b - c) / 2)
            or (not mflag and abs(s - b) >= abs(c - d) / 2)
        ):
            s = (a + b) / 2
            mflag = True
        else:
            mflag = False
        fs = _cubic(s)
        d, c, fc = c, b, fb
        if fa * fs < 0:
            b, fb = s, fs
        else:
            a, fa = s, fs
        if abs(fa) < abs(fb):
            a, b, fa, fb = b, a, fb, fa
    return b


@CASES.case(args=[(2.0, 3.0), (np.float64(0.0), np.float64(4.0)), (3.0, 4.0)])
def illinois(a, b, tol=1e-12):
    """Regula falsi with the Illinois modification; counts iterations."""
    fa, fb = _cubic(a), _cubic(b)
    if np.sign(fa) == np.sign(fb):
        raise ValueError(f"f({a}) and f({b}) have the same sign")
    side = 0
    count = 0
    c = a
    while abs(b - a) > tol and count < 200:
        c = (a * fb - b * fa) / (fb - fa)
        fc = _cubic(c)
        count += 1
        if fc * fb > 0:
            b, fb = c, fc
            if side == -1:
                fa /= 2
            side = -1
        elif fa * fc > 0:
            a, fa = c, fc
            if side == 1:
                fb /= 2
            side = 1
        else:
            break
    return c, count


@CASES.case(
    args=[(1.0, SETTINGS), (np.float64(0.5), {"tol": 1e-6, "max_iter": 3, "verbose": True})]
)
def fixed_point_cosine(x, options):
    """x = cos(x) by fixed-point iteration, settings from a dict, progress printed."""
    tol = options.get("tol", 1e-10)
    for k in range(options["max_iter"]):
        x_new = math.cos(x)
        if options["verbose"]:
            print(f"iter {k}: x = {x_new:.6f}")
        if abs(x_new - x) < tol:
            return x_new, True
        x = x_new
    return x, False


@CASES.case(args=[(0.0, 0.5), (np.float64(-10.0), 1.0), (5.0, np.float64(0.1))])
def expand_bracket(x, step, growth=1.6, limit=50):
    """Grows an interval around x until the cubic changes sign; returns it as a tuple."""
    a, b = x - step, x + step
    fa, fb = _cubic(a), _cubic(b)
    n = 0
    while fa * fb > 0:
        n += 1
        if n > limit:
            raise RuntimeError("no sign change found")
        if abs(fa) < abs(fb):
            a += growth * (a - b)
            fa = _cubic(a)
        else:
            b += growth * (b - a)
            fb = _cubic(b)
    return (a, b), n


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(args=[(0.0, 2.0), (1.0, 1.5, 1e-14), (2.0, 3.0)])
def ridders(a, b, tol=1e-12, max_iter=60):
    """Ridders' method on x**3 - 2x - 1 with an exponential correction of the midpoint."""

    def f(x):
        return x**3 - 2 * x - 1

    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError(f"f({a}) and f({b}) have the same sign")
    x = a
    for n in range(max_iter):
        m = 0.5 * (a + b)
        fm = f(m)
        s = math.sqrt(fm * fm - fa * fb)
        if s == 0:
            return m, n
        x_new = m + (m - a) * (1 if fa > fb else -1) * fm / s
        if abs(x_new - x) < tol:
            return x_new, n
        x = x_new
        fx = f(x)
        if math.copysign(fm, fx) != fm:
            a, fa, b, fb = m, fm, x, fx
        elif math.copysign(fa, fx) != fa:
            b, fb = x, fx
        else:
            a, fa = x, fx
    return x, max_iter


@CASES.case(
    args=[(np.array([1.0, 2.0, 3.0]), 1.5), (np.array([0.5]), 0.0), (np.array([4.0, 9.0]), -2.0)]
)
def damped_newton_numeric(coeffs, x0, tol=1e-12, max_iter=40):
    """Newton's method with a central-difference derivative and step halving until |f| falls."""

    def f(x):
        return np.polyval(coeffs, x) - math.exp(-x)

    x = x0
    fx = f(x)
    for it in range(max_iter):
        h = 1e-6 * max(1.0, abs(x))
        d = (f(x + h) - f(x - h)) / (2 * h)
        if d == 0:
            raise ZeroDivisionError(f"zero derivative at x={x}")
        step = fx / d
        lam = 1.0
        while abs(f(x - lam * step)) > abs(fx) and lam > 1e-4:
            lam /= 2
        x = x - lam * step
        fx = f(x)
        if abs(fx) < tol:
            break
    return x, it


@CASES.case(args=[(1.0,), (0.0,), (-3.0, 1e-8)])
def steffensen(x, tol=1e-12):
    """Steffensen's derivative-free iteration on the fixed point of g(x) = exp(-x)."""
    history = [x]
    for _ in range(50):
        g1 = math.exp(-x)
        g2 = math.exp(-g1)
        denom = g2 - 2 * g1 + x
        if denom == 0:
            break
        x_new = x - (g1 - x) ** 2 / denom
        history.append(x_new)
        if abs(x_new - x) < tol:
            x = x_new
            break
        x = x_new
    return x, len(history)
