"""Host calls: pure NumPy functions without a primitive run as one ``numpy_call`` equation.

Checked against NumPy over dtypes and shapes (the probes' types, run-time dims, data-dependent
lengths, several results, Python-scalar results), inside tensor loops with nothing falling back,
and for what must not take the path: impure functions fall back naming the reason, writes into
``out=`` are refused, and differentiating a host call is an error at the user's line.
"""

import re
import warnings

import numpy as np
import pytest
from loop_harness import assert_compiles_in_loop
from op_harness import check, trace

import tograph as tg
from tograph import errors
from tograph.ir import types
from tograph.ops import host_api, host_call, host_probe

RNG = np.random.default_rng(3)
FLOATS = (np.float32, np.float64)


def sample(shape, dtype):
    if np.dtype(dtype).kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return RNG.integers(0, 6, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [*FLOATS, np.complex128])
@pytest.mark.parametrize("shape", [(0,), (), (5,), (2, 3)])
def test_elementwise_functions_over_dtypes_and_shapes(dtype, shape):
    x = sample(shape, dtype)
    for fn in (np.sinc, np.fix if dtype is not np.complex128 else np.sinc, np.nan_to_num):
        graph = check(fn, x)
        assert "numpy_call" in str(graph)
        check(fn, x, unknown={0: range(len(shape))})


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.bool_])
def test_integer_and_bool_functions(dtype):
    x = sample((6,), dtype)
    check(np.packbits, x.astype(bool))
    check(lambda x: np.count_nonzero(x, axis=0), x)
    if dtype is not np.bool_:
        check(lambda x: np.gcd(x, 4), x)
        check(lambda x: np.lcm(x, 3), x)
        check(np.bincount, x.astype(np.int64), exact=False)


def test_unknown_and_data_dependent_dims_are_none():
    x = np.array([0.0, 1.0, 2.0, 0.0])
    assert trace(np.setdiff1d, *[types.type_of(x)] * 2).out_types[0].shape == (None,)
    check(lambda x: np.setdiff1d(x, [1.0]), x, exact=False)
    with pytest.raises(errors.UnsupportedError, match="np.roots .*dtype depends on the values"):
        trace(np.roots, types.type_of(x))  # real or complex roots: a dtype a graph cannot have
    counts = trace(np.bincount, types.TensorType(np.int64, (4,))).out_types[0]
    assert counts.shape == (None,)
    graph = check(lambda x: np.histogram(x, bins=3), x)
    assert [t.shape for t in graph.out_types] == [(3,), (4,)]  # bins fix the lengths
    check(lambda x: np.polydiv(x, x[1:]), x, exact=False)


def test_functions_that_want_increasing_arguments_are_probed_with_such():
    # bins that are not monotonic make NumPy raise, and the default probes are random
    x = np.array([0.1, 0.4, 0.5, 0.9, 1.0])
    edges = np.array([0.0, 0.25, 0.5, 1.0])
    check(lambda x, e: np.digitize(x, e), x, edges)
    check(lambda x, e: np.digitize(x, e, right=True), x, edges.astype(np.float32))
    with pytest.raises(errors.UnsupportedError, match="np.histogram returns a view"):
        trace(np.histogram, types.type_of(x), types.type_of(edges))  # eager's edges are `edges`


def test_several_results_lists_and_scalars_keep_numpy_structure():
    x = np.array([1.5, -2.25, 3.0])
    check(np.frexp, x)
    check(lambda x: np.divmod(x, 2.0), x)
    check(lambda x: np.modf(x), x)
    check(lambda x: np.array_equal(x, x), x)  # a Python bool: a weak result
    check(lambda x: flat(np.histogramdd(np.stack([x, x], axis=1), bins=2)), x)
    check(lambda x: np.linalg.matrix_rank(np.outer(x, x)), x)
    check(lambda x: np.fft.ihfft(x), x)


def flat(result):
    """``(hist, [edges, ...])`` as one tuple (the harness traces flat results)."""
    hist, edges = result
    assert isinstance(edges, list)
    return (hist, *edges)


def test_static_arguments_arrays_and_keywords_are_params():
    x = np.array([3.0, 1.0, 2.0, 5.0])
    graph = check(lambda x: np.digitize(x, np.array([1.5, 2.5]), right=True), x)
    text = str(graph)
    assert "numpy_call[args=($0, [1.5, 2.5]), fn=np.digitize, kwargs=(('right', True),)]" in text


