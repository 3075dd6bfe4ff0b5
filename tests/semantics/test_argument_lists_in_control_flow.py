"""A list passed to the function, appended to or assigned an item inside an ``if`` or loop over
tensors (``history.append(loss)`` in a ``while``): it is carried as a tensor list and the
caller's list is given its final contents after the graph runs, with eager's item kinds. Cases
the graph cannot follow exactly (arrays as items, a second name, a list reached through
``*args`` or another container, a list that is the caller's on some paths only) run eagerly,
naming the construct."""

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

X = np.array([4.0, 2.0, 1.5])
CONSTRUCT = "change of an argument list or dict inside tensor control flow"


def history_in_a_while(x, history):
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
    return x


def python_floats_in_a_while(x, history):
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(float(x.sum()))
    return x


def ints_in_a_for(x, counts):
    for v in x:
        if v > 1.75:
            counts.append(int(v))
    return len(counts)


def appends_in_an_if(x, lst):
    if x.sum() > 5.0:
        lst.append(x.max())
    else:
        lst.append(x.min())
        lst.append(x.sum())
    return x


def appends_in_one_branch(x, lst):
    if x[0] > 3.0:
        lst.append(x[1])
    return lst


def item_assignment_in_a_for(x, buf):
    for i in range(x.shape[0]):
        if x[i] > 1.75:
            buf[i] = float(x[i] * 2.0)
    return buf


def item_assignment_at_a_tensor_index(x, buf):
    k = np.argmax(x)
    if x[k] > 0:
        buf[k] = float(x.sum())
    return x


def appends_then_reads(x, history):
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
    return len(history), history[-1]


def appends_before_inside_and_after(x, history):
    history.append(x.sum())
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
    history.append(x.max())
    return history


def nested_loops(x, history):
    i = 0
    while x.sum() > 1.0:
        x = x * 0.5
        for v in x:
            if v > 0.5:
                history.append(v)
        i += 1
    return i


def appends_in_a_nested_if_and_never_reads_it_again(x, lst):
    # fuzz seed 112 (ci features): the inner if's result is dropped by the lowered code, as
    # the list is not read after it; the outer branch handed back the list from before it
    if x[0] > 0:
        pass
    elif x[1] > 0:
        pass
    else:
        lst.append(float(x[2]))


def appends_in_a_loop_inside_an_if(x, lst):
    if x.sum() > 0:
        for v in x:
            if v > 1.75:
                lst.append(float(v))


def returns_the_list(x, history):
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
    return history


def raises_mid_loop(x, history):
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
        if x.sum() < 3.0:
            raise ValueError("too small")
    return x


@pytest.mark.parametrize(
    "fn, lst",
    [
        (history_in_a_while, []),
        (history_in_a_while, [np.float64(9.0)]),
        (python_floats_in_a_while, []),
        (python_floats_in_a_while, [7.5]),
        (ints_in_a_for, []),
        (ints_in_a_for, [3]),
        (appends_in_an_if, []),
        (appends_in_one_branch, [np.float64(1.0)]),
        (item_assignment_in_a_for, [0.0, 0.0, 0.0]),
        (item_assignment_at_a_tensor_index, [0.0, 1.0, 2.0]),
        (appends_then_reads, []),
        (appends_before_inside_and_after, []),
        (nested_loops, []),
        (returns_the_list, []),
        (appends_in_a_nested_if_and_never_reads_it_again, [2.0, 3.0]),
        (appends_in_a_loop_inside_an_if, [0.5]),
    ],
)
@pytest.mark.parametrize("x", [X, X / 8.0, -X])
def test_an_argument_list_changed_in_tensor_control_flow_compiles(fn, lst, x):
    assert_matches_eager(fn, x, lst)


def test_the_returned_list_is_the_callers():
    history = []
    out = tg.to_static(returns_the_list)(X, history)
    assert out is history
    assert history == returns_the_list(X, [])


def test_the_list_is_given_its_contents_on_every_call():
    static = tg.to_static(history_in_a_while)
    for x in (X, X * 2.0, X / 8.0):
        eager_list, compiled_list = [], []
        history_in_a_while(x, eager_list)
        static(x, compiled_list)
        assert compiled_list == eager_list
        assert all(type(v) is np.float64 for v in compiled_list)


