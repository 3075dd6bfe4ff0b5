"""Conformance cases: realistic numeric routines written the way people write them, thirty of
the realistic corpus (``tests/realistic``): optimizers, filters, sorting and search, spectral
estimation, finance, fuzzy logic, statistics, interpolation, root finding, ODE steppers, linear
algebra and dynamic programming. Loops over indices, in-place updates of arguments,
early returns, ``break``, Python lists as accumulators, ``math.*``, ``float()`` of elements,
``ValueError`` on bad input with messages formatted from the data, tuples of results.
"""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("realistic")

DIAG = np.array([1.0, 4.0, 9.0])
RHS = np.array([1.0, -2.0, 0.5])
NOISY = np.array([1.0, 1.3, 0.8, 1.1, 5.0, 0.9, 1.2, 1.0, -3.0, 1.05, 0.95, 1.1])
STEPS = np.array([0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 2.0, 2.0])
SHUFFLED = np.array([5.0, -1.0, 3.5, 3.5, 0.0, 9.0, -7.5, 2.0])
INTS = np.array([4, 1, 3, 9, 7, 1, 0])
SORTED = np.array([-3.0, -1.0, 0.0, 2.5, 4.0, 4.0, 8.0])
TONE = np.sin(2 * np.pi * 3 * np.arange(16) / 16) + 0.5 * np.cos(2 * np.pi * 5 * np.arange(16) / 16)
SHORT = np.array([1.0, 2.0, 0.0, -1.0, 0.5])
PRICES = np.array([100.0, 102.0, 101.0, 105.0, 98.0, 97.0, 103.0, 110.0, 104.0])
FLOWS = np.array([-100.0, 30.0, 40.0, 50.0, 20.0])
UNIVERSE = np.linspace(0.0, 10.0, 21)
DATA = np.array([2.5, 3.1, 4.7, 1.2, 3.3, 9.8, 5.0, 4.4])
OTHER = np.array([1.0, 2.0, 4.0, 0.5, 3.5, 7.0, 5.5, 4.0])


def _norm_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


# ---- optimizers ----------------------------------------------------------------------------------


@CASES.case(
    args=[
        (np.zeros(3), DIAG, RHS),
        (np.array([3.0, -1.0, 2.0]), DIAG, RHS, 0.5),
    ]
)
def gd_backtracking(x0, diag, b, lr=1.0, tol=1e-8, max_iter=60):
    """Gradient descent on 0.5 x'Dx - b'x with an Armijo backtracking line search."""
    x = x0.copy()
    iters = 0
    for it in range(max_iter):
        g = diag * x - b
        gnorm = np.sqrt(np.dot(g, g))
        if gnorm < tol:
            break
        f = 0.5 * np.dot(x, diag * x) - np.dot(b, x)
        step = lr
        while True:
            trial = x - step * g
            ft = 0.5 * np.dot(trial, diag * trial) - np.dot(b, trial)
            if ft <= f - 0.5 * step * gnorm * gnorm:
                break
            step *= 0.5
        x = trial
        iters = it + 1
    return x, iters, float(0.5 * np.dot(x, diag * x) - np.dot(b, x))


@CASES.case(args=[(0.0, 5.0), (np.float64(-1.0), np.float64(3.0), 1e-3), (1.0, 1.0), (2.0, 1.0)])
def golden_section(a, b, tol=1e-6):
    """Minimum of (x - 2)^2 + 1 on [a, b] by golden-section search."""
    if a >= b:
        raise ValueError(f"empty bracket [{a}, {b}]")
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    c = b - ratio * (b - a)
    d = a + ratio * (b - a)
    evaluations = 0
    while abs(b - a) > tol:
        fc = (c - 2.0) ** 2 + 1.0
        fd = (d - 2.0) ** 2 + 1.0
        evaluations += 2
        if fc < fd:
            b = d
        else:
            a = c
        c = b - ratio * (b - a)
        d = a + ratio * (b - a)
    return (a + b) / 2.0, evaluations


