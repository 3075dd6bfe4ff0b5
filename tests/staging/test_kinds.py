"""Kind tags: a variable that is a weak scalar (a Python number) on one side and a NumPy scalar
on the other is made ``Kinded`` on both, loop starts are lifted where the body changes the kind,
tagged tensors enter control flow as ``Kinded`` and leave it with the tag beside them, and a
returned tagged value is rebuilt as a Python number or a NumPy scalar by its tag."""

import numpy as np
import pytest

from tograph.ir import pytree, types
from tograph.staging import kinds
from tograph.trace import builder as builder_mod

F64 = types.TensorType(np.dtype(np.float64), ())
BOOL = types.TensorType(np.dtype(np.bool_), ())


@pytest.mark.parametrize(
    "a, b", [(0, np.int32(5)), (np.float64(1.0), 2.0), (kinds.Kinded(np.bool_(True), 1), 3)]
)
def test_scalars_of_different_kinds_are_tagged_on_both_sides(a, b):
    left, right = kinds.align((a,), (b,), ("r",))
    assert isinstance(left[0], kinds.Kinded) and isinstance(right[0], kinds.Kinded)
    for before, after in ((a, left[0]), (b, right[0])):
        if not isinstance(before, kinds.Kinded):
            assert after.weak == types.is_python_scalar(before) and after.value is before


@pytest.mark.parametrize(
    "a, b", [(0, 1), (np.int32(0), np.int64(1)), (np.zeros(3), 1.0), (None, 1), ("a", 1)]
)
def test_values_of_one_kind_or_not_scalars_are_left_alone(a, b):
    assert kinds.align((a,), (b,), ("r",)) == ((a,), (b,))


def test_a_loop_start_is_tagged_where_the_body_changes_the_kind():
    lifted = kinds.lift_init((0, 1.0), (np.int32(1), 2.0))
    assert isinstance(lifted[0], kinds.Kinded) and lifted[1] == 1.0
    assert kinds.lift_init((0, 1.0), (2, 3.0)) is None
    body = kinds.lifting(lambda r: (np.int32(2),), lifted[:1])
    (out,) = body(lifted[0])
    assert isinstance(out, kinds.Kinded) and out.weak == np.bool_(False)


def test_a_tagged_tensor_enters_as_kinded_and_leaves_with_its_tag():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        tag, value = builder.add_input(BOOL, "tag"), builder.add_input(F64, "r")
        (exposed,) = kinds.expose((kinds.Kinded(tag, value),))
        assert exposed is value and value.kind_tag is tag
        (entered,) = kinds.enter((exposed,))
        assert isinstance(entered, kinds.Kinded) and entered.weak is tag
        seen = kinds.inside(lambda r: (r,), results=True)(entered)
        assert isinstance(seen[0], kinds.Kinded)
        boxed = kinds.boxed((exposed, 1))
    leaves, tree = pytree.flatten(boxed)
    assert leaves[0] is tag and leaves[1] is value
    weak, strong = tree.unflatten([True, np.float64(2.5), 1]), tree.unflatten([False, 2.5, 1])
    assert type(weak[0]) is float and weak == (2.5, 1)
    assert strong == (2.5, 1)
    assert type(tree.unflatten([False, np.float64(2.5), 1])[0]) is np.float64


def test_a_static_tag_exposes_the_value_itself():
    assert kinds.expose((kinds.Kinded(np.bool_(True), 3),)) == (3,)
