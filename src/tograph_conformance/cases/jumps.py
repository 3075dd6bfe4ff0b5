"""Conformance cases: ``break``, ``continue`` and early ``return``, alone and nested (return inside
an if inside a loop, return inside nested loops), ``for ... else`` and ``while ... else``."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("jumps")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
MAT = np.array([[0.1, 0.2, 0.3], [0.4, 5.0, 0.6], [7.0, 0.8, 9.0]])


@CASES.case(args=[(VEC,), (POS,), (np.array([1.0, -2.0, -3.0]),)])
def break_static_range_tensor_condition(x):
    idx = -1
    for i in range(x.shape[0]):
        if x[i] < 0:
            idx = i
            break
    return idx


@CASES.case(
    args=[(VEC, np.int64(4)), (VEC, np.int64(1)), (POS, np.int64(3))], expect_ops={"while_loop"}
)
def break_tensor_range(x, n):
    total = 0.0 * x[0]
    for i in range(n):
        if x[i] < 0:
            break
        total = total + x[i]
    return total


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop"})
def continue_skips_negatives(x):
    s = 0.0 * x[0]
    for v in x:
        if v < 0:
            continue
        s = s + v
    return s


@CASES.case(args=[(np.array([1.0, -2.0, 3.0, 100.0, 5.0]),), (POS,)], expect_ops={"while_loop"})
def continue_and_break(x):
    s = 0.0 * x[0]
    n = 0
    for v in x:
        if v < 0:
            continue
        if v > 50:
            break
        s = s + v
        n += 1
    return s, n


@CASES.case(args=[(f64(-3.0),), (f64(3.0),)], expect_ops={"cond"})
def early_return_in_if(x):
    if x < 0:
        return -x
    y = x * 2
    return y + 1


@CASES.case(args=[(VEC, f64(1.0)), (VEC, f64(10.0))], expect_ops={"while_loop"})
def return_inside_loop(x, threshold):
    for v in x:
        if v > threshold:
            return v
    return f64(-1.0)


@CASES.case(args=[(MAT, f64(1.0)), (MAT, f64(8.0)), (MAT, f64(100.0))])
def return_inside_nested_loops(m, t):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > t:
                return i, j
    return -1, -1


@CASES.case(args=[(MAT, f64(1.0)), (MAT, f64(100.0))], expect_ops={"while_loop"})
def return_inside_nested_tensor_loops(m, t):
    for row in m:
        for v in row:
            if v > t:
                return v
    return f64(0.0)


@CASES.case(args=[(f64(10.0),), (f64(0.5),)], expect_ops={"while_loop"})
def return_inside_while(x):
    k = 0
    while k < 100:
        x = x * 0.7
        k += 1
        if x < 1.0:
            return x, k
    return x, -1


@CASES.case(args=[(VEC,), (POS,)])
def for_else_static_no_break(x):
    for i in range(2):
        x = x + i
    else:
        x = x * 10
    return x


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def for_else_tensor_break(x):
    first_negative = f64(0.0)
    for v in x:
        if v < 0:
            first_negative = v
            break
    else:
        first_negative = f64(np.nan)
    return first_negative


@CASES.case(args=[(np.int64(12),), (np.int64(13),), (np.int64(2),)], expect_ops={"while_loop"})
def while_else_prime_test(n):
    d = 2
    is_prime = True
    while d * d <= n:
        if n % d == 0:
            is_prime = False
            break
        d += 1
    else:
        d = 0
    return is_prime, d


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def inner_break_only(m):
    counts = []
    for row in m:
        c = 0
        for v in row:
            if v > 1.0:
                break
            c += 1
        counts.append(c)
    return np.array(counts)


@CASES.case(
    args=[(np.array([0.0, 1.0, 0.0, 2.0, 3.0]),)], expect_ops={"cond"}, forbid_ops={"while_loop"}
)
def continue_in_while(x):
    i = 0
    s = 0.0 * x[0]
    while i < x.shape[0]:
        i += 1
        if x[i - 1] == 0:
            continue
        s = s + 1.0 / x[i - 1]
    return s


@CASES.case(args=[(f64(-5.0),), (f64(0.0),), (f64(0.5),), (f64(5.0),)], expect_ops={"cond"})
def several_return_points(x):
    if x < 0:
        return x * 0 - 1
    elif x == 0:
        return x
    if x < 1:
        return x * x
    return np.sqrt(x)


@CASES.case(args=[(VEC, 0), (VEC, 3)], forbid_ops={"cond", "while_loop"})
def early_return_static(x, n):
    if n == 0:
        return x
    for _ in range(n):
        x = x * 0.5
    return x


@CASES.case(args=[(np.int64(10),), (np.int64(2),)], expect_ops={"while_loop"})
def break_on_index_in_tensor_loop(n):
    total = 0
    for i in range(n):
        if i >= 3:
            break
        total += i * 10
    return total


@CASES.case(args=[(VEC,)], forbid_ops={"cond", "while_loop"})
def break_static_everything(x):
    for k in range(10):
        if k == 3:
            break
        x = x + k
    return x


@CASES.case(args=[(VEC, f64(2.5)), (POS, f64(0.0))], expect_ops={"while_loop"})
def return_and_break_mixed(x, limit):
    acc = 0.0 * x[0]
    for v in x:
        if v < 0:
            break
        acc = acc + v
        if acc > limit:
            return acc, True
    return acc, False


@CASES.case(args=[(f64(2.0),), (f64(0.5),)], expect_ops={"while_loop"})
def while_true_return(x):
    while True:
        x = x - 0.3
        if x < 0.0:
            return x


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def continue_outer_after_inner(m):
    total = 0.0 * m[0, 0]
    for row in m:
        if row[0] > 5.0:
            continue
        for v in row:
            if v > 1.0:
                continue
            total = total + v
    return total


@CASES.case(
    args=[(np.array([3, 8, 12, 5, 20]), np.int64(10)), (np.array([1, 2]), np.int64(10))],
    expect_ops={"while_loop"},
)
def find_first_above_with_index(x, t):
    for i, v in enumerate(x):
        if v > t:
            return i, v
    return -1, x[0] * 0


@CASES.case(args=[(f64(0.0),), (f64(10.0),), (f64(-10.0),)], expect_ops={"cond"})
def break_stops_later_iterations(x):
    for i in range(5):
        x = x + 1
        if x > 2:
            break
    return x, i


@CASES.case(
    args=[(VEC,), (POS,), (np.array([-1, 4, 5]),)],
)
def for_else_index_of_first_negative(x):
    for i, v in enumerate(x):
        if v < 0:
            found = i
            break
    else:
        found = -1
    return found


@CASES.case(
    args=[(VEC, np.int64(2)), (VEC, np.int64(0)), (POS, 5)],
    expect_ops={"while_loop"},
)
def break_and_continue_in_nested_tensor_loops(x, n):
    out = 0.0
    for i in range(n):
        for v in x:
            if v < 0:
                continue
            if v > 3:
                break
            out = out + v * i
    return out


@CASES.case(args=[(VEC,), (POS,), (np.array([f64(np.nan), 1.0]),)])
def return_inside_while_inside_if(x):
    if len(x) > 0:
        i = 0
        while i < len(x):
            if x[i] > 2:
                return x[i]
            i += 1
        return x[0]
    return f64(0.0)


@CASES.case(args=[(f64(5.0),), (f64(-1.0),), (f64(100.0),)], expect_ops={"while_loop"})
def while_true_with_return_and_break(x):
    k = 0
    while True:
        k += 1
        if x < 0:
            return k, x
        x = x - 3
        if k > 10:
            break
    return -k, x
