"""Conformance cases for values that exist on some paths only: a variable set on one side of an
``if`` on a tensor (or first set inside a loop over tensors) and read afterwards compiles, and
raises Python's ``UnboundLocalError`` exactly when the eager run does; None on one path and a
tensor on another is an optional value, and a Python number on one path and a NumPy scalar on
another comes back as on the path taken; values whose rank or structure differ by path make the
compiler fall back, naming the variable.
"""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("errors")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond"})
def set_only_in_if_branch(x):
    if x > 0:
        y = x * 2
    return y


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def set_only_in_else_branch(x):
    total = np.sum(x)
    if total <= 0:
        x = -x
    else:
        norm = x / total
    return norm


@CASES.case(args=[(f64(-3.0),), (f64(5.0),), (f64(20.0),)], expect_ops={"cond"})
def set_in_some_elif_branches(x):
    if x < 0:
        label = x * 0 - 1
    elif x > 10:
        label = x * 0 + 1
    return label


@CASES.case(args=[(VEC,), (VEC[:0],)], expect_ops={"while_loop"})
def first_set_in_tensor_for(x):
    for v in x:
        last = v * 2
    return last


@CASES.case(args=[(f64(10.0),), (f64(0.5),)], expect_ops={"while_loop"})
def first_set_in_tensor_while(x):
    while x > 1:
        x = x / 2
        half = x
    return half


@CASES.case(args=[(VEC,), (-VEC,)], expect="fallback", error="'y'", at="if np.sum(x) > 0:")
def rank_differs_between_branches(x):
    if np.sum(x) > 0:
        y = x
    else:
        y = x[0]
    return y


@CASES.case(args=[(VEC, np.int64(3))], expect="fallback", error="'state'", at="for _ in range(n):")
def tuple_grows_in_tensor_loop(x, n):
    state = (x,)
    for _ in range(n):
        state = state + (x,)
    return len(state)


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond"})
def set_only_in_if_branch_not_used_after(x):
    if x > 0:
        y = x * 2
        x = y + 1
    return x


@CASES.case(args=[(VEC, True)], forbid_ops={"cond"})
def set_only_in_static_branch_used_after(x, flag):
    if flag:
        y = x * 2
    return y


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def loop_temporary_not_used_after(x):
    total = 0.0 * x[0]
    for v in x:
        sq = v * v
        total = total + sq
    return total


@CASES.case(args=[(VEC, 0), (VEC, 2)], forbid_ops={"while_loop"})
def unbound_after_zero_trip_static_loop(x, n):
    for i in range(n):
        last = x * i
    return last


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def set_in_both_branches_differently(x):
    if x > 0:
        y = x
        z = x * 2
    else:
        z = -x
        y = z * 3
    return y + z


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop"})
def none_until_found(x):
    found = None
    for v in x:
        if v > 1:
            found = v
    return found


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def tested_against_none(x):
    found = None
    if x[0] > 0:
        found = x * 2
    if found is not None:
        return found.sum()
    return x[0]


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def python_int_or_numpy_int(x):
    count = 0
    if x[0] > 0:
        count = np.int32(4)
    return count
