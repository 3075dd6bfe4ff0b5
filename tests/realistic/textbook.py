"""Textbook numeric routines in the styles the other modules have little of: in-place updates of
the caller's arrays (``x[...] -= lr * g``, ``np.add.at``, ``out=``), ``np.random.default_rng``,
``print`` of progress, ``try/except`` around numeric code, graphs as adjacency matrices, and
early returns from inside loops."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("textbook")

ADJ = np.array(
    [
        [0.0, 4.0, 1.0, 0.0],
        [4.0, 0.0, 2.0, 5.0],
        [1.0, 2.0, 0.0, 8.0],
        [0.0, 5.0, 8.0, 0.0],
    ]
)
NOISY = np.array([1.0, 1.2, 0.9, 5.0, 1.1, 1.3, 1.0, 0.8, -3.0, 1.2, 1.1, 0.95])


@CASES.case(args=[(ADJ, 0), (np.array([[0.0, 0.0], [0.0, 0.0]]), 0)])
def dijkstra_matrix(adj, source):
    """Dijkstra on an adjacency matrix (0 = no edge), with the O(n^2) scan for the next node."""
    n = adj.shape[0]
    dist = np.full(n, np.inf)
    prev = np.full(n, -1)
    done = np.zeros(n, dtype=bool)
    dist[source] = 0.0
    for _ in range(n):
        u = -1
        best = np.inf
        for v in range(n):
            if not done[v] and dist[v] < best:
                best = dist[v]
                u = v
        if u == -1:
            break
        done[u] = True
        for v in range(n):
            w = adj[u, v]
            if w > 0 and dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                prev[v] = u
    return dist, prev


@CASES.case(args=[(ADJ,), (np.array([[0.0, 3.0], [3.0, 0.0]]),)])
def floyd_warshall(adj):
    """All-pairs shortest paths, relaxing the whole matrix through each intermediate node."""
    n = len(adj)
    d = np.where(adj > 0, adj, np.inf)
    np.fill_diagonal(d, 0.0)
    for k in range(n):
        d = np.minimum(d, d[:, k : k + 1] + d[k : k + 1, :])
    return d


@CASES.case(args=[(ADJ, 0), (ADJ, 3)])
def bfs_levels(adj, start):
    """Breadth-first levels over the edges of an adjacency matrix, with a Python list queue."""
    n = len(adj)
    level = [-1] * n
    level[start] = 0
    queue = [start]
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for v in range(n):
            if adj[u][v] != 0 and level[v] == -1:
                level[v] = level[u] + 1
                queue.append(v)
    return level, queue


@CASES.case(args=[(ADJ,), (np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),)])
def prim_mst_weight(adj):
    """Prim's minimum spanning tree weight; a disconnected graph gives inf."""
    n = adj.shape[0]
    in_tree = np.zeros(n, dtype=bool)
    key = np.full(n, np.inf)
    key[0] = 0.0
    total = 0.0
    for _ in range(n):
        cand = np.where(in_tree, np.inf, key)
        u = int(np.argmin(cand))
        if cand[u] == np.inf:
            return math.inf
        in_tree[u] = True
        total += key[u]
        for v in range(n):
            if adj[u, v] > 0 and not in_tree[v] and adj[u, v] < key[v]:
                key[v] = adj[u, v]
    return total


@CASES.case(
    args=[
        (np.array([[1.0, 2.0], [1.5, 1.8], [5.0, 8.0], [8.0, 8.0], [1.0, 0.6], [9.0, 11.0]]), 2, 0),
        (np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0]]), 2, 5),
    ]
)
def kmeans_default_rng(points, k, seed, iters=10):
    """k-means seeded with ``np.random.default_rng(seed).choice``; labels by broadcasting."""
    rng = np.random.default_rng(seed)
    centers = points[rng.choice(len(points), size=k, replace=False)]
    for it in range(iters):
        d2 = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        labels = d2.argmin(axis=1)
        new = np.array(
            [
                points[labels == j].mean(axis=0) if np.any(labels == j) else centers[j]
                for j in range(k)
            ]
        )
        if np.allclose(new, centers):
            print(f"k-means converged after {it + 1} iterations")
            break
        centers = new
    return centers, labels


