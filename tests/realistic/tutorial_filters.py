"""Filters the way tutorials write them: biquads in direct forms I and II, an lfilter with its
state array, FIR by loops and by np.convolve, 1-D and 2-D Kalman filters, alpha-beta tracking,
Hampel and moving-median outlier removal, Holt and Holt-Winters smoothing, Butterworth
coefficients by the bilinear transform; on lists, float32 and int signals, NaN and short inputs."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("filters")

SIGNAL = [0.0, 1.0, 0.5, -0.25, 2.0, 1.5, -1.0, 0.0, 0.75, 0.3]
NOISY = np.array([1.0, 1.2, 0.9, 8.0, 1.1, 1.05, 0.95, -6.0, 1.0, 1.15, 0.98])
SEASONAL = np.array([10.0, 14.0, 8.0, 25.0, 16.0, 22.0, 14.0, 35.0, 15.0, 27.0, 18.0, 40.0])


@CASES.case(
    args=[
        (SIGNAL, [0.2, 0.4, 0.2], [1.0, -0.3, 0.1]),
        (np.array(SIGNAL, dtype=np.float32), [0.5, 0.5, 0.0], [1.0, 0.0, 0.0]),
        ([], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
    ]
)
def biquad_direct_form_1(x, b, a):
    """A biquad in direct form I, with the input and output histories in four scalars."""
    b0, b1, b2 = b[0] / a[0], b[1] / a[0], b[2] / a[0]
    a1, a2 = a[1] / a[0], a[2] / a[0]
    x1 = x2 = y1 = y2 = 0.0
    y = []
    for sample in x:
        out = b0 * sample + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1 = x1, sample
        y2, y1 = y1, out
        y.append(out)
    return y


@CASES.case(
    args=[
        (np.array(SIGNAL), np.array([0.2, 0.4, 0.2]), np.array([1.0, -0.3, 0.1])),
        (np.arange(6), np.array([1.0, 2.0, 1.0]) / 4, np.array([1.0, -0.5, 0.25])),
    ]
)
def biquad_direct_form_2(x, b, a):
    """Direct form II: one delay line w shared by the feedback and feedforward parts."""
    y = np.zeros(len(x))
    w1 = w2 = 0.0
    for n in range(len(x)):
        w0 = x[n] - a[1] * w1 - a[2] * w2
        y[n] = b[0] * w0 + b[1] * w1 + b[2] * w2
        w2 = w1
        w1 = w0
    return y


@CASES.case(
    args=[
        (np.array([0.1, 0.2]), np.array([1.0, -0.5]), np.array(SIGNAL), np.zeros(1)),
        (
            np.array([0.3, 0.3, 0.3]),
            np.array([1.0, 0.2, -0.1]),
            np.array(SIGNAL),
            np.array([0.5, 0.0]),
        ),
    ]
)
def lfilter_with_state(b, a, x, zi):
    """lfilter in transposed direct form II; the state array zi is updated in place and
    returned with the output, so blocks can be filtered one after another."""
    n = max(len(a), len(b))
    y = np.empty_like(x)
    for i in range(len(x)):
        y[i] = b[0] * x[i] + zi[0]
        for k in range(1, n - 1):
            zi[k - 1] = b[k] * x[i] + zi[k] - a[k] * y[i]
        zi[n - 2] = b[n - 1] * x[i] - a[n - 1] * y[i]
    return y, zi


@CASES.case(
    args=[
        (SIGNAL, [0.25, 0.5, 0.25]),
        (np.arange(5, dtype=np.int64), [1, -1]),
        ([1.0], [0.5, 0.5]),
    ]
)
def fir_by_loops_full(x, h):
    """Full convolution by two loops, like np.convolve(x, h)."""
    n, m = len(x), len(h)
    y = [0.0] * (n + m - 1)
    for i in range(n):
        for j in range(m):
            y[i + j] += x[i] * h[j]
    return y


@CASES.case(
    args=[(np.array(SIGNAL), 3), (np.arange(8.0), 4), (np.array(SIGNAL, dtype=np.float32), 2)]
)
def fir_moving_average_convolve(x, taps):
    """A moving-average FIR by np.convolve in 'valid' mode, and the 'same' one for plotting."""
    kernel = np.ones(taps) / taps
    return np.convolve(x, kernel, mode="valid"), np.convolve(x, kernel, mode="same")


@CASES.case(
    args=[
        ([1.1, 0.9, 1.05, 1.2, 0.95, 1.0], 1e-4, 0.05, 0.0, 1.0),
        (np.array([5.0, 5.5, 4.5]), 0.01, 1.0, 5.0, 0.1),
        ([], 0.1, 0.1, 0.0, 1.0),
    ]
)
def kalman_constant_1d(measurements, q, r, x0, p0):
    """The scalar Kalman filter for a constant: returns estimates, gains and the last variance."""
    x, p = x0, p0
    estimates, gains = [], []
    for z in measurements:
        p = p + q
        k = p / (p + r)
        x = x + k * (z - x)
        p = (1 - k) * p
        estimates.append(x)
        gains.append(k)
    return estimates, gains, p


@CASES.case(args=[(np.array([0.0, 1.1, 1.9, 3.2, 3.9, 5.1, 6.0]), 1.0), (np.array([2.0]), 0.5)])
def kalman_2d_position_velocity(zs, dt):
    """A constant-velocity Kalman filter on positions, with numpy matrices and np.linalg.inv."""
    F = np.array([[1.0, dt], [0.0, 1.0]])
    H = np.array([[1.0, 0.0]])
    Q = 0.01 * np.eye(2)
    R = np.array([[0.25]])
    x = np.array([[zs[0]], [0.0]])
    P = np.eye(2) * 10.0
    track = np.zeros((len(zs), 2))
    for i, z in enumerate(zs):
        x = F @ x
        P = F @ P @ F.T + Q
        S = H @ P @ H.T + R
        K = P @ H.T @ np.linalg.inv(S)
        x = x + K @ (np.array([[z]]) - H @ x)
        P = (np.eye(2) - K @ H) @ P
        track[i] = x.ravel()
    return track, np.trace(P)


@CASES.case(
    args=[([1.0, 2.1, 2.9, 4.2, 5.0], 1.0, 0.5, 0.1), (np.array([3.0, 3.0, 3.0]), 0.1, 0.85, 0.005)]
)
def alpha_beta_tracker(zs, dt, alpha, beta):
    x, v = zs[0], 0.0
    positions, velocities = [], []
    for z in zs[1:]:
        x_pred = x + v * dt
        residual = z - x_pred
        x = x_pred + alpha * residual
        v = v + beta * residual / dt
        positions.append(x)
        velocities.append(v)
    return positions, velocities


@CASES.case(args=[(NOISY, 2, 3.0), (NOISY.astype(np.float32), 1, 2.0), (np.ones(5), 2, 3.0)])
def hampel_filter_loop(x, half_window, n_sigmas):
    """Hampel filter: replace points more than n_sigmas scaled MADs from the window median."""
    k = 1.4826
    y = x.copy()
    outliers = []
    for i in range(half_window, len(x) - half_window):
        window = x[i - half_window : i + half_window + 1]
        med = np.median(window)
        mad = k * np.median(np.abs(window - med))
        if np.abs(x[i] - med) > n_sigmas * mad:
            y[i] = med
            outliers.append(i)
    return y, outliers


@CASES.case(args=[(NOISY, 3), (list(NOISY), 5), (np.array([1.0, np.nan, 3.0, 2.0]), 3)])
def moving_median_edges(x, size):
    """A centred moving median that shrinks its window at the edges."""
    x = np.asarray(x)
    half = size // 2
    out = np.empty(len(x))
    for i in range(len(x)):
        lo = max(0, i - half)
        hi = min(len(x), i + half + 1)
        out[i] = np.median(x[lo:hi])
    return out


@CASES.case(args=[(list(SEASONAL), 0.5, 0.3, 3), (SEASONAL[:3], 0.8, 0.2, 2)])
def holt_linear_forecast(series, alpha, beta, horizon):
    """Holt's linear trend: level and trend updates, then a straight-line forecast."""
    level, trend = series[0], series[1] - series[0]
    fitted = [level]
    for t in range(1, len(series)):
        prev_level = level
        level = alpha * series[t] + (1 - alpha) * (level + trend)
        trend = beta * (level - prev_level) + (1 - beta) * trend
        fitted.append(level)
    forecast = [level + h * trend for h in range(1, horizon + 1)]
    return fitted, forecast


