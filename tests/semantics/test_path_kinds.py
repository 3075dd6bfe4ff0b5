"""Kinds and dtypes that depend on the path taken, under to_static: a scalar variable that is a
Python number on one path of tensor control flow and a NumPy scalar on another (or of two Python
types, or two dtypes) comes back as the eager run gives it on the path taken (a kind tag carried
beside it), a weak Python int joined with
``int32`` stays ``int32`` (NEP 50), a ``float32`` carry stays ``float32``; what a graph cannot
carry (a rank that changes in a loop, a list item assigned in a loop over tensors) runs eagerly
with a reason. Each case is compared with its eager run."""

import contextlib
import inspect
import math
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg

POS = np.array([1.0, -2.0, 3.0])
NEG = np.array([-1.0, -2.0, -3.0])
BIG = np.array([200.0, 3.0, 1.0])
NEG32 = NEG.astype(np.float32)


def python_int_or_int32(x):
    r = 0
    if x.sum() > 100:
        r = np.int32(5)
    return r


def int32_or_python_int(x):
    r = np.int32(1)
    if x.sum() > 0:
        r = r + 1
    else:
        r = 7
    return r


def kind_set_in_a_loop(x):
    r = 0
    for v in x:
        if v > 100:
            r = np.int32(7)
    return r


def python_float_carry_added_to(x):
    t = 0.0
    for v in x:
        if v > 0:
            t = t + v
    return t


def kind_in_nested_loops(x):
    r = 0
    for v in x:
        for w in x:
            if v * w > 5:
                r = np.int64(1)
    return r


def kinds_in_containers(x):
    r = 0
    if x.sum() > 0:
        r = np.int64(3)
    return (r, [r], {"r": r})


def kind_in_a_while_with_and(x):
    n = 0
    r = 1.5
    while n < x.shape[0] and x[n] < 0:
        r = x[n]
        n += 1
    return r, n


def float32_carry(x):
    acc = 0.0
    for v in x:
        acc = acc + v * 0.5
    return acc


def int32_or_float64(x):
    r = np.int32(3)
    if x.sum() > 0:
        r = x[0] * 2
    return r


def python_int_or_python_float(x):
    r = 0
    for v in x:
        if v > 2:
            r = r + 0.5
    return r


def numpy_int_carry_made_float(x):
    r = np.int64(8)
    for v in x:
        if v > 2:
            r = r / 2
    return r


def python_float_or_float32(x):
    r = 0.1
    if x.sum() > 100:
        r = x[0]
    return r


def python_float_carry_or_float32(x):
    r = 0.1
    for v in x:
        if v > 2:
            r = v * 2
    return r


def early_return_of_a_python_constant_in_a_tuple(x):
    n = x.shape[0] - int(np.sum(x < 0))
    if n < 2:
        return x[0], float("nan")
    return x[0], x.sum() / (n - 1)


def tuple_whose_items_change_kind_in_a_branch(x):
    out = (x.sum(), 0, [0.5, 1])
    if x[0] > 0:
        out = (1.0, np.int64(x.shape[0]), [x[1], 2])
    return out


def computed_from_a_float_set_on_some_paths(x):
    t = 0.0
    for v in x:
        if v > 0:
            t = t + v
    return t * 2, t + 1.0, -t, abs(t), t > 1, t


def computed_from_an_int_set_in_a_branch(x):
    n = 0
    if x.sum() > 100:
        n = np.int32(5)
    return n + 1, n * 2.5, n // 2, float(n)


def budget_left(x):
    spent = 0.0
    for c in x:
        if spent + c <= 2.0:
            spent += c
    return 2.0 - spent


@pytest.mark.parametrize(
    "fn",
    [
        early_return_of_a_python_constant_in_a_tuple,
        tuple_whose_items_change_kind_in_a_branch,
        python_float_or_float32,
        python_float_carry_or_float32,
        int32_or_float64,
        python_int_or_python_float,
        numpy_int_carry_made_float,
        python_int_or_int32,
        int32_or_python_int,
        kind_set_in_a_loop,
        python_float_carry_added_to,
        kind_in_nested_loops,
        kinds_in_containers,
        kind_in_a_while_with_and,
        float32_carry,
    ],
)
@pytest.mark.parametrize("x", [POS, NEG, BIG, NEG32, BIG.astype(np.float32)])
def test_kind_by_path_matches_eager(fn, x):
    assert_matches_eager(fn, x)


