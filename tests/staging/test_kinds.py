"""staging.kinds: the kinds a scalar may have, converting to one, and joins that hold each
kind's values exactly."""

import numpy as np
import pytest

from tograph.ir import types
from tograph.staging import kinds
from tograph.trace import builder as builder_mod

F32 = (np.dtype(np.float32), False, False)
F64 = (np.dtype(np.float64), False, False)
PY_FLOAT = (np.dtype(np.float64), True, False)
ARRAY = (np.dtype(np.float64), False, True)


@pytest.mark.parametrize(
    "kind, expected",
    [(PY_FLOAT, 2.5), (F32, np.float32(2.5)), (F64, np.float64(2.5)), (ARRAY, np.array(2.5))],
)
def test_convert_gives_a_value_of_the_kind(kind, expected):
    got = kinds.convert(np.float64(2.5), kind)
    assert type(got) is type(expected) and got == expected
    assert np.asarray(got).dtype == np.asarray(expected).dtype


@pytest.mark.parametrize(
    "value, kind",
    [(2.5, PY_FLOAT), (np.float32(1), F32), (np.array(1.0), ARRAY), (True, None), ("a", None)],
)
def test_kind_of_a_scalar(value, kind):
    expected = (np.dtype(np.bool_), True, False) if value is True else kind
    assert kinds.kind_of(value) == expected


@pytest.mark.parametrize(
    "python, widened", [(0.5, False), (0.1, True), (float("nan"), False), (1e300, True)]
)
def test_a_join_with_a_python_float_holds_it_exactly(python, widened):
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.dtype(np.float32), (), False), "x")
        joined = types.join(x.type, types.type_of(python))
        exact = kinds.exact_join(x, python, joined)
    assert exact.dtype == (np.float64 if widened else np.float32)
    assert not exact.weak


def test_a_join_with_a_computed_python_float_is_float64():
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(types.TensorType(np.dtype(np.float32), (), False), "x")
        y = b.add_input(types.TensorType(np.dtype(np.float64), (), True), "y")
        assert kinds.exact_join(x, y, types.join(x.type, y.type)).dtype == np.float64
        assert kinds.union(x, x) is None
        assert kinds.union(x, y) == (F32, PY_FLOAT)
