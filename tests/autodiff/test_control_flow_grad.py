"""Gradients through cond and while_loop (as the compiler lowers if/for/while/break/continue),
nested control flow, shape-changing carries and tensor lists, against finite differences and the
eager tape; and the shape of the gradient graphs (which values are saved on stacks)."""

import numpy as np
import pytest
from gradcheck import assert_grads

import tograph as tg
from tograph import gradients as api
from tograph.ops import lists

X = np.array([0.4, -0.3, 0.25])


def branchy(x):
    if np.sum(x) > 0:
        y = np.sin(x) * x
    else:
        y = np.exp(x)
    return np.sum(y * y)


def nested_conds(x, w):
    if np.max(x) > 0.35:
        if np.min(x) < 0:
            y = x * w
        else:
            y = np.tanh(x)
    else:
        y = w * w
    return np.sum(y)


def branch_ignores_input(x, w):
    if x[0] > 0:
        out = np.sum(x * w)
    else:
        out = np.sum(w)
    return out


def branches_of_different_lengths(x):
    if x[0] > 0:
        y = x[1:]
    else:
        y = x * 2.0
    return np.sum(y * y)


@pytest.mark.parametrize("x", [X, -X], ids=["then", "else"])
def test_cond(x):
    assert_grads(branchy, x)
    assert_grads(nested_conds, x, np.array([1.5, -0.5, 2.0]), argnums=(0, 1))
    assert_grads(branch_ignores_input, x, np.array([1.5, -0.5, 2.0]), argnums=(0, 1))
    assert_grads(branches_of_different_lengths, x)


def tensor_for(x, n):
    h = x
    for i in range(n):
        h = np.tanh(h * 1.5 + i * 0.1)
    return np.sum(h)


def data_dependent_while(x):
    while np.sum(np.abs(x)) < 5.0:
        x = x * 1.7 + 0.05
    return np.sum(x * x)


def with_break(x, n):
    s = 0.0
    for i in range(n):
        if s > 2.0:
            break
        s = s + np.sum(x * x) * 0.5 + i
    return s


