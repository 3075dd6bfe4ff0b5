"""The realistic corpus under ``to_static``, each routine against its own eager run: every routine
compiles and agrees bit for bit (values, dtypes, scalar kinds, printed output, exceptions, the
arguments and objects afterwards), or falls back for the reason named in ``corpus.FALLBACKS``;
and gradients of the differentiable ones equal central differences."""

import re

import numpy as np
import pytest

import tograph as tg
from tograph_conformance.cases import realistic

from . import (
    c_style_numerics,
    corpus,
    filters,
    finance,
    fixed_income,
    fuzzy_controllers,
    fuzzy_tables,
    harness,
    optimizers,
    quant_recipes,
    recursive,
    scipy_free_filters,
    scipy_free_spectral,
    spectral,
    stateful,
    stateful_classes,
    stats,
    stats_by_hand,
    textbook,
    tutorial_filters,
    tutorial_finance,
    tutorial_fuzzy,
    tutorial_optimizers,
    tutorial_spectral,
    tutorial_stats,
)

CASES = corpus.all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_routine_matches_eager(case):
    verdict = harness.judge(case)
    expected = corpus.FALLBACKS.get(case.name)
    if expected is None:
        assert verdict.kind == "compiled", f"{verdict.kind}: {verdict.detail}"
    else:
        assert verdict.kind == "fallback", f"{verdict.kind}: {verdict.detail}"
        assert re.search(expected, verdict.detail), verdict.detail
        assert re.search(r"\.py:\d+\)", verdict.detail), f"no line in: {verdict.detail}"


def test_the_corpus_has_600_routines_in_sixteen_domains_and_thirty_conformance_cases():
    assert len(CASES) >= 600 and len({c.name for c in CASES}) == len(CASES)
    assert len({c.category for c in CASES}) == 17 and len(realistic.CASES.cases) == 30


def _kalman_energy(zs):
    estimates, p = filters.kalman_1d(zs, 1e-3, 0.1)
    return np.sum(estimates**2) + p


def _ema_last(x):
    return realistic.ema(x, 0.3)[-1]


def _dft_energy(x):
    return np.sum(spectral.dft_by_loops(x))


def _option_price(sigma):
    return realistic.black_scholes(100.0, 95.0, 0.5, 0.02, sigma)


def _volatility_sum(returns):
    return np.sum(finance.ewma_volatility(returns, 0.9))


def _slope(y):
    return realistic.linear_regression(np.arange(5.0), y)[0]


def _weighted_variance(x):
    return stats.weighted_moments(x, np.array([1.0, 2.0, 1.0, 0.5]))[1]


def _lbfgs_norm(g):
    s = [np.array([0.1, 0.0, 0.2]), np.array([0.0, 0.3, -0.1])]
    y = [np.array([0.2, 0.1, 0.5]), np.array([0.1, 0.9, -0.2])]
    return np.sum(optimizers.lbfgs_direction(g, s, y) ** 2)


def _goertzel_power(samples):
    return textbook.goertzel_bin(samples, 1.0, 8.0)


def _levinson_error(r):
    return textbook.levinson_durbin_recursion(r, 2)[2]


def _savgol_energy(x):
    return np.sum(textbook.savgol_by_lstsq(x, 5, 2) ** 2)


def _fft_energy(x):
    return np.sum(np.abs(recursive.recursive_fft_numpy(x)) ** 2)


def _logistic_weights(X):
    params = stateful.Params(0.1, 0.01, 5)
    return np.sum(stateful.logistic_regression_namedtuple(X, np.array([1.0, 0.0, 1.0]), params)[0])


def _option_vega(vol):
    return stateful.black_scholes_dataclass(stateful.OptionSpec(100.0, 95.0, 0.03, vol, 0.5))[0]


def _biquad_energy(x):
    b, a = np.array([0.2, 0.4, 0.2]), np.array([1.0, -0.3, 0.1])
    return np.sum(tutorial_filters.biquad_direct_form_2(x, b, a) ** 2)


def _holt_winters_forecast(y):
    return np.sum(tutorial_filters.holt_winters_additive(y, 2, 0.4, 0.1, 0.3, 2)[1])


def _american_put(sigma):
    return tutorial_finance.american_put_tree(36.0, 40.0, 1.0, 0.06, sigma, 8)


def _burg_error(x):
    return tutorial_spectral.burg_coefficients(x, 2)[1]


def _lomb_power(y):
    freqs = np.array([0.4, 0.8])
    return np.sum(tutorial_spectral.lomb_scargle(tutorial_spectral.TIMES[:5], y, freqs))


def _irls_weights(X):
    return np.sum(tutorial_stats.logistic_irls(X, np.array([1.0, 0.0, 1.0, 0.0]), 3)[0])


def _ridge_mse(X):
    return tutorial_optimizers.ridge_normal_equations(X, tutorial_optimizers.TARGET, 0.5)[1]


def _kde_density(data):
    return np.sum(tutorial_stats.gaussian_kde_silverman(data, np.array([4.5, 5.5]))[0])


def _sharpe(returns):
    return tutorial_finance.sharpe_sortino_annualised(returns, 0.0)[0]


def _bell_total(x):
    return np.sum(tutorial_fuzzy.gbellmf_value(x, 2.0, 2.0, 5.0))


def _butterworth_energy(x):
    return np.sum(scipy_free_filters.butterworth_biquad_apply(x, 0.3) ** 2)


