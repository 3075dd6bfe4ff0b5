"""Values that exist on some paths only, under to_static: a variable set on one side of an ``if``
on a tensor (or first set in a loop over tensors) compiles and raises ``UnboundLocalError`` when
the graph runs exactly where eager raises it; ``None`` on one path and a tensor on another is an
optional value, returned as ``None`` or the value and tested with ``is None`` when the graph runs;
other uses of such values, and values whose structure differs by path, run eagerly with a reason.
Each case is compared with its eager run (``eager_oracle``)."""

import inspect

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

POS = np.array([1.0, -2.0, 3.0])
NEG = np.array([-1.0, -2.0, -3.0])
UNBOUND = "cannot access local variable '{}' where it is not associated with a value"


def matches_eager(fn, *args, compiles=True):
    """``assert_matches_eager``, where an error raised when a graph runs need only be an instance
    of the eager error's class with the eager message in its own."""
    eager, _, _ = outcome(fn, args)
    if not isinstance(eager, Exception):
        return assert_matches_eager(fn, *args, compiles=compiles)
    static = tg.to_static(fn)
    compiled, _, fallbacks = outcome(static, args)
    assert isinstance(compiled, type(eager)), f"eager raised {eager!r}, compiled gave {compiled!r}"
    assert str(eager) in str(compiled)
    cf = static.concrete(*args)
    if compiles:
        assert not fallbacks and cf.fallback is None, f"fell back: {fallbacks or cf.fallback}"
    return cf


# ---- a variable set on one side of an if and read afterwards --------------------------------


def read_guarded_by_the_same_condition(x):
    if x.sum() > 0:
        y = x * 2
    if x.sum() > 0:
        return y + 1
    return x


def read_in_a_later_branch(x):
    if x[0] > 0:
        scale = x[0] * 3
    else:
        shift = x[1]
    if x[0] > 0:
        x = x * scale
    else:
        x = x - shift
    return x


def read_unguarded(x):
    if x.sum() > 0:
        y = x * 2
    return y


def set_in_some_elif_arms(x):
    if x[0] < 0:
        label = x[0] * 0 - 1
    elif x[0] > 10:
        label = x[0] * 0 + 1
    return label


def python_number_on_one_side(x):
    if x.sum() > 0:
        k = 3
    return k * x


def first_set_in_a_tensor_while(x):
    while x > 1:
        x = x / 2
        half = x
    return half


def first_set_in_a_tensor_for(x):
    for v in x:
        last = v * 2
    return last


def first_set_before_a_break(x):
    i = 0
    while i < 3:
        if x[i] > 0:
            first = x[i]
            break
        i += 1
    return first


@pytest.mark.parametrize(
    "fn",
    [
        read_guarded_by_the_same_condition,
        read_in_a_later_branch,
        read_unguarded,
        set_in_some_elif_arms,
        python_number_on_one_side,
        first_set_in_a_tensor_for,
        first_set_before_a_break,
    ],
)
@pytest.mark.parametrize("x", [POS, NEG, np.array([20.0, 1.0, 1.0])])
def test_one_sided_binding_compiles_and_matches_eager(fn, x):
    matches_eager(fn, x)


@pytest.mark.parametrize("x", [np.float64(10.0), np.float64(0.5)])
def test_variable_first_set_in_a_tensor_while(x):
    matches_eager(first_set_in_a_tensor_while, x)


@pytest.mark.parametrize(
    "fn, x, name",
    [
        (read_unguarded, NEG, "y"),
        (set_in_some_elif_arms, np.array([5.0, 0.0, 0.0]), "label"),
        (first_set_in_a_tensor_while, np.float64(0.5), "half"),
    ],
)
def test_unbound_read_raises_eagers_error_at_the_users_line(fn, x, name):
    static = tg.to_static(fn)
    with pytest.raises(UnboundLocalError, match=UNBOUND.format(name)) as info:
        static(x)
    lines, first = inspect.getsourcelines(fn)
    assert type(info.value) is UnboundLocalError
    assert tg.errors.location_of(info.value).line == first + lines.index(f"    return {name}\n")
    assert static.concrete(x).fallback is None


