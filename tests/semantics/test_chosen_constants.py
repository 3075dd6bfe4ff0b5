"""Constants chosen by tensor tests, under to_static: a label or status that an ``if`` on a tensor
or a loop over tensors picks (``"cold"``/``"warm"``/``"hot"``, ``"converged"`` before a
``break``, ``None`` or ``"up"``) compiles, returned as the very option eager returns, compared
with ``==``, ``!=``, ``is``, ``in`` when the graph runs; any other use of it runs eagerly naming
the construct. Each case is compared with its eager run (``eager_oracle``)."""

import sys
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager, outcome

import tograph as tg

INPUTS = [np.array([1.0, 2.0]), np.array([6.0, 9.0]), np.array([20.0, 30.0]), np.array([-3.0])]


def classify(x):
    t = x.sum()
    if t < 10:
        return "cold"
    elif t < 25:
        return "warm"
    else:
        return "hot"


def sign_label(x):
    res = "neg" if x.sum() < 0 else "pos"
    return res


def none_then_label(x):
    mode = None
    if x.sum() > 5:
        mode = "up"
    return mode


def nested_choices(x):
    if x[0] > 0:
        kind = "small" if x.sum() < 10 else "large"
    else:
        kind = None
    return kind, x * 2


def label_or_number(x):
    if x.sum() > 10:
        return "many"
    return 0


def bools_and_labels(x):
    flag = "unknown"
    if x.sum() > 10:
        flag = True
    elif x.sum() < 0:
        flag = False
    return flag


def minimise(x):
    status = "max_iter"
    i = 0
    while i < 20:
        x = x * 0.5
        if np.abs(x).sum() < 0.5:
            status = "converged"
            break
        i += 1
    return x, status


def three_statuses_in_a_loop(x):
    status = "running"
    i = 0
    while i < 6:
        if x.sum() > 25:
            status = "diverged"
        elif x.sum() > 10:
            status = "slow"
        x = x + 1.0
        i += 1
    return status


def zero_trip_loop(x):
    status = "untouched"
    while x.sum() > 1000:
        status = "shrunk"
        x = x / 2
    return status, x


def compared_after_the_choice(x):
    status = classify(x)
    if status == "hot":
        x = x - 1.0
    same = status != "warm"
    known = status in ("cold", "hot")
    unseen = status == "never"
    return x, same, known, unseen


def identity_tests(x):
    mode = none_then_label(x)
    missing = mode is None
    present = mode is not None
    return missing, present


def two_choices_compared(x):
    a = classify(x)
    b = "hot" if x[0] > 10 else "cold"
    return a == b, a != b


def returned_in_a_dict(x):
    label = sign_label(x)
    return {"label": label, "total": x.sum()}


CASES = [
    classify,
    sign_label,
    none_then_label,
    nested_choices,
    label_or_number,
    bools_and_labels,
    minimise,
    three_statuses_in_a_loop,
    zero_trip_loop,
    compared_after_the_choice,
    identity_tests,
    two_choices_compared,
    returned_in_a_dict,
]


def _strings(value):
    if isinstance(value, str):
        return [value]
    if isinstance(value, (tuple, list)):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


@pytest.mark.parametrize("fn", CASES)
@pytest.mark.parametrize("x", INPUTS, ids=["small", "mid", "large", "negative"])
def test_chosen_constants_compile_and_match_eager(fn, x):
    assert_matches_eager(fn, x)
    eager, _, _ = outcome(fn, (x,))
    compiled, _, _ = outcome(tg.to_static(fn), (x,))
    for e, c in zip(_strings(eager), _strings(compiled)):
        assert c is e is sys.intern(e)  # the option itself: eager's interned literal


def test_one_graph_picks_every_option_when_it_runs():
    static = tg.to_static(classify)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        for x in INPUTS:
            assert static(x) is classify(x)
        assert static(np.array([7.0, 9.0])) is classify(np.array([7.0, 9.0]))


