"""NumPy's imperative semantics under to_static: in-place writes to arguments and locals, views,
aliases and copies, inside tensor control flow too; each case compared with its eager run on the
result and the arguments' state afterwards (``eager_oracle``)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, same

import tograph as tg

VEC = np.array([3.0, -1.0, 2.0, 0.5])
MAT = np.arange(6.0).reshape(2, 3)


def alias_written_in_a_branch(x):
    w = x
    if x.sum() > 0:
        x[0] = 100.0
    return w


def view_written_in_a_tensor_loop(x):
    v = x[1:]
    i = 0
    while i < x.shape[0] - 1 and x.sum() < 100:
        v[i] = v[i] * 2 + 1
        i += 1
    return x


def transpose_written(m):
    t = m.T
    t[0, 1] = -1.0
    return m


def reshape_of_a_contiguous_argument_written(m):
    r = m.reshape(-1)
    r[2] = 99.0
    return m.sum()


def sgd_step(w, g, lr):
    w -= lr * g


def int_array_plus_float(x):
    x += 1.5
    return x


def static_loop_of_updates(w, g):
    for i in range(3):
        w -= 0.1 * g * (i + 1)
    return w


def tensor_loop_of_updates(w, n):
    k = 0
    while k < n:
        w *= 0.5
        k += 1
    return w.sum()


def local_buffer_filled_in_branches(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        if x[i] > 0:
            out[i] = x[i] * 2
    return out


def bubble_sort(a):
    a = a.copy()
    n = a.shape[0]
    for i in range(n):
        for j in range(n - i - 1):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def sort_in_place(a):
    a.sort()
    return a[0]


def fill_in_place(a, value):
    a.fill(value)


def add_into_out(a, b, c):
    np.add(a, b, out=c)
    return c


def swap_rows(m):
    m[0], m[1] = m[1], m[0]  # NumPy's row views: both rows end as the second
    return m


def copy_is_not_an_alias(x):
    y = x.copy()
    y[0] = 5
    return x, y


def fancy_index_is_a_copy(x):
    y = x[[0, 1]]
    y[0] = 9
    return x


def zero_d_array_in_place(a):
    a += 1
    return a


def dict_of_accumulators(x):
    acc = {"pos": 0.0, "neg": 0.0}
    for v in x:
        if v > 0:
            acc["pos"] += v
        else:
            acc["neg"] += v
    return acc


def write_then_view_in_loop(x, n):
    i = 0
    while i < n:
        row = x[i % 2]
        row += 1.0
        i += 1
    return x


def clip_into_a_view(x, lo, hi):
    np.clip(x[:-1], lo, hi, out=x[1:])  # overlapping: NumPy computes first, then writes
    return np.clip(x, lo, None)


CASES = [
    (clip_into_a_view, (VEC, -0.5, 1.0)),
    (clip_into_a_view, (np.arange(4), 0, 2)),
    (alias_written_in_a_branch, (VEC,)),
    (alias_written_in_a_branch, (-VEC,)),
    (view_written_in_a_tensor_loop, (np.arange(4.0),)),
    (transpose_written, (MAT,)),
    (reshape_of_a_contiguous_argument_written, (MAT,)),
    (sgd_step, (np.ones(3), np.arange(3.0), 0.1)),
    (static_loop_of_updates, (np.ones(3), np.arange(3.0))),
    (tensor_loop_of_updates, (np.ones(3), np.int64(3))),
    (local_buffer_filled_in_branches, (np.array([1.0, -2.0, 3.0]),)),
    (bubble_sort, (np.array([3.0, 1.0, 2.0, 0.5]),)),
    (sort_in_place, (np.array([3.0, 1.0, 2.0]),)),
    (fill_in_place, (np.zeros(3), 2.5)),
    (add_into_out, (np.ones(3), np.arange(3.0), np.zeros(3))),
    (swap_rows, (MAT,)),
    (copy_is_not_an_alias, (VEC,)),
    (fancy_index_is_a_copy, (VEC,)),
    (zero_d_array_in_place, (np.array(2.0),)),
    (zero_d_array_in_place, (np.float64(2.0),)),
    (dict_of_accumulators, (np.array([1.0, -2.0, 3.0]),)),
    (write_then_view_in_loop, (np.zeros((2, 3)), np.int64(3))),
]


@pytest.mark.parametrize("fn, args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def rebound_on_one_path(x):
    y = x
    if x.sum() > 2:
        y = y * 2
    y[0] = -1  # writes the caller's array only when the branch is not taken
    return x, y


GLOBAL = np.arange(3.0)


def writes_a_global(x):
    GLOBAL[0] = x.sum()
    return GLOBAL


def reshape_of_a_transposed_argument_written(m):
    r = m.reshape(-1)  # a copy: the argument is not contiguous
    r[2] = 99.0
    return m.sum()


@pytest.mark.parametrize(
    "fn, args, reason",
    [
        (rebound_on_one_path, (np.arange(3.0),), "the same array as before on some paths"),
        (rebound_on_one_path, (np.zeros(3),), "the same array as before on some paths"),
        (writes_a_global, (np.ones(2),), "outlives the call"),
        (reshape_of_a_transposed_argument_written, (MAT.T,), "may or may not share memory"),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_what_cannot_be_traced_falls_back_and_stays_exact(fn, args, reason):
    cf = assert_matches_eager(fn, *args, compiles=False)
    assert cf.fallback is not None and reason in cf.fallback


def test_a_global_written_by_the_eager_run_only_once_per_call():
    before = GLOBAL.copy()
    with pytest.warns(tg.FallbackWarning):
        tg.to_static(writes_a_global)(np.ones(2))
    assert GLOBAL[0] == 2.0  # written by the eager run, exactly once
    GLOBAL[:] = before


def returns_a_view_of_its_argument(x):
    return x[1:]


def test_a_returned_view_of_an_argument_shares_its_memory():
    x = np.arange(4.0)
    view = tg.to_static(returns_a_view_of_its_argument)(x)
    view[0] = 42.0
    assert x[1] == 42.0


def writes_its_first_reads_its_second(a, b):
    a[0] = 7.0
    return b[0]


def test_one_array_passed_twice_is_one_array():
    x = np.zeros(3)
    assert tg.to_static(writes_its_first_reads_its_second)(x, x) == 7.0
    assert x[0] == 7.0
    y, z = np.zeros(3), np.zeros(3)
    assert tg.to_static(writes_its_first_reads_its_second)(y, z) == 0.0


def each_branch_writes_one_of_two_names(x, w, s):
    if s > 2:
        w[[0, 1]] += 5.0
    else:
        x[[-1, -1]] += x[[1, 1]]
    return w[0]


def a_loop_branch_writes_either_name(x, w, s):
    for t in np.arange(2.0):
        if s < t:
            w[0] += 1.0
        else:
            x[0] -= 1.0
    return x[0]


@pytest.mark.parametrize(
    "fn", [each_branch_writes_one_of_two_names, a_loop_branch_writes_either_name]
)
@pytest.mark.parametrize("s", [np.float64(0.0), np.float64(5.0)])
@pytest.mark.parametrize("twice", [True, False])
def test_an_array_passed_twice_written_through_either_name_in_a_branch(fn, s, twice):
    """Fuzz seed 781: with one array passed as ``x`` and ``w``, a tensor ``if`` whose branches
    wrote it through different names lost a write: restoring the array after tracing a branch
    restored its twin too, before the twin's final value was read."""
    first = np.array([-1.0, -2.5, 3.0, 2.5])
    assert_matches_eager(fn, first, first if twice else first.copy(), s)


