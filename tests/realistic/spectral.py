"""Spectral estimation as people write it: DFTs by loops, Goertzel, periodograms, Welch averaging,
autocorrelation, Levinson-Durbin and Yule-Walker, zero crossings."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import SHORT, TONE

CASES = Registry("spectral")


@CASES.case(args=[(SHORT,), (TONE[:8],), (np.arange(4),)])
def dft_by_loops(x):
    n = len(x)
    re = np.zeros(n)
    im = np.zeros(n)
    for k in range(n):
        for t in range(n):
            angle = 2 * math.pi * k * t / n
            re[k] += x[t] * math.cos(angle)
            im[k] -= x[t] * math.sin(angle)
    return np.sqrt(re**2 + im**2)


@CASES.case(args=[(TONE,), (SHORT, 2.0), (np.array([1.0]),), (np.array([]),)])
def periodogram(x, fs=1.0):
    n = len(x)
    if n == 0:
        raise ValueError("empty signal")
    centred = x - np.mean(x)
    spectrum = np.abs(np.fft.rfft(centred)) ** 2 / (fs * n)
    if n % 2 == 0:
        spectrum[1:-1] *= 2
    else:
        spectrum[1:] *= 2
    freqs = np.arange(len(spectrum)) * fs / n
    return freqs, spectrum


@CASES.case(args=[(TONE, 4), (SHORT, 2), (np.zeros(4), 2), (SHORT, 9)])
def autocorrelation(x, maxlag):
    n = len(x)
    if maxlag >= n:
        raise ValueError("maxlag must be below the signal's length")
    centred = x - x.mean()
    denom = np.dot(centred, centred)
    acf = np.zeros(maxlag + 1)
    for lag in range(maxlag + 1):
        acf[lag] = np.dot(centred[: n - lag], centred[lag:]) / denom
    return acf


@CASES.case(args=[(TONE, 2), (SHORT, 1)])
def yule_walker(x, order):
    n = len(x)
    centred = x - x.mean()
    r = np.array([np.dot(centred[: n - k], centred[k:]) / n for k in range(order + 1)])
    toeplitz = np.empty((order, order))
    for i in range(order):
        for j in range(order):
            toeplitz[i, j] = r[abs(i - j)]
    phi = np.linalg.solve(toeplitz, r[1:])
    sigma2 = r[0] - np.dot(phi, r[1:])
    return phi, sigma2


@CASES.case(args=[(TONE,), (SHORT,), (np.zeros(3),), (np.array([1, -1, 0, 2, -2]),)])
def zero_crossings(x):
    crossings = []
    for i in range(1, len(x)):
        if (x[i - 1] < 0 <= x[i]) or (x[i - 1] >= 0 > x[i]):
            crossings.append(i)
    rate = len(crossings) / max(len(x) - 1, 1)
    return crossings, rate


@CASES.case(args=[(TONE, 16.0), (SHORT, 1.0), (np.zeros(4), 1.0)])
def dominant_frequency(x, fs):
    spectrum = np.abs(np.fft.rfft(x))
    freqs = np.fft.rfftfreq(len(x), d=1.0 / fs)
    peak = 0
    for i in range(1, len(spectrum)):
        if spectrum[i] > spectrum[peak]:
            peak = i
    total = spectrum.sum()
    if total == 0:
        return 0.0, 0.0
    centroid = float(np.sum(freqs * spectrum) / total)
    return freqs[peak], centroid


@CASES.case(args=[(TONE, [1, 3, 5]), (SHORT, [0]), (TONE.astype(np.float32), (2, 4))])
def band_powers(x, bins):
    """Power in selected DFT bins, each by a direct sum, as a dict of bin to power."""
    n = len(x)
    powers = {}
    for k in bins:
        acc = 0j
        for t in range(n):
            acc += x[t] * np.exp(-2j * np.pi * k * t / n)
        powers[k] = abs(acc) ** 2 / n
    strongest = max(powers, key=powers.get)
    return powers, strongest


@CASES.case(args=[(TONE, 4), (np.arange(8.0), 2), (SHORT, 3), (SHORT, 0)])
def frame_energies(x, frame):
    """Energies of non-overlapping frames (the tail that does not fill a frame is dropped)."""
    if frame <= 0:
        raise ValueError("frame length must be positive")
    count = len(x) // frame
    energies = np.zeros(count)
    for f in range(count):
        seg = x[f * frame : (f + 1) * frame]
        energies[f] = np.dot(seg, seg)
    loudest = int(np.argmax(energies)) if count else -1
    return energies, loudest


@CASES.case(args=[(np.array([1.0, 5.0, 2.0, 8.0, 3.0, 3.0, 1.0]), 2), (TONE, 1), (SHORT[:2], 1)])
def peak_picking(x, min_gap):
    """Local maxima at least ``min_gap`` samples apart, as an int array, and their count."""
    peaks = []
    last = -min_gap - 1
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1] and i - last > min_gap:
            peaks.append(i)
            last = i
    return np.array(peaks, dtype=int), len(peaks)


@CASES.case(args=[(TONE, 3), (TONE, 5, 16.0), (SHORT, 1), (TONE.astype(np.float32), 2)])
def goertzel_magnitude(x, k, fs=1.0):
    """One DFT bin by Goertzel's recurrence with NumPy accumulators; returns the bin's frequency
    and magnitude."""
    n = len(x)
    w = 2.0 * np.pi * k / n
    coeff = 2.0 * np.cos(w)
    s_prev = np.float64(0.0)
    s_prev2 = np.float64(0.0)
    for sample in x:
        s = sample + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    power = s_prev2**2 + s_prev**2 - coeff * s_prev * s_prev2
    return k * fs / n, np.sqrt(power)


@CASES.case(args=[(TONE, 8), (TONE, 4, 2), (SHORT, 8)])
def welch_hann(x, nperseg, step=None):
    """Welch's averaged periodogram with a Hann window; a too-short signal raises."""
    if step is None:
        step = nperseg // 2
    if len(x) < nperseg:
        raise ValueError(f"signal of {len(x)} samples is shorter than a segment ({nperseg})")
    window = np.hanning(nperseg)
    scale = 1.0 / np.sum(window**2)
    psd = np.zeros(nperseg // 2 + 1)
    count = 0
    for start in range(0, len(x) - nperseg + 1, step):
        seg = x[start : start + nperseg]
        seg = (seg - seg.mean()) * window
        spec = np.fft.rfft(seg)
        psd += scale * np.abs(spec) ** 2
        count += 1
    return psd / count


@CASES.case(args=[(TONE, 16.0), (np.zeros(8), 1.0), (SHORT, 4.0)])
def spectral_centroid(x, fs):
    """Centroid and rolloff frequency of the magnitude spectrum; silence gives 0."""
    mags = np.abs(np.fft.rfft(x))
    freqs = np.fft.rfftfreq(len(x), 1.0 / fs)
    total = mags.sum()
    if total == 0:
        return 0.0, 0.0
    centroid = np.sum(freqs * mags) / total
    cumulative = np.cumsum(mags)
    rolloff = freqs[np.searchsorted(cumulative, 0.85 * total)]
    return centroid, rolloff


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(args=[(list(TONE), 3), (list(SHORT), 1), ([1.0, 1.0, 1.0, 1.0], 0)])
def dft_bin_math(samples, k):
    """One DFT bin of a Python list with math.cos and math.sin, summed in Python floats."""
    n = len(samples)
    re = 0.0
    im = 0.0
    for t, v in enumerate(samples):
        angle = 2 * math.pi * k * t / n
        re += v * math.cos(angle)
        im -= v * math.sin(angle)
    return math.hypot(re, im) / n, math.atan2(im, re)


@CASES.case(args=[(TONE, 4), (SHORT, 2), (TONE, 0)])
def burg_ar(x, order):
    """Autoregressive coefficients by Burg's method, with the forward and backward errors."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    f = x.copy()
    b = x.copy()
    a = np.array([1.0])
    e = np.dot(x, x) / n
    for m in range(order):
        ef = f[m + 1 :]
        eb = b[m : n - 1]
        den = np.dot(ef, ef) + np.dot(eb, eb)
        k = -2.0 * np.dot(ef, eb) / den
        a = np.concatenate([a, [0.0]])
        a = a + k * a[::-1]
        f_new = ef + k * eb
        b_new = eb + k * ef
        f[m + 1 :] = f_new
        b[m + 1 :] = b_new
        e *= 1 - k * k
    return a, e


@CASES.case(args=[(TONE, 4), (TONE, 8), (SHORT, 2), (TONE, 5)])
def bartlett_psd(x, nseg):
    """Bartlett's method: the mean of periodograms of non-overlapping segments."""
    seg_len = len(x) // nseg
    if seg_len == 0:
        raise ValueError(f"{nseg} segments do not fit in {len(x)} samples")
    acc = np.zeros(seg_len // 2 + 1)
    for s in range(nseg):
        seg = x[s * seg_len : (s + 1) * seg_len]
        spec = np.fft.rfft(seg - seg.mean())
        acc += np.abs(spec) ** 2 / seg_len
    return acc / nseg


@CASES.case(args=[(TONE, 16.0), (SHORT * 3, 100.0), (np.zeros(8), 1.0)])
def peak_frequency_parabolic(x, fs):
    """The dominant frequency of a Hann-windowed spectrum, refined by parabolic interpolation."""
    n = len(x)
    window = [0.5 - 0.5 * math.cos(2 * math.pi * i / (n - 1)) for i in range(n)]
    mags = np.abs(np.fft.rfft(x * np.array(window)))
    k = int(np.argmax(mags[1:])) + 1
    if k == len(mags) - 1 or mags[k] == 0:
        return k * fs / n
    alpha, beta, gamma = mags[k - 1], mags[k], mags[k + 1]
    p = 0.5 * (alpha - gamma) / (alpha - 2 * beta + gamma)
    return (k + p) * fs / n


@CASES.case(args=[(TONE, np.roll(TONE, 3), 5), (SHORT, SHORT[::-1], 2), (SHORT, SHORT, 0)])
def best_lag_xcorr(x, y, max_lag):
    """The lag in [-max_lag, max_lag] where the normalised cross-correlation peaks."""
    x = x - x.mean()
    y = y - y.mean()
    norm = math.sqrt(float(np.sum(x * x) * np.sum(y * y)))
    best_lag, best = 0, -np.inf
    for lag in range(-max_lag, max_lag + 1):
        if lag >= 0:
            c = np.sum(x[: len(x) - lag] * y[lag:])
        else:
            c = np.sum(x[-lag:] * y[: len(y) + lag])
        c = c / norm
        if c > best:
            best, best_lag = c, lag
    return best_lag, best


@CASES.case(args=[(SHORT,), (TONE[:9],), (np.ones(1),)])
def zero_padded_spectrum(x):
    """Pads to the next power of two found by a while loop, then takes the magnitude spectrum."""
    nfft = 1
    while nfft < len(x):
        nfft <<= 1
    padded = np.zeros(nfft)
    padded[: len(x)] = x
    return nfft, np.abs(np.fft.fft(padded))[: nfft // 2 + 1]


@CASES.case(args=[(TONE,), (np.ones(8),), (SHORT,)])
def spectral_flatness(x):
    """Wiener entropy: the geometric over the arithmetic mean of the power spectrum (in dB)."""
    power = np.abs(np.fft.rfft(x)) ** 2 + 1e-12
    geo = math.exp(np.mean(np.log(power)))
    arith = float(np.mean(power))
    flatness = geo / arith
    return flatness, 10 * math.log10(flatness)


@CASES.case(args=[(TONE,), (SHORT,), (np.array([1.0, 0.0, 0.0, 0.0]),)])
def real_cepstrum(x):
    """The real cepstrum: inverse FFT of the log magnitude spectrum."""
    spectrum = np.fft.fft(x)
    log_mag = np.log(np.abs(spectrum) + 1e-10)
    return np.fft.ifft(log_mag).real


@CASES.case(args=[(TONE, 4, 2), (SHORT, 2, 1), (TONE, 8, 8)])
def stft_magnitudes(x, nperseg, hop):
    """A short-time Fourier transform by hand: Hamming frames, rfft, magnitudes stacked."""
    window = np.hamming(nperseg)
    frames = []
    start = 0
    while start + nperseg <= len(x):
        frames.append(np.abs(np.fft.rfft(window * x[start : start + nperseg])))
        start += hop
    return np.array(frames)


@CASES.case(args=[(TONE, 0.5), (SHORT, 0.0), (np.zeros(4), 1.0)])
def peak_heights(x, min_height):
    """Local maxima above a height, their values read back with a list comprehension."""
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] >= x[i + 1] and x[i] > min_height:
            peaks.append(i)
    heights = [x[i] for i in peaks]
    return peaks, heights


@CASES.case(args=[(TONE, 16.0, 0.5), (SHORT, 5.0, 0.1), (np.ones(6), 1.0, 0.5)])
def spectral_peaks(x, fs, rel_height):
    """Frequencies and magnitudes of the spectrum's local maxima above a fraction of the largest,
    picked with the list of peak bins as an index."""
    mags = np.abs(np.fft.rfft(x))
    freqs = np.fft.rfftfreq(len(x), 1 / fs)
    floor = rel_height * mags.max()
    bins = []
    for k in range(1, len(mags) - 1):
        if mags[k] > mags[k - 1] and mags[k] >= mags[k + 1] and mags[k] > floor:
            bins.append(k)
    return freqs[bins], mags[bins]
