"""Spectral estimation the way tutorials write it: DFTs by loops over Python lists and arrays,
Bartlett, Welch and Blackman-Tukey estimates, Yule-Walker and Burg AR spectra, Lomb-Scargle for
uneven samples, autocorrelation through the FFT, windowed STFT frames and peak picking."""

import cmath
import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("spectral")

N = 32
TONES = np.sin(2 * np.pi * 4 * np.arange(N) / N) + 0.4 * np.sin(2 * np.pi * 9 * np.arange(N) / N)
AR2 = np.array(
    [0.3, 0.8, 1.1, 0.5, -0.2, -0.9, -0.6, 0.1, 0.7, 0.9, 0.2, -0.5, -0.8, -0.3, 0.4, 0.6]
)
TIMES = np.array([0.0, 0.13, 0.35, 0.41, 0.77, 0.9, 1.22, 1.3, 1.61, 1.84, 2.05, 2.3])


@CASES.case(args=[([1.0, 2.0, 0.0, -1.0],), ([0.5],), ([],), (list(TONES[:6]),)])
def dft_with_cmath(x):
    """The DFT of a list by the definition, with cmath.exp, returning a list of complex."""
    n = len(x)
    out = []
    for k in range(n):
        s = 0j
        for t in range(n):
            s += x[t] * cmath.exp(-2j * math.pi * k * t / n)
        out.append(s)
    return out


@CASES.case(args=[(TONES[:8],), (np.array([1, 0, -1, 0]),), (np.ones(3, dtype=np.float32),)])
def dft_matrix(x):
    """The DFT as a matrix-vector product, and its magnitude in dB with a floor."""
    n = len(x)
    k = np.arange(n).reshape(-1, 1)
    m = np.exp(-2j * np.pi * k * np.arange(n) / n)
    X = m @ x
    db = 20 * np.log10(np.maximum(np.abs(X), 1e-12))
    return X, db


