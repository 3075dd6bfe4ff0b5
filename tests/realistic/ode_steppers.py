"""ODE steppers from lecture notes: an explicit Euler loop that stores the trajectory in a
preallocated array, RK4 on a system with a right-hand side returning a new array, adaptive
RKF45 with step rejection, implicit Euler by Newton on a stiff scalar problem, a symplectic
Euler pendulum with energy drift, and an event found by bisection inside the last step."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("odes")


def _lotka(t, y, a=1.1, b=0.4, c=0.4, d=0.1):
    return np.array([a * y[0] - b * y[0] * y[1], d * y[0] * y[1] - c * y[1]])


@CASES.case(args=[(np.array([10.0, 5.0]), 0.01, 8), (np.array([1.0, 1.0], np.float32), 0.1, 5)])
def euler_trajectory_array(y0, h, steps):
    """Forward Euler on Lotka-Volterra, the whole trajectory kept in a (steps+1, 2) array."""
    out = np.empty((steps + 1, len(y0)), dtype=y0.dtype)
    out[0] = y0
    t = 0.0
    for k in range(steps):
        out[k + 1] = out[k] + h * _lotka(t, out[k])
        t += h
    return out


@CASES.case(args=[(np.array([10.0, 5.0]), 0.0, 2.0, 8), (np.array([2.0, 2.0]), 0.0, 1.0, 4)])
def rk4_system_lists(y0, t0, t1, n):
    """Classic RK4 with the times and states collected in lists, stacked at the end."""
    h = (t1 - t0) / n
    ts, ys = [t0], [y0]
    t, y = t0, y0
    for _ in range(n):
        k1 = _lotka(t, y)
        k2 = _lotka(t + h / 2, y + h / 2 * k1)
        k3 = _lotka(t + h / 2, y + h / 2 * k2)
        k4 = _lotka(t + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        t = t + h
        ts.append(t)
        ys.append(y)
    return np.array(ts), np.stack(ys)


@CASES.case(args=[(1.0, 0.0, 2.0, 1e-6), (0.5, 0.0, 1.0, 1e-4)])
def rkf45_adaptive(y0, t0, t1, tol):
    """Runge-Kutta-Fehlberg 4(5) on y' = -2ty + t: the step shrinks when the error estimate is
    over tol and grows by the safety formula; counts accepted and rejected steps."""

    def f(t, y):
        return -2 * t * y + t

    t, y, h = t0, y0, 0.1
    accepted = rejected = 0
    while t < t1:
        h = min(h, t1 - t)
        k1 = h * f(t, y)
        k2 = h * f(t + h / 4, y + k1 / 4)
        k3 = h * f(t + 3 * h / 8, y + 3 * k1 / 32 + 9 * k2 / 32)
        k4 = h * f(t + 12 * h / 13, y + 1932 * k1 / 2197 - 7200 * k2 / 2197 + 7296 * k3 / 2197)
        k5 = h * f(t + h, y + 439 * k1 / 216 - 8 * k2 + 3680 * k3 / 513 - 845 * k4 / 4104)
        k6 = h * f(
            t + h / 2,
            y - 8 * k1 / 27 + 2 * k2 - 3544 * k3 / 2565 + 1859 * k4 / 4104 - 11 * k5 / 40,
        )
        y4 = y + 25 * k1 / 216 + 1408 * k3 / 2565 + 2197 * k4 / 4104 - k5 / 5
        y5 = y + 16 * k1 / 135 + 6656 * k3 / 12825 + 28561 * k4 / 56430 - 9 * k5 / 50 + 2 * k6 / 55
        err = abs(y5 - y4)
        if err <= tol:
            t, y = t + h, y4
            accepted += 1
        else:
            rejected += 1
        h = 0.9 * h * (tol / max(err, 1e-16)) ** 0.2
    return y, accepted, rejected


@CASES.case(args=[(1.0, -50.0, 0.1, 10), (np.float64(2.0), -1000.0, 0.05, 5)])
def implicit_euler_newton(y0, lam, h, steps):
    """Backward Euler on the stiff y' = lam (y - cos t) - sin t, each step solved by Newton."""
    y, t = y0, 0.0
    ys = [y]
    for _ in range(steps):
        t_next = t + h
        z = y
        for _ in range(20):
            g = z - y - h * (lam * (z - math.cos(t_next)) - math.sin(t_next))
            dg = 1 - h * lam
            dz = g / dg
            z -= dz
            if abs(dz) < 1e-14:
                break
        y, t = z, t_next
        ys.append(y)
    return np.array(ys)


@CASES.case(args=[(1.0, 0.0, 0.05, 100), (np.float32(0.5), np.float32(0.0), 0.1, 20)])
def symplectic_euler_pendulum(theta, omega, h, steps):
    """Semi-implicit Euler for a pendulum: omega first, then theta with the new omega; the
    largest drift of the energy from its start."""
    e0 = 0.5 * omega**2 - math.cos(theta)
    drift = 0.0
    for _ in range(steps):
        omega = omega - h * math.sin(theta)
        theta = theta + h * omega
        e = 0.5 * omega**2 - math.cos(theta)
        drift = max(drift, abs(e - e0))
    return theta, omega, drift


@CASES.case(args=[(20.0, 5.0, 0.05), (10.0, 30.0, 0.1), (0.0, 0.0, 0.1)])
def ball_landing_time_bisection(h0, v0, dt):
    """Steps a falling ball with drag until it passes the ground, then bisects inside the last
    step (re-integrating from its start) for the landing time."""
    g, k = 9.81, 0.1
    t, h, v = 0.0, h0, v0
    if h0 <= 0:
        return 0.0, 0
    steps = 0
    while h > 0:
        t_prev, h_prev, v_prev = t, h, v
        v = v - dt * (g + k * v * abs(v))
        h = h + dt * v
        t += dt
        steps += 1
    lo, hi = 0.0, dt
    for _ in range(40):
        mid = (lo + hi) / 2
        vm = v_prev - mid * (g + k * v_prev * abs(v_prev))
        hm = h_prev + mid * vm
        if hm > 0:
            lo = mid
        else:
            hi = mid
    return t_prev + (lo + hi) / 2, steps


@CASES.case(
    args=[(np.array([1.0, 0.0, 0.0, 1.0]), 0.01, 30), (np.array([1.0, 0.0, 0.0, 0.8]), 0.05, 20)]
)
def velocity_verlet_kepler(state, h, steps):
    """Velocity Verlet for a planet around a unit mass; the angular momentum at each step, as
    a list of Python floats, shows how well it is kept."""
    r = state[:2].copy()
    v = state[2:].copy()
    a = -r / np.linalg.norm(r) ** 3
    momenta = []
    for _ in range(steps):
        r = r + h * v + 0.5 * h * h * a
        a_new = -r / np.linalg.norm(r) ** 3
        v = v + 0.5 * h * (a + a_new)
        a = a_new
        momenta.append(float(r[0] * v[1] - r[1] * v[0]))
    return r, v, momenta
