"""Regression tests for what the random-program tester (``tests/fuzz``) found: each function is
a shrunk program it generated, compared with its eager run (``eager_oracle``)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def any_and_all_methods(x):
    if (x < 2).all() or (x > 5).any():
        return x.any(), x.all(axis=0), (x > 0).all(keepdims=True)
    return x.any(), x.all(axis=0), (x > 1).all(keepdims=True)


def numpy_scalar_types_of_tensors(x, s, k):
    total = np.float64(s) + np.float32(k)
    if np.float64(x.sum()) > np.int64(s):
        total += np.int64(x[0])
    return total, np.float32(x), np.bool_(x), np.int64(k), np.complex128(s)


def numpy_scalar_type_of_an_array_of_its_dtype_is_the_array(x):
    same = np.float64(x)  # NumPy returns x itself
    same[0] = 7.0
    other = np.float32(x)  # a converted copy
    other[1] = -7.0
    return same


@pytest.mark.parametrize(
    "fn, args",
    [
        (any_and_all_methods, (np.array([[0.0, 1.0], [3.0, 0.5]]),)),
        (any_and_all_methods, (np.ones((2, 2)),)),
        (numpy_scalar_types_of_tensors, (np.arange(3.0), np.float32(1.5), np.int64(2))),
        (numpy_scalar_types_of_tensors, (-np.arange(3.0), 2.5, np.int64(0))),
        (numpy_scalar_type_of_an_array_of_its_dtype_is_the_array, (np.arange(3.0),)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_compiles_and_matches_eager(fn, args):
    assert_matches_eager(fn, *args)


def test_numpy_scalar_type_of_an_array_of_its_dtype_returns_the_callers_array():
    x = np.arange(3.0)
    result = tg.to_static(numpy_scalar_type_of_an_array_of_its_dtype_is_the_array)(x)
    assert result is x or np.shares_memory(result, x)
    np.testing.assert_array_equal(x, [7.0, 1.0, 2.0])


# A variable bound, in a tensor ``if`` or loop, to an array from before it (``r = x``) after the
# branch wrote that array in place: the branch's value of ``r`` is the written array.
def alias_bound_after_a_write_in_a_branch(y, k):
    x = y * 0
    if k > 0:
        x[0] += 5
        r = x
    else:
        r = y * 1
    return r


def alias_bound_after_a_write_in_a_loop(y, k):
    x = y * 0
    r = y * 1
    i = 0
    while i < k:
        x[i] = 7
        r = x
        i += 1
    return r.sum()


# ``r`` is ``x`` (or a view of it) on one path only: a later write to ``x`` would reach ``r`` on
# that path only, so the write makes the function fall back (a copy would miss it).
def path_alias_then_write_to_the_array(y, k):
    x = y * 0
    if k > 0:
        r = x
    else:
        r = y
    x[0] = 5
    return r


def path_view_then_write_to_the_array(y, k):
    x = y * 0
    x[1] = 1
    if k > 0:
        r = x[1:]
    else:
        r = y[1:]
    x[2] = 5
    return r


def path_alias_then_write_through_it(y, k):
    x = y * 0
    if k > 0:
        r = x
    else:
        r = y * 1
    r[0] = 5
    return x


def rebound_on_one_path_then_write_to_the_old_array(y, k):
    x = y * 1
    r = x
    if k > 0:
        r = r * 2
    x[0] = 5
    return r


# Returned beside the array it is on one path only: the results' memory sharing would depend
# on the path taken. (An argument returned on one path is a copy: a limit the README names.)
def path_alias_returned_beside_it(y, k):
    x = y * 2
    if k > 0:
        r = x
    else:
        r = y * 3
    return r, x


@pytest.mark.parametrize(
    "fn", [alias_bound_after_a_write_in_a_branch, alias_bound_after_a_write_in_a_loop]
)
@pytest.mark.parametrize("k", [0, 2])
def test_an_alias_bound_after_a_write_reads_the_written_array(fn, k):
    assert_matches_eager(fn, np.array([0, 2, 2]), np.int64(k))


@pytest.mark.parametrize(
    "fn",
    [
        path_alias_then_write_to_the_array,
        path_view_then_write_to_the_array,
        path_alias_then_write_through_it,
        rebound_on_one_path_then_write_to_the_old_array,
        path_alias_returned_beside_it,
    ],
)
@pytest.mark.parametrize("k", [0, 2])
def test_an_array_that_is_another_on_some_paths_only_falls_back(fn, k):
    cf = assert_matches_eager(fn, np.array([0, 2, 2]), np.int64(k), compiles=False)
    assert "on some paths" in cf.fallback


def test_the_same_function_in_two_files_falls_back_naming_its_own_file(tmp_path):
    source = "def f(x):\n    with open(x):\n        pass\n"
    reasons = []
    for name in ("first.py", "second.py"):
        path = tmp_path / name
        path.write_text(source)
        namespace = {}
        exec(compile(source, str(path), "exec"), namespace)
        static = tg.to_static(namespace["f"])
        with pytest.warns(tg.FallbackWarning), pytest.raises(FileNotFoundError):
            static(str(tmp_path / "missing"))
        reasons.append(static.concrete_functions[0].fallback)
    assert "first.py:2" in reasons[0]
    assert "second.py:2" in reasons[1]


# Python's min and max return one of their arguments: of a Python float and a NumPy scalar, or of
# NumPy scalars of two dtypes, the result's type is that of the one that wins.
def max_of_two_dtypes(x, s):
    return max(x.min(), s)


def min_of_a_python_float_and_a_numpy_scalar(x, s):
    return min(-1.5, s * x.sum())


@pytest.mark.parametrize(
    "fn, args",
    [
        (max_of_two_dtypes, (np.array([0.5, -0.5]), np.float32(0.0))),
        (max_of_two_dtypes, (np.array([0.5, -0.5]), np.float32(-1.0))),
        (min_of_a_python_float_and_a_numpy_scalar, (np.array([0.5, -0.5]), np.float64(3.0))),
        (min_of_a_python_float_and_a_numpy_scalar, (np.array([4.0, 0.5]), np.float64(-3.0))),
    ],
)
def test_min_max_of_numbers_of_different_types_are_the_winner_of_its_type(fn, args):
    assert_matches_eager(fn, *args)


def max_of_a_numpy_scalar_and_a_tensor_of_its_type(x):
    return max(np.float64(0.5), x.sum()), min(x.max(), np.float64(2.0))


def test_min_max_of_a_numpy_scalar_and_a_tensor_of_its_type_compile():
    assert_matches_eager(max_of_a_numpy_scalar_and_a_tensor_of_its_type, np.array([0.25, -1.0]))


# A loop over an array's rows that writes the array: reading a row made the array a view base
# while the body was traced, which had made the array look rebound (and its writes lost).
def write_the_array_a_loop_iterates(m, v):
    for row in m:
        m[m > 0] = v
    return m


def update_the_array_a_loop_enumerates(m, v):
    for j, row in enumerate(m):
        m[j, 0] += v + row[1]


@pytest.mark.parametrize(
    "fn", [write_the_array_a_loop_iterates, update_the_array_a_loop_enumerates]
)
def test_a_loop_over_an_array_that_writes_it(fn):
    assert_matches_eager(fn, np.array([[1.0, -2.0], [3.0, 4.0]]), np.float32(7.0))


# A copy of an argument that is then written in place: the graph's output for the copy is the
# argument's input, which the write-back changed before the result was made.
def copy_of_an_argument_then_written(y):
    c = y.copy()
    y[1:3] = 0
    return c


def copy_of_an_argument_stored_in_a_dict_then_written(y, d):
    d["v"] = y.copy()
    y[1:3] = 0


def copy_of_an_argument_appended_then_written(y, lst):
    lst.append(y.copy())
    y[0] = 0


@pytest.mark.parametrize(
    "fn, args",
    [
        (copy_of_an_argument_then_written, ()),
        (copy_of_an_argument_stored_in_a_dict_then_written, ({"v": np.ones(2)},)),
        (copy_of_an_argument_appended_then_written, ([1.0],)),
    ],
)
def test_a_copy_of_an_argument_keeps_its_value_from_before_a_write(fn, args):
    assert_matches_eager(fn, np.array([2.0, -2.0, -1.5]), *args)


# A copy made and written in a loop body is the body's own array: it had been taken for an array
# from outside the loop (a copy shares its source's graph value), a new one on every trace, and
# tracing the loop never ended.
def copy_written_in_a_loop_body(x, b, k):
    c = 0
    while c < 3 and np.any(b > -1.5):
        c += 1
        v = b.copy()
        v[::-1][1] = x[k]
    return c


def test_a_copy_written_in_a_loop_body_compiles():
    assert_matches_eager(copy_written_in_a_loop_body, np.arange(4.0), np.array([2.0, 3.0, -2.5]), 1)


def argument_bound_on_one_path_then_filled(x, k):
    if x[k % 4] <= -2.0:
        v = x
    v.fill(np.sum(v))
    return x


def argument_bound_in_one_branch_then_divided(x, k):
    if x[k % 4] > 0:
        pass
    else:
        v = x
    v[0:2] /= 4.0


@pytest.mark.parametrize(
    "fn", [argument_bound_on_one_path_then_filled, argument_bound_in_one_branch_then_divided]
)
@pytest.mark.parametrize("k", [3, 1])
def test_an_argument_bound_on_one_path_only_and_written_falls_back(fn, k):
    """``v = x`` on one path (``v`` unset on the other) then ``v.fill(...)`` wrote a copy, not
    ``x`` (fuzz seeds 517, 600): the optional's value escaped the path-alias check."""
    x = np.array([-2.0, 1.5, -2.0, -3.0])
    cf = assert_matches_eager(fn, x, k, compiles=False)
    assert "on some paths and another array on others" in str(cf.fallback)


