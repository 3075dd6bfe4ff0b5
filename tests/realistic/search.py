"""Sorting and searching as people write them: in-place sorts over indices, binary search,
bisection, quickselect, merging and two-pointer scans."""

import math

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


def _quicksort(values):
    if len(values) <= 1:
        return values
    pivot = values[len(values) // 2]
    less = [v for v in values if v < pivot]
    equal = [v for v in values if v == pivot]
    greater = [v for v in values if v > pivot]
    return _quicksort(less) + equal + _quicksort(greater)


@CASES.case(args=[(list(SHUFFLED),), ([3, 1, 2, 3, 0],), ([],)])
def quicksort_recursive(values):
    """The textbook three-way list quicksort, recursive, on a Python list."""
    return _quicksort(values)


def _merge_sort(a):
    if len(a) < 2:
        return a.copy()
    mid = len(a) // 2
    left = _merge_sort(a[:mid])
    right = _merge_sort(a[mid:])
    out = np.empty_like(a)
    i = j = k = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            out[k] = left[i]
            i += 1
        else:
            out[k] = right[j]
            j += 1
        k += 1
    out[k : k + len(left) - i] = left[i:]
    k += len(left) - i
    out[k:] = right[j:]
    return out


@CASES.case(args=[(SHUFFLED,), (INTS,), (np.array([2.5]),), (np.array([np.nan, 1.0, -1.0]),)])
def merge_sort(a):
    """Top-down merge sort on arrays: recursion on static halves, merging by two pointers."""
    return _merge_sort(a)


def _search(a, target, lo, hi):
    if lo > hi:
        return -1
    mid = (lo + hi) // 2
    if a[mid] == target:
        return mid
    if a[mid] < target:
        return _search(a, target, mid + 1, hi)
    return _search(a, target, lo, mid - 1)


@CASES.case(args=[(SORTED, 2.5), (SORTED, 3.0), (SORTED, -3.0), (np.arange(10), 9)])
def binary_search_recursive(a, target):
    """Recursive binary search: the recursion depth depends on the data."""
    return _search(a, target, 0, len(a) - 1)


@CASES.case(
    args=[
        (np.array([1, 4, 9, 16, 25, 36, 49]), 25),
        (np.array([1, 4, 9, 16, 25, 36, 49]), 10),
        (np.array([5, 5, 5]), 5),
    ]
)
def interpolation_search(a, target):
    """Interpolation search on uniformly spread sorted integers."""
    lo, hi = 0, len(a) - 1
    while lo <= hi and a[lo] <= target <= a[hi]:
        if a[hi] == a[lo]:
            return lo if a[lo] == target else -1
        pos = lo + (target - a[lo]) * (hi - lo) // (a[hi] - a[lo])
        if a[pos] == target:
            return pos
        if a[pos] < target:
            lo = pos + 1
        else:
            hi = pos - 1
    return -1


@CASES.case(args=[(SHUFFLED, 2), (INTS, 0), (SORTED, 6)])
def counting_rank(a, k):
    """The k-th smallest by counting, for each candidate, how many are smaller (an O(n^2) scan
    with ``for ... else``)."""
    for i in range(len(a)):
        smaller = 0
        equal = 0
        for j in range(len(a)):
            if a[j] < a[i]:
                smaller += 1
            elif a[j] == a[i]:
                equal += 1
        if smaller <= k < smaller + equal:
            break
    else:
        raise ValueError(f"k={k} is out of range")
    return a[i]


@CASES.case(args=[(SHUFFLED,), (np.array([2.0, 2.0]),), (INTS,)])
def second_largest(x):
    """The second largest distinct value in one pass, None when every value is the same."""
    first = second = -math.inf
    for v in x:
        if v > first:
            first, second = v, first
        elif first > v > second:
            second = v
    return second if second != -math.inf else None


# ---- round 3 ------------------------------------------------------------------------------------


def _sift_down(a, start, end):
    root = start
    while 2 * root + 1 <= end:
        child = 2 * root + 1
        if child + 1 <= end and a[child] < a[child + 1]:
            child += 1
        if a[root] < a[child]:
            a[root], a[child] = a[child], a[root]
            root = child
        else:
            return


@CASES.case(
    args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([1.0]),), (np.array([], dtype=int),)]
)
def heap_sort(a):
    """Heap sort in place with a sift-down helper."""
    n = len(a)
    for start in range((n - 2) // 2, -1, -1):
        _sift_down(a, start, n - 1)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        _sift_down(a, 0, end - 1)


@CASES.case(args=[(INTS,), (np.array([2, 2, 0, 5]),), (np.array([3]), 10)])
def counting_sort(a, max_value=None):
    """Counting sort of small non-negative integers, stable by prefix sums."""
    if max_value is None:
        max_value = int(a.max()) if len(a) else 0
    counts = [0] * (max_value + 1)
    for v in a:
        counts[v] += 1
    for i in range(1, len(counts)):
        counts[i] += counts[i - 1]
    out = np.zeros_like(a)
    for v in a[::-1]:
        counts[v] -= 1
        out[counts[v]] = v
    return out


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([3.0, 2.0, 1.0]),)])
def binary_insertion_sort(a):
    """Insertion sort that finds each slot by binary search and shifts with a slice copy."""
    comparisons = 0
    for i in range(1, len(a)):
        key = a[i]
        lo, hi = 0, i
        while lo < hi:
            mid = (lo + hi) // 2
            comparisons += 1
            if a[mid] <= key:
                lo = mid + 1
            else:
                hi = mid
        a[lo + 1 : i + 1] = a[lo:i].copy()
        a[lo] = key
    return comparisons


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (SORTED.copy(),)])
def cocktail_shaker_sort(a):
    """Bidirectional bubble sort that narrows the range from both ends."""
    lo, hi = 0, len(a) - 1
    swapped = True
    rounds = 0
    while swapped:
        swapped = False
        for i in range(lo, hi):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        hi -= 1
        if not swapped:
            break
        swapped = False
        for i in range(hi, lo, -1):
            if a[i - 1] > a[i]:
                a[i - 1], a[i] = a[i], a[i - 1]
                swapped = True
        lo += 1
        rounds += 1
    return rounds


