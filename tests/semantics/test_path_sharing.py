"""Memory sharing of results that depends on the path taken: an argument returned on some paths
and a new array on others, a view of one, results made in Python that view each other. Each
function is compared with its eager run on values, dtypes, which results are (``is``) or share
memory with which arguments and with each other, and the arguments afterwards, also after
writing into every result (a write through a shared result must reach the caller's array)."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest
from eager_oracle import same

import tograph as tg


def _arrays(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for item in value for a in _arrays(item)]
    if isinstance(value, dict):
        return [a for item in value.values() for a in _arrays(item)]
    return []


def _run(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The result, the arguments after the call, the sharing facts, and the arguments after
    each writeable result array is written (``+= 1``)."""
    copies = copy.deepcopy(args)
    result = fn(*copies)
    after = copy.deepcopy(copies)
    results, arguments = _arrays(result), _arrays(copies)
    facts = [
        (a is b, np.shares_memory(a, b))
        for i, a in enumerate(results)
        for b in results[i + 1 :] + arguments
    ]
    for array in results:
        if array.flags.writeable and array.dtype != bool:
            array += 1
    return result, after, facts, copy.deepcopy(copies)


def assert_sharing_matches_eager(fn: Any, *args: Any) -> None:
    """``tg.to_static(fn)`` compiles and matches ``fn`` on values, sharing and arguments, on the
    call that traces and on the next, which takes the fast path of a call seen before."""
    eager = _run(fn, args)
    static = tg.to_static(fn)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("error", tg.FallbackWarning)
            compiled = _run(static, args)
        assert same(eager[0], compiled[0]), f"eager gave {eager[0]!r}, compiled {compiled[0]!r}"
        assert same(eager[1], compiled[1]), f"arguments: eager {eager[1]!r}, got {compiled[1]!r}"
        assert eager[2] == compiled[2], f"(is, shares memory): eager {eager[2]}, got {compiled[2]}"
        assert same(eager[3], compiled[3]), "a write into the results reached other arrays"


def argument_or_double(x):
    if x.sum() > 0:
        return x
    return x * 2


def view_or_double(x):
    if x.sum() > 0:
        r = x[1:]
    else:
        r = x * 2
    return r


def argument_or_its_copy(x):
    # the copy is elided in the graph (the same value): it must still come back a copy
    if x.sum() > 0:
        r = x
    else:
        r = x.copy()
    return r, x.copy()


def view_after_the_if(x):
    if x.sum() > 0:
        r = x
    else:
        r = x * 2
    return r[::-1], r


def nested_ifs(x):
    if x[0] <= 1.5:
        if x[1] < 0:
            return x - 2.25
    return x


def zero_d_argument_or_new(x, z):
    if x[0] < 0:
        return x, z
    return x, np.zeros(())


def loop_carry_from_an_argument(x, n):
    r = x
    i = 0
    while i < n:
        r = r * 2
        i += 1
    return r


def return_in_a_loop(x, n):
    i = 0
    while i < n:
        if x[i] > 1:
            return x, x, x[1:]
        i += 1
    return x, x, x + 1


def return_in_a_for_over_an_argument(x, d):
    for v in d["v"]:
        if v > 0:
            return d["v"][::-1], x
    return x * 2, x


def set_on_one_path(x, y):
    if x.max() > y[2]:
        v = y
        v *= 2
    return v[1:]


def nested_early_return_then_a_write(x, o):
    # the write happens only on the paths that did not return ``o``: no fallback needed
    if x.sum() > 0:
        if x[0] > 0:
            return x, o
    o[...] = 3
    return x, o


POSITIVE, NEGATIVE = np.array([1.0, 2.0, -0.5]), np.array([-1.0, -2.0, 0.5])


@pytest.mark.parametrize(
    "fn, args",
    [
        (argument_or_double, (POSITIVE,)),
        (argument_or_double, (NEGATIVE,)),
        (view_or_double, (POSITIVE,)),
        (view_or_double, (NEGATIVE,)),
        (argument_or_its_copy, (POSITIVE,)),
        (argument_or_its_copy, (NEGATIVE,)),
        (view_after_the_if, (POSITIVE,)),
        (view_after_the_if, (NEGATIVE,)),
        (nested_ifs, (POSITIVE,)),
        (nested_ifs, (np.array([1.0, -2.0, 0.5]),)),
        (zero_d_argument_or_new, (NEGATIVE, np.array(2.5))),
        (zero_d_argument_or_new, (POSITIVE, np.array(2.5))),
        (loop_carry_from_an_argument, (POSITIVE, np.int64(0))),
        (loop_carry_from_an_argument, (POSITIVE, np.int64(2))),
        (return_in_a_loop, (POSITIVE, np.int64(3))),
        (return_in_a_loop, (POSITIVE, np.int64(1))),
        (return_in_a_for_over_an_argument, (POSITIVE, {"v": np.array([-1.0, 2.0])})),
        (return_in_a_for_over_an_argument, (POSITIVE, {"v": np.array([-1.0, -2.0])})),
        (set_on_one_path, (POSITIVE, np.array([1, 2, 0]))),
        (nested_early_return_then_a_write, (POSITIVE, np.ones(2))),
        (nested_early_return_then_a_write, (NEGATIVE, np.ones(2))),
    ],
    ids=lambda c: getattr(c, "__name__", ""),
)
def test_an_argument_on_some_paths_comes_back_as_eager(fn, args):
    assert_sharing_matches_eager(fn, *args)


