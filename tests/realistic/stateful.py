"""Objects with state, as people write them: optimizers whose ``step()`` updates ``self.m`` and
``self.v``, Kalman and alpha-beta trackers, PID controllers, running statistics, parameters in
dataclasses and namedtuples, and state kept in dicts of arrays."""

import collections
import dataclasses
import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("stateful")

GRADS = np.array([[0.4, -1.0, 1.5], [0.2, 0.1, -0.8], [-0.6, 0.9, 0.3], [1.0, -0.2, 0.0]])
SIGNAL = np.array([0.2, 0.9, 1.4, 1.1, 2.3, 2.0, 2.8, 3.5, 3.1, 4.2])


class AdamOptimizer:
    """Adam with bias correction; the moments live on the object between calls."""

    def __init__(self, shape, lr=0.05, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0

    def step(self, params, grad):
        self.t += 1
        self.m = self.beta1 * self.m + (1.0 - self.beta1) * grad
        self.v = self.beta2 * self.v + (1.0 - self.beta2) * grad**2
        m_hat = self.m / (1.0 - self.beta1**self.t)
        v_hat = self.v / (1.0 - self.beta2**self.t)
        params[...] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


@CASES.case(
    args=[
        (AdamOptimizer(3), np.array([1.0, -1.0, 0.5]), GRADS),
        (AdamOptimizer((3,), lr=0.5, beta1=0.0), np.zeros(3), GRADS[1:3]),
    ]
)
def adam_object_training(opt, params, grads):
    """Runs Adam over a batch of gradients, printing the step count every other step."""
    for g in grads:
        opt.step(params, g)
        if opt.t % 2 == 0:
            print(f"step {opt.t}: |p| = {np.linalg.norm(params):.4f}")
    return params, opt.t


class RMSpropOptimizer:
    def __init__(self, lr=0.01, decay=0.9, eps=1e-8):
        self.lr = lr
        self.decay = decay
        self.eps = eps
        self.cache = None

    def step(self, w, g):
        if self.cache is None:
            self.cache = np.zeros_like(w)
        self.cache = self.decay * self.cache + (1 - self.decay) * g * g
        return w - self.lr * g / (np.sqrt(self.cache) + self.eps)


@CASES.case(args=[(np.ones(3), GRADS), (np.array([2.0, 0.0, -2.0]), GRADS[:1], 0.1)])
def rmsprop_lazy_cache(w, grads, lr=0.01):
    """RMSprop whose cache is made on the first step (``None`` until then)."""
    opt = RMSpropOptimizer(lr=lr)
    for g in grads:
        w = opt.step(w, g)
    return w, opt.cache


class MomentumSGD:
    def __init__(self, params, lr=0.1, momentum=0.9, nesterov=False):
        self.params = params
        self.lr = lr
        self.momentum = momentum
        self.nesterov = nesterov
        self.velocity = {name: np.zeros_like(p) for name, p in params.items()}

    def step(self, grads):
        for name, p in self.params.items():
            v = self.velocity[name]
            v *= self.momentum
            v += grads[name]
            if self.nesterov:
                p -= self.lr * (grads[name] + self.momentum * v)
            else:
                p -= self.lr * v


@CASES.case(
    args=[
        ({"w": np.array([1.0, 2.0]), "b": np.array([0.5])}, GRADS[:, :2], False),
        ({"w": np.array([-1.0, 0.0]), "b": np.array([0.0])}, GRADS[:2, :2], True),
    ]
)
def momentum_dict_params(params, grads, nesterov):
    """SGD with momentum over a dict of named parameter arrays, updated in place."""
    opt = MomentumSGD(params, lr=0.05, nesterov=nesterov)
    for g in grads:
        opt.step({"w": g, "b": g[:1] * 0.5})
    return sum(float(np.sum(p**2)) for p in params.values())


class KalmanFilter:
    """A constant-velocity Kalman filter over positions."""

    def __init__(self, dt, q, r):
        self.F = np.array([[1.0, dt], [0.0, 1.0]])
        self.H = np.array([[1.0, 0.0]])
        self.Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
        self.R = np.array([[r]])
        self.x = np.zeros(2)
        self.P = np.eye(2) * 10.0

    def predict(self):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q

    def update(self, z):
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ np.linalg.inv(S)
        self.x = self.x + K @ y
        self.P = (np.eye(2) - K @ self.H) @ self.P
        return float(y[0])


@CASES.case(args=[(SIGNAL, 1.0, 0.01, 0.5), (SIGNAL[:3], 0.5, 1.0, 2.0)])
def kalman_object_track(zs, dt, q, r):
    """Tracks positions with a Kalman filter object; returns the states and the innovations."""
    kf = KalmanFilter(dt, q, r)
    states = []
    innovations = []
    for z in zs:
        kf.predict()
        innovations.append(kf.update(np.array([z])))
        states.append(kf.x.copy())
    return np.array(states), innovations, kf.P


class PID:
    def __init__(self, kp, ki, kd, limit=None):
        self.kp, self.ki, self.kd = kp, ki, kd
        self.limit = limit
        self.integral = 0.0
        self.prev_error = None

    def update(self, setpoint, measured, dt):
        error = setpoint - measured
        self.integral += error * dt
        derivative = 0.0 if self.prev_error is None else (error - self.prev_error) / dt
        self.prev_error = error
        out = self.kp * error + self.ki * self.integral + self.kd * derivative
        if self.limit is not None:
            out = max(-self.limit, min(self.limit, out))
        return out


@CASES.case(args=[(1.0, 40, 0.05), (2.0, 15, 0.1, 0.8), (0.0, 5, 0.1)])
def pid_first_order_plant(setpoint, steps, dt, limit=None):
    """A PID loop driving a first-order plant with plain Python floats."""
    pid = PID(2.0, 0.8, 0.05, limit)
    y = 0.0
    trace = []
    for _ in range(steps):
        u = pid.update(setpoint, y, dt)
        y += dt * (-y + u)
        trace.append(round(y, 6))
    return y, pid.integral, trace


@CASES.case(args=[(SIGNAL, 1.5), (SIGNAL[::-1], 0.2, 8.0), (np.zeros(4), 1.0)])
def pid_on_array_measurements(measurements, setpoint, limit=5.0):
    """The same PID object driven by NumPy measurements: the state becomes NumPy scalars."""
    pid = PID(1.2, 0.3, 0.1, limit)
    outputs = np.empty_like(measurements)
    for i, m in enumerate(measurements):
        outputs[i] = pid.update(setpoint, m, 0.1)
    return outputs, pid.integral


class AlphaBetaTracker:
    def __init__(self, alpha, beta, x0=0.0, v0=0.0):
        self.alpha = alpha
        self.beta = beta
        self.x = x0
        self.v = v0

    def __call__(self, z, dt=1.0):
        x_pred = self.x + self.v * dt
        r = z - x_pred
        self.x = x_pred + self.alpha * r
        self.v = self.v + self.beta * r / dt
        return self.x


@CASES.case(args=[(SIGNAL, 0.5, 0.1), (SIGNAL[:4], 0.9, 0.0)])
def alpha_beta_callable(zs, alpha, beta):
    """A tracker object called like a function, one measurement at a time."""
    tracker = AlphaBetaTracker(alpha, beta, x0=zs[0])
    smoothed = [tracker(z) for z in zs]
    return np.array(smoothed), tracker.v


class RunningStats:
    """Welford's online mean and variance, also keeping the extremes."""

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


@CASES.case(args=[([3.0, 1.5, 4.0, 1.0, 5.5, 9.0],), ([2.0],), ([1.0, 1.0, 1.0, 7.0],)])
def running_stats_list(values):
    """Online statistics over a Python list of floats."""
    rs = RunningStats()
    for v in values:
        rs.push(v)
    return rs.n, rs.mean, rs.variance(), rs.lo, rs.hi


@CASES.case(args=[(SIGNAL,), (SIGNAL[:2] * 3.0,)])
def running_stats_array(values):
    """Online statistics over the elements of an array (NumPy scalars in the object)."""
    rs = RunningStats()
    for v in values:
        rs.push(v)
    return rs.mean, rs.variance(), rs.hi - rs.lo


class EMA:
    def __init__(self, span):
        self.alpha = 2.0 / (span + 1)
        self.value = None

    def update(self, x):
        if self.value is None:
            self.value = x
        else:
            self.value = self.alpha * x + (1 - self.alpha) * self.value
        return self.value


@CASES.case(args=[(SIGNAL, 3, 6), (SIGNAL[:5], 2, 4)])
def macd_objects(prices, fast, slow):
    """MACD from two EMA objects and a signal line EMA."""
    fast_ema, slow_ema, signal = EMA(fast), EMA(slow), EMA(3)
    macd, hist = [], []
    for p in prices:
        m = fast_ema.update(p) - slow_ema.update(p)
        s = signal.update(m)
        macd.append(m)
        hist.append(m - s)
    return np.array(macd), np.array(hist)


@dataclasses.dataclass
class OptionSpec:
    spot: float
    strike: float
    rate: float
    vol: float
    expiry: float
    is_call: bool = True


def _norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@CASES.case(
    args=[
        (OptionSpec(100.0, 95.0, 0.03, 0.2, 0.5),),
        (OptionSpec(50.0, 60.0, 0.01, 0.35, 2.0, is_call=False),),
        (OptionSpec(10.0, 10.0, 0.0, 0.3, 0.0),),
    ]
)
def black_scholes_dataclass(spec):
    """Black-Scholes price and delta of an option given as a dataclass; expiry 0 is intrinsic."""
    if spec.expiry <= 0:
        intrinsic = spec.spot - spec.strike if spec.is_call else spec.strike - spec.spot
        return max(intrinsic, 0.0), float(intrinsic > 0)
    sq = spec.vol * math.sqrt(spec.expiry)
    d1 = (math.log(spec.spot / spec.strike) + (spec.rate + 0.5 * spec.vol**2) * spec.expiry) / sq
    d2 = d1 - sq
    disc = math.exp(-spec.rate * spec.expiry)
    if spec.is_call:
        return spec.spot * _norm_cdf(d1) - spec.strike * disc * _norm_cdf(d2), _norm_cdf(d1)
    price = spec.strike * disc * _norm_cdf(-d2) - spec.spot * _norm_cdf(-d1)
    return price, _norm_cdf(d1) - 1.0


@CASES.case(
    args=[
        (np.array([90.0, 100.0, 110.0]), OptionSpec(0.0, 100.0, 0.02, 0.25, 1.0)),
        (np.array([100.0]), OptionSpec(0.0, 80.0, 0.05, 0.4, 0.25, False)),
    ]
)
def black_scholes_vectorized_spec(spots, spec):
    """Black-Scholes over an array of spots with the rest of the contract in a dataclass."""
    sq = spec.vol * np.sqrt(spec.expiry)
    d1 = (np.log(spots / spec.strike) + (spec.rate + spec.vol**2 / 2) * spec.expiry) / sq
    d2 = d1 - sq
    cdf = np.vectorize(_norm_cdf)
    disc = np.exp(-spec.rate * spec.expiry)
    if spec.is_call:
        return spots * cdf(d1) - spec.strike * disc * cdf(d2)
    return spec.strike * disc * cdf(-d2) - spots * cdf(-d1)


Params = collections.namedtuple("Params", ["lr", "l2", "epochs"])


@CASES.case(
    args=[
        (
            np.array([[1.0, 2.0], [2.0, 0.5], [3.0, 1.5], [0.5, 0.5]]),
            np.array([1.0, 1.0, 0.0, 0.0]),
            Params(0.1, 0.01, 8),
        ),
        (
            np.array([[0.0, 1.0], [1.0, 0.0]]),
            np.array([0.0, 1.0]),
            Params(lr=1.0, l2=0.0, epochs=3),
        ),
    ]
)
def logistic_regression_namedtuple(X, y, params):
    """Batch gradient descent for logistic regression, hyperparameters in a namedtuple."""
    w = np.zeros(X.shape[1])
    b = 0.0
    losses = []
    for epoch in range(params.epochs):
        p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        losses.append(loss + params.l2 * (w @ w))
        grad_w = X.T @ (p - y) / len(y) + 2 * params.l2 * w
        grad_b = np.mean(p - y)
        w -= params.lr * grad_w
        b -= params.lr * grad_b
    return w, b, losses[-1]


@dataclasses.dataclass
class Account:
    balance: float
    history: list = dataclasses.field(default_factory=list)

    def apply(self, amount):
        if self.balance + amount < 0:
            self.history.append(("rejected", amount))
            return False
        self.balance += amount
        self.history.append(("ok", amount))
        return True


@CASES.case(args=[([50.0, -20.0, -40.0, 15.5, -45.0],), ([-1.0],), ([],)])
def account_ledger(amounts):
    """A dataclass account applying deposits and withdrawals, counting rejections."""
    acct = Account(10.0)
    rejected = 0
    for a in amounts:
        if not acct.apply(a):
            rejected += 1
    return acct.balance, rejected, acct.history


class BollingerBands:
    def __init__(self, window, k=2.0):
        self.window = window
        self.k = k
        self.buffer = []

    def update(self, price):
        self.buffer.append(price)
        if len(self.buffer) > self.window:
            self.buffer.pop(0)
        if len(self.buffer) < self.window:
            return None
        mean = sum(self.buffer) / self.window
        var = sum((p - mean) ** 2 for p in self.buffer) / self.window
        sd = math.sqrt(var)
        return mean - self.k * sd, mean, mean + self.k * sd


@CASES.case(args=[([10.0, 10.5, 11.0, 10.2, 9.8, 12.5, 13.0, 11.1], 3), ([1.0, 2.0], 4)])
def bollinger_object(prices, window):
    """Bollinger bands from an object with a list buffer; signals where price leaves the band."""
    bands = BollingerBands(window)
    signals = []
    for t, p in enumerate(prices):
        band = bands.update(p)
        if band is None:
            continue
        lower, mid, upper = band
        if p > upper:
            signals.append((t, "sell"))
        elif p < lower:
            signals.append((t, "buy"))
    return signals, len(bands.buffer)


def _new_state(n):
    return {"mean": np.zeros(n), "var": np.ones(n), "count": 0}


@CASES.case(
    args=[
        (_new_state(3), GRADS, 0.1),
        (_new_state(3), GRADS[:1], 0.9),
    ]
)
def batchnorm_running_stats(state, batches, momentum):
    """Batch-norm running statistics in a dict of arrays, updated per mini-batch row pairs."""
    outs = []
    for i in range(0, len(batches), 2):
        batch = batches[i : i + 2]
        mu = batch.mean(axis=0)
        var = batch.var(axis=0)
        state["mean"] = (1 - momentum) * state["mean"] + momentum * mu
        state["var"] = (1 - momentum) * state["var"] + momentum * var
        state["count"] += len(batch)
        outs.append((batch - mu) / np.sqrt(var + 1e-5))
    return np.concatenate(outs), state["count"]


class Particle:
    def __init__(self, position, velocity):
        self.position = position
        self.velocity = velocity
        self.best = position.copy()
        self.best_value = math.inf


def _sphere(p):
    return float(np.sum((p - 0.5) ** 2))


@CASES.case(args=[(np.random.default_rng(3), 4, 10), (np.random.default_rng(9), 2, 3)])
def particle_swarm(rng, n_particles, iters):
    """Particle swarm optimisation with a list of particle objects and a seeded Generator."""
    swarm = [
        Particle(rng.uniform(-2, 2, size=2), rng.uniform(-0.5, 0.5, size=2))
        for _ in range(n_particles)
    ]
    g_best, g_value = None, math.inf
    for _ in range(iters):
        for particle in swarm:
            value = _sphere(particle.position)
            if value < particle.best_value:
                particle.best_value = value
                particle.best = particle.position.copy()
            if value < g_value:
                g_value = value
                g_best = particle.position.copy()
        for particle in swarm:
            r1, r2 = rng.random(2)
            particle.velocity = (
                0.7 * particle.velocity
                + 1.5 * r1 * (particle.best - particle.position)
                + 1.5 * r2 * (g_best - particle.position)
            )
            particle.position = particle.position + particle.velocity
    return g_best, g_value


class Thermostat:
    """A bang-bang controller with hysteresis; its mode is a string."""

    def __init__(self, target, band):
        self.target = target
        self.band = band
        self.mode = "idle"
        self.switches = 0

    def step(self, temperature):
        previous = self.mode
        if temperature < self.target - self.band:
            self.mode = "heat"
        elif temperature > self.target + self.band:
            self.mode = "idle"
        if self.mode != previous:
            self.switches += 1
        return self.mode == "heat"


@CASES.case(args=[(18.0, 21.0, 0.5, 30), (25.0, 21.0, 1.0, 10)])
def thermostat_simulation(start, target, band, minutes):
    """Simulates a room heated by a thermostat object; the room temperature is a Python float."""
    room = start
    thermo = Thermostat(target, band)
    heated = 0
    for _ in range(minutes):
        on = thermo.step(room)
        room += 0.4 if on else -0.1 * (room - 15.0) / 5.0
        heated += on
    return round(room, 4), heated, thermo.switches, thermo.mode


class LinearRegressor:
    def __init__(self):
        self.coef_ = None
        self.intercept_ = None

    def fit(self, X, y):
        A = np.column_stack([np.ones(len(X)), X])
        sol, *_ = np.linalg.lstsq(A, y, rcond=None)
        self.intercept_ = sol[0]
        self.coef_ = sol[1:]
        return self

    def predict(self, X):
        return self.intercept_ + X @ self.coef_

    def score(self, X, y):
        resid = y - self.predict(X)
        return 1.0 - resid @ resid / np.sum((y - y.mean()) ** 2)


@CASES.case(
    args=[
        (
            np.array([[1.0, 0.5], [2.0, 1.0], [3.0, 0.0], [4.0, 2.5], [5.0, 1.0]]),
            np.array([1.2, 2.1, 2.9, 5.2, 5.1]),
        ),
    ]
)
def linear_regressor_fit_score(X, y):
    """A scikit-learn style estimator: fit returns self, attributes end with an underscore."""
    model = LinearRegressor().fit(X, y)
    return model.coef_, model.intercept_, model.score(X, y)


class ExponentialDecaySchedule:
    def __init__(self, lr0, decay, every):
        self.lr0 = lr0
        self.decay = decay
        self.every = every

    def __call__(self, step):
        return self.lr0 * self.decay ** (step // self.every)


@CASES.case(args=[(np.array([3.0, -4.0]), 20), (np.array([0.1, 0.1]), 5)])
def sgd_with_schedule(w, steps):
    """Gradient descent on a quadratic with a step-decay learning-rate schedule object."""
    schedule = ExponentialDecaySchedule(0.3, 0.5, 5)
    w = w.copy()
    for step in range(steps):
        lr = schedule(step)
        grad = np.array([2.0, 8.0]) * w
        w -= lr * grad
    return w, schedule(steps)


class EarlyStopping:
    def __init__(self, patience, min_delta=0.0):
        self.patience = patience
        self.min_delta = min_delta
        self.best = math.inf
        self.bad_epochs = 0

    def should_stop(self, loss):
        if loss < self.best - self.min_delta:
            self.best = loss
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
        return self.bad_epochs >= self.patience


@CASES.case(args=[(np.array([4.0, 1.0]), 0.3, 2), (np.array([1.0, 1.0]), 1.1, 3)])
def training_with_early_stopping(w, lr, patience):
    """Gradient descent that stops when the loss stops improving, reported with print."""
    stopper = EarlyStopping(patience, min_delta=1e-4)
    for epoch in range(50):
        loss = float(w @ w)
        if stopper.should_stop(loss):
            print(f"stopping at epoch {epoch}, best loss {stopper.best:.5f}")
            break
        w = w - lr * 2 * w
    return w, stopper.best, epoch
