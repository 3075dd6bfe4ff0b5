"""Conformance cases: weak (Python scalar) types through control flow, dtypes that must be kept
(float32, int32, uint8, float16, complex), loop variables that change shape or dtype, and nested
data structures (tuples, dicts, namedtuples, ``None`` and strings) in arguments and results."""

import collections

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("types")

f64 = np.float64
X32 = np.array([4.0, -2.0, 8.5], dtype=np.float32)
VEC = np.array([0.5, -1.5, 2.0, 3.25])

Particle = collections.namedtuple("Particle", ["pos", "vel"])


@CASES.case(args=[(X32,), (X32 / 100,)], expect_ops={"while_loop"})
def float32_with_python_counter(x):
    k = 0
    while np.max(np.abs(x)) > 1:
        x = x / 2
        k += 1
    return x, k


@CASES.case(args=[(X32, 3)], forbid_ops={"while_loop"})
def float32_times_static_range_index(x, n):
    acc = np.zeros_like(x)
    for i in range(n):
        acc = acc + x * i
    return acc


@CASES.case(args=[(X32, np.int64(3)), (X32, np.int64(0))], expect_ops={"while_loop"})
def float32_times_tensor_range_index(x, n):
    acc = np.zeros_like(x)
    for i in range(n):
        acc = acc + x * i + 0.5
    return acc


@CASES.case(args=[(np.float32(3.0),), (np.float32(-3.0),)], expect_ops={"cond"})
def float32_scalar_branch_literals(x):
    if x > 0:
        y = x * 0.5 + 1.0
    else:
        y = x * 2 - 1
    return y


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop"})
def python_int_result_from_tensor_loop(x):
    count = 0
    for v in x:
        if v > 0:
            count += 1
    return count


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def int_to_float_promotion_in_loop(x):
    acc = 0
    for v in x:
        acc = acc + v * 0.5
    return acc


@CASES.case(args=[(np.int64(27),), (np.int64(4),)], expect_ops={"while_loop"})
def int_tensor_becomes_float(n):
    x = n
    while x > 1:
        x = x / 2
    return x


@CASES.case(args=[(np.array([1, 2, 3], dtype=np.int32), np.int64(3))], expect_ops={"while_loop"})
def int32_stays_int32(x, n):
    for k in range(n):
        x = x * 2 + k
    return x


@CASES.case(args=[(np.array([10, 200, 30, 250], dtype=np.uint8), np.uint8(100))])
def uint8_threshold(img, t):
    out = img.copy()
    out[out > t] = 255
    for k in range(2):
        out = out // 2 + k
    return out


@CASES.case(args=[(np.array([1.5, 2.5], dtype=np.float16),)], expect_ops={"while_loop"})
def float16_stays_float16(x):
    while np.sum(x) < 100:
        x = x * 2
    return x


@CASES.case(args=[(VEC[:2], np.int64(3)), (VEC[:2], np.int64(0))], expect_ops={"while_loop"})
def growing_concat_tensor_loop(x, n):
    out = x
    for i in range(n):
        out = np.concatenate([out, x * (i + 1)])
    return out


@CASES.case(args=[(VEC[:2],)], forbid_ops={"while_loop"})
def growing_concat_static_loop(x):
    out = x
    for i in range(3):
        out = np.concatenate([out, out[-1:] + i])
    return out


@CASES.case(
    args=[(np.array([1.0]), f64(20.0)), (np.array([1.0]), f64(0.5))], expect_ops={"while_loop"}
)
def growing_until_sum_reached(x, limit):
    while np.sum(x) < limit:
        x = np.concatenate([x, x[-1:] * 2])
    return x


@CASES.case(args=[((VEC, VEC[::-1]), 2)])
def nested_tuple_in_dict_out(pair, n):
    a, b = pair
    for _ in range(n):
        a, b = a + b, a - b
    return {"sum": a + b, "parts": (a, [b, n])}


@CASES.case(args=[({"pos": VEC, "vel": VEC * 0.1}, np.int64(5))], expect_ops={"while_loop"})
def dict_state_in_tensor_loop(state, n):
    for _ in range(n):
        state = {"pos": state["pos"] + state["vel"], "vel": state["vel"] * 0.9}
    return state


@CASES.case(args=[(Particle(VEC, VEC * 0.5), np.int64(3))], expect_ops={"while_loop"})
def namedtuple_state(p, n):
    for _ in range(n):
        p = Particle(p.pos + p.vel, p.vel * 0.5)
    return p


@CASES.case(args=[(VEC,), (-VEC,)])
def returns_numpy_bool(x):
    ok = np.all(x < 3)
    if x[0] > 0:
        ok = ok & (x[0] < 1)
    return ok


@CASES.case(args=[(np.array([0.25 + 0.5j, -1.0 + 0.0j]), np.int64(3))], expect_ops={"while_loop"})
def complex_state_in_loop(z, n):
    c = z
    for _ in range(n):
        z = z * z + c
    return z


@CASES.case(args=[(VEC, 0.5), (VEC, 2)])
def static_python_number_argument(x, scale):
    if scale > 1:
        x = x * scale
    else:
        x = x / scale
    return x


@CASES.case(args=[(VEC,)])
def static_leaves_in_result(x):
    return x * 2, None, "done", 3


@CASES.case(args=[(np.int64(6),), (np.int64(0),)], expect_ops={"while_loop"})
def weak_float_accumulator(n):
    total = 0.0
    i = 0
    while i < n:
        total += 0.5
        i += 1
    return total, i


@CASES.case(args=[(X32,)], expect_ops={"while_loop"})
def float32_enumerate_weighting(x):
    out = np.float32(0.0)
    for i, v in enumerate(x):
        out = out + v * (i + 1) / 2
    return out


@CASES.case(args=[(np.array([3, 1, 2, 8]), np.int64(3))], expect_ops={"while_loop"})
def int_array_prefix_means(x, n):
    means = np.zeros(4)
    for i in range(n):
        means[i] = x[: i + 1].mean()
    return means


# Python scalar kinds as eager code has them: a Python number where it stays one, a NumPy scalar
# where NumPy made it, also when the data decides which (``staging.kinds``).
@CASES.case(
    args=[(np.array([2.675]),), (np.array([-0.125, 1.0]),)], expect_ops={"python_round", "round"}
)
def round_of_float_of_tensor(x):
    return round(float(x.sum()), 2), round(x[0], 2)


@CASES.case(args=[(X32,), (X32 / 10,), (np.array([np.nan, 1.0], np.float32),)], forbid_ops={"cond"})
def min_of_element_and_python_float(x):
    return min(x[0], 0.5), max(0.5, x[1]), min(x[1], x[0], 2)


@CASES.case(args=[(VEC,), (np.array([1.0, np.nan, -3.0]),), (np.array([np.nan, 2.0]),)])
def min_max_of_a_vector_as_python_iterates(x):
    return min(x), max(x)


@CASES.case(args=[(VEC,), (VEC * 10,)], expect_ops={"while_loop"})
def for_else_returns_python_float(x):
    for v in x:
        if v > 10:
            return v
    else:
        return -1.0


@CASES.case(args=[(X32,), (-X32,)], expect_ops={"cond"})
def ternary_of_numpy_and_python_numbers(x):
    y = x[0] if x[1] > 0 else 0.5
    n = 3 if x[0] > 0 else x.shape[0]
    return y, n, not x[2] > 0
