"""Conformance cases in the style of AutoGraph's loop_created_variables, loop_with_variable_type
and loop_scoping tests and Paddle's test_ifelse: variables first bound inside a loop or on one
branch only, ``None``-initialised results, loops that change a variable's dtype or shape, if/elif
chains, nested functions called in loops, and recursion whose depth is static."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("loop_state")

f32 = np.float32
f64 = np.float64
i64 = np.int64
VEC = np.array([0.5, -1.0, 2.0, 3.5])
MAT = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, -1.0]])
F32 = np.array([1.5, -2.5, 4.0], dtype=np.float32)
INT = np.array([3, -1, 4, 1], dtype=np.int64)


@CASES.case(args=[(i64(1),), (i64(3),), (i64(0),)])
def created_in_while_static_shape(n):
    i = 0
    while i < n:
        v = np.zeros((1, 2)) + i
        i += 1
    return v


@CASES.case(args=[(i64(1),), (i64(4),), (i64(0),)])
def created_in_while_shape_from_counter(n):
    i = 0
    while i < n:
        v = np.arange(i + 1)
        i += 1
    return v


@CASES.case(args=[(2,), (0,)])
def created_in_static_while_dict(n):
    i = 0
    while i < n:
        v = {"a": np.zeros(2) + i, "b": np.ones(3) * i}
        i += 1
    return v["a"], v["b"]


@CASES.case(args=[(VEC,), (F32,)])
def created_in_tensor_for_used_after(x):
    for v in x:
        last = v * 2
    return last


@CASES.case(args=[(VEC,), (INT,)])
def counter_turns_float_by_division(x):
    total = 0
    for v in x:
        if v > 0:
            total = total + v / 2
    return total


@CASES.case(args=[(i64(3),), (i64(0),)])
def int_accumulator_becomes_float_in_while(n):
    acc = 0
    k = 0
    while k < n:
        acc = acc + 0.5
        k += 1
    return acc, k


@CASES.case(args=[(F32,), (VEC,)])
def float32_state_meets_python_floats(x):
    s = x[0]
    for v in x:
        s = s * 0.5 + v
        if s > 1.0:
            s = s - 1.0
    return s


@CASES.case(args=[(VEC,), (F32,)])
def state_grows_shape_by_concatenation(x):
    out = np.zeros(0, dtype=x.dtype)
    for v in x:
        if v > 0:
            out = np.concatenate([out, [v]])
    return out


@CASES.case(args=[(MAT,)])
def state_reshaped_per_static_trip(m):
    y = m
    for k in range(2):
        y = y.reshape(-1)
        if y.sum() > 0:
            y = y * 2
        y = y.reshape(m.shape)
    return y


@CASES.case(args=[(f64(2.0),), (f64(-1.0),), (f64(0.0),)])
def elif_chain_defines_on_each_arm(x):
    if x > 1:
        y = x * 2
    elif x < 0:
        y = -x
    else:
        y = x + 10
    return y


@CASES.case(args=[(f64(2.0),), (f64(-1.0),), (f64(-9.0),)])
def elif_chain_defines_on_one_arm_used_after(x):
    if x > 1:
        z = x * 2
    elif x < -5:
        pass
    return z


@CASES.case(args=[(f64(2.0),), (f64(-1.0),), (f64(0.5),)])
def one_arm_temporary_used_only_there(x):
    if x > 1:
        t = x * x
        x = t - 1
    elif x < 0:
        u = -x
        x = u + 1
    return x


@CASES.case(args=[(VEC, f64(1.0)), (VEC, f64(10.0)), (VEC[:0], f64(0.0))])
def none_until_first_hit(x, t):
    hit = None
    for v in x:
        if hit is None and v > t:
            hit = v
    return hit


@CASES.case(args=[(VEC,), (F32,)])
def none_default_then_filled_in_static_loop(x):
    best = None
    for i in range(x.shape[0]):
        if best is None:
            best = x[i]
        else:
            best = np.maximum(best, x[i])
    return best


@CASES.case(args=[(VEC, None), (VEC, f64(2.0))])
def none_argument_picks_default(x, scale):
    if scale is None:
        scale = 1.0
    out = 0.0
    for v in x:
        if v * scale > 1:
            out += v
    return out


@CASES.case(args=[(VEC,), (-VEC,)])
def nested_function_called_per_element(x):
    def clip(v, lo, hi):
        if v < lo:
            return lo
        if v > hi:
            return hi
        return v

    total = 0.0
    for v in x:
        total += clip(v, -0.5, 2.0)
    return total


@CASES.case(args=[(VEC, f64(2.0)), (F32, f32(0.5))])
def nested_function_with_loop_called_in_while(x, scale):
    def scaled_norm(y):
        s = 0.0
        for v in y:
            s += v * v
        return np.sqrt(s) * scale

    k = 0
    while scaled_norm(x) > 1.0 and k < 5:
        x = x * 0.5
        k += 1
    return x, k


@CASES.case(
    args=[(MAT,)],
    expect="fallback",
    error="closure 'add_if_positive' over variable 'acc'",
    at="for row in m:",
)
def nested_function_closing_over_loop_state(m):
    acc = np.zeros(m.shape[1])

    def add_if_positive(row):
        if row.sum() > 0:
            return acc + row
        return acc

    for row in m:
        acc = add_if_positive(row)
    return acc


def _tree_norm(x, depth):
    if depth == 0:
        return np.abs(x).sum()
    half = x.shape[0] // 2
    left = _tree_norm(x[:half], depth - 1)
    right = _tree_norm(x[half:], depth - 1)
    if left > right:
        return left
    return right


@CASES.case(args=[(np.arange(8.0) - 3.0, 2), (VEC, 1)])
def recursion_split_halves_static_depth(x, depth):
    return _tree_norm(x, depth)


def _repeat_square(x, n):
    if n == 0:
        return x
    y = _repeat_square(x, n - 1)
    if np.abs(y).max() > 10:
        return y / 10
    return y * y


@CASES.case(args=[(VEC, 3), (F32, 2)])
def recursion_with_tensor_branch_per_level(x, n):
    return _repeat_square(x, n)


@CASES.case(args=[(VEC,), (F32,)])
def variable_changes_from_scalar_to_array(x):
    y = 0.0
    for k in range(3):
        if k == 1:
            y = x * k
        else:
            y = y + 1
    return y


@CASES.case(args=[(INT,), (np.array([5, 7], dtype=np.int64),)])
def int_array_state_with_floor_division(x):
    steps = 0
    while (x > 1).any():
        x = np.where(x > 1, x // 2, x)
        steps += 1
    return x, steps


@CASES.case(args=[(VEC,), (F32,)])
def loop_variable_after_loop_with_break(x):
    i = -1
    for i in range(x.shape[0]):
        if x[i] > 1.0:
            break
    return i


@CASES.case(args=[(VEC,), (F32,)])
def loop_target_reused_after_tensor_loop(x):
    for v in x:
        pass
    for w in x:
        if w > v:
            v = w
    return v


@CASES.case(args=[(f64(2.0), 3), (f64(-2.0), 2)])
def branch_on_static_then_tensor_defines_var(x, mode):
    if mode == 3:
        if x > 0:
            y = x
        else:
            y = -x
    else:
        y = x * mode
    return y


@CASES.case(args=[(VEC,), (F32,)])
def tuple_state_swapped_each_trip(x):
    a, b = x[0], x[1]
    for v in x:
        if v > 0:
            a, b = b, a + v
    return a, b


@CASES.case(args=[(MAT,), (MAT[::-1].copy(),)])
def list_state_replaced_not_appended(m):
    best = [m[0], 0]
    for i, row in enumerate(m):
        if row.max() > best[0].max():
            best = [row, i]
    return best


@CASES.case(args=[(VEC,), (F32,)])
def bool_flag_and_counter_state(x):
    seen_neg = False
    runs = 0
    for v in x:
        if v < 0:
            seen_neg = True
        elif seen_neg:
            runs += 1
            seen_neg = False
    return seen_neg, runs


@CASES.case(args=[(VEC,), (F32,)])
def dtype_of_accumulator_from_argument(x):
    acc = np.zeros((), dtype=x.dtype)
    for v in x:
        acc = acc + v * v
    return acc
