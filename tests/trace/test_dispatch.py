"""Dispatch: ``bind`` sends a primitive to the highest-priority traced class among its arguments
or runs the kernel on plain values; the ``implements``/``overrides`` tables that tensors' NumPy
protocols read; ``is_numpy``; the error for a NumPy function without a primitive."""

import math
import operator
import textwrap
import types as pytypes

import numpy as np
import pytest

import tograph as tg
from tograph import eager, errors
from tograph.ir import primitives, types
from tograph.ops import elementwise
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, tensor

F64_3 = types.TensorType(np.float64, (3,))


class Traced:
    """A fake traced class: records which class bound the primitive, and with what."""

    PRIORITY = 0
    calls: list = []

    @classmethod
    def bind_primitive(cls, prim, args, params):
        cls.calls.append((cls.__name__, prim, args, params))
        return cls.__name__


class Low(Traced):
    PRIORITY = 1


class High(Traced):
    PRIORITY = 5


class AlsoHigh(Traced):
    PRIORITY = 5


class NotTraced:
    """Has a priority but no ``bind_primitive``: never an owner."""

    PRIORITY = 100


@pytest.fixture(autouse=True)
def _fresh_calls():
    Traced.calls = []
    yield
    Traced.calls = []


@pytest.mark.parametrize(
    "args, owner",
    [
        ((Low(),), "Low"),
        ((Low(), High()), "High"),
        ((High(), Low()), "High"),
        ((1.0, Low(), 2, High(), NotTraced()), "High"),
        ((High(), AlsoHigh()), "High"),  # equal priority: the first argument's class
        ((AlsoHigh(), High()), "AlsoHigh"),
    ],
)
def test_bind_picks_the_highest_priority_traced_class(args, owner):
    assert dispatch.bind(elementwise.add_p, args, {"k": 1}) == owner
    ((name, prim, got_args, params),) = Traced.calls
    assert (name, prim, params) == (owner, elementwise.add_p, {"k": 1})
    assert got_args is args  # the class sees every argument, in order