@CASES.case(
    args=[(SEASONAL, 4, 0.4, 0.1, 0.3, 4), (SEASONAL.astype(np.float32), 4, 0.5, 0.2, 0.1, 2)]
)
def holt_winters_additive(y, season, alpha, beta, gamma, horizon):
    """Additive Holt-Winters with initial seasonals from the first season's deviations."""
    level = np.mean(y[:season])
    trend = (np.mean(y[season : 2 * season]) - level) / season
    seasonals = [y[i] - level for i in range(season)]
    fitted = []
    for t in range(len(y)):
        s = seasonals[t % season]
        fitted.append(level + trend + s)
        last_level = level
        level = alpha * (y[t] - s) + (1 - alpha) * (level + trend)
        trend = beta * (level - last_level) + (1 - beta) * trend
        seasonals[t % season] = gamma * (y[t] - level) + (1 - gamma) * s
    forecast = [
        level + h * trend + seasonals[(len(y) + h - 1) % season] for h in range(1, horizon + 1)
    ]
    return np.array(fitted), np.array(forecast)


@CASES.case(args=[(0.2,), (0.05,), (0.45,)])
def butterworth_lowpass_2nd(cutoff):
    """Second-order Butterworth low-pass coefficients by the bilinear transform with prewarping;
    cutoff as a fraction of the sample rate. Returns (b, a) normalised so a[0] == 1."""
    wc = math.tan(math.pi * cutoff)
    k1 = math.sqrt(2) * wc
    k2 = wc * wc
    a0 = 1 + k1 + k2
    b = np.array([k2, 2 * k2, k2]) / a0
    a = np.array([1.0, 2 * (k2 - 1) / a0, (1 - k1 + k2) / a0])
    return b, a


