"""The memory planner: elementwise results written into dead buffers, never into arguments,
results or memory a view still reads; peak bytes planned and measured."""

import tracemalloc
import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.backend import codegen, memory

N = 8192  # float64: 64 KiB per array
PLANNED = codegen.Options(fuse=False)
PLAIN = codegen.Options(fuse=False, reuse=False)


@pytest.fixture(autouse=True)
def small_arrays(monkeypatch):
    monkeypatch.setattr(memory, "MIN_BYTES", 1024)


def chain(a, b, c):
    return np.tanh(a * b + c) * 0.5 + a * np.exp(-(b * b))


def measured_peak(fn, *args):
    """Bytes NumPy allocates at most during ``fn(*args)`` (tracemalloc sees array buffers)."""
    fn(*args)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn(*args)
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_a_forward_elementwise_graph_needs_its_output_and_one_temporary():
    args = tuple(np.random.default_rng(i).normal(size=N) for i in range(3))
    graph = tg.to_static(chain).concrete(*args).graph
    planned, plain = codegen.compile_graph(graph, PLANNED), codegen.compile_graph(graph, PLAIN)
    assert planned(*args)[0].tobytes() == plain(*args)[0].tobytes() == chain(*args).tobytes()
    array = N * 8
    assert measured_peak(planned, *args) <= 2 * array + 4096
    assert measured_peak(plain, *args) >= 3 * array
    plan = codegen.memory_plan(graph, PLANNED)
    assert plan.exact and plan.input_bytes == 3 * array
    assert plan.peak_bytes == plan.input_bytes + 2 * array


def keeps_views(a, b):
    t = a * 2.0
    v = t[1:]
    u = np.exp(t) + b
    w = np.sin(u)
    return w, v, a


def test_arguments_results_and_viewed_buffers_are_never_written():
    a, b = np.linspace(-1, 1, N), np.linspace(0, 2, N)
    saved = a.copy(), b.copy()
    graph = tg.to_static(keeps_views).concrete(a, b).graph
    got = codegen.compile_graph(graph, PLANNED)(a, b)
    for result, expected in zip(got, keeps_views(*saved)):
        np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(a, saved[0])
    np.testing.assert_array_equal(b, saved[1])
    plan = codegen.memory_plan(graph, PLANNED)
    # ``+ b`` and ``sin`` compute in exp's buffer; ``t``'s is still read through ``v``
    (buffer,) = set(plan.donors.values())
    assert [e.prim.name for e in graph.eqns if buffer in e.outputs] == ["exp"]


def test_the_concrete_function_reports_its_plan():
    args = tuple(np.ones(N, np.float32) for _ in range(3))
    plan = tg.to_static(chain).concrete(*args).memory_plan()
    assert plan is not None and plan.peak_bytes >= plan.input_bytes + N * 4


def _pushes_then_computes(x, n):
    acc = []
    i = 0
    while i < n:
        t = x * 2.0
        acc.append(t)
        x = t + 1.0  # t dies here, but the list still holds it
        i += 1
    return np.stack(acc), acc[-1] * 3.0


@pytest.mark.parametrize("n", [1, 3])
def test_an_array_pushed_onto_a_tensor_list_is_never_written(n):
    x = np.linspace(-1, 1, N)
    expected = _pushes_then_computes(x.copy(), np.int64(n))
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        got = tg.to_static(_pushes_then_computes)(x.copy(), np.int64(n))
    for result, want in zip(got, expected):
        np.testing.assert_array_equal(result, want)


def _part_then_compute(z):
    w = z * 2
    r = w.real
    i = np.imag(w)
    u = w + 1  # w dies here, but its parts are views of it
    return r, i.sum(), u


def _bits_then_compute(a):
    w = a * 2.0
    bits = w.view(np.int64)
    u = w + 1.0
    return bits, u


@pytest.mark.parametrize(
    ("fn", "arg"),
    [
        (_part_then_compute, np.exp(1j * np.linspace(0.0, 6.0, N))),
        (_bits_then_compute, np.linspace(-1.0, 1.0, N)),
    ],
)
def test_a_buffer_a_view_still_reads_is_never_lent(fn, arg):
    expected = fn(arg.copy())
    got = tg.to_static(fn)(arg.copy())
    for result, want in zip(got, expected):
        np.testing.assert_array_equal(result, want)


def _recurrence(x, w, b, n):
    h = x
    for _ in range(n):
        h = np.tanh(h @ w + b) * 0.5
    return h, np.tanh(x @ w + b) * 0.5


def test_a_loop_body_reuses_buffers_too_small_to_reuse_outside_a_loop(monkeypatch):
    monkeypatch.setattr(memory, "MIN_BYTES", 1 << 62)
    rng = np.random.default_rng(3)
    x, w, b = rng.normal(size=(4, 64)), rng.normal(size=(64, 64)) * 0.1, rng.normal(size=64)
    saved = x.copy(), w.copy(), b.copy()
    assert 4 * 64 * 8 >= memory.LOOP_MIN_BYTES
    compiled = tg.to_static(_recurrence)
    for n in (0, 1, 5):
        got = compiled(x, w, b, np.int64(n))
        expected = _recurrence(*saved, n)
        for result, want in zip(got, expected):
            assert result.dtype == want.dtype and result.tobytes() == want.tobytes()
        assert (got[0] is x) == (n == 0)
        for arg, before in zip((x, w, b), saved):
            np.testing.assert_array_equal(arg, before)
    graph = compiled.concrete(x, w, b, np.int64(5)).graph
    source = codegen.source_of(graph, PLANNED)
    # in the loop add, tanh and multiply compute in the product's buffer; after it nothing does
    assert source.count("out=") == 3
    assert all("out=" not in line for line in source.splitlines() if "x @ w" in line)
