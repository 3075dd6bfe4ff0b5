"""Lists and dicts changed in place under to_static: the caller's containers end as eagerly, a
list returned is the caller's own, and what a graph cannot record exactly (a change inside an
if or loop over tensors, a container with two names, one from outside) runs eagerly; each case
compared with its eager run (``eager_oracle``)."""

import copy

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


def append_in_tensor_loop(history, x):
    i = 0
    while x.sum() > i:
        history.append(i)
        i += 1
    return x


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
        (append_in_tensor_loop, ([], VEC)),
        (append_in_tensor_loop, ([7], -VEC)),
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
    "fn, args, reason",
    [
        (append_in_tensor_branch, ([], VEC), "passed to the function"),
        (dict_written_in_tensor_branch, ({}, VEC), "a dict of 1 in the if-branch"),
        (alias_appended_in_tensor_branch, (VEC,), "known by two names"),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_changes_a_graph_cannot_record_run_eagerly(fn, args, reason):
    cf = assert_matches_eager(fn, *args, compiles=False)
    assert reason in cf.fallback


def test_a_global_list_is_changed_once_per_call_eagerly():
    GLOBAL_LOG.clear()
    with pytest.warns(tg.FallbackWarning, match="append.. changes a list from outside"):
        tg.to_static(appends_to_a_global)(VEC)
    assert len(GLOBAL_LOG) == 1 and GLOBAL_LOG[0] is not None
    result, _, _ = outcome(tg.to_static(appends_to_a_global), (VEC,))
    np.testing.assert_array_equal(result, VEC + 1)
    assert len(GLOBAL_LOG) == 2 and all(isinstance(v, np.ndarray) for v in GLOBAL_LOG)


# ---- a caller's dict as the state of tensor control flow ----------------------------------------


def steps_counted_in_a_dict(state, x):
    while x.sum() > 1:
        x = x / 2
        state["steps"] = state["steps"] + 1
    return x


def optimizer_state_in_a_branch(state, g):
    for _ in range(3):
        if g.sum() > 0:
            state["m"] = 0.9 * state["m"] + g
            state["t"] += 1
        else:
            state["skipped"] = state["skipped"] + 1
        g = g - 1
    return state["m"]


def entry_changing_kind_in_a_loop(d, x):
    """``d["a"]`` starts a Python float and becomes a Python int (or a NumPy scalar): the loop
    is traced again with the entry tagged, and the caller's dict still gets the values."""
    while x.min() > 0.5:
        x = x - 1
        d["a"] = d["n"]
        d["b"] = d["n"] + x.sum()
    return x


def dict_set_on_both_paths(d, x):
    if x.sum() > 0:
        d["sign"] = 1.0
    else:
        d["sign"] = -1.0
    return x * d["sign"]


@pytest.mark.parametrize(
    "fn, args",
    [
        (steps_counted_in_a_dict, ({"steps": 0}, VEC * 8)),
        (steps_counted_in_a_dict, ({"steps": 0}, -VEC)),
        (optimizer_state_in_a_branch, ({"m": np.zeros(len(VEC)), "t": 0, "skipped": 0}, VEC * 2)),
        (optimizer_state_in_a_branch, ({"m": np.ones(len(VEC)), "t": 0, "skipped": 0}, VEC / 2)),
        (entry_changing_kind_in_a_loop, ({"a": -3.0, "b": 0.5, "n": 3}, VEC + 3)),
        (entry_changing_kind_in_a_loop, ({"a": -3.0, "b": 0.5, "n": 3}, VEC)),
        (dict_set_on_both_paths, ({}, VEC)),
        (dict_set_on_both_paths, ({"sign": 0.0}, -VEC)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_item_assignments_to_a_dict_argument_in_tensor_control_flow(fn, args):
    """The dict is the state a cond or while_loop carries: the caller's dict ends as eager's."""
    assert_matches_eager(fn, *args)


def dict_reached_through_a_holder(d, x):
    holder = {"inner": d}
    while x.sum() > 1:
        x = x / 2
        holder["inner"]["n"] = holder["inner"]["n"] + 1
    return x


def dict_with_two_names_in_a_loop(d, x):
    e = d
    while x.sum() > 1:
        x = x / 2
        e["n"] = e["n"] + 1
    return d["n"]


def nested_dict_in_a_loop(d, x):
    while x.sum() > 1:
        x = x / 2
        d["sub"]["n"] = d["sub"]["n"] + 1
    return x


def dict_carried_with_its_holder(d, x):
    holder = {"inner": d, "k": 0}
    while x.sum() > 1:
        x = x / 2
        d["n"] = d["n"] + 1
        holder["k"] = holder["k"] + 1
    return holder["inner"]["n"]


@pytest.mark.parametrize(
    "fn, args",
    [
        (dict_reached_through_a_holder, ({"n": 0}, VEC * 8)),
        (dict_with_two_names_in_a_loop, ({"n": 0}, VEC * 8)),
        (nested_dict_in_a_loop, ({"sub": {"n": 0}}, VEC * 8)),
        (dict_carried_with_its_holder, ({"n": 0}, VEC * 8)),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_a_dict_reached_otherwise_than_as_the_state_runs_eagerly(fn, args):
    """Written inside tensor control flow through a second reference, or nested in the state,
    the dict's copies would part from one another: these fall back."""
    assert_matches_eager(fn, *args, compiles=False)


def writes_one_and_reads_the_other(d, e, x):
    d["a"] = x
    return e["a"]


def appends_to_one_and_counts_the_other(a, b, x):
    a.append(x)
    return len(b)


@pytest.mark.parametrize(
    "fn, make",
    [
        (writes_one_and_reads_the_other, lambda: [{"a": 0}] * 2),
        (appends_to_one_and_counts_the_other, lambda: [[]] * 2),
        (appends_to_one_and_counts_the_other, lambda: (lambda a: [a, [a]])([])),
    ],
)
def test_one_container_passed_twice_runs_eagerly(fn, make):
    """Graph copies of the two references would part; eager code sees one container."""
    static = tg.to_static(fn)
    separate = [copy.deepcopy(a) for a in make()]
    static(*separate, VEC)  # a compiled graph for two different containers comes first
    eager_args, compiled_args = make(), make()
    want = fn(*eager_args, VEC)
    with pytest.warns(tg.FallbackWarning, match="passed more than once"):
        got = static(*compiled_args, VEC)
    assert type(got) is type(want) and np.array_equal(got, want)
    assert repr(compiled_args) == repr(eager_args)


def counts_until_a_return(y, d):
    """Fuzz seed 541: the loop also carries the return value, whose placeholder made the loop
    rebuild its state, and the dict's changes were lost."""
    for v in y:
        if v > 0:
            d["n"] += 1
        else:
            return 0


@pytest.mark.parametrize("y", [np.array([1.0, 2.0, 3.0]), np.array([1.0, -1.0, 3.0])])
def test_a_dict_changed_in_a_loop_with_a_return(y):
    assert_matches_eager(counts_until_a_return, y, {"n": 2})


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


def stack_what_the_loop_kept(x):
    kept = []
    for v in x:
        if v > 1:
            kept.append(v * 2)
    return np.stack(kept), np.vstack(kept), np.hstack(kept)


@pytest.mark.parametrize("x", [np.array([0.5, 2.0, 3.0]), np.array([0.5, -1.0])])
def test_joining_an_empty_tensor_list_raises_as_numpy_does(x):
    """np.stack of a list a tensor loop left empty gave an empty array: NumPy raises ValueError
    ("need at least one array to stack") for the empty Python list eager code has."""
    assert_matches_eager(stack_what_the_loop_kept, x)
    if not np.any(x > 1):
        with pytest.raises(ValueError, match="need at least one array to stack"):
            tg.to_static(stack_what_the_loop_kept)(x)
