"""Sorting and searching as people write them: in-place sorts over indices, binary search,
bisection, quickselect, merging and two-pointer scans."""

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import INTS, SHUFFLED, SORTED

CASES = Registry("search")


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
