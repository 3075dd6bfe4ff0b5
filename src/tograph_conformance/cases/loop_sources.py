"""Conformance cases in the style of Paddle's test_for_enumerate and test_loop and AutoGraph's
loop_basic: ``for`` over a tensor's rows, over ``range(len(x))`` and ``range(x.shape[0])``, over
``enumerate``, ``zip`` and ``reversed`` of tensors, over Python lists and tuples of arrays, with
tensor conditions and updates in the body, and nested loops mixing these sources."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("loop_sources")

f32 = np.float32
f64 = np.float64
VEC = np.array([0.5, -1.0, 2.0, 3.5, -0.25])
MAT = np.array([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5], [2.0, 2.0, 2.0], [-3.0, 1.0, 0.25]])
SMALL = np.array([[1.0, 2.0], [3.0, 4.0]])
IDX = np.array([2, 0, 1, 3], dtype=np.int64)
F32 = np.array([1.5, -2.5, 4.0], dtype=np.float32)


@CASES.case(args=[(VEC,), (VEC[:0],), (F32,)])
def sum_of_elements_by_loop(x):
    z = 0
    for v in x:
        z = z + v
    return z


@CASES.case(args=[(MAT,), (SMALL,)])
def rows_accumulate_into_zeros(m):
    acc = np.zeros(m.shape[1])
    for row in m:
        acc += row
    return acc


@CASES.case(args=[(VEC,), (F32,)], expect_ops={"cond"})
def range_len_index_with_tensor_test(x):
    total = 0.0
    for i in range(len(x)):
        if x[i] > 0:
            total += x[i] * i
    return total


@CASES.case(args=[(MAT,), (SMALL,)])
def range_shape_rows_then_columns(m):
    out = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] < 0:
                out -= m[i, j]
            else:
                out += 2 * m[i, j]
    return out


@CASES.case(args=[(VEC,), (F32,)], expect_ops={"while_loop"})
def enumerate_picks_argmax_by_hand(x):
    best = x[0]
    where = 0
    for i, v in enumerate(x):
        if v > best:
            best = v
            where = i
    return best, where


@CASES.case(args=[(VEC,), (F32,)])
def enumerate_from_one_weights(x):
    s = x[0] * 0
    for k, v in enumerate(x, 1):
        s = s + v / k
    return s


@CASES.case(args=[(MAT,), (SMALL,)])
def enumerate_rows_writes_output_rows(m):
    out = np.empty_like(m)
    for i, row in enumerate(m):
        if row.sum() > 0:
            out[i] = row / row.sum()
        else:
            out[i] = row
    return out


@CASES.case(args=[(VEC, VEC[::-1].copy()), (F32, F32 * 2)])
def zip_dot_product_by_hand(a, b):
    s = 0.0
    for x, y in zip(a, b):
        s += x * y
    return s


@CASES.case(args=[(VEC, np.arange(5.0)), (VEC, np.arange(3.0))])
def zip_with_break_on_difference(a, b):
    n = 0
    for x, y in zip(a, b):
        if abs(x - y) > 2.0:
            break
        n += 1
    return n


@CASES.case(args=[(MAT, np.array([1.0, -1.0, 0.5, 2.0]))])
def zip_rows_and_scales(m, scales):
    total = np.zeros(m.shape[1])
    for row, s in zip(m, scales):
        if s > 0:
            total = total + s * row
    return total


@CASES.case(args=[(VEC,), (F32,)])
def reversed_running_suffix_max(x):
    out = []
    best = -np.inf
    for v in reversed(x):
        if v > best:
            best = v
        out.append(best)
    return out


@CASES.case(args=[(VEC,), (F32,)])
def reversed_range_len_horner(c):
    acc = 0.0
    for i in reversed(range(len(c))):
        acc = acc * 0.5 + c[i]
    return acc


@CASES.case(args=[([np.ones(2), np.arange(2.0), -np.ones(2)],), ([np.zeros(3)],)])
def list_of_arrays_sum_of_positive_norms(parts):
    total = 0.0
    for p in parts:
        n = np.linalg.norm(p)
        if p.sum() > 0:
            total += n
    return total


@CASES.case(args=[((SMALL, SMALL.T.copy()),), ((MAT[:2, :2].copy(), SMALL),)])
def tuple_of_matrices_chain_product(ms):
    out = np.eye(2)
    for m in ms:
        out = out @ m
        if np.trace(out) > 10:
            out = out / np.trace(out)
    return out


@CASES.case(args=[([VEC, VEC * 2, VEC - 1],)])
def list_of_arrays_with_index_and_break(xs):
    found = -1
    for i, x in enumerate(xs):
        if x.max() > 4.0:
            found = i
            break
    return found


@CASES.case(args=[(IDX, VEC)])
def int_tensor_as_indices(order, x):
    out = 0.0
    for k in order:
        out = out * 2 + x[k]
    return out


@CASES.case(args=[(MAT,), (SMALL,)])
def columns_through_transpose_with_continue(m):
    kept = 0
    for col in m.T:
        if col.min() < 0:
            continue
        kept += 1
    return kept


@CASES.case(args=[(MAT,), (SMALL,)])
def nested_enumerate_writes_into_copy(m):
    out = m.copy()
    for i, row in enumerate(m):
        for j, v in enumerate(row):
            if v < 0:
                out[i, j] = 0.0
    return out


@CASES.case(args=[(VEC, 2), (VEC, 1)])
def range_with_static_step_over_length(x, step):
    s = 0.0
    for i in range(0, x.shape[0], step):
        s += x[i]
    return s


@CASES.case(args=[(VEC,), (F32,)])
def range_from_tensor_count(x):
    n = (x > 0).sum()
    s = 0
    for i in range(n):
        s += i
    return s, n


@CASES.case(args=[(VEC,), (F32,)])
def while_over_index_of_len(x):
    i = 0
    total = x[0] - x[0]
    while i < len(x):
        total = total + x[i] * x[i]
        i += 1
    return total, i


@CASES.case(args=[(VEC,), (F32,)])
def loop_over_slice_views(x):
    s = 0.0
    for v in x[1:-1]:
        s = s + v
    for v in x[::2]:
        s = s - v
    return s


@CASES.case(args=[(MAT,)])
def loop_over_np_ndenumerate_like_pairs(m):
    count = 0
    for i in range(m.shape[0]):
        row = m[i]
        for j in range(i + 1, m.shape[1]):
            if row[j] > m[j, i]:
                count += 1
    return count


@CASES.case(args=[(VEC,), (F32,)])
def zip_adjacent_pairs_sign_changes(x):
    changes = 0
    for a, b in zip(x[:-1], x[1:]):
        if a * b < 0:
            changes += 1
    return changes


@CASES.case(args=[({"w": SMALL, "b": np.ones(2)}, np.array([1.0, -1.0]))])
def dict_items_of_arrays_in_loop(params, x):
    y = x
    for name, p in sorted(params.items()):
        if p.ndim == 2:
            y = p @ y
        else:
            y = y + p
        if y.sum() < 0:
            y = -y
    return y


@CASES.case(args=[(MAT,), (SMALL,)])
def enumerate_rows_returns_first_negative_row(m):
    for i, row in enumerate(m):
        if (row < 0).any():
            return i, row
    return -1, m[0]


@CASES.case(args=[(VEC,), (F32,)])
def for_over_tensor_with_print(x):
    for i, v in enumerate(x):
        if v < 0:
            print("negative at", i)
    print("checked", len(x))
