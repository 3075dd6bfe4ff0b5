"""A filtered comprehension where it runs only on some paths (a ``while`` test, a later operand of
``and``/``or``, a branch of a conditional expression, a later comparison of a chain) or in the
value of ``c[i] op= ...`` compiles, and matches the eager run: values, kinds, printed output,
exceptions and the arguments afterwards (fuzz seeds 5006, 5016, 5026, 5063, 5072, 5130, 5133,
5139, 5158, 5198 fell back on these)."""

import contextlib
import copy
import io

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, same

import tograph as tg


def assert_prints_as_eager(fn, *args, compiles=True):
    """``assert_matches_eager``, and the compiled call prints what the eager call prints."""
    printed = []
    for run in (fn, tg.to_static(fn)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                run(*copy.deepcopy(args))
            except Exception as exc:  # noqa: BLE001 - the outcome to compare
                print(type(exc).__name__)
        printed.append(out.getvalue())
    assert printed[0] == printed[1]
    return assert_matches_eager(fn, *args, compiles=compiles)


def noisy(v, label):
    print(label, v)
    return v


def count_up_while_filtered(x, n):
    c = 0
    while c < n and (x[0] >= c or len([t for t in x if t > c]) > 1):
        c += 1
        print("pass", c)
    return c


def while_filtered_with_else(x):
    c = 0
    while len([t for t in x if t > c]) > 1:
        c += 1
        if x[c % len(x)] > 10:
            break
    else:
        print("ran out at", c)
    return c


def while_filtered_with_continue(x):
    c = 0
    total = 0.0
    while sum(t for t in x if t > c) > 0 and c < 5:
        c += 1
        if x[c % len(x)] < 0:
            continue
        total += x[c % len(x)]
    return c, total


@pytest.mark.parametrize(
    "fn, args",
    [
        (count_up_while_filtered, (np.array([1.0, 0.0, 3.0]), 3)),
        (count_up_while_filtered, (np.array([-1.0, 0.5, 0.2]), 3)),
        (while_filtered_with_else, (np.array([1.0, 2.0, 3.0]),)),
        (while_filtered_with_else, (np.array([1.0, 20.0, 30.0]),)),
        (while_filtered_with_continue, (np.array([1.0, -2.0, 3.0]),)),
    ],
)
def test_a_while_test_builds_its_comprehension_before_each_pass(fn, args):
    assert_prints_as_eager(fn, *args)


def or_with_a_negated_filter(x, k):
    if k <= np.argmax(x) or not sum(t for t in x if t != 0) == np.count_nonzero(x > 0):
        return x * 2
    return x


def chain_with_a_later_filter(x, z, c0):
    if (c0 and 1) < noisy(z[0] + z[-1], "middle") != sum(t for t in x if t != 0):
        return 1
    return 2


def conditional_with_filtered_branch(x, k):
    inner = k if sum([t * 2 for t in x if t > 1]) <= divmod(0, -2)[0] != k else k
    return x if inner < (k if x[0] + x[-1] == x.mean() else k) else x // 7


@pytest.mark.parametrize(
    "fn, args",
    [
        (or_with_a_negated_filter, (np.array([1.0, 0.0, 3.0]), 2)),
        (or_with_a_negated_filter, (np.array([1.0, 0.0, 3.0]), 0)),
        (chain_with_a_later_filter, (np.array([1.0, 0.0, 3.0]), np.array([3.0, 4.0]), 2)),
        (chain_with_a_later_filter, (np.array([1.0, 0.0, 3.0]), np.array([3.0, 1.0]), 2)),
        (chain_with_a_later_filter, (np.array([1.0, 0.0, 3.0]), np.array([3.0, 4.0]), 0)),
        (conditional_with_filtered_branch, (np.array([1.0, 2.0, 3.0]), 1)),
        (conditional_with_filtered_branch, (np.array([3.0, 2.0, 3.0]), 0)),
    ],
)
def test_a_filter_in_a_later_operand_of_a_test_or_value_matches_eager(fn, args):
    assert_prints_as_eager(fn, *args)


def and_returns_an_operand(x, k):
    picked = k and [t for t in x if t > 0]
    other = noisy(k, "left") or [t * 2 for t in x if t < 0]
    return picked, other


def filter_only_when_reached(x):
    return x[0] > 0 and len([t for t in x if t > 1]) > 1


def max_only_when_reached(x):
    print("before")
    return x[0] > 0 and max(t for t in x if t > 5)


@pytest.mark.parametrize(
    "fn, args",
    [
        (and_returns_an_operand, (np.array([1.0, -2.0, 3.0]), 0)),
        (and_returns_an_operand, (np.array([1.0, -2.0, 3.0]), 2)),
        (filter_only_when_reached, (np.array([0.5, 2.0, 3.0]),)),
        (filter_only_when_reached, (np.array([-0.5, 2.0, 3.0]),)),
        (max_only_when_reached, (np.array([-1.0, 2.0]),)),
        (max_only_when_reached, (np.array([1.0, 6.0]),)),
        (max_only_when_reached, (np.array([1.0, 2.0]),)),  # max() of nothing raises, as eager
    ],
)
def test_and_or_give_an_operand_and_build_the_list_only_when_reached(fn, args):
    assert_prints_as_eager(fn, *args)


def test_operands_of_two_kinds_fall_back_naming_the_expression():
    def list_or_tensor_bool(x):
        return x[0] > 0 and [t for t in x if t > 0]

    cf = assert_matches_eager(list_or_tensor_bool, np.array([1.0, -2.0]), compiles=False)
    assert "`and`, `or`, conditional expression" in cf.fallback


class Box:
    def __init__(self, w):
        self.w = w


def augmented_items(x, d, o):
    d["n"] += len([t for t in x if t != 0])
    x[::-1][[0, 0]] += max(t for t in x if t > 0)
    noisy(x, "container")[1:][0] -= len([t for t in x if t < 0])
    o.w *= max(t for t in x if t > -5)
    return d, x


def test_an_augmented_item_or_attribute_reads_its_target_before_building_the_list():
    args = (np.array([1.0, -2.0, 3.0]), {"n": 1}, Box(np.array([2.0, 4.0])))
    assert_prints_as_eager(augmented_items, *args)


def formatted_filter(q):
    print(f"p1 {sum(t for t in q if t != 0)!r} and {q[0]}")
    return q


def test_a_filter_in_an_f_string_compiles_and_prints_as_eager():
    assert_prints_as_eager(formatted_filter, np.array([1.0, -2.0, 0.0]))


def walrus_while_with_else(x):
    i = 0
    while (j := i) < x.sum():
        i += 1
    else:
        print("done", j)
    return i


def test_a_walrus_while_test_runs_the_else_clause():
    """The ``else`` of a loop whose test assigns was skipped: the test's own ``break`` set the
    flag that a ``break`` of the body sets."""
    assert_prints_as_eager(walrus_while_with_else, np.ones(3))


def test_the_results_keep_their_kinds():
    x = np.array([1.0, 2.0, 3.0])
    got = tg.to_static(and_returns_an_operand)(x.copy(), 2)
    assert same(got, and_returns_an_operand(x.copy(), 2))


def asserted_chain(x, q):
    assert x[0] <= len([i for i in range(5) if i > 1]) <= sum([t for t in q if t > 0.5]), "e1"
    return x


def filters_under_methods_subscripts_and_signs(y, q):
    noisy(y, "object")[::-1][::2].fill(len(list(filter(lambda t: t > 0, q))))
    print(f"p0 {divmod(len(list(filter(lambda t: t > 0, q))), -2)[0]}")
    return y, -len([t for t in q if t > 0]) // -3


def nested_and_in_a_while_test(x, c):
    while c < 3 and (x[0] < sum(t for t in x if t > c) and x.shape[0] > 1) or x[c % 3] == 7:
        c += 1
    return c


@pytest.mark.parametrize(
    "fn, args",
    [
        (asserted_chain, (np.array([1.0, 5.0]), np.array([1.0, 2.0]))),
        (asserted_chain, (np.array([4.0, 5.0]), np.array([1.0, 2.0]))),  # fails: AssertionError
        (asserted_chain, (np.array([1.0, 5.0]), np.array([0.1, 0.2]))),
        (filters_under_methods_subscripts_and_signs, (np.array([1.0, 5.0, 3.0]), np.array([1.0]))),
        (nested_and_in_a_while_test, (np.array([1.0, 5.0, 3.0]), 0)),
        (nested_and_in_a_while_test, (np.array([4.0, 7.0, 3.0]), 0)),
        (nested_and_in_a_while_test, (np.array([1.0, 7.0, 3.0]), 4)),
    ],
)
def test_a_filter_in_an_assert_a_method_object_an_index_or_a_nested_test_matches_eager(fn, args):
    """Fuzz seeds 100154, 100164, 100232, 100256, 100266, 100291 fell back on these."""
    assert_prints_as_eager(fn, *args)
