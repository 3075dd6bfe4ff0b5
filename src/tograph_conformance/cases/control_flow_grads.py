"""Conformance cases with gradients: differentiable functions whose control flow depends on
tensors (branches, ``while`` loops with data-dependent trip counts, ``break``, ``continue`` and
early ``return`` in loops, loops over rows, nested helpers and static recursion). Each must match
its eager run, and ``tograph.grad`` of it must equal central finite differences (``grad=``)."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("control_flow_grads")

f64 = np.float64
VEC = np.array([0.5, -1.25, 2.0, 0.75])
POS = np.array([0.3, 1.1, 2.2])
MAT = np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.7]])


@CASES.case(args=[(f64(1.3),), (f64(-0.8),)], grad=(0,))
def grad_branch_on_sign(x):
    if x > 0:
        y = x * x * x
    else:
        y = np.sin(x) * 2.0
    return y


@CASES.case(args=[(f64(0.7),), (f64(2.5),), (f64(-3.0),)], grad=(0,))
def grad_elif_piecewise(x):
    if x < -1.0:
        return -2.0 * x
    elif x < 1.0:
        return x * x + 1.0
    else:
        return np.exp(x - 1.0) + 1.0


@CASES.case(args=[(f64(0.4),), (f64(1.9),)], grad=(0,))
def grad_while_doubling_until_large(x):
    y = x
    while y < 10.0:
        y = y * 2.0 + np.sin(y)
    return y


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_for_rows_with_continue(x):
    total = 0.0
    for v in x:
        if v < 0:
            continue
        total = total + v * v
    return total


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_for_with_break_on_running_sum(x):
    s = 0.0
    for v in x:
        s = s + np.tanh(v)
        if s > 1.5:
            break
    return s * s


@CASES.case(args=[(VEC,), (POS * 3.0,)], grad=(0,))
def grad_early_return_in_loop(x):
    acc = 0.0
    for v in x:
        acc = acc + v * v
        if acc > 2.0:
            return acc * 0.5
    return acc


@CASES.case(args=[(MAT,)], grad=(0,))
def grad_nested_loops_over_rows(m):
    total = 0.0
    for row in m:
        for v in row:
            if v > 0:
                total = total + v * v
            else:
                total = total - v
    return total


@CASES.case(args=[(MAT, f64(0.5)), (MAT, f64(-0.1))], grad=(0, 1))
def grad_row_norms_above_threshold(m, t):
    s = 0.0
    for row in m:
        n = np.sqrt(np.sum(row * row))
        if n > 1.0:
            s = s + n * t
        else:
            s = s + t * t
    return s


@CASES.case(args=[(POS, f64(0.1)), (VEC, f64(0.05))], grad=(0, 1))
def grad_gradient_descent_steps(x, lr):
    for _ in range(4):
        g = 2.0 * x
        x = x - lr * g
        if np.sum(x * x) < 0.5:
            break
    return np.sum(x * x)


@CASES.case(args=[(f64(2.0),), (f64(9.0),)], grad=(0,))
def grad_newton_sqrt_fixed_iterations(a):
    x = a
    for _ in range(6):
        x = 0.5 * (x + a / x)
    return x


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_nested_function_in_loop(x):
    def soft(v):
        if v > 1.0:
            return v - 0.5
        if v < -1.0:
            return v + 0.5
        return 0.5 * v * v

    s = 0.0
    for v in x:
        s = s + soft(v)
    return s


def _poly_depth(x, n):
    if n == 0:
        return x
    inner = _poly_depth(x, n - 1)
    if inner > 1.0:
        return inner * 0.5 + x
    return inner * inner + x


@CASES.case(args=[(f64(0.6), 3), (f64(1.4), 2)], grad=(0,))
def grad_static_recursion_with_branches(x, n):
    return _poly_depth(x, n)


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_while_index_with_compound_test(x):
    i = 0
    s = 0.0
    while i < x.shape[0] and s < 3.0:
        s = s + x[i] * x[i]
        i += 1
    return s


@CASES.case(args=[(VEC, POS.repeat(2)[:4]), (POS, POS[::-1] + 0.05)], grad=(0, 1))
def grad_zip_pairs_with_branch(a, b):
    s = 0.0
    for x, y in zip(a, b):
        if x > y:
            s = s + x * y
        else:
            s = s + (x - y) ** 2
    return s


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_enumerate_weights(x):
    s = 0.0
    for i, v in enumerate(x):
        if i % 2 == 0:
            s = s + v * (i + 1)
        else:
            s = s - np.cos(v)
    return s


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_reversed_horner(c):
    acc = 0.0
    for v in reversed(c):
        acc = acc * 0.7 + v
    return acc * acc


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_any_condition_selects_formula(x):
    if (x < 0).any():
        y = np.sum(np.abs(x) ** 1.5)
    else:
        y = np.sum(np.log1p(x))
    return y


@CASES.case(args=[(f64(0.2),), (f64(3.0),)], grad=(0,))
def grad_while_else_with_break(x):
    n = 0
    while n < 5:
        x = x * 1.5
        n += 1
        if x > 2.0:
            break
    else:
        x = x + 100.0
    return x


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_running_max_through_branches(x):
    best = x[0]
    for v in x:
        if v > best:
            best = v
    return best * best


@CASES.case(args=[(MAT,)], grad=(0,))
def grad_matrix_power_until_small(m):
    a = m @ m.T
    k = 0
    while np.sum(np.abs(a)) > 0.5 and k < 5:
        a = 0.5 * (a @ a) / np.sum(np.abs(a))
        k += 1
    return np.sum(a)


@CASES.case(args=[(VEC,), (POS,)], grad=(0,))
def grad_list_of_parts_summed_in_loop(x):
    parts = [x[:2], x[2:], x * 0.5]
    total = 0.0
    for p in parts:
        if p.sum() > 0:
            total = total + np.sum(p * p)
    return total


@CASES.case(args=[(f64(0.5), f64(1.5)), (f64(2.0), f64(0.25))], grad=(0, 1))
def grad_two_scalars_nested_while(a, b):
    outer = 0
    while outer < 2:
        inner = 0
        while a < b * 3.0 and inner < 3:
            a = a + 0.5 * b
            inner += 1
        b = b * 1.1
        outer += 1
    return a * b
