"""Conformance cases: imperative numeric routines that change their arguments and objects in place
(optimizer steps, filters, in-place sorts, running statistics, simulation steps), checked on the
result and on every argument's state after the call."""

import numpy as np

from tograph_conformance.case import Case, Registry

CASES = Registry("imperative")

VEC = np.array([0.5, -1.5, 2.0, 3.25, -0.75])
MAT = np.arange(12.0).reshape(4, 3) - 5.0


@CASES.case(args=[(VEC.copy(), np.zeros(5), VEC * 0.1)])
def sgd_momentum_step(w, velocity, grad):
    velocity *= 0.9
    velocity -= 0.01 * grad
    w += velocity
    return float(np.linalg.norm(velocity))


@CASES.case(args=[(VEC.copy(),), (np.array([3.0, 1.0, 2.0]),)], expect_ops={"while_loop"})
def insertion_sort_in_place(a):
    for i in range(1, a.shape[0]):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


@CASES.case(args=[(MAT.copy(),)])
def normalize_rows_in_place(m):
    for i in range(m.shape[0]):
        row = m[i]
        norm = np.sqrt(np.sum(row * row))
        if norm > 0:
            row /= norm
    return m.sum()


@CASES.case(args=[(np.zeros(4), VEC, np.array([0, 2, 2, 3, 0]))])
def histogram_accumulate(counts, values, bins):
    np.add.at(counts, bins, values)
    counts[counts < 0] = 0.0
    return counts.max()


@CASES.case(args=[(np.array([0.1, 0.5, 0.95]), np.array([0.3, -0.2, 0.2]), np.int64(5))])
def particles_reflect(pos, vel, steps):
    for _ in range(steps):
        pos += vel * 0.5
        out = (pos < 0) | (pos > 1)
        vel[out] = -vel[out]
        np.clip(pos, 0.0, 1.0, out=pos)
    return pos.mean()


@CASES.case(args=[(np.zeros((5, 5)), np.int64(30))], expect_ops={"while_loop"})
def gauss_seidel_laplace(u, sweeps):
    u[0, :] = 1.0
    for _ in range(sweeps):
        for i in range(1, u.shape[0] - 1):
            for j in range(1, u.shape[1] - 1):
                u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
    return u[2, 2]


@CASES.case(args=[(VEC.copy(),)])
def prefix_sums_in_place(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x[-1]


@CASES.case(args=[(VEC.copy(), 0.3), (MAT[0].copy(), 0.9)])
def exponential_smoothing_in_place(x, alpha):
    for i in range(1, x.shape[0]):
        x[i] = alpha * x[i] + (1 - alpha) * x[i - 1]


@CASES.case(args=[([VEC, VEC * 2], VEC)])
def append_to_a_history_list(history, x):
    history.append(x - history[-1])
    history[0] = history[0] * 0.5
    return len(history)


@CASES.case(args=[({"mean": np.zeros(5), "count": 0}, VEC)])
def running_mean_in_a_dict(state, x):
    state["count"] += 1
    state["mean"] += (x - state["mean"]) / state["count"]
    return state["mean"].sum()


class Welford:
    """Running mean and variance (Welford's method)."""

    def __init__(self, n):
        self.count = 0
        self.mean = np.zeros(n)
        self.m2 = np.zeros(n)

    def update(self, x):
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)

    def variance(self):
        if self.count < 2:
            return np.zeros_like(self.m2)
        return self.m2 / (self.count - 1)


def welford_update(stats, x):
    stats.update(x)
    return stats.variance()


class Adam:
    """The Adam optimizer's state, updated in place each step."""

    def __init__(self, n, lr=0.05):
        self.m = np.zeros(n)
        self.v = np.zeros(n)
        self.t = 0
        self.lr = lr

    def step(self, w, g):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        w -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)
        return w


def adam_steps(opt, w, g, steps):
    for _ in range(steps):
        w = opt.step(w, g * w)
    return w


class AlphaBeta:
    """An alpha-beta tracker with an innovation gate: a tensor branch over object state."""

    def __init__(self):
        self.x = 0.0
        self.v = 0.0
        self.rejected = 0

    def update(self, z, dt):
        predicted = self.x + self.v * dt
        residual = z - predicted
        if np.abs(residual) < 2.0:
            self.x = predicted + 0.85 * residual
            self.v = self.v + 0.005 * residual / dt
        else:
            self.x = predicted
            self.rejected = self.rejected + 1
        return self.x


def track(tracker, zs):
    out = np.zeros_like(zs)
    for i in range(zs.shape[0]):
        out[i] = tracker.update(zs[i], 0.1)
    return out


class RingBuffer:
    """A fixed-size buffer of recent values, written at a moving position."""

    def __init__(self, n):
        self.data = np.zeros(n)
        self.pos = 0

    def push(self, value):
        self.data[self.pos] = value
        self.pos = (self.pos + 1) % self.data.shape[0]


def push_all(ring, values):
    for v in values:
        ring.push(v)
    return ring.data.mean()


def _object_cases():
    yield Case("welford_object", "imperative", welford_update, ((Welford(5), VEC),))
    yield Case("adam_object", "imperative", adam_steps, ((Adam(5), VEC.copy(), VEC, 3),))
    yield Case(
        "alpha_beta_tracker_object",
        "imperative",
        track,
        ((AlphaBeta(), np.array([0.1, 0.25, 5.0, 0.4, 0.5])),),
        frozenset({"cond"}),
    )
    yield Case("ring_buffer_object", "imperative", push_all, ((RingBuffer(3), VEC),))


for _case in _object_cases():
    CASES.add(_case)
