"""Everyday code that mixes Python and NumPy: Python ints and floats beside 0-d arrays and NumPy
scalars, ``float(x)``, ``int(np.argmax(...))``, ``x.item()``, ``math.isclose``, lists of arrays
stacked at the end, ``enumerate(zip(...))``, ``while lo <= hi``, an early ``return`` from nested
loops, ``np.where`` with scalar branches, int32 arithmetic that wraps, float32 inputs, complex
inputs, empty inputs and NaNs."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("textbook")

V = np.array([0.5, -1.25, 3.0, 2.0, -0.75, 1.5])
M = np.array([[1.0, 2.0, 0.5], [3.0, -1.0, 4.0], [0.0, 2.5, 1.0]])


@CASES.case(args=[(V,), (V.astype(np.float32),), (np.array([7]),), (np.array([np.nan, 1.0]),)])
def argmax_as_int_and_value_as_float(x):
    """The best index as a Python int and its value as a Python float, in an f-string."""
    i = int(np.argmax(x))
    v = float(x[i])
    return i, v, f"best x[{i}] = {v:.3f}"


@CASES.case(args=[(np.array(2.5), 3), (np.array(4), 2), (np.float32(1.5), 4)])
def zero_d_array_with_python_scalars(a, n):
    """A 0-d array mixed with Python ints and floats: which results stay 0-d arrays, which
    become NumPy scalars, which Python numbers."""
    s = a * n
    t = a + 1.0
    u = s.item() + n
    w = float(a) / n
    return s, t, u, w, a[()], np.ndim(s)


@CASES.case(args=[(V, 1e-9), (V * 0 + 1.0, 1e-9), (np.array([1.0, 1.0 + 1e-12]), 1e-9)])
def all_close_to_first(x, tol):
    """math.isclose of NumPy scalars in a for loop with an early return."""
    first = x[0]
    for v in x[1:]:
        if not math.isclose(v, first, rel_tol=tol):
            return False
    return True


@CASES.case(args=[(V, 3), (V, 1), (V.astype(np.float32), 6)])
def list_of_arrays_then_stack(x, k):
    """Shifted copies collected in a list and stacked; the row sums as a list of floats."""
    rows = []
    for shift in range(k):
        rows.append(np.roll(x, shift))
    table = np.stack(rows)
    sums = [float(r.sum()) for r in table]
    return table, sums


@CASES.case(args=[(V, V[::-1].copy()), (V[:2], np.array([1.0, 0.0])), (np.zeros(0), np.zeros(0))])
def enumerate_zip_accumulate(a, b):
    """enumerate(zip(a, b)) with a running weighted sum and the index of the largest product."""
    total = 0.0
    best_i, best = -1, -math.inf
    for i, (x, y) in enumerate(zip(a, b)):
        p = x * y
        total += (i + 1) * p
        if p > best:
            best_i, best = i, p
    return total, best_i, best


@CASES.case(args=[(M, 4.0), (M, 9.0), (M.astype(np.float32), 2.5)])
def first_match_nested_return(m, target):
    """Returns the (row, col) of the first element equal to target from inside two loops,
    (-1, -1) when there is none."""
    rows, cols = m.shape
    for r in range(rows):
        for c in range(cols):
            if m[r, c] == target:
                return r, c
    return -1, -1


@CASES.case(
    args=[
        (np.array([1, 3, 5, 7, 9, 11]), 7),
        (np.array([1, 3, 5, 7, 9, 11]), 4),
        (np.array([], dtype=int), 1),
    ]
)
def while_lo_le_hi(a, key):
    """Textbook binary search with lo <= hi and integer midpoints; returns the index or -1."""
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = lo + (hi - lo) // 2
        if a[mid] == key:
            return mid
        elif a[mid] < key:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@CASES.case(args=[(V, 1.0), (V.astype(np.float32), 0.0), (np.arange(5), 2)])
def where_with_scalar_branches(x, threshold):
    """np.where with Python scalars in both branches and in one; the dtype NumPy picks."""
    labels = np.where(x > threshold, 1, 0)
    clipped = np.where(x > threshold, threshold, x)
    signs = np.where(x >= 0, 1.0, -1.0)
    return labels, clipped, signs, labels.sum()


@CASES.case(
    args=[
        (np.array([2_000_000_000, 1_500_000_000], dtype=np.int32),),
        (np.array([46341, 46341], dtype=np.int32),),
        (np.array([7, -3], dtype=np.int32),),
    ]
)
def int32_wraparound(a):
    """int32 sums and products wrap around, np.int32 scalars too; a Python int added to an
    element stays in int32 (NEP 50)."""
    s = a[0] + a[1]
    p = a[0] * a[1]
    total = np.sum(a, dtype=np.int32)
    shifted = a + 1
    return s, p, total, shifted, a.sum()


@CASES.case(
    args=[(np.array([1 + 2j, -0.5 + 0.5j, 3 - 1j]),), (np.array([1j]),), (np.zeros(0, complex),)]
)
def complex_stats(z):
    """Magnitudes, phases in degrees, the mean and the conjugate product of a complex array."""
    if len(z) == 0:
        return 0.0, None
    mag = np.abs(z)
    ang = np.degrees(np.angle(z))
    power = (z * z.conj()).real
    return z.mean(), [(float(m), float(a)) for m, a in zip(mag, ang)], power


@CASES.case(args=[(np.array([]),), (np.array([4.0]),), (V,)])
def empty_safe_summary(x):
    """Empty input handled up front; a one-element std with ddof=1 is NaN with a warning."""
    if x.size == 0:
        return {"n": 0, "mean": None}
    return {"n": x.size, "mean": x.mean(), "std": x.std(ddof=1) if x.size > 1 else 0.0}


@CASES.case(args=[(np.array([1.0, np.nan, 2.0, np.nan, 5.0]),), (V,), (np.full(3, np.nan),)])
def nan_interpolate_gaps(x):
    """Fills NaNs by linear interpolation on the valid samples; all-NaN input is returned."""
    y = x.copy()
    bad = np.isnan(y)
    if bad.all():
        return y, 0
    idx = np.arange(len(y))
    y[bad] = np.interp(idx[bad], idx[~bad], y[~bad])
    return y, int(bad.sum())


@CASES.case(args=[(V.astype(np.float32), 0.1), (np.array([1e-8, 1.0], dtype=np.float32), 3.0)])
def float32_with_python_float(x, scale):
    """A float32 array times a Python float stays float32; np.float64 scalars promote it."""
    a = x * scale
    b = x * np.float64(scale)
    c = x.sum() * scale
    d = x[0] + 1
    return a, b, c, d, a.dtype == b.dtype


@CASES.case(args=[(V,), (np.array([3.0, 3.0]),), (np.array([-1.0]),)])
def item_in_python_control_flow(x):
    """.item() turns elements into Python floats used by Python's max, abs and round."""
    best = -math.inf
    for i in range(len(x)):
        v = x[i].item()
        best = max(best, abs(v))
    return round(best, 2), type(best).__name__