def return_in_a_tensor_loop_else_raises(v, d):
    c = 0
    while c < 3 and np.any(v > 0.5):
        if 0 >= d["a"]:
            return
    else:
        raise ValueError("e1")


def test_a_return_value_no_path_assigns_falls_back_naming_the_def_line():
    """A tensor loop whose ``return`` sits under a static false test, and whose ``else`` raises:
    no path returns, and the fallback named no line (fuzz seed 20710)."""
    v = np.array([-1.0, -3.0])
    cf = assert_matches_eager(return_in_a_tensor_loop_else_raises, v, {"a": 2.5}, compiles=False)
    line = return_in_a_tensor_loop_else_raises.__code__.co_firstlineno
    assert "'retval'" in str(cf.fallback) and f"test_fuzz_findings.py:{line}" in str(cf.fallback)


# A variable that is, after a tensor ``if`` or loop, the array it held before on some paths
# (``a`` on the zero-trip path is ``b``): eager returns one object twice there.
def one_array_two_names_around_a_loop(x):
    a = b = x * 2
    while np.sum(a) < 3:
        a = a + 1
    return a, b


def one_array_two_names_around_an_if(x):
    a = b = x * 2
    if np.sum(a) < 3:
        a = a + 1
    return a, b[1:]


def argument_around_a_loop(x):
    a = x
    while np.sum(a) < 3:
        a = a + 1
    return a, x


