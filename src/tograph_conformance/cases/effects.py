"""Conformance cases: ``print`` (prints at every call, with run-time values, only on the branch
taken, once per loop iteration) and ``assert`` (raises AssertionError at run time when false, and
only then)."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("effects")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])


@CASES.case(args=[(f64(1.5),), (f64(-2.0),)], expect_ops={"print"})
def print_tensor_value(x):
    y = x * 2
    print("y =", y)
    return y


@CASES.case(args=[(f64(1.0),), (f64(-1.0),)], expect_ops={"cond", "print"})
def print_only_on_taken_branch(x):
    if x > 0:
        print("positive", x)
        x = x - 1
    else:
        print("not positive", x)
        x = x + 1
    return x


@CASES.case(args=[(VEC,), (POS[:1],)], expect_ops={"while_loop", "print"})
def print_each_iteration(x):
    total = 0.0 * x[0]
    for i, v in enumerate(x):
        total = total + v
        print(i, v, total)
    return total


@CASES.case(args=[(VEC,), (POS,)])
def print_static_text_every_call(x):
    print("normalizing")
    return x / np.max(np.abs(x))


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def print_in_static_loop(x):
    for k in range(3):
        x = x * 0.5
        print("step", k, x[0])
    return x


@CASES.case(args=[(f64(1.25), np.int64(3))])
def print_sep_and_end(a, b):
    print(a, b, a * b, sep=", ", end=";\n")
    return a * b


@CASES.case(args=[(f64(0.25),)])
def print_f_string(x):
    print(f"x = {x}, x^2 = {x * x}")
    return x


@CASES.case(args=[(f64(8.0),), (f64(0.5),)], expect_ops={"while_loop", "print"})
def print_in_data_dependent_while(x):
    k = 0
    while x > 1:
        x = x / 2
        k += 1
        print("iteration", k)
    return x


@CASES.case(args=[(POS,), (VEC,), (POS,)], expect_ops={"assert"})
def assert_positive_with_message(x):
    assert np.all(x > 0), "x must be positive"
    return np.log(x)


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"assert"})
def assert_without_message(x):
    assert x >= 0
    return np.sqrt(x)


@CASES.case(args=[(VEC, 2), (VEC, 0)], forbid_ops={"assert"})
def assert_static_condition(x, n):
    assert n > 0, "n must be positive"
    return x * n


@CASES.case(args=[(POS,), (np.array([1.0, 200.0, 3.0]),)], expect_ops={"while_loop", "assert"})
def assert_inside_loop(x):
    s = 0.0 * x[0]
    for v in x:
        assert v < 100, "value too large"
        s = s + v
    return s


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(-20.0),)], expect_ops={"cond"})
def assert_only_on_taken_branch(x):
    if x > 0:
        y = x
    else:
        assert x > -10, "x too negative"
        y = -x
    return y


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def print_weak_int_counter(x):
    count = 0
    for v in x:
        if v > 0:
            count += 1
    print("positives:", count, "ratio:", count / x.shape[0])
    return count


@CASES.case(args=[(f64(3.0),), (f64(-3.0),)])
def assert_message_with_value(x):
    assert x > 0, f"bad value {x}"
    return x


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(0.0),)], expect_ops={"cond"})
def assert_in_each_branch(x):
    if x > 0:
        assert x < 10, "too large"
        y = np.sqrt(x)
    else:
        assert x < 0, "zero not allowed"
        y = -x
    return y


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def raise_with_index_inside_loop(x):
    for i, v in enumerate(x):
        if v < 0:
            raise ValueError(f"negative at index {i}")
    return x.sum()


@CASES.case(args=[(np.int64(3),), (np.int64(0),), (np.int32(2),)])
def print_counter_and_float_in_while(n):
    i = 0
    while i < n:
        print("iter", i, i * 0.5)
        i += 1
    print("done", i)
    return i