def view_of_a_value_that_is_an_argument_on_some_paths(x):
    if x[0] > 0:
        r = x
    else:
        r = x * 2
    if x[1] > 0:
        s = r[1:]
    else:
        s = x * 3
    return s


def test_a_view_of_a_path_dependent_array_taken_in_a_branch_falls_back():
    for x in (POSITIVE, NEGATIVE):
        static = tg.to_static(view_of_a_value_that_is_an_argument_on_some_paths)
        with pytest.warns(
            tg.FallbackWarning, match=r"test_path_sharing.py:\d+\) \[construct: path-dependent view"
        ):
            result = static(x)
        eager = view_of_a_value_that_is_an_argument_on_some_paths(x)
        assert same(result, eager) and np.shares_memory(result, x) == np.shares_memory(eager, x)


def view_of_an_array_made_in_python(x):
    a = np.zeros(4).reshape(2, 2)
    return a, 2.25, a.ravel(), a, a[1]


@pytest.mark.parametrize("fn", [view_of_an_array_made_in_python])
def test_results_made_in_python_share_memory_as_eager(fn):
    assert_sharing_matches_eager(fn, np.arange(3.0))


def one_sided_alias_then_written(x, k):
    if x[k % 4] <= 0:
        v = x
    v.fill(np.sum(v))
    return x


@pytest.mark.parametrize("first", [-2.0, 2.0])
def test_a_write_through_an_alias_bound_on_one_path_only_falls_back(first):
    # fuzz seed 517: the write reached a copy, so the caller's array kept its values
    x = np.array([first, 1.5, -2.0, -3.0])
    static = tg.to_static(one_sided_alias_then_written)
    outcomes = []
    for fn in (one_sided_alias_then_written, static):
        a = x.copy()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result: Any = fn(a, 0)
            except UnboundLocalError as exc:
                result = type(exc)
        outcomes.append((result, a, [str(w.message) for w in caught]))
    (eager, eager_x, _), (compiled, compiled_x, fallbacks) = outcomes
    assert same(eager, compiled) and same(eager_x, compiled_x)
    assert any("'v'" in message and "test_path_sharing.py" in message for message in fallbacks)


def argument_or_tripled(w):
    if w.sum() > 0:
        return w
    return w * 3.0


@pytest.mark.parametrize("w", [2.0, -2.0])
def test_the_gradient_of_an_argument_returned_on_some_paths(w):
    grad = tg.grad(tg.to_static(argument_or_tripled))(np.array(w))
    step = 1e-6
    ahead, behind = argument_or_tripled(np.array(w + step)), argument_or_tripled(np.array(w - step))
    central = (ahead - behind) / (2 * step)
    np.testing.assert_allclose(grad, central, rtol=1e-6)


# ---- results that are different arrays in eager code ------------------------------------------


def copy_of_a_view_beside_the_view(x):
    """Fuzz seed 5950: the copy is elided in the graph, so both results viewed one buffer."""
    x = (x * 1)[::-1]
    return x[::2], x[:2].copy()[::-1]


def the_same_computation_twice(x):
    """Two arrays eager makes apart, which CSE makes one graph value."""
    a = x * 2
    b = x * 2
    return a, b


def one_array_returned_twice_and_a_view(x):
    a = x + 1
    return a, a, a[1:], a.copy()


def scalars_of_one_loop(x):
    """Two scalar results of one loop: kept apart only when they are arrays (a 0-d argument)."""
    n = 0
    while x > 1.0:
        x = x * 0.5
        n = n + 1
    return x, n, x


@pytest.mark.parametrize(
    "fn",
    [
        copy_of_a_view_beside_the_view,
        the_same_computation_twice,
        one_array_returned_twice_and_a_view,
    ],
)
def test_results_that_are_different_arrays_in_eager_code_share_no_memory(fn):
    assert_sharing_matches_eager(fn, np.array([-0.5, 1.5, -1.5, -1.5]))