def test_a_saved_graph_writes_the_list_back(tmp_path):
    static = tg.to_static(history_in_a_while)
    static(X, [])
    tg.save(static, tmp_path / "history.tograph")
    loaded = tg.load(tmp_path / "history.tograph")
    compiled_list, eager_list = [], []
    loaded(X, compiled_list)
    history_in_a_while(X, eager_list)
    assert compiled_list == eager_list and len(eager_list) > 1


def test_a_graph_that_raises_mid_loop_leaves_eagers_partial_list():
    assert_matches_eager(raises_mid_loop, X, [], compiles=False)
    assert_matches_eager(raises_mid_loop, X / 8.0, [])


def appends_an_argument_array(x, lst):
    while x.sum() > 1.0:
        x = x * 0.5
        lst.append(x)
    return x


def appends_a_0d_array(x, lst):
    while x.sum() > 1.0:
        x = x * 0.5
        lst.append(np.array(x.sum()))
    return x


def second_name(x, lst):
    other = lst
    while x.sum() > 1.0:
        x = x * 0.5
        lst.append(x.sum())
    return other


def through_star_args(x, *lists):
    history = lists[0]
    while x.sum() > 1.0:
        x = x * 0.5
        history.append(x.sum())
    return x


def rebound_in_a_branch(x, lst):
    if x[0] > 3.0:
        lst = [np.float64(1.0)]
    lst.append(x[1])
    return x


def rebound_in_a_loop(x, lst):
    while x.sum() > 1.0:
        x = x * 0.5
        lst = [x.sum()]
    lst.append(x[1])
    return x


def kind_depends_on_the_path(x, lst):
    r = 0.0
    if x[0] > 3.0:
        r = x[1]
    while x.sum() > 1.0:
        x = x * 0.5
        lst.append(r)
    return x


def mixed_kinds(x, lst):
    while x.sum() > 1.0:
        x = x * 0.5
        lst.append(x.sum())
    return x


@pytest.mark.parametrize(
    "fn, lst",
    [
        (appends_an_argument_array, []),
        (appends_a_0d_array, []),
        (second_name, []),
        (through_star_args, []),
        (rebound_in_a_branch, [np.float64(2.0)]),
        (rebound_in_a_loop, [np.float64(2.0)]),
        (mixed_kinds, [1.5]),
        (kind_depends_on_the_path, []),
    ],
)
def test_cases_the_graph_cannot_follow_run_eagerly(fn, lst):
    assert_matches_eager(fn, X, lst, compiles=False)
    _, _, fallbacks = outcome(tg.to_static(fn), (X, lst))
    assert len(fallbacks) == 1, fallbacks


def test_a_0d_array_appended_to_a_local_list_runs_eagerly():
    def f(x):
        h = []
        while x.sum() > 1.0:
            x = x * 0.5
            h.append(np.array(x.sum()))
        return h

    assert_matches_eager(f, X, compiles=False)


def loss_with_history(w, history):
    loss = (w * w).sum()
    while np.sum(w * w) > 2.0:
        w = w * 0.9
        history.append(np.sum(w * w))
    return (w * w).sum() + loss


def test_gradient_through_a_function_that_appends_to_a_history():
    """The gradient is the graph's (no fallback) and matches central differences; the gradient
    graph writes no argument back, as for a list changed outside tensor control flow."""
    w = np.array([1.0, -2.0, 0.5])
    grad = tg.grad(loss_with_history)
    assert grad.concrete(w, []).fallback is None
    eps = 1e-6
    numeric = np.array(
        [
            (loss_with_history(w + eps * e, []) - loss_with_history(w - eps * e, [])) / (2 * eps)
            for e in np.eye(3)
        ]
    )
    np.testing.assert_allclose(grad(w, []), numeric, rtol=1e-6)


def appends_and_falls_back(w, history):
    try:
        total = np.sum(w * w)
    except FloatingPointError:  # which np.seterr(all="raise") would make the product raise
        total = 0.0
    history.append(total)
    return total


def test_the_tape_leaves_values_in_an_argument_list():
    """A function that runs eagerly is differentiated on the tape, whose tensors it appended to
    the caller's list: the list holds their values afterwards, as the eager run leaves it."""
    history = []
    with pytest.warns(tg.FallbackWarning, match="try body with multiply"):
        g = tg.grad(appends_and_falls_back)(np.array([1.0, 2.0]), history)
    np.testing.assert_allclose(g, [2.0, 4.0])
    assert history == [5.0] and type(history[0]) is np.float64