def test_the_options_are_told_apart_by_type():
    def one_true_or_label(x):
        if x[0] > 10:
            return 1
        if x[0] > 0:
            return True
        if x[0] > -10:
            return 1.0
        return "none"

    for x in [np.array([20.0]), np.array([5.0]), np.array([-5.0]), np.array([-20.0])]:
        assert_matches_eager(one_true_or_label, x)


def test_loop_status_is_the_start_when_the_loop_never_runs():
    static = tg.to_static(minimise)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        for x in [np.array([0.1]), np.array([100.0]), np.array([1e9])]:
            value, status = static(x)
            expected_value, expected_status = minimise(x)
            assert status is expected_status
            np.testing.assert_array_equal(value, expected_value)


def test_an_attribute_set_to_a_choice_is_the_option_afterwards():
    class Tracker:
        def __init__(self):
            self.state = "idle"

        def step(self, x):
            if x.sum() > 5:
                self.state = "busy"
            return x + 1

    for x in INPUTS:
        eager_obj, compiled_obj = Tracker(), Tracker()
        expected = eager_obj.step(x)
        np.testing.assert_array_equal(tg.to_static(compiled_obj.step)(x), expected)
        assert compiled_obj.state is eager_obj.state


def printed(x):
    label = sign_label(x)
    print(label)
    return x


def formatted(x):
    label = sign_label(x)
    return f"label={label}"


def upper_case(x):
    return sign_label(x).upper()


def length(x):
    return len(sign_label(x))


def dict_key(x):
    counts = {"neg": 0, "pos": 0}
    counts[sign_label(x)] = 1
    return counts


def is_a_string(x):
    return isinstance(sign_label(x), str)


def truth(x):
    mode = none_then_label(x)
    if mode:
        return x + 1
    return x


def concatenated(x):
    return sign_label(x) + "!"


@pytest.mark.parametrize(
    "fn", [printed, formatted, upper_case, length, dict_key, is_a_string, truth, concatenated]
)
@pytest.mark.parametrize("x", [INPUTS[0], INPUTS[3]], ids=["pos", "neg"])
def test_other_uses_of_a_choice_run_eagerly_naming_the_line(fn, x, capsys):
    cf = assert_matches_eager(fn, x, compiles=False)
    assert "depending on a tensor test" in cf.fallback
    assert "test_chosen_constants.py" in cf.fallback


def value_and_status(x):
    y = (x * x).sum()
    status = "big" if y > 10 else "small"
    return y, status


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([3.0, 4.0])])
def test_grad_of_a_value_and_status_pair_differentiates_the_value(x):
    grad = tg.grad(lambda v: value_and_status(v)[0])
    np.testing.assert_allclose(grad(x), 2 * x)
    with pytest.raises(tg.ToGraphError, match="must return one scalar"):
        tg.grad(value_and_status)(x)


def appended_to_the_callers_list(x, log):
    log.append(sign_label(x))
    return x


def counted_in_a_for_loop(x):
    verdict = "none"
    for i in range(x.shape[0]):
        if x[i] > 5:
            verdict = "some"
    return verdict


def grown_option_by_option(x):
    stage = "start"
    i = 0
    while i < 3:
        if x.sum() > 20:
            stage = "third"
        elif stage == "second":
            stage = "done"
        elif x.sum() > 5:
            stage = "second"
        x = x + 10.0
        i += 1
    return stage


def passed_to_a_helper_that_compares(x):
    def is_hot(label):
        return label == "hot"

    return is_hot(classify(x))


def state_machine(x):
    state = "init"
    steps = 0
    while state != "done":
        if state == "init":
            state = "run"
        elif x.sum() > 3:
            state = "done"
        else:
            x = x + 1.0
        steps += 1
    return x, steps


def compared_with_numbers(x):
    label = "neg" if x.sum() < 0 else 0
    return label == 0, label == 0.0, label == False, label != "neg"  # noqa: E712


