"""Spectral tools written without SciPy: the analytic signal by zeroing negative frequencies
(complex arrays throughout), the envelope and instantaneous frequency, the real and power
cepstrum, a multitaper estimate with sine tapers, coherence from Welch cross-spectra, spectral
entropy, a chirp generator and a Lomb-Scargle periodogram with a floating mean."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("spectral")

N = 16
T = np.arange(N)
TONE = np.cos(2 * np.pi * 3 * T / N) + 0.5 * np.sin(2 * np.pi * 5 * T / N)
NOISY = TONE + np.array([0.1, -0.2, 0.05, 0.3, -0.1, 0.0, 0.2, -0.3] * 2)
UNEVEN_T = np.array([0.0, 0.3, 0.45, 1.1, 1.25, 1.9, 2.4, 2.5, 3.3, 3.8])
UNEVEN_Y = np.sin(2 * np.pi * 0.7 * UNEVEN_T) + 0.3


@CASES.case(args=[(TONE,), (TONE[:7],), (NOISY.astype(np.float32),)])
def hilbert_by_fft(x):
    """The analytic signal: FFT, double the positive bins, zero the negative ones, inverse."""
    n = len(x)
    X = np.fft.fft(x)
    h = np.zeros(n)
    if n % 2 == 0:
        h[0] = h[n // 2] = 1
        h[1 : n // 2] = 2
    else:
        h[0] = 1
        h[1 : (n + 1) // 2] = 2
    return np.fft.ifft(X * h)


@CASES.case(args=[(TONE, 16.0), (NOISY, 8.0)])
def envelope_and_instantaneous_frequency(x, fs):
    """Amplitude envelope and instantaneous frequency from the unwrapped phase."""
    X = np.fft.fft(x)
    n = len(x)
    X[1 : n // 2] *= 2
    X[n // 2 + 1 :] = 0
    z = np.fft.ifft(X)
    env = np.abs(z)
    phase = np.unwrap(np.angle(z))
    inst_f = np.diff(phase) / (2 * np.pi) * fs
    return env, inst_f


@CASES.case(args=[(TONE,), (NOISY,), (np.ones(4),)])
def real_cepstrum_floor(x):
    """The real cepstrum with a floor under the log magnitude, and its strongest quefrency."""
    spec = np.abs(np.fft.fft(x))
    spec[spec < 1e-10] = 1e-10
    ceps = np.fft.ifft(np.log(spec)).real
    peak = int(np.argmax(ceps[1 : len(ceps) // 2])) + 1 if len(ceps) > 3 else 0
    return ceps, peak


@CASES.case(args=[(NOISY, 3), (TONE, 2), (NOISY[:8], 1)])
def multitaper_sine(x, k_tapers):
    """A multitaper estimate with the sine tapers sqrt(2/(N+1)) sin(pi k n/(N+1)), averaged."""
    n = len(x)
    idx = np.arange(1, n + 1)
    spectra = []
    for k in range(1, k_tapers + 1):
        taper = np.sqrt(2.0 / (n + 1)) * np.sin(np.pi * k * idx / (n + 1))
        spectra.append(np.abs(np.fft.rfft(taper * x)) ** 2)
    return np.mean(np.stack(spectra), axis=0)


@CASES.case(args=[(TONE, NOISY, 8), (NOISY, NOISY[::-1].copy(), 4)])
def coherence_welch(x, y, seg):
    """Magnitude-squared coherence from Hann-windowed segments with half overlap."""
    win = np.hanning(seg)
    pxx = pyy = 0
    pxy = 0j
    step = seg // 2
    count = 0
    for start in range(0, len(x) - seg + 1, step):
        fx = np.fft.rfft(win * x[start : start + seg])
        fy = np.fft.rfft(win * y[start : start + seg])
        pxx = pxx + np.abs(fx) ** 2
        pyy = pyy + np.abs(fy) ** 2
        pxy = pxy + fx * np.conj(fy)
        count += 1
    return np.abs(pxy) ** 2 / (pxx * pyy), count


@CASES.case(args=[(TONE,), (NOISY,), (np.zeros(8),)])
def spectral_entropy(x):
    """Normalised Shannon entropy of the power spectrum; a silent signal has entropy 0."""
    psd = np.abs(np.fft.rfft(x)) ** 2
    total = psd.sum()
    if total == 0:
        return 0.0
    p = psd / total
    p = p[p > 0]
    return float(-np.sum(p * np.log2(p)) / math.log2(len(psd)))


@CASES.case(args=[(16, 1.0, 4.0, 16.0), (10, 0.5, 2.0, 10.0)])
def linear_chirp(n, f0, f1, fs):
    """A linear chirp by integrating the instantaneous frequency sample by sample."""
    out = np.zeros(n)
    phase = 0.0
    for i in range(n):
        f = f0 + (f1 - f0) * i / (n - 1)
        out[i] = math.sin(phase)
        phase += 2 * math.pi * f / fs
    return out


@CASES.case(
    args=[
        (UNEVEN_T, UNEVEN_Y, np.array([0.3, 0.7, 1.2])),
        (UNEVEN_T[:6], UNEVEN_Y[:6], np.array([0.5])),
    ]
)
def lomb_scargle_floating_mean(t, y, freqs):
    """Lomb-Scargle with the time offset tau per frequency, on mean-removed data."""
    y = y - y.mean()
    var = y.var()
    power = np.empty(len(freqs))
    for i, f in enumerate(freqs):
        w = 2 * np.pi * f
        tau = np.arctan2(np.sum(np.sin(2 * w * t)), np.sum(np.cos(2 * w * t))) / (2 * w)
        c = np.cos(w * (t - tau))
        s = np.sin(w * (t - tau))
        power[i] = (np.dot(y, c) ** 2 / np.dot(c, c) + np.dot(y, s) ** 2 / np.dot(s, s)) / (2 * var)
    return power


@CASES.case(args=[(TONE, 4), (NOISY, 8), (TONE[:3], 4)])
def periodogram_detrended(x, nfft_factor):
    """Removes a least-squares line, zero-pads to a power of two, one-sided periodogram."""
    n = len(x)
    t = np.arange(n)
    A = np.vstack([t, np.ones(n)]).T
    coef = np.linalg.lstsq(A, x, rcond=None)[0]
    resid = x - A @ coef
    nfft = 1
    while nfft < n * nfft_factor:
        nfft *= 2
    p = np.abs(np.fft.rfft(resid, nfft)) ** 2 / n
    p[1:-1] *= 2
    return p, nfft


@CASES.case(
    args=[(TONE + 1j * NOISY,), (np.exp(1j * np.arange(8) * 0.7),), (np.zeros(3, complex),)]
)
def complex_baseband_power(z):
    """Power, mean frequency offset from the phase increments, and the conjugate-symmetric
    check of a complex baseband signal."""
    power = np.mean(z.real**2 + z.imag**2)
    if len(z) < 2:
        return power, 0.0, True
    dphi = np.angle(z[1:] * np.conj(z[:-1]))
    spec = np.fft.fft(z)
    symmetric = bool(np.allclose(spec[1:], np.conj(spec[1:][::-1])))
    return power, dphi.mean(), symmetric


@CASES.case(args=[(TONE, 3), (NOISY, 5), (TONE[:4], 2)])
def top_k_bins_heap(x, k):
    """The k strongest rfft bins with heapq.nlargest over (power, bin) pairs made with .item()."""
    import heapq

    power = np.abs(np.fft.rfft(x)) ** 2
    pairs = [(power[i].item(), i) for i in range(len(power))]
    best = heapq.nlargest(k, pairs)
    return [b for _, b in best], [p for p, _ in best]


@CASES.case(args=[(TONE,), (NOISY,), (np.array([1.0, -1.0]),)])
def autocorr_direct_vs_fft(x):
    """The biased autocorrelation by loops and by the FFT with zero padding, and their gap."""
    n = len(x)
    direct = []
    for lag in range(n):
        s = 0.0
        for i in range(n - lag):
            s += x[i] * x[i + lag]
        direct.append(s / n)
    F = np.fft.rfft(x, 2 * n)
    via_fft = np.fft.irfft(F * np.conj(F))[:n] / n
    return np.array(direct), np.max(np.abs(np.array(direct) - via_fft))
