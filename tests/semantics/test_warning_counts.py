"""NumPy's floating-point warnings under ``to_static`` come as eager code has them: one per
evaluation (an expression written twice is not merged into one that warns once) and named by the
operation that warned (``divmod`` on arrays, ``scalar divmod`` on a NumPy scalar)."""

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
