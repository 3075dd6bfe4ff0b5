"""Kind tags: a variable that is a weak scalar (a Python number) on one side and a NumPy scalar
(or another Python type) on the other is made ``Kinded`` on both, with a code of its kind, loop
starts are lifted where the body changes the kind,
tagged tensors enter control flow as ``Kinded`` and leave it with the tag beside them, and a
returned tagged value is rebuilt as a Python number or a NumPy scalar by its tag."""

import numpy as np
import pytest

from tograph.ir import pytree, types
from tograph.staging import kinds
from tograph.trace import builder as builder_mod

F64 = types.TensorType(np.dtype(np.float64), ())
I8 = types.TensorType(np.dtype(np.int8), ())


CODES = {bool: 1, int: 2, float: 3, complex: 4, np.int32: 19, np.int64: 20, np.float64: 29}


@pytest.mark.parametrize(
    "a, b",
    [
        (0, np.int32(5)),
        (np.float64(1.0), 2.0),
        (0, 1.5),
        (True, 2),
        (1j, 1.0),
        (np.int32(0), np.int64(1)),
        (kinds.Kinded(np.int8(2), 1, frozenset({2})), 3),
    ],
)
def test_scalars_of_different_kinds_are_tagged_on_both_sides(a, b):
    left, right = kinds.align((a,), (b,), ("r",))
    assert isinstance(left[0], kinds.Kinded) and isinstance(right[0], kinds.Kinded)
    for before, after in ((a, left[0]), (b, right[0])):
        if not isinstance(before, kinds.Kinded):
            assert after.code == CODES[type(before)] and after.value is before


@pytest.mark.parametrize(
    "a, b", [(0, 1), (np.int32(0), np.int32(1)), (np.zeros(3), 1.0), (None, 1), ("a", 1)]
)
def test_values_of_one_kind_or_not_scalars_are_left_alone(a, b):
    assert kinds.align((a,), (b,), ("r",)) == ((a,), (b,))


def test_a_loop_start_is_tagged_where_the_body_changes_the_kind():
    lifted = kinds.lift_init((0, 1.0), (np.int32(1), 2.0))
    assert isinstance(lifted[0], kinds.Kinded) and lifted[1] == 1.0
    assert kinds.lift_init((0, 1.0), (2, 3.0)) is None
    body = kinds.lifting(lambda r: (np.int32(2),), lifted[:1])
    (out,) = body(lifted[0])
    assert isinstance(out, kinds.Kinded) and out.code == CODES[np.int32]


def test_a_tagged_tensor_enters_as_kinded_and_leaves_with_its_tag():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        tag, value = builder.add_input(I8, "tag"), builder.add_input(F64, "r")
        (exposed,) = kinds.expose((kinds.Kinded(tag, value, frozenset({3, 29})),))
        assert exposed is value and value.kind_tag is tag
        (entered,) = kinds.enter((exposed,))
        assert isinstance(entered, kinds.Kinded) and entered.code is tag
        seen = kinds.inside(lambda r: (r,), results=True)(entered)
        assert isinstance(seen[0], kinds.Kinded)
        boxed = kinds.boxed((exposed, 1))
    leaves, tree = pytree.flatten(boxed)
    assert leaves[0] is tag and leaves[1] is value
    python_float = tree.unflatten([np.int8(3), np.float64(2.5), 1])
    assert type(python_float[0]) is float and python_float == (2.5, 1)
    python_int = tree.unflatten([np.int8(2), np.float64(2.0), 1])
    assert type(python_int[0]) is int and python_int == (2, 1)
    numpy_int32 = tree.unflatten([np.int8(CODES[np.int32]), np.float64(7.0), 1])
    assert type(numpy_int32[0]) is np.int32 and numpy_int32 == (7, 1)


def test_a_static_tag_exposes_the_value_itself():
    assert kinds.expose((kinds.Kinded(np.int8(2), 3, frozenset({2})),)) == (3,)