@pytest.mark.parametrize("x", [np.array([5.0, 1.0]), np.array([0.0, 0.0])])
@pytest.mark.parametrize(
    "fn", [one_array_two_names_around_a_loop, one_array_two_names_around_an_if]
)
def test_an_array_returned_beside_its_other_name_on_some_paths_falls_back(fn, x):
    eager = fn(x.copy())
    compiled = tg.to_static(fn)
    with pytest.warns(tg.FallbackWarning, match="may or may not share memory"):
        result = compiled(x.copy())
    assert np.shares_memory(*result) == np.shares_memory(*eager)
    assert_matches_eager(fn, x, compiles=False)


@pytest.mark.parametrize("x", [np.array([5.0, 1.0]), np.array([0.0, 0.0])])
def test_an_argument_returned_beside_its_loop_variable_still_compiles(x):
    cf = assert_matches_eager(argument_around_a_loop, x)
    a, same = tg.to_static(argument_around_a_loop)(x)
    assert np.shares_memory(a, same) == (float(np.sum(x)) >= 3)
    assert cf.fallback is None


# ``np.array(scalar)`` is a 0-d array; ``y[None]`` a view of it (fuzz seed 20400). The graph holds
# the 0-d value as a NumPy scalar, whose view would be a copy.
def view_of_a_0d_array_beside_it(v, a):
    y = np.array((v * a).sum())
    y *= 2
    return y, y[None]