def test_overlapping_arguments_run_eagerly():
    x, e = np.zeros(4), np.zeros(4)
    got = tg.to_static(writes_its_first_reads_its_second)(x[1:], x[:3])
    assert got == writes_its_first_reads_its_second(e[1:], e[:3])
    np.testing.assert_array_equal(x, e)


def test_numpy_refusals_are_numpy_errors():
    assert_matches_eager(int_array_plus_float, np.arange(3), compiles=False)


def makes_a_constant_array(x):
    return x.sum(), np.zeros(3)


def test_a_constant_array_result_is_a_new_array_per_call():
    f = tg.to_static(makes_a_constant_array)
    first = f(np.ones(2))[1]
    first[0] = 7.0
    assert f(np.ones(2))[1][0] == 0.0


def test_a_graph_that_raises_after_writing_leaves_the_arguments_as_eager_does():
    def write_then_fail(x):
        x[0] = 5.0
        assert x.sum() < 0, "too big"
        return x

    x = np.ones(3)
    with pytest.raises(AssertionError):
        tg.to_static(write_then_fail)(x)
    np.testing.assert_array_equal(x, [5.0, 1.0, 1.0])


def members_of_a_cluster(points, c):
    labels = np.zeros(len(points), dtype=np.int64)
    for i in range(len(points)):
        if points[i] > c:
            labels[i] = 1
    members = points[labels == 1]
    if len(members) > 0:
        return members.mean(), len(members)
    return 0.0, 0


@pytest.mark.parametrize("c", [1.5, 10.0])
def test_an_array_made_here_and_written_later_decides_nothing_by_its_first_values(c):
    """``labels`` starts as zeros but is written in a loop: inference took the zeros as its
    value, so ``len(points[labels == 1])`` looked static and the ``if`` on it fell back."""
    assert_matches_eager(members_of_a_cluster, np.array([1.0, 2.0, 3.0]), c)


def broadcast_into_out(x):
    v = np.zeros((3, 4), dtype=np.float32)
    np.add(x, 1.0, out=v, casting="unsafe")
    return v, v[:, 3]


def test_a_result_broadcast_into_out_is_a_new_writeable_array():
    """``np.add(x, 1.0, out=v)`` with ``x`` of fewer dimensions made ``v`` a read-only
    broadcast view in the graph (cast to ``float32`` it came back in Fortran order too), where
    NumPy writes into ``v``'s own memory (fuzz seed 30429)."""
    x = np.arange(4.0)
    for eager, compiled in zip(broadcast_into_out(x), tg.to_static(broadcast_into_out)(x)):
        assert same(eager, compiled)
        assert compiled.flags.writeable
        assert compiled.strides == eager.strides


def add_where_into_int64(x, v):
    np.add(x, 0.5, out=v, where=x > 1, casting="unsafe")
    return v


def test_out_where_keeps_the_elements_it_does_not_write_exactly():
    """The result was merged with ``out`` before the cast to ``out``'s dtype, so an int64
    beyond 2**53 where ``where`` is False went through float64 and came back rounded."""
    assert_matches_eager(
        add_where_into_int64, np.array([0.0, 2.0, 3.0]), np.full(3, 2**60 + 1, dtype=np.int64)
    )
