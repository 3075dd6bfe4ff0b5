"""End-to-end behaviour of tograph.to_static: decorators, caching, specs, fallback and errors."""

import gc
import inspect
import warnings

import numpy as np
import pytest

import tograph as tg


def line_of(fn, text):
    """The absolute line number of the first source line of ``fn`` containing ``text``."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


@tg.to_static
def scaled_sum(x, scale=2.0):
    total = 0.0
    for v in x:
        if v > 0:
            total = total + v * scale
    return total


def test_bare_decorator_with_default_and_keyword():
    x = np.array([1.0, -2.0, 3.0])
    assert scaled_sum(x) == pytest.approx(8.0)
    assert scaled_sum(x, scale=3.0) == pytest.approx(12.0)
    assert scaled_sum.concrete(x).op_counts()["while_loop"] == 1


def test_decorator_with_arguments_and_lambda():
    double = tg.to_static(lambda x: x * 2, fallback="error")
    np.testing.assert_array_equal(double(np.arange(3)), np.arange(3) * 2)

    @tg.to_static(fallback="error")
    def neg(x):
        return -x

    np.testing.assert_array_equal(neg(np.ones(2)), -np.ones(2))


class Scaler:
    def __init__(self, w, bias):
        self.w = w
        self.bias = bias

    @tg.to_static
    def __call__(self, x):
        y = x * self.w
        if y.sum() > 0:
            y = y + self.bias
        return y


def test_method_reads_self_attributes():
    s = Scaler(np.array([1.0, 2.0]), 0.5)
    x = np.array([1.0, 1.0])
    np.testing.assert_allclose(s(x), x * s.w + 0.5)
    np.testing.assert_allclose(s(-x), -x * s.w)
    assert "cond" in Scaler.__call__.__get__(s).concrete(x).op_counts()


def test_closures_and_nested_user_functions_are_converted():
    limit = 10.0

    def clamp(v):
        if v > limit:
            return limit
        return v

    @tg.to_static(fallback="error")
    def f(x):
        return clamp(x * 3.0)

    assert f(np.float64(2.0)) == 6.0
    assert f(np.float64(5.0)) == 10.0
    assert f.concrete(np.float64(5.0)).op_counts()["cond"] == 1


def test_structured_inputs_and_outputs_mirror_eager():
    def f(pair, d):
        a, b = pair
        return {"sum": a + b, "parts": (a, d["k"] * b)}

    x, y = np.ones(2, np.float32), np.arange(2, dtype=np.float32)
    got = tg.to_static(f, fallback="error")((x, y), {"k": np.float32(3)})
    want = f((x, y), {"k": np.float32(3)})
    assert set(got) == {"sum", "parts"} and isinstance(got["parts"], tuple)
    np.testing.assert_array_equal(got["sum"], want["sum"])
    np.testing.assert_array_equal(got["parts"][1], want["parts"][1])
    assert got["parts"][1].dtype == np.float32


def test_weak_counter_keeps_float32():
    def f(x):
        k = 0
        while x.sum() < 100:
            x = x * 2
            k += 1
        return x * k

    x = np.ones(3, np.float32)
    got = tg.to_static(f, fallback="error")(x)
    assert got.dtype == f(x).dtype == np.float32
    np.testing.assert_array_equal(got, f(x))


def test_static_arguments_are_part_of_the_cache_key():
    def f(x, n):
        for _ in range(n):
            x = x + 1
        return x

    sf = tg.to_static(f)
    x = np.zeros(2)
    sf(x, 2), sf(x, 2), sf(x + 1, 2)
    assert len(sf._cache) == 1
    sf(x, 3)
    assert len(sf._cache) == 2
    assert "while_loop" not in sf.concrete(x, 3).op_counts()


def test_input_spec_with_dynamic_dim_gives_one_graph():
    @tg.to_static(input_spec=[tg.TensorSpec((None,), np.float64)])
    def total(x):
        s = 0.0
        for v in x:
            s = s + v
        return s

    assert total(np.ones(3)) == 3.0
    assert total(np.ones(5)) == 5.0
    assert len(total._cache) == 1
    with pytest.raises(
        tg.ToGraphError, match="argument 'x' is f32\\[3\\].*input_spec is f64\\[None\\]"
    ):
        total(np.ones(3, np.float32))


def test_retracing_warning():
    sf = tg.to_static(lambda x, k: x + k)
    with pytest.warns(tg.RetracingWarning, match="traced 9 times"):
        for k in range(9):
            sf(np.zeros(1), k)


def uses_try(x):
    try:
        y = x * 2
    except ValueError as err:
        y = err
    err = 1  # an except clause's name bound outside it: a construct refused whatever the arguments
    return y * err


def test_fallback_warns_with_construct_and_line_and_stays_correct():
    sf = tg.to_static(uses_try)
    with pytest.warns(
        tg.FallbackWarning,
        match=rf"outside its except clause.*test_api.py:{line_of(uses_try, 'except ValueError')}",
    ):
        got = sf(np.ones(2))
    np.testing.assert_array_equal(got, uses_try(np.ones(2)))
    assert "outside its except clause" in sf.concrete(np.ones(2)).fallback


def test_code_that_cannot_be_converted_runs_as_it_is_without_tracing_again():
    """A construct in the code falls back whatever the arguments: one warning, then every call
    (of any signature, kind or keyword) is the plain function's."""
    sf = tg.to_static(uses_try)
    with pytest.warns(tg.FallbackWarning, match="outside its except clause"):
        sf(np.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for args, kwargs in [((np.ones(3, np.float32),), {}), ((2.5,), {}), ((), {"x": [1]})]:
            got, want = sf(*args, **kwargs), uses_try(*args, **kwargs)
            assert type(got) is type(want) and np.array_equal(got, want)
    assert len(sf.concrete_functions) == 1


def test_fallback_error_and_silent_modes():
    with pytest.raises(tg.ConversionError, match="outside its except clause"):
        tg.to_static(uses_try, fallback="error")(np.ones(2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tg.to_static(uses_try, fallback="silent")(np.ones(2))
    with pytest.raises(ValueError, match="fallback must be one of"):
        tg.to_static(uses_try, fallback="sometimes")


def one_sided(x):
    if x > 0:
        y = x + 1
    return y


def test_variable_set_on_one_branch_is_unbound_only_where_eager_says_so():
    sf = tg.to_static(one_sided, fallback="silent")
    assert sf(np.float64(1.0)) == one_sided(np.float64(1.0))
    with pytest.raises(UnboundLocalError, match="'y'"):
        sf(np.float64(-1.0))


def one_sided_unused(x):
    if x > 0:
        y = x + 1
        x = y * 2
    return x


def test_variable_set_on_one_branch_but_unused_after_is_fine():
    sf = tg.to_static(one_sided_unused, fallback="error")
    assert sf(np.float64(1.0)) == one_sided_unused(np.float64(1.0))
    assert sf(np.float64(-1.0)) == -1.0


def test_fast_path_respects_defaults_and_nesting():
    def f(x, params, w=np.full(2, 10.0)):
        for a, b in params:
            x = x * a + b
        return x + w

    sf = tg.to_static(f, fallback="error")
    x = np.ones(2)
    params = [(np.float64(2.0), np.ones(2)), (np.float64(3.0), np.zeros(2))]
    for _ in range(3):  # first call traces, later ones take the cached fast path
        np.testing.assert_array_equal(sf(x, params), f(x, params))
        np.testing.assert_array_equal(sf(x, params, np.zeros(2)), f(x, params, np.zeros(2)))
        np.testing.assert_array_equal(sf(x, params[:1]), f(x, params[:1]))
    assert len(sf._cache) == 2  # a default array is a tensor input like a passed one


def weighted_column_sums(x, w):
    return (x * w).sum(axis=0)


def test_fast_path_follows_layouts_that_alternate_or_change_in_place():
    """The last call's layout is remembered apart from the table: calls alternating between
    layouts, and an argument whose shape or dtype changed in place since the last call, get
    eager's result for the layout they have now."""
    sf = tg.to_static(weighted_column_sums, fallback="error")
    x = np.arange(6.0).reshape(3, 2)
    w = np.full((3, 2), 0.5)
    calls = [(x, w), (x[:2], w[:2]), (x, w), (x.astype(np.float32), w), (x, w)]
    for args in calls + calls:
        expected = weighted_column_sums(*args)
        got = sf(*args)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    x.shape = (2, 3)  # same arrays, new shapes: the remembered layout no longer fits
    w.shape = (2, 3)
    expected = weighted_column_sums(x, w)
    got = sf(x, w)
    assert got.shape == expected.shape == (3,)
    np.testing.assert_array_equal(got, expected)


def halve_count(x, n):
    i = 0
    while i < n:
        x = x * 0.5
        i = i + 1
    return x, i


def test_fast_path_of_a_tuple_result_is_the_general_path_s():
    """A tuple of outputs skips the general result building unless an output that may be an
    argument's own memory is an array (a zero-trip loop returning its argument): the fast
    calls give what the first, general one gives, and eager's values and kinds."""
    sf = tg.to_static(halve_count, fallback="error")
    for args in [(np.float64(8.0), np.int64(3)), (np.ones(2), np.int64(0)), (np.ones(2), 2)]:
        expected = halve_count(*args)
        first = sf(*args)  # traces: the general path
        for got in (first, sf(*args), sf(*args)):
            assert type(got) is tuple and len(got) == 2
            assert [type(v) for v in got] == [type(v) for v in expected]
            np.testing.assert_array_equal(got[0], expected[0])
            assert got[1] == expected[1]
            assert (got[0] is args[0]) == (first[0] is args[0])
            assert np.shares_memory(got[0], args[0]) == np.shares_memory(first[0], args[0])


def test_dict_state_keeps_insertion_order_through_tensor_loops():
    def f(x):
        acc = {"pos": 0.0, "neg": 0.0}
        for v in x:
            if v > 0:
                acc["pos"] = acc["pos"] + v
            else:
                acc["neg"] = acc["neg"] + v
        return acc

    got = tg.to_static(f, fallback="error")(np.array([1.0, -2.0, 3.0]))
    assert list(got) == ["pos", "neg"] and got == {"pos": 4.0, "neg": -2.0}


def mismatched(a, b):
    c = a * 2
    return c @ b


def test_shape_errors_name_both_shapes_and_the_user_line():
    with pytest.raises(
        tg.ToGraphError, match=r"shapes \(3, 4\) and \(5, 2\) are not aligned"
    ) as info:
        tg.to_static(mismatched, fallback="error")(np.ones((3, 4)), np.ones((5, 2)))
    assert f"test_api.py:{line_of(mismatched, 'c @ b')}" in str(info.value)


def test_an_error_eager_raises_too_is_eager_s_own_and_not_a_fallback_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        with pytest.raises(ValueError, match="matmul"):
            tg.to_static(mismatched)(np.ones((3, 4)), np.ones((5, 2)))


def rank_grows_in_a_loop(x):
    y = x[0]
    while y.sum() < 10:
        y = np.stack([y, y])
    return y


def _caught(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


def test_warnings_point_at_the_user_call_site():
    here = inspect.currentframe().f_lineno
    unsupported = _caught(lambda: tg.to_static(uses_try)(np.ones(2)))  # here + 1
    late = _caught(lambda: tg.to_static(rank_grows_in_a_loop)(np.ones(2)))  # here + 2
    sf = tg.to_static(lambda x, k: x + k)
    retraced = _caught(lambda: [sf(np.zeros(1), k) for k in range(9)])  # here + 4
    for caught, offset, category in [
        (unsupported, 1, tg.FallbackWarning),
        (late, 2, tg.FallbackWarning),
        (retraced, 4, tg.RetracingWarning),
    ]:
        (warning,) = [w for w in caught if issubclass(w.category, category)]
        assert (warning.filename, warning.lineno) == (__file__, here + offset), str(warning)


def collector_state(x):
    """Reads the collector's state while traced: a host value the graph keeps."""
    return x * (2.0 if gc.isenabled() else 3.0)


@pytest.mark.parametrize("enabled", [True, False])
def test_compiling_leaves_the_collector_as_the_program_set_it(enabled):
    """The compiler holds garbage collection off while its own stages run, never while the
    user's function is traced (it sees the program's setting, as eager code does), and gives
    the program back the setting it had."""
    x = np.ones(3)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        expected = collector_state(x)
        got = tg.to_static(collector_state, fallback="error")(x)
        np.testing.assert_array_equal(got, expected)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


class _Scaler:
    def __init__(self):
        self.k = 2.0

    def scale(self, x, /, shift, *, power=1):
        return x**power * self.k + shift


def _varargs(x, y=1.0, *rest, z, **named):
    return x * y + len(rest) + z + len(named)


@pytest.mark.parametrize(
    "fn, args, kwargs",
    [
        (_varargs, (), {}),
        (_varargs, (np.ones(2),), {}),
        (_varargs, (np.ones(2),), {"z": 1, "x": 2}),
        (_Scaler().scale, (np.ones(2),), {}),
        (_Scaler().scale, (np.ones(2), 1, 2), {}),
        (_Scaler().scale, (), {"x": np.ones(2), "shift": 1}),
        (_Scaler().scale, (np.ones(2), 1), {"colour": 1}),
    ],
)
def test_arguments_that_do_not_fit_raise_pythons_own_type_error(fn, args, kwargs):
    with pytest.raises(TypeError) as eager:
        fn(*args, **kwargs)
    with pytest.raises(TypeError) as compiled:
        tg.to_static(fn)(*args, **kwargs)
    assert str(compiled.value) == str(eager.value)


def test_a_decorated_method_called_wrongly_raises_pythons_type_error():
    class Model:
        @tg.to_static
        def forward(self, x, y):
            return x + y

    with pytest.raises(TypeError, match=r"forward\(\) missing 1 required positional argument: 'y'"):
        Model().forward(np.ones(2))


def _mean_of(values):
    return np.mean(values)


def test_numpy_calls_are_routed_through_the_runtime_only_for_parameters_holding_sequences():
    """A NumPy call on an array parameter stays as written (the function's own code may then
    run as it is); on a list of NumPy scalars the runtime stacks the list for NumPy first."""
    static = tg.to_static(_mean_of)
    assert "_t.call" not in static.concrete(np.ones(3)).code
    values = [np.float64(1.5), np.float64(2.0), np.float64(4.0)]
    assert "_t.call(np.mean, values)" in static.concrete(values).code
    assert static(values) == _mean_of(values) and type(static(values)) is np.float64