def test_a_view_of_a_0d_array_returned_beside_it_falls_back():
    args = (np.array([-2.0, -1.5]), -1.0)
    eager = view_of_a_0d_array_beside_it(*args)
    with pytest.warns(tg.FallbackWarning, match="view of a 0-d array"):
        result = tg.to_static(view_of_a_0d_array_beside_it)(*args)
    assert np.shares_memory(*eager) and np.shares_memory(*result)
    assert_matches_eager(view_of_a_0d_array_beside_it, *args, compiles=False)


# ``np.copyto`` of a Python number casts under ``same_kind`` as NumPy 2 does: an int into a bool
# array, a float into an int array, refused (fuzz seed 20687: the graph wrote them).
def copy_a_number_into(a, n, x):
    if x[0] > 0:
        np.copyto(a, n)
    return a


@pytest.mark.parametrize(
    "a, n",
    [
        (np.ones(3, bool), 2),
        (np.zeros(2, np.int64), 2.5),
        (np.zeros(2, np.int8), 300),
        (np.zeros(2, np.int64), True),
        (np.zeros(2, np.float32), 3),
    ],
)
def test_copyto_of_a_python_number_casts_as_numpy_does(a, n):
    assert_matches_eager(copy_a_number_into, a, n, np.ones(2))


# A value never used whose computation raises in eager code: dead code elimination dropped it,
# so the compiled function did not raise (fuzz seed 20388: ``x`` rebound in a loop over an array
# has a run-time length, and its unused item was out of range).
def unused_item_of_a_loop_variable(x, v):
    for _ in x:
        x = v // 3
    y = x[5]  # noqa: F841 - unused, and out of range


def unused_item_at_a_tensor_index(x, k):
    y = x[k]  # noqa: F841
    return 0


def unused_reshape_of_run_time_size(x, v):
    n = int(np.sum(v > 0))
    y = x.reshape(n, -1)  # noqa: F841
    return 0


def unused_inverse(m):
    y = np.linalg.inv(m)  # noqa: F841
    return 0


def unused_python_int_of_an_item(x):
    i = int(x[0])  # noqa: F841 - inf and nan are refused (fuzz seed 90396)
    return 1