@pytest.mark.parametrize("fn", [computed_from_a_float_set_on_some_paths, budget_left])
@pytest.mark.parametrize("x", [POS, NEG, BIG])
def test_a_float_accumulator_and_what_is_computed_from_it_follow_the_path(fn, x):
    assert_matches_eager(fn, x)


@pytest.mark.parametrize("fn", [computed_from_a_float_set_on_some_paths, budget_left])
@pytest.mark.parametrize("x", [NEG32, BIG.astype(np.float32)])
def test_a_float_accumulator_of_float32_items_runs_eagerly(fn, x):
    """A Python float on one path, a float32 on another: computed in float32, the Python
    float's path would round where eager does not."""
    cf = assert_matches_eager(fn, x, compiles=False)
    assert "would depend on the path taken" in cf.fallback


def test_a_weak_int_joined_with_int32_stays_int32():
    static = tg.to_static(int32_or_python_int)
    assert type(static(POS)) is np.int32 and static(POS) == 2
    assert type(static(NEG)) is int and static(NEG) == 7
    assert "i32" in str(static.concrete(POS).graph) and "i64" not in str(static.concrete(POS).graph)


def test_a_float32_carry_stays_float32():
    static = tg.to_static(float32_carry)
    assert type(static(NEG32)) is np.float32
    assert "f64" not in str(static.concrete(NEG32).graph)


def kind_not_returned(x):
    r = 0
    if x.sum() > 100:
        r = np.int32(5)
    return x * r


def test_the_kind_tag_is_dropped_where_it_is_not_returned():
    cf = assert_matches_eager(kind_not_returned, POS)
    (cond,) = [eqn for eqn in cf.graph.eqns if eqn.prim.name == "cond"]
    assert len(cond.outputs) == 1


def rank_changes_in_a_loop(x):
    y = x[0]
    while y.sum() < 10:
        y = np.stack([y, y])
    return y


def list_item_assigned_in_a_tensor_loop(x):
    hist = [0.0, 0.0]
    for v in x:
        hist[0] = hist[0] + v
        hist[1] = hist[1] + 1
    return hist


def numpy_scalar_made_from_a_tensor_counter(x, n):
    r = 0
    for k in range(n):
        r = np.int32(k)
    return r


@pytest.mark.parametrize("n", [np.int64(0), np.int64(3)])
def test_a_numpy_scalar_made_from_a_tensor_counter_keeps_its_kind(n):
    """``np.int32(k)`` of a tensor counter compiles; the result is ``0`` or ``np.int32``."""
    assert_matches_eager(numpy_scalar_made_from_a_tensor_counter, POS, n)


@pytest.mark.parametrize(
    "fn, args",
    [
        (rank_changes_in_a_loop, (POS,)),
        (list_item_assigned_in_a_tensor_loop, (POS,)),
        # n + 1 is computed in int32, the join: on the Python int's path eager's value has no
        # bound, so the kind rule refuses (staging.kind_rules)
        (computed_from_an_int_set_in_a_branch, (POS,)),
    ],
)
def test_what_a_graph_cannot_carry_runs_eagerly_with_a_reason(fn, args):
    cf = assert_matches_eager(fn, *args, compiles=False)
    assert cf.fallback


@pytest.mark.parametrize("n", [0, 3])
def test_a_numpy_scalar_made_from_a_tensor_counter_has_its_kind_by_path(n):
    """``np.int32(k)`` of a tensor is a NumPy scalar (tests/semantics/test_fuzz_findings.py)."""
    assert_matches_eager(numpy_scalar_made_from_a_tensor_counter, POS, np.int64(n))


def prints_a_kind_by_path(x):
    r = 0
    for v in x:
        if v > 2:
            r = r + 0.5
    print("r is", r, f"{x[0]}")
    return x