@CASES.case(args=[(np.array(SIGNAL), 0.3), (np.array([1, 5, 2, 8]), 0.5), (np.zeros(0), 0.1)])
def exponential_smoothing_array(x, alpha):
    """Simple exponential smoothing into a preallocated array, seeded with the first sample."""
    s = np.zeros_like(x, dtype=float)
    if len(x) == 0:
        return s
    s[0] = x[0]
    for t in range(1, len(x)):
        s[t] = alpha * x[t] + (1 - alpha) * s[t - 1]
    return s


@CASES.case(args=[(np.array(SIGNAL), 0.9), (np.array(SIGNAL, dtype=np.float32), np.float32(0.5))])
def dc_removal_inplace(x, r):
    """A one-pole DC blocker y[n] = x[n] - x[n-1] + r y[n-1], written over the input."""
    prev_x = 0.0
    prev_y = 0.0
    for n in range(len(x)):
        cur = x[n]
        x[n] = cur - prev_x + r * prev_y
        prev_x = cur
        prev_y = x[n]
    return prev_y


@CASES.case(
    args=[
        (np.array([[1.0, 2.0, 3.0], [4.0, 50.0, 6.0], [7.0, 8.0, 9.0]]),),
        (np.arange(12.0).reshape(3, 4),),
    ]
)
def median_filter_3x3(img):
    """A 3x3 median filter on an image, edges replicated by np.pad."""
    padded = np.pad(img, 1, mode="edge")
    out = np.empty_like(img)
    rows, cols = img.shape
    for i in range(rows):
        for j in range(cols):
            out[i, j] = np.median(padded[i : i + 3, j : j + 3])
    return out