def test_prints_the_function_name():
    graph = trace(np.sinc, types.TensorType(np.float64, (3,)))
    assert str(graph).splitlines()[1].strip() == "t0:f64[3] = numpy_call[fn=np.sinc] x0"


@pytest.mark.parametrize("dtype", FLOATS)
def test_host_calls_compile_inside_tensor_loops(dtype):
    x = sample((5,), dtype)
    assert_compiles_in_loop(lambda x: np.sinc(x) + np.fix(x), x)
    assert_compiles_in_loop(lambda x: np.fft.hfft(x)[:3], x)
    assert_compiles_in_loop(lambda x: np.union1d(np.round(x), x[:2]), x)


def test_impure_functions_fall_back_naming_the_reason():
    def text(x):
        return np.array2string(x)

    with pytest.warns(tg.FallbackWarning, match="array2string"):
        assert tg.to_static(text)(np.ones(2)) == text(np.ones(2))

    def callback(x):
        return np.vectorize(abs)(x)

    with pytest.warns(tg.FallbackWarning, match="vectorize"):
        np.testing.assert_array_equal(tg.to_static(callback)(np.eye(2)), callback(np.eye(2)))


def test_the_lists_name_real_numpy_callables_and_agree():
    everything = host_api.public_callables()
    assert set(host_api.IMPURE) - set(everything) <= {"DataSource"}
    assert not host_api.DATA_SHAPED & set(host_api.IMPURE)
    assert host_api.is_pure(np.sinc) and host_api.is_pure(np.add)
    assert not host_api.is_pure(np.save) and not host_api.is_pure(np.isnat)
    for name in ("save", "shares_memory", "float64"):
        assert host_api.why_impure(name)


def test_a_numpy_function_names_only_pure_functions():
    assert repr(host_call.NumpyFunction("linalg.tensorsolve")) == "np.linalg.tensorsolve"
    assert host_call.NumpyFunction("add", "reduceat").fn == np.add.reduceat
    with pytest.raises(ValueError, match="reads or writes files"):
        host_call.NumpyFunction("save")
    with pytest.raises(ValueError, match="method 'at'"):
        host_call.NumpyFunction("add", "at")


def test_results_never_alias_the_inputs():
    x = np.arange(4.0)
    (out,) = host_call.numpy_call_p.impl(x, fn=host_call.NumpyFunction("nan_to_num"))
    assert not np.shares_memory(out, x)
    with pytest.raises(errors.UnsupportedError, match="returns a view of its argument"):
        host_probe._leaf_type(host_call.NumpyFunction("sinc"), x[1:], [x])


def test_a_probe_that_guessed_a_dim_wrongly_is_an_error_not_a_shape():
    @tg.to_static(fallback="error")
    def lengths(x):
        return np.unique(np.fix(x), return_counts=True, axis=0)

    x = np.array([1.0, 1.0, 2.0])
    for got, want in zip(lengths(x), lengths.python_function(x)):
        np.testing.assert_array_equal(got, want)
    ok = np.zeros(3)
    (out,) = host_call._check_all((ok,), ((3,),), host_call.NumpyFunction("sinc"))
    assert out is ok
    with pytest.raises(errors.ShapeError, match=re.escape("np.sinc returned shape (3,)")):
        host_call._check_all((ok,), ((4,),), host_call.NumpyFunction("sinc"))


def test_gradients_through_a_host_call_are_an_error_at_the_line():
    def loss(x):
        return np.sum(np.sinc(x) * x)  # the line

    for fn in (tg.to_static(loss), loss):
        with pytest.raises(errors.UnsupportedError, match=r"differentiate np\.sinc") as info:
            tg.grad(fn)(np.ones(3))
        assert "the line" in info.value.loc.source_line


def test_a_saved_host_call_loads_and_runs():
    @tg.to_static(fallback="error")
    def f(x):
        return np.digitize(x, np.array([0.5, 1.5])), np.fft.hfft(x, n=4)

    x = np.array([0.25, 1.0, 2.0])
    loaded = tg.export.loads(tg.export.saves(f.concrete(x)))
    for got, want in zip(loaded(x), f(x)):
        np.testing.assert_array_equal(got, want)


def test_no_warning_leaks_from_the_probes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a probe of zeros divides by zero
        trace(lambda x: np.float_power(x, -1), types.TensorType(np.float64, (3,)))