@CASES.case(
    args=[
        (1.0, np.array([1.0, 0.0, -2.0])),
        (np.float64(3.0), np.array([1.0, -6.0, 11.0, -6.0])),
        (0.0, np.array([1.0, 0.0, 1.0])),
        (2.0, np.array([1.0, 0.0, -2.0]), 1e-12, 3),
    ]
)
def newton_polynomial_root(x0, coeffs, tol=1e-12, max_iter=50):
    """A root of the polynomial with ``coeffs`` (highest first) by Newton's method."""
    x = x0
    for k in range(max_iter):
        p = 0.0
        dp = 0.0
        for c in coeffs:
            dp = dp * x + p
            p = p * x + c
        if dp == 0.0:
            raise ValueError(f"zero derivative at x={x}")
        step = p / dp
        x = x - step
        if abs(step) < tol:
            return x, k + 1
    raise ValueError("Newton's method did not converge")


# ---- filters -------------------------------------------------------------------------------------


@CASES.case(args=[(NOISY, 0.3), (np.arange(6), 0.5), (np.array([]), 0.5), (NOISY, 1.5), (NOISY, 0)])
def ema(x, alpha):
    if not 0 < alpha <= 1:
        raise ValueError("alpha must be in (0, 1]")
    out = np.empty(len(x))
    if len(x) == 0:
        return out
    out[0] = x[0]
    for i in range(1, len(x)):
        out[i] = alpha * x[i] + (1 - alpha) * out[i - 1]
    return out


@CASES.case(
    args=[
        (STEPS, [0.2, 0.4, 0.2], [1.0, -0.3, 0.1]),
        (NOISY.astype(np.float32), [0.5, 0.0, -0.5], [1.0, 0.0, 0.25]),
    ]
)
def biquad(x, b, a):
    """Direct-form-I biquad with the state in Python floats."""
    b0, b1, b2 = b[0] / a[0], b[1] / a[0], b[2] / a[0]
    a1, a2 = a[1] / a[0], a[2] / a[0]
    x1 = x2 = y1 = y2 = 0.0
    y = np.zeros_like(x)
    for n in range(len(x)):
        xn = float(x[n])
        yn = b0 * xn + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, xn
        y2, y1 = y1, yn
        y[n] = yn
    return y


@CASES.case(args=[(NOISY.copy(), 2), (NOISY.copy(), 3, 2.0), (STEPS.copy(), 1)])
def hampel(x, k, t=3.0):
    """Replaces outliers in place by their window's median; returns their indices."""
    n = len(x)
    replaced = []
    original = x.copy()
    for i in range(n):
        lo, hi = max(0, i - k), min(n, i + k + 1)
        window = original[lo:hi]
        med = np.median(window)
        mad = 1.4826 * np.median(np.abs(window - med))
        if np.abs(original[i] - med) > t * mad:
            x[i] = med
            replaced.append(i)
    return replaced


# ---- sorting and search --------------------------------------------------------------------------


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([]),), (np.array([1.0]),)])
def insertion_sort_counting_shifts(a):
    shifts = 0
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
            shifts += 1
        a[j + 1] = key
    return shifts


@CASES.case(args=[(SORTED, 4.0), (SORTED, 5.0), (np.arange(100), 37), (SORTED, -3.0)])
def lower_bound_and_count(a, target):
    """First position with a[pos] >= target, and how many equal target (a is sorted)."""
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    count = 0
    j = lo
    while j < len(a) and a[j] == target:
        count += 1
        j += 1
    return lo, count


@CASES.case(args=[(0.0, 3.0), (np.float64(-1.0), np.float64(2.0), 1e-10), (3.0, 5.0)])
def bisection_cubic(lo, hi, tol=1e-12):
    """The root of x^3 - 2x - 5 in [lo, hi]."""
    flo = lo**3 - 2 * lo - 5
    fhi = hi**3 - 2 * hi - 5
    if flo * fhi > 0:
        raise ValueError("root is not bracketed")
    steps = 0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        fmid = mid**3 - 2 * mid - 5
        if fmid == 0:
            return mid, steps
        if flo * fmid < 0:
            hi = mid
        else:
            lo, flo = mid, fmid
        steps += 1
    return 0.5 * (lo + hi), steps


