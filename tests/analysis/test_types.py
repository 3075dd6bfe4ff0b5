"""Type inference: static values, tensors with dtype/shape, weak values, phis decided by tensors."""

import copy
import itertools

import numpy as np
import pytest

import tograph as tg
from tograph_conformance import compare


def loop_over_rows(x, scale):
    total = np.zeros(x.shape[1], dtype=x.dtype)
    count = 0
    for row in x:
        if row.sum() > 0:
            total = total + row * scale
        count += 1
    return total / count


def static_branch(x, mode):
    if mode == "double":
        y = x * 2
    else:
        y = x
    return y


def types_of(fn, *args):
    return tg.to_static(fn, fallback="error").concrete(*args).types


def test_tensor_loop_types_follow_numpy_and_weak_counters():
    t = types_of(loop_over_rows, np.ones((4, 3), np.float32), 2.0)
    assert t["x"] == "f32[4,3]" and t["scale"] == "float (static)"
    assert t["total"] == "f32[3] (constant)"  # np.zeros of a static shape is folded while tracing
    assert t["row"] == "f32[3]" and t["total_1"] == "f32[3]"
    assert t["count"] == "int (static)" and t["count_1"] == t["count_2"] == "i64[]~"
    assert t["total_3"] == "f32[3]"  # the phi after the tensor if


def test_static_condition_keeps_values_static():
    t = types_of(static_branch, np.ones(2), "double")
    assert t["mode"] == "str (static)"
    assert t["y"] == t["y_1"] == t["y_2"] == "f64[2]"


def lazy_expressions(x):
    y = x if x.sum() > 0 else -x
    z = (x[0] if x[1] > 0 else np.float32(2)) + 1
    both = x[0] > 0 and x[1] > 0
    flipped = not x[0] > 0
    fixed = 3.0 if x.shape[0] > 1 else 1
    return y, z, both, flipped, fixed


def test_if_expressions_and_or_and_not_have_their_types():
    t = types_of(lazy_expressions, np.ones(3, np.float32))
    assert t["y"] == "f32[3]" and t["z"] == "f32[]" and t["both"] == "bool[]"
    assert t["flipped"] == "bool[]~" and t["fixed"] == "float (static)"


def list_kinds(x):
    doubled = []
    for v in x:
        if v > 0:
            doubled.append(v * 2)
    total = 0.0
    for d in doubled:
        total = total + d
    pair = [x[0]]
    pair.append(x[1])
    names = []
    for i in range(2):
        names.append(str(i))
    return total, len(doubled), pair, names


def test_lists_show_what_they_hold():
    x = np.array([1.0, -2.0, 3.0])
    t = types_of(list_kinds, x)
    assert t["doubled_1"] == t["doubled_2"] == t["doubled_3"] == "list[f64[]]"  # a tensor list
    assert t["d"] == "f64[]" and t["total_2"] == "f64[]"
    assert t["pair"] == "[f64[]]" and t["pair_1"] == "[f64[], f64[]]"  # Python lists of tensors
    assert t["names_1"] == "list (static)"
    compare.compare_values(list_kinds(x), tg.to_static(list_kinds, fallback="error")(x))


# ---- decisions: which control statements static values decide ---------------------------------


def decided(fn, *args):
    """The lowered code of ``fn`` for ``args``, and the functions' results (compiled, eager)."""
    sf = tg.to_static(fn, fallback="error")
    return sf.concrete(*args).code, sf(*args), fn(*args)


def mode_switch(x, mode, n):
    total = x * 0
    for i in range(n):  # static range: a Python loop
        if mode == "add":  # static test: a Python if
            total = total + x * i
        else:
            total = total - x
    if total.sum() > 0:  # tensor test: the runtime makes a cond
        total = total * 2
    return total


def test_static_tests_stay_python_and_tensor_tests_call_the_runtime():
    code, got, want = decided(mode_switch, np.arange(3.0), "add", 4)
    assert "for item_" not in code and "for i in _t.call(range, n):" in code
    assert "if mode == 'add':" in code
    assert "_t.if_stmt(_t.method(total, 'sum')() > 0" in code and "_t.for_stmt" not in code
    np.testing.assert_array_equal(got, want)


def loop_over_tensor_range(x, n):
    acc = x[0] * 0
    for i in range(n):
        acc = acc + x[i]
    return acc


def test_a_range_with_a_tensor_bound_is_decided_at_run_time():
    code, got, want = decided(loop_over_tensor_range, np.arange(5.0), np.int64(3))
    assert "_t.for_stmt(_t.call(range, n)" in code
    assert got == want


def enumerate_rows(x):
    total = 0.0
    for i, row in enumerate(x):
        total = total + i * row.sum()
    return total


def test_enumerate_of_a_tensor_is_a_tensor_loop_as_at_run_time():
    code, got, want = decided(enumerate_rows, np.ones((3, 2)))
    assert "_t.for_stmt(_t.call(enumerate, x)" in code
    assert got == want


def break_keeps_the_loop_variable(x):
    for i in range(10):
        if i == 3:
            break
    return x + i


def test_a_static_loop_with_break_leaves_the_target_as_python_does():
    code, got, want = decided(break_keeps_the_loop_variable, np.ones(2))
    assert "if not _t.not_(break_1):\n            break" in code
    np.testing.assert_array_equal(got, want)


