"""Conformance cases: small whole programs in the style of Paddle's test_loop and AutoGraph's
composite_names_in_control_flow and loop_with_function_call tests, each mixing several
constructs: one-element array counters, dict entries and object attributes updated in tensor
loops, helpers with their own loops called from loops, tensor-valued ``range`` bounds, and
returns three statements deep."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("loop_programs")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.0, 2.0, 3.5])
POS = np.array([0.25, 1.0, 2.0])
MAT = np.array([[1.0, -2.0, 0.5], [0.5, 3.0, -0.25], [2.0, 0.0, 1.0]])


@CASES.case(args=[(np.zeros(1),), (np.full(1, 3.0),)])
def one_element_array_counter(x):
    i = np.zeros(1, dtype=np.int32)
    while i < 10:
        i += 1
        if i > 5:
            break
        x = x + i
    return x, i


@CASES.case(args=[(np.array([4], dtype=np.int64),), (np.array([0], dtype=np.int64),)])
def one_element_array_bound_in_while(n):
    i = np.zeros(1, dtype=np.int64)
    s = np.zeros(1)
    while i < n:
        s = s + i * 0.5
        i = i + 1
    return s


@CASES.case(args=[(i64(3),), (i64(0),), (i64(5),)])
def range_of_numpy_int_argument(n):
    s = 0
    for i in range(n):
        if i % 2 == 1:
            s += i * i
    return s


@CASES.case(args=[(VEC, i64(2)), (VEC, i64(4)), (POS, i64(0))])
def range_between_tensor_bounds(x, start):
    s = 0.0
    for i in range(start, x.shape[0]):
        s += x[i]
    return s


@CASES.case(args=[(VEC,), (POS,)])
def dict_entries_updated_in_tensor_while(x):
    state = {"x": x, "steps": 0}
    while state["x"].sum() < 10.0 and state["steps"] < 6:
        state["x"] = state["x"] * 2.0 + 0.5
        state["steps"] += 1
    return state["x"], state["steps"]


class _Accumulator:
    def __init__(self):
        self.total = 0.0
        self.count = 0


@CASES.case(args=[(VEC,), (POS,)])
def object_attributes_updated_in_tensor_loop(x):
    acc = _Accumulator()
    for v in x:
        if v > 0:
            acc.total = acc.total + v
            acc.count += 1
    return acc.total, acc.count


def _count_above(row, t):
    n = 0
    for v in row:
        if v > t:
            n += 1
    return n


@CASES.case(args=[(MAT, f64(0.4)), (MAT, f64(5.0))])
def helper_with_loop_called_from_loop(m, t):
    best = -1
    best_n = -1
    for i, row in enumerate(m):
        n = _count_above(row, t)
        if n > best_n:
            best, best_n = i, n
    return best, best_n


def _first_negative(row):
    for j, v in enumerate(row):
        if v < 0:
            return j
    return -1


@CASES.case(args=[(MAT,), (np.abs(MAT),)])
def helper_with_early_return_called_per_row(m):
    found = []
    for row in m:
        found.append(_first_negative(row))
    return found


@CASES.case(args=[(MAT, f64(2.5)), (MAT, f64(9.0)), (-MAT, f64(0.1))])
def return_three_blocks_deep_in_while(m, t):
    i = 0
    while i < m.shape[0]:
        for v in m[i]:
            if v > t:
                if v > 2 * t:
                    return i, v, 2
                return i, v, 1
        i += 1
    return -1, f64(0.0), 0


@CASES.case(args=[(VEC,), (POS,)])
def ternary_inside_loop_body(x):
    s = 0.0
    for v in x:
        s += v if v > 0 else -0.5 * v
    return s


@CASES.case(args=[(VEC, 3), (POS, 1)])
def static_outer_tensor_inner_loops(x, rounds):
    y = x
    for r in range(rounds):
        k = 0
        while y.max() > 1.0 and k < 4:
            y = y * 0.75
            k += 1
        y = y + r
    return y


@CASES.case(args=[(MAT,), (MAT.T.copy(),)])
def bubble_pass_until_sorted(m):
    v = m[0].copy()
    swapped = True
    passes = 0
    while swapped:
        swapped = False
        for j in range(v.shape[0] - 1):
            if v[j] > v[j + 1]:
                v[j], v[j + 1] = v[j + 1], v[j]
                swapped = True
        passes += 1
    return v, passes


@CASES.case(args=[(np.array([27.0]),), (np.array([6.0]),), (np.array([1.0]),)])
def collatz_steps_on_array(x):
    steps = 0
    while x[0] != 1.0:
        if x[0] % 2 == 0:
            x = x / 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="Python number on some paths and a NumPy scalar",
    at="sums.append(s)",
)
def list_of_partial_sums_then_stack(x):
    sums = []
    s = 0.0
    for v in x:
        s = s + v
        if s < 0:
            s = 0.0
        sums.append(s)
    return np.array(sums)


@CASES.case(args=[(MAT, f64(0.1)), (MAT, f64(3.0))])
def power_iteration_until_converged(m, tol):
    a = m @ m.T
    v = np.ones(a.shape[0]) / np.sqrt(a.shape[0])
    lam = 0.0
    for _ in range(50):
        w = a @ v
        new = np.linalg.norm(w)
        v = w / new
        if abs(new - lam) < tol:
            break
        lam = new
    return lam, v


@CASES.case(args=[(VEC,), (POS,)])
def prints_every_other_trip_with_counter(x):
    n = 0
    for i in range(x.shape[0]):
        if i % 2 == 0 and x[i] > 0:
            print("trip", i, "value", x[i])
            n += 1
    return n
