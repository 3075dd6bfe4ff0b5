"""Sorting and searching drills from interview prep and algorithm courses: introsort with a
depth limit, LSD radix sort on non-negative ints, Hoare quickselect, interpolation search on
ints, ternary search on a unimodal array, union-find with path compression, top-k with heapq,
a k-way merge, the Dutch national flag, Boyer-Moore majority vote, inversion counting, a search
in a rotated sorted array and a peak finder, on arrays and lists, empty and tied inputs."""

import heapq

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("search")

INTS = np.array([29, 3, 72, 15, 3, 88, 41, 0, 56, 15, 7, 64])
SORTED = np.array([1, 4, 9, 16, 25, 36, 49, 64, 81, 100])


def _insertion(a, lo, hi):
    for i in range(lo + 1, hi + 1):
        key = a[i]
        j = i - 1
        while j >= lo and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key


def _partition(a, lo, hi):
    mid = (lo + hi) // 2
    if a[mid] < a[lo]:
        a[lo], a[mid] = a[mid], a[lo]
    if a[hi] < a[lo]:
        a[lo], a[hi] = a[hi], a[lo]
    if a[hi] < a[mid]:
        a[mid], a[hi] = a[hi], a[mid]
    pivot = a[mid]
    i, j = lo, hi
    while True:
        while a[i] < pivot:
            i += 1
        while a[j] > pivot:
            j -= 1
        if i >= j:
            return j
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1