@pytest.mark.parametrize(
    "fn",
    [
        counted_in_a_for_loop,
        grown_option_by_option,
        passed_to_a_helper_that_compares,
        state_machine,
        compared_with_numbers,
    ],
)
@pytest.mark.parametrize("x", INPUTS, ids=["small", "mid", "large", "negative"])
def test_choices_in_loops_and_helpers_match_eager(fn, x):
    assert_matches_eager(fn, x)


@pytest.mark.parametrize("x", INPUTS, ids=["small", "mid", "large", "negative"])
def test_a_choice_appended_to_the_callers_list_is_the_option(x):
    eager_log, compiled_log = ["first"], ["first"]
    appended_to_the_callers_list(x, eager_log)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        tg.to_static(appended_to_the_callers_list)(x, compiled_log)
    assert compiled_log == eager_log
    assert compiled_log[1] is eager_log[1]


def test_a_saved_choice_loads_and_picks_when_it_runs(tmp_path):
    static = tg.to_static(minimise)
    static(INPUTS[0])
    tg.save(static, tmp_path / "minimise.tg")
    loaded = tg.load(tmp_path / "minimise.tg")
    for x in [np.array([0.1, 0.1]), np.array([3.0, 1.0]), np.array([1e9, 1.0])]:
        value, status = loaded(x)
        expected_value, expected_status = minimise(x)
        np.testing.assert_array_equal(value, expected_value)
        assert type(status) is str and status == expected_status


def scaled_by_status(x):
    y = (x * x).sum()
    status = "big" if y > 10 else "small"
    i = 0
    while i < 3:
        if y > 20:
            status = "huge"
        y = y * 1.5
        i += 1
    scale = 3.0 if status == "big" else 1.0
    return y * scale


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([3.0, 1.0]), np.array([5.0, 1.0])])
def test_grad_flows_through_a_value_scaled_by_a_choice(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        grad = tg.grad(scaled_by_status)(x)
    eps = 1e-6
    steps = np.eye(x.shape[0]) * eps
    numeric = [(scaled_by_status(x + d) - scaled_by_status(x - d)) / (2 * eps) for d in steps]
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)


def returned_from_inside_a_tensor_loop(a):
    for v in a:
        if v > 2.0:
            return "big" if v > 5 else "mid"
    return "small"


@pytest.mark.parametrize("a", [np.array([1.0, 3.0]), np.array([1.0, 7.0]), np.array([])])
def test_a_choice_returned_from_inside_a_tensor_loop(a):
    assert_matches_eager(returned_from_inside_a_tensor_loop, a)


_NAMESPACE: dict = {}
exec("def unconvertible(label):\n    return label is None\n", _NAMESPACE)  # no source to convert


def passed_to_an_unconvertible_function(x):
    return _NAMESPACE["unconvertible"](none_then_label(x))


@pytest.mark.parametrize("x", [INPUTS[0], INPUTS[2]], ids=["none", "up"])
def test_a_choice_passed_to_a_function_that_cannot_be_converted_runs_eagerly(x):
    cf = assert_matches_eager(passed_to_an_unconvertible_function, x, compiles=False)
    assert "source" in cf.fallback


def equal_but_distinct_labels(x, name, other):
    if x.sum() > 0:
        return name
    return other if x.sum() > -5 else None


def test_equal_but_distinct_options_are_the_very_object_eager_returns():
    # Options were told apart by value: a string argument equal to another (or to a constant)
    # was one option, and the graph gave back the first of the two for both.
    name, other = "".join(["ab", "c"]), "".join(["ab", "c"])
    static = tg.to_static(equal_but_distinct_labels)
    for x in [np.array([1.0]), np.array([-1.0]), np.array([-9.0])]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tg.FallbackWarning)
            got = static(x, name, other)
        assert got is equal_but_distinct_labels(x, name, other)
