"""Optimizers as people write them: line searches, stateful steps on ``self``, simplex and bracket
searches, Newton iterations with tolerances, the L-BFGS two-loop recursion."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("optimizers")


class Momentum:
    def __init__(self, n, lr=0.1, beta=0.9):
        self.lr = lr
        self.beta = beta
        self.velocity = np.zeros(n)
        self.steps = 0

    def step(self, w, g):
        self.velocity *= self.beta
        self.velocity -= self.lr * g
        w += self.velocity
        self.steps += 1


GRADS = np.array([[0.5, -1.0, 2.0], [0.25, 0.0, -1.0], [1.0, 1.0, 1.0], [-0.5, 2.0, 0.0]])


@CASES.case(args=[(Momentum(3), np.zeros(3), GRADS), (Momentum(3, 0.5, 0.0), np.ones(3), GRADS)])
def momentum_steps(opt, w, grads):
    for g in grads:
        opt.step(w, g)
    return opt.steps


class Adam:
    def __init__(self, n, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.m = np.zeros(n)
        self.v = np.zeros(n)
        self.t = 0

    def step(self, w, g):
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        mhat = self.m / (1 - self.b1**self.t)
        vhat = self.v / (1 - self.b2**self.t)
        w -= self.lr * mhat / (np.sqrt(vhat) + self.eps)
        return w


@CASES.case(args=[(Adam(3), np.ones(3), GRADS), (Adam(3, lr=0.1), np.zeros(3), GRADS[:1])])
def adam_steps(opt, w, grads):
    for i in range(len(grads)):
        opt.step(w, grads[i])
    return np.linalg.norm(w)


class RMSprop:
    def __init__(self, n, lr=0.01, rho=0.9, eps=1e-8):
        self.lr = lr
        self.rho = rho
        self.eps = eps
        self.sq = np.zeros(n)

    def step(self, w, g):
        self.sq = self.rho * self.sq + (1.0 - self.rho) * g**2
        update = self.lr * g / np.sqrt(self.sq + self.eps)
        return w - update


@CASES.case(args=[(RMSprop(3), np.ones(3), GRADS), (RMSprop(3, lr=0.5), np.ones(3), GRADS[2:])])
def rmsprop_run(opt, w, grads):
    history = []
    for g in grads:
        w = opt.step(w, g)
        history.append(float(np.sum(w)))
    return w, history


def rosenbrock(p):
    return (1.0 - p[0]) ** 2 + 100.0 * (p[1] - p[0] ** 2) ** 2


@CASES.case(
    args=[(np.array([-1.2, 1.0]), 12), (np.array([0.0, 0.0]), 6), (np.array([1.0, 1.0]), 5)]
)
def nelder_mead(x0, iters):
    """Nelder-Mead on the Rosenbrock function from a fixed initial simplex."""
    simplex = np.array([x0, x0 + np.array([0.5, 0.0]), x0 + np.array([0.0, 0.5])])
    values = np.array([rosenbrock(simplex[0]), rosenbrock(simplex[1]), rosenbrock(simplex[2])])
    for _ in range(iters):
        order = np.argsort(values)
        simplex = simplex[order]
        values = values[order]
        centroid = (simplex[0] + simplex[1]) / 2.0
        reflected = centroid + (centroid - simplex[2])
        fr = rosenbrock(reflected)
        if fr < values[0]:
            expanded = centroid + 2.0 * (centroid - simplex[2])
            fe = rosenbrock(expanded)
            if fe < fr:
                simplex[2] = expanded
                values[2] = fe
            else:
                simplex[2] = reflected
                values[2] = fr
        elif fr < values[1]:
            simplex[2] = reflected
            values[2] = fr
        else:
            contracted = centroid + 0.5 * (simplex[2] - centroid)
            fc = rosenbrock(contracted)
            if fc < values[2]:
                simplex[2] = contracted
                values[2] = fc
            else:
                simplex[1] = simplex[0] + 0.5 * (simplex[1] - simplex[0])
                simplex[2] = simplex[0] + 0.5 * (simplex[2] - simplex[0])
                values[1] = rosenbrock(simplex[1])
                values[2] = rosenbrock(simplex[2])
    best = np.argmin(values)
    return simplex[best], values[best]


@CASES.case(
    args=[
        (
            np.array([1.0, -2.0, 0.5]),
            [np.array([0.1, 0.0, 0.2]), np.array([0.0, 0.3, -0.1])],
            [np.array([0.2, 0.1, 0.5]), np.array([0.1, 0.9, -0.2])],
        ),
        (np.array([1.0, 1.0]), [], []),
    ]
)
def lbfgs_direction(g, s_list, y_list):
    """The L-BFGS search direction by the two-loop recursion."""
    q = g.copy()
    alphas = []
    for i in range(len(s_list) - 1, -1, -1):
        rho = 1.0 / np.dot(y_list[i], s_list[i])
        alpha = rho * np.dot(s_list[i], q)
        q -= alpha * y_list[i]
        alphas.append(alpha)
    if len(s_list) > 0:
        gamma = np.dot(s_list[-1], y_list[-1]) / np.dot(y_list[-1], y_list[-1])
    else:
        gamma = 1.0
    r = gamma * q
    for i in range(len(s_list)):
        rho = 1.0 / np.dot(y_list[i], s_list[i])
        beta = rho * np.dot(y_list[i], r)
        r += s_list[i] * (alphas[len(s_list) - 1 - i] - beta)
    return -r


@CASES.case(args=[(3.0, np.array([2.0, 1.0, 0.5, 0.1])), (-2.5, np.array([1.0, 0.2]), 0.25)])
def deterministic_annealing(x0, temperatures, step=0.5):
    """Annealing on a bumpy 1-D function with neighbours at +-step and a fixed acceptance rule."""
    x = x0
    fx = math.sin(3.0 * x) + 0.1 * x * x
    best, fbest = x, fx
    for t in temperatures:
        for direction in (-1.0, 1.0):
            cand = x + direction * step
            fc = math.sin(3.0 * cand) + 0.1 * cand * cand
            if fc < fx or math.exp(-(fc - fx) / t) > 0.6:
                x, fx = cand, fc
                if fx < fbest:
                    best, fbest = x, fx
                break
    return best, fbest


@CASES.case(
    args=[(np.array([3.0, -2.0]), 0.1, 100), (np.array([0.0, 0.0]), 0.5, 3), (np.zeros(2), -1.0, 5)]
)
def coordinate_descent(x0, lr, max_sweeps):
    """Coordinate descent on a coupled quadratic; stops when a sweep barely moves."""
    if lr <= 0:
        raise ValueError("learning rate must be positive")
    x = x0.astype(float)
    history = []
    for sweep in range(max_sweeps):
        largest = 0.0
        for i in range(len(x)):
            grad_i = 2.0 * x[i] + 0.5 * x[1 - i] - (1.0 if i == 0 else -1.0)
            change = lr * grad_i
            x[i] -= change
            largest = max(largest, abs(change))
        history.append(largest)
        if largest < 1e-6:
            print(f"converged after {sweep + 1} sweeps")
            break
    else:
        print("sweep limit reached")
    return x, history


class LineSearchState:
    def __init__(self):
        self.evaluations = 0
        self.best = float("inf")

    def value(self, x):
        self.evaluations += 1
        v = float(np.sum((x - 1.5) ** 2))
        if v < self.best:
            self.best = v
        return v


@CASES.case(
    args=[(LineSearchState(), np.array([4.0, -1.0])), (LineSearchState(), np.array([1.5, 1.5]))]
)
def steepest_descent_with_state(state, x):
    """A fixed number of steepest-descent steps, each halving its step until the value drops."""
    for _ in range(3):
        g = 2 * (x - 1.5)
        step = 1.0
        fx = state.value(x)
        for _ in range(6):
            if state.value(x - step * g) < fx:
                break
            step /= 2
        x = x - step * g
    return x, state.evaluations, state.best


@CASES.case(
    args=[
        (np.array([[4.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0])),
        (np.eye(3) * 2.0, np.array([2.0, 0.0, -4.0]), 1e-12),
    ]
)
def conjugate_gradient(a, b, tol=1e-10):
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = r @ r
    iterations = 0
    while math.sqrt(rs) > tol and iterations < 10:
        ap = a @ p
        alpha = rs / (p @ ap)
        x += alpha * p
        r -= alpha * ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
        iterations += 1
    return x, iterations


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(
    args=[
        (np.array([1.0, -2.0, 0.5]), np.zeros(3), GRADS),
        (np.array([0.0, 0.0, 0.0]), np.full(3, 0.1), GRADS[:2], 0.1),
    ]
)
def adagrad_inplace(w, cache, grads, lr=0.5, eps=1e-8):
    """Adagrad: the squared-gradient cache and the weights are both the caller's arrays."""
    for g in grads:
        cache += g**2
        w -= lr * g / (np.sqrt(cache) + eps)
    return w.sum()


