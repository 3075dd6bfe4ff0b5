"""Sorting and searching as people write them: in-place sorts over indices, binary search,
bisection, quickselect, merging and two-pointer scans."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("search")

SHUFFLED = np.array([5.0, -1.0, 3.5, 3.5, 0.0, 9.0, -7.5, 2.0])
INTS = np.array([4, 1, 3, 9, 7, 1, 0])


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([]),), (np.array([1.0]),)])
def insertion_sort(a):
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


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.arange(3.0),)])
def selection_sort(a):
    swaps = 0
    n = len(a)
    for i in range(n - 1):
        smallest = i
        for j in range(i + 1, n):
            if a[j] < a[smallest]:
                smallest = j
        if smallest != i:
            a[i], a[smallest] = a[smallest], a[i]
            swaps += 1
    return swaps


@CASES.case(args=[(SHUFFLED.copy(),), (np.arange(5.0),), (INTS.astype(np.float32),)])
def bubble_sort(a):
    passes = 0
    n = len(a)
    while True:
        swapped = False
        for i in range(n - 1 - passes):
            if a[i] > a[i + 1]:
                tmp = a[i]
                a[i] = a[i + 1]
                a[i + 1] = tmp
                swapped = True
        passes += 1
        if not swapped:
            break
    return passes


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),)])
def shell_sort(a):
    gap = len(a) // 2
    while gap > 0:
        for i in range(gap, len(a)):
            tmp = a[i]
            j = i
            while j >= gap and a[j - gap] > tmp:
                a[j] = a[j - gap]
                j -= gap
            a[j] = tmp
        gap //= 2


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([2.0, 1.0]),)])
def quicksort_iterative(a):
    """Lomuto quicksort with an explicit stack of ranges."""
    stack = [(0, len(a) - 1)]
    partitions = 0
    while stack:
        lo, hi = stack.pop()
        if lo >= hi:
            continue
        pivot = a[hi]
        i = lo
        for j in range(lo, hi):
            if a[j] <= pivot:
                a[i], a[j] = a[j], a[i]
                i += 1
        a[i], a[hi] = a[hi], a[i]
        partitions += 1
        stack.append((lo, i - 1))
        stack.append((i + 1, hi))
    return partitions


SORTED = np.array([-3.0, -1.0, 0.0, 2.5, 4.0, 4.0, 8.0])


@CASES.case(
    args=[(SORTED, 2.5), (SORTED, 3.0), (SORTED, -10.0), (np.arange(10), 9), (SORTED[:0], 1.0)]
)
def binary_search(a, target):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


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


@CASES.case(args=[(SHUFFLED, 0), (SHUFFLED, 3), (INTS, 6), (INTS, 7)])
def kth_smallest(a, k):
    """Quickselect on a copy."""
    if not 0 <= k < len(a):
        raise ValueError("k out of range")
    work = a.copy()
    lo, hi = 0, len(work) - 1
    while True:
        pivot = work[hi]
        store = lo
        for i in range(lo, hi):
            if work[i] < pivot:
                work[store], work[i] = work[i], work[store]
                store += 1
        work[store], work[hi] = work[hi], work[store]
        if store == k:
            return work[store]
        if store < k:
            lo = store + 1
        else:
            hi = store - 1


@CASES.case(
    args=[(SORTED, np.array([-2.0, 4.0, 9.0])), (np.arange(3), np.arange(2)), (SORTED, SORTED[:0])]
)
def merge_sorted(a, b):
    out = np.empty(len(a) + len(b), dtype=np.result_type(a, b))
    i = j = k = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    while i < len(a):
        out[k] = a[i]
        i += 1
        k += 1
    while j < len(b):
        out[k] = b[j]
        j += 1
        k += 1
    return out


@CASES.case(args=[(SORTED, 6.5), (SORTED, 100.0), (np.arange(8), 7)])
def two_sum_sorted(a, target):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == target:
            return i, j
        if s < target:
            i += 1
        else:
            j -= 1
    return None


@CASES.case(args=[(SHUFFLED, 3), (INTS, 2), (SHUFFLED, 20), (np.array([]), 1)])
def top_k_by_list(a, k):
    """The k largest values and their positions, kept in a sorted Python list."""
    best = []
    for i in range(len(a)):
        v = float(a[i])
        pos = len(best)
        while pos > 0 and best[pos - 1][0] < v:
            pos -= 1
        best.insert(pos, (v, i))
        if len(best) > k:
            best.pop()
    return [b[0] for b in best], [b[1] for b in best]


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