@CASES.case(
    args=[(list(INTS),), ([5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11],), ([],)]
)
def introsort_list(values):
    """Quicksort with median-of-three that hands small ranges to insertion sort, on a Python
    list it sorts in place through an explicit stack of ranges."""
    a = list(values)
    stack = [(0, len(a) - 1)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo < 6:
            _insertion(a, lo, hi)
            continue
        p = _partition(a, lo, hi)
        stack.append((lo, p))
        stack.append((p + 1, hi))
    return a


@CASES.case(
    args=[
        (INTS,),
        (np.array([170, 45, 75, 90, 802, 24, 2, 66], dtype=np.int32),),
        (np.zeros(0, dtype=np.int64),),
    ]
)
def radix_sort_stable_counting(a):
    """LSD radix sort, base 10, each pass a stable counting sort with cumulative counts."""
    a = a.copy()
    if len(a) == 0:
        return a
    exp = 1
    while a.max() // exp > 0:
        digits = (a // exp) % 10
        counts = np.bincount(digits, minlength=10)
        starts = np.cumsum(counts) - counts
        out = np.empty_like(a)
        for v, d in zip(a, digits):
            out[starts[d]] = v
            starts[d] += 1
        a = out
        exp *= 10
    return a


@CASES.case(args=[(INTS, 3), (INTS, 0), (INTS, 11), (np.array([2.5, -1.0, 2.5]), 1)])
def quickselect_hoare(a, k):
    """The k-th smallest value by Hoare partitioning on a copy, narrowing [lo, hi] until it is
    one element."""
    a = a.copy()
    lo, hi = 0, len(a) - 1
    while lo < hi:
        pivot = a[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return a[k]


@CASES.case(
    args=[(SORTED, 49), (SORTED, 50), (SORTED, 1), (SORTED[:1], 1), (np.array([3, 3, 3]), 3)]
)
def interpolation_search_ints(a, target):
    """Interpolation search on sorted ints: the probe position by integer arithmetic, a
    guard against equal ends; returns the index or -1."""
    lo, hi = 0, len(a) - 1
    while lo <= hi and a[lo] <= target <= a[hi]:
        if a[hi] == a[lo]:
            return lo if a[lo] == target else -1
        pos = lo + (target - a[lo]) * (hi - lo) // (a[hi] - a[lo])
        if a[pos] == target:
            return int(pos)
        if a[pos] < target:
            lo = pos + 1
        else:
            hi = pos - 1
    return -1


@CASES.case(
    args=[(np.array([1, 3, 8, 12, 9, 4, 2]),), (np.array([5, 4, 3]),), (np.array([1.0, 2.0]),)]
)
def ternary_search_peak_index(a):
    """The index of the maximum of a strictly unimodal array by ternary search on indices."""
    lo, hi = 0, len(a) - 1
    while hi - lo > 2:
        m1 = lo + (hi - lo) // 3
        m2 = hi - (hi - lo) // 3
        if a[m1] < a[m2]:
            lo = m1 + 1
        else:
            hi = m2 - 1
    best = lo
    for i in range(lo + 1, hi + 1):
        if a[i] > a[best]:
            best = i
    return best


@CASES.case(args=[(6, [(0, 1), (2, 3), (1, 2), (4, 5)]), (4, []), (5, [(0, 4), (4, 0), (1, 3)])])
def union_find_components(n, edges):
    """Union-find with path halving and union by size; the number of components and the size
    of the largest."""
    parent = list(range(n))
    size = [1] * n

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    components = n
    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        components -= 1
    return components, max(size) if size else 0


@CASES.case(
    args=[
        (
            np.array(
                [
                    [0.0, 1.0, 0.0, 0.0],
                    [1.0, 0.0, 0.0, 0.0],
                    [0.0, 0.0, 0.0, 1.0],
                    [0.0, 0.0, 1.0, 0.0],
                ]
            ),
        ),
        (np.ones((3, 3)),),
    ]
)
def union_find_adjacency_array(adj):
    """Connected components of a graph given as an adjacency array, labels in a NumPy array
    merged by relabelling."""
    n = adj.shape[0]
    label = np.arange(n)
    for i in range(n):
        for j in range(i + 1, n):
            if adj[i, j] > 0 and label[i] != label[j]:
                old, new = label[j], label[i]
                label[label == old] = new
    return len(np.unique(label)), label


@CASES.case(args=[(INTS, 3), (INTS.astype(float), 5), (INTS[:2], 4)])
def top_k_heapq_minheap(a, k):
    """The k largest values with a size-k min-heap of Python ints or floats via .item()."""
    heap = []
    for v in a:
        v = v.item()
        if len(heap) < k:
            heapq.heappush(heap, v)
        elif v > heap[0]:
            heapq.heapreplace(heap, v)
    return sorted(heap, reverse=True)


@CASES.case(
    args=[
        ([np.array([1, 5, 9]), np.array([2, 3, 10]), np.array([0, 7])],),
        ([np.array([1.5]), np.array([])],),
    ]
)
def k_way_merge_heap(arrays):
    """Merges sorted arrays with a heap of (value, array, position) entries."""
    heap = [(arr[0].item(), i, 0) for i, arr in enumerate(arrays) if len(arr)]
    heapq.heapify(heap)
    out = []
    while heap:
        v, i, j = heapq.heappop(heap)
        out.append(v)
        if j + 1 < len(arrays[i]):
            heapq.heappush(heap, (arrays[i][j + 1].item(), i, j + 1))
    return np.array(out)


@CASES.case(
    args=[(np.array([2, 0, 1, 2, 1, 0, 0, 2]),), (np.array([1, 1]),), (np.zeros(0, dtype=int),)]
)
def dutch_national_flag(a):
    """Sorts an array of 0s, 1s and 2s in one pass with three pointers, in place."""
    lo = mid = 0
    hi = len(a) - 1
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
    return lo, hi


@CASES.case(args=[(np.array([3, 1, 3, 3, 2, 3, 3]),), (np.array([1, 2, 3]),), (np.array([7]),)])
def boyer_moore_majority(a):
    """Boyer-Moore voting, then a second pass to confirm; None when there is no majority."""
    candidate, count = None, 0
    for v in a:
        if count == 0:
            candidate, count = v, 1
        elif v == candidate:
            count += 1
        else:
            count -= 1
    if candidate is not None and np.sum(a == candidate) * 2 > len(a):
        return candidate
    return None


@CASES.case(args=[(INTS,), (np.arange(6),), (np.arange(5)[::-1].copy(),)])
def inversions_bottom_up(a):
    """Counts inversions with a bottom-up merge sort over widths 1, 2, 4, ..."""
    a = a.copy()
    n = len(a)
    count = 0
    width = 1
    while width < n:
        for lo in range(0, n - width, 2 * width):
            mid = lo + width
            hi = min(lo + 2 * width, n)
            left, right = a[lo:mid].copy(), a[mid:hi].copy()
            i = j = 0
            k = lo
            while i < len(left) and j < len(right):
                if left[i] <= right[j]:
                    a[k] = left[i]
                    i += 1
                else:
                    a[k] = right[j]
                    count += len(left) - i
                    j += 1
                k += 1
            a[k : k + len(left) - i] = left[i:]
            k += len(left) - i
            a[k : k + len(right) - j] = right[j:]
        width *= 2
    return count, a


@CASES.case(
    args=[
        (np.array([15, 18, 22, 3, 6, 9, 12]), 6),
        (np.array([15, 18, 22, 3, 6, 9, 12]), 20),
        (np.array([4]), 4),
    ]
)
def search_rotated(a, target):
    """Binary search in a rotated sorted array: decide which half is sorted at each step."""
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[lo] <= a[mid]:
            if a[lo] <= target < a[mid]:
                hi = mid - 1
            else:
                lo = mid + 1
        else:
            if a[mid] < target <= a[hi]:
                lo = mid + 1
            else:
                hi = mid - 1
    return -1


@CASES.case(
    args=[(np.array([1, 3, 20, 4, 1, 0]),), (np.array([5.0, 4.0, 3.0]),), (np.array([1, 2]),)]
)
def peak_element_binary(a):
    """Some index whose value is not smaller than its neighbours, by binary search on slopes."""
    lo, hi = 0, len(a) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < a[mid + 1]:
            lo = mid + 1
        else:
            hi = mid
    return lo, a[lo]


@CASES.case(args=[(SORTED, np.array([0, 16, 17, 100, 101])), (SORTED, np.array([], dtype=int))])
def bisect_left_loop(a, queries):
    """The insertion point of each query by the classic half-open binary search."""
    out = np.zeros(len(queries), dtype=np.int64)
    for q_i, q in enumerate(queries):
        lo, hi = 0, len(a)
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < q:
                lo = mid + 1
            else:
                hi = mid
        out[q_i] = lo
    return out
