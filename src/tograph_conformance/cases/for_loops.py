"""Conformance cases: ``for`` loops over static ranges (unrolled), over ranges with tensor bounds
(start/stop/step, negative steps, zero trips), over a tensor's rows, ``enumerate``, ``zip``,
``reversed``, static lists, tuples and dicts."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("for_loops")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
MAT = np.arange(12.0).reshape(4, 3) - 5.0


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_range_unrolled(x):
    for i in range(3):
        x = x * 2 + i
    return x


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_range_start_stop_step(x):
    total = np.zeros_like(x)
    for k in range(1, 10, 3):
        total = total + x**k
    return total


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_range_negative_step(x):
    out = x
    for k in range(5, 0, -2):
        out = out * k - 1
    return out


@CASES.case(
    args=[(VEC, np.int64(4)), (VEC, np.int64(0)), (VEC, np.int64(1))], expect_ops={"while_loop"}
)
def tensor_stop(x, n):
    s = np.zeros_like(x)
    for i in range(n):
        s = s + x * i
    return s


@CASES.case(
    args=[(VEC, np.int64(2), np.int64(6)), (VEC, np.int64(5), np.int64(2))],
    expect_ops={"while_loop"},
)
def tensor_start_stop(x, a, b):
    s = x * 0
    count = 0
    for i in range(a, b):
        s = s + i
        count += 1
    return s, count


@CASES.case(args=[(np.int64(10),), (np.int64(9),), (np.int64(0),)], expect_ops={"while_loop"})
def tensor_stop_static_step(n):
    evens = n * 0
    for i in range(0, n, 2):
        evens = evens + i
    return evens


@CASES.case(args=[(np.int64(5),), (np.int64(0),), (np.int64(-3),)], expect_ops={"while_loop"})
def tensor_start_negative_step(n):
    seq = n * 0
    for i in range(n, 0, -1):
        seq = seq * 10 + i
    return seq


@CASES.case(args=[(np.int64(7),), (np.int64(1),)], expect_ops={"while_loop"})
def tensor_bounds_step_minus_two(n):
    total = 0
    for i in range(n - 1, -1, -2):
        total = total * 2 + i
    return total


@CASES.case(args=[(MAT,), (MAT[:1],)], expect_ops={"while_loop"})
def rows_of_matrix(m):
    acc = np.zeros(m.shape[1])
    for row in m:
        acc = acc + row * row
    return acc


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop", "cond"})
def count_positive_elements(x):
    count = 0
    for v in x:
        if v > 0:
            count += 1
    return count


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_list_of_weights(x):
    out = x
    for w in [0.5, 1.0, 2.0]:
        out = out * w + w
    return out


@CASES.case(args=[(VEC, VEC * 2, VEC - 1)], forbid_ops={"while_loop"})
def tuple_of_arrays(a, b, c):
    best = a
    for candidate in (b, c):
        best = np.maximum(best, candidate)
    return best


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def enumerate_tensor(x):
    s = 0.0 * x[0]
    for i, v in enumerate(x):
        s = s + i * v
    return s


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def enumerate_with_start(x):
    weighted = np.zeros(())
    for rank, v in enumerate(x, start=1):
        weighted = weighted + v / rank
    return weighted


@CASES.case(args=[(VEC, VEC[::-1])], expect_ops={"while_loop"})
def zip_two_tensors(a, b):
    dot = f64(0.0)
    for u, v in zip(a, b):
        dot = dot + u * v
    return dot


@CASES.case(args=[(VEC,)], expect_ops={"while_loop"})
def zip_range_and_tensor(x):
    out = 0.0 * x[0]
    for i, v in zip(range(10), x):
        out = out + (i + 1) * v
    return out


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def zip_static_lists(x):
    out = x
    for scale, shift in zip([1.0, 2.0, 3.0], [0.5, 0.25, 0.125]):
        out = out * scale + shift
    return out


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def enumerate_static_list(x):
    terms = []
    for power, coef in enumerate([3.0, -1.0, 0.5]):
        terms.append(coef * x**power)
    return terms[0] + terms[1] + terms[2]


@CASES.case(args=[(VEC,), (MAT[:, 0],)], forbid_ops={"while_loop"})
def range_len_static(x):
    out = np.zeros_like(x)
    for i in range(len(x)):
        out[i] = x[i] * (i + 1)
    return out


@CASES.case(args=[(MAT,)])
def range_shape_nested_static(m):
    total = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            total = total + m[i, j] * (i - j)
    return total


@CASES.case(args=[(np.int64(5),), (np.int64(1),)], expect_ops={"while_loop"})
def loop_variable_used_after(n):
    last = -1
    for i in range(n):
        last = i * i
    return last


@CASES.case(args=[(VEC, {"gain": 2.0, "offset": -1.0, "decay": 0.5})], forbid_ops={"while_loop"})
def static_dict_items(x, params):
    for name, value in params.items():
        if name == "offset":
            x = x + value
        else:
            x = x * value
    return x


@CASES.case(args=[({"b": VEC, "a": MAT, "c": np.ones(2)},)], forbid_ops={"while_loop"})
def sorted_dict_of_arrays(d):
    total = 0.0
    for key in sorted(d):
        total = total + d[key].sum()
    return total


@CASES.case(
    args=[(np.array([[1.0, 1.0], [1.0, 0.0]]), np.int64(10)), (np.eye(2) * 3, np.int64(0))],
    expect_ops={"while_loop"},
)
def repeated_matmul(a, n):
    r = np.eye(a.shape[0])
    for _ in range(n):
        r = r @ a
    return r


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"while_loop", "cond"})
def ternary_in_loop_body(x):
    s = 0.0 * x[0]
    for v in x:
        s += v if v > 0 else -0.5 * v
    return s


@CASES.case(args=[(VEC,)])
def reversed_tensor(x):
    out = np.zeros(())
    for v in reversed(x):
        out = out * 10 + v
    return out


@CASES.case(args=[(MAT,)], expect_ops={"while_loop"})
def columns_via_transpose(m):
    best = m[:, 0] * 0.0
    for col in m.T:
        best = np.maximum(best, col)
    return best


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_numpy_arange(x):
    for k in np.arange(3):
        x = x + k
    return x


@CASES.case(args=[(MAT, np.int64(2)), (MAT, np.int64(0))], expect_ops={"while_loop"})
def nested_tensor_loops(m, reps):
    out = np.zeros_like(m)
    for r in range(reps):
        for row_index in range(m.shape[0]):
            out[row_index] = out[row_index] + m[row_index] * (r + 1)
    return out


@CASES.case(args=[(VEC, VEC[::-1])], expect_ops={"while_loop"})
def enumerate_zip_nested_unpacking(a, b):
    out = 0.0 * a[0]
    for i, (u, v) in enumerate(zip(a, b)):
        out = out + i * (u - v)
    return out


@CASES.case(args=[(VEC, np.int64(3))], expect_ops={"while_loop"})
def reassigning_loop_variable(x, n):
    total = 0
    for i in range(n):
        total += i
        i = i * 100
    return total, x * total


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def static_zero_trip_range(x):
    y = x
    for k in range(0):
        y = y * k
    return y


@CASES.case(args=[(VEC, 3)], forbid_ops={"while_loop"})
def loop_variable_shadows_earlier_value(x, n):
    i = 100
    for i in range(n):
        x = x + i
    return x, i


@CASES.case(args=[(VEC, np.int64(3)), (VEC, np.int64(0))], expect_ops={"while_loop"})
def range_of_int_cast(x, n):
    steps = int(n)
    for k in range(steps):
        x = x - 0.1 * k
    return x, steps


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def dict_and_filtered_comprehensions(x):
    scales = {name: k + 1.0 for k, name in enumerate(["a", "b", "c"])}
    kept = [x * s for s in scales.values() if s != 2.0]
    return {key: x * val for key, val in scales.items()}, kept


@CASES.case(args=[(np.ones((3, 2)),), (np.ones((2, 5)),)])
def shape_unpacking_drives_loops(m):
    rows, cols = m.shape
    acc = np.zeros(cols)
    for r in range(rows):
        acc = acc + m[r] * (r + 1)
    return acc


@CASES.case(
    args=[(np.int64(5),), (np.int64(0),), (np.int64(-2),), (np.array(3),)],
)
def tensor_range_negative_step_order(n):
    out = 0
    for i in range(n, -n, -1):
        out = out * 2 + i
    return out


@CASES.case(
    args=[(np.int64(7),), (np.int32(7),), (np.array(7),), (np.uint8(7),), (np.bool_(True),)],
)
def loop_counter_of_every_integer_kind(n):
    s = 0
    for i in range(n):
        s = s + i
    return s


@CASES.case(args=[(np.arange(5),), (np.arange(0),), (np.arange(5.0),)])
def accumulator_turns_float_in_tensor_loop(x):
    s = 0
    for v in x:
        s = s + v / 2
    return s, x.sum()
