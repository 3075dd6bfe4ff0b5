"""Conformance cases: nested functions and lambdas defined and called inside tensor loops and
branches (closing over loop variables, called with loop variables, holding their own tensor
control flow), helpers that return early, and recursion whose depth is a static int."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("helpers")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
MAT = np.array([[0.1, 0.2, 0.3], [0.4, 5.0, 0.6], [7.0, 0.8, 9.0]])
EMPTY = np.zeros(0)


def _clip_step(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def _first_above(x, t):
    for i, v in enumerate(x):
        if v > t:
            return i
    return -1


def _poly(depth, x):
    if depth == 0:
        return x * 0 + 1
    return x * _poly(depth - 1, x) + depth


def _tree_sum(x, lo, hi):
    if hi - lo == 1:
        return x[lo] if x[lo] > 0 else x[lo] * 0
    mid = (lo + hi) // 2
    return _tree_sum(x, lo, mid) + _tree_sum(x, mid, hi)


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def lambda_defined_before_tensor_loop(x):
    square = lambda v: v * v  # noqa: E731 - the lambda is the point of the case
    acc = 0.0
    for v in x:
        acc += square(v)
    return acc


@CASES.case(
    args=[(VEC,), (EMPTY,)],
    expect="fallback",
    error="closure over variable 'i'",
    at="scale = lambda t: t * (i + 1)  # noqa: E731",
)
def lambda_defined_inside_tensor_loop_closes_over_index(x):
    acc = 0.0
    for i, v in enumerate(x):
        scale = lambda t: t * (i + 1)  # noqa: E731
        acc += scale(v)
    return acc


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def nested_def_with_branch_called_in_loop(x):
    def leaky(v):
        if v > 0:
            return v
        return 0.1 * v

    total = 0.0
    for v in x:
        total += leaky(v)
    return total


@CASES.case(args=[(VEC, f64(-1.0), f64(1.0)), (POS, f64(0.0), f64(2.5))], expect_ops={"while_loop"})
def module_helper_with_early_returns_in_loop(x, lo, hi):
    out = []
    for v in x:
        out.append(_clip_step(v, lo, hi))
    return np.array(out)


@CASES.case(args=[(MAT, f64(1.0)), (MAT, f64(50.0))], expect_ops={"while_loop"})
def helper_with_loop_return_called_per_row(m, t):
    return [_first_above(row, t) for row in m]


@CASES.case(args=[(f64(0.5),), (f64(-2.0),)])
def static_depth_recursion_polynomial(x):
    return _poly(3, x), _poly(0, x)


@CASES.case(args=[(VEC,), (-VEC,), (POS,)], expect_ops={"cond"})
def static_recursion_splits_array(x):
    return _tree_sum(x, 0, len(x))


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="closure 'current' over variable 'total'",
    at="for v in x:",
)
def closure_reads_variable_updated_by_loop(x):
    total = 0.0

    def current():
        return total

    snapshots = []
    for v in x:
        total += v
        snapshots.append(current())
    return snapshots


@CASES.case(args=[(f64(10.0),), (f64(0.1),)], expect_ops={"while_loop"})
def nested_def_with_tensor_while(x):
    def halvings(v):
        k = 0
        while v > 1.0:
            v = v / 2
            k += 1
        return k

    return halvings(x) + halvings(x * 4)


@CASES.case(args=[(VEC,), (EMPTY,)])
def map_with_lambda_over_tensor(x):
    return list(map(lambda v: v + 1 if v > 0 else v - 1, x))


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"python_order"})
def sorted_with_lambda_key_over_list(x):
    parts = [x[0], x[1], x[2]]
    return sorted(parts, key=lambda v: abs(v))


@CASES.case(args=[(i64(4),), (i64(0),)], expect_ops={"while_loop"})
def helper_returns_tuple_inside_tensor_loop(n):
    def divmod_step(a, b):
        return a // b, a % b

    q_total = 0
    r_total = 0
    for i in range(n):
        q, r = divmod_step(i + 7, 3)
        q_total += q
        r_total += r
    return q_total, r_total


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="function up in the if-branch but function down",
    at="f = up if v > 0 else down",
)
def function_chosen_by_tensor_branch_in_loop(x):
    def up(v):
        return v + 1

    def down(v):
        return v - 1

    acc = []
    for v in x:
        f = up if v > 0 else down
        acc.append(f(v))
    return acc


def _fact(n):
    return 1 if n <= 1 else n * _fact(n - 1)


@CASES.case(args=[(VEC, 4), (VEC, 0)])
def static_recursion_in_loop_bound(x, n):
    total = 0.0
    for k in range(_fact(n) % 5):
        total += x[k % len(x)]
    return total


def _depth_power(x, n):
    if n == 0:
        return x
    y = _depth_power(x, n - 1)
    if np.sum(y) > 10:
        return y * 0.5
    return y * 2


@CASES.case(args=[(VEC, 3), (POS, 5), (POS, 0)])
def static_recursion_with_tensor_early_return(x, n):
    return _depth_power(x, n)


@CASES.case(args=[(VEC,), (EMPTY,)])
def default_argument_captures_loop_value(x):
    fns = []
    for i in range(3):
        fns.append(lambda v, k=i: v * k)
    total = 0.0
    for v in x:
        for f in fns:
            total += f(v)
    return total


@CASES.case(args=[(f64(3.0),), (f64(-3.0),)], expect_ops={"cond"})
def helper_called_in_both_branches_with_different_kinds(x):
    def double(v):
        return v * 2

    if x > 0:
        y = double(x)
    else:
        y = double(1)
    return y


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def nested_helper_calls_helper(x):
    def inner(v):
        return v * v if v > 1 else v

    def outer(v):
        return inner(v) + inner(-v)

    acc = 0.0
    for v in x:
        acc += outer(v)
    return acc
