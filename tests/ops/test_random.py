"""Random draws (``ops.random``): compiled functions draw what eager code draws, when the graph
runs, from the same generators, which end in the same states.

The oracle runs the function eagerly and compiled, each from the same seeds of NumPy's and
Python's global generators and on deep copies of the arguments (generators among them), several
calls in a row, and compares the results, the arguments afterwards (generators by their state) and
the global states afterwards.
"""

from __future__ import annotations

import copy
import random
import re
import threading
import warnings

import numpy as np
import pytest

import tograph as tg
from tograph import errors
from tograph.ops import random as random_ops
from tograph_conformance import compare

V = np.array([0.5, -1.5, 2.0, 3.25])


def _run(fn, args, calls):
    np.random.seed(11)
    random.seed(12)
    copies = copy.deepcopy(args)
    results = [fn(*copies) for _ in range(calls)]
    return results, copies, compare.global_random_states()


def assert_draws_like_eager(fn, *args, calls=2, **options):
    """``tg.to_static(fn, **options)`` compiles and matches ``fn`` over ``calls`` calls."""
    static = tg.to_static(fn, fallback="error", **options)
    eager = _run(fn, args, calls)
    compiled = _run(static, args, calls)
    compare.compare_values(eager[0], compiled[0], "results")
    compare.compare_values(eager[1], compiled[1], "arguments afterwards")
    compare.compare_values(eager[2], compiled[2], "global random states")
    return static.concrete(*copy.deepcopy(args))


# ---- the sources -------------------------------------------------------------------------


def test_legacy_global_functions_and_seed():
    def legacy(x):
        a = np.random.rand(2) + np.random.randn()
        b = np.random.random(size=x.shape) * np.random.uniform(1.0, 2.0)
        c = np.random.normal(x, 0.5), np.random.randint(0, 10, size=x.shape)
        np.random.seed(3)
        y = x.copy()
        np.random.shuffle(y)
        return a, b, c, y, np.random.permutation(x), np.random.choice(5), np.random.choice(x, 2)

    cf = assert_draws_like_eager(legacy, V)
    assert cf.op_counts()["random"] == 11


def test_legacy_aliases_draw_as_random_sample():
    def aliases(x):
        return np.random.ranf(2) + np.random.sample(size=2) + np.random.random_sample() + x[:2]

    cf = assert_draws_like_eager(aliases, V)
    assert cf.op_counts()["random"] == 3


def test_shuffle_writes_the_argument_and_its_views():
    def shuffled(x, rng):
        rng.shuffle(x)
        rng.shuffle(x[1:])
        np.random.shuffle(x[::2])
        return x.sum()

    assert_draws_like_eager(shuffled, np.arange(7.0), np.random.default_rng(2))


@pytest.mark.parametrize(
    "make", [np.random.default_rng, np.random.RandomState], ids=["Generator", "RandomState"]
)
def test_generator_argument_advances_as_eager(make):
    def draws(x, rng):
        common = rng.normal(size=3), rng.uniform(x, 5.0), rng.choice(x, size=2), rng.permutation(4)
        if isinstance(rng, np.random.Generator):
            extra = rng.integers(0, 9, size=x.shape), rng.standard_normal(), rng.random(2)
        else:
            extra = rng.randint(0, 9, size=x.shape), rng.standard_normal(), rng.rand(2)
        return common, extra, rng.exponential(2.0), rng.poisson(3.0, 2), rng.binomial(5, 0.5)

    assert_draws_like_eager(draws, V, make(4), calls=3)


def test_choice_with_probabilities_from_a_tensor_compiles_and_draws_as_eager():
    def weighted(rng, weights):
        p = weights / weights.sum()
        return rng.choice(len(p), size=6, p=p), rng.choice(weights, p=p)

    assert_draws_like_eager(weighted, np.random.default_rng(3), np.array([1.0, 3.0, 0.0, 4.0]))
    unnormalised = tg.to_static(lambda rng, p: rng.choice(3, p=p))
    with pytest.raises(ValueError, match="sum to 1"):
        unnormalised(np.random.default_rng(3), np.array([0.5, 0.5, 0.5]))


