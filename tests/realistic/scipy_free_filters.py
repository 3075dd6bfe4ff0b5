"""Filters people write when they may not import SciPy: ``lfilter`` and ``filtfilt`` by hand
(odd extension at the edges, a reversed second pass), Butterworth biquads from the bilinear
transform, a notch, a CIC decimator on int arrays, a one-pole smoother on float32 samples, a
zero-order hold and a Chebyshev-style ripple check with ``math.isclose``."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("filters")

SIG = np.array([0.1, 0.9, 1.4, 0.7, -0.3, -1.1, -0.6, 0.2, 1.0, 1.3, 0.5, -0.4, -0.9, -0.2])
B3 = np.array([0.2, 0.3, 0.2])
A3 = np.array([1.0, -0.5, 0.2])


@CASES.case(args=[(B3, A3, SIG), (B3, A3, SIG.astype(np.float32)), (B3, A3, np.array([]))])
def lfilter_direct_form_1(b, a, x):
    """y[n] = (sum b[k] x[n-k] - sum a[k] y[n-k]) / a[0], written with two inner loops."""
    b = b / a[0]
    a = a / a[0]
    y = np.zeros(len(x))
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(b)):
            if n - k >= 0:
                acc += b[k] * x[n - k]
        for k in range(1, len(a)):
            if n - k >= 0:
                acc -= a[k] * y[n - k]
        y[n] = acc
    return y


def _lfilter(b, a, x):
    y = np.zeros_like(x, dtype=float)
    for n in range(len(x)):
        acc = 0.0
        for k in range(len(b)):
            if n >= k:
                acc += b[k] * x[n - k]
        for k in range(1, len(a)):
            if n >= k:
                acc -= a[k] * y[n - k]
        y[n] = acc / a[0]
    return y


@CASES.case(args=[(B3, A3, SIG, 3), (np.array([0.5, 0.5]), np.array([1.0]), SIG[:6], 2)])
def filtfilt_odd_extension(b, a, x, padlen):
    """Zero-phase filtering: extend both ends by odd reflection, filter forwards, reverse,
    filter again, reverse, and cut the padding off."""
    if len(x) <= padlen:
        raise ValueError(f"x has {len(x)} samples, needs more than padlen={padlen}")
    left = 2 * x[0] - x[padlen:0:-1]
    right = 2 * x[-1] - x[-2 : -padlen - 2 : -1]
    ext = np.concatenate([left, x, right])
    y = _lfilter(b, a, ext)
    y = _lfilter(b, a, y[::-1])[::-1]
    return y[padlen:-padlen]


@CASES.case(args=[(100.0, 1000.0), (1.0, 8.0), (49.0, 100.0)])
def butterworth_biquad_coefficients(fc, fs):
    """Second-order Butterworth low-pass by the bilinear transform with prewarping."""
    if not 0 < fc < fs / 2:
        raise ValueError("cutoff must lie between 0 and Nyquist")
    k = math.tan(math.pi * fc / fs)
    q = 1 / math.sqrt(2)
    norm = 1 / (1 + k / q + k * k)
    b0 = k * k * norm
    b = [b0, 2 * b0, b0]
    a = [1.0, 2 * (k * k - 1) * norm, (1 - k / q + k * k) * norm]
    return b, a


@CASES.case(args=[(SIG, 0.2), (SIG.astype(np.float32), 0.45), (SIG[:1], 0.1)])
def butterworth_biquad_apply(x, wc):
    """Designs the biquad for a normalised cutoff with NumPy scalars, then runs it in
    transposed direct form II with two state variables."""
    k = np.tan(np.pi * wc / 2)
    norm = 1.0 / (1.0 + np.sqrt(2.0) * k + k * k)
    b0 = k * k * norm
    b1, b2 = 2 * b0, b0
    a1 = 2 * (k * k - 1) * norm
    a2 = (1 - np.sqrt(2.0) * k + k * k) * norm
    z1 = z2 = 0.0
    out = np.empty_like(x)
    for i, xi in enumerate(x):
        yi = b0 * xi + z1
        z1 = b1 * xi - a1 * yi + z2
        z2 = b2 * xi - a2 * yi
        out[i] = yi
    return out


@CASES.case(args=[(SIG, 0.25, 0.9), (SIG, 0.1, 0.99), (np.zeros(0), 0.3, 0.5)])
def notch_filter(x, f0, r):
    """A second-order notch at normalised frequency f0 with pole radius r, by the recursion."""
    w0 = 2 * math.pi * f0
    b = [1.0, -2 * math.cos(w0), 1.0]
    a = [1.0, -2 * r * math.cos(w0), r * r]
    y = []
    x1 = x2 = y1 = y2 = 0.0
    for xn in x:
        yn = b[0] * xn + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2
        x2, x1 = x1, xn
        y2, y1 = y1, yn
        y.append(yn)
    return np.array(y)


@CASES.case(
    args=[
        (np.arange(24, dtype=np.int32) % 7, 4, 2),
        (np.arange(16, dtype=np.int64) * 3, 2, 3),
        (np.array([5, -3, 2, 8, 1, 0, 7, -2], dtype=np.int32), 2, 1),
    ]
)
def cic_decimator(x, r, stages):
    """A cascaded integrator-comb decimator in integer arithmetic: integrate at the input rate,
    keep every r-th sample, comb at the output rate, divide by the gain r**stages."""
    y = x.copy()
    for _ in range(stages):
        y = np.cumsum(y, dtype=x.dtype)
    y = y[r - 1 :: r]
    for _ in range(stages):
        prev = np.concatenate([np.zeros(1, dtype=y.dtype), y[:-1]])
        y = y - prev
    return y // r**stages


@CASES.case(
    args=[
        (SIG.astype(np.float32), np.float32(0.3)),
        (SIG, 0.3),
        (SIG.astype(np.float32), 0.3),
    ]
)
def one_pole_float32(x, alpha):
    """An exponential smoother kept in the input's dtype: the state starts as x[0]."""
    y = np.empty_like(x)
    state = x[0]
    for i in range(len(x)):
        state = state + alpha * (x[i] - state)
        y[i] = state
    return y, state