def _filtfilt_energy(x):
    b, a = scipy_free_filters.B3, scipy_free_filters.A3
    return np.sum(scipy_free_filters.filtfilt_odd_extension(b, a, x, 2) ** 2)


def _envelope_energy(x):
    return np.sum(np.abs(scipy_free_spectral.hilbert_by_fft(x)) ** 2)


def _multitaper_total(x):
    return np.sum(scipy_free_spectral.multitaper_sine(x, 2))


def _garch_loglik(r):
    return quant_recipes.garch11_filter_loglik(r, 1e-4, 0.1, 0.8)[1]


def _kde_total(data):
    return np.sum(stats_by_hand.kde_scott(data, np.array([0.5, 1.0, 2.0]))[0])


def _tsk_output(temp):
    return fuzzy_controllers.tsk_first_order(temp, 4.5)


def _welford_float64_variance(x):
    return stats_by_hand.online_covariance(x, x * x)[0]


def _kalman_object_energy(zs):
    estimates, p = stateful_classes.kalman_object_loop(zs, 0.01, 0.5)
    return np.sum(estimates**2) + p


def _tracker_positions(zs):
    positions, velocities, spread = stateful_classes.constant_velocity_tracker(zs, 1.0)
    return np.sum(positions) + np.sum(velocities) + spread


def _call_price(sigma):
    return fixed_income.black_scholes_all_greeks(100.0, 95.0, 0.5, 0.02, sigma)[0]


def _crr_american_put(sigma):
    return fixed_income.crr_tree_put(100.0, 100.0, 1.0, 0.05, sigma, 6, True)


def _asian_call(sigma):
    return fixed_income.asian_call_monte_carlo(100.0, 95.0, 1.0, 0.03, sigma, 4, 8, 5)[0]


def _thomas_energy(d):
    ones = np.ones(4)
    return np.sum(c_style_numerics.thomas_c_style(ones * 0.5, ones * 4.0, ones * 0.5, d) ** 2)


def _clenshaw_total(c):
    return np.sum(c_style_numerics.clenshaw_chebyshev(c, np.array([-0.7, 0.1, 0.9])))


def _tipping(service):
    return fuzzy_tables.tipping_two_inputs_dict_rules(service, 3.0)


X5 = np.array([0.3, -1.2, 2.0, 0.7, 1.1])

GRADIENT_CASES = [
    (_kalman_energy, X5),
    (_ema_last, X5),
    (_dft_energy, X5[:4] + 0.1),
    (_option_price, 0.25),
    (_volatility_sum, X5 * 0.01),
    (_slope, np.array([1.0, 2.5, 2.0, 4.5, 5.0])),
    (_weighted_variance, X5[:4]),
    (_lbfgs_norm, X5[:3]),
    (realistic.centroid, np.arange(5.0), np.array([0.1, 0.5, 1.0, 0.5, 0.2])),
    (finance.npv_list, 0.07, [-100.0, 30.0, 40.0, 50.0]),
    (_goertzel_power, X5[:4]),
    (_levinson_error, np.array([1.0, 0.4, 0.1])),
    (_savgol_energy, X5),
    (_fft_energy, np.arange(8.0) * 0.3),
    (_logistic_weights, np.array([[1.0, 2.0], [2.0, 0.5], [0.5, 1.5]])),
    (_option_vega, 0.2),
    (recursive.determinant_cofactor_array, np.array([[2.0, 1.0], [-1.0, 4.0]])),
    (_biquad_energy, X5),
    (_holt_winters_forecast, np.array([10.0, 14.0, 8.0, 25.0, 16.0, 22.0])),
    (_american_put, 0.2),
    (_burg_error, X5 + 0.1),
    (_lomb_power, X5),
    (_irls_weights, np.array([[1.0, 0.2], [0.3, 1.1], [1.2, 0.9], [0.1, 0.4]])),
    (_ridge_mse, tutorial_optimizers.DESIGN),
    (_kde_density, np.array([5.1, 4.9, 6.2, 5.8])),
    (_sharpe, np.array([0.01, -0.02, 0.015, 0.003])),
    (_bell_total, X5 * 3),
    (_butterworth_energy, X5),
    (_filtfilt_energy, X5),
    (_envelope_energy, X5[:4]),
    (_multitaper_total, X5),
    (_garch_loglik, X5 * 0.02),
    (_kde_total, X5),
    (_tsk_output, 5.3),
    (_welford_float64_variance, X5),
    (_kalman_object_energy, X5),
    (_tracker_positions, X5[:4]),
    (_call_price, 0.3),
    (_crr_american_put, 0.25),
    (_asian_call, 0.2),
    (_thomas_energy, X5[:4]),
    (_clenshaw_total, X5[:4]),
    (_tipping, 6.3),
]


@pytest.mark.parametrize("fn, args", [(c[0], c[1:]) for c in GRADIENT_CASES])
def test_gradient_matches_central_differences(fn, args):
    argnum = 1 if fn is realistic.centroid else 0
    got = tg.grad(tg.to_static(fn, fallback="error"), argnum)(*args)
    x = np.asarray(args[argnum], dtype=float)
    expected = np.zeros_like(x)
    eps = 1e-6
    for idx in np.ndindex(x.shape):
        values = []
        for step in (eps, -eps):
            moved = x.copy()
            moved[idx] += step
            arg = moved if np.ndim(args[argnum]) else float(moved)
            values.append(float(fn(*args[:argnum], arg, *args[argnum + 1 :])))
        expected[idx] = (values[0] - values[1]) / (2 * eps)
    assert np.shape(got) == np.shape(args[argnum])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
