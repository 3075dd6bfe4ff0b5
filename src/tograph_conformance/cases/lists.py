"""Conformance cases: Python lists built in loops (``append`` inside tensor loops, then
``np.stack`` / ``np.array`` / ``len`` / indexing), list comprehensions, lists as arguments."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("lists")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
MAT = np.arange(12.0).reshape(4, 3) - 5.0


@CASES.case(args=[(VEC, np.int64(3)), (VEC, np.int64(1))], expect_ops={"while_loop"})
def append_rows_then_stack(x, n):
    rows = []
    for i in range(n):
        rows.append(x * i)
    return np.stack(rows)


@CASES.case(args=[(VEC,), (MAT[:, 1],)], expect_ops={"while_loop"})
def append_scalars_then_array(x):
    doubled = []
    for v in x:
        doubled.append(v * 2)
    return np.array(doubled)


@CASES.case(args=[(f64(2.0),), (f64(100.0),)], expect_ops={"while_loop"})
def append_history_in_while(a):
    x = a
    errors = []
    err = abs(x * x - a)
    while err > 1e-8:
        x = 0.5 * (x + a / x)
        err = abs(x * x - a)
        errors.append(err)
    return x, np.array(errors)


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def append_in_static_loop(x):
    powers = []
    for k in range(4):
        powers.append(x**k)
    return np.stack(powers, axis=1)


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def append_row_sums_then_len(m):
    sums = []
    for row in m:
        sums.append(np.sum(row))
    return len(sums), np.array(sums)


@CASES.case(args=[(VEC, np.int64(3))], expect_ops={"while_loop"})
def append_then_last_element(x, n):
    states = [x]
    for _ in range(n):
        states.append(states[-1] * 0.5 + 1.0)
    return states[-1]


@CASES.case(args=[(VEC, VEC[::-1])], expect_ops={"while_loop"})
def two_lists_from_zip(a, b):
    lows = []
    highs = []
    for u, v in zip(a, b):
        lows.append(np.minimum(u, v))
        highs.append(np.maximum(u, v))
    return np.array(lows), np.array(highs)


@CASES.case(args=[(VEC,)])
def list_comprehension_static(x):
    scaled = [x * k for k in range(3)]
    return np.stack(scaled)


@CASES.case(args=[(VEC,)])
def list_comprehension_over_tensor(x):
    squares = [v * v for v in x]
    return np.array(squares)


@CASES.case(args=[([VEC, VEC * 2, VEC * 3],)], forbid_ops={"while_loop"})
def list_argument(parts):
    total = np.zeros_like(parts[0])
    for p in parts:
        total = total + p
    return total, len(parts)


@CASES.case(args=[(MAT, np.int64(2))], expect_ops={"while_loop"})
def append_2d_blocks(m, reps):
    blocks = []
    for r in range(reps):
        blocks.append(m * (r + 1))
    return np.concatenate(blocks, axis=0)


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_list_mutation(x):
    coeffs = [1.0, 2.0, 3.0]
    coeffs[1] = -2.0
    coeffs += [4.0]
    out = 0.0 * x
    for c in coeffs:
        out = out * x + c
    return out


@CASES.case(args=[(np.array([3.0, 1.0, 2.0]), np.int64(4))], expect_ops={"while_loop"})
def append_tuple_pairs(x, n):
    mins = []
    maxs = []
    for k in range(n):
        shifted = x + k
        mins.append(shifted.min())
        maxs.append(shifted.max())
    return np.stack([np.array(mins), np.array(maxs)])


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def builtin_sum_of_appended(x):
    parts = []
    for v in x:
        parts.append(v * 3)
    return sum(parts)


@CASES.case(args=[(VEC,), (-VEC,)])
def append_only_where_positive(x):
    out = []
    for v in x:
        if v > 0:
            out.append(v)
    return len(out), np.array(out)
