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
