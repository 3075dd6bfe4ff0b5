"""Conformance cases: ``if`` / ``elif`` / ``else`` and conditional expressions, on tensors and on
static values (Python flags, strings, ``None``, shapes, dtypes, ``isinstance``)."""

import numpy as np

from tograph_conformance.case import Registry, kw

CASES = Registry("branches")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])


@CASES.case(args=[(f64(3.0),), (f64(-2.0),), (f64(0.0),)], expect_ops={"cond"})
def abs_by_branch(x):
    if x >= 0:
        y = x
    else:
        y = -x
    return y


@CASES.case(args=[(f64(1.5),), (f64(-4.0),)], expect_ops={"cond"})
def leaky_relu_no_else(x):
    y = x * 2.0
    if y < 0:
        y = 0.01 * y
    return y


@CASES.case(args=[(f64(-3.0),), (f64(-0.5),), (f64(0.25),), (f64(4.0),)], expect_ops={"cond"})
def piecewise_elif(x):
    if x < -1.0:
        y = -1.0 + 0.0 * x
    elif x < 0.0:
        y = x * x
    elif x < 1.0:
        y = np.sqrt(x)
    else:
        y = 1.0 + np.log(x)
    return y


@CASES.case(
    args=[(np.int64(15),), (np.int64(9),), (np.int64(10),), (np.int64(7),)], expect_ops={"cond"}
)
def fizzbuzz_code(n):
    code = n * 0
    if n % 15 == 0:
        code = code + 3
    elif n % 3 == 0:
        code = code + 1
    elif n % 5 == 0:
        code = code + 2
    return code


@CASES.case(args=[(VEC, True), (VEC, False)], forbid_ops={"cond", "while_loop"})
def static_flag(x, squared):
    if squared:
        out = x * x
    else:
        out = np.abs(x)
    return out


@CASES.case(args=[(VEC, "l1"), (VEC, "l2"), (VEC, "max")], forbid_ops={"cond"})
def static_string_mode(x, norm):
    if norm == "l1":
        scale = np.sum(np.abs(x))
    elif norm == "l2":
        scale = np.sqrt(np.sum(x * x))
    else:
        scale = np.max(np.abs(x))
    return x / scale


@CASES.case(args=[(VEC,), (VEC, 0.5), kw(VEC, scale=3.0)], forbid_ops={"cond"})
def static_none_default(x, scale=None):
    if scale is None:
        scale = 1.0
    return x * scale


@CASES.case(args=[(VEC,), (VEC[:2],), (np.arange(6.0),)], forbid_ops={"cond"})
def static_shape_condition(x):
    if x.shape[0] > 3:
        out = x[:3]
    else:
        out = np.concatenate([x, np.zeros(3 - x.shape[0])])
    return out


@CASES.case(args=[(VEC,), (VEC.reshape(2, 2),)], forbid_ops={"cond"})
def static_ndim_dispatch(x):
    if x.ndim == 1:
        x = x[None, :]
    return np.sum(x, axis=1)


@CASES.case(args=[(VEC,), (VEC.astype(np.float32),), (np.array([1, 2, 3]),)], forbid_ops={"cond"})
def static_dtype_condition(x):
    if x.dtype == np.float32:
        y = x * np.float32(2.0)
    elif np.issubdtype(x.dtype, np.integer):
        y = x // 2
    else:
        y = x * 2.0
    return y


@CASES.case(
    args=[
        (f64(1.0), f64(2.0)),
        (f64(1.0), f64(-2.0)),
        (f64(-1.0), f64(2.0)),
        (f64(-1.0), f64(-2.0)),
    ],
    expect_ops={"cond"},
)
def nested_if_quadrant(x, y):
    if x > 0:
        if y > 0:
            q = x * 0 + 1
        else:
            q = x * 0 + 4
    else:
        if y > 0:
            q = x * 0 + 2
        else:
            q = x * 0 + 3
    return q


@CASES.case(args=[(f64(2.0), True), (f64(-2.0), True), (f64(2.0), False)])
def nested_static_outer_tensor_inner(x, clip):
    if clip:
        if x > 1.0:
            x = x * 0 + 1.0
    else:
        x = x * 10.0
    return x


@CASES.case(
    args=[(f64(2.0), 1), (f64(-2.0), 1), (f64(2.0), 3), (f64(-2.0), 3)], expect_ops={"cond"}
)
def nested_tensor_outer_static_inner(x, order):
    if x > 0:
        if order == 1:
            y = x
        else:
            y = x**order
    else:
        y = -x
    return y


@CASES.case(args=[(f64(3.0), f64(1.0)), (f64(1.0), f64(3.0))], expect_ops={"cond"})
def branch_sets_two_values(a, b):
    if a > b:
        lo, hi = b, a
    else:
        lo, hi = a, b
    return lo, hi - lo


@CASES.case(args=[(VEC,), (-VEC,), (np.zeros(3),)], expect_ops={"cond"})
def normalize_if_positive_sum(x):
    total = np.sum(x)
    if total > 0:
        x = x / total
    return x


@CASES.case(args=[(VEC,), (np.abs(VEC),)], expect_ops={"cond"})
def abs_if_any_negative(x):
    if np.any(x < 0):
        x = np.abs(x)
    return x * 2


@CASES.case(args=[(VEC, np.bool_(True)), (VEC, np.bool_(False))], expect_ops={"cond"})
def bool_tensor_argument(x, flip):
    if flip:
        x = x[::-1]
    return x


@CASES.case(args=[(f64(3.0),), (f64(-3.0),)], expect_ops={"cond"})
def temp_only_inside_branch(x):
    if x > 0:
        doubled = x * 2
        x = doubled + 1
    return x