def items_beside_two_views(x):
    """Every item of an array, which all view its memory in the graph, beside two arrays eager
    keeps apart (a sort of a list of items returns as many)."""
    y = (x * 1)[::-1]
    return [y[i] for i in range(len(y))], y[::2], y[:2].copy()[::-1]


def test_many_results_of_one_memory_are_kept_apart_as_one_group():
    """The results that may share one value's memory are one group, checked pairwise among its
    arrays only when the graph runs: n items made n * n / 2 pairs, checked on every call."""
    x = np.linspace(-1.0, 1.0, 40)
    assert_sharing_matches_eager(items_beside_two_views, x)
    cf = tg.to_static(items_beside_two_views).concrete(x)
    assert max(len(group) for group in cf._recipe.apart) > 2


@pytest.mark.parametrize("x", [np.float64(40.0), np.array(40.0), 40.0])
def test_scalar_results_of_one_loop_match_eager_on_every_call(x):
    assert_sharing_matches_eager(scalars_of_one_loop, x)


def views_of_an_array_made_a_constant(x, s, b):
    """Fuzz seed 5123: ``b``'s name held an argument, so ``np.zeros(3)`` is a graph constant; its
    two views are copied from one copy of it per call, and share memory as eager's do."""
    x[None][0:1] -= s
    x = b
    b = np.zeros(3)
    return b[..., None], b[::2]


def test_views_of_a_constant_returned_together_share_memory_as_eager():
    assert_sharing_matches_eager(
        views_of_an_array_made_a_constant,
        np.array([3.0, -3.0, 0.5, -2.0]),
        np.float64(2.5),
        np.array([True, False, True]),
    )


# ---- arrays the function makes, carried out of control flow as graph literals ------------------

GLOBAL_TABLE = np.arange(3.0)


def new_array_on_one_branch(x):
    """``np.zeros(3)`` is made while tracing and becomes a literal of the ``cond``: each call
    must hand over a new array, not the literal, which a write by the caller would change."""
    y = x * 2
    if y.sum() > 0:
        r = y
    else:
        r = np.zeros(3)
    return r


def new_array_before_a_loop_that_does_not_run(x, n):
    r = np.ones(2)
    i = 0
    while i < n:
        r = x[:2] * i
        i += 1
    return r


def global_array_on_one_branch(x):
    """A global array is handed over itself, as eager code does."""
    y = x * 2
    if y.sum() > 0:
        r = y
    else:
        r = GLOBAL_TABLE
    return r


@pytest.mark.parametrize(
    "fn, args",
    [
        (new_array_on_one_branch, (np.array([-1.0, 0.0, 0.0]),)),
        (new_array_on_one_branch, (np.array([1.0, 0.0, 0.0]),)),
        (new_array_before_a_loop_that_does_not_run, (np.arange(3.0), np.int64(0))),
        (new_array_before_a_loop_that_does_not_run, (np.arange(3.0), np.int64(2))),
        (zero_d_argument_or_new, (POSITIVE, np.array(2.5))),
    ],
)
def test_arrays_made_in_the_function_are_new_on_every_call(fn, args):
    """The caller writes into each result; the next call's result is as eager's."""
    static = tg.to_static(fn, fallback="error")
    for _ in range(3):
        eager, compiled = fn(*copy.deepcopy(args)), static(*copy.deepcopy(args))
        assert same(eager, compiled)
        for array in _arrays(compiled):
            array += 1


def test_a_global_array_on_one_branch_is_the_global_itself():
    static = tg.to_static(global_array_on_one_branch, fallback="error")
    x = np.array([-1.0, 0.0, 0.0])
    for _ in range(2):
        assert static(x) is global_array_on_one_branch(x) is GLOBAL_TABLE


# ---- results that are one array on some paths and two on others -------------------------------


def one_array_twice_or_a_view_and_its_base(x, y):
    """Fuzz seed 521: eager hands over ``b`` twice on one path, ``y[::2]`` and ``y`` on the
    other; the graph cannot tell the two apart per path, so this falls back."""
    b = x * 3
    if np.any(y > 0):
        return y[::2], y
    return b, b


def one_array_on_every_path(x, n):
    """One array twice on every path that returns: no fallback."""
    i = 0
    while i < n:
        if x[i] > 1:
            return x + 1, x[1:]
        i += 1
    return x * 2, x[1:]