def test_generator_from_closure_global_and_attribute():
    held = np.random.default_rng(5)

    def closure(x):
        return x * held.normal(size=x.shape)

    class Model:
        def __init__(self):
            self.rng = np.random.default_rng(6)

        def noisy(self, x):
            return x + self.rng.standard_normal(x.shape)

    first = tg.to_static(closure)(V)
    twin = np.random.default_rng(5)
    assert np.array_equal(first, V * twin.normal(size=4))
    assert held.random() == twin.random()
    assert_draws_like_eager(lambda m, x: m.noisy(x), Model(), V)


def test_generators_made_in_the_function_are_made_anew_each_call():
    def made(x):
        rng = np.random.default_rng(7)
        legacy = np.random.RandomState(8)
        python = random.Random(9)
        return x + rng.normal(size=x.shape), legacy.rand(), python.gauss(0.0, 1.0)

    static = tg.to_static(made, fallback="error")
    first, second = static(V), static(V)
    compare.compare_values(made(V), first)
    compare.compare_values(first, second)  # the same seed each call, as eagerly
    assert_draws_like_eager(made, V)


def test_stdlib_functions_give_eagers_kinds():
    def stdlib(x, r):
        return (
            random.random(),
            random.gauss(0.0, 1.0),
            random.randint(1, 6),
            random.uniform(x, 2.0),
            random.choice([1, 2, 3]),
            r.random() * x,
            r.randrange(10),
        )

    for x in (1.5, np.float32(1.5), np.float64(1.5)):
        assert_draws_like_eager(stdlib, x, random.Random(3))


# ---- control flow and repeated calls -----------------------------------------------------


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_only_the_taken_branch_draws(sign):
    def branch(x, rng):
        if x.sum() > 0:
            y = rng.normal(size=x.shape)
        else:
            y = rng.uniform(size=2).sum() + x
        return y

    cf = assert_draws_like_eager(branch, sign * V, np.random.default_rng(1), calls=3)
    assert "cond" in cf.op_counts()


def test_a_draw_in_a_while_condition_draws_once_per_test():
    def walk(x, rng):
        steps = 0
        while rng.random() < 0.8:
            x = x + rng.integers(0, 3)
            steps += 1
        return x, steps

    cf = assert_draws_like_eager(walk, V, np.random.default_rng(5), calls=4)
    assert cf.op_counts()["random"] == 2


def test_monte_carlo_loop_draws_each_trip():
    def estimate(n, k):
        rng = np.random.default_rng(0)
        acc = 0.0
        for _ in range(n):
            x = rng.normal(size=k)
            acc += np.mean(x * x)
        return acc / n

    cf = assert_draws_like_eager(estimate, np.int64(50), 3)
    assert "while_loop" in cf.op_counts()


def test_sizes_from_shapes_known_only_at_run_time():
    def shaped(x, rng):
        n = x.shape[0]
        return x * rng.normal(size=x.shape), rng.integers(0, 5, size=n), rng.permutation(n)

    static = tg.to_static(shaped, input_spec=[tg.TensorSpec((None,)), None], fallback="error")
    graph = str(static.concrete(V, np.random.default_rng()).graph)
    assert "f64[None] = random[draw=rng.normal(size=($0,))]" in graph
    for size in (2, 5):
        r1, r2 = np.random.default_rng(size), np.random.default_rng(size)
        compare.compare_values(shaped(np.ones(size), r1), static(np.ones(size), r2))


def test_each_call_draws_anew():
    static = tg.to_static(lambda x: x + np.random.normal(size=x.shape), fallback="error")
    assert not np.array_equal(static(V), static(V))


def test_an_unused_draw_still_draws_and_equal_draws_stay_apart():
    def wasteful(x, rng):
        rng.normal()  # unused: the generator still advances
        a = rng.normal()
        b = rng.normal()  # the same call: not merged with a
        return x + a - b

    cf = assert_draws_like_eager(wasteful, V, np.random.default_rng(0))
    assert cf.op_counts()["random"] == 3


def test_printed_form():
    def printed(x, rng):
        return np.random.normal(size=(3,)) + rng.normal(x[0], 1.0, size=3)

    graph = str(tg.to_static(printed).concrete(V, np.random.default_rng()).graph)
    assert "t0:f64[3] = random[draw=np.random.normal(size=(3,))]" in graph
    assert "random[draw=rng.normal($0, 1.0, size=3)]" in graph


def test_threads_each_make_their_own_generator():
    static = tg.to_static(lambda x: x * np.random.default_rng(4).random(64).sum())
    static(V)
    expected = V * np.random.default_rng(4).random(64).sum()
    results = []
    threads = [threading.Thread(target=lambda: results.append(static(V))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, expected) for r in results)


