"""Conformance cases: what loops iterate over and what they leave behind: ``range`` with tensor
bounds and negative steps (zero, one and many trips), ``enumerate``, ``zip`` and ``reversed`` of
arrays and lists, loop variables read after the loop, lists grown in tensor loops and then stacked,
and ``while`` loops with compound conditions."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("iteration")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
MAT = np.array([[0.1, 0.2, 0.3], [0.4, 5.0, 0.6], [7.0, 0.8, 9.0]])
EMPTY = np.zeros(0)
ONE = np.array([4.0])


@CASES.case(
    args=[(i64(10), i64(0)), (i64(3), i64(3)), (i64(2), i64(5)), (i64(4), i64(3))],
    expect_ops={"while_loop"},
)
def range_tensor_start_stop_negative_step(start, stop):
    out = 0
    for i in range(start, stop, -1):
        out = out * 3 + i
    return out


@CASES.case(
    args=[(i64(9), i64(-3)), (i64(0), i64(-3)), (i64(-1), i64(2)), (i64(7), i64(3))],
    expect_ops={"while_loop"},
)
def range_tensor_step_either_sign(n, step):
    seen = []
    for i in range(n, 0 if step < 0 else 8, step):
        seen.append(i)
    return len(seen), sum(seen)


@CASES.case(args=[(VEC, i64(4)), (VEC, i64(1)), (VEC, i64(0))], expect_ops={"while_loop"})
def range_tensor_stop_reversed_indexing(x, n):
    acc = 0.0
    for i in range(n - 1, -1, -1):
        acc = acc * 0.5 + x[i]
    return acc


@CASES.case(args=[(i64(5),), (i64(0),), (i64(1),)], expect_ops={"while_loop"})
def loop_variable_after_tensor_range(n):
    i = -100
    for i in range(n):
        pass
    return i


@CASES.case(args=[(i64(5),), (i64(1),), (i64(0),)], expect_ops={"while_loop"})
def loop_variable_after_zero_trip_unbound(n):
    for i in range(n):
        pass
    return i


@CASES.case(args=[(VEC,), (ONE,), (EMPTY,)])
def loop_variables_after_enumerate(x):
    k, v = -1, None
    for k, v in enumerate(x):
        pass
    return k, v


@CASES.case(args=[(VEC, f64(1.0)), (VEC, f64(10.0)), (EMPTY, f64(0.0))])
def loop_variable_after_break_is_index(x, t):
    i = -1
    for i in range(len(x)):
        if x[i] > t:
            break
    return i


@CASES.case(args=[(VEC,), (EMPTY,), (ONE,)])
def enumerate_reversed_array(x):
    acc = 0.0
    for i, v in enumerate(reversed(x)):
        acc += i * v
    return acc


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def enumerate_reversed_list(x):
    parts = [x[0], x[1] * 2, x[2] * 3]
    acc = []
    for i, p in enumerate(reversed(parts)):
        acc.append(p - i)
    return acc


@CASES.case(args=[(VEC,), (ONE,), (EMPTY,)])
def zip_array_with_shifted_self(x):
    diffs = 0.0
    for a, b in zip(x, x[1:]):
        diffs += abs(b - a)
    return diffs


@CASES.case(args=[(VEC,), (POS,), (EMPTY,), (POS[:1],)])
def zip_array_and_shorter_list(x):
    weights = [1.0, 0.5]
    s = 0.0
    for v, w in zip(x, weights):
        s += v * w
    return s


@CASES.case(args=[(VEC, POS), (POS, VEC), (EMPTY, POS)])
def zip_arrays_of_unequal_length(a, b):
    products = []
    for u, v in zip(a, b):
        products.append(u * v)
    return len(products), sum(products)


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def zip_rows_and_enumerate_columns(m):
    total = 0.0
    for i, (row, col) in enumerate(zip(m, m.T)):
        total += np.dot(row, col) * (i + 1)
    return total


@CASES.case(args=[(i64(4),), (i64(0),), (i64(1),)], expect_ops={"while_loop"})
def reversed_tensor_range(n):
    order = []
    for i in reversed(range(n)):
        order.append(i * 10)
    return order


@CASES.case(args=[(VEC,), (ONE,)], forbid_ops={"while_loop"})
def reversed_static_range_over_shape(x):
    out = x.copy()
    for i in reversed(range(1, x.shape[0])):
        out[i] = out[i] - out[i - 1]
    return out


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def grow_list_then_stack(x):
    rows = []
    for v in x:
        rows.append(np.array([v, v * v]))
    if rows:
        return np.stack(rows)
    return np.zeros((0, 2))


@CASES.case(args=[(f64(100.0),), (f64(0.5),)], expect_ops={"while_loop"})
def grow_list_in_while_then_stack(x):
    states = [np.array([x, 0.0])]
    while states[-1][0] > 1.0:
        prev = states[-1]
        states.append(np.array([prev[0] / 3.0, prev[1] + 1.0]))
    return np.stack(states, axis=1)


@CASES.case(args=[(MAT, f64(1.0)), (MAT, f64(100.0))], expect_ops={"while_loop"})
def grow_list_conditionally_then_vstack(m, t):
    kept = [np.zeros(3)]
    for row in m:
        if np.max(row) > t:
            kept.append(row * 2)
    return np.vstack(kept), len(kept)


@CASES.case(args=[(VEC,), (EMPTY,)])
def stack_of_empty_list_raises(x):
    parts = []
    for v in x:
        if v > 100:
            parts.append(v)
    return np.stack(parts)


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="SymbolicList",
    at="return np.array(lows + highs), len(lows)",
)
def two_lists_grown_then_concatenated(x):
    lows = []
    highs = []
    for v in x:
        if v < 1.0:
            lows.append(v)
        else:
            highs.append(v)
    return np.array(lows + highs), len(lows)


@CASES.case(args=[(VEC, f64(10.0)), (POS, f64(2.5)), (EMPTY, f64(1.0))])
def while_index_and_running_sum(x, cap):
    i = 0
    s = 0.0
    while i < len(x) and s + x[i] <= cap:
        s += x[i]
        i += 1
    return i, s


@CASES.case(
    args=[(f64(50.0), i64(10)), (f64(50.0), i64(2)), (f64(0.1), i64(10)), (f64(np.nan), i64(5))],
    expect_ops={"while_loop"},
)
def while_or_condition(x, n):
    k = 0
    while (x > 1.0 or k < 2) and k < n:
        x = x / 4.0
        k += 1
    return x, k


@CASES.case(args=[(f64(9.0),), (f64(-9.0),), (f64(0.0),)], expect_ops={"while_loop"})
def while_not_and_condition(x):
    steps = 0
    while not (abs(x) < 1.0) and not steps >= 6:
        x = x * 0.5
        steps += 1
    return x, steps


@CASES.case(
    args=[(np.array([3.0, 1.0, 4.0, 1.0, 5.0]),), (POS,), (ONE,)], expect_ops={"while_loop"}
)
def while_elementwise_compound_condition(x):
    k = 0
    while np.any((x > 1.5) & (x < 100.0)) and k < 10:
        x = np.where(x > 1.5, x - 1.0, x)
        k += 1
    return x, k


@CASES.case(args=[(i64(27),), (i64(1),), (i64(6),)], expect_ops={"while_loop"})
def while_chained_comparison_condition(n):
    steps = 0
    while 1 < n < 1000 and steps < 200:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return n, steps


@CASES.case(args=[(VEC,), (EMPTY,)])
def enumerate_start_offset_tensor(x):
    weighted = 0.0
    last = 0
    for last, v in enumerate(x, start=10):
        weighted += last * v
    return weighted, last


@CASES.case(args=[(VEC, i64(2)), (VEC, i64(0))], expect_ops={"while_loop"})
def enumerate_with_tensor_start(x, start):
    total = 0.0
    for k, v in enumerate(x, start):
        total += k * v
    return total


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def loop_over_rows_rebinds_row_after(m):
    for row in m:
        row = row * 2
    return row


@CASES.case(args=[(VEC, i64(3)), (VEC, i64(0))], expect_ops={"while_loop"})
def nested_range_inner_bound_from_outer(x, n):
    total = 0.0
    pairs = 0
    for i in range(n):
        for j in range(i):
            total += x[i] * x[j]
            pairs += 1
    return total, pairs


@CASES.case(args=[(i64(6), i64(2)), (i64(6), i64(-2)), (i64(0), i64(1))], expect_ops={"while_loop"})
def range_with_all_three_tensor_arguments(n, step):
    values = []
    for v in range(-n, n, step):
        values.append(v)
    return values


@CASES.case(args=[(VEC,), (EMPTY,)])
def iterate_over_list_of_array_elements(x):
    items = list(x)
    acc = 0.0
    for v in items:
        acc = acc * 2 + v
    return acc, len(items)


@CASES.case(
    args=[(MAT,), (MAT[:1],)],
    expect="fallback",
    error="zip/enumerate mixing tensors with a list",
    at="for name, row, scale in zip(names, m, (1.0, 10.0, 100.0)):",
)
def zip_three_iterables(m):
    names = ["a", "b", "c"]
    out = {}
    for name, row, scale in zip(names, m, (1.0, 10.0, 100.0)):
        out[name] = np.sum(row) * scale
    return out


@CASES.case(args=[(VEC,), (POS,)])
def enumerate_list_of_tensors_with_tensor_break(x):
    parts = [x, x * 2, x * 3]
    used = 0
    for k, p in enumerate(parts):
        if np.sum(p) > 10:
            break
        used = k + 1
    return used


@CASES.case(args=[(i64(5),), (i64(0),)], expect_ops={"while_loop"})
def loop_var_reused_by_second_loop(n):
    a = 0
    for i in range(n):
        a += i
    for i in range(2):
        a += i * 100
    return a, i


@CASES.case(args=[(VEC,), (ONE,)])
def pairs_by_index_offset(x):
    best = -np.inf
    for i in range(len(x) - 1):
        best = max(best, x[i] + x[i + 1])
    return best


@CASES.case(args=[(f64(2.0),)], expect_ops={"cond"})
def loop_over_linspace_constant(x):
    acc = x * 0
    for t in np.linspace(0, 1, 5):
        acc = acc + t * x
        if acc > 3:
            break
    return acc


@CASES.case(args=[(i64(5),), (i64(0),), (i64(-3),)], expect_ops={"while_loop"})
def loop_var_after_negative_range(n):
    last = None
    for last in range(n, -1, -2):
        pass
    return last


@CASES.case(args=[(f64(3.0),)])
def range_of_float_tensor_raises(x):
    s = 0
    for i in range(x):
        s += i
    return s


@CASES.case(args=[(f64(3.0),), (f64(0.0),)], expect_ops={"while_loop"})
def while_truth_of_float(x):
    n = 0
    while x:
        x = x - 1.0
        n += 1
    return n


@CASES.case(args=[(VEC,), (np.array([0.0, 1.0]),)], expect_ops={"while_loop"})
def truth_of_elements(x):
    c = 0
    for v in x:
        if v:
            c += 1
    return c


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="a list that its body changes under a tensor condition",
    at="for v in items:",
)
def list_grows_while_iterated(x):
    items = [x[0], x[1]]
    for v in items:
        if v > 0 and len(items) < 5:
            items.append(v * 0.5)
    return items


@CASES.case(
    args=[(MAT.copy(),)],
    expect="fallback",
    error="'row' is an array from before the loop",
    at="row[0] = -1.0",
)
def row_view_written_after_break(m):
    for row in m:
        if row[0] > 0.3:
            break
    row[0] = -1.0
    return m