@pytest.mark.parametrize(
    "fn, args",
    [
        (one_array_twice_or_a_view_and_its_base, (np.ones(2), np.array([-1.0, -2.0]))),
        (one_array_twice_or_a_view_and_its_base, (np.ones(2), np.array([1.0, 2.0]))),
    ],
)
def test_results_one_array_on_some_paths_only_run_eagerly(fn, args):
    eager = _run(fn, args)
    with pytest.warns(tg.FallbackWarning, match="one array"):
        compiled = _run(tg.to_static(fn), args)
    assert same(eager[0], compiled[0]) and eager[2] == compiled[2]


def test_results_sharing_alike_on_every_path_compile():
    assert_sharing_matches_eager(one_array_on_every_path, np.array([0.5, 2.0, 3.0]), np.int64(3))
    assert_sharing_matches_eager(one_array_on_every_path, np.array([0.5, 0.5]), np.int64(2))


def reshaped_slices(w, m):
    """Fuzz seed 40209: a slice of a C-contiguous array is C-contiguous when its strides say so,
    so reshaping or ravelling it is a view, as in NumPy, not a copy."""
    return w[1:].reshape(2, 1).ravel(), m[1].reshape(2, 2), m[1:, None].ravel(), m[:1, 1:3].ravel()


def test_reshapes_of_slices_share_memory_as_eager():
    assert_sharing_matches_eager(reshaped_slices, np.arange(3.0), np.arange(12.0).reshape(3, 4))


def transposed_reshaped_twice(x):
    return x.T.reshape(6, 1).ravel()


def test_a_reshape_of_a_reshape_of_an_unknown_layout_falls_back():
    """The first reshape of ``x.T`` (whose layout tracing does not know) may or may not share
    memory with ``x``; the second reshape inherited no such doubt, so the result came back a
    copy where eager's views ``x``."""
    x = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    with pytest.warns(tg.FallbackWarning, match="may or may not share memory"):
        result = tg.to_static(transposed_reshaped_twice)(x)
    assert np.shares_memory(result, x) == np.shares_memory(transposed_reshaped_twice(x), x)


class Holder:
    def __init__(self, w):
        self.w = w


def attribute_set_after_an_early_return(x, o):
    if x.sum() > 0:
        return 1.0
    o.w = x[1:]
    return 0.0


def attribute_set_in_a_tensor_loop(x, o):
    for v in x:
        if v > 5:
            o.w = x[:2]
    return 0.0


@pytest.mark.parametrize(
    "fn", [attribute_set_after_an_early_return, attribute_set_in_a_tensor_loop]
)
@pytest.mark.parametrize("x", [np.array([0.0, -1.0, -2.0]), np.array([0.0, 5.0, 10.0])])
def test_an_attribute_set_to_a_view_of_an_argument_on_some_paths_views_it(fn, x):
    """Fuzz seed 40672: an attribute bound in a tensor ``if`` or loop to a view of an argument
    was set to a copy, where eager's views the caller's array: an attribute carries an identity
    tag as a variable does."""
    eager_x, static_x = x.copy(), x.copy()
    eager_o, static_o = Holder(np.ones(2)), Holder(np.ones(2))
    assert fn(eager_x, eager_o) == tg.to_static(fn)(static_x, static_o)
    assert np.shares_memory(eager_o.w, eager_x) == np.shares_memory(static_o.w, static_x)
    np.testing.assert_array_equal(eager_o.w, static_o.w)


def view_pair_bound_in_a_branch(x, m):
    if m.sum() > 0:
        v = x * 2
        a, b = v, v[1:]
    else:
        a, b = x * 0, x[1:] * 0
    b[0] = 100.0  # reaches a where a and b are one array
    return a, b


def reshaped_pair_returned_from_a_branch(x, m):
    """Fuzz seed 70261."""
    if np.all(m >= 2.25):
        return np.zeros((2, 1)), np.zeros(1)
    v = x[::-1][[1, 3]]
    return v.reshape(2, 1), v[1:]


@pytest.mark.parametrize("fn", [view_pair_bound_in_a_branch, reshaped_pair_returned_from_a_branch])
@pytest.mark.parametrize("m", [np.ones(3), -np.ones(3)])
def test_two_variables_holding_one_array_made_in_a_branch_fall_back(fn, m):
    """The op's outputs are separate arrays: ``b[0] = 100`` after ``a, b = v, v[1:]`` in a
    tensor ``if`` left ``a`` unchanged, and returned together they shared no memory."""
    x = np.array([2.5, -1.0, -0.5, -3.0])
    with pytest.warns(tg.FallbackWarning, match="one array"):
        compiled = tg.to_static(fn)(x, m)
    eager = fn(x, m)
    assert same(eager, compiled)
    assert np.shares_memory(*eager) == np.shares_memory(*compiled)
