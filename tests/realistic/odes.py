"""ODE steppers as people write them: classic RK4 on a right-hand side function, Euler with a
step-doubling error control, Heun, velocity Verlet for an oscillator, an SIR model stepping a
state object, and RK45-style adaptive steps that stop at an event."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import rk4_step

CASES = Registry("odes")


def _decay(t, y):
    return -0.5 * y + math.sin(t)


@CASES.case(
    args=[(1.0, 0.0, 2.0, 0.1), (np.float64(0.5), 1.0, 1.5, 0.25), (1.0, 0.0, np.float64(0.3), 0.1)]
)
def rk4_scalar(y0, t0, t_end, h):
    """RK4 on a scalar equation up to t_end, the last step shortened to land on it."""
    t, y = t0, y0
    ts, ys = [t], [y]
    while t < t_end - 1e-12:
        step = min(h, t_end - t)
        y = rk4_step(_decay, t, y, step)
        t = t + step
        ts.append(t)
        ys.append(y)
    return np.array(ts), np.array(ys)


@CASES.case(args=[(1.0, 3.0, 1e-4), (np.float64(2.0), 1.0, 1e-6), (1.0, np.float64(0.0), 1e-3)])
def euler_adaptive(y0, t_end, tol, h=0.1):
    """Explicit Euler with step doubling: a step is accepted when one full step and two half steps
    agree to tol, and the step grows or shrinks by the error."""
    t, y = 0.0, y0
    accepted = rejected = 0
    while t < t_end:
        h = min(h, t_end - t)
        full = y + h * _decay(t, y)
        half = y + h / 2 * _decay(t, y)
        two_halves = half + h / 2 * _decay(t + h / 2, half)
        err = abs(two_halves - full)
        if err <= tol:
            t += h
            y = two_halves
            accepted += 1
        else:
            rejected += 1
        h *= 0.9 * min(2.0, max(0.2, math.sqrt(tol / max(err, 1e-16))))
    return y, accepted, rejected


@CASES.case(args=[(np.array([1.0, 0.0]), 0.05, 100, 4.0), (np.array([0.0, 2.0]), 0.5, 3, 1.0)])
def verlet_oscillator(state, dt, steps, k):
    """Velocity Verlet for x'' = -k x; the energy drift is reported."""
    x, v = state
    a = -k * x
    energy0 = 0.5 * v * v + 0.5 * k * x * x
    for _ in range(steps):
        x = x + v * dt + 0.5 * a * dt * dt
        a_new = -k * x
        v = v + 0.5 * (a + a_new) * dt
        a = a_new
    energy = 0.5 * v * v + 0.5 * k * x * x
    return np.array([x, v]), energy - energy0


@CASES.case(args=[(np.array([0.0, 1.0, 2.0]), 0.2, 10), (np.zeros(1, dtype=np.float32), 0.1, 2)])
def heun_vector(y0, h, steps):
    """Heun's method on y' = -y + t with a whole vector of initial values."""
    y = y0.copy()
    t = 0.0
    for _ in range(steps):
        k1 = -y + t
        k2 = -(y + h * k1) + (t + h)
        y += h / 2 * (k1 + k2)
        t += h
    return y


class SIR:
    def __init__(self, beta, gamma, population):
        self.beta = beta
        self.gamma = gamma
        self.n = population
        self.state = np.array([population - 1.0, 1.0, 0.0])
        self.day = 0

    def step(self, dt):
        s, i, r = self.state
        new_inf = self.beta * s * i / self.n * dt
        new_rec = self.gamma * i * dt
        self.state = self.state + np.array([-new_inf, new_inf - new_rec, new_rec])
        self.day += 1


@CASES.case(args=[(SIR(0.6, 0.1, 1000.0), 25), (SIR(0.05, 0.2, 50.0), 5)])
def sir_peak(model, days):
    """Runs the model a day at a time; returns the day and size of the infection peak."""
    peak_day, peak = 0, 0.0
    for _ in range(days):
        model.step(1.0)
        infected = model.state[1]
        if infected > peak:
            peak, peak_day = infected, model.day
    return peak_day, peak


@CASES.case(
    args=[(10.0, 0.0), (np.float64(0.5), 3.0), (np.float64(-1.0), 0.0), (1.0, np.float32(2.0))]
)
def projectile_until_ground(height, speed, g=9.81, dt=0.01):
    """Euler steps of a falling ball with drag until it hits the ground; raises on bad input."""
    if height < 0:
        raise ValueError("height must be non-negative")
    y, v, t = height, speed, 0.0
    while True:
        v -= (g + 0.1 * v * abs(v)) * dt
        y += v * dt
        t += dt
        if y <= 0:
            break
    return round(t, 2), v


# ---- round 3 ------------------------------------------------------------------------------------


def _pendulum(t, y, damping=0.1):
    return np.array([y[1], -math.sin(y[0]) - damping * y[1]])


@CASES.case(args=[(np.array([1.0, 0.0]), 0.1, 20), (np.array([0.2, 0.5]), 0.05, 5, 0.0)])
def midpoint_pendulum(y0, h, steps, damping=0.1):
    """The explicit midpoint method on a damped pendulum, keeping every state in a 2-D array."""
    ys = np.zeros((steps + 1, len(y0)))
    ys[0] = y0
    t = 0.0
    for n in range(steps):
        k1 = _pendulum(t, ys[n], damping)
        k2 = _pendulum(t + h / 2, ys[n] + h / 2 * k1, damping)
        ys[n + 1] = ys[n] + h * k2
        t += h
    return ys, t


@CASES.case(args=[(1.0, 0.0, 2.0), (0.5, 0.0, 1.0, 1e-8), (1.0, 0.0, 0.0)])
def rk23_adaptive(y0, t0, t_end, tol=1e-6):
    """Bogacki-Shampine 2(3) with step-size control on y' = -2ty + t; counts rejected steps."""

    def f(t, y):
        return -2 * t * y + t

    t, y, h = t0, y0, 0.1
    rejected = 0
    ts, ys = [t], [y]
    while t < t_end:
        h = min(h, t_end - t)
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + 3 * h / 4, y + 3 * h / 4 * k2)
        y3 = y + h * (2 * k1 + 3 * k2 + 4 * k3) / 9
        k4 = f(t + h, y3)
        y2 = y + h * (7 * k1 / 24 + k2 / 4 + k3 / 3 + k4 / 8)
        err = abs(y3 - y2)
        if err <= tol:
            t += h
            y = y3
            ts.append(t)
            ys.append(y)
        else:
            rejected += 1
        h = 0.9 * h * (tol / max(err, 1e-16)) ** (1 / 3)
    return np.array(ts), np.array(ys), rejected


@CASES.case(
    args=[
        (np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([[0.0, 0.5], [0.0, -0.5]]), 0.01, 30),
        (np.array([[0.0, 0.0], [2.0, 0.0]]), np.zeros((2, 2)), 0.05, 4),
    ]
)
def leapfrog_two_body(pos, vel, dt, steps):
    """Kick-drift-kick leapfrog for two equal masses; positions and velocities updated in place."""

    def accel(p):
        r = p[1] - p[0]
        d3 = np.linalg.norm(r) ** 3
        return np.array([r / d3, -r / d3])

    a = accel(pos)
    energies = []
    for _ in range(steps):
        vel += 0.5 * dt * a
        pos += dt * vel
        a = accel(pos)
        vel += 0.5 * dt * a
        kinetic = 0.5 * np.sum(vel**2)
        potential = -1.0 / np.linalg.norm(pos[1] - pos[0])
        energies.append(kinetic + potential)
    return max(energies) - min(energies)
