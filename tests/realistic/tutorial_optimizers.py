"""Optimizers the way tutorials write them: gradient descent with Armijo backtracking, linear
conjugate gradient, BFGS and the L-BFGS two-loop recursion with np.linalg, Adagrad, Adadelta,
Nadam and AdamW steps that update the argument arrays in place, golden-section and Brent line
searches, simulated annealing with a seeded default_rng, and Lasso by coordinate descent."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("optimizers")

SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]])
B = np.array([1.0, 2.0, -1.0])
DESIGN = np.array([[1.0, 0.5, -0.2], [0.3, 1.2, 0.8], [-0.7, 0.1, 1.5], [1.1, -0.4, 0.2]])
TARGET = np.array([1.0, 0.5, -0.3, 2.0])


def _booth(p):
    x, y = p
    return (x + 2 * y - 7) ** 2 + (2 * x + y - 5) ** 2


def _booth_grad(p):
    x, y = p
    return np.array(
        [2 * (x + 2 * y - 7) + 4 * (2 * x + y - 5), 4 * (x + 2 * y - 7) + 2 * (2 * x + y - 5)]
    )


@CASES.case(args=[([0.0, 0.0],), (np.array([5.0, -3.0]),), (np.array([1.0, 3.0]),)])
def armijo_descent_booth(x0):
    """Steepest descent on Booth's function, halving the step until Armijo's condition holds."""
    x = np.array(x0, dtype=float)
    history = []
    for _ in range(40):
        g = _booth_grad(x)
        if np.linalg.norm(g) < 1e-8:
            break
        t = 1.0
        while _booth(x - t * g) > _booth(x) - 0.5 * t * np.dot(g, g):
            t *= 0.5
        x = x - t * g
        history.append(_booth(x))
    return x, history


@CASES.case(args=[(SPD, B), (SPD.tolist(), [0.0, 0.0, 0.0]), (np.eye(2), np.array([3.0, -4.0]))])
def conjugate_gradient_tutorial(A, b, tol=1e-10):
    """Linear CG for A x = b with A symmetric positive definite."""
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    k = 0
    for k in range(len(b)):
        if math.sqrt(rs_old) < tol:
            break
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, k


def _quad(x):
    return 0.5 * x @ SPD @ x - B @ x


def _quad_grad(x):
    return SPD @ x - B


@CASES.case(args=[(np.zeros(3),), (np.array([2.0, -1.0, 0.5]),)])
def bfgs_quadratic(x0):
    """BFGS with an inverse-Hessian update and a backtracking line search."""
    x = x0.copy()
    n = len(x)
    H = np.eye(n)
    g = _quad_grad(x)
    for it in range(20):
        if np.linalg.norm(g) < 1e-9:
            break
        p = -H @ g
        t = 1.0
        while _quad(x + t * p) > _quad(x) + 1e-4 * t * (g @ p):
            t *= 0.5
        s = t * p
        x_new = x + s
        g_new = _quad_grad(x_new)
        y = g_new - g
        sy = y @ s
        if sy > 1e-12:
            rho = 1.0 / sy
            eye = np.eye(n)
            H = (eye - rho * np.outer(s, y)) @ H @ (eye - rho * np.outer(y, s)) + rho * np.outer(
                s, s
            )
        x, g = x_new, g_new
    return x, it


@CASES.case(
    args=[
        (np.array([1.0, -2.0, 0.5]), [np.array([0.1, 0.2, 0.0])], [np.array([0.3, 0.5, 0.1])]),
        (np.array([1.0, 1.0]), [], []),
    ]
)
def lbfgs_two_loop_lists(grad, s_list, y_list):
    """The two-loop recursion over stored pairs, newest last, with the gamma scaling."""
    q = grad.copy()
    alphas = []
    for s, y in zip(reversed(s_list), reversed(y_list)):
        rho = 1.0 / np.dot(y, s)
        a = rho * np.dot(s, q)
        alphas.append(a)
        q = q - a * y
    if s_list:
        gamma = np.dot(s_list[-1], y_list[-1]) / np.dot(y_list[-1], y_list[-1])
    else:
        gamma = 1.0
    r = gamma * q
    for (s, y), a in zip(zip(s_list, y_list), reversed(alphas)):
        rho = 1.0 / np.dot(y, s)
        b = rho * np.dot(y, r)
        r = r + s * (a - b)
    return -r


@CASES.case(
    args=[
        (np.array([1.0, -1.0]), np.array([0.5, 0.2]), np.zeros(2), 0.1),
        (
            np.array([1.0, 2.0], dtype=np.float32),
            np.array([0.1, -0.3], dtype=np.float32),
            np.zeros(2, dtype=np.float32),
            0.5,
        ),
    ]
)
def adagrad_update_inplace(params, grads, cache, lr, eps=1e-8):
    """One Adagrad step: the squared-gradient cache and the parameters are updated in place."""
    cache += grads**2
    params -= lr * grads / (np.sqrt(cache) + eps)


@CASES.case(args=[(np.array([2.0, -3.0, 0.5]), 0.95, 8), (np.array([1e-3]), 0.9, 3)])
def adadelta_on_quadratic(x, rho, steps, eps=1e-6):
    """Adadelta minimising sum(x**2): running averages of squared gradients and updates."""
    x = x.copy()
    eg2 = np.zeros_like(x)
    edx2 = np.zeros_like(x)
    for _ in range(steps):
        g = 2 * x
        eg2 = rho * eg2 + (1 - rho) * g * g
        dx = -np.sqrt(edx2 + eps) / np.sqrt(eg2 + eps) * g
        edx2 = rho * edx2 + (1 - rho) * dx * dx
        x += dx
    return x, eg2, edx2


@CASES.case(
    args=[
        (np.array([0.5, -0.5]), np.array([0.2, 0.1]), np.zeros(2), np.zeros(2), 1),
        (
            np.array([0.5, -0.5]),
            np.array([0.2, 0.1]),
            np.array([0.01, 0.0]),
            np.array([0.1, 0.2]),
            4,
        ),
    ]
)
def nadam_step_inplace(w, g, m, v, t, lr=0.002, b1=0.9, b2=0.999, eps=1e-8):
    """One Nadam step (Dozat's form): m, v and w change in place; returns the step taken."""
    m[:] = b1 * m + (1 - b1) * g
    v[:] = b2 * v + (1 - b2) * g * g
    m_hat = m / (1 - b1 ** (t + 1))
    v_hat = v / (1 - b2**t)
    step = lr * (b1 * m_hat + (1 - b1) * g / (1 - b1**t)) / (np.sqrt(v_hat) + eps)
    w -= step
    return step


@CASES.case(
    args=[
        (
            {"w": np.array([1.0, -2.0]), "b": np.array([0.5])},
            {"w": np.array([0.1, 0.2]), "b": np.array([-0.3])},
            3,
        ),
    ]
)
def adamw_param_dict(params, grads, steps, lr=0.01, wd=0.1, b1=0.9, b2=0.999, eps=1e-8):
    """AdamW over a dict of parameters with decoupled weight decay, moments kept per name."""
    m = {k: np.zeros_like(p) for k, p in params.items()}
    v = {k: np.zeros_like(p) for k, p in params.items()}
    for t in range(1, steps + 1):
        for k in params:
            g = grads[k]
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g**2
            mh = m[k] / (1 - b1**t)
            vh = v[k] / (1 - b2**t)
            params[k] -= lr * (mh / (np.sqrt(vh) + eps) + wd * params[k])
    return params


@CASES.case(args=[(lambda x: (x - 1.3) ** 2 + 0.5, 0.0, 4.0), (np.sin, 3.0, 6.0), (abs, -2.0, 1.0)])
def golden_section_loop(f, a, b, tol=1e-7):
    """Golden-section search for a minimum, reusing one evaluation per iteration."""
    invphi = (math.sqrt(5) - 1) / 2
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = f(c), f(d)
    evaluations = 2
    while abs(b - a) > tol:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
        evaluations += 1
    return (a + b) / 2, evaluations


@CASES.case(args=[(lambda x: (x - 2.0) ** 2 * (x + 1.0), 0.0, 5.0), (np.cos, 2.0, 4.5)])
def brent_minimize(f, a, b, tol=1e-8, maxiter=100):
    """Brent's method for a minimum: parabolic steps when they behave, golden ones otherwise."""
    cgold = 0.3819660
    x = w = v = a + cgold * (b - a)
    fx = fw = fv = f(x)
    d = e = 0.0
    for it in range(maxiter):
        m = 0.5 * (a + b)
        tol1 = tol * abs(x) + 1e-10
        tol2 = 2.0 * tol1
        if abs(x - m) <= tol2 - 0.5 * (b - a):
            break
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            if abs(p) < abs(0.5 * q * e) and p > q * (a - x) and p < q * (b - x):
                e = d
                d = p / q
            else:
                e = (b - x) if x < m else (a - x)
                d = cgold * e
        else:
            e = (b - x) if x < m else (a - x)
            d = cgold * e
        u = x + d if abs(d) >= tol1 else x + math.copysign(tol1, d)
        fu = f(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, w = w, u
                fv, fw = fw, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return x, fx, it


@CASES.case(args=[(np.array([3.0, -2.0]), 7), (np.array([0.0, 0.0]), 11)])
def simulated_annealing_rng(x0, seed, steps=20):
    """Simulated annealing on a bumpy bowl, seeded default_rng and geometric cooling."""
    rng = np.random.default_rng(seed)

    def energy(p):
        return np.sum(p**2) + 2.0 * np.sum(np.sin(3.0 * p) ** 2)

    x = x0.copy()
    e = energy(x)
    best, best_e = x.copy(), e
    temp = 2.0
    accepted = 0
    for _ in range(steps):
        candidate = x + rng.normal(0.0, 0.5, size=x.shape)
        ec = energy(candidate)
        if ec < e or rng.random() < math.exp(-(ec - e) / temp):
            x, e = candidate, ec
            accepted += 1
            if e < best_e:
                best, best_e = x.copy(), e
        temp *= 0.95
    return best, best_e, accepted


def _soft_threshold(rho, lam):
    if rho < -lam:
        return rho + lam
    elif rho > lam:
        return rho - lam
    else:
        return 0.0


@CASES.case(args=[(DESIGN, TARGET, 0.1), (DESIGN, TARGET, 5.0), (DESIGN[:, :1], TARGET, 0.0)])
def lasso_coordinate_descent(X, y, lam, sweeps=8):
    """Lasso by cyclic coordinate descent with soft-thresholding (no intercept)."""
    n, p = X.shape
    w = np.zeros(p)
    for _ in range(sweeps):
        for j in range(p):
            residual = y - X @ w + X[:, j] * w[j]
            rho = X[:, j] @ residual / n
            z = (X[:, j] ** 2).sum() / n
            w[j] = _soft_threshold(rho, lam) / z
    return w


@CASES.case(
    args=[(DESIGN, TARGET, 0.5), (DESIGN.astype(np.float32), TARGET.astype(np.float32), 0.1)]
)
def ridge_normal_equations(X, y, alpha):
    """Ridge regression: solve (X^T X + alpha I) w = X^T y, and the training mean squared error."""
    n_features = X.shape[1]
    w = np.linalg.solve(X.T @ X + alpha * np.eye(n_features), X.T @ y)
    mse = np.mean((X @ w - y) ** 2)
    return w, mse


@CASES.case(args=[(np.array([-1.2, 1.0]), 60), (np.array([1.0, 1.0]), 5)])
def momentum_rosenbrock_tracking(x0, iters, lr=1e-3, beta=0.9):
    """Heavy-ball momentum on Rosenbrock, recording the loss every 20 iterations."""
    x = x0.astype(float)
    velocity = np.zeros_like(x)
    losses = []
    for i in range(iters):
        a, b = x[0], x[1]
        grad = np.array([-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)])
        velocity = beta * velocity - lr * grad
        x = x + velocity
        if i % 20 == 0:
            losses.append(float((1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2))
    return x, losses


@CASES.case(args=[(lambda x: x**3 - 2 * x - 5, 2.0, 3.0), (lambda x: x * x - 2.0, 0.0, 1.0)])
def bisection_with_sign_check(f, a, b, tol=1e-10, max_iter=200):
    """Bisection that refuses a bracket without a sign change."""
    fa = f(a)
    if fa * f(b) > 0:
        raise ValueError("f(a) and f(b) must have opposite signs")
    for i in range(max_iter):
        c = (a + b) / 2
        fc = f(c)
        if fc == 0 or (b - a) / 2 < tol:
            return c, i
        if fa * fc < 0:
            b = c
        else:
            a, fa = c, fc
    return (a + b) / 2, max_iter