@CASES.case(args=[(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.5, 0.1], [0.2, 0.3]]), 0.1)])
def sgd_step_ellipsis_inplace(w, grad, lr):
    """One SGD step written into the caller's weights with ``w[...] -= lr * grad``."""
    w[...] -= lr * grad
    return None


@CASES.case(
    args=[(np.zeros(5), np.array([0, 2, 2, 4, 0, 2]), np.array([1.0, 0.5, 0.5, 2.0, 1.0, 0.25]))]
)
def scatter_add_at(acc, idx, vals):
    """Unbuffered scatter-add into the caller's accumulator with ``np.add.at``."""
    np.add.at(acc, idx, vals)
    return acc.sum()


@CASES.case(args=[(np.array([1.0, 4.0, 9.0]), np.empty(3)), (np.array([0.25]), np.zeros(1))])
def sqrt_into_out(x, out):
    """Square roots written into a buffer the caller passes, with ``out=``."""
    np.sqrt(x, out=out)
    np.multiply(out, 2.0, out=out)
    return out


@CASES.case(
    args=[
        (np.array([3, 1, 2, 3, 3, 0]), 4),
        (np.array([0, 0]), 1),
    ]
)
def bincount_by_add_at(labels, n):
    """Histogram of integer labels with ``np.add.at`` into a fresh array, beside np.bincount."""
    counts = np.zeros(n, dtype=np.int64)
    np.add.at(counts, labels, 1)
    return counts, np.bincount(labels, minlength=n)


@CASES.case(args=[(NOISY, 5), (NOISY[:4], 3)])
def median_filter_padded(x, k):
    """A median filter with edge padding; the window median by ``np.median``."""
    half = k // 2
    padded = np.pad(x, half, mode="edge")
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = np.median(padded[i : i + k])
    return out


@CASES.case(args=[(NOISY, 7, 2), (np.linspace(0.0, 1.0, 9) ** 2, 5, 3)])
def savgol_by_lstsq(x, window, order):
    """Savitzky-Golay smoothing: the central coefficients from a pseudo-inverse, then a
    convolution in valid mode with the ends left as they are."""
    half = window // 2
    t = np.arange(-half, half + 1)
    A = np.vander(t, order + 1, increasing=True)
    coeffs = np.linalg.pinv(A)[0]
    y = x.copy()
    y[half:-half] = np.convolve(x, coeffs[::-1], mode="valid")
    return y


@CASES.case(
    args=[(np.sin(2 * np.pi * 5 * np.arange(64) / 64.0), 5.0, 64.0), (np.ones(8), 0.0, 8.0)]
)
def goertzel_bin(samples, freq, fs):
    """The Goertzel recurrence for one frequency bin, with math.cos on Python floats."""
    n = len(samples)
    k = int(0.5 + n * freq / fs)
    w = 2.0 * math.pi * k / n
    coeff = 2.0 * math.cos(w)
    s_prev = 0.0
    s_prev2 = 0.0
    for x in samples:
        s = x + coeff * s_prev - s_prev2
        s_prev2 = s_prev
        s_prev = s
    power = s_prev2**2 + s_prev**2 - coeff * s_prev * s_prev2
    return power