@CASES.case(args=[(SHUFFLED,), (INTS,), (np.array([np.nan, 1.0]),), (np.array([]),)])
def argmax_loop(x):
    if len(x) == 0:
        raise ValueError("argmax of an empty sequence")
    best = 0
    for i in range(1, len(x)):
        if x[i] > x[best]:
            best = i
    return best, x[best]


# ---- spectral estimation -------------------------------------------------------------------------


@CASES.case(args=[(TONE, 3), (TONE, 5), (SHORT, 1)])
def goertzel_power(x, k):
    n = len(x)
    w = 2.0 * math.pi * k / n
    coeff = 2.0 * math.cos(w)
    s_prev = 0.0
    s_prev2 = 0.0
    for sample in x:
        s = sample + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    return s_prev2**2 + s_prev**2 - coeff * s_prev * s_prev2


@CASES.case(args=[(TONE, 8), (TONE, 4, 2), (TONE, 32), (SHORT, 2, 1)])
def welch(x, nperseg, step=None):
    if step is None:
        step = nperseg // 2
    if nperseg > len(x):
        raise ValueError(f"segment of {nperseg} longer than the signal")
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(nperseg) / nperseg)
    scale = np.sum(window**2)
    total = np.zeros(nperseg // 2 + 1)
    segments = 0
    start = 0
    while start + nperseg <= len(x):
        seg = x[start : start + nperseg]
        seg = (seg - seg.mean()) * window
        total += np.abs(np.fft.rfft(seg)) ** 2 / scale
        segments += 1
        start += step
    return total / segments, segments


@CASES.case(
    args=[
        (np.array([1.0, 0.5, 0.2, 0.05]), 3),
        (np.array([2.0, -1.0, 0.3]), 2),
        (np.array([0.0, 1.0]), 1),
    ]
)
def levinson_durbin(r, order):
    """AR coefficients from autocovariances; returns coefficients, error and reflections."""
    if r[0] == 0:
        raise ValueError("zero-energy autocovariance")
    a = np.zeros(order + 1)
    a[0] = 1.0
    err = r[0]
    reflections = []
    for m in range(1, order + 1):
        acc = r[m]
        for j in range(1, m):
            acc += a[j] * r[m - j]
        k = -acc / err
        prev = a.copy()
        for j in range(1, m):
            a[j] = prev[j] + k * prev[m - j]
        a[m] = k
        err *= 1 - k * k
        reflections.append(k)
    return a, err, reflections


# ---- finance -------------------------------------------------------------------------------------


@CASES.case(
    args=[
        (100.0, 100.0, 1.0, 0.05, 0.2),
        (np.float64(90.0), 100.0, 0.5, 0.01, 0.3, False),
        (100.0, 100.0, 1.0, 0.05, 0.0),
    ]
)
def black_scholes(s, k, t, r, sigma, call=True):
    if sigma <= 0 or t <= 0:
        raise ValueError("sigma and t must be positive")
    d1 = (math.log(s / k) + (r + 0.5 * sigma**2) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    if call:
        return s * _norm_cdf(d1) - k * math.exp(-r * t) * _norm_cdf(d2)
    return k * math.exp(-r * t) * _norm_cdf(-d2) - s * _norm_cdf(-d1)


@CASES.case(
    args=[(FLOWS,), (FLOWS, 0.5), (np.array([-100.0, 110.0]),), (np.array([100.0, 10.0]),)],
    expect="fallback",
    error="would depend on the path taken",
    at="npv += flows[t]",
)
def irr_newton(flows, guess=0.1, tol=1e-10, max_iter=100):
    rate = guess
    for _ in range(max_iter):
        npv = 0.0
        dnpv = 0.0
        for t in range(len(flows)):
            npv += flows[t] / (1 + rate) ** t
            dnpv -= t * flows[t] / (1 + rate) ** (t + 1)
        if dnpv == 0:
            break
        new_rate = rate - npv / dnpv
        if abs(new_rate - rate) < tol:
            return new_rate
        rate = new_rate
    raise ValueError("IRR did not converge")


@CASES.case(args=[(PRICES,), (np.arange(1.0, 6.0),), (np.array([5.0]),), (np.array([]),)])
def max_drawdown(prices):
    if len(prices) == 0:
        raise ValueError("no prices")
    peak = prices[0]
    peak_at = 0
    worst = 0.0
    start = end = 0
    for i in range(1, len(prices)):
        if prices[i] > peak:
            peak = prices[i]
            peak_at = i
        dd = (peak - prices[i]) / peak
        if dd > worst:
            worst = dd
            start, end = peak_at, i
    return worst, start, end


# ---- fuzzy logic ---------------------------------------------------------------------------------


@CASES.case(
    args=[(UNIVERSE, 2.0, 5.0, 8.0), (np.array([5.0]), 5.0, 5.0, 6.0), (UNIVERSE, 3.0, 2.0, 1.0)]
)
def triangular(x, a, b, c):
    if not a <= b <= c:
        raise ValueError("need a <= b <= c")
    mu = np.zeros(len(x))
    for i in range(len(x)):
        v = x[i]
        if a < v < b:
            mu[i] = (v - a) / (b - a)
        elif v == b:
            mu[i] = 1.0
        elif b < v < c:
            mu[i] = (c - v) / (c - b)
    return mu


@CASES.case(
    args=[
        (UNIVERSE, np.exp(-((UNIVERSE - 4.0) ** 2))),
        (np.arange(5.0), np.array([0.0, 0.5, 1.0, 0.5, 0.0], dtype=np.float32)),
        (UNIVERSE, np.zeros(21)),
    ]
)
def centroid(x, mu):
    num = 0.0
    den = 0.0
    for i in range(len(x)):
        num += x[i] * mu[i]
        den += mu[i]
    if den == 0:
        raise ValueError("zero membership everywhere")
    return num / den


# ---- statistics ----------------------------------------------------------------------------------


@CASES.case(
    # float32 items make the Python float accumulators float32 on some paths: that runs eagerly
    # (staging.kind_rules), as tests/semantics/test_path_kinds.py shows
    args=[(DATA,), (np.array([4.0]),), ([1, 2, 3, 4],), (np.array([]),)]
)
def welford(xs):
    n = 0
    mean = 0.0
    m2 = 0.0
    for x in xs:
        n += 1
        delta = x - mean
        mean += delta / n
        m2 += delta * (x - mean)
    if n < 2:
        return mean, float("nan")
    return mean, m2 / (n - 1)


@CASES.case(
    args=[(DATA, OTHER), (np.arange(5.0), 2 * np.arange(5.0) + 1), (np.ones(3), np.arange(3.0))]
)
def linear_regression(x, y):
    n = len(x)
    mx = sum(x) / n
    my = sum(y) / n
    sxy = 0.0
    sxx = 0.0
    syy = 0.0
    for i in range(n):
        sxy += (x[i] - mx) * (y[i] - my)
        sxx += (x[i] - mx) ** 2
        syy += (y[i] - my) ** 2
    if sxx == 0:
        raise ValueError("x is constant")
    slope = sxy / sxx
    intercept = my - slope * mx
    r = sxy / math.sqrt(sxx * syy)
    return slope, intercept, r


# ---- filters -----------------------------------------------------------------------------------


@CASES.case(
    args=[
        (NOISY, 0.85, 0.005, 1.0),
        (np.array([]), 0.5, 0.1, 1.0),
        (NOISY.astype(np.float32), 0.5, 0.1, 0.1),
    ]
)
def alpha_beta(zs, alpha, beta, dt):
    """The alpha-beta tracker: position and velocity predicted, then corrected by the residual."""
    x, v = 0.0, 0.0
    xs, vs = np.zeros(len(zs)), np.zeros(len(zs))
    for k, z in enumerate(zs):
        x_pred = x + v * dt
        r = z - x_pred
        x = x_pred + alpha * r
        v = v + beta / dt * r
        xs[k], vs[k] = x, v
    return xs, vs


# ---- spectral estimation -----------------------------------------------------------------------


@CASES.case(args=[(TONE,), (np.ones(6),), (np.array([3.0]),), (np.zeros(4),)])
def normalized_autocorr(x):
    """Biased autocorrelation normalised by lag 0, by loops; the first lag where it turns
    negative (None if none)."""
    n = len(x)
    mean = sum(x) / n
    centered = [v - mean for v in x]
    r0 = sum(c * c for c in centered)
    acf = np.zeros(n)
    first_negative = None
    for lag in range(n):
        acc = 0.0
        for t in range(n - lag):
            acc += centered[t] * centered[t + lag]
        acf[lag] = acc / r0 if r0 > 0 else 0.0
        if first_negative is None and acf[lag] < 0:
            first_negative = lag
    return acf, first_negative


# ---- statistics --------------------------------------------------------------------------------


@CASES.case(args=[(DATA, 200, 0), (OTHER, 50, 7, 0.9), (DATA[:1], 10, 1)])
def bootstrap_mean_ci(x, n_boot, seed, level=0.95):
    """A percentile bootstrap interval of the mean with a seeded Generator made in the function."""
    rng = np.random.default_rng(seed)
    n = len(x)
    means = np.empty(n_boot)
    for b in range(n_boot):
        sample = x[rng.integers(0, n, size=n)]
        means[b] = sample.mean()
    alpha = (1 - level) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return x.mean(), (lo, hi)


@CASES.case(
    args=[
        (DATA, 0.0, 10.0, 5),
        (OTHER.astype(np.float32), 0.0, 8.0, 4),
        (np.array([]), 0.0, 1.0, 3),
    ]
)
def binned_counts_list(x, lo, hi, bins):
    """Counts per bin in a Python list, bumped at an index computed from each value, with the
    values outside counted apart; returns the counts and the fraction inside."""
    counts = [0] * bins
    outside = 0
    width = (hi - lo) / bins
    for v in x:
        if not lo <= v < hi:
            outside += 1
            continue
        counts[int((v - lo) // width)] += 1
    inside = len(x) - outside
    return counts, inside / len(x) if len(x) else 0.0


# ---- interpolation -----------------------------------------------------------------------------


XS = np.array([0.0, 1.0, 2.5, 4.0, 5.0])
YS = np.array([1.0, 3.0, 2.0, -1.0, 0.5])
QUERY = np.array([-1.0, 0.0, 0.5, 2.5, 3.9, 5.0, 7.0])


def _spline_coefficients(x, y):
    """The b, c, d coefficients of a natural cubic spline (Burden and Faires' algorithm)."""
    n = len(x)
    h = np.diff(x)
    alpha = np.zeros(n)
    for i in range(1, n - 1):
        alpha[i] = 3 / h[i] * (y[i + 1] - y[i]) - 3 / h[i - 1] * (y[i] - y[i - 1])
    lower = np.ones(n)
    mu = np.zeros(n)
    z = np.zeros(n)
    for i in range(1, n - 1):
        lower[i] = 2 * (x[i + 1] - x[i - 1]) - h[i - 1] * mu[i - 1]
        mu[i] = h[i] / lower[i]
        z[i] = (alpha[i] - h[i - 1] * z[i - 1]) / lower[i]
    c = np.zeros(n)
    b = np.zeros(n - 1)
    d = np.zeros(n - 1)
    for j in range(n - 2, -1, -1):
        c[j] = z[j] - mu[j] * c[j + 1]
        b[j] = (y[j + 1] - y[j]) / h[j] - h[j] * (c[j + 1] + 2 * c[j]) / 3
        d[j] = (c[j + 1] - c[j]) / (3 * h[j])
    return b, c, d


@CASES.case(
    args=[(XS, YS, QUERY[1:-1]), (np.arange(4.0), np.arange(4.0) ** 3, np.array([0.5, 2.9]))]
)
def natural_cubic_spline(x, y, query):
    """Natural cubic spline coefficients (Burden and Faires' algorithm), then evaluated."""
    b, c, d = _spline_coefficients(x, y)
    result = []
    for q in query:
        j = int(np.searchsorted(x, q)) - 1
        j = min(max(j, 0), len(x) - 2)
        dx = q - x[j]
        result.append(y[j] + b[j] * dx + c[j] * dx**2 + d[j] * dx**3)
    return np.array(result)


# ---- root finding ------------------------------------------------------------------------------


def _kepler(e, m):
    return lambda ea: ea - e * math.sin(ea) - m


@CASES.case(args=[(0.1, 0.5), (np.float64(0.9), 2.0), (0.0, np.float64(1.0))])
def kepler_eccentric_anomaly(e, m, tol=1e-13):
    """Kepler's equation E - e sin E = M by Newton, the residual from a closure."""
    f = _kepler(e, m)
    ea = m if e < 0.8 else math.pi
    while True:
        delta = f(ea) / (1 - e * math.cos(ea))
        ea -= delta
        if abs(delta) < tol:
            break
    return ea


# ---- ODE steppers ------------------------------------------------------------------------------


def _lotka_volterra(t, z, a=1.5, b=1.0, c=3.0, d=1.0):
    x, y = z
    return np.array([a * x - b * x * y, -c * y + d * x * y])


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@CASES.case(
    args=[(np.array([10.0, 5.0]), 0.02, 15), (np.array([1.0, 1.0], dtype=np.float32), 0.1, 5)]
)
def rk4_predator_prey(z0, h, steps):
    """Lotka-Volterra with RK4; the trajectory is kept in a preallocated array."""
    traj = np.empty((steps + 1, len(z0)))
    traj[0] = z0
    z = z0
    t = 0.0
    for n in range(steps):
        z = rk4_step(_lotka_volterra, t, z, h)
        t += h
        traj[n + 1] = z
    return traj


# ---- linear algebra ----------------------------------------------------------------------------


A3 = np.array([[4.0, -2.0, 1.0], [-2.0, 4.0, -2.0], [1.0, -2.0, 4.0]])
B3 = np.array([11.0, -16.0, 17.0])
PERMUTED = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 1.0], [2.0, 1.0, 0.0]])
SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]])