def test_loop_over_an_empty_array_raises_as_eager():
    matches_eager(first_set_in_a_tensor_for, np.zeros(0), compiles=False)


def test_the_graph_checks_the_read_only_on_the_path_that_reads():
    cf = tg.to_static(read_guarded_by_the_same_condition).concrete(POS)
    assert cf.fallback is None
    assert "raise" in str(cf.graph)
    assert tg.to_static(read_guarded_by_the_same_condition)(NEG) is not None


# ---- None on one path, a tensor on another ---------------------------------------------------


def search_positive(x):
    res = None
    for i in range(3):
        if x[i] > 0:
            res = x[i]
    return res


def search_in_tensor_loop(x):
    res = None
    for v in x:
        if v > 0:
            res = v
    if res is None:
        return x[0] * 0 - 1
    return res


def found_flag(x):
    res = None
    for v in x:
        if v > 2:
            res = v
    return res is not None, res is None


def return_none_when_not_found(x):
    for v in x:
        if v > 2:
            return v * 10
    return None


def none_or_python_number(x):
    res = None
    if x.sum() > 0:
        res = 1.5
    return res


def none_then_array(x):
    best = None
    if x.max() > 2:
        best = x * 2
    return best


def refined_in_a_conditional_expression(x):
    res = None
    n = 0
    while n < 3:
        if x[n] > 0:
            res = x[n] if res is None else res + x[n]
        n += 1
    return res


def refined_by_or(x):
    best = None
    for v in x:
        if best is None or v > best:
            best = v * 1
    return best


def refined_by_and_in_an_if(x):
    res = None
    if x[0] > 0:
        res = x
    if res is not None and res.sum() > 0:
        return res.sum() * res
    return x * 0


def smoothed_in_a_tensor_while(x):
    """None before a while over tensors, whose body uses it where ``is None`` fails: the trace
    that first carries it used to meet its stand-in (a placeholder), not a value of its type."""
    level = None
    w = np.abs(x).sum()
    while w > 0.5:
        if level is None:
            level = w
        else:
            level = 0.5 * w + 0.5 * level
        w = w * 0.5
    return level


@pytest.mark.parametrize(
    "fn",
    [
        smoothed_in_a_tensor_while,
        refined_in_a_conditional_expression,
        refined_by_or,
        refined_by_and_in_an_if,
        search_positive,
        search_in_tensor_loop,
        found_flag,
        return_none_when_not_found,
        none_or_python_number,
        none_then_array,
    ],
)
@pytest.mark.parametrize("x", [POS, NEG, np.array([-1.0, 2.5, 3.0])])
def test_optional_values_compile_and_match_eager(fn, x):
    matches_eager(fn, x)


def test_is_none_is_decided_when_the_graph_runs():
    static = tg.to_static(found_flag)
    assert static(POS) == (True, False)
    assert static(NEG) == (False, True)
    assert type(static(POS)[0]) is bool
    assert static.concrete(POS).fallback is None


def arithmetic_on_maybe_none(x):
    res = None
    if x.sum() > 0:
        res = x[0]
    return res + 1


def truth_of_maybe_none(x):
    res = None
    if x.sum() > 0:
        res = x[0]
    if res:
        return 1
    return 0


@pytest.mark.parametrize("fn", [arithmetic_on_maybe_none, truth_of_maybe_none])
@pytest.mark.parametrize("x", [POS, NEG])
def test_other_uses_of_a_maybe_none_value_run_eagerly(fn, x):
    cf = matches_eager(fn, x, compiles=False)
    assert "None on some paths" in cf.fallback


# ---- results whose structure differs by path fall back with a reason --------------------------


def list_of_one_or_number(x):
    if x.sum() > 0:
        r = [x[0]]
    else:
        r = x[0]
    return r


def tuples_of_different_layout(x):
    if x.sum() > 0:
        r = (x, x[0])
    else:
        r = (x[0], x, x)
    return r


def list_elements_of_different_shapes(x):
    out = []
    for i in range(2):
        if x[i] > 0:
            out.append(x)
        else:
            out.append(x[0])
    return out