@CASES.case(args=[(list(SHUFFLED),), ([5, 3, 8, 1],), ([],)])
def gnome_sort(values):
    """Gnome sort on a Python list, returned sorted (the list is sorted in place too)."""
    i = 0
    while i < len(values):
        if i == 0 or values[i - 1] <= values[i]:
            i += 1
        else:
            values[i], values[i - 1] = values[i - 1], values[i]
            i -= 1
    return values


@CASES.case(args=[(SHUFFLED,), (INTS,), (np.array([4.0, 4.0]),)])
def bottom_up_merge_sort(a):
    """Iterative merge sort: runs of width 1, 2, 4, ... merged between two buffers."""
    src = a.copy()
    dst = np.empty_like(src)
    n = len(src)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if i < mid and (j >= hi or src[i] <= src[j]):
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
        src, dst = dst, src
        width *= 2
    return src


@CASES.case(args=[(SORTED, 4.0), (SORTED, 5.0), (SORTED, -10.0), (np.arange(20), 13)])
def exponential_search(a, target):
    """Doubles a bound until it passes the target, then binary-searches that range."""
    if len(a) == 0:
        return -1
    if a[0] == target:
        return 0
    bound = 1
    while bound < len(a) and a[bound] < target:
        bound *= 2
    lo, hi = bound // 2, min(bound, len(a) - 1)
    while lo <= hi:
        mid = lo + (hi - lo) // 2
        if a[mid] == target:
            return mid
        elif a[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@CASES.case(args=[(SORTED, 4.0), (SORTED, 3.0), (np.arange(16), 15), (np.arange(16), 0)])
def jump_search(a, x):
    """Jump search in blocks of sqrt(n), then a linear scan inside the block."""
    n = len(a)
    step = int(math.sqrt(n))
    prev = 0
    while a[min(step, n) - 1] < x:
        prev = step
        step += int(math.sqrt(n))
        if prev >= n:
            return None
    while a[prev] < x:
        prev += 1
        if prev == min(step, n):
            return None
    if a[prev] == x:
        return prev
    return None


@CASES.case(args=[(SORTED, 0.0, 4.0), (SORTED, 5.0, 9.0), (INTS[np.argsort(INTS)], 1, 1)])
def count_in_range(a, lo_value, hi_value):
    """How many sorted values lie in [lo_value, hi_value]: bisect_left and bisect_right by hand."""

    def bisect_left(x):
        lo, hi = 0, len(a)
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def bisect_right(x):
        lo, hi = 0, len(a)
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
        return lo

    return bisect_right(hi_value) - bisect_left(lo_value)


@CASES.case(args=[(0.0, 4.0), (-2.0, 1.0, 1e-9)])
def ternary_search_max(lo, hi, eps=1e-7):
    """The maximum of a unimodal function by ternary search on a float interval."""

    def f(x):
        return -((x - 1.3) ** 2) + math.cos(x)

    iterations = 0
    while hi - lo > eps:
        m1 = lo + (hi - lo) / 3
        m2 = hi - (hi - lo) / 3
        if f(m1) < f(m2):
            lo = m1
        else:
            hi = m2
        iterations += 1
    x = (lo + hi) / 2
    return x, f(x), iterations


@CASES.case(args=[(np.array([170, 45, 75, 90, 802, 24, 2, 66]),), (INTS,), (np.array([0, 0]),)])
def radix_sort_lsd(a):
    """LSD radix sort with ten buckets per digit, kept as Python lists."""
    values = [int(v) for v in a]
    largest = max(values) if values else 0
    exp = 1
    while largest // exp > 0:
        buckets = [[] for _ in range(10)]
        for v in values:
            buckets[(v // exp) % 10].append(v)
        values = [v for bucket in buckets for v in bucket]
        exp *= 10
    return np.array(values, dtype=a.dtype)


@CASES.case(args=[(SHUFFLED.copy(),), (INTS.copy(),), (np.array([1.0, np.nan, 0.0]),)])
def insertion_sort_while(a):
    """Insertion sort with a while loop and a held key; returns the array it sorted in place."""
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and key < a[j]:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


@CASES.case(args=[(SORTED, [0.0, 4.0, 7.0, -5.0]), (np.arange(10.0), [9.5])])
def nearest_in_sorted(a, queries):
    """For each query, the index of the nearest value in a sorted array (ties to the left)."""
    out = []
    for q in queries:
        lo, hi = 0, len(a) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < q:
                lo = mid + 1
            else:
                hi = mid
        if lo > 0 and abs(a[lo - 1] - q) <= abs(a[lo] - q):
            lo -= 1
        out.append(lo)
    return out
