"""Classes whose methods keep state between calls, written the way tutorials and small projects
write them: a Kalman filter object with ``self.x`` and ``self.P``, optimizer objects counting
``self.t += 1``, running-statistics accumulators, a ring buffer with a write index, an order book
held in arrays, a particle filter seeded with ``np.random.default_rng``; objects made inside the
routine and objects passed in (whose state afterwards is compared too)."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("stateful")

MEASUREMENTS = np.array([1.1, 0.9, 1.4, 1.8, 2.1, 2.0, 2.6, 3.1])
GRADS = np.array([[0.3, -0.8], [0.1, 0.5], [-0.4, 0.2], [0.6, -0.1], [0.0, 0.3]])


class KalmanFilter1D:
    """A scalar random-walk Kalman filter; ``update`` returns the new estimate."""

    def __init__(self, x0, p0, q, r):
        self.x = x0
        self.p = p0
        self.q = q
        self.r = r

    def predict(self):
        self.p = self.p + self.q

    def update(self, z):
        k = self.p / (self.p + self.r)
        self.x = self.x + k * (z - self.x)
        self.p = (1 - k) * self.p
        return self.x


@CASES.case(
    args=[
        (MEASUREMENTS, 0.01, 0.5),
        (MEASUREMENTS.astype(np.float32), 0.1, 0.1),
        (np.array([5.0]), 1.0, 1.0),
    ]
)
def kalman_object_loop(zs, q, r):
    """Filters a measurement series with a filter object made here; returns the estimates as an
    array and the final variance."""
    kf = KalmanFilter1D(0.0, 1.0, q, r)
    out = np.empty_like(zs)
    for i in range(len(zs)):
        kf.predict()
        out[i] = kf.update(zs[i])
    return out, kf.p


class ConstantVelocityKF:
    """A 2-state (position, velocity) Kalman filter with matrices on the object."""

    def __init__(self, dt, q, r):
        self.F = np.array([[1.0, dt], [0.0, 1.0]])
        self.H = np.array([[1.0, 0.0]])
        self.Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
        self.R = np.array([[r]])
        self.x = np.zeros((2, 1))
        self.P = np.eye(2) * 10.0

    def step(self, z):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ np.linalg.inv(S)
        self.x = self.x + K @ y
        self.P = (np.eye(2) - K @ self.H) @ self.P
        return self.x[0, 0], self.x[1, 0]


@CASES.case(args=[(MEASUREMENTS, 1.0), (MEASUREMENTS[:3], 0.5)])
def constant_velocity_tracker(zs, dt):
    """Tracks position and velocity; the velocities are collected in a Python list."""
    kf = ConstantVelocityKF(dt, 0.05, 0.3)
    positions = np.zeros(len(zs))
    velocities = []
    for k, z in enumerate(zs):
        pos, vel = kf.step(z)
        positions[k] = pos
        velocities.append(vel)
    return positions, np.array(velocities), np.trace(kf.P)


class Adam:
    def __init__(self, lr=0.01, b1=0.9, b2=0.999, eps=1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.m = None
        self.v = None
        self.t = 0

    def update(self, w, g):
        if self.m is None:
            self.m = np.zeros_like(w)
            self.v = np.zeros_like(w)
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * (g * g)
        mhat = self.m / (1 - self.b1**self.t)
        vhat = self.v / (1 - self.b2**self.t)
        return w - self.lr * mhat / (np.sqrt(vhat) + self.eps)


@CASES.case(args=[(np.array([1.0, -2.0]), GRADS), (np.array([0.5, 0.5]), GRADS[:2])])
def adam_lazy_moments(w, grads):
    """Adam whose moments are made on the first update; returns the weights and the step count."""
    opt = Adam(lr=0.1)
    for g in grads:
        w = opt.update(w, g)
    return w, opt.t, opt.m


class SGDMomentum:
    def __init__(self, params, lr, mu):
        self.params = params
        self.lr = lr
        self.mu = mu
        self.velocity = [np.zeros_like(p) for p in params]
        self.steps = 0

    def step(self, grads):
        for p, v, g in zip(self.params, self.velocity, grads):
            v *= self.mu
            v -= self.lr * g
            p += v
        self.steps += 1


@CASES.case(
    args=[
        (np.array([1.0, 2.0]), np.array([[0.5]]), 3),
        (np.array([0.0, -1.0]), np.array([[2.0]]), 1),
    ]
)
def momentum_object_inplace(w, b, n_steps):
    """An optimizer object updating the caller's arrays in place through ``+=`` on a list of
    parameters; the gradients of a quadratic are computed from the live parameters."""
    opt = SGDMomentum([w, b], lr=0.1, mu=0.9)
    for _ in range(n_steps):
        grads = [2.0 * w, 2.0 * (b - 1.0)]
        opt.step(grads)
    return opt.steps, float(np.sum(w * w) + np.sum((b - 1.0) ** 2))


class RunningStats:
    """Welford's accumulator with min and max."""

    def __init__(self):
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.lo = math.inf
        self.hi = -math.inf

    def push(self, x):
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)
        self.lo = min(self.lo, x)
        self.hi = max(self.hi, x)

    def variance(self):
        return self.m2 / (self.n - 1) if self.n > 1 else 0.0