def test_large_arrays_through_fusion_and_buffer_reuse():
    def chain(x, rng):
        y = np.exp(x) * 2.0 + 1.0
        z = np.sin(y) + rng.normal(size=x.shape)
        return np.sqrt(np.abs(z * y)) - rng.random(x.shape)

    assert_draws_like_eager(chain, np.linspace(-1, 1, 70_000), np.random.default_rng(3), calls=1)


# ---- tracing never draws -------------------------------------------------------------------


def test_a_trace_that_falls_back_leaves_the_generators_untouched():
    def partial(x, rng):
        a = rng.normal() + np.random.rand() + random.random()
        state = np.random.get_state()  # not a draw: the trace stops here and falls back
        return a + x, state[2]

    eager = _run(partial, (1.0, np.random.default_rng(9)), 1)
    with pytest.warns(tg.FallbackWarning, match="get_state is not a draw"):
        compiled = _run(tg.to_static(partial), (1.0, np.random.default_rng(9)), 1)
    for e, c in zip(eager, compiled):
        compare.compare_values(e, c)


def test_graph_that_raises_after_drawing_reruns_from_the_same_state():
    def failing(x, rng):
        rng.shuffle(x)
        if x[0] > 2.0:
            raise ValueError("too big")
        return x

    for seed in range(6):
        r_eager, r_compiled = np.random.default_rng(seed), np.random.default_rng(seed)
        xe, xc = np.arange(4.0), np.arange(4.0)
        outcomes = []
        for fn, x, r in ((failing, xe, r_eager), (tg.to_static(failing), xc, r_compiled)):
            try:
                outcomes.append(fn(x, r))
            except ValueError as exc:
                outcomes.append(str(exc))
        compare.compare_values(outcomes[0], outcomes[1])
        compare.compare_values((xe, r_eager), (xc, r_compiled))


# ---- what falls back ---------------------------------------------------------------------


def _made_and_returned(x):
    rng = np.random.default_rng(0)
    return x + rng.normal(), rng


def _made_and_stored(obj, x):
    obj.rng = np.random.default_rng(0)
    return x


def _spawned(x):
    return np.random.default_rng(0).spawn(2), x


def _tensor_seed(x):
    return np.random.default_rng(int(x[0])).random()


def _kind_by_path(x, flag):
    bound = 0
    if flag > 0:
        bound = np.int32(3)  # a Python int on one path, a NumPy scalar on the other
    return random.uniform(0, bound) + x


def _bit_generator(x):
    return np.random.Generator(np.random.PCG64(0)).random() + x


