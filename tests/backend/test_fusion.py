"""Blocked fusion: chunked elementwise regions give the unfused results bit for bit, with the same
dtypes, layouts, errors and warnings. Sizes are made small by lowering the thresholds."""

import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.backend import codegen, fusion, strict

UNFUSED = codegen.Options(fuse=False, reuse=False)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 40)
    monkeypatch.setattr(fusion, "CHUNK_ELEMENTS", 16)


def run_both(fn, *args):
    """``fn`` compiled fused and unfused on ``args``: the results, checked equal bit for bit."""
    cf = tg.to_static(fn, fallback="error").concrete(*args)
    graph = cf.graph
    assert "for start in range" in codegen.source_of(graph, cf.compile_options)
    fused = codegen.compile_graph(graph, cf.compile_options)(*args)
    plain = codegen.compile_graph(graph, UNFUSED)(*args)
    for got, expected in zip(fused, plain):
        assert type(got) is type(expected) and got.dtype == expected.dtype
        assert got.shape == expected.shape and got.strides == expected.strides
        assert got.tobytes() == expected.tobytes()
    eager = fn(*args)
    eager = eager if isinstance(eager, tuple) else (eager,)
    for got, expected in zip(fused, eager):
        np.testing.assert_array_equal(got, expected)
    return fused


def chain(a, b, c):
    return np.tanh(a * b + c) * 0.5 + a * np.exp(-(b * b))


@pytest.mark.parametrize("n", [100, 112])  # a partial last chunk, and none
def test_a_chain_with_special_values_is_bit_identical(n):
    rng = np.random.default_rng(0)
    a, b, c = (rng.normal(size=n).astype(np.float32) for _ in range(3))
    a[:4] = [np.nan, np.inf, -np.inf, -0.0]
    with np.errstate(all="ignore"):
        run_both(chain, a, b, c)


def broadcasting(x, row, col, k):
    y = np.where(x > 0, x, 0.25) * row + col
    z = (y**2).astype(np.float32) - k
    return np.clip(z, -1, 1) + np.round(y, 1), np.sum(y, axis=1)


def test_broadcast_operands_scalars_casts_and_operators_without_out():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(12, 5))
    out = run_both(broadcasting, x, rng.normal(size=5), rng.normal(size=(12, 1)), np.float32(2))
    assert out[0].dtype == np.float64


def test_integer_regions_wrap_as_numpy_does():
    x = np.arange(60, dtype=np.int16) * 1000
    run_both(lambda x: (x * 3 + 7) ^ (x >> 2), x)


def overflow(x):
    return np.exp(x * 2.0) + x * x


def test_errors_are_those_of_the_unfused_graph():
    x = np.linspace(0.0, 400.0, 64)
    graph = tg.to_static(overflow).concrete(x).graph
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as fused:
            codegen.compile_graph(graph)(x)
        with pytest.raises(FloatingPointError) as plain:
            codegen.compile_graph(graph, UNFUSED)(x)
    # the same NumPy error (the rerun of the unfused graph raised it), noted with its equation
    assert str(fused.value) == str(plain.value) and "exp" in str(fused.value)
    assert fused.value.__notes__ == plain.value.__notes__


def test_warnings_are_those_of_the_unfused_graph():
    x = np.linspace(0.0, 400.0, 64)
    graph = tg.to_static(overflow).concrete(x).graph
    caught = []
    with np.errstate(over="ignore"):
        expected = overflow(x)
    for options in (codegen.DEFAULT, UNFUSED):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            result = codegen.compile_graph(graph, options)(x)[0]
        caught.append([str(w.message) for w in found])
        np.testing.assert_array_equal(result, expected)
    assert caught[0] == caught[1] == ["overflow encountered in exp"]


def test_a_region_in_a_loop_body_updates_its_carry():
    def loop(x, n):
        for _ in range(n):
            x = np.tanh(x * 2.0 + 1.0) - x
        return x

    run_both(loop, np.linspace(-1, 1, 50), np.int64(3))


def test_arrays_of_unknown_layout_are_not_fused_and_keep_their_strides():
    x = np.asfortranarray(np.arange(60.0).reshape(6, 10))
    f = tg.to_static(lambda x: np.sin(x) * 2 + x)
    assert "for start in range" not in codegen.source_of(f.concrete(x).graph)
    assert f(x).strides == (np.sin(x) * 2 + x).strides


def test_a_graph_fused_for_c_inputs_checks_the_layout_it_relies_on():
    f = tg.to_static(lambda x: np.sin(x) * 2 + x)
    c = np.arange(60.0).reshape(6, 10)
    fortran = np.asfortranarray(c)
    assert "for start in range" in codegen.source_of(
        f.concrete(c).graph, f.concrete(c).compile_options
    )
    for x in (c, fortran, c, fortran):  # the second call of each takes the fast path
        got, expected = f(x), np.sin(x) * 2 + x
        assert got.strides == expected.strides and got.tobytes() == expected.tobytes()


def test_casts_from_complex_numbers_are_not_fused_and_warn_once():
    """NumPy's ComplexWarning comes from ``warnings``, not the error state: chunks repeat it."""

    def drop_imaginary(x):
        return (x * 2.0 + 1j).astype(np.float64) + x

    x = np.linspace(-1.0, 1.0, 64)
    for fn in (drop_imaginary, tg.to_static(drop_imaginary)):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            np.testing.assert_array_equal(fn(x), 3 * x)
        assert [w.category for w in found] == [np.exceptions.ComplexWarning]


def test_fused_regions_raise_only_for_what_the_caller_does_not_ignore():
    """``strict.errstate`` keeps ignored categories ignored (underflow, by default), so an
    underflowing chain need not rerun; the others raise, so the region reruns unfused."""
    with np.errstate(under="ignore", over="warn", divide="raise", invalid="print"):
        with strict.errstate():
            assert np.geterr() == {
                "under": "ignore",
                "over": "raise",
                "divide": "raise",
                "invalid": "raise",
            }
    x = np.linspace(-800.0, -700.0, 64)
    with np.errstate(under="ignore"), strict.errstate():
        np.exp(x * 1.0)  # underflows to subnormals: no exception
