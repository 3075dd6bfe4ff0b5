"""Conformance cases in the style of AutoGraph's loop_control_flow and Paddle's
test_break_continue / test_return: ``break``, ``continue`` and ``return`` in single and nested
``for`` and ``while`` loops whose conditions are tensors, statements after the jump that never run,
``for ... else`` and ``while ... else``, several exits from one loop, and early exits by flag."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("loop_exits")

f64 = np.float64
i64 = np.int64
ROW = np.array([1.0, 2.0, 3.0, 4.0])
ODD = np.array([2.0, 4.0, 5.0, 6.0])
INTS = np.array([3, 8, 1, 6, 7], dtype=np.int64)
GRID = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
SIGNS = np.array([[0.5, -1.0], [2.0, 3.0], [-4.0, 1.0]])
NONE = np.zeros(0)


@CASES.case(args=[(ROW,), (ODD,), (NONE,)])
def continue_skips_odd_values(xs):
    s = 0.0
    for c in xs:
        if c % 2 > 0:
            continue
        s += c
    return s


@CASES.case(args=[(ROW,), (ODD,), (NONE,)])
def break_at_first_odd_value(xs):
    s = 0.0
    for c in xs:
        if c % 2 > 0:
            break
        s += c
    return s


@CASES.case(args=[(i64(0),), (i64(3),), (i64(6),)], expect_ops={"while_loop"})
def continue_in_countdown_while(n):
    s = 0
    while n > 0:
        n -= 1
        if n % 2 > 0:
            continue
        s += n
    return s


@CASES.case(args=[(i64(0),), (i64(4),), (i64(7),)], expect_ops={"while_loop"})
def break_in_countdown_while(n):
    s = 0
    while n > 0:
        n -= 1
        if n % 3 == 0:
            break
        s += n
    return s, n


@CASES.case(args=[(GRID,), (GRID * 2.0,), (np.zeros((2, 0)),)], expect_ops={"while_loop"})
def continue_in_inner_for_over_rows(m):
    s = 0.0
    for row in m:
        for c in row:
            if c % 2 > 0:
                continue
            s += c
    return s


@CASES.case(args=[(GRID,), (GRID + 1.0,)], expect_ops={"while_loop"})
def break_in_inner_for_over_rows(m):
    s = 0.0
    for row in m:
        for c in row:
            if c % 2 > 0:
                break
            s += c
    return s


@CASES.case(args=[(GRID,), (GRID + 1.0,)], expect_ops={"while_loop"})
def break_or_continue_then_dead_add(m):
    s = 0.0
    for row in m:
        for c in row:
            if c % 2 > 0:
                break
            else:
                continue
            s += c
    return s


@CASES.case(args=[(i64(0), i64(3)), (i64(3), i64(4)), (i64(4), i64(0))], expect_ops={"while_loop"})
def continue_in_inner_countdown(x, y):
    s = 0
    while x > 0:
        x -= 1
        while y > 0:
            y -= 1
            if (x + y) % 2 > 0:
                continue
            s += x + y
    return s


@CASES.case(args=[(i64(2), i64(4)), (i64(4), i64(3)), (i64(0), i64(2))], expect_ops={"while_loop"})
def break_in_inner_countdown(x, y):
    s = 0
    while x > 0:
        x -= 1
        while y > 0:
            y -= 1
            if (x + y) % 2 == 0:
                break
            s += x + y
    return s


@CASES.case(args=[(i64(3),), (i64(1),), (i64(0),)], expect_ops={"while_loop"})
def two_breaks_in_one_while(n):
    s = 1
    i = 0
    while i < n:
        i += 1
        if i > 10 * n:
            break
        if i == n:
            break
        s = s * 10 + i
    return i, s


@CASES.case(args=[(f64(5.0),), (f64(2.0),), (f64(-1.0),)], expect_ops={"while_loop"})
def break_before_decrement(x):
    while x > 0:
        if x == 2:
            break
        if x > 0:
            x -= 1
    return x


@CASES.case(args=[(f64(3.0), 5), (f64(0.5), 5), (f64(3.0), 1)])
def break_at_static_index_then_tensor_update(x, n):
    for i in range(n):
        if i == 2:
            break
        if x > 0:
            x -= 1
    return x


@CASES.case(args=[(np.zeros(2),), (np.ones(2),)])
def dead_code_after_continue_and_break(x):
    i = np.int64(0)
    while i < 10:
        i += 1
        if i > 5:
            break
            x += 10086
        if i % 2 == 0:
            continue
            x -= 1.0
        x += i
    return x


@CASES.case(args=[(np.zeros(3),), (np.full(3, 2.0),)], expect_ops={"while_loop"})
def static_continue_then_tensor_break(x):
    for i in range(1, 10):
        if i <= 4:
            x += 1
            continue
        if x.sum() > 20:
            break
        x += i
    return x


@CASES.case(
    args=[(np.zeros(2),), (np.full(2, 3.0),)],
    expect="fallback",
    error="the same array as before on some paths",
    at="x += i",
)
def break_on_sum_then_double_early_trips(x):
    for i in range(10):
        if x.sum() > 5:
            break
        x += i
        if i < 3:
            x = x * 2
    return x


@CASES.case(args=[(f64(1.0),), (f64(-3.0),), (f64(20.0),)])
def return_in_while_after_counter(x):
    i = np.int32(0)
    while i < 10:
        i += 1
        if i > 5:
            x += 110
            return x
        x += i
    return x


@CASES.case(args=[(f64(0.0),), (f64(7.5),)])
def return_in_static_for_after_continue(x):
    for i in range(10):
        if i <= 4:
            x += 1
            continue
        else:
            return x + 10086
    return x - 1


@CASES.case(args=[(ROW,), (ODD,), (NONE,)])
def return_first_odd_else_minus_one(xs):
    for c in xs:
        if c % 2 > 0:
            return c
    return f64(-1.0)


@CASES.case(args=[(ROW, f64(2.5)), (ROW, f64(9.0)), (NONE, f64(0.0))])
def return_index_two_loops_deep(xs, t):
    for i in range(xs.shape[0]):
        for j in range(i):
            if xs[i] - xs[j] > t:
                return i, j
    return -1, -1


@CASES.case(args=[(GRID, f64(4.5)), (GRID, f64(10.0)), (-GRID, f64(0.0))])
def return_row_sum_from_inner_while(m, t):
    for row in m:
        k = 0
        acc = 0.0
        while k < row.shape[0]:
            acc += row[k]
            if acc > t:
                return acc
            k += 1
    return 0.0


@CASES.case(args=[(ROW, f64(2.5)), (ROW, f64(10.0)), (NONE, f64(1.0))])
def for_else_runs_without_break(xs, t):
    found = -1
    for i, v in enumerate(xs):
        if v > t:
            found = i
            break
    else:
        found = len(xs)
    return found


@CASES.case(args=[(f64(1.0), f64(10.0)), (f64(1.0), f64(0.5)), (f64(3.0), f64(100.0))])
def while_else_after_break_or_exhaustion(x, limit):
    steps = 0
    while steps < 6:
        x = x * 2.0
        steps += 1
        if x > limit:
            over = 1
            break
    else:
        over = 0
    return x, steps, over


@CASES.case(args=[(GRID, f64(4.0)), (GRID, f64(9.0))], expect_ops={"while_loop"})
def for_else_marks_each_row(m, t):
    marks = []
    for row in m:
        for v in row:
            if v > t:
                marks.append(1)
                break
        else:
            marks.append(0)
    return marks


@CASES.case(args=[(SIGNS,), (np.abs(SIGNS),)], expect_ops={"while_loop"})
def flag_stops_both_loops(m):
    stop = False
    count = 0
    for row in m:
        for v in row:
            if v < 0:
                stop = True
                break
            count += 1
        if stop:
            break
    return count, stop


@CASES.case(args=[(ROW,), (ODD,)], expect_ops={"while_loop"})
def done_flag_in_while_condition(xs):
    i = 0
    done = False
    total = 0.0
    while not done and i < len(xs):
        total += xs[i]
        done = total > 6.0
        i += 1
    return total, i, done


@CASES.case(args=[(INTS,), (INTS[::-1].copy(),)], expect_ops={"while_loop"})
def break_continue_on_int_elements(xs):
    kept = 0
    for v in xs:
        if v == 1:
            continue
        if v > 6:
            break
        kept = kept + v
    return kept


@CASES.case(args=[(f64(1.0),), (f64(40.0),), (f64(-1.0),)], expect_ops={"while_loop"})
def while_true_with_break(x):
    n = 0
    while True:
        if x > 30.0 or n >= 8:
            break
        x = x * 1.5 + 1.0
        n += 1
    return x, n


@CASES.case(args=[(ROW,), (ROW * 3.0,)], expect_ops={"while_loop"})
def continue_and_break_on_same_trip_counter(xs):
    seen = 0
    skipped = 0
    for v in xs:
        seen += 1
        if v > 5.0:
            break
        if v < 2.0:
            skipped += 1
            continue
    return seen, skipped


@CASES.case(args=[(ROW, f64(2.0)), (ROW, f64(0.0)), (NONE, f64(1.0))])
def print_at_break_and_continue(xs, t):
    for i, v in enumerate(xs):
        if v < t:
            print("skip", i)
            continue
        if v > t + 1.5:
            print("stop at", i, v)
            break
        print("keep", v)
    print("end")


@CASES.case(args=[(f64(0.3),), (f64(0.9),), (f64(2.0),)], expect_ops={"while_loop"})
def return_from_inner_while_in_while(x):
    outer = 0
    while outer < 3:
        inner = 0
        while inner < 3:
            x = x * 1.2
            if x > 1.0:
                return outer, inner, x
            inner += 1
        outer += 1
    return outer, -1, x


@CASES.case(args=[(GRID,), (GRID - 3.0,)])
def return_in_both_arms_inside_loop(m):
    s = 0.0
    for row in m:
        s += row.sum()
        if row[0] > 0:
            return s
        else:
            return -s
    return s


@CASES.case(args=[(ROW,), (NONE,)])
def unconditional_return_in_tensor_for(xs):
    s = 0.0
    for c in xs:
        s += c
        return s
    return s


@CASES.case(args=[(i64(4),), (i64(0),)], expect_ops={"while_loop"})
def unconditional_return_in_tensor_while(n):
    s = 0
    while n > 0:
        n -= 1
        s += n
        return s
    return s
