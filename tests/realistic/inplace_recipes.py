"""Routines that write into their arguments, as C-minded and performance-minded code does:
``x[:] = ...``, ``out[i] = ...`` into a caller's buffer, ``a.sort()``, ``np.copyto``, ``+=`` on
slices and on views, ``np.add(a, b, out=a)``, swaps ``a[i], a[j] = a[j], a[i]``, in-place
partitions, reversals and rotations; the arguments afterwards are compared with eager's."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("textbook")

V = np.array([4.0, -1.5, 3.25, 0.0, 7.5, -2.0, 1.0])
IDX = np.array([5, 3, 9, 1, 3, 7, 2, 8], dtype=np.int64)


@CASES.case(args=[(V.copy(),), (V.astype(np.float32),), (np.zeros(0),)])
def normalize_in_place(x):
    """Scales x to [0, 1] in place with x[:] = ...; a constant array becomes zeros."""
    if x.size == 0:
        return x
    lo, hi = x.min(), x.max()
    if hi > lo:
        x[:] = (x - lo) / (hi - lo)
    else:
        x[:] = 0
    return x


@CASES.case(args=[(V.copy(), np.empty(7)), (V[:3].copy(), np.zeros(3)), (IDX.copy(), np.zeros(8))])
def cumulative_sum_into_out(x, out):
    """A running sum written element by element into the caller's buffer."""
    acc = 0.0
    for i in range(len(x)):
        acc += x[i]
        out[i] = acc
    return out[-1] if len(out) else acc


@CASES.case(args=[(IDX.copy(),), (V.copy(),), (np.array([2, 1], dtype=np.int32),)])
def sort_in_place_and_dedupe(a):
    """a.sort() then removes neighbours that repeat, C style, with a write index; returns the
    count of distinct values (the front of a holds them)."""
    a.sort()
    if len(a) == 0:
        return 0
    w = 1
    for r in range(1, len(a)):
        if a[r] != a[w - 1]:
            a[w] = a[r]
            w += 1
    return w


@CASES.case(args=[(V.copy(), 2), (V.copy(), 0), (V.copy(), 9), (IDX.copy(), 3)])
def rotate_left_by_reversals(a, k):
    """Rotates a left by k in place with three reversals done by swapping ends."""
    n = len(a)
    k = k % n

    def reverse(lo, hi):
        while lo < hi:
            a[lo], a[hi] = a[hi], a[lo]
            lo += 1
            hi -= 1

    reverse(0, k - 1)
    reverse(k, n - 1)
    reverse(0, n - 1)
    return a


@CASES.case(args=[(V.copy(), 1.0), (IDX.copy(), 4), (np.array([3.0]), 5.0)])
def lomuto_partition(a, pivot_value):
    """Moves the elements below pivot_value to the front, in place; returns the split."""
    store = 0
    for i in range(len(a)):
        if a[i] < pivot_value:
            a[store], a[i] = a[i], a[store]
            store += 1
    return store


@CASES.case(args=[(np.array([2, 0, 1, 2, 1, 0, 0]),), (np.array([1, 1]),), (np.zeros(0, int),)])
def three_way_partition_while(a):
    """Dijkstra's Dutch flag with a while loop and three indices, in place."""
    lo, mid, hi = 0, 0, len(a) - 1
    while mid <= hi:
        if a[mid] == 0:
            a[lo], a[mid] = a[mid], a[lo]
            lo += 1
            mid += 1
        elif a[mid] == 1:
            mid += 1
        else:
            a[mid], a[hi] = a[hi], a[mid]
            hi -= 1
    return lo, mid


@CASES.case(args=[(np.arange(12.0).reshape(3, 4),), (np.ones((2, 2), dtype=np.float32),)])
def center_columns_through_view(m):
    """Subtracts each column mean through a view of the column (col -= ...), and scales the
    first row through a row view."""
    for j in range(m.shape[1]):
        col = m[:, j]
        col -= col.mean()
    first = m[0]
    first *= 2
    return m.sum(axis=0)


