"""Conformance cases: ``assert`` and ``raise`` inside tensor branches and loops (raised at run time
with eager's type and message, and only on the paths that reach them), and ``print`` inside nested
tensor loops and branches (once per iteration, with run-time values and Python-vs-NumPy kinds)."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("checks")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
MAT = np.array([[0.1, 0.2, 0.3], [0.4, 5.0, 0.6], [7.0, 0.8, 9.0]])
EMPTY = np.zeros(0)


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def assert_in_tensor_loop_with_index(x):
    for i, v in enumerate(x):
        assert v > -1.0, f"element {i} is {v}"
    return x * 2


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(0.0),)], expect_ops={"cond"})
def raise_value_error_in_else(x):
    if x > 0:
        y = np.log(x)
    else:
        raise ValueError(f"log of non-positive {x}")
    return y


@CASES.case(args=[(VEC,), (POS,)])
def raise_in_nested_loop_names_position(m_row):
    m = np.outer(m_row, m_row)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] < 0:
                raise ArithmeticError("negative product at", i, j)
    return m


@CASES.case(args=[(f64(3.0),), (f64(1e9),)], expect_ops={"while_loop"})
def raise_when_while_exceeds_budget(x):
    steps = 0
    while x > 1.0:
        x = x / 2
        steps += 1
        if steps > 10:
            raise RuntimeError(f"did not converge after {steps} steps")
    return x


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"cond"})
def assert_without_message_in_branch(x):
    if x[0] > 0:
        assert np.all(x > 0)
    return x[0]


@CASES.case(args=[(f64(0.0),), (f64(4.0),)], expect_ops={"cond"})
def raise_zero_division_like_python(x):
    if x == 0:
        raise ZeroDivisionError("x must be nonzero")
    return 1.0 / x


@CASES.case(args=[(VEC, i64(2)), (VEC, i64(7))], expect_ops={"cond"})
def raise_index_error_with_values(x, i):
    if i >= len(x):
        raise IndexError(f"index {i} out of range for {len(x)} elements")
    return x[i]


@CASES.case(args=[(MAT,), (np.abs(MAT) + 1,)], expect_ops={"while_loop", "print"})
def print_in_nested_tensor_loops(m):
    count = 0
    for i, row in enumerate(m):
        for j, v in enumerate(row):
            if v > 1.0:
                print("big", i, j, v)
                count += 1
    return count


@CASES.case(args=[(f64(40.0),), (f64(0.5),)], expect_ops={"while_loop", "print"})
def print_python_and_numpy_kinds_each_trip(x):
    k = 0
    ratio = 1.0
    while x > 1.0:
        x = x / 3
        ratio = ratio * 0.5
        k += 1
        print(k, ratio, x, type(k).__name__)
    return x


@CASES.case(args=[(VEC,), (EMPTY,)])
def print_before_break_and_after_continue(x):
    for v in x:
        print("see", v)
        if v < 0:
            continue
        if v > 3:
            print("stop at", v)
            break
        print("keep", v)
    print("done")
    return x


@CASES.case(args=[(POS,), (VEC,)], expect_ops={"while_loop", "print"})
def print_in_for_else(x):
    for v in x:
        if v < 0:
            print("negative found", v)
            break
    else:
        print("all non-negative", len(x))
    return x.sum()


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"cond", "print"})
def print_array_and_formatted_scalar(x):
    total = np.sum(x)
    if total > 5:
        print(f"total={total:.3f}", x)
    else:
        print("small total", repr(total))
    return total


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def assert_after_branch_binds_flag(x):
    ok = False
    if x > 0:
        ok = True
    assert ok, "x must be positive"
    return x


@CASES.case(args=[(i64(5),), (i64(0),), (i64(12),)], expect_ops={"while_loop"})
def assert_loop_invariant_each_trip(n):
    total = 0
    for i in range(n):
        total += i
        assert total < 40, total
    return total


@CASES.case(args=[(VEC,), (POS,)])
def raise_type_error_from_helper_in_loop(x):
    def check(v):
        if v < 0:
            raise TypeError("negative values are not allowed here")
        return v

    return [check(v) for v in x]


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond", "print"})
def print_then_raise_in_same_branch(x):
    if x < 0:
        print("about to fail with", x)
        raise ValueError("negative")
    print("fine", x)
    return x


@CASES.case(args=[(VEC, i64(3)), (VEC, i64(0))], expect_ops={"while_loop", "print"})
def print_sep_end_inside_tensor_range(x, n):
    for i in range(n):
        print(i, x[i], sep="|", end=" ")
    print()
    return n


@CASES.case(args=[(f64(10.0),), (f64(0.1),)], expect_ops={"while_loop"})
def assert_in_while_formatted(x):
    while x > 1:
        x = x / 3
        assert x > 0.5, f"x fell to {x:.3f}"
    return x


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop", "print"})
def print_list_inside_loop(x):
    acc = []
    for v in x:
        acc.append(v)
        if v > 1.5:
            print("acc so far", len(acc))
    return len(acc)