@pytest.mark.parametrize("x", [POS, NEG])
def test_print_shows_the_kind_of_the_path_taken(x, capsys):
    prints_a_kind_by_path(x)
    eager = capsys.readouterr().out
    static = tg.to_static(prints_a_kind_by_path)
    static(x)
    assert capsys.readouterr().out == eager
    assert static.concrete(x).fallback is None


def test_a_saved_graph_prints_the_kind_of_the_path_taken(tmp_path, capsys):
    static = tg.to_static(prints_a_kind_by_path)
    static(NEG)
    capsys.readouterr()
    tg.save(static, tmp_path / "prints.tograph")
    loaded = tg.load(tmp_path / "prints.tograph")
    loaded(NEG)
    prints_a_kind_by_path(NEG)
    shown, eager = capsys.readouterr().out.split("\n")[:2]
    assert shown == eager == f"r is 0 {NEG[0]}"


# ---- operations on a value whose kind depends on the path ---------------------------------


def python_float_or_float64_computed(x):
    y = 1.5
    if x[1] > 0:
        y = x[0]
    return y + 1, y * y, -y, abs(y), y < 2, y == 1.5, np.add(y, 1), float(y), y * x


def python_int_or_int64_compared(x):
    n = 2
    if x[1] > 0:
        n = np.int64(x.shape[0])
    return n - 1, n * 3, n >= 3, x[: n - 1]


@pytest.mark.parametrize("x", [POS, NEG])
def test_operations_that_keep_values_follow_the_kind_of_the_path(x):
    """A Python float and an np.float64 (or Python int and np.int64) give the same values, so
    ``y + 1`` is tagged: a Python number on one path, a NumPy scalar on the other, as eager."""
    assert_matches_eager(python_float_or_float64_computed, x)
    assert_matches_eager(python_int_or_int64_compared, x)


def python_int_or_float32_plus_one(x):
    y = x[0] if x[1] > 0 else 1
    z = y + 1
    return z


def point_one_or_float32_compared(x):
    y = 0.1 if x[1] > 0 else x[0]
    return y == 0.1


def python_float_or_float64_divided(x):
    y = 1.5
    if x[1] > 0:
        y = x[0]
    return y / 2


@pytest.mark.parametrize(
    "fn, line",
    [
        (python_int_or_float32_plus_one, "z = y + 1"),
        (point_one_or_float32_compared, "return y == 0.1"),
        (python_float_or_float64_divided, "return y / 2"),
    ],
)
@pytest.mark.parametrize("x", [POS.astype(np.float32), NEG32])
def test_an_operation_whose_result_depends_on_the_path_falls_back_naming_the_line(fn, line, x):
    """int + 1 is an int where float32 + 1 is a float32; 0.1 compares as a float32 on one path;
    a Python float divided on one path, a float32 on the other: run eagerly."""
    cf = assert_matches_eager(fn, x, compiles=False)
    assert "would depend on the path taken" in str(cf.fallback)
    lines, first = inspect.getsourcelines(fn)
    number = first + next(i for i, text in enumerate(lines) if line in text)
    assert f"test_path_kinds.py:{number})" in str(cf.fallback)


# ---- attributes and dict entries whose kind depends on the path ----------------------------


class Box:
    def __init__(self, n):
        self.n = n


def attribute_set_in_a_loop_that_may_not_run(x, box):
    while x.sum() > 10:
        box.n = x[0]
        x = x - 5
    return x


def attribute_counted_in_a_loop(x, box):
    for v in x:
        if v > 2:
            box.n = np.int32(7)
    return x


def dict_entry_set_in_a_loop_that_may_not_run(x):
    state = {"n": 0, "total": 0.5}
    while x.sum() > 10:
        state["n"] = x[0]
        x = x - 5
    return state


def tuple_item_set_in_a_loop(x):
    pair = (0, 1.5)
    for v in x:
        if v > 2:
            pair = (np.int64(3), pair[1])
    return pair


@pytest.mark.parametrize("x", [POS, BIG, NEG32])
def test_an_attribute_set_in_a_tensor_loop_keeps_its_kind_on_each_path(x):
    """``box.n`` stays the Python int it was where the loop runs no time (it became
    np.float64, fuzz seed 376)."""
    assert_matches_eager(attribute_set_in_a_loop_that_may_not_run, x, Box(2))
    assert_matches_eager(attribute_counted_in_a_loop, x, Box(2))


