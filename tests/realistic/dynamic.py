"""Dynamic programming as people write it: edit distance and longest common subsequence on arrays,
0/1 knapsack with a one-row table, coin change, Kadane's maximum subarray, the longest increasing
subsequence, the maximum product path through a grid and the rod-cutting recursion with a memo."""

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import WORD_A, WORD_B

CASES = Registry("dynamic")


@CASES.case(args=[(WORD_A, WORD_B), (WORD_A, WORD_A[::-1]), (np.array([7]), np.array([8]))])
def lcs_with_backtrack(a, b):
    """Longest common subsequence: lengths in a list of lists, then the sequence read back."""
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n):
        for j in range(m):
            if a[i] == b[j]:
                dp[i + 1][j + 1] = dp[i][j] + 1
            else:
                dp[i + 1][j + 1] = max(dp[i][j + 1], dp[i + 1][j])
    out = []
    i, j = n, m
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            out.append(a[i - 1])
            i -= 1
            j -= 1
        elif dp[i - 1][j] >= dp[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]


@CASES.case(
    args=[
        (np.array([1, 3, 4, 5]), np.array([1.0, 4.0, 5.0, 7.0]), 7),
        (np.array([2, 2]), np.array([3.5, 3.5]), 1),
        (np.array([5, 4, 6, 3]), np.array([10.0, 40.0, 30.0, 50.0]), 10),
    ]
)
def knapsack(weights, values, capacity):
    """0/1 knapsack with one row, filled right to left so each item is used once."""
    best = np.zeros(capacity + 1)
    for w, v in zip(weights, values):
        for c in range(capacity, w - 1, -1):
            if best[c - w] + v > best[c]:
                best[c] = best[c - w] + v
    return best[capacity], int(np.argmax(best))


@CASES.case(args=[([1, 2, 5], 11), ([2], 3), ([3, 7, 405, 436], 8839 % 97), ((1, 5, 10, 25), 0)])
def coin_change(coins, amount):
    """Fewest coins for an amount (-1 if impossible); the table is a Python list."""
    inf = float("inf")
    table = [0] + [inf] * amount
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and table[a - c] + 1 < table[a]:
                table[a] = table[a - c] + 1
    return -1 if table[amount] == inf else table[amount]


@CASES.case(
    args=[
        (np.array([-2.0, 1.0, -3.0, 4.0, -1.0, 2.0, 1.0, -5.0, 4.0]),),
        (np.array([-3, -1, -2]),),
        (np.array([5.0]),),
        (np.array([], dtype=np.float32),),
    ]
)
def kadane(x):
    """Maximum subarray sum with its bounds; an empty array raises."""
    if len(x) == 0:
        raise ValueError("empty input")
    best = cur = x[0]
    start = best_start = best_end = 0
    for i in range(1, len(x)):
        if cur < 0:
            cur = x[i]
            start = i
        else:
            cur += x[i]
        if cur > best:
            best, best_start, best_end = cur, start, i
    return best, (best_start, best_end)


@CASES.case(
    args=[(np.array([10, 9, 2, 5, 3, 7, 101, 18]),), (np.array([3.0, 2.0, 1.0]),), (np.arange(6),)]
)
def longest_increasing(x):
    """O(n log n) longest increasing subsequence length with ``np.searchsorted`` on the tails."""
    tails = np.empty(len(x), dtype=x.dtype)
    size = 0
    for v in x:
        k = np.searchsorted(tails[:size], v)
        tails[k] = v
        if k == size:
            size += 1
    return size, tails[:size].copy()


@CASES.case(
    args=[
        (np.array([[1.0, 3.0, 1.0], [1.0, 5.0, 1.0], [4.0, 2.0, 1.0]]),),
        (np.array([[2, -1], [3, 4]]),),
    ]
)
def min_path_sum(grid):
    """Cheapest path from the top-left to the bottom-right moving right or down, in place on a
    copy, with the path recovered by walking back."""
    cost = grid.astype(float)
    rows, cols = cost.shape
    for r in range(rows):
        for c in range(cols):
            if r == 0 and c == 0:
                continue
            up = cost[r - 1, c] if r > 0 else np.inf
            left = cost[r, c - 1] if c > 0 else np.inf
            cost[r, c] += min(up, left)
    path = [(rows - 1, cols - 1)]
    r, c = rows - 1, cols - 1
    while (r, c) != (0, 0):
        if r > 0 and (c == 0 or cost[r - 1, c] <= cost[r, c - 1]):
            r -= 1
        else:
            c -= 1
        path.append((r, c))
    return cost[-1, -1], path[::-1]


PRICES = (1, 5, 8, 9, 10, 17, 17, 20)


def _rod(n, prices, memo):
    if n == 0:
        return 0
    if n in memo:
        return memo[n]
    best = -1
    for cut in range(1, min(n, len(prices)) + 1):
        best = max(best, prices[cut - 1] + _rod(n - cut, prices, memo))
    memo[n] = best
    return best


@CASES.case(args=[(8,), (4, (3, 5, 8, 9)), (0,)])
def rod_cutting(n, prices=PRICES):
    """The best revenue from cutting a rod, by recursion with a memo dict."""
    return _rod(n, prices, {})


# ---- round 3 ------------------------------------------------------------------------------------


@CASES.case(
    args=[
        (WORD_A, WORD_B),
        (np.array([1, 2, 3, 4]), np.array([2, 3, 4, 1])),
        (WORD_A, np.array([0])),
    ]
)
def longest_common_substring(a, b):
    """The longest common contiguous run, with a rolling one-row table."""
    best, end = 0, 0
    prev = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best, end = cur[j], i
        prev = cur
    return a[end - best : end]


@CASES.case(args=[([10, 30, 5, 60],), ([40, 20, 30, 10, 30],), ([5, 7],)])
def matrix_chain_order(dims):
    """Fewest scalar multiplications to multiply a chain of matrices, bottom-up by chain length."""
    n = len(dims) - 1
    cost = np.zeros((n, n), dtype=np.int64)
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i, j] = np.iinfo(np.int64).max
            for k in range(i, j):
                c = cost[i, k] + cost[k + 1, j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i, j]:
                    cost[i, j] = c
    return cost[0, n - 1]


@CASES.case(
    args=[
        (np.array([3, 34, 4, 12, 5, 2]), 9),
        (np.array([3, 34, 4, 12, 5, 2]), 30),
        (np.array([1]), 0),
    ]
)
def subset_sum(values, target):
    """Whether a subset sums to target, with a boolean NumPy table updated right to left."""
    reachable = np.zeros(target + 1, dtype=bool)
    reachable[0] = True
    for v in values:
        for s in range(target, v - 1, -1):
            if reachable[s - v]:
                reachable[s] = True
    return bool(reachable[target]), int(reachable.sum())


@CASES.case(args=[(10, [1, 2]), (7, [1, 3, 5]), (0, [2])])
def count_step_ways(n, steps):
    """Ways to climb n stairs taking any of the allowed steps, by a list that grows."""
    ways = [1]
    for i in range(1, n + 1):
        total = 0
        for s in steps:
            if i - s >= 0:
                total += ways[i - s]
        ways.append(total)
    return ways[n]
