"""Optimizers with the details tutorials spell out: a strong-Wolfe line search with zoom,
Fletcher-Reeves and Polak-Ribiere nonlinear conjugate gradients, Adam with bias correction and
the AMSGrad maximum, Barzilai-Borwein steps, a trust-region dogleg step, golden section on a
Python callable, simulated annealing with a seeded Generator and Nelder-Mead on a 1-d bracket."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("optimizers")

A2 = np.array([[3.0, 0.5], [0.5, 1.0]])
B2 = np.array([1.0, -2.0])
X0 = np.array([-1.2, 1.0])


def _rosen(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def _rosen_grad(x):
    return np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)])


@CASES.case(args=[(X0, np.array([1.0, 0.0])), (np.array([0.5, 0.5]), np.array([0.3, 0.2]))])
def wolfe_line_search(x, p):
    """A step length meeting the strong Wolfe conditions, by bracketing then bisection zoom."""
    c1, c2 = 1e-4, 0.9
    f0 = _rosen(x)
    g0 = _rosen_grad(x) @ p
    if g0 >= 0:
        p = -_rosen_grad(x)
        g0 = _rosen_grad(x) @ p
    lo, hi = 0.0, None
    alpha = 1.0
    for _ in range(30):
        fa = _rosen(x + alpha * p)
        if fa > f0 + c1 * alpha * g0:
            hi = alpha
        else:
            ga = _rosen_grad(x + alpha * p) @ p
            if abs(ga) <= -c2 * g0:
                return alpha, fa
            if ga > 0:
                hi = alpha
            else:
                lo = alpha
        alpha = 2 * alpha if hi is None else (lo + hi) / 2
    return alpha, _rosen(x + alpha * p)


@CASES.case(args=[(X0, "fr", 40), (X0, "pr", 40), (np.array([1.0, 1.0]), "pr", 5)])
def nonlinear_cg(x, beta_rule, iters):
    """Nonlinear conjugate gradients with a backtracking Armijo step and a restart whenever
    the direction stops descending."""
    g = _rosen_grad(x)
    d = -g
    for k in range(iters):
        if np.linalg.norm(g) < 1e-8:
            break
        if g @ d >= 0:
            d = -g
        t = 1.0
        fx = _rosen(x)
        while _rosen(x + t * d) > fx + 1e-4 * t * (g @ d):
            t *= 0.5
        x = x + t * d
        g_new = _rosen_grad(x)
        if beta_rule == "fr":
            beta = (g_new @ g_new) / (g @ g)
        else:
            beta = max(0.0, g_new @ (g_new - g) / (g @ g))
        d = -g_new + beta * d
        g = g_new
    return x, _rosen(x), k


@CASES.case(
    args=[(X0, 0.05, 20, False), (X0, 0.05, 20, True), (X0.astype(np.float32), 0.1, 5, True)]
)
def adam_amsgrad(x, lr, steps, amsgrad):
    """Adam with bias-corrected moments; with amsgrad the denominator uses the running maximum
    of the second moment."""
    b1, b2, eps = 0.9, 0.999, 1e-8
    m = np.zeros_like(x)
    v = np.zeros_like(x)
    v_max = np.zeros_like(x)
    for t in range(1, steps + 1):
        g = _rosen_grad(x)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1**t)
        if amsgrad:
            v_max = np.maximum(v_max, v)
            v_hat = v_max / (1 - b2**t)
        else:
            v_hat = v / (1 - b2**t)
        x = x - lr * m_hat / (np.sqrt(v_hat) + eps)
    return x, _rosen(x)


@CASES.case(
    args=[(A2, B2, np.zeros(2), 30), (np.diag([1.0, 10.0, 100.0]), np.ones(3), np.ones(3), 60)]
)
def barzilai_borwein(A, b, x, iters):
    """Gradient descent on a quadratic with the BB1 step s.s / s.y after a first fixed step."""
    g = A @ x - b
    step = 1e-3
    history = [float(0.5 * x @ A @ x - b @ x)]
    for _ in range(iters):
        x_new = x - step * g
        g_new = A @ x_new - b
        s, y = x_new - x, g_new - g
        sy = s @ y
        if sy <= 0 or np.linalg.norm(g_new) < 1e-12:
            x = x_new
            break
        step = (s @ s) / sy
        x, g = x_new, g_new
        history.append(float(0.5 * x @ A @ x - b @ x))
    return x, history


@CASES.case(
    args=[
        (np.array([1.0, 2.0]), A2, 0.5),
        (np.array([1.0, 2.0]), A2, 5.0),
        (np.array([0.1, 0.1]), A2, 0.01),
    ]
)
def dogleg_step(g, B, radius):
    """The dogleg step of a trust region: Newton if it fits, else the Cauchy point, else the
    point where the dogleg path crosses the boundary."""
    pb = -np.linalg.solve(B, g)
    if np.linalg.norm(pb) <= radius:
        return pb, "newton"
    pu = -(g @ g) / (g @ B @ g) * g
    if np.linalg.norm(pu) >= radius:
        return radius * pu / np.linalg.norm(pu), "cauchy"
    d = pb - pu
    a = d @ d
    b = 2 * pu @ d
    c = pu @ pu - radius**2
    tau = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    return pu + tau * d, "dogleg"


def _bumpy(x):
    return (x - 1.3) ** 2 + 0.3 * math.sin(5 * x)


@CASES.case(args=[(-1.0, 3.0, 1e-6), (0.0, 1.0, 1e-3), (2.0, 2.0, 1e-3)])
def golden_section_callable(a, b, tol):
    """Golden-section search reusing one interior evaluation per step; counts the calls."""
    invphi = (math.sqrt(5) - 1) / 2
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = _bumpy(c), _bumpy(d)
    calls = 2
    while abs(b - a) > tol:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = _bumpy(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = _bumpy(d)
        calls += 1
    return (a + b) / 2, calls


@CASES.case(args=[(np.array([2.0, -1.5]), 7, 15), (np.array([0.0, 0.0]), 3, 10)])
def simulated_annealing_generator(x0, seed, steps):
    """Simulated annealing on the Rosenbrock function with a seeded Generator: Gaussian moves,
    Metropolis acceptance, geometric cooling; returns the best point and the acceptance rate."""
    rng = np.random.default_rng(seed)
    x = x0.copy()
    fx = _rosen(x)
    best, fbest = x.copy(), fx
    temp = 10.0
    accepted = 0
    for _ in range(steps):
        cand = x + rng.normal(scale=0.2, size=x.shape)
        fc = _rosen(cand)
        if fc < fx or rng.random() < math.exp(-(fc - fx) / temp):
            x, fx = cand, fc
            accepted += 1
            if fx < fbest:
                best, fbest = x.copy(), fx
        temp *= 0.97
    return best, fbest, accepted / steps


@CASES.case(
    args=[
        (A2, B2, 1e-10),
        (
            np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),
            np.array([1.0, 2.0, 3.0]),
            1e-12,
        ),
    ]
)
def preconditioned_cg(A, b, tol):
    """Conjugate gradients with a Jacobi preconditioner; returns the solution and the residual
    norms as Python floats."""
    x = np.zeros_like(b)
    r = b - A @ x
    Minv = 1.0 / np.diag(A)
    z = Minv * r
    p = z.copy()
    rz = r @ z
    norms = [float(np.linalg.norm(r))]
    for _ in range(len(b) * 3):
        Ap = A @ p
        alpha = rz / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        norms.append(float(np.linalg.norm(r)))
        if norms[-1] < tol:
            break
        z = Minv * r
        rz_new = r @ z
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, norms


@CASES.case(args=[(np.array([0.0, 0.0]), 0.1, 100), (np.array([3.0, -2.0]), 0.5, 20)])
def gradient_descent_until_plateau(x, lr, max_iter):
    """Gradient descent on a quadratic bowl that stops when the loss stops improving by
    a relative 1e-9 (math.isclose on Python floats) and reports why it stopped."""
    loss_prev = float(0.5 * x @ A2 @ x - B2 @ x)
    for it in range(max_iter):
        x = x - lr * (A2 @ x - B2)
        loss = float(0.5 * x @ A2 @ x - B2 @ x)
        if math.isclose(loss, loss_prev, rel_tol=1e-9):
            return x, it, "plateau"
        if loss > loss_prev:
            return x, it, "diverged"
        loss_prev = loss
    return x, max_iter, "max_iter"


@CASES.case(args=[(np.array([1.0, 1.0]), 1e-8, 30), (np.array([-0.5, 2.0]), 1e-12, 30)])
def newton_with_hessian_modification(x, tol, iters):
    """Newton's method on Rosenbrock with the Hessian shifted by tau*I until Cholesky succeeds
    (eigenvalue test instead of try/except)."""
    for i in range(iters):
        g = _rosen_grad(x)
        if np.linalg.norm(g) < tol:
            return x, i
        H = np.array([[2 - 400 * (x[1] - 3 * x[0] ** 2), -400 * x[0]], [-400 * x[0], 200.0]])
        tau = 0.0
        while np.min(np.linalg.eigvalsh(H + tau * np.eye(2))) <= 0:
            tau = max(2 * tau, 1e-3)
        x = x - np.linalg.solve(H + tau * np.eye(2), g)
    return x, iters


@CASES.case(args=[(np.array([1.0, 2.0, 3.0]), 0.1, 20), (np.array([-1.0, 0.5]), 0.3, 10)])
def proximal_gradient_lasso(w, lam, iters):
    """ISTA on 0.5||w - c||^2 + lam ||w||_1: a gradient step then soft thresholding."""
    c = np.linspace(0.0, 1.0, len(w))
    for _ in range(iters):
        z = w - 0.5 * (w - c)
        w = np.sign(z) * np.maximum(np.abs(z) - 0.5 * lam, 0.0)
    nonzero = int(np.count_nonzero(w))
    return w, nonzero