@CASES.case(args=[(V.copy(), V[::-1].copy()), (np.ones(3), np.arange(3.0))])
def axpy_with_out(y, x):
    """y = 2.5 x + y written with ufuncs' out= into y, then clipped in place."""
    np.multiply(x, 2.5, out=x)
    np.add(y, x, out=y)
    np.clip(y, -3.0, 6.0, out=y)
    return float(y.sum())


@CASES.case(args=[(np.zeros(5), V[:5].copy()), (np.zeros(3), np.array([1, 2, 3]))])
def copyto_where_positive(dst, src):
    """np.copyto with a where mask: only the positive entries of src reach dst."""
    np.copyto(dst, src, where=src > 0)
    return dst


@CASES.case(args=[(V.copy(), 3), (V.copy(), 1), (np.arange(10.0), 4)])
def slice_plus_equals_moving_sum(x, w):
    """A moving sum built by += on shifted slices of a zero array."""
    n = len(x) - w + 1
    out = np.zeros(n)
    for k in range(w):
        out += x[k : k + n]
    x[: len(out)] = out / w
    return out


@CASES.case(args=[(V.copy(),), (IDX.copy(),), (np.array([1.0]),)])
def insertion_sort_shift_while(a):
    """Insertion sort that shifts with a while loop, the C way; counts the shifts."""
    shifts = 0
    i = 1
    while i < len(a):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
            shifts += 1
        a[j + 1] = key
        i += 1
    return shifts


@CASES.case(args=[(np.arange(9.0).reshape(3, 3),), (np.array([[1, 2], [3, 4]]),)])
def transpose_in_place_swaps(m):
    """Transposes a square matrix in place by swapping across the diagonal."""
    n = m.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            m[i, j], m[j, i] = m[j, i], m[i, j]
    return m.trace()


@CASES.case(args=[(V.copy(), 1.0), (np.array([np.nan, 2.0, np.nan]), 0.0)])
def fill_nans_forward(x, default):
    """Forward fill of NaNs in place; a leading NaN gets the default."""
    last = default
    for i in range(x.shape[0]):
        if np.isnan(x[i]):
            x[i] = last
        else:
            last = x[i]
    return x


@CASES.case(args=[(np.array([[4.0, 1.0], [2.0, 3.0]]), np.array([1.0, 2.0])), (np.eye(3), V[:3])])
def jacobi_sweeps_into_arguments(A, x):
    """Jacobi iterations that write the new iterate back into x with x[:] = x_new."""
    d = np.diag(A)
    R = A - np.diagflat(d)
    for _ in range(4):
        x_new = (np.ones(len(x)) - R @ x) / d
        x[:] = x_new
    return np.abs(A @ x - 1.0).max()


@CASES.case(args=[(V.copy(),), (IDX.copy(),), (np.zeros(0),)])
def fisher_yates_seeded(a):
    """Fisher-Yates with a seeded Generator, swapping in place from the end."""
    rng = np.random.default_rng(42)
    for i in range(len(a) - 1, 0, -1):
        j = rng.integers(0, i + 1)
        a[i], a[j] = a[j], a[i]
    return a


@CASES.case(args=[(IDX.copy(), 3), (V.copy(), 2), (np.array([1, 2]), 5)])
def argpartition_then_sort_top(a, k):
    """The k largest via np.argpartition, then sorted descending; the input is zeroed there."""
    k = min(k, len(a))
    idx = np.argpartition(a, len(a) - k)[len(a) - k :]
    top = np.sort(a[idx])[::-1]
    a[idx] = 0
    return top, a.sum()


@CASES.case(args=[([3, 1, 2],), ([5.0, -1.0, 2.5, 0.0],), ([],)])
def list_sort_then_reverse_in_place(xs):
    """list.sort() and list.reverse() on the caller's Python list."""
    xs.sort()
    xs.reverse()
    total = 0
    for v in xs:
        total += v
    return total