def _adamw_state(n):
    return {"m": np.zeros(n), "v": np.zeros(n), "t": 0}


@CASES.case(
    args=[
        (np.array([1.0, 2.0, -1.0]), GRADS, _adamw_state(3)),
        (np.array([0.5, 0.5, 0.5]), GRADS[1:], _adamw_state(3), 0.05, 0.1),
    ]
)
def adamw_dict_state(params, grads, state, lr=1e-2, weight_decay=0.01):
    """AdamW with its moments kept in a dict the caller owns."""
    beta1, beta2 = 0.9, 0.999
    for g in grads:
        state["t"] += 1
        t = state["t"]
        state["m"] = beta1 * state["m"] + (1 - beta1) * g
        state["v"] = beta2 * state["v"] + (1 - beta2) * (g * g)
        m_hat = state["m"] / (1 - beta1**t)
        v_hat = state["v"] / (1 - beta2**t)
        params -= lr * (m_hat / (np.sqrt(v_hat) + 1e-8) + weight_decay * params)
    return params


def _quadratic_grad(x):
    return np.array([2.0 * x[0], 20.0 * x[1]])


@CASES.case(
    args=[(np.array([3.0, 1.0]),), (np.array([0.0, 0.0]),), (np.array([1.0, -1.0]), 0.05, 0.5)]
)
def nesterov_until_converged(x0, lr=0.04, momentum=0.9, tol=1e-6, max_iter=500):
    """Nesterov accelerated gradient on an ill-conditioned bowl until the gradient is small."""
    x = x0.copy()
    v = np.zeros_like(x)
    losses = []
    for it in range(max_iter):
        g = _quadratic_grad(x + momentum * v)
        if np.linalg.norm(g) < tol:
            break
        v = momentum * v - lr * g
        x = x + v
        losses.append(x[0] ** 2 + 10 * x[1] ** 2)
    else:
        print("did not converge")
    return x, len(losses), it