def back_substitution(u, y):
    n = len(y)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - np.dot(u[i, i + 1 :], x[i + 1 :])) / u[i, i]
    return x


@CASES.case(
    args=[(A3, B3), (PERMUTED, np.ones(3)), (SINGULAR, np.ones(2)), (A3.astype(np.float32), B3)]
)
def gauss_partial_pivoting(a, b):
    """Solves a x = b on copies; a zero pivot raises."""
    a = a.astype(float)
    b = b.astype(float)
    n = len(b)
    for k in range(n - 1):
        p = k + np.argmax(np.abs(a[k:, k]))
        if a[p, k] == 0:
            raise np.linalg.LinAlgError("matrix is singular")
        if p != k:
            a[[k, p]] = a[[p, k]]
            b[k], b[p] = b[p], b[k]
        for i in range(k + 1, n):
            factor = a[i, k] / a[k, k]
            a[i, k:] -= factor * a[k, k:]
            b[i] -= factor * b[k]
    if a[n - 1, n - 1] == 0:
        raise np.linalg.LinAlgError("matrix is singular")
    return back_substitution(a, b)


@CASES.case(
    args=[
        (A3,),
        (np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 1.0]]),),
        (np.array([[1.0, 2.0], [2.0, 4.0]]),),
    ]
)
def gram_schmidt(a):
    """Modified Gram-Schmidt over the columns; dependent columns are dropped."""
    basis = []
    for j in range(a.shape[1]):
        v = a[:, j].copy()
        for q in basis:
            v -= (q @ v) * q
        norm = np.linalg.norm(v)
        if norm > 1e-10:
            basis.append(v / norm)
    if not basis:
        return np.zeros((a.shape[0], 0))
    return np.column_stack(basis)


# ---- dynamic programming -----------------------------------------------------------------------


WORD_A = np.array([3, 1, 4, 1, 5, 9, 2, 6])
WORD_B = np.array([3, 4, 1, 5, 2, 6, 5])


@CASES.case(
    args=[
        (WORD_A, WORD_B),
        (WORD_A[:0], WORD_B),
        (WORD_A, WORD_A),
        (np.array([1.0, 2.0]), np.array([2.0])),
    ]
)
def edit_distance(a, b):
    """Levenshtein distance between two arrays, the full table kept as a NumPy int array."""
    n, m = len(a), len(b)
    table = np.zeros((n + 1, m + 1), dtype=np.int64)
    table[:, 0] = np.arange(n + 1)
    table[0, :] = np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            table[i, j] = min(table[i - 1, j] + 1, table[i, j - 1] + 1, table[i - 1, j - 1] + cost)
    return table[n, m]
