"""Optional values: a variable missing (None or unset) on one side and a value on the other made
an ``Optional`` on both (present flag + value, a pytree node of two leaves), loop starts lifted
where the body sets or makes one, uses that act on the value only where it is known present, and
results boxed as ``None`` or the value."""

import numpy as np
import pytest

from tograph import errors
from tograph.ir import pytree
from tograph.staging import carried, optional
from tograph.trace import builder as builder_mod

F64_3 = np.zeros(3)


def test_an_optional_is_a_tree_of_its_flag_and_value_with_the_variables_path():
    value = optional.MaybeNone(np.bool_(True), 2.5)
    leaves, tree = pytree.flatten((value, 1))
    assert leaves == [np.bool_(True), 2.5, 1]
    assert tree.paths("s") == ["s[0]", "s[0]", "s[1]"]
    rebuilt = tree.unflatten([np.bool_(False), 0.0, 1])
    assert isinstance(rebuilt[0], optional.MaybeNone) and rebuilt[0].value == 0.0


@pytest.mark.parametrize(
    "a, b, kind",
    [
        (1.5, None, optional.MaybeNone),
        (None, F64_3, optional.MaybeNone),
        (carried.Undefined("y"), 2, optional.MaybeUnset),
        (optional.MaybeNone(np.bool_(True), 1.0), None, optional.MaybeNone),
    ],
)
def test_align_makes_both_sides_optional(a, b, kind):
    left, right = optional.align((a,), (b,), ("y",))
    for before, after in ((a, left[0]), (b, right[0])):
        assert type(after) is kind
        if isinstance(before, optional.Optional):
            assert after is before
        elif before is None or isinstance(before, carried.Undefined):
            assert not after.present and isinstance(after.value, carried.Placeholder)
        else:
            assert after.present and after.value is before


@pytest.mark.parametrize(
    "a, b",
    [
        (1.5, 2.5),
        (None, None),
        (None, carried.Undefined("y")),
        ("text", None),
        (carried.Placeholder("retval"), 1.0),
    ],
)
def test_align_leaves_alone_what_needs_no_optional(a, b):
    assert optional.align((a,), (b,), ("y",)) == ((a,), (b,))


def test_a_loop_start_is_lifted_where_the_body_sets_the_variable():
    start = (carried.Undefined("last"), 0)
    lifted = optional.lift_init(start, (1.5, 1), ("last", "n"))
    assert isinstance(lifted[0], optional.MaybeUnset) and not lifted[0].present
    assert lifted[1] == 0
    assert optional.lift_init((1.0, 0), (1.5, 1), ("a", "n")) is None


def test_a_body_returns_optionals_where_the_loop_starts_with_one():
    start = (optional.MaybeNone(np.bool_(False), carried.Placeholder("res")),)
    body = optional.lifting(lambda res: (2.0,), start, ("res",))
    (out,) = body(*start)
    assert isinstance(out, optional.MaybeNone) and out.present and out.value == 2.0


def test_uses_act_on_the_value_only_where_it_is_known_present():
    value = optional.MaybeNone(np.bool_(True), 2.0)
    with pytest.raises(errors.UnsupportedError, match="None on some paths"):
        value + 1
    branch = optional.assuming(lambda: (value + 1, 3 * value, -value, value > 1), value, [])
    assert branch() == (3.0, 6.0, -2.0, True)
    with pytest.raises(errors.UnsupportedError):
        str(value)
    with pytest.raises(AttributeError):
        value._storage  # noqa: B018 - the compiler's probes see no such attribute


def test_numpy_functions_take_the_value_where_it_is_known_present():
    value = optional.MaybeNone(np.bool_(True), np.array([4.0, 9.0]))
    (root, total) = optional.assuming(lambda: (np.sqrt(value), np.sum(value)), value, [])()
    np.testing.assert_array_equal(root, [2.0, 3.0])
    assert total == 13.0


def test_results_are_boxed_as_none_or_the_value():
    assert optional.boxed((optional.MaybeNone(np.bool_(False), carried.Placeholder("r")), 1)) == (
        None,
        1,
    )
    assert optional.boxed([optional.MaybeNone(np.bool_(True), 2.0)]) == [2.0]
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        flag = builder.add_input(carried.type_of(np.bool_(True)), "p")
        boxed = optional.boxed({"r": optional.MaybeNone(flag, 1.0)})
    leaves, tree = pytree.flatten(boxed)
    assert tree.unflatten([np.bool_(False), 1.0]) == {"r": None}
    assert tree.unflatten([np.bool_(True), 1.0]) == {"r": 1.0}
    with pytest.raises(errors.UnsupportedError, match="unbound on some paths"):
        optional.boxed(optional.MaybeUnset(flag, 1.0))


def test_a_result_unbound_on_some_paths_is_refused_naming_the_function():
    # fuzz seed 146: boxed after the function's code ran, the refusal named no line
    where = errors.SourceLocation("model.py", 7, 0, "def f(x):")
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        flag = builder.add_input(carried.type_of(np.bool_(True)), "flag")
        unset = optional.MaybeUnset(flag, 1.5)
        with pytest.raises(errors.UnsupportedError, match="unbound on some paths") as caught:
            optional.boxed((unset,), where=where)
    assert "model.py:7" in str(caught.value)