def none_on_one_path_and_unset_on_another(x):
    if x[0] > 0:
        y = None
    elif x[1] > 0:
        y = x
    return y


@pytest.mark.parametrize(
    "fn",
    [
        list_of_one_or_number,
        tuples_of_different_layout,
        list_elements_of_different_shapes,
        none_on_one_path_and_unset_on_another,
    ],
)
@pytest.mark.parametrize("x", [POS, NEG])
def test_structure_that_differs_by_path_falls_back_with_a_reason(fn, x):
    cf = matches_eager(fn, x, compiles=False)
    assert cf.fallback and "variable" in cf.fallback


# ---- a tuple on some paths, None on others ------------------------------------------------


def pair_summing_to(x, t):
    """A search that returns the pair it finds, or None."""
    i, j = 0, x.shape[0] - 1
    while i < j:
        s = x[i] + x[j]
        if s == t:
            return i, j
        if s < t:
            i += 1
        else:
            j -= 1
    return None


def first_negative(x):
    found = None
    k = 0
    while k < x.shape[0] and found is None:
        if x[k] < 0:
            found = (k, x[k] * 2)
        k += 1
    if found is not None:
        i, v = found
        return i + 1, v
    return found


def int_or_int64_in_a_pair(x):
    r = None
    if x[0] > 0:
        r = (1, x[0])
    elif x[1] > 0:
        r = (np.int64(1), x[1])
    return r


SORTED = np.array([1.0, 2.0, 3.5, 4.0, 6.0])


@pytest.mark.parametrize(
    "fn, args",
    [
        (pair_summing_to, (SORTED, 7.5)),
        (pair_summing_to, (SORTED, 6.5)),
        (first_negative, (POS,)),
        (first_negative, (-NEG,)),
    ],
)
def test_a_tuple_or_none_compiles_and_matches_eager(fn, args):
    """Search routines return the pair they find or None: the join made a tuple and None a
    structure that differs by path, and they fell back."""
    assert_matches_eager(fn, *args)


@pytest.mark.parametrize("x", [POS, np.array([-1.0, 2.0])])
def test_a_tuple_or_none_whose_items_differ_in_kind_by_path_falls_back(x):
    cf = matches_eager(int_or_int64_in_a_pair, x, compiles=False)
    assert cf.fallback and "kind" in cf.fallback


# ---- gradients where the value is present --------------------------------------------------


def loss_through_one_sided_binding(x):
    if x.sum() > 0:
        y = x * x
    if x.sum() > 0:
        return (y * 3).sum()
    return x.sum()


def loss_through_optional(x):
    best = None
    for v in x:
        if v > 0:
            best = v
    if best is None:
        return x.sum() * 0
    return best * best * x.sum()


@pytest.mark.parametrize("fn", [loss_through_one_sided_binding, loss_through_optional])
@pytest.mark.parametrize("x", [POS, NEG])
def test_gradients_through_optional_joins_match_finite_differences(fn, x):
    grad = tg.grad(tg.to_static(fn))(x)
    eps = 1e-6
    numeric = np.array([(fn(x + eps * e) - fn(x - eps * e)) / (2 * eps) for e in np.eye(len(x))])
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)
    assert tg.to_static(fn).concrete(x).fallback is None


def test_outcome_of_eager_unbound_is_the_same_exception_type():
    eager, _, _ = outcome(read_unguarded, (NEG,))
    compiled, _, fallbacks = outcome(tg.to_static(read_unguarded), (NEG,))
    assert isinstance(eager, UnboundLocalError) and isinstance(compiled, UnboundLocalError)
    assert not fallbacks


class Tracker:
    """Keeps the last large value seen (None before one) and a count set on some paths."""

    def __init__(self):
        self.best = None
        self.count = 0

    def update(self, x):
        res = None
        for v in x:
            if v > 2:
                res = v
        self.best = res
        if x[0] > 0:
            self.count = np.int32(3)
        return x.sum()


