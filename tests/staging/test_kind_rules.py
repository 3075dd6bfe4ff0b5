"""The rule for operations on kind-tagged values: a result whose kind differs by path only in
being a Python number or a NumPy scalar of one dtype is tagged with the kinds it may have; one
whose dtype would differ by path is refused."""

import numpy as np
import pytest

from tograph import errors
from tograph.ir import types
from tograph.staging import (
    kinds,
    runtime,  # noqa: F401 - installs the rule in the builder
)
from tograph.trace import builder as builder_mod

F64 = types.TensorType(np.dtype(np.float64), ())
F32 = types.TensorType(np.dtype(np.float32), ())
I8 = types.TensorType(np.dtype(np.int8), ())
PYTHON_FLOAT, NUMPY_FLOAT64 = types.kind_code(F64.dtype, True), types.kind_code(F64.dtype, False)
PYTHON_INT = types.kind_code(np.dtype(np.int64), True)


def tagged(builder, t, options):
    tag, value = builder.add_input(I8, "tag"), builder.add_input(t, "r")
    (exposed,) = kinds.expose((kinds.Kinded(tag, value, frozenset(options)),))
    return exposed


def test_a_python_float_or_float64_plus_one_is_tagged_with_both_kinds():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        r = tagged(builder, F64, {PYTHON_FLOAT, NUMPY_FLOAT64})
        total, less = r + 1, r < 2
    assert total.kind_options == {PYTHON_FLOAT, NUMPY_FLOAT64}
    assert less.kind_options == {types.kind_code(np.dtype(bool), True), 16}


def test_a_python_int_or_float32_plus_one_is_refused():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        r = tagged(builder, F32, {PYTHON_INT, types.kind_code(F32.dtype, False)})
        with pytest.raises(errors.UnsupportedError, match="would depend on the path"):
            r + 1


def test_stacking_many_numbers_of_two_kinds_checks_each_set_of_kinds_once(monkeypatch):
    # 2^16 combinations of kinds, but stack's type depends only on which kinds occur
    from tograph.staging import kind_rules

    checked = []
    real = kind_rules._combination
    monkeypatch.setattr(kind_rules, "_combination", lambda *a: checked.append(a[4]) or real(*a))
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        numbers = [tagged(builder, F64, {PYTHON_FLOAT, NUMPY_FLOAT64}) for _ in range(16)]
        stacked = np.stack(numbers)
    assert stacked.type == types.TensorType(F64.dtype, (16,))
    assert len(checked) == 3  # {python float}, {float64}, {both}
