"""Conformance cases: conditional expressions and ``and``/``or``/``not`` on tensors and on mixes
of tensors and Python values (short-circuit included: the right operand runs only when needed, and
the value of ``a or b`` is one of the operands), and variables bound on only one branch of a tensor
``if`` that are read afterwards."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("logic")

f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
POS = np.array([1.0, 2.0, 3.0])
EMPTY = np.zeros(0)


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(np.nan),)], expect_ops={"cond"})
def ternary_python_float_or_tensor(x):
    y = 0.0 if x < 0 else x
    return y


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def ternary_int_or_float_constant(x):
    return 1 if x > 0 else 2.5


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def ternary_array_or_scalar_broadcast(x):
    y = x * 2 if np.sum(x) > 0 else np.zeros_like(x)
    return y + 1


@CASES.case(
    args=[(f64(3.0), f64(1.0)), (f64(-3.0), f64(1.0)), (f64(0.0), f64(0.0))], expect_ops={"cond"}
)
def ternary_in_call_arguments(a, b):
    return np.maximum(a if a > b else b, 0.5), min(a, b) if a != b else None


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def ternary_inside_tensor_loop_accumulates_kinds(x):
    acc = 0
    for v in x:
        acc = acc + (1 if v > 0 else -1)
    return acc


@CASES.case(
    args=[(f64(5.0),), (f64(-5.0),), (f64(0.0),), (f64(0.5),)],
)
def ternary_chain_of_four(x):
    return "neg" if x < 0 else "zero" if x == 0 else "small" if x < 1 else "big"


@CASES.case(
    args=[(f64(1.0), f64(2.0)), (f64(0.0), f64(2.0)), (f64(np.nan), f64(0.0))], expect_ops={"cond"}
)
def and_of_two_tensors_returns_operand(a, b):
    return a and b


@CASES.case(
    args=[(f64(1.0), f64(2.0)), (f64(0.0), f64(2.0)), (f64(0.0), f64(0.0))], expect_ops={"cond"}
)
def or_of_two_tensors_returns_operand(a, b):
    return a or b


@CASES.case(args=[(f64(0.0),), (f64(3.0),)], expect_ops={"cond"})
def or_tensor_with_python_default(x):
    return x or 1.5


@CASES.case(args=[(i64(0),), (i64(7),)])
def and_python_int_then_tensor(n):
    return 5 and n


@CASES.case(args=[(VEC, i64(2)), (VEC, i64(9)), (VEC, i64(-1))], expect_ops={"cond"})
def and_guards_out_of_range_index(x, i):
    if 0 <= i < len(x) and x[i] > 0:
        return x[i]
    return f64(-1.0)


@CASES.case(args=[(VEC, i64(0)), (VEC, i64(1))], expect_ops={"cond"})
def or_skips_division_by_zero(x, d):
    if d == 0 or x[0] / d > 0.1:
        return x * 2
    return x


@CASES.case(args=[(f64(1.0), True), (f64(-1.0), True), (f64(1.0), False)])
def and_static_flag_guards_tensor_test(x, enabled):
    if enabled and x > 0:
        x = x * 10
    return x


@CASES.case(args=[(f64(1.0), False), (f64(-1.0), False), (f64(-1.0), True)])
def or_static_flag_short_circuits_tensor(x, force):
    if force or x > 0:
        x = x + 100
    return x


@CASES.case(args=[(VEC,), (POS,), (EMPTY,)])
def not_of_array_size_check(x):
    if not x.size:
        return 0.0
    return np.mean(x)


@CASES.case(
    args=[(f64(2.0), f64(3.0)), (f64(-2.0), f64(3.0)), (f64(2.0), f64(-3.0))], expect_ops={"cond"}
)
def nested_and_or_mix(a, b):
    if (a > 0 and b > 0) or (a < 0 and not b < 0):
        return a * b
    return a - b


@CASES.case(args=[(f64(2.0),), (f64(0.0),), (f64(-1.0),)], expect_ops={"cond"})
def and_chain_value_in_assignment(x):
    flag = x > 0 and x < 5 and x != 3
    return flag


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="append\\(\\) changes a list",
    at="calls.append(v)",
)
def or_with_side_effect_on_right(x):
    calls = []

    def check(v):
        calls.append(v)
        return v > 0

    ok = x[0] > 0 or check(x[1])
    return ok, len(calls)


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def assigned_only_on_taken_branch(x):
    if x > 0:
        positive_part = x
    if x > 0:
        return positive_part * 2
    return x


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def read_after_one_sided_binding_raises(x):
    if x > 0:
        scale = f64(3.0)
    return x * scale


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def one_sided_binding_then_overwritten(x):
    if np.sum(x) > 0:
        tmp = x * 2
        x = tmp
    tmp = x + 1
    return tmp


@CASES.case(
    args=[(f64(2.0),), (f64(-2.0),)],
    expect="fallback",
    error="variable 'items' is a list of 2",
    at="if x > 0:",
)
def one_sided_list_binding(x):
    if x > 0:
        items = [x, x * 2]
    else:
        items = [x]
    return len(items), items[-1]


@CASES.case(args=[(f64(2.0),), (f64(-2.0),), (f64(20.0),)], expect_ops={"cond"})
def different_variables_per_elif_arm(x):
    a = b = c = None
    if x < 0:
        a = x
    elif x < 10:
        b = x * 2
    else:
        c = x * 3
    return a, b, c


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def one_sided_binding_used_under_same_condition_twice(x):
    flag = np.sum(x) > 0
    if flag:
        scale = np.max(x)
    result = x
    if flag:
        result = x / scale
    return result


@CASES.case(
    args=[(f64(3.0),), (f64(-3.0),)],
    expect="fallback",
    error="function <lambda> in the if-branch",
    at="f = (lambda v: v * v) if x > 0 else (lambda v: -v)",
)
def ternary_of_lambdas(x):
    f = (lambda v: v * v) if x > 0 else (lambda v: -v)
    return f(x)


@CASES.case(args=[(VEC,), (POS,), (np.array([0.0, 0.0]),)])
def any_all_short_circuit_builtins(x):
    return any(v < 0 for v in x), all(v != 0 for v in x)


@CASES.case(
    args=[(f64(4.0), f64(2.0)), (f64(4.0), f64(0.0)), (f64(0.0), f64(0.0))], expect_ops={"cond"}
)
def conditional_division_guard(a, b):
    return a / b if b != 0 else (np.inf if a > 0 else 0.0)


@CASES.case(args=[(i64(3),), (i64(-3),), (i64(0),)], expect_ops={"cond"})
def ternary_on_integer_tensor_returns_python_or_numpy_int(n):
    return n * 2 if n > 0 else 0


@CASES.case(args=[(np.float32(2.0),), (np.float32(-2.0),)], expect_ops={"cond"})
def ternary_keeps_float32(x):
    y = x * 0.5 if x > 0 else x * 2
    return y, str(y.dtype)


@CASES.case(args=[(np.float32(2.0),), (np.float32(-2.0),)], expect_ops={"cond"})
def ternary_float32_or_python_float(x):
    return x if x > 0 else 0.5


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def ternary_none_then_is_none(x):
    y = x if x > 0 else None
    if y is None:
        return -1.0
    return y * 2


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"cond"})
def or_of_two_arrays_any(x):
    return (x < 0).any() or (x > 3).any()


@CASES.case(
    args=[(f64(2.0), f64(0.0)), (f64(0.0), f64(3.0)), (f64(0.0), f64(0.0))], expect_ops={"cond"}
)
def or_chain_three_values(a, b):
    return a or b or 7


@CASES.case(
    args=[(VEC,), (np.zeros(3),)],
    expect="fallback",
    error="its dtype would depend on the path taken",
    at="r = x.any() and x",
)
def and_returns_array(x):
    r = x.any() and x
    return r


@CASES.case(
    args=[(VEC,), (POS,)],
    expect="fallback",
    error="list_push of a number that is a Python number on some paths",
    at="out.append(1 if v > 2 else (0.5 if v > 0 else v))",
)
def nested_ternary_in_loop_with_int_float(x):
    out = []
    for v in x:
        out.append(1 if v > 2 else (0.5 if v > 0 else v))
    return out


@CASES.case(args=[(VEC,), (POS,)], expect_ops={"while_loop"})
def max_builtin_over_loop_mixed(x):
    best = 0
    for v in x:
        best = max(best, v)
    return best
