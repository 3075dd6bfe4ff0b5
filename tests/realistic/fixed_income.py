"""Date-free finance as course notes and quant blogs write it: bond prices, yields, duration
and convexity from cash-flow loops, a par-yield bootstrap, Black-Scholes greeks with
``math.erf``, Monte Carlo with ``np.random.default_rng(seed)`` (antithetic and control
variates), an Asian option, a Cox-Ross-Rubinstein tree with early exercise, loan schedules
and historical risk figures with ``np.percentile``."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("finance")

RETURNS = np.array([0.012, -0.021, 0.004, 0.018, -0.007, -0.033, 0.025, 0.001, -0.012, 0.009])


def _cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _pdf(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


@CASES.case(args=[(100.0, 0.05, 0.06, 5, 2), (1000.0, 0.0, 0.03, 3, 1), (100.0, 0.08, 0.08, 4, 4)])
def bond_price_duration_convexity(face, coupon_rate, ytm, years, freq):
    """Price, Macaulay and modified duration and convexity from a loop over coupon dates."""
    n = years * freq
    c = face * coupon_rate / freq
    y = ytm / freq
    price = dur = conv = 0.0
    for k in range(1, n + 1):
        cf = c + (face if k == n else 0.0)
        df = (1 + y) ** -k
        price += cf * df
        dur += k * cf * df
        conv += k * (k + 1) * cf * df
    mac = dur / price / freq
    mod = mac / (1 + y)
    convexity = conv / (price * (1 + y) ** 2 * freq**2)
    return round(price, 6), mac, mod, convexity


@CASES.case(args=[(98.5, 100.0, 0.04, 6), (101.2, 100.0, 0.05, 4)])
def yield_by_bisection(price, face, coupon_rate, n):
    """The yield of an annual-coupon bond by bisection on a price function in a loop."""
    lo, hi = -0.5, 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        pv = sum(face * coupon_rate / (1 + mid) ** k for k in range(1, n + 1))
        pv += face / (1 + mid) ** n
        if pv > price:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@CASES.case(args=[(np.array([0.030, 0.034, 0.037, 0.039, 0.040]),), (np.array([0.02]),)])
def bootstrap_zero_rates_from_par(par):
    """Zero rates and discount factors bootstrapped from annual par yields."""
    n = len(par)
    dfs = np.zeros(n)
    for i in range(n):
        annuity = dfs[:i].sum()
        dfs[i] = (1 - par[i] * annuity) / (1 + par[i])
    zeros = dfs ** (-1.0 / np.arange(1, n + 1)) - 1
    forwards = np.empty(n)
    forwards[0] = zeros[0]
    forwards[1:] = dfs[:-1] / dfs[1:] - 1
    return zeros, dfs, forwards


@CASES.case(args=[(100.0, 100.0, 0.5, 0.02, 0.25), (50.0, 60.0, 2.0, 0.05, 0.4)])
def black_scholes_all_greeks(s, k, t, r, sigma):
    """Call and put prices with delta, gamma, vega, theta and rho, as a dict."""
    sqt = math.sqrt(t)
    d1 = (math.log(s / k) + (r + 0.5 * sigma**2) * t) / (sigma * sqt)
    d2 = d1 - sigma * sqt
    disc = math.exp(-r * t)
    call = s * _cdf(d1) - k * disc * _cdf(d2)
    put = call - s + k * disc
    greeks = {
        "delta_call": _cdf(d1),
        "delta_put": _cdf(d1) - 1,
        "gamma": _pdf(d1) / (s * sigma * sqt),
        "vega": s * _pdf(d1) * sqt,
        "theta_call": -s * _pdf(d1) * sigma / (2 * sqt) - r * k * disc * _cdf(d2),
        "rho_call": k * t * disc * _cdf(d2),
    }
    return call, put, greeks


@CASES.case(args=[(np.array([90.0, 100.0, 110.0]), 100.0, 1.0, 0.03, 0.2)])
def black_scholes_vector_greeks(spots, k, t, r, sigma):
    """Delta and gamma over a vector of spots, with the normal cdf from np.vectorize-free
    erf via a polynomial (Abramowitz-Stegun 7.1.26)."""
    d1 = (np.log(spots / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * np.sqrt(t))
    z = np.abs(d1) / np.sqrt(2.0)
    tt = 1.0 / (1.0 + 0.3275911 * z)
    poly = tt * (
        0.254829592
        + tt * (-0.284496736 + tt * (1.421413741 + tt * (-1.453152027 + tt * 1.061405429)))
    )
    erf = 1.0 - poly * np.exp(-z * z)
    cdf = 0.5 * (1.0 + np.sign(d1) * erf)
    gamma = np.exp(-0.5 * d1**2) / np.sqrt(2 * np.pi) / (spots * sigma * np.sqrt(t))
    return cdf, gamma


@CASES.case(args=[(100.0, 105.0, 1.0, 0.02, 0.3, 64, 7), (100.0, 95.0, 0.5, 0.01, 0.2, 8, 1)])
def monte_carlo_call_antithetic(s0, k, t, r, sigma, n, seed):
    """A European call by Monte Carlo with antithetic normals from default_rng(seed)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(n)
    drift = (r - 0.5 * sigma**2) * t
    vol = sigma * math.sqrt(t)
    up = s0 * np.exp(drift + vol * z)
    down = s0 * np.exp(drift - vol * z)
    payoff = 0.5 * (np.maximum(up - k, 0) + np.maximum(down - k, 0))
    price = math.exp(-r * t) * payoff.mean()
    stderr = math.exp(-r * t) * payoff.std(ddof=1) / math.sqrt(n)
    return price, stderr