@CASES.case(args=[(VEC, VEC * 2), (VEC * 3, VEC)], expect_ops={"cond"})
def pick_larger_array(a, b):
    if a.max() > b.max():
        big, small = a, b
    else:
        big, small = b, a
    return big - small


@CASES.case(
    args=[(f64(0.5),), (f64(1.5),), (f64(2.5),), (f64(3.5),), (f64(-1.0),)], expect_ops={"cond"}
)
def three_level_nesting(x):
    y = x
    if x > 0:
        if x > 1:
            if x > 2:
                y = x * 3
            else:
                y = x * 2
        else:
            if x > 0.75:
                y = x + 10
    return y


@CASES.case(args=[(f64(4.0),), (f64(-2.0),)], expect_ops={"cond"})
def elif_without_else(x):
    y = x
    if x > 3:
        y = x - 3
    elif x < -1:
        y = x + 1
    return y


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def branch_with_indexing(x):
    if x[0] > 0:
        head = x[0]
        rest = x[1:] * head
    else:
        head = -x[0]
        rest = x[1:] / head
    return head, rest


@CASES.case(args=[(VEC, None), (VEC, np.ones(4))], forbid_ops={"cond"})
def optional_bias(x, bias=None):
    y = 2.0 * x
    if bias is not None:
        y = y + bias
    return y


@CASES.case(args=[(VEC, 2), (VEC, 2.5), (VEC, np.array([1.0, 2.0, 3.0, 4.0]))], forbid_ops={"cond"})
def isinstance_dispatch(x, w):
    if isinstance(w, int):
        out = x * w
    elif isinstance(w, float):
        out = x + w
    else:
        out = x * w + 1
    return out


@CASES.case(args=[([VEC, VEC],), ([VEC, VEC, VEC],)], forbid_ops={"cond"})
def static_len_of_list(parts):
    if len(parts) == 2:
        out = parts[0] - parts[1]
    else:
        out = parts[0] + parts[1] + parts[2]
    return out


@CASES.case(args=[(f64(2.0),), (f64(-2.0),)], expect_ops={"cond"})
def ternary_tensor(x):
    y = x if x > 0 else -x
    return y * 3


@CASES.case(args=[(VEC, 1), (VEC, 5)], forbid_ops={"cond"})
def ternary_static(x, n):
    scale = 2.0 if n > 1 else 0.5
    return x * scale


@CASES.case(args=[(f64(2.0),), (f64(0.5),), (f64(-2.0),)], expect_ops={"cond"})
def ternary_nested(x):
    return x * 2 if x > 1 else (x + 1 if x > 0 else x - 1)


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def ternary_picks_array(x):
    m = x.mean()
    centered = x - m if m > 0 else m - x
    return centered


@CASES.case(args=[(np.int64(8),), (np.int64(7),)], expect_ops={"cond"})
def collatz_step(n):
    if n % 2 == 0:
        n = n // 2
    else:
        n = 3 * n + 1
    return n


@CASES.case(args=[(f64(5.0), f64(2.0)), (f64(2.0), f64(5.0))], expect_ops={"cond"})
def branch_reads_and_writes(a, b):
    if a > b:
        a, b = b, a
        a = a * 10
    return a, b


@CASES.case(args=[(VEC,), (np.zeros(4),)], expect_ops={"cond"})
def branch_returns_int_count(x):
    n_pos = np.sum(x > 0)
    if n_pos > 0:
        mean_pos = np.sum(np.where(x > 0, x, 0.0)) / n_pos
    else:
        mean_pos = np.float64(0.0)
    return n_pos, mean_pos


@CASES.case(args=[(f64(4.0),), (f64(-4.0),)])
def raise_in_tensor_branch(x):
    if x < 0:
        raise ValueError("x must be non-negative")
    return np.sqrt(x)


@CASES.case(args=[(VEC, "relu"), (VEC, "abs"), (VEC, "identity")], forbid_ops={"cond"})
def membership_in_static_tuple(x, kind):
    if kind in ("relu", "leaky"):
        x = np.maximum(x, 0.0)
    elif kind not in ("identity",):
        x = abs(x)
    return x


@CASES.case(args=[(f64(3.0), f64(-1.0)), (f64(-3.0), f64(5.0))], expect_ops={"cond"})
def builtin_min_max_in_branch(a, b):
    if max(a, b) > 2:
        out = min(a, b) * 2
    else:
        out = abs(a - b)
    return out


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"})
def float_cast_in_condition(x):
    total = float(np.sum(x))
    if total > 0:
        total = total * 2
    return total


@CASES.case(
    args=[(f64(1.0), f64(2.0)), (f64(3.0), f64(2.0)), (f64(2.0), f64(2.0)), (f64(np.nan), 1.0)],
    expect_ops={"cond"},
)
def three_level_nested_arms(a, b):
    if a > b:
        if a > 2 * b:
            r = a - b
        else:
            r = a * b
    else:
        if a == b:
            r = a + b
        else:
            if b > 1:
                r = b / a
            else:
                r = a
    return r


@CASES.case(args=[(VEC,), (np.array([1.0, 2.0, 3.0]),), (np.array([-1.0, -2.0]),)])
def if_inside_loop_inside_if(x):
    total = x[0] * 0
    if x[0] > 0:
        for v in x:
            if v > 1:
                total = total + v * v
            else:
                total = total - v
    else:
        total = total - 1
    return total


@CASES.case(args=[(f64(0.0),), (f64(np.nan),), (f64(3.0),), (np.array(1.5),), (np.float32(0),)])
def truth_of_number_kinds_and_nan(x):
    if x:
        return x + 1
    return x - 1