@CASES.case(args=[(SIG, 3), (SIG[:5], 1), (SIG[:4], 4)])
def zero_order_hold_upsample(x, factor):
    """Upsampling by repeating each sample, then a boxcar of the same length to smooth it."""
    held = np.repeat(x, factor)
    kernel = np.ones(factor) / factor
    smooth = np.convolve(held, kernel, mode="same")
    return held, smooth


@CASES.case(args=[(np.array([1.0, 0.5, 0.25]), 32), (np.array([0.3, 0.3, 0.3]), 16)])
def fir_frequency_response(h, n_points):
    """The frequency response of an FIR by evaluating the polynomial on the unit circle, and
    whether its DC gain is one (math.isclose on a NumPy scalar)."""
    w = np.linspace(0, np.pi, n_points)
    H = np.zeros(n_points, dtype=complex)
    for k, hk in enumerate(h):
        H += hk * np.exp(-1j * w * k)
    unity = math.isclose(abs(H[0]), 1.0, rel_tol=1e-9)
    return np.abs(H), np.angle(H), unity


@CASES.case(args=[(SIG, 0.5), (SIG, 2.0), (np.array([0.0, 0.0, 0.0]), 0.1)])
def deadband_hysteresis(x, width):
    """A backlash (play) operator: the output follows only once the input leaves a band."""
    out = np.empty_like(x)
    y = float(x[0])
    half = width / 2
    for i in range(len(x)):
        if x[i] > y + half:
            y = x[i] - half
        elif x[i] < y - half:
            y = x[i] + half
        out[i] = y
    return out


@CASES.case(args=[(SIG, 4), (SIG, 1), (SIG[:3], 5)])
def moving_rms_cumsum(x, w):
    """Moving RMS from a cumulative sum of squares with a leading zero."""
    c = np.cumsum(np.insert(x**2, 0, 0.0))
    if w > len(x):
        return np.array([])
    return np.sqrt((c[w:] - c[:-w]) / w)


@CASES.case(args=[(SIG, 0.6, 0.05), (SIG * 10, 2.0, 0.5), (SIG[:2], 0.1, 0.1)])
def rate_limiter_and_clip(x, limit, max_step):
    """Clip to +-limit, then limit the change per sample: a list of Python floats."""
    out = []
    prev = 0.0
    for v in x:
        v = min(max(v, -limit), limit)
        step = v - prev
        if abs(step) > max_step:
            v = prev + math.copysign(max_step, step)
        out.append(v)
        prev = v
    return out


@CASES.case(args=[(SIG,), (SIG.astype(np.float32),), (np.array([2.0]),)])
def pre_emphasis_de_emphasis(x):
    """Speech pre-emphasis y[n] = x[n] - 0.97 x[n-1], then the inverse recursion, and the
    largest round-trip error."""
    y = np.append(x[0], x[1:] - 0.97 * x[:-1])
    z = np.zeros_like(y)
    z[0] = y[0]
    for n in range(1, len(y)):
        z[n] = y[n] + 0.97 * z[n - 1]
    return y, z, np.max(np.abs(z - x))