@CASES.case(args=[(np.sin(0.3 * np.arange(40)) + 0.1 * np.cos(2.1 * np.arange(40)), 16, 8)])
def welch_hann_psd(x, nperseg, step):
    """Welch's averaged periodogram with a Hann window and 50% overlap, by a Python loop."""
    win = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(nperseg) / nperseg)
    scale = 1.0 / (win * win).sum()
    psd = np.zeros(nperseg // 2 + 1)
    segments = 0
    for start in range(0, len(x) - nperseg + 1, step):
        seg = x[start : start + nperseg]
        seg = (seg - seg.mean()) * win
        spec = np.fft.rfft(seg)
        psd += (spec.real**2 + spec.imag**2) * scale
        segments += 1
    psd /= segments
    psd[1:-1] *= 2
    return psd, segments


@CASES.case(args=[(np.array([1.0, 0.7, 0.3, 0.05, -0.1]), 3), (np.array([2.0, 1.0]), 1)])
def levinson_durbin_recursion(r, order):
    """Levinson-Durbin on an autocorrelation sequence: AR coefficients, reflection
    coefficients and the prediction error, with a guard on a non-positive error."""
    a = np.zeros(order + 1)
    a[0] = 1.0
    err = r[0]
    ks = []
    for m in range(1, order + 1):
        acc = r[m]
        for j in range(1, m):
            acc += a[j] * r[m - j]
        k = -acc / err
        ks.append(k)
        a_prev = a.copy()
        for j in range(1, m):
            a[j] = a_prev[j] + k * a_prev[m - j]
        a[m] = k
        err *= 1.0 - k * k
        if err <= 0:
            raise ValueError("autocorrelation is not positive definite")
    return a, np.array(ks), err


@CASES.case(args=[(lambda x: x**3 - 2 * x - 5, 2.0, 3.0), (lambda x: math.cos(x) - x, 0.0, 1.0)])
def brent_dekker(f, a, b, tol=1e-12, max_iter=100):
    """Brent's root finder with bisection, secant and inverse quadratic steps on a callable."""
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        raise ValueError("root not bracketed")
    if abs(fa) < abs(fb):
        a, b, fa, fb = b, a, fb, fa
    c, fc = a, fa
    mflag = True
    d = 0.0
    for i in range(max_iter):
        if fb == 0 or abs(b - a) < tol:
            return b, i
        if fa != fc and fb != fc:
            s = (
                a * fb * fc / ((fa - fb) * (fa - fc))
                + b * fa * fc / ((fb - fa) * (fb - fc))
                + c * fa * fb / ((fc - fa) * (fc - fb))
            )
        else:
            s = b - fb * (b - a) / (fb - fa)
        cond1 = not ((3 * a + b) / 4 < s < b or b < s < (3 * a + b) / 4)
        cond2 = mflag and abs(s - b) >= abs(b - c) / 2
        cond3 = not mflag and abs(s - b) >= abs(c - d) / 2
        if cond1 or cond2 or cond3:
            s = (a + b) / 2
            mflag = True
        else:
            mflag = False
        fs = f(s)
        d, c, fc = c, b, fb
        if fa * fs < 0:
            b, fb = s, fs
        else:
            a, fa = s, fs
        if abs(fa) < abs(fb):
            a, b, fa, fb = b, a, fb, fa
    return b, max_iter


@CASES.case(args=[(np.array([1.0, -3.0, 3.0, -1.0]), 0.5), (np.array([1.0, 0.0, -2.0]), 1.0)])
def newton_poly_try_zero_division(coeffs, x0):
    """Newton's method on a polynomial, catching the ZeroDivisionError of a flat derivative."""
    deriv = np.polyder(coeffs)
    x = float(x0)
    for i in range(50):
        fx = float(np.polyval(coeffs, x))
        dfx = float(np.polyval(deriv, x))
        try:
            step = fx / dfx
        except ZeroDivisionError:
            print(f"flat derivative at x={x:.6f}")
            return x, i, False
        x -= step
        if abs(step) < 1e-12:
            return x, i, True
    return x, 50, False


@CASES.case(args=[(np.array([[4.0, 2.0], [2.0, 3.0]]),), (np.array([[1.0, 2.0], [2.0, 1.0]]),)])
def cholesky_or_eigen_fallback(a):
    """Tries a Cholesky factorisation; a matrix that is not positive definite is reported by
    its smallest eigenvalue instead."""
    try:
        L = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        return None, float(np.linalg.eigvalsh(a)[0])
    return L, float(np.prod(np.diag(L)) ** 2)


@CASES.case(
    args=[
        (np.array([[2.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0])),
        (np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([1.0, 1.0])),
    ]
)
def solve_or_lstsq(a, b):
    """Solves a square system, falling back to least squares when the matrix is singular."""
    try:
        return np.linalg.solve(a, b), "exact"
    except np.linalg.LinAlgError:
        x, *_ = np.linalg.lstsq(a, b, rcond=None)
        return x, "least squares"


@CASES.case(args=[(np.array([0.5, 1.5]), 0.1, 200), (np.array([-1.0, 2.0]), 0.05, 20)])
def gradient_descent_printing(x, lr, steps):
    """Gradient descent on a quadratic bowl, printing the loss every 50 steps."""
    A = np.array([[3.0, 0.5], [0.5, 1.0]])
    x = x.copy()
    for step in range(steps):
        grad = A @ x
        x -= lr * grad
        if step % 50 == 0:
            loss = 0.5 * x @ A @ x
            print(f"step {step:4d}  loss {loss:.6e}")
    return x


@CASES.case(args=[(np.random.default_rng(42), 200), (np.random.default_rng(1), 10)])
def monte_carlo_pi(rng, n):
    """Estimates pi by throwing uniform points in the unit square with a Generator."""
    pts = rng.random((n, 2))
    inside = np.count_nonzero((pts**2).sum(axis=1) <= 1.0)
    return 4.0 * inside / n


@CASES.case(args=[(7, 100.0, 0.05, 0.2, 12), (3, 50.0, 0.0, 0.4, 4)])
def gbm_paths_seeded(seed, s0, mu, sigma, steps):
    """Geometric Brownian motion paths from ``default_rng(seed)``; the mean final price."""
    rng = np.random.default_rng(seed)
    dt = 1.0 / steps
    z = rng.standard_normal((5, steps))
    increments = (mu - 0.5 * sigma**2) * dt + sigma * math.sqrt(dt) * z
    paths = s0 * np.exp(np.cumsum(increments, axis=1))
    return paths[:, -1].mean(), paths.max()


@CASES.case(args=[(np.random.default_rng(5), np.array([1.0, 2.0, 3.0, 4.0, 10.0]), 50)])
def bootstrap_se_generator(rng, x, reps):
    """Bootstrap standard error of the mean with ``rng.integers`` resampling in a loop."""
    means = np.empty(reps)
    for r in range(reps):
        idx = rng.integers(0, len(x), size=len(x))
        means[r] = x[idx].mean()
    return means.std(ddof=1), means.mean()


@CASES.case(args=[(np.random.default_rng(0), 6, 3), (np.random.default_rng(3), 4, 4)])
def random_walk_until_exit(rng, start, bound):
    """A ±1 random walk from ``start`` until it leaves (-bound, bound + start); returns the path."""
    pos = start
    path = [pos]
    while -bound < pos < bound + start:
        pos += 1 if rng.random() < 0.5 else -1
        path.append(pos)
        if len(path) > 500:
            break
    return path


@CASES.case(args=[(np.array([10.0, 12.0, 11.0, 13.0, 15.0, 14.0, 16.0, 18.0, 17.0]), 3, 2.0)])
def bollinger_vectorized(prices, window, k):
    """Bollinger bands with a strided rolling window and a band-crossing signal array."""
    windows = np.lib.stride_tricks.sliding_window_view(prices, window)
    mid = windows.mean(axis=1)
    sd = windows.std(axis=1)
    upper, lower = mid + k * sd, mid - k * sd
    p = prices[window - 1 :]
    signal = np.where(p > upper, -1, np.where(p < lower, 1, 0))
    return mid, upper, lower, signal


@CASES.case(args=[(np.array([1.0, 2.0, 3.0, 2.0, 5.0, 4.0]), 0.5), (np.array([3.0]), 0.9)])
def ema_into_argument(x, alpha):
    """An exponential moving average written over the caller's array, element by element."""
    for i in range(1, len(x)):
        x[i] = alpha * x[i] + (1 - alpha) * x[i - 1]
    return x[-1]


@CASES.case(args=[(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]),), (np.array([2.0, 1.0]),)])
def insertion_sort_inplace(a):
    """Insertion sort in place on the caller's array, returning the number of shifts."""
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