def _rosen(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def _rosen_grad(x):
    return np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)])


def _armijo(f, x, fx, g, d, alpha=1.0, c=1e-4, shrink=0.5):
    slope = g @ d
    while f(x + alpha * d) > fx + c * alpha * slope:
        alpha *= shrink
        if alpha < 1e-12:
            break
    return alpha


@CASES.case(
    args=[(np.array([-1.2, 1.0]), 40), (np.array([1.0, 1.0]), 5), (np.array([0.0, 0.0]), 3)]
)
def gradient_descent_armijo(x0, iters):
    """Steepest descent on Rosenbrock with an Armijo backtracking helper."""
    x = np.array(x0, dtype=float)
    trace = []
    for _ in range(iters):
        g = _rosen_grad(x)
        if g @ g == 0:
            break
        fx = _rosen(x)
        step = _armijo(_rosen, x, fx, g, -g)
        x = x - step * g
        trace.append(fx)
    return x, trace


@CASES.case(args=[(np.array([-1.2, 1.0]),), (np.array([0.5, 0.2]), 3, 30)])
def lbfgs_rosenbrock(x0, m=5, max_iter=60):
    """L-BFGS with the two-loop recursion, keeping the last m pairs in lists."""
    x = x0.copy()
    g = _rosen_grad(x)
    s_hist = []
    y_hist = []
    for k in range(max_iter):
        q = g.copy()
        alphas = []
        for s, y in zip(reversed(s_hist), reversed(y_hist)):
            rho = 1.0 / (y @ s)
            a = rho * (s @ q)
            q -= a * y
            alphas.append(a)
        if s_hist:
            gamma = (s_hist[-1] @ y_hist[-1]) / (y_hist[-1] @ y_hist[-1])
        else:
            gamma = 1.0
        r = gamma * q
        for (s, y), a in zip(zip(s_hist, y_hist), reversed(alphas)):
            rho = 1.0 / (y @ s)
            b = rho * (y @ r)
            r += s * (a - b)
        d = -r
        step = _armijo(_rosen, x, _rosen(x), g, d)
        x_new = x + step * d
        g_new = _rosen_grad(x_new)
        s_hist.append(x_new - x)
        y_hist.append(g_new - g)
        if len(s_hist) > m:
            s_hist.pop(0)
            y_hist.pop(0)
        x, g = x_new, g_new
        if np.linalg.norm(g) < 1e-8:
            break
    return x, k


