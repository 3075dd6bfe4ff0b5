"""Sorting and searching the way tutorials write them, called the way users call them: in-place
sorts on NumPy arrays and on Python lists, hand-written argsort and quickselect, binary, ternary,
interpolation and exponential searches that return -1, lower and upper bounds, two pointers and
sliding windows; on empty, one-element, already-sorted, all-equal and tied inputs."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("search")

FLOATS = [3.5, -1.0, 7.25, 0.0, 3.5, 12.0, -4.5]
INTS = [5, 2, 9, 1, 5, 6, 0, 3]
ARRAY = np.array([0.5, -2.0, 8.0, 3.0, 3.0, -7.5, 1.0])
ARRAY_F32 = np.array([4.0, 1.5, -3.0, 2.25], dtype=np.float32)
ASCENDING = np.array([-5.0, -2.0, 0.0, 1.5, 4.0, 4.0, 9.0, 11.0])


@CASES.case(args=[(list(FLOATS),), (list(INTS),), ([],), ([2.0],), ([1, 2, 3, 4],)])
def bubble_sort_list(items):
    """Bubble sort on a Python list, in place, with the early exit when a pass swaps nothing."""
    n = len(items)
    for i in range(n):
        swapped = False
        for j in range(0, n - i - 1):
            if items[j] > items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
                swapped = True
        if not swapped:
            break
    return items


@CASES.case(args=[(ARRAY.copy(),), (ARRAY_F32.copy(),), (np.array([3, 1, 2]),), (np.zeros(0),)])
def insertion_sort_array(arr):
    """Insertion sort shifting larger elements right; returns the number of shifts."""
    shifts = 0
    for i in range(1, len(arr)):
        key = arr[i]
        j = i - 1
        while j >= 0 and key < arr[j]:
            arr[j + 1] = arr[j]
            j -= 1
            shifts += 1
        arr[j + 1] = key
    return shifts


@CASES.case(args=[(list(INTS),), (list(FLOATS),), ([7],), ([4, 4, 4],)])
def selection_sort_copy(values):
    """Selection sort on a copy of a list: the argument is left alone."""
    result = values[:]
    for i in range(len(result)):
        min_idx = i
        for j in range(i + 1, len(result)):
            if result[min_idx] > result[j]:
                min_idx = j
        result[i], result[min_idx] = result[min_idx], result[i]
    return result


@CASES.case(args=[(ARRAY.copy(),), (np.array(INTS),), (np.array([1.0]),), (ASCENDING.copy(),)])
def gnome_sort_array(a):
    pos = 0
    while pos < len(a):
        if pos == 0 or a[pos] >= a[pos - 1]:
            pos += 1
        else:
            a[pos], a[pos - 1] = a[pos - 1], a[pos]
            pos -= 1
    return a


@CASES.case(args=[(list(FLOATS),), (list(INTS),), ([],), ([9, 8, 7, 6, 5, 4, 3, 2, 1],)])
def comb_sort_list(data):
    """Comb sort with the usual shrink factor 1.3, sorting the list argument in place."""
    gap = len(data)
    shrink = 1.3
    done = False
    while not done:
        gap = int(gap / shrink)
        if gap <= 1:
            gap = 1
            done = True
        for i in range(len(data) - gap):
            if data[i] > data[i + gap]:
                data[i], data[i + gap] = data[i + gap], data[i]
                done = False


@CASES.case(args=[(ARRAY.copy(),), (np.array(INTS),), (np.full(4, 2.5),), (np.zeros(0),)])
def cocktail_sort_array(a):
    """Cocktail shaker sort bounded by the last swap in each direction; returns the passes."""
    start, end = 0, len(a) - 1
    passes = 0
    swapped = True
    while swapped:
        swapped = False
        for i in range(start, end):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        if not swapped:
            break
        end -= 1
        swapped = False
        for i in range(end - 1, start - 1, -1):
            if a[i] > a[i + 1]:
                a[i], a[i + 1] = a[i + 1], a[i]
                swapped = True
        start += 1
        passes += 1
    return passes


def _heapify(arr, n, i):
    largest = i
    left = 2 * i + 1
    right = 2 * i + 2
    if left < n and arr[largest] < arr[left]:
        largest = left
    if right < n and arr[largest] < arr[right]:
        largest = right
    if largest != i:
        arr[i], arr[largest] = arr[largest], arr[i]
        _heapify(arr, n, largest)


@CASES.case(args=[(ARRAY.copy(),), (ARRAY_F32.copy(),), (np.array(INTS),), (np.ones(1),)])
def heap_sort_recursive_heapify(arr):
    """The tutorial heap sort: a recursive heapify, build the max-heap, then pop to the end."""
    n = len(arr)
    for i in range(n // 2 - 1, -1, -1):
        _heapify(arr, n, i)
    for i in range(n - 1, 0, -1):
        arr[i], arr[0] = arr[0], arr[i]
        _heapify(arr, i, 0)


@CASES.case(args=[(np.array([4, 2, 2, 8, 3, 3, 1]),), (np.array([0, 0, 0]),), (np.array([7]),)])
def counting_sort_bincount(a):
    """Counting sort of non-negative ints through np.bincount and np.repeat."""
    counts = np.bincount(a)
    return np.repeat(np.arange(len(counts)), counts)


@CASES.case(args=[(list(INTS),), (list(FLOATS),), ([],), ([1.0],)])
def merge_sort_list(items):
    """Top-down merge sort on Python lists, building a new list."""
    if len(items) <= 1:
        return items[:]
    mid = len(items) // 2
    left = merge_sort_list(items[:mid])
    right = merge_sort_list(items[mid:])
    merged = []
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged


@CASES.case(args=[(ARRAY,), (np.array(INTS),), (np.array([2.0, 2.0, 1.0]),), (np.zeros(0),)])
def argsort_by_insertion(x):
    """Indices that sort x, by insertion sort on an index array (stable, like kind='stable')."""
    idx = np.arange(len(x))
    for i in range(1, len(x)):
        cur = idx[i]
        j = i - 1
        while j >= 0 and x[idx[j]] > x[cur]:
            idx[j + 1] = idx[j]
            j -= 1
        idx[j + 1] = cur
    return idx


@CASES.case(args=[(list(FLOATS), 0), (list(FLOATS), 3), (list(INTS), 7), ([5.0], 0)])
def quickselect_list(values, k):
    """k-th smallest by Hoare-style quickselect on a copy of a list."""
    a = list(values)
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
    args=[(ASCENDING, 4.0), (ASCENDING, 5.0), (ASCENDING, -5.0), (np.zeros(0), 1.0), ([1, 3, 5], 3)]
)
def binary_search_iterative(arr, target):
    """Classic iterative binary search: the index of target or -1."""
    low, high = 0, len(arr) - 1
    while low <= high:
        mid = (low + high) // 2
        if arr[mid] == target:
            return mid
        elif arr[mid] < target:
            low = mid + 1
        else:
            high = mid - 1
    return -1


@CASES.case(args=[(ASCENDING, 4.0), (ASCENDING, 20.0), (ASCENDING, -9.0), ([1.0, 2.0], 1.5)])
def lower_upper_bound(arr, x):
    """bisect_left and bisect_right by hand: where x would go before and after its equals."""
    lo, hi = 0, len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    first = lo
    hi = len(arr)
    while lo < hi:
        mid = (lo + hi) // 2
        if arr[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return first, lo, lo - first


@CASES.case(
    args=[
        (np.array([10, 20, 30, 40, 50, 60]), 40),
        (np.array([10, 20, 30, 40, 50, 60]), 35),
        (np.array([5, 5, 5]), 5),
        (np.array([1.0, 2.0, 4.0, 8.0]), 8.0),
    ]
)
def interpolation_search_guarded(arr, x):
    """Interpolation search that guards the division when the ends are equal."""
    lo, hi = 0, len(arr) - 1
    while lo <= hi and arr[lo] <= x <= arr[hi]:
        if arr[hi] == arr[lo]:
            return lo if arr[lo] == x else -1
        pos = lo + int((x - arr[lo]) * (hi - lo) / (arr[hi] - arr[lo]))
        if arr[pos] == x:
            return pos
        if arr[pos] < x:
            lo = pos + 1
        else:
            hi = pos - 1
    return -1


@CASES.case(args=[(ASCENDING, 9.0), (ASCENDING, 3.0), ([2, 4, 6, 8, 10, 12, 14], 14), ([], 1)])
def exponential_then_binary(arr, x):
    """Exponential search: double the bound until it passes x, then binary search the range."""
    n = len(arr)
    if n == 0:
        return -1
    if arr[0] == x:
        return 0
    i = 1
    while i < n and arr[i] <= x:
        i *= 2
    lo, hi = i // 2, min(i, n - 1)
    while lo <= hi:
        mid = lo + (hi - lo) // 2
        if arr[mid] == x:
            return mid
        if arr[mid] < x:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@CASES.case(args=[(lambda t: -((t - 2.0) ** 2), -1.0, 6.0), (np.cos, 0.0, 6.0)])
def ternary_search_continuous(f, lo, hi):
    """The maximiser of a unimodal function by ternary search to a fixed tolerance."""
    iterations = 0
    while hi - lo > 1e-6:
        m1 = lo + (hi - lo) / 3
        m2 = hi - (hi - lo) / 3
        if f(m1) < f(m2):
            lo = m1
        else:
            hi = m2
        iterations += 1
    return (lo + hi) / 2, iterations


@CASES.case(
    args=[([1, 4, 6, 9, 11, 15], 15), ([1, 4, 6, 9, 11, 15], 3), (np.arange(0.0, 20.0, 2.0), 7.0)]
)
def pair_sum_two_pointers(sorted_values, target):
    """Indices of two entries of a sorted sequence summing to target, else (-1, -1)."""
    left, right = 0, len(sorted_values) - 1
    while left < right:
        s = sorted_values[left] + sorted_values[right]
        if s == target:
            return left, right
        if s < target:
            left += 1
        else:
            right -= 1
    return -1, -1


@CASES.case(args=[(np.array([2.0, 1.0, 5.0, 1.0, 3.0, 2.0]), 3), ([1, 2, 3], 3), ([4.0], 1)])
def max_window_sum(x, k):
    """The largest sum of k consecutive entries, by a sliding window, and where it starts."""
    window = sum(x[:k])
    best, best_start = window, 0
    for i in range(k, len(x)):
        window += x[i] - x[i - k]
        if window > best:
            best, best_start = window, i - k + 1
    return best, best_start


@CASES.case(
    args=[(np.array([2, 3, 1, 2, 4, 3]), 7), ([1, 1, 1, 1], 10), (np.array([1.5, 4.0, 0.5]), 4.0)]
)
def shortest_subarray_at_least(nums, target):
    """Length of the shortest run of non-negative entries summing to at least target, else 0."""
    best = len(nums) + 1
    total = 0
    start = 0
    for end in range(len(nums)):
        total += nums[end]
        while total >= target:
            best = min(best, end - start + 1)
            total -= nums[start]
            start += 1
    return 0 if best == len(nums) + 1 else best


@CASES.case(args=[(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]),), (np.ones(3),)])
def shell_sort_knuth_gaps(a):
    """Shell sort with Knuth's gaps 1, 4, 13, ... counting comparisons."""
    n = len(a)
    gap = 1
    while gap < n // 3:
        gap = 3 * gap + 1
    comparisons = 0
    while gap >= 1:
        for i in range(gap, n):
            j = i
            while j >= gap:
                comparisons += 1
                if a[j] < a[j - gap]:
                    a[j], a[j - gap] = a[j - gap], a[j]
                    j -= gap
                else:
                    break
        gap //= 3
    return comparisons


@CASES.case(args=[(np.array([170, 45, 75, 90, 802, 24, 2, 66]),), (np.array([3, 3, 0]),)])
def radix_sort_numpy_digits(a):
    """LSD radix sort with a stable counting pass per decimal digit, all in NumPy arrays."""
    out = a.copy()
    exp = 1
    while out.max() // exp > 0:
        digits = (out // exp) % 10
        counts = np.zeros(10, dtype=np.int64)
        for d in digits:
            counts[d] += 1
        starts = np.cumsum(counts) - counts
        placed = np.empty_like(out)
        for value, d in zip(out, digits):
            placed[starts[d]] = value
            starts[d] += 1
        out = placed
        exp *= 10
    return out