@CASES.case(args=[([3.0, 1.5, 4.0, 1.0, 5.5],), ([2.0],), ([1, 2, 3, 4],)])
def running_stats_on_list(values):
    """Feeds a Python list through the accumulator; everything stays a Python number."""
    rs = RunningStats()
    for v in values:
        rs.push(v)
    return rs.n, rs.mean, rs.variance(), rs.lo, rs.hi


@CASES.case(args=[(MEASUREMENTS,), (MEASUREMENTS.astype(np.float32),), (np.array([2.0, 2.0]),)])
def running_stats_on_array(values):
    """The same accumulator fed NumPy scalars; min() and max() start from Python infinities."""
    rs = RunningStats()
    for v in values:
        rs.push(v)
    return rs.n, rs.mean, rs.variance(), rs.lo, rs.hi


class RingBuffer:
    """A fixed-size buffer of floats with a write index that wraps."""

    def __init__(self, size):
        self.data = np.zeros(size)
        self.index = 0
        self.full = False

    def add(self, x):
        self.data[self.index] = x
        self.index = (self.index + 1) % len(self.data)
        if self.index == 0:
            self.full = True

    def mean(self):
        if self.full:
            return self.data.mean()
        if self.index == 0:
            return 0.0
        return self.data[: self.index].mean()


@CASES.case(args=[(MEASUREMENTS, 3), (MEASUREMENTS[:2], 4), (MEASUREMENTS, 8)])
def ring_buffer_moving_average(xs, size):
    """A moving average through a ring buffer object; the buffer's state is returned too."""
    buf = RingBuffer(size)
    out = []
    for x in xs:
        buf.add(x)
        out.append(buf.mean())
    return np.array(out), buf.index, buf.full


class OrderBook:
    """Bids and asks as price/size arrays; a market order walks the book."""

    def __init__(self, bid_px, bid_sz, ask_px, ask_sz):
        self.bid_px = bid_px
        self.bid_sz = bid_sz
        self.ask_px = ask_px
        self.ask_sz = ask_sz

    def spread(self):
        return self.ask_px[0] - self.bid_px[0]

    def buy(self, qty):
        cost = 0.0
        i = 0
        while qty > 0 and i < len(self.ask_px):
            take = min(qty, self.ask_sz[i])
            cost += take * self.ask_px[i]
            self.ask_sz[i] -= take
            qty -= take
            i += 1
        return cost, qty


BOOK = (
    np.array([99.5, 99.0, 98.0]),
    np.array([10.0, 5.0, 20.0]),
    np.array([100.0, 100.5, 101.5]),
    np.array([4.0, 6.0, 10.0]),
)


@CASES.case(args=[(*BOOK, 7.0), (*BOOK, 25.0), (*BOOK, 0.0)])
def order_book_market_buy(bid_px, bid_sz, ask_px, ask_sz, qty):
    """Walks the asks of an order book object built on the caller's arrays (the sizes are
    changed in place); returns the average fill price or nan, and what was left unfilled."""
    book = OrderBook(bid_px, bid_sz, ask_px, ask_sz)
    spread = book.spread()
    cost, left = book.buy(qty)
    filled = qty - left
    avg = cost / filled if filled > 0 else float("nan")
    return spread, avg, left


class ParticleFilter:
    def __init__(self, n, seed):
        self.rng = np.random.default_rng(seed)
        self.particles = self.rng.normal(0.0, 1.0, n)
        self.weights = np.full(n, 1.0 / n)

    def predict(self, step_sd):
        self.particles = self.particles + self.rng.normal(0.0, step_sd, len(self.particles))

    def update(self, z, meas_sd):
        like = np.exp(-0.5 * ((z - self.particles) / meas_sd) ** 2)
        self.weights = self.weights * like + 1e-300
        self.weights /= self.weights.sum()

    def resample(self):
        n = len(self.particles)
        positions = (self.rng.random() + np.arange(n)) / n
        idx = np.searchsorted(np.cumsum(self.weights), positions)
        idx = np.minimum(idx, n - 1)
        self.particles = self.particles[idx]
        self.weights = np.full(n, 1.0 / n)

    def estimate(self):
        return np.sum(self.particles * self.weights)


@CASES.case(args=[(MEASUREMENTS[:4], 16, 3), (MEASUREMENTS[:2], 8, 11)])
def particle_filter_systematic(zs, n, seed):
    """A bootstrap particle filter with systematic resampling, seeded per call."""
    pf = ParticleFilter(n, seed)
    est = []
    for z in zs:
        pf.predict(0.2)
        pf.update(z, 0.5)
        est.append(pf.estimate())
        pf.resample()
    return np.array(est)


