"""Conformance cases in the style of Paddle's test_logical and test_ifelse and AutoGraph's
logical_expression and cond_basic tests: ``while`` and ``if`` on compound tensor conditions
(``and``/``or``/``not``, chained comparisons), conditions built from ``.any()``, ``.all()``,
``np.isclose`` and ``np.allclose``, ``x.shape[0]`` and ``len(x)`` mixed with tensor tests, and
``print`` inside the branches and loops they decide."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("tensor_conditions")

f32 = np.float32
f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.0, 2.0, 3.5])
POS = np.array([0.25, 1.0, 2.0])
MAT = np.array([[1.0, -2.0], [0.5, 3.0]])
F32 = np.array([1.5, -2.5, 4.0], dtype=np.float32)


@CASES.case(args=[(f64(1.0), f64(3.0)), (f64(5.0), f64(1.0)), (f64(-1.0), f64(-1.0))])
def while_and_of_two_tensor_tests(x, y):
    n = 0
    while x < 4.0 and y > 0.0:
        x = x + 1.0
        y = y - 0.5
        n += 1
    return x, y, n


@CASES.case(args=[(f64(1.0), f64(3.0)), (f64(9.0), f64(1.0)), (f64(-3.0), f64(-1.0))])
def while_or_of_two_tensor_tests(x, y):
    n = 0
    while (x < 4.0 or y > 2.0) and n < 10:
        x = x + 1.5
        y = y - 1.0
        n += 1
    return x, y, n


@CASES.case(args=[(f64(0.5),), (f64(3.0),), (f64(-2.0),)])
def while_not_of_tensor_test(x):
    k = 0
    while not x > 2.0:
        x = x + 0.75
        k += 1
        if k > 20:
            break
    return x, k


@CASES.case(args=[(f64(0.5),), (f64(1.5),), (f64(4.0),)])
def while_chained_comparison(x):
    n = 0
    while 0.0 < x < 3.0:
        x = x * 1.7
        n += 1
    return x, n


@CASES.case(args=[(f64(0.5), f64(2.0)), (f64(2.5), f64(1.0)), (f64(1.0), f64(1.0))])
def if_chained_three_way(a, b):
    if a < b <= 2.0:
        return a + b
    elif b < a < 3.0:
        return a - b
    return a * b


@CASES.case(args=[(VEC,), (POS,), (F32,)])
def if_any_negative_then_shift(x):
    if (x < 0).any():
        x = x - x.min()
    return x


@CASES.case(args=[(VEC,), (POS,), (F32,)])
def if_all_positive_then_log(x):
    if np.all(x > 0):
        return np.log(x)
    return x


@CASES.case(args=[(VEC,), (POS,)])
def while_any_above_halves(x):
    steps = 0
    while np.any(x > 1.0):
        x = np.where(x > 1.0, x / 2, x)
        steps += 1
    return x, steps


@CASES.case(args=[(f64(2.0),), (f64(10.0),), (f64(0.5),)])
def while_not_isclose_newton(a):
    x = a
    n = 0
    while not np.isclose(x * x, a) and n < 50:
        x = 0.5 * (x + a / x)
        n += 1
    return x, n


@CASES.case(args=[(POS,), (POS * 0.4,)])
def while_not_allclose_fixed_point(v):
    x = np.ones_like(v)
    n = 0
    while not np.allclose(x, np.cos(x) * v, atol=1e-6) and n < 200:
        x = np.cos(x) * v
        n += 1
    return x, n


@CASES.case(args=[(VEC,), (POS,), (F32,)])
def isclose_elements_counted(x):
    count = 0
    for v in x:
        if np.isclose(v, 2.0) or np.isclose(v, 1.0):
            count += 1
    return count


@CASES.case(args=[(VEC,), (POS,), (VEC[:1],)])
def shape_and_value_mixed_condition(x):
    if x.shape[0] > 2 and x[2] > 1.0:
        return x[2]
    if len(x) == 1 or x.sum() < 0:
        return x[0]
    return x.mean()


@CASES.case(args=[(VEC,), (POS,), (VEC[:0],)])
def len_guards_index_in_while(x):
    i = 0
    while i < len(x) and x[i] < 1.0:
        i += 1
    return i


@CASES.case(args=[(VEC,), (POS,)])
def shape_zero_bound_with_not_any(x):
    i = 0
    while i < x.shape[0] and not (x[: i + 1] > 1.5).any():
        i += 1
    return i


@CASES.case(args=[(f64(1.0), True), (f64(-1.0), True), (f64(1.0), False)])
def static_flag_and_tensor_test(x, enabled):
    if enabled and x > 0:
        x = x * 3
    if not enabled or x < 0:
        x = x - 1
    return x


@CASES.case(args=[(MAT,), (-MAT,), (np.eye(2),)])
def all_and_any_per_row(m):
    good = 0
    for row in m:
        if row.all() and not (row < 0).any():
            good += 1
        elif (row == 0).any():
            good -= 1
    return good


@CASES.case(args=[(VEC,), (F32,)])
def comparison_result_kept_in_variable(x):
    big = x.max() > 3.0
    small = x.min() < -0.5
    if big and small:
        return 2
    if big or small:
        return 1
    return 0


@CASES.case(args=[(f64(3.0), f64(4.0)), (f64(3.0), f64(3.0)), (f64(np.nan), f64(1.0))])
def not_equal_and_nan_in_condition(a, b):
    if a != b and not np.isnan(a):
        r = a - b
    else:
        r = 0.0
    return r


@CASES.case(args=[(VEC, f64(1.0)), (POS, f64(0.1))])
def print_in_each_elif_arm(x, t):
    for v in x:
        if v > t:
            print("above", v)
        elif v < -t:
            print("below", v)
        else:
            print("near", v)


@CASES.case(args=[(f64(1.0),), (f64(50.0),)])
def print_in_while_on_compound_condition(x):
    n = 0
    while x < 20.0 and n < 6:
        print("step", n, "x =", x)
        x = x * 2.5
        n += 1
    print("stopped after", n)
    return x


@CASES.case(args=[(VEC,), (POS,)])
def print_formatted_in_branch(x):
    s = x.sum()
    if s > 3.0:
        print(f"large sum {s:.3f}")
    else:
        print(f"small sum {s:.3f}, {len(x)} items")
    return s


@CASES.case(args=[(f64(0.3),), (f64(5.0),), (f64(-1.0),)])
def bool_of_tensor_in_while_test(x):
    n = 0
    while bool(x < 2.0) and n < 5:
        x = x + 0.5
        n += 1
    return x, n


@CASES.case(args=[(VEC,), (POS,)])
def count_nonzero_in_condition(x):
    if np.count_nonzero(x > 0) >= len(x) - 1:
        return x.clip(0)
    return -x


@CASES.case(args=[(VEC, POS[:2].copy()), (POS, POS)])
def condition_on_two_argument_shapes(a, b):
    if a.shape == b.shape and (a == b).all():
        return 0.0
    if a.shape[0] > b.shape[0]:
        return a[: b.shape[0]] @ b
    return a @ b[: a.shape[0]]


@CASES.case(args=[(f64(1.0), f64(2.0)), (f64(2.0), f64(1.0))])
def conditional_expression_with_compound_test(a, b):
    return a if a > 0 and a > b else (b if b > 0 else 0.0)


@CASES.case(args=[(VEC,), (POS,)])
def in_range_test_per_element(x):
    inside = 0
    for v in x:
        if -0.5 <= v < 2.0:
            inside += 1
    return inside


@CASES.case(args=[(f64(2.0),), (f64(7.0),)])
def while_with_else_on_compound_condition(x):
    n = 0
    while x > 1.0 and n < 3:
        x = x / 2
        n += 1
    else:
        n = -n
    return x, n