@pytest.mark.parametrize("x", [POS, BIG, NEG32])
def test_a_dict_entry_or_tuple_item_set_in_a_tensor_loop_keeps_its_kind(x):
    assert_matches_eager(dict_entry_set_in_a_loop_that_may_not_run, x)
    assert_matches_eager(tuple_item_set_in_a_loop, x)


# ---- a caller's dict changed after tensor control flow ------------------------------------


def dict_written_after_a_loop(x, d):
    while x.sum() > 10:
        x = x - d["step"]
        for _ in range(0):  # the body binds d (to itself)
            d["v"] = x
    d["n"] = x[0]
    return x


def dict_written_after_an_if(x, d):
    if x.sum() > d["step"]:
        x = x * 2
        for _ in range(0):
            d["v"] = x
    d["n"] += x.max()
    d["seen"] = d["step"]


def dict_rebound_in_one_branch(x, d):
    if x.sum() > 0:
        d = {"step": 1.0, "n": 0}
    d["n"] = 2


@pytest.mark.parametrize("x", [POS, BIG, NEG])
def test_a_callers_dict_changed_after_tensor_control_flow_is_changed(x):
    """A write into the caller's dict after an if or loop over tensors that read it was lost:
    the variable held a copy after the op (fuzz seeds 763, 986)."""
    assert_matches_eager(dict_written_after_a_loop, x, {"step": 5.0, "n": 0})
    assert_matches_eager(dict_written_after_an_if, x, {"step": 1.0, "n": 0})


def test_a_callers_dict_rebound_on_one_path_only_falls_back():
    cf = assert_matches_eager(
        dict_rebound_in_one_branch, POS, {"step": 1.0, "n": 0}, compiles=False
    )
    assert "the caller's list or dict on some paths" in str(cf.fallback)


# ---- a 0-d array on some paths ------------------------------------------------------------


def zero_d_array_or_python_float(x, z):
    v = z
    if x.sum() > 0:
        v = 1.5
    return v, v * 2, v < 1


def zero_d_array_divided_in_place_on_one_path(x, z):
    v = np.array(z)
    if x.sum() > 0:
        v /= 4
    return v


def zero_d_array_or_python_float_added_in_place(x, z):
    v = z
    if x.sum() > 0:
        v = 1.5
    v += 1
    return v


@pytest.mark.parametrize("x", [POS, NEG])
def test_a_0d_array_joined_with_a_number_comes_back_as_on_its_path(x):
    """A 0-d array on one path and a Python float (or a computed NumPy scalar) on the other
    came back as an np.float64 on every path (fuzz seed 311)."""
    assert_matches_eager(zero_d_array_or_python_float, x, np.array(0.5))
    assert_matches_eager(zero_d_array_divided_in_place_on_one_path, x, np.array(0.5))


def test_an_in_place_update_of_a_0d_array_on_some_paths_falls_back():
    cf = assert_matches_eager(
        zero_d_array_or_python_float_added_in_place, NEG, np.array(0.5), compiles=False
    )
    assert "0-d array on some paths" in str(cf.fallback)


def python_int_or_int64_divided_by_a_constant(x):
    n = 7
    if x[1] > 0:
        n = np.int64(x.shape[0])
    return n // 2, n % 3, -n // 4


def python_int_or_int64_divided_by_a_numpy_int(x, k):
    n = 7
    if x[1] > 0:
        n = np.int64(x.shape[0])
    return n // k  # an np.int64 on every path


@pytest.mark.parametrize("x", [POS, NEG])
def test_integer_division_by_a_constant_follows_the_kind_of_the_path(x):
    """n // 2 of a Python int is a Python int, of an np.int64 an np.int64 (it fell back)."""
    assert_matches_eager(python_int_or_int64_divided_by_a_constant, x)
    assert_matches_eager(python_int_or_int64_divided_by_a_numpy_int, x, np.int64(2))


def set_on_one_path_then_another_kind_in_a_loop(x, lst):
    if x[0] <= 1:
        v = np.float64(x[1]) != np.float64(lst[0])
    while x.sum() > 10:
        v = lst[0]
        x = x - 5
    return v


