"""Parallel scheduling: independent costly chains run on threads with the sequential results,
errors and warnings; cheap or effectful graphs stay sequential."""

import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.backend import codegen, parallel

SEQUENTIAL = codegen.Options(parallel=False)


@pytest.fixture
def cheap_tasks(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_TASK_NS", 1.0)


def two_chains(a, b, c, d):
    x = np.tanh(a @ b)
    x = np.exp(x @ b)
    y = np.tanh(c @ d)
    y = np.log(y @ d + 10.0)
    return x + y, np.sum(x)


def compiled(fn, *args):
    cf = tg.to_static(fn, fallback="error").concrete(*args)
    return cf.graph, codegen.compile_graph(cf.graph, cf.compile_options)


def test_independent_chains_run_as_tasks_with_the_sequential_results(cheap_tasks):
    args = tuple(np.random.default_rng(i).normal(size=(6, 6)) for i in range(4))
    graph, run = compiled(two_chains, *args)
    split = parallel.split(graph)
    assert split is not None and len(split.tasks) == 2
    assert [e.prim.name for e in split.tail.eqns] == ["add"]
    assert "run_tasks" in codegen.source_of(graph, codegen.Options(c_inputs=(True,) * 4))
    for got, expected in zip(run(*args), codegen.compile_graph(graph, SEQUENTIAL)(*args)):
        assert type(got) is type(expected)
        assert np.asarray(got).tobytes() == np.asarray(expected).tobytes()


def test_failures_and_warnings_are_the_sequential_ones(cheap_tasks):
    args = [np.full((4, 4), 300.0) for _ in range(4)]  # exp overflows in the first chain
    graph, run = compiled(two_chains, *args)
    with np.errstate(all="raise"), pytest.raises(FloatingPointError, match="overflow"):
        run(*args)
    for options in (codegen.DEFAULT, SEQUENTIAL):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            codegen.compile_graph(graph, options)(*args)
        assert [str(w.message) for w in found] == ["overflow encountered in exp"]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        run(*args)  # the caller's errstate reaches the tasks: no warning


def test_cheap_or_effectful_graphs_stay_sequential(cheap_tasks):
    def printing(a, b):
        print("chains")
        return two_chains(a, b, a, b)

    args = [np.ones((3, 3))] * 2
    graph = tg.to_static(printing).concrete(*args).graph
    assert parallel.split(graph) is None


def test_the_default_cost_model_leaves_small_work_alone():
    args = tuple(np.ones((6, 6)) for _ in range(4))
    assert parallel.split(compiled(two_chains, *args)[0]) is None


def ordered(a, b, c):
    x = np.exp(a @ b)
    y = np.exp(b @ a) * 0.0
    z = c / 0.0  # cheap: run before the tasks in the split graph
    return x + y, z


def warnings_of(run, *args):
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        run(*args)
    return [str(w.message) for w in found]


def test_warnings_and_errors_keep_the_graphs_order_around_cheap_work(cheap_tasks):
    args = (np.full((4, 4), 30.0), np.full((4, 4), 30.0), np.ones(2))
    graph, run = compiled(ordered, *args)
    split = parallel.split(graph)
    assert split is not None and [e.prim.name for e in split.head.eqns] == ["divide"]
    sequential = codegen.compile_graph(graph, SEQUENTIAL)
    expected = [
        "overflow encountered in exp",
        "overflow encountered in exp",
        "invalid value encountered in multiply",
        "divide by zero encountered in divide",
    ]
    assert warnings_of(run, *args) == warnings_of(sequential, *args) == expected
    with np.errstate(all="raise"), pytest.raises(FloatingPointError, match="overflow"):
        run(*args)


def test_graphs_that_may_warn_outside_the_error_state_stay_sequential(cheap_tasks):
    def empty_mean(a, b):
        return two_chains(a, b, b, a)[0] + np.mean(a[:0])

    def complex_cast(a, b):
        return two_chains(a, b, b, a)[0] + (a + 1j).astype(np.float64)

    args = [np.ones((3, 3))] * 2
    for fn in (empty_mean, complex_cast):
        graph, run = compiled(fn, *args)
        assert parallel.split(graph) is None
        assert warnings_of(run, *args) == warnings_of(fn, *args) != []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_array_equal(run(*args)[0], fn(*args))


def test_elementwise_chains_stay_on_one_thread_for_fusion():
    """Memory-bound work: one fused region beats two threads (W4), so only products count."""

    def chains(a, b, c):
        return np.tanh(a * b + c) * 0.5 + a * np.exp(-(b * b))

    args = tuple(np.ones(1 << 20, np.float32) for _ in range(3))
    assert parallel.split(compiled(chains, *args)[0]) is None