@pytest.mark.parametrize(
    "fn, args",
    [
        (unused_item_of_a_loop_variable, (np.ones(4), np.ones(2))),
        (unused_item_of_a_loop_variable, (np.ones(4), np.ones(6))),
        (unused_item_at_a_tensor_index, (np.ones(4), np.int64(7))),
        (unused_item_at_a_tensor_index, (np.ones(4), np.int64(-4))),
        (unused_reshape_of_run_time_size, (np.ones(5), np.ones(2))),
        (unused_reshape_of_run_time_size, (np.ones(6), np.ones(2))),
        (unused_inverse, (np.ones((2, 2)),)),
        (unused_inverse, (np.eye(2),)),
        (unused_python_int_of_an_item, (np.array([np.inf]),)),
        (unused_python_int_of_an_item, (np.array([np.nan]),)),
        (unused_python_int_of_an_item, (np.array([2.5]),)),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_unused_values_that_raise_still_raise(fn, args):
    assert_matches_eager(fn, *args)


# ``out=`` of a ufunc whose operands are all known while tracing (``np.zeros_like`` of an
# argument, a Python number): NumPy computed a plain array, which tracing could not assign
# (fuzz seeds 20322, 20418: 'tracing raised AttributeError').
def ufunc_of_known_operands_into_an_argument(x, w):
    np.add(np.sort(np.zeros_like(w)), 3, out=w)
    np.multiply(np.ones(3), 2.5, out=x)
    return x, w


def test_a_ufunc_of_known_operands_writes_its_out_argument():
    assert_matches_eager(ufunc_of_known_operands_into_an_argument, np.ones(3), np.ones(3))


# A 0-d array made while tracing (``np.zeros(())``, a NumPy array) joined by a tensor ``if`` or
# loop with a 0-d array computed in the graph (``np.array(m.min())``): the result came back as a
# NumPy scalar on the path that computed it (fuzz seed 80041).
def zero_d_arrays_from_two_branches(x, m):
    if x.max() > 0:
        return np.array(m.min())
    return np.zeros((), dtype=np.float64)


def zero_d_array_rebound_in_a_loop(x, m):
    r = np.full((), 2.0)
    i = 0
    while i < 2 and x[i] > 0:
        r = np.array(m.min())
        i += 1
    return r


@pytest.mark.parametrize("x", [np.array([1.0, -1.0]), np.array([-1.0, -2.0])])
@pytest.mark.parametrize("fn", [zero_d_arrays_from_two_branches, zero_d_array_rebound_in_a_loop])
def test_0d_arrays_joined_with_a_0d_array_made_while_tracing_stay_arrays(fn, x):
    assert_matches_eager(fn, x, np.arange(4.0).reshape(2, 2))


def _returns_one_array_twice_from_a_loop(x, k):
    c = 0
    while c < 3 and np.argmax(x) != k:
        v = x > 1
        return v, v
    return x > 0, np.zeros(4, bool)


def _returns_one_array_twice_from_an_if_in_a_loop(x, k):
    i = 0
    while i < len(x):
        if x[i] > k:
            v = x * 2
            return v, v
        i += 1
    return x, x + 1


@pytest.mark.parametrize(
    "fn", [_returns_one_array_twice_from_a_loop, _returns_one_array_twice_from_an_if_in_a_loop]
)
@pytest.mark.parametrize("k", [0, 2])
def test_results_one_array_on_some_paths_through_nested_control_flow_fall_back(fn, k):
    """Seed 90325: one array returned twice from inside a loop, two on the path past it; an
    earlier if or loop's 'one array on some paths only' carries on through later merges."""
    x = np.array([2, 1.5, -2, -3])
    cf = assert_matches_eager(fn, x, np.int64(k), compiles=False)
    assert "retval" in cf.fallback or "return value" in cf.fallback


def _prints_containers_of_tensors(x, k):
    v = x.sum()
    print("p", [v], (v,), sep="; ", end="!\n")
    print((x[0], [k + 1, {"a": v}]), f"{[v, k]} {(v,)!r}")
    if v > 0:
        print("in", [v * 2, x[:2]])
    return v


@pytest.mark.parametrize("k", [3, np.int64(3)])
def test_a_list_tuple_or_dict_of_tensors_prints_its_items_reprs(capsys, k):
    """Seed 45: print("p", [v]) printed the tracer's repr of ``v`` instead of np.float64(3.0)."""
    x = np.array([1.0, 2.0])
    _prints_containers_of_tensors(x, k)
    eager = capsys.readouterr().out
    assert_matches_eager(_prints_containers_of_tensors, x, k)
    assert capsys.readouterr().out == eager * 2  # the oracle's eager run, then the compiled one
    assert "np.float64(3.0)" in eager


def _prints_0d_arrays(x):
    a = np.array(x.sum())
    print(f"p7 {a!r} {a:.2f}", [a, x[0]], (np.asarray(x[1]),))
    return a


def test_a_0d_array_prints_as_an_array(capsys):
    """Seed 996: ``f"{np.array(s)!r}"`` printed ``np.float64(7.5)`` where eager prints
    ``array(7.5)``: the graph may hold a 0-d array as a NumPy scalar."""
    x = np.array([1.5, 2.0])
    _prints_0d_arrays(x)
    eager = capsys.readouterr().out
    assert_matches_eager(_prints_0d_arrays, x)
    assert capsys.readouterr().out == eager * 2
    assert "array(3.5)" in eager


class _Counter:
    def __init__(self, n):
        self.n = n


def _unused_python_division(x, o):
    while x.min() <= 0:
        for i in range(o.n % 4, -1, -1):
            if np.int64(i) > np.count_nonzero(x > 0):
                pass
            else:
                unused = i // o.n
            return unused if x.size > 9 else None


@pytest.mark.parametrize("n", [0, 1])
def test_an_unused_python_division_by_zero_still_raises(n):
    """Seed 627: ``i // o.n`` of Python ints, unused, was removed as dead code, so the
    ZeroDivisionError eager raises for ``o.n == 0`` never came (NumPy would only warn)."""
    assert_matches_eager(_unused_python_division, -np.ones(2), _Counter(n))


def _writes_into_tuple_items(x, ts):
    ts[1][1:] /= ts[1][:-1]
    if x.sum() > 0:
        ts[0][::2][1:] += x[0]
    return x[0]


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_in_place_writes_into_the_arrays_of_a_tuple_argument_compile(sign):
    """``ts[1][1:] /= ...`` wrote ``ts[1]`` back into the tuple, which raised TypeError while
    tracing (the write had reached the array already) and fell back."""
    ts = (np.ones(3), np.arange(1.0, 5.0).reshape(2, 2))
    assert_matches_eager(_writes_into_tuple_items, sign * np.ones(2), ts)


def _array_of_a_number_whose_dtype_depends_on_the_path(x, s):
    c = 0
    while c < 3 and x.sum() > 10:
        c += 1
        s += x.argmin()  # an np.float32 plus an np.int64 is an np.float64
    return np.asarray(s), np.array([s])


@pytest.mark.parametrize("scale", [1.0, 5.0])
def test_np_array_of_a_number_whose_dtype_depends_on_the_path_falls_back(scale):
    """Seed 21: np.asarray(s) was float64 on the path where ``s`` stays an np.float32."""
    args = (scale * np.ones(3), np.float32(2.5))
    cf = assert_matches_eager(
        _array_of_a_number_whose_dtype_depends_on_the_path, *args, compiles=False
    )
    assert "np.array of a number whose dtype depends on the path" in cf.fallback


def _unused_item_in_a_branch(x, k):
    if x.sum() > 0:
        v = x[k]  # noqa: F841 - unused, but eager raises IndexError here
    return x.sum()


@pytest.mark.parametrize("k", [1, 5])
def test_an_unused_item_read_in_a_tensor_if_raises_as_eager_does(k):
    """Dead code elimination dropped the whole cond, so x[5] did not raise IndexError."""
    assert_matches_eager(_unused_item_in_a_branch, np.ones(3), np.int64(k))


def _ufunc_into_a_numpy_scalar(x, n):
    z = np.array(x.sum()) + n  # a 0-d array plus a number is a NumPy scalar
    np.add(z, 1, out=z)
    return z


def _augmented_numpy_scalar(x, n):
    z = np.array(x.sum()) + n
    z += 1  # binds a new scalar
    return z


@pytest.mark.parametrize("n", [2, np.int64(2)])
def test_out_of_a_numpy_scalar_raises_as_numpy_does(n):
    """Seed 100257: np.add(z, 1, out=z) of a NumPy scalar ``z`` raises TypeError eagerly; the
    graph bound the sum instead (it raises while tracing now, so the function runs eagerly)."""
    assert_matches_eager(_ufunc_into_a_numpy_scalar, np.ones(3), n, compiles=False)
    assert_matches_eager(_augmented_numpy_scalar, np.ones(3), n)


class _Holder:
    def __init__(self, w):
        self.w = w


def _attribute_rebound_on_one_path_then_written(x, o):
    if x[0] > 0:
        o.w = x * 2
    o.w[1:] = o.w[1:][::-1]
    return o.w


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_an_attribute_rebound_on_some_paths_then_written_falls_back(sign):
    """Seed 100242: on the path that kept the caller's array, the write into o.w was lost (the
    attribute's identity tag handed back the caller's array, unwritten)."""
    x, o = sign * np.array([1.0, 1.0, 0.0]), _Holder(np.array([-2.0, 0.5, 0.0]))
    cf = assert_matches_eager(_attribute_rebound_on_one_path_then_written, x, o, compiles=False)
    assert "'o.w' is the same array as before on some paths" in cf.fallback


def _written_through_a_view_then_returned_beside_its_base(x):
    y = x * 2
    v = y[:2]
    v[:1] = v[1:]
    return y, v[1:]


def test_a_view_written_through_stays_a_view_of_its_base():
    """Seed 200154: after a write through ``v``, ``v[1:]`` came back a copy, sharing no memory
    with ``y`` as eager's does (the view took the written value instead of its base's view)."""
    x = np.array([-1.0, -0.5, -3.0, -1.5])
    assert_matches_eager(_written_through_a_view_then_returned_beside_its_base, x)
    y, tail = tg.to_static(_written_through_a_view_then_returned_beside_its_base)(x)
    assert np.shares_memory(y, tail)


def view_brought_up_to_date_by_a_while_condition(y, b):
    v = np.floor_divide(y, -3)[::2][1:]
    v[np.array([0, 0, 0])] *= b.argmin()
    count = 0
    while count < 3 and np.any(v * 2 > count):
        count += 1
    return v + 1, count


@pytest.mark.parametrize("b", [np.array([True, False, True]), np.array([False, True, True])])
def test_a_view_a_while_condition_read_first_keeps_its_value_after_the_loop(b):
    """The condition's first evaluation (retracted: the loop repeats it) brought the written
    view up to date; its value, read after the loop, must stay in the graph (seed 74)."""
    y = np.array([-7.0, 2.0, 9.0])
    assert_matches_eager(view_brought_up_to_date_by_a_while_condition, y, b)


def reductions_into_arguments(m, y, z, x):
    r = np.sum(m, axis=0, out=y)
    np.max(m, axis=-1, out=x)
    np.mean(x, out=z)
    np.cumsum(y, out=y)
    m.min(axis=1, out=x[::-1])
    return r is y, r, np.prod(m[:, :2], axis=1, keepdims=True, out=m[:, 2:])


def reduction_into_another_dtype(m, y):
    np.sum(m, axis=0, out=y)
    return y


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reductions_into_out_arrays_compile_and_write_them(dtype):
    """A reduction writing ``out=`` of its result's dtype and shape compiles (fuzz seeds with
    ``np.sum(..., out=t)`` fell back); the result is ``out`` itself, as in NumPy."""
    m = (np.arange(12.0).reshape(4, 3) - 5).astype(dtype)
    args = (m, np.zeros(3, dtype), np.array(0.0, dtype), np.zeros(4, dtype))
    assert_matches_eager(reductions_into_arguments, *args)


def test_a_reduction_into_another_dtype_falls_back():
    """NumPy reduces into the dtype of ``out`` (rounding as it goes): not the graph's result."""
    m, y = np.arange(12.0).reshape(4, 3) / 7, np.zeros(3, np.float32)
    cf = assert_matches_eager(reduction_into_another_dtype, m, y, compiles=False)
    assert "out=" in cf.fallback


def unused_where_of_unknown_length(v0, q):
    q = np.where(np.unique(v0) > 0, np.unique(v0), q + 1)
    return v0.sum()


def test_an_unused_elementwise_op_on_run_time_lengths_still_raises_when_they_differ():
    """Fuzz seed 721 (default features): the unused ``where`` of ``np.unique``'s length and a
    length-4 array was removed as dead code, so eager's broadcast error never came."""
    for v0 in (np.array([1.0, 2.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0, 4.0])):
        assert_matches_eager(unused_where_of_unknown_length, v0, np.ones(4), compiles=False)