@pytest.mark.parametrize("x", [np.array([-2.0, -0.5]), np.array([8.0, 7.0])])
def test_a_value_unset_on_some_paths_and_of_two_kinds_falls_back(x):
    """An np.bool_ set on one path, then a Python float in a loop that may run no time, came
    back as an np.float64 (fuzz seed 5951)."""
    cf = assert_matches_eager(set_on_one_path_then_another_kind_in_a_loop, x, [2.5], compiles=False)
    assert "is None or unset on some paths and a number of another kind" in str(cf.fallback)


def python_int_or_int64_divided(x):
    n = 0
    if x.sum() > 100:
        n = np.int64(3)
    return n / (len(x) - 3)


def python_float_or_float64_divided_by(x, d):
    t = 0.5
    if x.sum() > 100:
        t = x[0]
    return t / d


def mean_of_those_above(x, k):
    total = 0.0
    count = 0
    for v in x:
        if v > k:
            total = total + v
            count += 1
    return total / count


@pytest.mark.parametrize(
    "fn, args",
    [
        (python_int_or_int64_divided, (POS[:3],)),  # 0 / 0 of Python ints: ZeroDivisionError
        (python_int_or_int64_divided, (POS[:3] * 100,)),  # np.int64 / 0: inf and a warning
        (python_float_or_float64_divided_by, (POS, 0)),
        (python_float_or_float64_divided_by, (POS, 0.0)),
        (python_float_or_float64_divided_by, (POS, np.float64(0.0))),
        (python_float_or_float64_divided_by, (POS, 4)),
        (python_float_or_float64_divided_by, (POS * 100, 0)),
        (mean_of_those_above, (POS, 0.0)),
        (mean_of_those_above, (POS, 1e9)),  # no item above: 0.0 / 0 raises
    ],
)
def test_a_division_of_a_path_kinded_number_raises_where_python_does(fn, args):
    """Python raises ZeroDivisionError dividing Python numbers by zero where NumPy gives inf:
    the graph checks the kind tag and the divisor before it divides, and warns as eager does."""
    assert_matches_eager(fn, *args)
    with warnings.catch_warnings(record=True) as eager:
        warnings.simplefilter("always")
        with contextlib.suppress(ZeroDivisionError):
            fn(*args)
    with warnings.catch_warnings(record=True) as compiled:
        warnings.simplefilter("always")
        with contextlib.suppress(ZeroDivisionError):
            tg.to_static(fn)(*args)
    assert [str(w.message) for w in compiled] == [str(w.message) for w in eager]


def python_float_returned_early_beside_float32(x):
    for n in range(len(x)):
        c = math.cos(x[n])
        if c < 0.8:
            return c, n
        x = x + c
    return x[0], -1


def python_float_set_in_a_loop_over_float32(x):
    r = x[0]
    for v in x:
        if v > 0.2:
            r = math.cos(r) + v.item()
    return r


def python_int_beside_int8(x):
    r = x[0]
    if x[1] > 0:
        r = int(x[1]) * 1000
    return r


def python_float_beside_complex(x):
    r = float(x[0])
    if x[1] > 0:
        r = complex(x[1]) * 1j
    return r


@pytest.mark.parametrize(
    "fn, x",
    [
        (python_float_returned_early_beside_float32, np.array([0.5, 0.9], np.float32)),
        (python_float_returned_early_beside_float32, np.array([0.1, 0.2], np.float32)),
        (python_float_set_in_a_loop_over_float32, np.array([0.3, 0.1, 0.7], np.float32)),
        (python_int_beside_int8, np.array([3, 100], np.int8)),
        (python_int_beside_int8, np.array([3, -1], np.int8)),
        (python_float_beside_complex, np.array([0.5, 0.3])),
        (python_float_beside_complex, np.array([0.5, -0.3])),
    ],
)
def test_a_weak_number_computed_in_the_graph_is_joined_without_rounding(fn, x):
    """A Python number computed when the graph runs (math.cos of a float32, int() times a big
    int), joined with a narrower NumPy scalar, was carried in that scalar's dtype: rounded to
    float32, overflowing int8, or (joined with a complex) read back with a TypeError."""
    assert_matches_eager(fn, x)
