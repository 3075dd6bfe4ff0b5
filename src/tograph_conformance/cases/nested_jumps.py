"""Conformance cases: ``break``, ``continue`` and ``return`` two and three loops deep in ``for`` and
``while`` loops over tensors, ``for ... else`` and ``while ... else`` whose loops end on tensor
conditions, and early returns from inside nested tensor loops and branches."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("nested_jumps")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
MAT = np.array([[0.1, 0.2, 0.3], [0.4, 5.0, 0.6], [7.0, 0.8, 9.0]])
NEG = -MAT
CUBE = np.arange(24.0).reshape(2, 3, 4) - 10.0
EMPTY = np.zeros(0)
EMPTY_ROWS = np.zeros((0, 3))


@CASES.case(args=[(MAT, f64(4.0)), (MAT, f64(100.0)), (EMPTY_ROWS, f64(1.0))])
def break_inner_counts_outer(m, t):
    hits = 0
    for row in m:
        for v in row:
            if v > t:
                hits += 1
                break
    return hits


@CASES.case(args=[(MAT, f64(4.0)), (NEG, f64(4.0))], expect_ops={"while_loop"})
def break_outer_through_flag(m, t):
    done = False
    where = (-1, -1)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > t:
                done = True
                where = (i, j)
                break
        if done:
            break
    return where, done


@CASES.case(args=[(CUBE, f64(5.0)), (CUBE, f64(50.0)), (-CUBE, f64(5.0))])
def return_three_loops_deep(c, t):
    for i, plane in enumerate(c):
        for j, row in enumerate(plane):
            for k, v in enumerate(row):
                if v > t:
                    return i, j, k, v
    return None


@CASES.case(args=[(CUBE,), (-CUBE,)], expect_ops={"while_loop"})
def continue_three_loops_deep(c):
    total = 0.0
    for plane in c:
        for row in plane:
            for v in row:
                if v < 0:
                    continue
                total += v
    return total


@CASES.case(
    args=[(MAT,), (NEG,), (np.array([[np.nan, 1.0], [2.0, 3.0]]),)], expect_ops={"while_loop"}
)
def continue_outer_from_inner_flag(m):
    kept = 0.0
    for row in m:
        skip = False
        for v in row:
            if v > 4.0:
                skip = True
        if skip:
            continue
        kept += np.sum(row)
    return kept


@CASES.case(
    args=[(f64(1.0), f64(50.0)), (f64(3.0), f64(2.0)), (f64(0.5), f64(5.0))],
    expect_ops={"while_loop"},
)
def break_inner_while_in_outer_while(a, limit):
    outer = 0
    total = 0.0
    while outer < 4:
        inner = a
        while inner < limit:
            inner = inner * 2.0
            if inner > 20.0:
                break
            total = total + inner
        outer += 1
    return total, outer


@CASES.case(
    args=[(f64(3.0),), (f64(0.25),), (f64(-2.0),), (f64(np.nan),)], expect_ops={"while_loop"}
)
def return_from_while_inside_for(x):
    for k in range(3):
        y = x
        while y > 0.5:
            y = y - 1.0
            if y < 0.1 * k:
                return k, y
    return -1, x


@CASES.case(
    args=[(VEC,), (POS,), (-POS,)],
    expect="fallback",
    error="the return value\\[1\\] is None",
    at="return rounds, None",
)
def return_from_for_inside_while(x):
    rounds = 0
    while rounds < 3:
        for v in x:
            if v * rounds > 5.0:
                return rounds, v
        rounds += 1
    return rounds, None


@CASES.case(args=[(MAT, f64(0.5)), (MAT, f64(10.0)), (NEG, f64(0.5))], expect_ops={"while_loop"})
def for_else_inside_for(m, t):
    firsts = []
    for row in m:
        for v in row:
            if v > t:
                firsts.append(v)
                break
        else:
            firsts.append(f64(-1.0))
    return firsts


@CASES.case(args=[(MAT,), (NEG,)], expect_ops={"while_loop"})
def for_else_break_in_else_of_outer(m):
    found = f64(0.0)
    for row in m:
        for v in row:
            if v < 0:
                break
        else:
            found = row[0]
            break
    return found


@CASES.case(
    args=[(f64(10.0),), (f64(0.5),), (f64(-3.0),)],
)
def while_else_return_in_else(x):
    n = 0
    while x > 1.0:
        x = x / 3.0
        n += 1
        if n > 1 and x < 0.5:
            break
    else:
        return "finished", x, n
    return "stopped", x, n


@CASES.case(args=[(POS,), (VEC,), (EMPTY,)])
def for_else_return_in_body_and_else(x):
    for i, v in enumerate(x):
        if v < 0:
            return i
    else:
        return len(x)


@CASES.case(
    args=[
        (np.array([4.0, 6.0, 9.0]), f64(3.0)),
        (np.array([4.0, 7.0]), f64(2.0)),
        (EMPTY, f64(2.0)),
    ],
)
def for_else_all_divisible(x, d):
    for v in x:
        if v % d != 0:
            ok = False
            break
    else:
        ok = True
    return ok


@CASES.case(
    args=[(np.int64(17),), (np.int64(21),), (np.int64(1),)],
    expect="fallback",
    error="cannot push a value of type bool",
    at="verdicts.append(m > 1)",
)
def while_else_nested_in_for(n):
    verdicts = []
    for offset in range(3):
        m = n + offset
        d = 2
        while d * d <= m:
            if m % d == 0:
                verdicts.append(False)
                break
            d += 1
        else:
            verdicts.append(m > 1)
    return verdicts


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def break_and_continue_same_loop_while(x):
    i = 0
    acc = 0.0
    while i < len(x):
        v = x[i]
        i += 1
        if v < 0:
            continue
        if v > 2.5:
            break
        acc += v
    return acc, i


@CASES.case(args=[(MAT,), (NEG,), (np.ones((2, 2)),)], expect_ops={"while_loop"})
def continue_inner_break_outer(m):
    count = 0
    for row in m:
        for v in row:
            if v < 0.5:
                continue
            count += 1
        if count >= 3:
            break
    return count


@CASES.case(
    args=[(f64(7.0),), (f64(-7.0),), (f64(0.0),)],
)
def return_in_every_arm_of_nested_if(x):
    if x > 0:
        if x > 5:
            return "big", x
        return "small", x
    else:
        if x < -5:
            return "very negative", -x
    return "zero-ish", x * 0


@CASES.case(args=[(VEC, i64(3)), (VEC, i64(0)), (POS, i64(1))], expect_ops={"while_loop"})
def break_in_tensor_range_inside_static_loop(x, n):
    out = []
    for scale in (1.0, -1.0):
        s = 0.0
        for i in range(n):
            if x[i] * scale < 0:
                break
            s += x[i] * scale
        out.append(s)
    return out


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def return_after_loop_with_continue(x):
    best = None
    for v in x:
        if best is not None and v <= best:
            continue
        best = v
    if best is None:
        return f64(0.0)
    return best


@CASES.case(args=[(f64(5.0),), (f64(1.0),), (f64(40.0),)], expect_ops={"while_loop"})
def while_true_nested_while_true(x):
    steps = 0
    while True:
        while True:
            x = x - 1.5
            steps += 1
            if x < 2.0:
                break
        if x < 0.0:
            break
        x = x * 1.2
    return x, steps


@CASES.case(args=[(MAT, i64(2)), (MAT, i64(0)), (NEG, i64(5))], expect_ops={"while_loop"})
def return_from_inner_of_tensor_ranges(m, n):
    for i in range(n):
        for j in range(m.shape[1]):
            if m[i % m.shape[0], j] > 4.5:
                return i * 10 + j
    return -1


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def break_in_else_branch(x):
    s = 0.0
    for v in x:
        if v > 0:
            s += v
        else:
            break
    return s


@CASES.case(args=[(VEC,), (-VEC,), (EMPTY,)])
def continue_in_both_branches(x):
    pos = 0
    neg = 0
    for v in x:
        if v > 0:
            pos += 1
            continue
        else:
            neg += 1
            continue
    return pos, neg


@CASES.case(args=[(f64(20.0),), (f64(1.0),)], expect_ops={"while_loop"})
def while_else_zero_trip_then_break_next(x):
    log = []
    for limit in (50.0, 5.0):
        y = x
        while y > limit:
            y = y / 2
            if y < 3:
                break
        else:
            log.append(y)
    return log


@CASES.case(
    args=[(MAT,), (NEG,)],
    expect="fallback",
    error="the return value\\[0\\] is None",
    at="return None, -1",
)
def return_value_of_inner_loop_variable(m):
    for row in m:
        for j in range(len(row)):
            if row[j] > 6.0:
                break
        else:
            continue
        return row, j
    return None, -1


@CASES.case(args=[(VEC, f64(1.0)), (VEC, f64(-10.0)), (EMPTY, f64(0.0))])
def break_with_nan_comparison(x, t):
    k = 0
    for v in x:
        if not (v > t):
            break
        k += 1
    return k


@CASES.case(args=[(np.array([np.nan, 1.0, 2.0]),), (POS,)], expect_ops={"while_loop"})
def continue_on_nan(x):
    total = 0.0
    seen = 0
    for v in x:
        if np.isnan(v):
            continue
        total += v
        seen += 1
    return total / seen if seen else total


@CASES.case(args=[(i64(3),), (i64(0),), (i64(6),)], expect_ops={"while_loop"})
def triple_while_with_break_at_each_depth(n):
    a = 0
    trace = 0
    while a < n:
        b = 0
        while b < n:
            c = 0
            while True:
                c += 1
                if c > b:
                    break
            trace += c
            if b == 2:
                break
            b += 1
        if a * b > 8:
            break
        a += 1
    return a, trace


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond"})
def while_else_with_continue(x):
    k = 0
    while k < 4:
        k += 1
        if x * k > 2:
            continue
        x = x - 0.1
    else:
        x = x * 10
    return x, k


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def continue_in_for_else(x):
    n = 0
    for v in x:
        if v < 1:
            continue
        n += 1
    else:
        n = -n
    return n


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def return_inside_unrolled_list_loop(x):
    for s in [1.0, -1.0, 2.0]:
        if np.sum(x * s) > 3:
            return s
    return 0.0


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"cond"})
def unpack_tuples_with_tensor_break(x):
    pairs = [(x[0], 1), (x[1], 2), (x[2], 3)]
    s = 0.0
    for v, w in pairs:
        if v < 0:
            break
        s += v * w
    return s


@CASES.case(args=[(i64(4),), (i64(0),)], expect_ops={"while_loop"})
def while_with_walrus_and_break(n):
    total = 0
    i = 0
    while (j := i * 2) < n * 3:
        i += 1
        if j > 4:
            break
        total += j
    return total, i, j


@CASES.case(
    args=[(VEC, i64(2)), (VEC, i64(-1)), (VEC, i64(10))],
    expect="fallback",
    error="KeyError made from a tensor value",
    at="raise KeyError(k)",
)
def raise_inside_tensor_for_with_else(x, k):
    for i in range(len(x)):
        if i == k:
            raise KeyError(k)
    else:
        return "missed"


@CASES.case(
    args=[(VEC,), (POS,)], expect="fallback", error="an iterator made with iter", at="for v in it:"
)
def iterator_continued_after_tensor_break(x):
    it = iter([x[0], x[1], x[2]])
    first = None
    for v in it:
        if v < 0:
            first = v
            break
    return first, list(it)


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="variable 'where' is a single value in the if-branch but a value set on some paths only",
    at="where = None",
)
def enumerate_list_break_else(x):
    vals = [x[0], x[1], x[2]]
    for i, v in enumerate(vals):
        if v < 0:
            where = i
            break
    else:
        where = None
    return where


@CASES.case(
    args=[(VEC,), (-POS,)],
)
def break_in_dict_items(x):
    d = {"a": x[0], "b": x[1], "c": x[2]}
    found = "none"
    for k, v in d.items():
        if v < 0:
            found = k
            break
    return found
