"""Filters as people write them: Kalman filters, exponential averages, a biquad, moving medians,
Savitzky-Golay smoothing by convolution, Hampel outlier replacement, in-place one-pole filters."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import NOISY, STEPS

CASES = Registry("filters")


@CASES.case(
    args=[(NOISY, 1e-3, 0.1), (NOISY.astype(np.float32), 0.01, 0.5), (np.array([]), 0.1, 0.1)]
)
def kalman_1d(zs, q, r, x0=0.0, p0=1.0):
    """A scalar random-walk Kalman filter; returns the estimates and final variance."""
    x, p = x0, p0
    estimates = []
    for z in zs:
        p = p + q
        k = p / (p + r)
        x = x + k * (z - x)
        p = (1 - k) * p
        estimates.append(x)
    return np.array(estimates), p


@CASES.case(args=[(np.array([0.0, 1.1, 1.9, 3.2, 3.9, 5.1]), 1.0), (np.array([2.0, 2.0]), 0.5)])
def kalman_2d_constant_velocity(zs, dt):
    """Position and velocity from noisy positions; the state history is written in place."""
    f = np.array([[1.0, dt], [0.0, 1.0]])
    h = np.array([[1.0, 0.0]])
    q = 0.01 * np.eye(2)
    r = np.array([[0.25]])
    x = np.array([zs[0], 0.0])
    p = np.eye(2)
    history = np.zeros((len(zs), 2))
    for i in range(len(zs)):
        x = f @ x
        p = f @ p @ f.T + q
        y = zs[i] - (h @ x)[0]
        s = h @ p @ h.T + r
        k = p @ h.T / s[0, 0]
        x = x + k[:, 0] * y
        p = (np.eye(2) - k @ h) @ p
        history[i] = x
    return history, np.trace(p)


@CASES.case(args=[(NOISY, 3), (NOISY, 5), (np.arange(4.0), 1), (NOISY, 4)])
def moving_median(x, k):
    if k % 2 == 0:
        raise ValueError("window must be odd")
    half = k // 2
    out = np.empty_like(x)
    for i in range(len(x)):
        lo = max(0, i - half)
        hi = min(len(x), i + half + 1)
        window = np.sort(x[lo:hi])
        out[i] = window[len(window) // 2]
    return out


@CASES.case(args=[(NOISY,), (np.arange(7.0) ** 2,), (np.arange(4.0),)])
def savgol5(x):
    """Five-point quadratic Savitzky-Golay smoothing; the two samples at each end are kept."""
    coeffs = np.array([-3.0, 12.0, 17.0, 12.0, -3.0]) / 35.0
    if len(x) < 5:
        raise ValueError(f"need at least 5 samples, got {len(x)}")
    smooth = x.copy()
    smooth[2:-2] = np.convolve(x, coeffs[::-1], mode="valid")
    return smooth


@CASES.case(args=[(STEPS.copy(), 0.9), (NOISY.astype(np.float32), 0.5)])
def dc_blocker_inplace(x, r):
    """y[n] = x[n] - x[n-1] + r y[n-1], written over x."""
    prev_x = 0.0
    prev_y = 0.0
    for i in range(len(x)):
        cur = x[i]
        x[i] = cur - prev_x + r * prev_y
        prev_x = cur
        prev_y = x[i]


@CASES.case(args=[(NOISY, 0.5, -1.0, 2.0), (np.arange(5), 1.0, 0.0, 3.0), (NOISY, 0.5, 2.0, 1.0)])
def slew_limited_clip(x, max_step, lo, hi):
    """Clips to [lo, hi] and limits the change between samples to max_step."""
    if lo > hi:
        raise ValueError("lo > hi")
    y = np.clip(x, lo, hi).astype(float)
    changed = 0
    for i in range(1, len(y)):
        delta = y[i] - y[i - 1]
        if delta > max_step:
            y[i] = y[i - 1] + max_step
            changed += 1
        elif delta < -max_step:
            y[i] = y[i - 1] - max_step
            changed += 1
    return y, changed


@CASES.case(args=[(NOISY, 4), (np.arange(10.0), 3), (NOISY[:2], 5), (NOISY, 0)])
def running_mean_deque(x, window):
    """A running mean with a list used as a queue."""
    if window < 1:
        raise ValueError(f"window must be at least 1, got {window}")
    queue = []
    total = 0.0
    out = []
    for v in x:
        queue.append(v)
        total += v
        if len(queue) > window:
            total -= queue.pop(0)
        out.append(total / len(queue))
    return np.array(out)


@CASES.case(
    args=[(NOISY, 0.5), (np.array([1.0, np.nan, 3.0, 4.0]), 1.0), (np.array([np.nan, 2.0]), 0.5)]
)
def nan_aware_smoother(x, alpha):
    """An exponential smoother that carries the last estimate over NaN samples."""
    y = np.full(len(x), np.nan)
    level = None
    for i, v in enumerate(x):
        if np.isnan(v):
            if level is not None:
                y[i] = level
            continue
        level = v if level is None else alpha * v + (1 - alpha) * level
        y[i] = level
    return y, level


class RingBuffer:
    def __init__(self, n):
        self.buf = np.zeros(n)
        self.pos = 0
        self.full = False

    def push(self, v):
        self.buf[self.pos] = v
        self.pos = (self.pos + 1) % len(self.buf)
        if self.pos == 0:
            self.full = True


@CASES.case(args=[(RingBuffer(3), NOISY[:4]), (RingBuffer(4), NOISY[:1])])
def ring_buffer_mean(ring, xs):
    for v in xs:
        ring.push(v)
    return ring.buf.mean() if ring.full else ring.buf[: ring.pos].mean()


def _savgol_coefficients(window, order):
    half = window // 2
    offsets = np.arange(-half, half + 1)
    design = np.vander(offsets, order + 1, increasing=True)
    return np.linalg.pinv(design)[0]


@CASES.case(args=[(NOISY, 5, 2), (NOISY, 7, 3), (NOISY, 4, 2), (NOISY[:3], 5, 2)])
def savgol_general(x, window, order):
    """Savitzky-Golay smoothing for any odd window, coefficients from a least-squares fit;
    edges are mirrored."""
    if window % 2 == 0 or window <= order:
        raise ValueError(f"window {window} must be odd and larger than order {order}")
    half = window // 2
    if len(x) <= half:
        raise ValueError("signal shorter than half the window")
    coeffs = _savgol_coefficients(window, order)
    padded = np.concatenate([x[half:0:-1], x, x[-2 : -half - 2 : -1]])
    out = np.empty(len(x))
    for i in range(len(x)):
        out[i] = np.dot(coeffs, padded[i : i + window])
    return out


@CASES.case(args=[(NOISY, 3), (np.array([1.0, 9.0, 2.0, 8.0, 3.0]), 5), (np.array([4.0]), 3)])
def median_filter(x, k):
    """A median filter with ``np.median`` on windows that shrink at the edges."""
    half = k // 2
    out = []
    for i in range(len(x)):
        window = x[max(i - half, 0) : i + half + 1]
        out.append(np.median(window))
    return np.array(out)


@CASES.case(args=[(STEPS, 0.3, 0.1), (NOISY, 2.0, 0.5), (np.array([1.0, np.nan, 1.0]), 0.5, 0.1)])
def schmitt_trigger(x, high, low):
    """A comparator with hysteresis: the state flips up above ``high``, down below ``low``;
    the number of flips is counted."""
    state = False
    flips = 0
    out = np.zeros(len(x), dtype=bool)
    for i in range(len(x)):
        if not state and x[i] > high:
            state = True
            flips += 1
        elif state and x[i] < low:
            state = False
            flips += 1
        out[i] = state
    return out, flips


class LowPass:
    """A first-order low-pass filter object with a time constant and the last output."""

    def __init__(self, tau, dt):
        self.alpha = dt / (tau + dt)
        self.y = None

    def __call__(self, x):
        if self.y is None:
            self.y = x
        else:
            self.y = self.y + self.alpha * (x - self.y)
        return self.y


@CASES.case(args=[(LowPass(0.5, 0.1), NOISY), (LowPass(0.0, 1.0), STEPS[:3])])
def low_pass_object(lp, xs):
    return np.array([lp(x) for x in xs]), lp.y


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(
    args=[
        (np.array([0.2, 0.2]), np.array([1.0, -0.6]), NOISY),
        (np.array([1.0, -1.0, 0.5]), np.array([2.0, 0.3, 0.1]), STEPS),
        ([0.5], [1.0], [1.0, 2.0, 3.0]),
    ]
)
def lfilter_df2t(b, a, x):
    """IIR filtering by direct form II transposed, normalising by a[0] like scipy.signal.lfilter."""
    b = np.asarray(b, dtype=float)
    a = np.asarray(a, dtype=float)
    x = np.asarray(x, dtype=float)
    if a[0] == 0:
        raise ValueError("a[0] must be nonzero")
    n = max(len(a), len(b))
    b = np.concatenate([b, np.zeros(n - len(b))]) / a[0]
    a = np.concatenate([a, np.zeros(n - len(a))]) / a[0]
    z = np.zeros(n)
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = b[0] * x[i] + z[0]
        for k in range(1, n):
            z[k - 1] = b[k] * x[i] + z[k] - a[k] * y[i]
    return y, z[: n - 1]


SOS = np.array([[0.2, 0.4, 0.2, 1.0, -0.5, 0.2], [1.0, -1.0, 0.0, 1.0, -0.3, 0.0]])


@CASES.case(args=[(SOS, NOISY), (SOS[:1], STEPS), (SOS, np.array([]))])
def sos_cascade(sos, x):
    """A cascade of biquads (second-order sections), each in direct form I with its own history."""
    y = x.copy()
    for section in sos:
        b0, b1, b2, a0, a1, a2 = section
        x1 = x2 = y1 = y2 = 0.0
        out = np.zeros(len(y))
        for n in range(len(y)):
            xn = y[n]
            yn = (b0 * xn + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0
            x2, x1 = x1, xn
            y2, y1 = y1, yn
            out[n] = yn
        y = out
    return y


@CASES.case(
    args=[(np.array([0.25, 0.5, 0.25]), NOISY), (np.array([1.0]), STEPS), ([1, 2, 3], [1, 0, 0, 1])]
)
def fir_by_loops(h, x):
    """An FIR filter by the convolution sum, output as long as the input (zero history)."""
    y = []
    for n in range(len(x)):
        acc = 0
        for k in range(len(h)):
            if n - k >= 0:
                acc += h[k] * x[n - k]
        y.append(acc)
    return y


@CASES.case(args=[(NOISY, 5, 1), (NOISY, 3, 0), (STEPS, 5, 2), (NOISY, 4, 1)])
def alpha_trimmed_mean(x, window, trim):
    """A sliding alpha-trimmed mean: sort each full window, drop ``trim`` from each end."""
    if window % 2 != 1:
        raise ValueError("window must be odd")
    if 2 * trim >= window:
        raise ValueError("trimming removes the whole window")
    half = window // 2
    out = x.copy()
    for i in range(half, len(x) - half):
        w = sorted(x[i - half : i + half + 1])
        kept = w[trim : window - trim]
        out[i] = sum(kept) / len(kept)
    return out


class LeakyIntegrator:
    """y += (x - y) * k per sample, the state carried from one block to the next."""

    def __init__(self, k):
        self.k = k
        self.state = 0.0
        self.samples = 0

    def process(self, block):
        out = np.empty_like(block)
        for i, v in enumerate(block):
            self.state += (v - self.state) * self.k
            out[i] = self.state
        self.samples += len(block)
        return out


@CASES.case(args=[(LeakyIntegrator(0.3), NOISY, 4), (LeakyIntegrator(1.0), STEPS, 3)])
def leaky_integrator_blocks(filt, x, block):
    """Feeds the signal through a stateful filter object block by block."""
    pieces = []
    for start in range(0, len(x), block):
        pieces.append(filt.process(x[start : start + block]))
    return np.concatenate(pieces), filt.samples


@CASES.case(
    args=[(STEPS > 0.5, 2), (np.array([True, False, True, True, True, False]), 3), (STEPS > 0.5, 1)]
)
def debounce(bits, n):
    """A debounced switch: the output changes only after n equal samples in a row."""
    out = np.zeros(len(bits), dtype=bool)
    current = bool(bits[0]) if len(bits) else False
    run = 0
    for i in range(len(bits)):
        if bits[i] != current:
            run += 1
            if run >= n:
                current = not current
                run = 0
        else:
            run = 0
        out[i] = current
    return out


class OneEuro:
    """The 1-euro filter: a low-pass whose cutoff rises with the speed of the signal."""

    def __init__(self, rate, min_cutoff=1.0, beta=0.0, d_cutoff=1.0):
        self.rate = rate
        self.min_cutoff = min_cutoff
        self.beta = beta
        self.d_cutoff = d_cutoff
        self.x_prev = None
        self.dx_prev = 0.0

    @staticmethod
    def smoothing(cutoff, rate):
        tau = 1.0 / (2 * math.pi * cutoff)
        return 1.0 / (1.0 + tau * rate)

    def __call__(self, x):
        if self.x_prev is None:
            self.x_prev = x
            return x
        dx = (x - self.x_prev) * self.rate
        a_d = self.smoothing(self.d_cutoff, self.rate)
        dx_hat = a_d * dx + (1 - a_d) * self.dx_prev
        cutoff = self.min_cutoff + self.beta * abs(dx_hat)
        a = self.smoothing(cutoff, self.rate)
        x_hat = a * x + (1 - a) * self.x_prev
        self.x_prev = x_hat
        self.dx_prev = dx_hat
        return x_hat


@CASES.case(args=[(OneEuro(30.0, 1.0, 0.1), NOISY), (OneEuro(10.0), STEPS)])
def one_euro_filter(f, xs):
    return [f(x) for x in xs], f.dx_prev


@CASES.case(args=[(NOISY.copy(),), (np.arange(6),), (np.array([2.0]),)])
def first_difference_inplace(x):
    """Replaces a signal by its first difference in place with overlapping slices
    (NumPy buffers the overlap, so each difference uses the old neighbour)."""
    x[1:] -= x[:-1]
    return x[1:].std() if len(x) > 1 else 0.0


@CASES.case(args=[(NOISY.copy(), 1.0), (STEPS.copy(), 0.5), (np.arange(5.0), 10.0)])
def clip_spikes_masked(x, limit):
    """Pulls samples beyond +-limit halfway back with masked augmented assignments; counts them."""
    above = x > limit
    below = x < -limit
    x[above] -= (x[above] - limit) / 2
    x[below] += (-limit - x[below]) / 2
    return int(above.sum() + below.sum())


@CASES.case(args=[(np.stack([NOISY[:6], NOISY[6:]]), 0.5), (np.eye(3), 0.25)])
def smooth_rows_by_views(m, alpha):
    """Exponential smoothing along each row of a matrix, written through row views."""
    for r in range(m.shape[0]):
        row = m[r]
        for i in range(1, len(row)):
            row[i] = alpha * row[i] + (1 - alpha) * row[i - 1]
    return m.sum(axis=1)


@CASES.case(args=[(NOISY.copy(), 2), (STEPS.copy(), 3)])
def decimate_inplace(x, factor):
    """Averages blocks of ``factor`` samples into the strided view x[::factor] (the caller's
    array changes) and returns that view's copy."""
    view = x[::factor]
    for i in range(len(view)):
        block = x[i * factor : (i + 1) * factor]
        view[i] = block.mean()
    return view.copy()


@CASES.case(args=[(NOISY.copy(),), (np.arange(5.0),)])
def cumulative_inplace(x):
    """Running sum written over its input with out=, then centred in place."""
    np.cumsum(x, out=x)
    x -= x.mean()
    return x