def appends_a_maybe_none(out, x):
    res = None
    if x[0] > 0:
        res = x[0]
    out.append(res)
    return x


@pytest.mark.parametrize("x", [POS, NEG])
def test_optionals_and_kinds_written_into_objects_and_argument_lists_match_eager(x):
    cf = matches_eager(Tracker.update, Tracker(), x)
    assert cf.fallback is None
    matches_eager(appends_a_maybe_none, [], x, compiles=False)


def early_return_then_a_one_sided_binding(y, k):
    while np.all(y >= k):
        return (y * 2, 0)
    for i3 in range(3):
        y[0] = i3
    else:
        i3 += 2
    return (np.zeros(3), 3)


@pytest.mark.parametrize("k", [0.0, 5.0])
def test_a_maybe_unbound_variable_beside_a_returned_tuple_keeps_every_leaf(k):
    # the flag of the one-sided ``i3`` had shifted the leaves the if kept as they came in: the
    # result's 3 was dropped and the array written in place came back in its place (fuzz 931)
    assert_matches_eager(early_return_then_a_one_sided_binding, np.ones(3), k)


def carries_the_last_estimate_over_nans(x):
    y = np.full(len(x), np.nan)
    level = None
    for i in range(len(x)):
        if np.isnan(x[i]):
            if level is not None:
                y[i] = level
            continue
        level = x[i] if level is None else 0.5 * x[i] + 0.5 * level
    return y, level


def pushes_a_maybe_none_where_it_is_present(x):
    found = None
    seen = []
    for v in x:
        if v > 0:
            found = v
        if found is not None:
            seen.append(found)
    return np.array(seen)


@pytest.mark.parametrize(
    "x", [np.array([1.0, np.nan, 3.0]), np.array([np.nan, 2.0]), np.array([np.nan]), POS, NEG]
)
@pytest.mark.parametrize(
    "fn", [carries_the_last_estimate_over_nans, pushes_a_maybe_none_where_it_is_present]
)
def test_a_maybe_none_written_or_pushed_where_it_is_present(fn, x):
    """Where ``is not None`` holds, the value is written into an array or pushed onto a list
    (it was handed to the write as the optional itself, an internal error that fell back)."""
    assert_matches_eager(fn, x)


def _bare_return_in_a_nested_if(x):
    if x.sum() > 0:
        if x[0] > 5:
            return
        x = x + 1
    return x


def _none_then_flag_in_a_nested_if(x, log):
    if x.sum() > 0:
        if x[0] > 5:
            log["big"] = 1
            return None
        x = x * 2
    log["big"] = 2
    return x


@pytest.mark.parametrize("x", [np.array([10.0]), np.array([1.0]), np.array([-1.0])])
def test_a_return_of_none_inside_a_nested_if_compiles(x):
    """The return value is unset on the paths that have not returned yet: facing ``None`` it
    is ``None`` there too, since those paths set it later."""
    assert_matches_eager(_bare_return_in_a_nested_if, x)
    assert_matches_eager(_none_then_flag_in_a_nested_if, x, {"big": 0})


def default_of_a_nested_function_read_on_one_side(x):
    if x.sum() > 0:
        first = x[0]

    def scaled(u, c=first):
        return u * c

    return 1.0


def decorator_of_a_nested_function_read_on_one_side(x):
    if x.sum() > 0:
        wrap = staticmethod

    @wrap
    def scaled(u):
        return u

    return 1.0


@pytest.mark.parametrize("x", [POS, NEG])
def test_a_nested_def_reads_its_defaults_where_it_stands(x):
    """Fuzz seed 382: ``def g(u, c=v)`` after ``v`` was set on one side of a tensor ``if`` did
    not raise the ``UnboundLocalError`` eager raises when the ``def`` runs (a default is read
    by the enclosing function, which did not guard it)."""
    matches_eager(default_of_a_nested_function_read_on_one_side, x)


@pytest.mark.parametrize("x", [POS, NEG])
def test_a_decorator_set_on_one_side_falls_back_and_raises_as_eager(x):
    matches_eager(decorator_of_a_nested_function_read_on_one_side, x, compiles=False)