@pytest.mark.parametrize(
    "a, b", [(2, 3), (1.5, 2), (np.float32(1.5), 2), (np.arange(3), np.ones(3, np.int8))]
)
def test_bind_of_plain_values_runs_the_kernel(a, b):
    got = dispatch.bind(elementwise.add_p, (a, b), {})
    expected = np.add(a, b)
    np.testing.assert_array_equal(got, expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    assert Traced.calls == []


def test_primitive_bind_goes_through_dispatch():
    assert elementwise.add_p.bind(Low(), 1) == "Low"
    assert elementwise.multiply_p.bind(3, 4) == 12


def test_a_symbolic_tensor_outranks_an_eager_one():
    assert tensor.SymbolicTensor.PRIORITY > eager.EagerTensor.PRIORITY > tensor.TensorBase.PRIORITY
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        y = dispatch.bind(elementwise.add_p, (eager.EagerTensor(np.ones(3)), x), {})
        graph = b.finish([y])
    assert isinstance(y, tensor.SymbolicTensor)
    assert str(graph) == textwrap.dedent("""\
        graph g(x:f64[3]):
          t0:f64[3] = add [1.0, 1.0, 1.0]:f64[3] x
          return t0""")


def test_eager_tensors_alone_compute_at_once():
    got = dispatch.bind(elementwise.add_p, (eager.EagerTensor(np.arange(3.0)), 1), {})
    assert isinstance(got, eager.EagerTensor)
    np.testing.assert_array_equal(got.numpy(), [1.0, 2.0, 3.0])


def test_implements_files_ufuncs_and_functions_in_their_tables(monkeypatch):
    monkeypatch.setattr(dispatch, "UFUNCS", {})
    monkeypatch.setattr(dispatch, "FUNCTIONS", {})
    ufunc = np.frompyfunc(lambda a: a, 1, 1)

    def handler(*args):
        return args

    assert dispatch.implements(ufunc, np.cumsum, operator.getitem)(handler) is handler
    assert dispatch.UFUNCS == {ufunc: handler}
    assert dispatch.FUNCTIONS == {np.cumsum: handler, operator.getitem: handler}


def test_overrides_files_handlers_for_callables_numpy_does_not_dispatch(monkeypatch):
    monkeypatch.setattr(dispatch, "OVERRIDES", {})

    def handler(*args):
        return args

    assert dispatch.overrides(np.zeros, np.ones)(handler) is handler
    assert dispatch.OVERRIDES == {np.zeros: handler, np.ones: handler}


def test_the_ops_register_their_handlers():
    for ufunc in (np.add, np.exp, np.less, np.logical_not):
        assert ufunc in dispatch.UFUNCS
    for fn in (np.sum, np.reshape, np.shape, np.astype, operator.getitem, round):
        assert fn in dispatch.FUNCTIONS
    for fn in (np.zeros, np.array, np.arange, np.stack):
        assert fn in dispatch.OVERRIDES
    assert not any(isinstance(fn, np.ufunc) for fn in dispatch.FUNCTIONS)


def test_tensor_protocols_look_up_the_tables(monkeypatch):
    seen = []

    def spy_ufunc(*args, **kwargs):
        seen.append(("exp", args, kwargs))
        return "from ufunc table"

    def spy_function(*args, **kwargs):
        seen.append(("cumsum", args, kwargs))
        return "from function table"

    monkeypatch.setitem(dispatch.UFUNCS, np.exp, spy_ufunc)
    monkeypatch.setitem(dispatch.FUNCTIONS, np.cumsum, spy_function)
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        assert np.exp(x) == "from ufunc table"
        assert np.cumsum(x, axis=0) == "from function table"
    assert [(name, kwargs) for name, _, kwargs in seen] == [("exp", {}), ("cumsum", {"axis": 0})]
    assert all(args[0] is x for _, args, _ in seen)
    assert b.eqns == []


@pytest.mark.parametrize(
    "obj",
    [
        np.add,
        np.frompyfunc(lambda a: a, 1, 1),
        np.sum,
        np.linalg.norm,
        np,
        np.linalg,
        np.random,
        np.ndarray,
        np.float32,
        np.dtype,
        np.random.default_rng,
        np.random.default_rng(0).normal,
    ],
)
def test_is_numpy(obj):
    assert dispatch.is_numpy(obj)


@pytest.mark.parametrize(
    "obj",
    [
        math.exp,
        max,
        len,
        lambda a: a,
        dispatch.bind,
        math,
        pytypes.ModuleType("numpyish"),
        pytypes.ModuleType("mylib.numpy"),
        type("Fake", (), {"__module__": "numpyish.core"}),
        type("Odd", (), {"__module__": None}),
        3.0,
    ],
)
def test_is_not_numpy(obj):
    assert not dispatch.is_numpy(obj)


def test_a_numpy_function_without_a_primitive_is_unsupported():
    exc = dispatch.unsupported("np.histogram")
    assert isinstance(exc, errors.UnsupportedError)
    assert exc.construct == "np.histogram"
    assert exc.message == "NumPy function np.histogram is not supported on tensors"
    assert "eagerly" in exc.hint
    b = builder_mod.GraphBuilder("g")
    with b.active():
        x = b.add_input(F64_3, "x")
        with pytest.raises(errors.UnsupportedError, match="np.save is not") as info:
            np.save("never-written.npy", x)
        assert info.value.construct == "np.save"
    assert b.eqns == []


def test_dispatch_is_the_installed_binder():
    assert primitives._binder is dispatch.bind


def scimath_fn(a):
    return np.emath.sqrt(a)


def window_fn(a):
    return np.lib.stride_tricks.sliding_window_view(a, 2)


@pytest.mark.parametrize(
    "fn, written",
    [
        (scimath_fn, "np.lib.scimath.sqrt"),
        (window_fn, "np.lib.stride_tricks.sliding_window_view"),
    ],
)
def test_fallback_reasons_name_numpy_callables_by_their_module_path(fn, written):
    cf = tg.to_static(fn, fallback="silent").concrete(np.eye(2))
    assert f"NumPy function {written} is not supported" in cf.fallback
    with eager.Tape() as tape:
        x = tape.watch(np.eye(2))
        with pytest.raises(errors.UnsupportedError, match=f"^{written} on a watched"):
            fn(x)