@CASES.case(args=[(M,), (M.astype(np.float32),), (np.eye(2, dtype=int),)])
def row_normalise_with_zero_rows(m):
    """Rows scaled to unit sum; a zero row stays zero (np.divide with where= and out=)."""
    s = m.sum(axis=1, keepdims=True)
    out = np.zeros_like(m, dtype=float)
    np.divide(m, s, out=out, where=s != 0)
    return out


@CASES.case(args=[(V, 2), (V, 0), (np.arange(4), 3)])
def integer_division_mixed(x, k):
    """Python // and % with ints from len() and NumPy floats; divmod of a NumPy scalar."""
    n = len(x)
    half = n // 2
    q, r = divmod(x[half], 1.0)
    chunks = n // k if k else n
    return half, q, r, chunks, n % 3, x[-1] // 2


@CASES.case(args=[(V,), (np.array([2.0, 2.0, 2.0]),), (np.array([1.0]),)])
def sum_of_python_list_of_numpy_scalars(x):
    """sum() over a list comprehension of NumPy scalars starts from the int 0."""
    squares = [v * v for v in x]
    total = sum(squares)
    mean = total / len(squares)
    return total, mean, max(squares) - min(squares)


@CASES.case(
    args=[(np.array([3, 1, 2]), np.array([0.5, 0.25, 0.25])), (np.array([4]), np.array([1.0]))]
)
def weighted_choice_cumulative(values, probs):
    """Inverse-CDF sampling with a seeded Generator and np.searchsorted on the cumulative sum."""
    rng = np.random.default_rng(12)
    cdf = np.cumsum(probs)
    u = rng.random(6)
    picks = values[np.searchsorted(cdf, u * cdf[-1])]
    return picks, int(picks.sum())