@CASES.case(args=[(TONES, 8), (AR2, 4), (TONES[:5], 8)])
def bartlett_segments(x, seg_len):
    """Bartlett's method: average the periodograms of non-overlapping segments."""
    n_seg = len(x) // seg_len
    if n_seg == 0:
        raise ValueError(f"signal of length {len(x)} is shorter than one segment ({seg_len})")
    psd = np.zeros(seg_len // 2 + 1)
    for s in range(n_seg):
        seg = x[s * seg_len : (s + 1) * seg_len]
        psd += np.abs(np.fft.rfft(seg)) ** 2 / seg_len
    return psd / n_seg


@CASES.case(args=[(TONES, 16, 8, 1.0), (AR2, 8, 4, 10.0), (TONES.astype(np.float32), 8, 2, 2.0)])
def welch_hamming(x, nperseg, step, fs):
    """Welch's method with a Hamming window, overlapping segments and a density scaling."""
    win = np.hamming(nperseg)
    scale = 1.0 / (fs * np.sum(win**2))
    segments = []
    start = 0
    while start + nperseg <= len(x):
        seg = x[start : start + nperseg]
        seg = seg - np.mean(seg)
        spec = np.abs(np.fft.rfft(seg * win)) ** 2 * scale
        spec[1:-1] *= 2
        segments.append(spec)
        start += step
    freqs = np.fft.rfftfreq(nperseg, 1 / fs)
    return freqs, np.mean(segments, axis=0), len(segments)


@CASES.case(args=[(AR2, 5), (TONES, 8)])
def blackman_tukey(x, max_lag):
    """Blackman-Tukey: the biased autocovariance up to max_lag, Bartlett-weighted, transformed."""
    n = len(x)
    xc = x - x.mean()
    r = np.array([np.sum(xc[: n - k] * xc[k:]) / n for k in range(max_lag + 1)])
    weights = 1 - np.arange(max_lag + 1) / (max_lag + 1)
    rw = r * weights
    freqs = np.linspace(0, 0.5, 9)
    psd = np.array(
        [
            rw[0] + 2 * np.sum(rw[1:] * np.cos(2 * np.pi * f * np.arange(1, max_lag + 1)))
            for f in freqs
        ]
    )
    return freqs, psd


@CASES.case(args=[(AR2, 2), (TONES, 4), (np.array([1.0, -1.0, 1.0, -1.0, 1.0]), 1)])
def yule_walker_spectrum(x, order):
    """AR coefficients by solving the Yule-Walker (Toeplitz) equations, and the AR spectrum."""
    x = x - np.mean(x)
    n = len(x)
    r = np.array([np.dot(x[: n - k], x[k:]) / n for k in range(order + 1)])
    R = np.empty((order, order))
    for i in range(order):
        for j in range(order):
            R[i, j] = r[abs(i - j)]
    phi = np.linalg.solve(R, r[1:])
    sigma2 = r[0] - phi @ r[1:]
    freqs = np.linspace(0.0, 0.5, 17)
    k = np.arange(1, order + 1)
    denom = np.abs(1 - np.exp(-2j * np.pi * np.outer(freqs, k)) @ phi) ** 2
    return phi, sigma2, sigma2 / denom


@CASES.case(args=[(AR2, 2), (TONES, 3), (AR2.astype(np.float32), 1)])
def burg_coefficients(x, order):
    """Burg's method: reflection coefficients from forward and backward prediction errors."""
    f = np.array(x, dtype=float)
    b = f.copy()
    a = np.array([1.0])
    e = np.dot(f, f) / len(f)
    for m in range(order):
        fm = f[m + 1 :]
        bm = b[m:-1]
        k = -2.0 * np.dot(fm, bm) / (np.dot(fm, fm) + np.dot(bm, bm))
        f_new = fm + k * bm
        b_new = bm + k * fm
        f[m + 1 :] = f_new
        b[m + 1 :] = b_new
        a = np.concatenate([a, [0.0]])
        a = a + k * a[::-1]
        e *= 1 - k * k
    return a, e


@CASES.case(
    args=[
        (TIMES, np.sin(2 * np.pi * 0.8 * TIMES), np.array([0.4, 0.8, 1.2])),
        (TIMES[:4], np.ones(4), np.array([0.5])),
    ]
)
def lomb_scargle(t, y, freqs):
    """The Lomb-Scargle periodogram for unevenly sampled data, with the tau phase offset."""
    y = y - y.mean()
    power = np.zeros(len(freqs))
    for i, f in enumerate(freqs):
        w = 2 * np.pi * f
        tau = np.arctan2(np.sum(np.sin(2 * w * t)), np.sum(np.cos(2 * w * t))) / (2 * w)
        c = np.cos(w * (t - tau))
        s = np.sin(w * (t - tau))
        cc, ss = np.sum(c * c), np.sum(s * s)
        term_c = np.sum(y * c) ** 2 / cc if cc > 0 else 0.0
        term_s = np.sum(y * s) ** 2 / ss if ss > 0 else 0.0
        power[i] = 0.5 * (term_c + term_s)
    return power


@CASES.case(args=[(TONES,), (AR2,), (np.array([2.0, 2.0, 2.0]),), ([1.0, -1.0, 0.5],)])
def autocorr_fft(x):
    """The normalised autocorrelation through a zero-padded FFT; constant input gives NaN."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    x = x - x.mean()
    f = np.fft.fft(x, n=2 * n)
    acf = np.fft.ifft(f * np.conj(f))[:n].real
    return acf / acf[0]


@CASES.case(args=[(TONES, 8, 4), (AR2, 6, 3), (TONES[:4], 8, 4)])
def stft_frames_hann(x, frame_len, hop):
    """Framing with a Hann window, the magnitude STFT and each frame's spectral centroid."""
    window = np.hanning(frame_len)
    n_frames = 1 + (len(x) - frame_len) // hop if len(x) >= frame_len else 0
    frames = np.zeros((n_frames, frame_len))
    for i in range(n_frames):
        frames[i] = x[i * hop : i * hop + frame_len] * window
    mags = np.abs(np.fft.rfft(frames, axis=1))
    bins = np.arange(mags.shape[1])
    totals = mags.sum(axis=1)
    centroids = np.where(
        totals > 0, (mags * bins).sum(axis=1) / np.where(totals > 0, totals, 1.0), 0.0
    )
    return mags, centroids


@CASES.case(
    args=[
        (np.abs(np.fft.rfft(TONES)), 1.0),
        (np.array([0.0, 3.0, 3.0, 1.0, 5.0, 2.0]), 2.0),
        ([1.0], 0.0),
    ]
)
def pick_peaks_threshold(mag, threshold):
    """Local maxima above threshold (plateaus count once, at their left edge), largest first."""
    peaks = []
    for i in range(1, len(mag) - 1):
        if mag[i] > threshold and mag[i] > mag[i - 1] and mag[i] >= mag[i + 1]:
            peaks.append((mag[i], i))
    peaks.sort(reverse=True)
    return [i for _, i in peaks]


@CASES.case(args=[(TONES, 32.0), (AR2, 100.0), (np.zeros(8), 1.0)])
def dominant_frequency_interp(x, fs):
    """The strongest non-DC bin, refined by parabolic interpolation on the log magnitude."""
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    k = int(np.argmax(spec[1:])) + 1
    if k == len(spec) - 1 or spec[k] == 0:
        return k * fs / len(x)
    a, b, c = np.log(spec[k - 1] + 1e-20), np.log(spec[k]), np.log(spec[k + 1] + 1e-20)
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + offset) * fs / len(x)


@CASES.case(args=[(TONES, 4.0, 32.0), (TONES, 9.0, 32.0), (AR2, 1.0, 16.0)])
def goertzel_single(samples, target_freq, fs):
    """Goertzel's algorithm for one frequency: the squared magnitude of that DFT bin."""
    n = len(samples)
    k = int(0.5 + n * target_freq / fs)
    w = 2.0 * math.pi * k / n
    coeff = 2.0 * math.cos(w)
    s_prev = s_prev2 = 0.0
    for sample in samples:
        s = sample + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    return s_prev2**2 + s_prev**2 - coeff * s_prev * s_prev2


@CASES.case(args=[(TONES, 32.0), (AR2.astype(np.float32), 8.0)])
def periodogram_one_sided(x, fs):
    """The one-sided periodogram with density scaling, and the total power by the sum."""
    n = len(x)
    X = np.fft.rfft(x)
    pxx = (np.abs(X) ** 2) / (fs * n)
    if n % 2 == 0:
        pxx[1:-1] *= 2
    else:
        pxx[1:] *= 2
    freqs = np.fft.rfftfreq(n, d=1.0 / fs)
    return freqs, pxx, np.sum(pxx) * (fs / n)