@CASES.case(args=[(np.array([4.0, 1.0, 3.0, 2.0]),), (np.array([1.0, 2.0, 3.0]),)])
def shuffle_free_partition(a):
    """Lomuto partition around the last element, in place; returns the pivot's index."""
    pivot = a[-1]
    i = 0
    for j in range(len(a) - 1):
        if a[j] <= pivot:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[-1] = a[-1], a[i]
    return i


@CASES.case(args=[(np.array([0.2, 0.5, 0.9]), 25.0, 60.0)])
def mamdani_triangles(inputs, temp, humidity):
    """Mamdani inference with triangular memberships: two inputs, three rules, min/max, and
    a centroid over a sampled output universe."""

    def tri(x, a, b, c):
        return np.maximum(np.minimum((x - a) / (b - a), (c - x) / (c - b)), 0.0)

    fan = np.linspace(0.0, 100.0, 101)
    cold = float(tri(np.array(temp), 0.0, 10.0, 20.0))
    warm = float(tri(np.array(temp), 15.0, 25.0, 35.0))
    hot = float(tri(np.array(temp), 30.0, 40.0, 50.0))
    humid = float(tri(np.array(humidity), 40.0, 70.0, 100.0))
    rules = [
        (cold, tri(fan, 0.0, 10.0, 30.0)),
        (min(warm, humid), tri(fan, 30.0, 50.0, 70.0)),
        (max(hot, humid * 0.5), tri(fan, 60.0, 85.0, 100.0)),
    ]
    aggregated = np.zeros_like(fan)
    for strength, shape in rules:
        aggregated = np.maximum(aggregated, np.minimum(strength, shape))
    if aggregated.sum() == 0:
        return 0.0, inputs
    return float((fan * aggregated).sum() / aggregated.sum()), inputs * aggregated.max()


