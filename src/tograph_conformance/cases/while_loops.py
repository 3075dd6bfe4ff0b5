"""Conformance cases: ``while`` loops with data-dependent trip counts (including zero trips),
static conditions (unrolled), ``while True`` with ``break``, ``while ... else``, nested loops."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("while_loops")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])


@CASES.case(args=[(f64(100.0),), (f64(0.5),), (f64(1.0),)], expect_ops={"while_loop"})
def count_halvings(x):
    k = 0
    while x > 1.0:
        x = x / 2
        k += 1
    return x, k


@CASES.case(args=[(VEC, np.int64(3)), (VEC, np.int64(0))], expect_ops={"while_loop"})
def zero_trip_tensor_bound(x, n):
    i = 0
    acc = np.zeros_like(x)
    while i < n:
        acc = acc + x * i
        i += 1
    return acc, i


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_condition_unrolled(x):
    i = 0
    while i < 3:
        x = x * 2 + i
        i += 1
    return x, i


@CASES.case(args=[(f64(50.0),), (f64(0.5),)], expect_ops={"while_loop"})
def static_then_tensor_condition(x):
    i = 0
    while i < 5 and x > 1.0:
        x = x - 7.0
        i += 1
    return x, i


@CASES.case(args=[(f64(10.0),), (f64(0.1),)], expect_ops={"while_loop"})
def while_true_break(x):
    steps = 0
    while True:
        x = x * 0.5
        steps += 1
        if x < 1.0:
            break
    return x, steps


@CASES.case(args=[(f64(3.0),), (f64(-3.0),)], expect_ops={"while_loop"})
def while_else_without_break(x):
    n = 0
    while x > 0:
        x = x - 1.25
        n += 1
    else:
        x = x * 100
    return x, n


@CASES.case(args=[(f64(1.0),), (f64(9.0),), (f64(-1.0),)], expect_ops={"while_loop"})
def while_else_with_break(x):
    i = 0
    found = x * 0.0
    while i < 5:
        x = x * 2.0
        if x > 20.0:
            found = x
            break
        i += 1
    else:
        found = f64(-1.0)
    return found, i


@CASES.case(args=[(np.float32(8.0),), (np.float32(0.5),)], expect_ops={"while_loop"})
def float32_state_stays_float32(x):
    steps = 0
    while x > 1:
        x = x * 0.5 - 0.1
        steps = steps + 1
    return x, steps


@CASES.case(args=[(f64(100.0),), (f64(1.0),)], expect_ops={"while_loop"})
def fibonacci_until_limit(limit):
    a, b = 0, 1
    count = 0
    while b < limit:
        a, b = b, a + b
        count += 1
    return a, b, count


@CASES.case(args=[(VEC * 10,), (np.array([0.01, -0.02]),)], expect_ops={"while_loop"})
def shrink_until_small(x):
    rounds = 0
    while np.max(np.abs(x)) > 0.1:
        x = x * 0.5
        rounds += 1
    return x, rounds


@CASES.case(args=[(np.int64(4),), (np.int64(0),), (np.int64(1),)], expect_ops={"while_loop"})
def nested_while_triangle(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j <= i:
            total += j
            j += 1
        i += 1
    return total


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"}, forbid_ops={"while_loop"})
def while_with_branch_inside(x):
    i = 0
    pos = 0.0 * x[0]
    neg = 0.0 * x[0]
    while i < x.shape[0]:
        if x[i] > 0:
            pos = pos + x[i]
        else:
            neg = neg + x[i]
        i += 1
    return pos, neg


@CASES.case(args=[(np.int64(9875),), (np.int64(0),), (np.int64(7),)], expect_ops={"while_loop"})
def digit_sum(n):
    s = n * 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


@CASES.case(args=[(VEC.reshape(2, 2),), (np.ones((2, 3, 4)),)], forbid_ops={"while_loop"})
def static_loop_over_ndim(x):
    d = 0
    while d < x.ndim:
        x = np.cumsum(x, axis=d)
        d += 1
    return x


@CASES.case(args=[(f64(-1.0),), (f64(2.0),)], expect_ops={"while_loop"})
def while_else_zero_trip(x):
    while x > 0:
        x = x - 0.75
    else:
        x = x - 1000.0
    return x


@CASES.case(
    args=[(np.int64(0b101101),), (np.int64(0),), (np.int64(255),)], expect_ops={"while_loop"}
)
def count_set_bits(n):
    count = 0
    while n:
        n &= n - 1
        count += 1
    return count


@CASES.case(args=[(f64(1.0), f64(1e-3)), (f64(1.0), f64(2.0))], expect_ops={"while_loop"})
def halve_step_until_tolerance(step, tol):
    history = 0.0 * step
    while step > tol:
        history = history + step
        step = step / 2
    return history, step


@CASES.case(
    args=[(np.array([5.0, 1.0, 4.0]), np.int64(2)), (np.array([5.0, 1.0, 4.0]), np.int64(0))],
    expect_ops={"while_loop"},
)
def while_decrements_tensor_counter(x, n):
    while n > 0:
        x = x[::-1] * 1.5
        n = n - 1
    return x, n


@CASES.case(args=[(f64(40.0),), (f64(0.5),)], expect_ops={"while_loop"})
def walrus_in_condition(x):
    n = 0
    while (half := x / 2) > 1:
        x = half - 0.5
        n += 1
    return x, n, half


@CASES.case(
    args=[(np.array([4.0, 9.0]),), (np.array([0.1, 0.2]),)],
    expect_ops={"while_loop"},
    forbid_ops={"cond"},
)
def static_for_inside_while(x):
    rounds = 0
    while np.sum(x) > 1:
        for k in range(2):
            x = x * 0.5 - 0.01 * k
        rounds += 1
    return x, rounds


@CASES.case(
    args=[(f64(3.0), np.int64(100)), (f64(3.0), np.int64(2)), (f64(0.1), np.int64(5))],
    expect_ops={"while_loop"},
)
def two_exit_conditions_with_else(x, budget):
    used = 0
    while x > 0.5:
        if used >= budget:
            break
        x = x * 0.8
        used += 1
    else:
        used = -used
    return x, used


@CASES.case(args=[(np.int64(10),), (np.int64(1),)], expect_ops={"while_loop"})
def counter_only_in_condition(n):
    i = 1
    while i < n:
        i = i * 2
    return n - i


@CASES.case(
    args=[(np.int64(0),), (np.int64(5),), (np.int32(3),), (np.array(4),), (np.uint8(2),)],
)
def trip_count_of_every_integer_kind(n):
    i = 0
    s = 0
    while i < n:
        s += i * i
        i += 1
    return s, i


@CASES.case(args=[(np.int64(27),), (np.int64(1),), (np.int32(7),)])
def collatz_steps_and_end(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps, n


@CASES.case(
    args=[(f64(0.3),), (f64(0.9),), (f64(np.nan),), (np.float32(0.25),)],
    expect_ops={"while_loop"},
)
def float_step_with_nan_and_cap(x):
    t = 0.0
    n = 0
    while t < 1.0:
        t += x
        n += 1
        if n > 20:
            break
    return n, t
