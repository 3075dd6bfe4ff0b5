"""Lists and dicts changed in place under to_static: the caller's containers end as eagerly, a
list returned is the caller's own, and what a graph cannot record exactly (a change inside an
if or loop over tensors, a container with two names, one from outside) runs eagerly; each case
compared with its eager run (``eager_oracle``)."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

VEC = np.array([3.0, -1.0, 2.0, 0.5])


def append_to_argument(history, x):
    history.append(x * 2)
    history.append(len(history))
    return x.sum()


def replace_and_pop(items, x):
    first = items.pop(0)
    items[0] = items[0] + x
    items.insert(0, first * 3)
    return first


def dict_entries_replaced(state, x):
    state["pos"] = state["pos"] + state["vel"]
    state["steps"] = state.get("steps", 0) + 1
    del state["vel"]
    return x


def nested_list_in_tuple(pair, x):
    rows, scale = pair
    rows[1].append(x * scale)
    return rows


def bubble_sort_python_list(values):
    n = len(values)
    for i in range(n):
        for j in range(n - 1 - i):
            if values[j] > values[j + 1]:
                values[j], values[j + 1] = values[j + 1], values[j]
    return values


def mutable_default(x, log=[]):  # noqa: B006 - the Python gotcha, kept as eager keeps it
    log.append(1)
    return x * len(log)


@pytest.mark.parametrize(
    "fn, args",
    [
        (append_to_argument, ([VEC], VEC)),
        (replace_and_pop, ([VEC, VEC * 2, 5.0], VEC)),
        (dict_entries_replaced, ({"pos": VEC, "vel": -VEC}, VEC)),
        (nested_list_in_tuple, (([[VEC], [VEC]], 2.0), VEC)),
        (bubble_sort_python_list, ([3.0, 1.0, 2.0, -4.0],)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_argument_containers_end_as_eagerly(fn, args):
    assert_matches_eager(fn, *args)


def test_a_returned_argument_list_is_the_callers_list():
    values = [3.0, 1.0, 2.0]
    result = tg.to_static(bubble_sort_python_list, fallback="error")(values)
    assert result is values and values == [1.0, 2.0, 3.0]


def test_a_mutable_default_grows_as_eagerly():
    static = tg.to_static(mutable_default, fallback="error")
    assert static(VEC)[0] == VEC[0]
    assert static(VEC)[0] == VEC[0] * 2  # the default list is the function's own, and grows
    assert mutable_default.__defaults__[0] == [1, 1]


def append_in_tensor_branch(history, x):
    if x.sum() > 0:
        history.append(x)
    return x


def append_in_tensor_loop(history, x):
    i = 0
    while x.sum() > i:
        history.append(i)
        i += 1
    return x


def dict_written_in_tensor_branch(state, x):
    if x.sum() > 0:
        state["hit"] = x
    return x


def alias_appended_in_tensor_branch(x):
    a = []
    b = a
    if x.sum() > 0:
        b.append(x)
    return len(a)


def append_to_a_list_in_a_dict(x):
    d = {"pos": [], "neg": []}
    for v in x:
        if v >= 0:
            d["pos"].append(v)
    return len(d["pos"])


def pop_in_tensor_branch(x):
    items = [1, 2, 3]
    if x.sum() < 0:
        items.pop()
    return len(items)


def append_through_an_item_alias(x):
    rows = [[1], [2]]
    for v in x:
        first = rows[0]
        first.append(3)
    return len(rows[0])


def add_to_a_set_in_tensor_loop(x):
    seen = set()
    for v in x:
        seen.add(int(v > 0))
    return len(seen)


def list_held_by_a_dict_appended(x):
    p = []
    d = {"pos": p}
    for v in x:
        p.append(v)
    return len(d["pos"]), len(p)


@pytest.mark.parametrize(
    "fn",
    [
        append_to_a_list_in_a_dict,
        pop_in_tensor_branch,
        append_through_an_item_alias,
        add_to_a_set_in_tensor_loop,
        list_held_by_a_dict_appended,
    ],
)
@pytest.mark.parametrize("x", [VEC, -VEC])
def test_containers_from_before_tensor_control_flow_changed_inside_it_run_eagerly(fn, x):
    """A list, dict or set changed inside a tensor ``if`` or loop through anything but a
    variable the control flow carries (an item of another container, a second name, a list a
    dict holds) was changed once, while the body was traced: ``len(d["pos"])`` came back 1
    after a loop of four appends."""
    cf = assert_matches_eager(fn, x, compiles=False)
    assert "over tensors" in cf.fallback


GLOBAL_LOG = []


def appends_to_a_global(x):
    GLOBAL_LOG.append(x)
    return x + 1


@pytest.mark.parametrize(
    "fn, args",
    [
        (append_in_tensor_branch, ([], VEC)),
        (append_in_tensor_loop, ([], VEC)),
        (dict_written_in_tensor_branch, ({}, VEC)),
        (alias_appended_in_tensor_branch, (VEC,)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_changes_a_graph_cannot_record_run_eagerly(fn, args):
    cf = assert_matches_eager(fn, *args, compiles=False)
    assert "tensor control flow" in cf.fallback or "passed to the function" in cf.fallback


def test_a_global_list_is_changed_once_per_call_eagerly():
    GLOBAL_LOG.clear()
    with pytest.warns(tg.FallbackWarning, match="append.. changes a list from outside"):
        tg.to_static(appends_to_a_global)(VEC)
    assert len(GLOBAL_LOG) == 1 and GLOBAL_LOG[0] is not None
    result, _, _ = outcome(tg.to_static(appends_to_a_global), (VEC,))
    np.testing.assert_array_equal(result, VEC + 1)
    assert len(GLOBAL_LOG) == 2 and all(isinstance(v, np.ndarray) for v in GLOBAL_LOG)


def kept_until_the_first_large(x):
    kept = []
    for v in x:
        if v > 2:
            break
        kept.append(v)
    if kept:
        return np.array(kept), not kept
    return np.zeros(0), not kept


@pytest.mark.parametrize("x", [VEC, np.array([3.0, 1.0]), np.zeros(0)])
def test_a_list_grown_in_a_tensor_loop_is_true_when_not_empty(x):
    """``if kept:`` and ``not kept`` of a list appended in a tensor loop fell back (its truth
    was taken for an array's); it is whether the list is empty, decided when the graph runs."""
    assert_matches_eager(kept_until_the_first_large, x)
