"""Warnings under ``to_static`` come as eager code has them: one per evaluation (an expression
written twice is not merged into one that warns once), named by the operation that warned
(``divmod`` on arrays, ``scalar divmod`` on a NumPy scalar), at the user's file and line, and
NumPy's Python-level ones (``Mean of empty slice`` from ``np.nanmean``) on every run; errors of
Python's ``divmod`` carry Python's message."""

import warnings

import numpy as np
import pytest

import tograph as tg


def _warnings_of(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
    messages = [f"{w.category.__name__}: {w.message}" for w in caught]
    return result, [m for m in messages if not m.startswith("FallbackWarning")]


def _twice(x):
    return x // 0, np.log(x) + np.log(x), x / 0.0 - x / 0.0


def _divmods(x):
    s = x.sum()
    return divmod(x, 0.0), np.divmod(x, 0), divmod(s, np.float64(0.0)), np.divmod(s, 0.0)


def _python_divmod(x):
    n = len(x)
    return divmod(x.sum(), 0.0), divmod(n, n - len(x))


def _divmod_of_converted(x):
    return divmod(float(x[0]), float(x[1])), divmod(int(x[1]), int(x[0]))


@pytest.mark.parametrize("x", [[1.0, 0.0], [0.0, 2.0], [3.5, -2.0]])
def test_divmod_of_python_numbers_from_tensors_raises_as_python(x):
    x = np.array(x)
    static = tg.to_static(_divmod_of_converted, fallback="error")
    try:
        expected = _divmod_of_converted(x)
    except ZeroDivisionError as exc:  # "float divmod()", not "float floor division by zero"
        with pytest.raises(ZeroDivisionError) as raised:
            static(x)
        assert str(raised.value) == str(exc)
    else:
        got = static(x)
        assert got == expected and [type(v) for p in got for v in p] == [float] * 2 + [int] * 2


@pytest.mark.parametrize("fn", [_twice, _divmods])
@pytest.mark.parametrize("x", [np.array([0.0, 3.0]), np.array([0, 3])])
def test_warnings_are_eager_s_one_by_one(fn, x):
    eager, expected = _warnings_of(fn, x)
    static = tg.to_static(fn, fallback="error")
    for _ in range(2):
        compiled, got = _warnings_of(static, x)
        assert got == expected
        for e, c in zip(eager, compiled):
            np.testing.assert_array_equal(c, e)
            assert type(c) is type(e)


def test_divmod_of_python_numbers_raises_as_eager():
    eager, expected = _warnings_of(_python_divmod, np.array([1.0]))
    compiled, got = _warnings_of(tg.to_static(_python_divmod), np.array([1.0]))
    assert type(compiled) is type(eager) is ZeroDivisionError and got == expected


def test_the_remainder_of_divmod_has_mod_s_gradient():
    def loss(x, y):
        q, r = divmod(x, y)
        return np.sum(r * r) + np.sum(q)

    x, y = np.array([5.3, -2.2, 7.9]), np.array([2.0, 1.5, -3.0])
    gx, gy = tg.grad(loss, argnums=(0, 1))(x, y)
    eps = 1e-6
    for k in range(3):
        step = np.zeros(3)
        step[k] = eps
        fd_x = (loss(x + step, y) - loss(x - step, y)) / (2 * eps)
        fd_y = (loss(x, y + step) - loss(x, y - step)) / (2 * eps)
        assert gx[k] == pytest.approx(fd_x, rel=1e-5)
        assert gy[k] == pytest.approx(fd_y, rel=1e-5)


def _test_that_may_raise_run_three_times(a, s):
    count = 0
    while count < 3 and (np.all(np.cumprod(a // 2 + 1) >= s) or int(s) < 5):
        count += 1
    return count


@pytest.mark.parametrize("a", [np.array([-np.inf, 1.0]), np.array([1.0, 2.0])])
def test_a_while_condition_evaluated_before_it_is_a_tensor_warns_once_per_evaluation(a):
    """Seed 803: the condition's first evaluation (before the loop knew its condition was a
    tensor) stayed in the graph beside the loop's own, kept by an ``int()`` that may raise, so
    its floor_divide warned once more than eager."""
    eager, expected = _warnings_of(_test_that_may_raise_run_three_times, a, np.float64(2.0))
    static = tg.to_static(_test_that_may_raise_run_three_times, fallback="error")
    compiled, got = _warnings_of(static, a, np.float64(2.0))
    assert got == expected and compiled == eager and type(compiled) is type(eager)


def _records(fn, *args, action="always"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter(action)
        fn(*args)
    return [
        (w.category, str(w.message), w.filename, w.lineno)
        for w in caught
        if w.category is not tg.FallbackWarning
    ]


def _in_a_loop(x):
    s = 0.0
    i = 0
    while x[i] < 5:
        s = s + np.sqrt(x[i] - 3)
        i += 1
    if s > 0:
        s = s / 0.0
    return np.log(x), s


@pytest.mark.parametrize("fn", [_twice, _in_a_loop])
def test_warnings_name_the_user_s_file_and_line(fn):
    x = np.array([-1.0, 2.0, 4.0, 7.0])
    static = tg.to_static(fn, fallback="error")
    expected = _records(fn, x)
    assert expected and all(r[2] == __file__ for r in expected)
    assert _records(static, x) == expected
    assert _records(static, x) == expected


def _stores_into_float32(x):
    y = np.zeros(3, np.float32)
    y[:2] = x[:2]
    i = 0
    while i < 2 and x[i] > 0:
        y[i + 1] = x[i] * 2
        i += 1
    return y


def test_a_store_s_cast_warning_names_the_user_s_line():
    # the store runs in the generated code, not in a kernel whose own line would be named
    x = np.array([1e39, 3e38, 1.0])
    static = tg.to_static(_stores_into_float32, fallback="error")
    expected = _records(_stores_into_float32, x)
    assert len(expected) == 3 and all(r[2] == __file__ for r in expected)
    assert _records(static, x) == expected


def test_warning_filters_by_module_apply_to_compiled_code():
    x = np.array([-1.0, 2.0])
    static = tg.to_static(_twice, fallback="error")
    with np.errstate(all="ignore"):
        static(x)  # converted outside the block: conversion resets warning registries
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", module=__name__.replace(".", r"\."))
        _twice(x)
        static(x)
    assert [str(w.message) for w in caught if w.category is not tg.FallbackWarning] == []


def test_the_default_filter_shows_a_line_s_warning_once_for_eager_and_compiled_alike():
    x = np.array([-1.0, 2.0, 4.0, 7.0])
    static = tg.to_static(_in_a_loop, fallback="error")
    with np.errstate(all="ignore"):
        static(x)  # converted outside the block: conversion resets warning registries
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        static(x)
        _in_a_loop(x)
        static(x)
    expected = _records(_in_a_loop, x, action="default")
    assert len(expected) == 2  # sqrt warns twice in the loop, shown once
    assert [(w.category, str(w.message), w.filename, w.lineno) for w in caught] == expected


def _nan_reductions(x):
    return (
        np.nanmean(x, axis=0),
        np.nanvar(x, axis=1, ddof=1),
        np.nanmax(x, axis=0),
        np.nanmin(x, axis=1, keepdims=True),
    )


def _empty_medians(x):
    return np.median(x[:0]), np.nanmedian(x[:, :0], axis=1), np.median(x[:0], axis=0)


def _nan_medians(x):
    return np.nanmedian(x, axis=1), np.nanmedian(x[0])


def _nan_quantiles(x):  # NumPy names its own lines here, so messages only
    return np.nanpercentile(x, [10, 90], axis=1), np.nanquantile(x, 0.5)


def _poorly_conditioned_fit(x):
    return np.polyfit(x.ravel()[:3], x.ravel()[:3], 5)


def _host_ufuncs(x):
    return np.fmod(x, 0.0), np.fmod(x, x - x), np.ldexp(x, 2000)


def _in_a_branch(x):
    if x.sum() > 0:
        return np.nanmax(x)
    return x.max()


@pytest.mark.parametrize(
    "x",
    [
        np.array([[np.nan, 1.0, np.nan], [np.nan, np.nan, np.nan]]),
        np.array([[np.nan, 1.0, 2.0], [3.0, np.nan, 5.0]]),
        np.full((2, 3), np.nan, dtype=np.float32),
        np.array([[np.nan] * 3, [1.0, 2.0, 3.0], [np.nan] * 3]),
    ],
)
@pytest.mark.parametrize(
    "fn",
    [_nan_reductions, _nan_medians, _empty_medians, _host_ufuncs],
)
def test_numpy_s_own_warnings_come_on_every_run_at_the_user_s_line(fn, x):
    static = tg.to_static(fn, fallback="error")
    expected = _records(fn, x)
    for _ in range(2):
        assert _records(static, x) == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pairs = list(zip(fn(x), static(x)))
    for e, c in pairs:
        np.testing.assert_array_equal(c, e)
    quantiles = tg.to_static(_nan_quantiles, fallback="error")
    assert _warnings_of(quantiles, x)[1] == _warnings_of(_nan_quantiles, x)[1]


def test_a_poorly_conditioned_fit_warns_at_the_user_s_line():
    x = np.arange(3.0)
    expected = _records(_poorly_conditioned_fit, x)
    assert len(expected) == 1
    assert _records(tg.to_static(_poorly_conditioned_fit, fallback="error"), x) == expected


@pytest.mark.parametrize("x", [np.array([np.nan, np.nan]), -np.array([np.nan, np.nan])])
def test_a_warning_in_a_branch_comes_only_when_the_branch_runs(x):
    static = tg.to_static(_in_a_branch, fallback="error")
    for y in (x, np.array([1.0, np.nan]), np.array([-1.0, -2.0])):
        assert _records(static, y) == _records(_in_a_branch, y)


def _nanstds(x):
    return np.nanstd(x, axis=1, ddof=1), np.nanstd(x[:, :1])


def test_nanstd_warns_as_numpy():  # NumPy's names its own nanstd's line, so messages only
    x = np.array([[np.nan, 1.0], [np.nan, np.nan]])
    static = tg.to_static(_nanstds, fallback="error")
    assert _warnings_of(static, x)[1] == _warnings_of(_nanstds, x)[1]
    assert len(_warnings_of(_nanstds, x)[1]) == 2


def _ramp(x, a, b):
    return np.maximum((x - a) / (b - a), 0.0)


_shifted_root = lambda v: np.sqrt(v - 10)  # noqa: E731 - a lambda run by map, as users write


def _helpers(x):
    u = np.linspace(0.0, 1.0, 4)
    return np.fmin(_ramp(u, 0, 0), x.sum()), list(map(_shifted_root, [x]))[0]


def test_warnings_of_a_helper_name_the_helper_s_line():
    x = np.array([1.0, 2.0])
    expected = _records(_helpers, x)
    assert {r[3] for r in expected} == {
        _ramp.__code__.co_firstlineno + 1,
        _shifted_root.__code__.co_firstlineno,
    }
    assert _records(tg.to_static(_helpers, fallback="error"), x) == expected


def _warns_on_a_constant_condition(x, d):
    s = 3
    if np.exp(np.float64(s) * 400) > d["n"]:  # overflows once, on static values
        x = x + 1
    return x


def test_type_inference_gives_no_warning_of_its_own():
    """Fuzz seed 185: inference evaluated the static condition and its overflow warning reached
    the caller, beside the eager run's (the trace warns too, so the function runs eagerly)."""
    args = (np.ones(2), {"n": 1})
    eager, expected = _warnings_of(_warns_on_a_constant_condition, *args)
    compiled, got = _warnings_of(tg.to_static(_warns_on_a_constant_condition), *args)
    assert expected == ["RuntimeWarning: overflow encountered in exp"]
    assert got == expected
    np.testing.assert_array_equal(compiled, eager)


def _zero_d_array_written_again_and_again(z, n, d, x):
    np.multiply(z, n, out=z)
    z /= d
    z.fill(n)
    z /= d
    np.copyto(z, n * 2)
    z /= d
    np.mean(x, out=z)
    z /= d
    z[...] = n
    z /= d
    return z


def test_a_0d_array_written_in_place_stays_an_array_for_the_next_operation():
    """Fuzz seeds 5263 and 5337: after ``np.multiply(z, n, out=z)`` the graph held ``z`` as
    the NumPy scalar the ufunc gives, so ``z /= 0`` warned '... in scalar divide' where eager,
    dividing the 0-d array, warns '... in divide'."""
    fn = _zero_d_array_written_again_and_again
    eager_z, compiled_z = np.array(3.0), np.array(3.0)
    eager, expected = _warnings_of(fn, eager_z, 2, 0, np.array([1.0, 2.0]))
    static = tg.to_static(fn, fallback="error")
    compiled, got = _warnings_of(static, compiled_z, 2, 0, np.array([1.0, 2.0]))
    assert got == expected and len(expected) == 5
    assert compiled is compiled_z and eager is eager_z and compiled_z == eager_z


def _casts_a_static_nan(x):
    v = np.float64(x.shape[0]) * np.inf
    return x + np.int32(v)


def test_a_warning_of_a_library_call_while_building_names_the_user_s_line():
    """Fuzz seed 2277: ``np.int32(nan)`` called by tograph for the user's code warned at
    tograph's own line, which the fallback reason then named."""
    with pytest.warns(tg.FallbackWarning, match=r"invalid value encountered in cast") as caught:
        tg.to_static(_casts_a_static_nan).concrete(np.ones(2))
    (warned,) = [w for w in caught if w.category is tg.FallbackWarning]
    line = _casts_a_static_nan.__code__.co_firstlineno + 2
    assert f"{__file__}:{line}" in str(warned.message)


def _powers_by_name(x):
    return np.power(x, 2), np.power(x, -1), np.power(x, 0.5), x**2, x**-1, x**0.5


@pytest.mark.parametrize("x", [np.array([1e200, 0.0, -1.0]), np.array([-0.0, -np.inf, 4.0])])
def test_np_power_called_by_name_warns_and_raises_as_power(x):
    # ``x ** 2`` takes NumPy's square/reciprocal/sqrt shortcuts and warns by their names;
    # ``np.power(x, 2)`` runs the power loop and warns "... in power"
    static = tg.to_static(_powers_by_name, fallback="error")
    expected, eager_messages = _warnings_of(_powers_by_name, x)
    got, messages = _warnings_of(static, x)
    assert messages == eager_messages
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)
        assert np.signbit(a).tolist() == np.signbit(b).tolist()
    with np.errstate(all="raise"):
        for fn in (_powers_by_name, static):
            with pytest.raises(FloatingPointError) as raised:
                fn(x)
            assert str(raised.value).endswith("in power")