@CASES.case(args=[(np.array([5.0, 3.0, 7.0, 1.0]), np.array([2.0, 1.0, 3.0, 0.5]), 8.0)])
def fractional_knapsack_greedy(values, weights, capacity):
    """The greedy fractional knapsack: items by value density, the last one split."""
    order = np.argsort(-values / weights, kind="stable")
    total = 0.0
    taken = np.zeros_like(values)
    remaining = capacity
    for i in order:
        if remaining <= 0:
            break
        amount = min(weights[i], remaining)
        taken[i] = amount / weights[i]
        total += values[i] * taken[i]
        remaining -= amount
    return total, taken


@CASES.case(args=[(np.array([[0.9, 0.1], [0.5, 0.5]]), np.array([1.0, 0.0]), 1e-12)])
def markov_stationary(P, start, tol):
    """The stationary distribution of a Markov chain by power iteration until it settles."""
    pi = start.copy()
    for it in range(10_000):
        nxt = pi @ P
        if np.abs(nxt - pi).sum() < tol:
            return nxt, it
        pi = nxt
    raise RuntimeError("no convergence")


@CASES.case(args=[(np.array([1.0, 2.0, 4.0, 7.0, 11.0]), 0.5), (np.array([1.0, 1.0]), 1.0)])
def trapezoid_and_simpson(y, dx):
    """The trapezoid rule, and Simpson's rule when the interval count is even."""
    trap = dx * (y[0] / 2 + y[1:-1].sum() + y[-1] / 2)
    n = len(y) - 1
    if n % 2:
        return trap, None
    simpson = dx / 3 * (y[0] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum() + y[-1])
    return trap, simpson


@CASES.case(args=[(0.0, 1.0, 10), (1.0, 0.5, 3)])
def euler_vs_exact_report(y0, rate, steps):
    """Forward Euler on y' = -rate*y against the exact solution, with a formatted report."""
    h = 1.0 / steps
    y = y0 if y0 else 1.0
    lines = []
    for i in range(1, steps + 1):
        y = y + h * (-rate * y)
        exact = math.exp(-rate * i * h)
        lines.append(f"t={i * h:.2f} euler={y:.5f} err={abs(y - exact):.2e}")
    return lines[-1], len(lines)