def with_continue(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            continue
        s = s + np.sum(np.cos(x * i))
    return s


def break_in_while(x):
    k = 0
    while k < 100:
        x = np.sin(x) + 0.3
        if np.sum(x) > 1.5:
            break
        k += 1
    return np.sum(x)


def early_return(x, n):
    for i in range(n):
        x = x * 1.5
        if np.sum(x) > 3.0:
            return np.sum(x * x)
    return np.sum(x)


def return_from_while_true(x):
    while True:
        x = np.sin(x) + 0.5
        if np.sum(x) > 2.5:
            return np.sum(x * x)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loops(n):
    assert_grads(tensor_for, X, np.int64(n))
    assert_grads(with_break, X, np.int64(n + 4))
    assert_grads(with_continue, X, np.int64(n))


def test_data_dependent_while_and_break():
    assert_grads(data_dependent_while, X)
    assert_grads(break_in_while, X)


@pytest.mark.parametrize("n", [1, 10])
def test_return_inside_a_loop(n):
    assert_grads(early_return, X + 0.5, np.int64(n))
    assert_grads(return_from_while_true, X)


def rnn(xs, h, wx, wh, b):
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return np.sum(h * h)


def test_rnn_gradients_for_every_input():
    rng = np.random.default_rng(1)
    args = [rng.normal(size=s) * 0.5 for s in [(4, 2, 3), (2, 5), (3, 5), (5, 5), (5,)]]
    spec = [tg.TensorSpec((None, 2, 3)), None, None, None, None]
    assert_grads(rnn, *args, argnums=(0, 1, 2, 3, 4), input_spec=spec)


def nested_loops(x, n):
    s = 0.0
    for i in range(n):
        h = x
        for j in range(i):
            h = np.sin(h) * 1.1
        s = s + np.sum(h * h)
    return s


def cond_in_loop(x, n):
    h = x
    for i in range(n):
        if np.sum(h) > 0.3:
            h = h * 0.5
        else:
            h = np.exp(h)
    return np.sum(h)


def loop_in_cond_in_loop(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            h = x
            for j in range(i):
                h = np.cos(h) + x
            s = s + np.sum(h)
        else:
            s = s * 1.1
    return s


def test_nested_control_flow():
    assert_grads(nested_loops, X, np.int64(4))
    assert_grads(cond_in_loop, X, np.int64(5))
    assert_grads(loop_in_cond_in_loop, X, np.int64(5))


def growing(x, n):
    y = x
    for i in range(n):
        y = np.concatenate([y, y[-1:] * 2.0])
    return np.sum(y * y)


def shrinking(x):
    y = x
    while y.shape[0] > 1:
        y = y[1:] * y[:-1] + 0.1
    return np.sum(y)


def test_shape_changing_carries():
    assert_grads(growing, X, np.int64(3))
    assert_grads(shrinking, np.array([0.4, -0.3, 0.25, 0.7]), input_spec=[tg.TensorSpec((None,))])


def stacked_list(x, n):
    ys = []
    for i in range(n):
        ys.append(np.sin(x * i))
    return np.sum(lists.stack(ys) ** 2)


def read_list(x, n):
    ys = []
    h = x
    for i in range(n):
        h = np.tanh(h * 1.2)
        ys.append(h)
    s = 0.0
    for i in range(n):
        s = s + np.sum(ys[i] * i)
    return s + np.sum(ys[n - 1])


def list_under_cond(x, n):
    ys = []
    for i in range(n):
        if i % 2 == 1:
            ys.append(x * i)
        else:
            ys.append(np.exp(x))
    return np.sum(lists.stack(ys) ** 2)


def test_tensor_lists():
    assert_grads(stacked_list, X, np.int64(3), tape=False)
    assert_grads(read_list, X, np.int64(3), tape=False)
    assert_grads(list_under_cond, X, np.int64(4), tape=False)


def test_while_loop_saves_only_what_the_backward_pass_needs():
    def recur(x, w, n):
        h = x
        for i in range(n):
            h = np.tanh(h * w)
        return np.sum(h)

    graph = api.grad(recur, argnums=1).concrete(X, X, np.int64(3)).graph
    counts = graph.op_counts()
    # h is saved once per iteration: the backward loop holds the final h and takes each popped
    # old h as the new h of the iteration before; the constant w is not saved at all
    assert counts["list_push"] == 1 and counts["list_pop"] == 1
    assert counts["while_loop"] == 2


def test_gradient_of_a_loop_is_a_while_loop_counting_down():
    graph = api.grad(tensor_for).concrete(X, np.int64(3)).graph
    text = str(graph)
    assert text.count("while_loop") == 2 and "list_pop" in text and "greater" in text


def test_cond_gradient_is_a_cond_on_the_same_predicate():
    graph = api.grad(branchy).concrete(X).graph
    conds = [e for e in graph.eqns if e.prim.name == "cond"]
    assert len(conds) == 2 and conds[0].inputs[0] is conds[1].inputs[0]


def test_print_in_a_loop_runs_once_per_iteration(capsys):
    def noisy(x, n):
        for i in range(n):
            print("step", i)
            x = x * 2.0
        return np.sum(x)

    value, grad = api.value_and_grad(noisy)(X, np.int64(2))
    assert capsys.readouterr().out == "step 0\nstep 1\n"
    np.testing.assert_allclose(grad, [4.0, 4.0, 4.0])
    assert value == pytest.approx(4 * np.sum(X))


# ---- the control-flow programs of the conformance batch, differentiated ----------------------


def nested_break_and_continue(x):
    total = 0.0
    for i in range(3):
        for v in x:
            if v < 0:
                continue
            if total > 2.0:
                break
            total = total + np.sin(v) * (i + 1)
    return total


def for_else_with_tensor_break(x):
    acc = np.sum(x)
    for v in x:
        if v > 0.35:  # no element sits on the threshold, where differences would jump
            acc = acc * v
            break
    else:
        acc = acc * acc
    return acc


def ternary_and_short_circuit(x, w):
    y = x * w if np.sum(x) > 0 else x - w
    z = np.max(y) > 0.1 and np.min(y) < 0.5
    scale = 2.0 if z else 0.5
    return np.sum(y * y) * scale


def helper_called_in_loop(x):
    def soft(v):
        if v > 0:
            return v * v
        return 0.1 * v

    total = 0.0
    for v in x:
        total = total + soft(v)
    return total


def _halve_until_small(x, depth):
    if depth == 0:
        return x
    y = _halve_until_small(x, depth - 1)
    return y * 0.5 if np.sum(y) > 0.2 else y * 1.5


def static_recursion(x):
    return np.sum(_halve_until_small(x, 3) ** 2)


def compound_while(x):
    k = 0
    while k < 6 and np.sum(x * x) < 4.0:
        x = x * 1.3 + 0.1
        k += 1
    return np.sum(np.tanh(x))


def zip_enumerate_and_stack(x, w):
    rows = []
    for i, (a, b) in enumerate(zip(x, w)):
        if a * b > 0:
            rows.append(a * b * (i + 1))
        else:
            rows.append(a - b)
    return np.sum(np.stack(rows) ** 2)


def early_return_from_nested_loops(x):
    for k in range(3):
        for v in x:
            x = x * 1.1
            if np.sum(x) > 1.0 + k:
                return np.sum(x * x)
    return np.sum(x)


@pytest.mark.parametrize("x", [X, -X, X * 4], ids=["mixed", "flipped", "large"])
def test_grads_through_the_batch_of_control_flow_programs(x):
    """Each program's gradient through its cond/while ops equals central differences."""
    w = np.array([1.5, -0.5, 2.0])
    assert_grads(nested_break_and_continue, x)
    assert_grads(for_else_with_tensor_break, x)
    assert_grads(ternary_and_short_circuit, x, w, argnums=(0, 1))
    assert_grads(helper_called_in_loop, x)
    assert_grads(static_recursion, x)
    assert_grads(compound_while, x)
    assert_grads(zip_enumerate_and_stack, x, w, argnums=(0, 1))
    assert_grads(early_return_from_nested_loops, x)