@CASES.case(
    args=[(np.array([2.0, -1.0]), 0.5), (np.array([0.0, 0.0]), 1.0), (np.array([1.0, 1.0]), 0.25)]
)
def hooke_jeeves(x0, step, tol=1e-6):
    """Pattern search: explore each coordinate, halve the step when nothing improves."""

    def f(p):
        return (p[0] - 1) ** 2 + (p[1] + 0.5) ** 2 + 0.5 * p[0] * p[1]

    x = x0.astype(float)
    fx = f(x)
    evals = 1
    while step > tol:
        improved = False
        for i in range(len(x)):
            for sign in (1, -1):
                trial = x.copy()
                trial[i] += sign * step
                ft = f(trial)
                evals += 1
                if ft < fx:
                    x, fx = trial, ft
                    improved = True
                    break
        if not improved:
            step /= 2
    return x, fx, evals


@CASES.case(
    args=[
        (np.array([2.0, 2.0]), np.random.default_rng(7), 20),
        (np.array([-1.0, 0.5]), np.random.default_rng(11), 15, 2.0),
    ]
)
def simulated_annealing(x0, rng, steps, t0=1.0):
    """Simulated annealing with the caller's Generator: Gaussian moves, Metropolis acceptance."""

    def energy(p):
        return np.sum(p**2) + 2.0 * np.sin(3.0 * p[0])

    x = x0.copy()
    e = energy(x)
    best, best_e = x.copy(), e
    accepted = 0
    for k in range(steps):
        temp = t0 / (1 + k)
        cand = x + rng.normal(0.0, 0.3, size=x.shape)
        ec = energy(cand)
        if ec < e or rng.random() < math.exp(-(ec - e) / temp):
            x, e = cand, ec
            accepted += 1
            if e < best_e:
                best, best_e = x.copy(), e
    return best, best_e, accepted / steps


@CASES.case(args=[(np.array([-1.2, 1.0]),), (np.array([2.0, 2.0]), 1e-10, 5)])
def newton_2d_hessian(x, tol=1e-12, max_iter=50):
    """Newton's method on Rosenbrock with the Hessian solved by np.linalg.solve."""
    history = [x.copy()]
    for _ in range(max_iter):
        g = _rosen_grad(x)
        h = np.array(
            [
                [2 - 400 * (x[1] - 3 * x[0] ** 2), -400 * x[0]],
                [-400 * x[0], 200.0],
            ]
        )
        dx = np.linalg.solve(h, -g)
        x = x + dx
        history.append(x.copy())
        if np.max(np.abs(dx)) < tol:
            return x, len(history), True
    return x, len(history), False


class RMSPropState:
    """RMSprop with its squared average as an attribute array, updated in place."""

    def __init__(self, shape, lr=0.01, rho=0.9, eps=1e-6):
        self.lr, self.rho, self.eps = lr, rho, eps
        self.sq = np.zeros(shape)
        self.history = []

    def update(self, w, g):
        self.sq *= self.rho
        self.sq += (1 - self.rho) * g**2
        step = self.lr * g / (np.sqrt(self.sq) + self.eps)
        w -= step
        self.history.append(float(np.abs(step).max()))


@CASES.case(
    args=[
        (RMSPropState(3), np.ones(3), GRADS),
        (RMSPropState((3,), lr=0.1), np.zeros(3), GRADS[:2]),
    ]
)
def rmsprop_object_history(opt, w, grads):
    for g in grads:
        opt.update(w, g)
    return max(opt.history), len(opt.history)


@CASES.case(args=[(0.0, 3.0), (-1.0, 1.0, 1e-10), (2.0, 2.5)])
def golden_section_min(a, b, tol=1e-8):
    """Golden-section minimisation with math.sqrt(5), returning the point and the call count."""
    calls = 0

    def f(x):
        nonlocal calls
        calls += 1
        return (x - 1.7) ** 2 + 0.3 * math.sin(5 * x)

    invphi = (math.sqrt(5) - 1) / 2
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = f(c), f(d)
    while abs(b - a) > tol:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
    return (a + b) / 2, calls