class PID:
    def __init__(self, kp, ki, kd, dt, out_min=-1.0, out_max=1.0):
        self.kp, self.ki, self.kd, self.dt = kp, ki, kd, dt
        self.out_min, self.out_max = out_min, out_max
        self.integral = 0.0
        self.prev_error = None

    def __call__(self, setpoint, measured):
        error = setpoint - measured
        if self.prev_error is None:
            derivative = 0.0
        else:
            derivative = (error - self.prev_error) / self.dt
        self.prev_error = error
        candidate = self.integral + error * self.dt
        out = self.kp * error + self.ki * candidate + self.kd * derivative
        if self.out_min < out < self.out_max:
            self.integral = candidate
        return min(max(out, self.out_min), self.out_max)


@CASES.case(args=[(1.0, 12), (-0.5, 5), (0.0, 3)])
def pid_callable_object_plant(setpoint, steps):
    """A PID controller object called like a function, with anti-windup by conditional
    integration, driving a first-order plant held as a Python float."""
    pid = PID(2.0, 0.5, 0.1, 0.1)
    y = 0.0
    trace = np.zeros(steps)
    for k in range(steps):
        u = pid(setpoint, y)
        y += 0.1 * (u - y)
        trace[k] = y
    return trace, pid.integral


class ExponentialMovingStats:
    """EWMA mean and variance (West's incremental form)."""

    def __init__(self, alpha):
        self.alpha = alpha
        self.mean = None
        self.var = 0.0

    def update(self, x):
        if self.mean is None:
            self.mean = x
            return
        diff = x - self.mean
        incr = self.alpha * diff
        self.mean = self.mean + incr
        self.var = (1 - self.alpha) * (self.var + diff * incr)


@CASES.case(args=[(MEASUREMENTS, 0.3), (MEASUREMENTS.astype(np.float32), 0.5)])
def ewm_stats_object(xs, alpha):
    """EWMA mean and standard deviation after each sample, as two arrays."""
    s = ExponentialMovingStats(alpha)
    means = np.zeros(len(xs))
    sds = np.zeros(len(xs))
    for i, x in enumerate(xs):
        s.update(x)
        means[i] = s.mean
        sds[i] = np.sqrt(s.var)
    return means, sds


class Histogram:
    """A fixed-bin histogram that counts values as they arrive and keeps an overflow count."""

    def __init__(self, lo, hi, bins):
        self.lo = lo
        self.width = (hi - lo) / bins
        self.counts = np.zeros(bins, dtype=np.int64)
        self.overflow = 0

    def add(self, x):
        b = int((x - self.lo) // self.width)
        if 0 <= b < len(self.counts):
            self.counts[b] += 1
        else:
            self.overflow += 1


@CASES.case(args=[(MEASUREMENTS, 1.0, 3.0, 4), (np.array([-1.0, 10.0]), 0.0, 1.0, 2)])
def streaming_histogram_object(xs, lo, hi, bins):
    """Fills the streaming histogram one value at a time; compares with np.histogram's counts
    where nothing overflowed."""
    h = Histogram(lo, hi, bins)
    for x in xs:
        h.add(x)
    inside = xs[(xs >= lo) & (xs < hi)]
    reference, _ = np.histogram(inside, bins=bins, range=(lo, hi))
    return h.counts, h.overflow, reference


class Account:
    """A bank account with interest and a fee charged when the balance dips below a floor."""

    def __init__(self, balance, rate, floor, fee):
        self.balance = balance
        self.rate = rate
        self.floor = floor
        self.fee = fee
        self.fees_paid = 0.0

    def month(self, flow):
        self.balance += flow
        if self.balance < self.floor:
            self.balance -= self.fee
            self.fees_paid += self.fee
        else:
            self.balance *= 1 + self.rate / 12


@CASES.case(
    args=[
        (Account(1000.0, 0.05, 500.0, 25.0), np.array([-300.0, -400.0, 200.0, 900.0])),
        (Account(100.0, 0.02, 0.0, 10.0), np.array([50.0, -200.0])),
    ]
)
def account_object_passed_in(acct, flows):
    """Runs a month per cash flow on an account passed in; the object's state afterwards is
    compared with eager's."""
    for f in flows:
        acct.month(f)
    return round(acct.balance, 2), acct.fees_paid


class LinearRegressionSGD:
    def __init__(self, n_features, lr):
        self.w = np.zeros(n_features)
        self.b = 0.0
        self.lr = lr
        self.history = []

    def fit_epoch(self, X, y):
        loss = 0.0
        for i in range(X.shape[0]):
            pred = X[i] @ self.w + self.b
            err = pred - y[i]
            self.w -= self.lr * err * X[i]
            self.b -= self.lr * err
            loss += err * err
        self.history.append(loss / X.shape[0])


X_DESIGN = np.array([[1.0, 0.5], [0.2, 1.5], [1.3, -0.4], [0.7, 0.9]])
Y_TARGET = np.array([1.4, 2.1, 0.3, 1.9])


@CASES.case(args=[(X_DESIGN, Y_TARGET, 3), (X_DESIGN[:2], Y_TARGET[:2], 1)])
def sgd_regressor_object(X, y, epochs):
    """Per-sample SGD on a model object made here that logs its loss per epoch in a list."""
    model = LinearRegressionSGD(X.shape[1], 0.05)
    for _ in range(epochs):
        model.fit_epoch(X, y)
    return model.w, model.b, model.history