def descend_until_small(w, x, y, epochs):
    """A break on a tensor makes the rest of the static range a while_loop, so ``epoch`` is a
    tensor in the body and ``if epoch % 10 == 0`` a cond (it was decided static and failed)."""
    losses = []
    for epoch in range(epochs):
        err = x @ w - y
        loss = float(np.mean(err**2))
        w = w - 0.1 * x.T @ err
        losses.append(loss)
        if loss < 1e-3:
            print(f"converged at {epoch}")
            break
        if epoch % 10 == 0:
            print(f"epoch {epoch}: {loss:.4f}")
    return w, losses, epoch


def test_the_index_of_a_range_that_a_tensor_break_may_end_is_a_tensor():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 3)) * 0.2
    y = x @ np.array([1.0, -2.0, 0.5])
    sf = tg.to_static(descend_until_small, fallback="error")
    for scale, epochs in [(1.0, 30), (0.0, 30), (1.0, 1), (1.0, 0)]:
        args = (np.zeros(3), x, y * scale, epochs)
        if epochs == 0:  # ``epoch`` is never bound: eager raises, and so does the fallback
            sf = tg.to_static(descend_until_small)
        eager = compare.observe(lambda: descend_until_small(*args))
        compiled = compare.observe(lambda: sf(*args))
        compare.compare_outcomes(eager, compiled)
    t = tg.to_static(descend_until_small).concrete(np.zeros(3), x, y, 30).types
    assert t["epoch_1"] == "i64[]~"


def counter_becomes_tensor(x):
    i = 0
    while i < 3:  # the carried i turns into a tensor in the body: not static
        i = i + (x.sum() > 100)
        i = i + 1
    return i


def test_a_loop_whose_carry_becomes_a_tensor_is_not_static():
    code, got, want = decided(counter_becomes_tensor, np.ones(2))
    assert "_t.while_stmt" in code
    assert got == want


_READS = itertools.count()


class Probe:
    @property
    def level(self):
        next(_READS)
        return 1


def reads_property(x, probe):
    if probe.level > 0:
        return x
    return -x


def draws_in_test(x):
    if np.random.rand() > 2.0:
        return x
    return -x


def test_inference_evaluates_nothing_with_effects():
    before = next(_READS)
    code, _, _ = decided(reads_property, np.ones(2), Probe())
    assert "_t.if_stmt(probe.level > 0" in code  # left to the run time: a property runs code
    assert next(_READS) == before + 3  # one read while tracing, one by the eager call
    np.random.seed(5)
    compiled = tg.to_static(draws_in_test)
    compiled(np.ones(2))  # the graph draws one number when it runs
    assert compiled.concrete(np.ones(2)).fallback is None
    drawn = np.random.rand()
    np.random.seed(5)
    np.random.rand()
    assert drawn == np.random.rand()  # neither inference nor tracing drew a number


def test_ssa_numbers_control_statements_as_lowering_does():
    from tograph.frontend import names
    from tograph.lowering import convert

    analysis = convert.analyze(mode_switch)
    tree, _ = analysis.take_tree()
    kinds = [type(s).__name__.lower() for s in names.control_statements(tree.body)]
    assert kinds == [c.kind for c in analysis.ssa.controls] == ["for", "if", "if"]


def item_of_an_argument_dict_set_to_a_tensor(x, state):
    state["loss"] = x.sum()
    if state["loss"] < state["best"]:
        state["best"] = state["loss"]
    return state["best"]


def item_of_a_local_list_set_to_a_tensor(x):
    acc = [0, 1]
    acc[0] = x.max()
    if acc[0] > acc[1]:
        return 1
    return 2


def dict_changed_by_a_method_then_tested(x, cfg):
    cfg.update(scale=x.std())
    if cfg["scale"] > 1:
        return x / cfg["scale"]
    return x


@pytest.mark.parametrize(
    "fn, args",
    [
        (item_of_an_argument_dict_set_to_a_tensor, (np.array([1.0, -3.0]), {"best": 0.0})),
        (item_of_an_argument_dict_set_to_a_tensor, (np.array([1.0, 3.0]), {"best": 0.0})),
        (item_of_a_local_list_set_to_a_tensor, (np.array([0.5, 2.0]),)),
        (item_of_a_local_list_set_to_a_tensor, (np.array([0.5, -2.0]),)),
        (dict_changed_by_a_method_then_tested, (np.array([0.5, 4.0]), {"scale": 0})),
        (dict_changed_by_a_method_then_tested, (np.array([0.5, 0.6]), {"scale": 9})),
    ],
)
def test_a_test_on_an_item_a_container_may_have_changed_is_decided_at_run_time(fn, args):
    """Fuzz seed 57: inference read the item a list or dict started with (a Python number), left
    the ``if`` as Python, and tracing met a tensor there and fell back."""
    code, got, want = decided(fn, *copy.deepcopy(args))
    assert "_t.if_stmt" in code
    np.testing.assert_array_equal(got, want)


def first_pair_apart(xs, t):
    for i in range(xs.shape[0]):
        for j in range(i):  # empty on the first trip, but not on the others
            if xs[i] - xs[j] > t:
                return i, j
    return -1, -1


def test_an_inner_range_empty_on_the_first_trip_decides_nothing():
    """The first trip stands in for every trip of a static loop; an inner ``range(i)`` empty
    on it made the tensor test under it unseen, so the return flag it sets passed for static
    and the outer loop stayed Python, which then asked a tensor for its truth (a fallback)."""
    sf = tg.to_static(first_pair_apart, fallback="error")
    xs = np.array([1.0, 2.0, 3.0, 4.0])
    for t in (2.5, 0.5, 9.0):
        compare.compare_values(first_pair_apart(xs, np.float64(t)), sf(xs, np.float64(t)))
    assert sf.concrete(xs, np.float64(0.0)).types["j"] == "i64[]~"
