"""Reads of variables that may be unset: the value, an ``UnboundLocalError`` at once when it is
known unset, a ``cond`` holding a ``raise`` when that is known only when the graph runs; ``is
None`` tests on optionals as weak bools, and the branch they refine."""

import numpy as np
import pytest

from tograph import errors
from tograph.ir import types
from tograph.staging import carried, optional, reads
from tograph.trace import builder as builder_mod

BOOL = types.TensorType(np.dtype(np.bool_), ())
F64 = types.TensorType(np.dtype(np.float64), ())


def test_a_read_of_a_set_or_static_value_is_the_value():
    assert reads.read(2.0, "y") == 2.0
    assert reads.read(optional.MaybeUnset(np.bool_(True), 3.0), "y") == 3.0


@pytest.mark.parametrize(
    "value",
    [carried.Undefined("y"), optional.MaybeUnset(np.bool_(False), carried.Placeholder("y"))],
)
def test_a_read_known_unset_raises_eagers_error_now(value):
    with pytest.raises(errors.UnboundVariableError) as info:
        reads.read(value, "y")
    assert info.value.message == (
        "cannot access local variable 'y' where it is not associated with a value"
    )
    assert isinstance(info.value, UnboundLocalError)


def test_a_read_that_may_be_unset_checks_when_the_graph_runs():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        flag, value = builder.add_input(BOOL, "p"), builder.add_input(F64, "y")
        assert reads.read(optional.MaybeUnset(flag, value), "y") is value
    (eqn,) = builder.eqns
    assert eqn.prim.name == "cond"
    assert "raise" in str(eqn.params["else_graph"])
    assert "UnboundLocalError" in str(eqn.params["else_graph"])


def test_is_none_on_an_optional_is_a_weak_bool_that_refines_the_branch():
    builder = builder_mod.GraphBuilder("g")
    with builder.active():
        flag, value = builder.add_input(BOOL, "p"), builder.add_input(F64, "y")
        maybe = optional.MaybeNone(flag, value)
        test = reads.is_none(maybe)
        assert test.graph_var.type.weak and test.graph_var.type.dtype == np.bool_
        body, orelse = reads.refine(test, lambda: maybe.use(), lambda: maybe.use(), ())
        assert orelse() is value
        with pytest.raises(errors.UnsupportedError):
            body()
        assert reads.refine(reads.is_not_none(maybe), body, orelse, ())[1] is orelse


def test_is_none_on_other_values_is_pythons():
    assert reads.is_none(None) is True and reads.is_not_none(0) is True
    assert reads.is_none(optional.MaybeNone(np.bool_(False), 0.0)) is True
