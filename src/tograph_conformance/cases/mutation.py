"""Conformance cases: augmented assignment, tuple unpacking, indexing, and functional item updates
(``x[i] = v``, ``x[i] += v``, ``x[i, j] = v``, ``x[i][j] = v``, swaps) inside loops and branches."""

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("mutation")

f64 = np.float64
VEC = np.array([0.5, -1.5, 2.0, 3.25])
MAT = np.arange(12.0).reshape(4, 3) - 5.0


@CASES.case(args=[(VEC,)])
def augmented_float_ops(x):
    y = x.copy()
    y += 1
    y *= 2
    y -= 0.5
    y /= 3
    y **= 2
    return y


@CASES.case(args=[(np.int64(1000),), (np.int64(7),)])
def augmented_int_ops(n):
    m = n
    m //= 3
    m %= 50
    m <<= 2
    m |= 1
    m ^= 6
    m >>= 1
    m &= 0xFF
    return m


@CASES.case(args=[(np.int64(10),), (np.int64(0),)], expect_ops={"while_loop"})
def tuple_swap_fibonacci(n):
    a, b = np.int64(0), np.int64(1)
    for _ in range(n):
        a, b = b, a + b
    return a


@CASES.case(args=[(VEC, MAT[0], f64(2.0))])
def nested_tuple_unpacking(x, y, z):
    (a, b), c = (x, y[:1]), z
    return a * c + b


@CASES.case(args=[(VEC, VEC * 2, VEC * 3)])
def starred_unpacking(a, b, c):
    first, *rest = (a, b, c)
    return first - rest[0] + rest[1], len(rest)


@CASES.case(
    args=[(np.int64(17), np.int64(5)), (np.int64(4), np.int64(9))], expect_ops={"while_loop"}
)
def unpack_helper_result(a, b):
    def divmod_slow(p, q):
        count = 0
        while p >= q:
            p = p - q
            count += 1
        return count, p

    quotient, remainder = divmod_slow(a, b)
    return quotient, remainder


@CASES.case(args=[(np.int64(5),), (np.int64(1),)], expect_ops={"while_loop"})
def setitem_in_tensor_loop(n):
    y = np.zeros(8)
    for i in range(n):
        y[i] = i * i
    return y


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def setitem_in_static_loop(x):
    y = np.zeros(4)
    for i in range(4):
        y[i] = x[i] * 2 - y[i - 1]
    return y


@CASES.case(args=[(np.array([0, 2, 2, 4, 1, 2]),), (np.array([3]),)], expect_ops={"while_loop"})
def histogram_iadd(labels):
    hist = np.zeros(5, dtype=np.int64)
    for v in labels:
        hist[v] += 1
    return hist


@CASES.case(args=[(np.int64(5),), (np.int64(1),)], expect_ops={"while_loop"})
def pascal_triangle(n):
    t = np.zeros((6, 6), dtype=np.int64)
    for i in range(n):
        t[i, 0] = 1
        for j in range(1, 6):
            if j <= i:
                t[i, j] = t[i - 1, j - 1] + t[i - 1, j]
    return t


@CASES.case(args=[(np.arange(10.0), np.int64(3))], expect_ops={"while_loop"})
def setitem_slices_in_loop(x, n):
    y = x.copy()
    for i in range(n):
        y[2 * i : 2 * i + 2] = -y[2 * i : 2 * i + 2]
    return y


@CASES.case(args=[(VEC,), (np.abs(VEC),)])
def setitem_boolean_mask(x):
    y = x.copy()
    y[y < 0] = 0.0
    y[y > 3] -= 1.0
    return y


@CASES.case(args=[(VEC,), (-VEC,)], expect_ops={"cond"}, forbid_ops={"while_loop"})
def setitem_in_branch_in_loop(x):
    y = np.zeros_like(x)
    for i in range(x.shape[0]):
        if x[i] > 0:
            y[i] = x[i]
        else:
            y[i] = x[i] * 0.1
    return y


@CASES.case(args=[(VEC,)], forbid_ops={"while_loop"})
def setitem_python_list(x):
    parts = [x, x * 0.5, -x]
    parts[1] = x * 2
    parts[2] += 1
    return parts


@CASES.case(args=[(VEC,)])
def setitem_dict(x):
    stats = {"min": x.min()}
    stats["max"] = x.max()
    stats["range"] = stats["max"] - stats["min"]
    stats["min"] *= 2
    return stats


@CASES.case(args=[(VEC, np.int64(2)), (VEC, np.int64(0))])
def negative_and_relative_indexing(x, i):
    return x[-1] + x[i - 1] + x[-i - 1]


@CASES.case(args=[(MAT, np.int64(3))], expect_ops={"while_loop"})
def nested_subscript_update(m, n):
    m = m.copy()
    for k in range(n):
        m[k][k % 3] = 100.0 + k
    return m


@CASES.case(args=[(np.array([3.0, 1.0, 2.0]),)])
def swap_elements(x):
    y = x.copy()
    y[0], y[2] = y[2], y[0]
    return y


@CASES.case(args=[(MAT,)], forbid_ops={"while_loop"})
def running_row_update(m):
    out = m.copy()
    for i in range(1, m.shape[0]):
        out[i] += out[i - 1]
    return out


@CASES.case(args=[(VEC, np.int64(1), f64(9.0))])
def setitem_tensor_index_and_value(x, i, v):
    y = x.copy()
    y[i] = v
    y[i + 1] += v
    return y


@CASES.case(args=[(VEC,), (np.arange(4),)])
def ufunc_broadcast_into_new_out(x):
    v = np.zeros((3, 4), dtype=np.float32)
    np.add(x, 1.0, out=v, casting="unsafe")
    v[0, 0] = -1.0  # the result is writeable, as NumPy's out is
    return v, v[:, 3]