@CASES.case(args=[(100.0, 100.0, 1.0, 0.03, 0.25, 12, 32, 5), (50.0, 45.0, 0.5, 0.0, 0.4, 4, 8, 2)])
def asian_call_monte_carlo(s0, k, t, r, sigma, steps, paths, seed):
    """An arithmetic-average Asian call: paths built with cumsum of log increments."""
    rng = np.random.default_rng(seed)
    dt = t / steps
    inc = (r - 0.5 * sigma * sigma) * dt + sigma * np.sqrt(dt) * rng.normal(size=(paths, steps))
    log_paths = np.log(s0) + np.cumsum(inc, axis=1)
    averages = np.exp(log_paths).mean(axis=1)
    payoff = np.maximum(averages - k, 0.0)
    return np.exp(-r * t) * payoff.mean(), (payoff > 0).mean()


@CASES.case(args=[(100.0, 100.0, 1.0, 0.05, 0.2, 6, True), (40.0, 45.0, 0.5, 0.03, 0.3, 4, False)])
def crr_tree_put(s0, k, t, r, sigma, n, american):
    """A Cox-Ross-Rubinstein put, the values rolled back in one array in place, with early
    exercise when american."""
    dt = t / n
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    values = np.maximum(k - s0 * u ** np.arange(n, -1, -1) * d ** np.arange(0, n + 1), 0.0)
    for step in range(n - 1, -1, -1):
        values[: step + 1] = disc * (p * values[: step + 1] + (1 - p) * values[1 : step + 2])
        if american:
            spot = s0 * u ** np.arange(step, -1, -1) * d ** np.arange(0, step + 1)
            values[: step + 1] = np.maximum(values[: step + 1], k - spot)
    return values[0]


@CASES.case(args=[(10000.0, 0.06, 12), (500.0, 0.0, 3), (2000.0, 0.12, 1)])
def amortisation_table_rows(principal, annual_rate, months):
    """Payment, then interest and principal per month in a (months, 3) array; the last payment
    absorbs rounding."""
    r = annual_rate / 12
    payment = principal / months if r == 0 else principal * r / (1 - (1 + r) ** -months)
    payment = round(payment, 2)
    table = np.zeros((months, 3))
    balance = principal
    for m in range(months):
        interest = round(balance * r, 2)
        paid = payment - interest
        if m == months - 1:
            paid = balance
        balance = round(balance - paid, 2)
        table[m] = (interest, paid, balance)
    return payment, table


@CASES.case(args=[(RETURNS, 0.95), (RETURNS.astype(np.float32), 0.9), (RETURNS[:3], 0.5)])
def historical_var_cvar_percentile(returns, level):
    """Historical VaR with np.percentile and the mean loss beyond it."""
    losses = -returns
    var = np.percentile(losses, 100 * level)
    tail = losses[losses >= var]
    cvar = tail.mean()
    return var, cvar, len(tail)


@CASES.case(args=[(RETURNS,), (np.zeros(4),), (np.array([0.1, -0.5, 0.2]),)])
def drawdown_from_cumprod(returns):
    """Wealth by cumprod, its running peak by np.maximum.accumulate, the worst drawdown and
    where it happened."""
    wealth = np.cumprod(1 + returns)
    peak = np.maximum.accumulate(wealth)
    dd = wealth / peak - 1
    trough = int(np.argmin(dd))
    peak_at = int(np.argmax(wealth[: trough + 1]))
    return dd.min(), peak_at, trough


@CASES.case(args=[(np.array([-1000.0, 300.0, 400.0, 500.0]),), (np.array([-100.0, 0.0, 110.0]),)])
def irr_by_newton_with_derivative(cashflows):
    """IRR by Newton on the NPV polynomial with its derivative, a Python loop over the flows."""
    rate = 0.1
    for _ in range(50):
        npv = 0.0
        dnpv = 0.0
        for t, cf in enumerate(cashflows):
            npv += cf / (1 + rate) ** t
            dnpv -= t * cf / (1 + rate) ** (t + 1)
        step = npv / dnpv
        rate -= step
        if abs(step) < 1e-12:
            break
    return rate


@CASES.case(args=[(RETURNS, 0.0, 252), (RETURNS[:4], 0.01, 12)])
def sharpe_sortino_with_ddof(returns, rf, periods):
    """Annualised Sharpe and Sortino; the downside deviation uses only negative excess."""
    excess = returns - rf / periods
    sharpe = excess.mean() / excess.std(ddof=1) * np.sqrt(periods)
    downside = np.minimum(excess, 0.0)
    dd = np.sqrt((downside**2).mean())
    sortino = excess.mean() / dd * np.sqrt(periods) if dd > 0 else np.inf
    return sharpe, sortino


@CASES.case(
    args=[
        (
            np.array([0.05, 0.10, 0.15]),
            np.array([[0.04, 0.01, 0.0], [0.01, 0.09, 0.02], [0.0, 0.02, 0.16]]),
        )
    ]
)
def min_variance_and_tangency(mu, cov):
    """The minimum-variance and tangency portfolios from solves with the covariance."""
    ones = np.ones(len(mu))
    w_mv = np.linalg.solve(cov, ones)
    w_mv /= w_mv.sum()
    w_tan = np.linalg.solve(cov, mu)
    w_tan /= w_tan.sum()
    return w_mv, w_tan, w_tan @ mu, np.sqrt(w_tan @ cov @ w_tan)
