"""Conformance cases: real-world numerical loops (Newton, bisection, power iteration, fixed points,
ODE steps, sorting and searching, number theory, recurrent networks, softmax, statistics)."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("numerics")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])


@CASES.case(
    args=[(f64(2.0), f64(1e-12)), (f64(1e6), f64(1e-6)), (f64(1.0), f64(1e-9))],
    expect_ops={"while_loop"},
)
def newton_sqrt(a, tol):
    x = a
    while abs(x * x - a) > tol * a:
        x = 0.5 * (x + a / x)
    return x


@CASES.case(args=[(f64(27.0),), (f64(-8.0),)], expect_ops={"cond"})
def newton_cube_root_max_iter(a):
    x = a / 3 + 1.0
    for it in range(50):
        step = (x**3 - a) / (3 * x * x)
        x = x - step
        if abs(step) < 1e-12:
            break
    return x, it


@CASES.case(args=[(f64(1.0), f64(2.0)), (f64(0.0), f64(3.0))], expect_ops={"while_loop", "cond"})
def bisection(lo, hi):
    n = 0
    while hi - lo > 1e-10:
        mid = (lo + hi) / 2
        if mid**3 - mid - 2 > 0:
            hi = mid
        else:
            lo = mid
        n += 1
    return (lo + hi) / 2, n


@CASES.case(
    args=[(SPD, f64(1e-10)), (np.diag([3.0, 1.0, 0.5]), f64(1e-8))], expect_ops={"while_loop"}
)
def power_iteration(a, tol):
    v = np.ones(a.shape[0]) / np.sqrt(a.shape[0])
    lam = 0.0 * tol
    delta = tol + 1.0
    it = 0
    while delta > tol and it < 1000:
        w = a @ v
        new_lam = v @ w
        v = w / np.linalg.norm(w)
        delta = abs(new_lam - lam)
        lam = new_lam
        it += 1
    return lam, v, it


@CASES.case(
    args=[(np.int64(27),), (np.int64(1),), (np.int64(6),)], expect_ops={"while_loop", "cond"}
)
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@CASES.case(
    args=[(np.int64(48), np.int64(18)), (np.int64(17), np.int64(5)), (np.int64(7), np.int64(0))],
    expect_ops={"while_loop"},
)
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


@CASES.case(
    args=[(np.int64(4), np.int64(6)), (np.int64(21), np.int64(6))], expect_ops={"while_loop"}
)
def lcm_via_helper(a, b):
    return a * b // _gcd(a, b)


@CASES.case(args=[(VEC,), (np.arange(1.0, 7.0),)], expect_ops={"while_loop"})
def cumulative_sum_loop(x):
    out = np.zeros_like(x)
    running = 0.0 * x[0]
    for i, v in enumerate(x):
        running = running + v
        out[i] = running
    return out


@CASES.case(
    args=[
        (np.linspace(-1, 1, 12).reshape(4, 3), np.eye(2) * 0.5, np.ones((2, 3)) * 0.1, np.zeros(2))
    ],
    expect_ops={"while_loop"},
)
def simple_rnn(xs, w, u, h0):
    h = h0
    outputs = []
    for x_t in xs:
        h = np.tanh(w @ h + u @ x_t)
        outputs.append(h)
    return h, np.stack(outputs)


@CASES.case(args=[(VEC,), (np.array([1000.0, 1001.0, 999.0]),)], expect_ops={"while_loop"})
def softmax_with_max_loop(x):
    m = x[0]
    for v in x:
        if v > m:
            m = v
    e = np.exp(x - m)
    return e / np.sum(e)


@CASES.case(args=[(VEC,), (np.array([3.0, 3.0, 1.0]),)], expect_ops={"cond"})
def argmax_search(x):
    best_i = 0
    best = x[0]
    for i in range(1, x.shape[0]):
        if x[i] > best:
            best = x[i]
            best_i = i
    return best_i, best


@CASES.case(args=[(f64(1.0),), (f64(0.0),)], expect_ops={"while_loop"})
def fixed_point_cosine(x):
    while abs(np.cos(x) - x) > 1e-12:
        x = np.cos(x)
    return x


@CASES.case(
    args=[(f64(1.0), f64(0.01), np.int64(100)), (f64(2.0), f64(0.1), np.int64(0))],
    expect_ops={"while_loop"},
)
def euler_ode_decay(y0, h, steps):
    y = y0
    t = 0.0 * h
    for _ in range(steps):
        y = y + h * (-2.0 * y + np.sin(t))
        t = t + h
    return y, t


@CASES.case(args=[(np.array([5.0, 1.0, 4.0, 2.0, 3.0]),), (np.array([1.0, 2.0]),)])
def bubble_sort(x):
    x = x.copy()
    n = x.shape[0]
    for i in range(n):
        for j in range(n - 1 - i):
            if x[j] > x[j + 1]:
                x[j], x[j + 1] = x[j + 1], x[j]
    return x


@CASES.case(args=[(np.array([5.0, 1.0, 4.0, 2.0, 3.0]),)], expect_ops={"while_loop"})
def insertion_sort(x):
    x = x.copy()
    for i in range(1, x.shape[0]):
        key = x[i]
        j = i - 1
        while j >= 0 and x[j] > key:
            x[j + 1] = x[j]
            j -= 1
        x[j + 1] = key
    return x


@CASES.case(
    args=[(np.arange(0.0, 20.0, 2.0), f64(8.0)), (np.arange(0.0, 20.0, 2.0), f64(7.0))],
    expect_ops={"while_loop"},
)
def binary_search(sorted_x, target):
    lo = 0
    hi = sorted_x.shape[0] - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if sorted_x[mid] == target:
            return mid
        if sorted_x[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@CASES.case(
    args=[(np.complex128(-0.5 + 0.5j),), (np.complex128(1 + 1j),)], expect_ops={"while_loop"}
)
def mandelbrot_escape(c):
    z = 0 * c
    n = 0
    while abs(z) <= 2 and n < 50:
        z = z * z + c
        n += 1
    return n


@CASES.case(args=[(np.int64(97),), (np.int64(91),), (np.int64(2),)], expect_ops={"while_loop"})
def is_prime_trial_division(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


@CASES.case(args=[(np.array([2.0, -3.0, 0.5, 1.0]), f64(1.5))], expect_ops={"while_loop"})
def horner(coeffs, x):
    result = 0.0 * x
    for c in coeffs:
        result = result * x + c
    return result


@CASES.case(
    args=[(np.array([[1.0, 1.0], [1.0, 0.0]]), np.int64(10)), (np.eye(2) * 2, np.int64(0))],
    expect_ops={"while_loop", "cond"},
)
def matrix_power_by_squaring(a, n):
    result = np.eye(a.shape[0])
    base = a
    while n > 0:
        if n % 2 == 1:
            result = result @ base
        base = base @ base
        n = n // 2
    return result


@CASES.case(
    args=[(np.array([3.0, -1.0]), f64(0.1)), (np.array([0.0, 0.0]), f64(0.1))],
    expect_ops={"while_loop"},
)
def gradient_descent_quadratic(x, lr):
    target = np.array([1.0, 2.0])
    grad = 2 * (x - target)
    steps = 0
    while np.linalg.norm(grad) > 1e-6:
        x = x - lr * grad
        grad = 2 * (x - target)
        steps += 1
    return x, steps


@CASES.case(args=[(np.array([1.0, 1e-16, -1.0, 1e-16] * 3),)], expect_ops={"while_loop"})
def kahan_sum(x):
    total = 0.0 * x[0]
    comp = 0.0 * x[0]
    for v in x:
        y = v - comp
        t = total + y
        comp = (t - total) - y
        total = t
    return total


@CASES.case(args=[(VEC,), (np.array([2.0]),)], expect_ops={"while_loop"})
def welford_mean_variance(x):
    mean = 0.0 * x[0]
    m2 = 0.0 * x[0]
    n = 0
    for v in x:
        n += 1
        delta = v - mean
        mean = mean + delta / n
        m2 = m2 + delta * (v - mean)
    return mean, m2 / n


@CASES.case(args=[(VEC, f64(0.3))], expect_ops={"while_loop"})
def exponential_moving_average(x, alpha):
    ema = x[0]
    out = []
    for v in x:
        ema = alpha * v + (1 - alpha) * ema
        out.append(ema)
    return np.array(out)


@CASES.case(args=[(np.int64(12345),), (np.int64(0),)], expect_ops={"while_loop"})
def reverse_digits(n):
    r = n * 0
    while n > 0:
        r = r * 10 + n % 10
        n = n // 10
    return r


@CASES.case(args=[(f64(0.2), f64(3.7), np.int64(30))], expect_ops={"while_loop"})
def logistic_map(x, r, n):
    for _ in range(n):
        x = r * x * (1 - x)
    return x


@CASES.case(args=[(np.array([2.0, 7.0, 1.0, 8.0, 2.0, 8.0]),)], expect_ops={"while_loop"})
def max_subarray_kadane(x):
    best = x[0]
    current = x[0]
    for v in x[1:]:
        current = max(v, current + v)
        best = max(best, current)
    return best


@CASES.case(args=[(np.stack([SPD, SPD * 2, SPD + 1.0]),)], expect_ops={"eigvalsh"})
def largest_eigenvalue_over_a_stack(mats):
    largest = 0.0 * mats[0, 0, 0]
    for m in mats:
        largest = np.maximum(largest, np.linalg.eigvalsh(m)[-1])
    return largest


@CASES.case(args=[(SPD,), (SPD * 0.25,)], expect_ops={"while_loop", "cholesky"})
def whiten_until_small(a):
    steps = 0
    while np.linalg.norm(a, 2) > 1.0:
        chol = np.linalg.cholesky(a)
        a = a @ np.linalg.inv(chol @ chol.T + np.eye(3))
        steps += 1
    q, r = np.linalg.qr(a)
    return np.abs(np.diag(r)), steps


@CASES.case(
    args=[(np.array([0.0, 3.0, -1.0, 4.0, 0.5, -2.0, 1.0, 2.5]),)],
    expect_ops={"while_loop", "rfft", "irfft"},
)
def low_pass_until_smooth(x):
    steps = 0
    while np.max(np.abs(np.diff(x))) > 0.5 and steps < 20:
        spectrum = np.fft.rfft(x)
        spectrum[len(spectrum) // 2 :] = 0
        x = np.fft.irfft(spectrum, len(x))
        steps += 1
    return x, steps
