"""Conformance cases: ``and`` / ``or`` / ``not`` with short-circuit evaluation (the right operand
must not run when the left decides, e.g. an index that would be out of range), and chained
comparisons, on tensors and static values."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("boolean")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])


@CASES.case(
    args=[(VEC, np.int64(2)), (VEC, np.int64(1)), (VEC, np.int64(4)), (VEC, np.int64(9))],
    expect_ops={"cond"},
)
def and_guards_index(x, i):
    if i < x.shape[0] and x[i] > 0:
        out = x[i]
    else:
        out = f64(-1.0)
    return out


@CASES.case(
    args=[(np.array([3, 1, 0, 5]),), (np.array([4, 2, 7]),), (np.array([0, 1]),)],
    expect_ops={"while_loop"},
)
def and_guards_index_in_while(x):
    i = 0
    while i < x.shape[0] and x[i] != 0:
        i += 1
    return i


@CASES.case(args=[(VEC,), (-VEC,), (np.zeros(0),)])
def or_static_then_tensor(x):
    if x.shape[0] == 0 or x[0] < 0:
        flag = True
    else:
        flag = False
    return flag


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond"})
def not_tensor(x):
    if not x > 0:
        x = x * 0.5
    return x


@CASES.case(args=[(VEC, True), (VEC, False)], forbid_ops={"cond"})
def not_static(x, keep):
    if not keep:
        x = np.zeros_like(x)
    return x


@CASES.case(args=[(f64(0.5),), (f64(1.5),), (f64(-0.5),)], expect_ops={"cond"})
def chained_comparison_tensor(x):
    if 0.0 < x < 1.0:
        y = x * 100
    else:
        y = x
    return y


@CASES.case(
    args=[(f64(0.0), f64(-1.0), f64(1.0)), (f64(5.0), f64(-1.0), f64(1.0))],
    expect_ops={"while_loop"},
)
def chained_comparison_while(x, lo, hi):
    steps = 0
    while lo <= x <= hi and steps < 10:
        x = x + 0.3
        steps += 1
    return x, steps


@CASES.case(args=[(VEC, 3), (VEC, 30), (VEC, 0)], forbid_ops={"cond"})
def chained_comparison_static(x, n):
    if 0 < n < 10:
        x = x * n
    return x


@CASES.case(args=[(VEC, None), (VEC, 0.0), (VEC, 2.0)], forbid_ops={"cond"})
def or_default_value(x, scale):
    scale = scale or 1.0
    return x * scale


@CASES.case(args=[(f64(2.0), True), (f64(-2.0), True), (f64(2.0), False)])
def static_and_tensor(x, enabled):
    if enabled and x > 0:
        x = np.sqrt(x)
    return x


@CASES.case(args=[(VEC,), (np.abs(VEC),), (VEC - 10,)], expect_ops={"cond"})
def all_or_any(x):
    if np.all(x > 0) or np.any(x < -5):
        x = x * 0.0
    return x


@CASES.case(args=[(f64(0.5),), (f64(1.5),)])
def and_value_is_bool_tensor(x):
    inside = x > 0 and x < 1
    return inside


@CASES.case(
    args=[(np.bool_(False), f64(5.0)), (np.bool_(True), f64(5.0))], expect_ops={"while_loop"}
)
def while_not_done(done, x):
    while not done:
        x = x / 2
        done = x < 1
    return x


@CASES.case(
    args=[
        (f64(3.0), f64(2.0), f64(1.0)),
        (f64(1.0), f64(2.0), f64(3.0)),
        (f64(2.0), f64(3.0), f64(1.0)),
    ],
    expect_ops={"cond"},
)
def compound_condition(a, b, c):
    if (a > b and b > c) or not (a > c):
        out = a + b + c
    else:
        out = a * b * c
    return out


@CASES.case(
    args=[(np.array([1, 2, 3]), np.int64(-1)), (np.array([1, 2, 3]), np.int64(1))],
    expect_ops={"cond"},
)
def and_guards_negative_index(x, j):
    found = j >= 0 and x[j] > 1
    return found


@CASES.case(args=[(f64(0.0), f64(4.0)), (f64(2.0), f64(4.0))], expect_ops={"cond"})
def and_guards_division(d, n):
    if d != 0 and n / d > 1.5:
        r = n / d
    else:
        r = n
    return r


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)])
def or_returns_left_value(x):
    y = (x > 0) or (x < -10)
    return y