@pytest.mark.parametrize(
    ("fn", "args", "reason"),
    [
        (_made_and_returned, (V,), "outlives the call"),
        (_made_and_stored, (type("Box", (), {})(), V), "outlives the call"),
        (_spawned, (V,), r"default_rng\(0\)\.spawn is not a draw"),
        (_tensor_seed, (V,), "seed known only when the graph runs"),
        (_bit_generator, (V,), "PCG64 is not a draw"),
        (_kind_by_path, (V, np.float64(-1.0)), "Python or NumPy scalar depending on the path"),
    ],
)
def test_what_is_not_a_draw_falls_back_with_the_reason(fn, args, reason):
    static = tg.to_static(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        static(*copy.deepcopy(args))
        cf = static.concrete(*copy.deepcopy(args))
    assert cf.fallback is not None
    assert re.search(reason, cf.fallback), cf.fallback
    assert "test_random.py:" in cf.fallback


class _Dice(random.Random):
    """A subclass may change what a method returns, which the probes would not see."""


_BITS = np.random.PCG64(1)
_DICE = _Dice(2)


def _raw_bits(x):
    return x + _BITS.random_raw()


def _subclass_draw(x):
    return x + _DICE.random()


@pytest.mark.parametrize(
    ("fn", "state"),
    [(_raw_bits, lambda: _BITS.state), (_subclass_draw, _DICE.getstate)],
    ids=["bit generator", "subclass"],
)
def test_generators_it_cannot_hold_fall_back_without_drawing_while_tracing(fn, state):
    """Tracing neither draws from them nor bakes a number drawn then into the graph."""
    before = state()
    static = tg.to_static(fn)
    with pytest.warns(tg.FallbackWarning, match="is not a draw tograph compiles"):
        cf = static.concrete(V)
    assert cf.fallback is not None
    assert state() == before


def test_handler_refuses_random_calls_that_are_not_draws():
    with pytest.raises(errors.UnsupportedError, match="get_state is not a draw"):
        random_ops.handler(np.random.get_state)
    assert random_ops.handler(np.sum) is None


# ---- a draw is a constant for gradients --------------------------------------------------


def _monte_carlo(w, rng, n):
    acc = 0.0
    for _ in range(n):
        x = rng.normal(size=3)
        acc = acc + np.sum(np.tanh(w * x))
    while rng.random() < 0.6:
        acc = acc + np.sum(w * rng.normal(size=3))
    return acc / n


def test_gradient_of_a_monte_carlo_estimate_equals_the_tapes():
    w = np.array([0.5, -1.0, 2.0])
    r_graph, r_tape = np.random.default_rng(1), np.random.default_rng(1)
    grad = tg.grad(tg.to_static(_monte_carlo, fallback="error"))
    for _ in range(2):
        got = grad(w, r_graph, np.int64(20))
        with tg.GradientTape() as tape:
            watched = tape.watch(w)
            loss = _monte_carlo(watched, r_tape, 20)
        expected = tape.gradient(loss, watched)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    assert r_graph.bit_generator.state == r_tape.bit_generator.state  # no draw in the backward


def _reparametrised(mu, rng):
    return np.sum(rng.normal(mu, 1.0) * mu)


def test_gradient_through_a_draws_parameters_is_refused_as_the_tape_refuses_it():
    with tg.GradientTape() as tape:
        watched = tape.watch(V)
        with pytest.raises(errors.UnsupportedError):
            _reparametrised(watched, np.random.default_rng(0))
    grad = tg.grad(tg.to_static(_reparametrised, fallback="error"))
    with pytest.raises(errors.UnsupportedError, match=r"the random draw rng\.normal\(\$0, 1\.0\)"):
        grad(V, np.random.default_rng(0))


def test_gradient_matches_finite_differences_with_the_same_seed():
    w, eps = np.array([0.3, 0.7, -0.2]), 1e-6
    got = tg.grad(tg.to_static(_monte_carlo))(w, np.random.default_rng(3), np.int64(10))
    for i in range(3):
        step = np.zeros(3)
        step[i] = eps
        ahead = _monte_carlo(w + step, np.random.default_rng(3), 10)
        behind = _monte_carlo(w - step, np.random.default_rng(3), 10)
        np.testing.assert_allclose(got[i], (ahead - behind) / (2 * eps), rtol=1e-6, atol=1e-8)


# ---- export and distribution -------------------------------------------------------------


def _global_and_own(x):
    np.random.seed(1)
    rng = np.random.default_rng(2)
    return x + np.random.normal(size=x.shape), rng.integers(0, 9, size=2), random.random()


def test_save_and_load_keep_global_and_own_generators():
    cf = tg.to_static(_global_and_own).concrete(V)
    loaded = tg.export.loads(tg.export.saves(cf))
    random.seed(4)
    got = loaded(V)
    random.seed(4)
    compare.compare_values(_global_and_own(V), got)


_HELD = np.random.default_rng(0)


def _draws_from_held(x):
    return x + _HELD.normal()


def test_saving_a_draw_from_the_callers_generator_is_refused():
    cf = tg.to_static(_draws_from_held).concrete(V)
    with pytest.raises(errors.ExportError, match="caller's Generator object") as info:
        tg.export.saves(cf)
    assert "test_random.py" in str(info.value)


def test_onnx_export_refuses_a_draw_even_dropping_effects():
    pytest.importorskip("onnx")
    cf = tg.to_static(_draws_from_held).concrete(V)
    with pytest.raises(errors.ExportError, match=r"the draw rng\.normal\(\)"):
        tg.export_onnx(cf, drop_effects=True)


def test_map_runs_drawing_calls_here_in_order():
    static = tg.to_static(lambda x, rng: x + rng.normal())
    r_map, r_loop = np.random.default_rng(8), np.random.default_rng(8)
    with pytest.warns(tg.FallbackWarning, match="draws random numbers"):
        got = static.map([(V, r_map), (V, r_map), (V * 2, r_map)])
    expected = [V + r_loop.normal(), V + r_loop.normal(), V * 2 + r_loop.normal()]
    compare.compare_values(expected, got)
    with pytest.raises(errors.ToGraphError, match="independent futures"):
        static.map_futures([(V, r_map)])
