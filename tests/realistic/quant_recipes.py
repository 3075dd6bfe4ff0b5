"""Quant recipes from notebooks and blog posts: a GARCH(1,1) filter with its log-likelihood,
Heston paths by full-truncation Euler with a seeded Generator, drawdown series and their
longest underwater spell, Sharpe and Sortino, historical VaR, an American call with a dividend
yield on a binomial tree, IRR by bisection over Python lists, an amortisation schedule rounded
to cents, a CAPM beta, Kelly fractions and a bond's yield by Newton."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("finance")

RETS = np.array([0.012, -0.008, 0.004, -0.021, 0.017, 0.003, -0.011, 0.009, 0.014, -0.006])
MARKET = np.array([0.010, -0.005, 0.002, -0.015, 0.012, 0.001, -0.009, 0.007, 0.010, -0.004])
PRICES = np.array([100.0, 101.5, 99.8, 97.0, 98.2, 102.4, 101.0, 95.5, 96.8, 103.1])


@CASES.case(
    args=[
        (RETS, 1e-6, 0.08, 0.9),
        (RETS.astype(np.float32), 2e-6, 0.1, 0.85),
        (RETS[:1], 1e-6, 0.1, 0.8),
    ]
)
def garch11_filter_loglik(r, omega, alpha, beta):
    """The conditional variances of a GARCH(1,1), started at the sample variance, and the
    Gaussian log-likelihood; a non-stationary parameter set is refused."""
    if alpha + beta >= 1:
        raise ValueError(f"alpha + beta = {alpha + beta} must be below 1")
    n = len(r)
    sigma2 = np.empty(n)
    sigma2[0] = np.var(r) if n > 1 else omega / (1 - alpha - beta)
    for t in range(1, n):
        sigma2[t] = omega + alpha * r[t - 1] ** 2 + beta * sigma2[t - 1]
    loglik = -0.5 * np.sum(np.log(2 * np.pi) + np.log(sigma2) + r**2 / sigma2)
    return sigma2, loglik


@CASES.case(
    args=[
        (100.0, 0.04, 2.0, 0.04, 0.3, -0.7, 1.0, 20, 64, 11),
        (50.0, 0.09, 1.0, 0.05, 0.5, 0.2, 0.5, 10, 32, 3),
    ]
)
def heston_full_truncation(s0, v0, kappa, theta, xi, rho, T, steps, paths, seed):
    """Heston paths by Euler with full truncation (max(v, 0) in drift and diffusion) and
    correlated normals from a seeded Generator; the call price at the money."""
    rng = np.random.default_rng(seed)
    dt = T / steps
    s = np.full(paths, s0)
    v = np.full(paths, v0)
    for _ in range(steps):
        z1 = rng.standard_normal(paths)
        z2 = rho * z1 + math.sqrt(1 - rho**2) * rng.standard_normal(paths)
        vp = np.maximum(v, 0.0)
        s = s * np.exp(-0.5 * vp * dt + np.sqrt(vp * dt) * z1)
        v = v + kappa * (theta - vp) * dt + xi * np.sqrt(vp * dt) * z2
    payoff = np.maximum(s - s0, 0.0)
    return payoff.mean(), payoff.std() / math.sqrt(paths)


@CASES.case(args=[(PRICES,), (PRICES[:3],), (np.array([10.0, 11.0, 12.0]),)])
def drawdown_series_longest(prices):
    """The drawdown series, its worst value and the longest spell under water in periods."""
    peak = np.maximum.accumulate(prices)
    dd = prices / peak - 1.0
    longest = current = 0
    for d in dd:
        if d < 0:
            current += 1
            longest = max(longest, current)
        else:
            current = 0
    return dd, dd.min(), longest


@CASES.case(
    args=[(RETS, 0.0001, 252), (RETS.astype(np.float32), 0.0, 12), (np.full(4, 0.01), 0.0, 252)]
)
def sharpe_and_sortino(r, rf, periods):
    """Annualised Sharpe and Sortino ratios; the downside deviation uses only losses, and a
    series without losses has an infinite Sortino."""
    excess = r - rf
    sd = excess.std(ddof=1)
    sharpe = excess.mean() / sd * math.sqrt(periods) if sd > 0 else float("nan")
    downside = excess[excess < 0]
    if len(downside) == 0:
        return sharpe, float("inf")
    dd = math.sqrt(float(np.mean(downside**2)))
    return sharpe, excess.mean() / dd * math.sqrt(periods)


@CASES.case(args=[(RETS, 0.95, 1_000_000.0), (RETS, 0.9, 250.0), (RETS[:4], 0.99, 1.0)])
def historical_var_es(r, level, notional):
    """One-day VaR and expected shortfall by historical simulation: the sorted losses, the
    order statistic at ceil(level * n) - 1, the mean beyond it."""
    losses = np.sort(-r * notional)
    k = math.ceil(level * len(losses)) - 1
    var = losses[k]
    tail = losses[k:]
    return var, tail.mean(), len(tail)


@CASES.case(
    args=[
        (100.0, 95.0, 1.0, 0.05, 0.03, 0.25, 50),
        (40.0, 45.0, 0.5, 0.02, 0.06, 0.4, 20),
        (10.0, 10.0, 0.25, 0.0, 0.0, 0.3, 1),
    ]
)
def american_call_dividend_tree(s, k, t, r, q, sigma, n):
    """CRR tree for an American call on a stock paying a continuous dividend q: early exercise
    can pay, so the early-exercise boundary nodes are counted."""
    dt = t / n
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp((r - q) * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    values = np.maximum(s * u ** np.arange(n, -1, -1) * d ** np.arange(0, n + 1) - k, 0.0)
    early = 0
    for i in range(n - 1, -1, -1):
        spot = s * u ** np.arange(i, -1, -1) * d ** np.arange(0, i + 1)
        cont = disc * (p * values[:-1] + (1 - p) * values[1:])
        exercise = spot - k
        early += int(np.sum(exercise > cont))
        values = np.maximum(cont, exercise)
    return values[0], early


@CASES.case(
    args=[([-1000.0, 300.0, 400.0, 500.0],), ([-100.0, 10.0, 10.0, 110.0],), ([-50.0, 60.0],)]
)
def irr_bisection_list(cash_flows):
    """IRR by bisection on [-0.99, 1.0] with a Python list of cash flows and Python floats."""

    def npv(rate):
        return sum(cf / (1 + rate) ** t for t, cf in enumerate(cash_flows))

    lo, hi = -0.99, 1.0
    if npv(lo) * npv(hi) > 0:
        return None
    for _ in range(100):
        mid = (lo + hi) / 2
        if npv(lo) * npv(mid) <= 0:
            hi = mid
        else:
            lo = mid
        if hi - lo < 1e-10:
            break
    return round((lo + hi) / 2, 8)


@CASES.case(args=[(10000.0, 0.06, 12), (2500.0, 0.035, 6), (1000.0, 0.0, 4)])
def amortisation_rounded(principal, annual_rate, months):
    """A schedule rounded to cents each month; the last payment takes the remainder so the
    balance ends at exactly zero."""
    r = annual_rate / 12
    if r == 0:
        payment = round(principal / months, 2)
    else:
        payment = round(principal * r / (1 - (1 + r) ** -months), 2)
    balance = principal
    rows = []
    for m in range(1, months + 1):
        interest = round(balance * r, 2)
        pay = payment if m < months else round(balance + interest, 2)
        principal_part = round(pay - interest, 2)
        balance = round(balance - principal_part, 2)
        rows.append((m, pay, interest, principal_part, balance))
    return rows


@CASES.case(
    args=[
        (RETS, MARKET),
        (RETS.astype(np.float32), MARKET.astype(np.float32)),
        (RETS[:2], MARKET[:2]),
    ]
)
def capm_beta_alpha(asset, market):
    """Beta as cov/var with ddof=1 and Jensen's alpha; the R squared of the regression."""
    cov = np.cov(asset, market)
    beta = cov[0, 1] / cov[1, 1]
    alpha = asset.mean() - beta * market.mean()
    resid = asset - (alpha + beta * market)
    r2 = 1 - resid.var() / asset.var()
    return beta, alpha, r2


@CASES.case(args=[([0.6, 0.55, 0.4], [1.0, 1.5, 3.0]), ([0.5], [1.0]), ([], [])])
def kelly_fractions(probs, odds):
    """The Kelly fraction f = p - (1 - p) / b per bet, clipped at zero, and the growth rate."""
    fractions = []
    growth = 0.0
    for p, b in zip(probs, odds):
        f = max(p - (1 - p) / b, 0.0)
        fractions.append(f)
        if f > 0:
            growth += p * math.log(1 + f * b) + (1 - p) * math.log(1 - f)
    return fractions, growth


@CASES.case(
    args=[(95.0, 100.0, 0.05, 10, 2), (102.5, 100.0, 0.04, 5, 1), (100.0, 100.0, 0.03, 3, 2)]
)
def bond_yield_newton(price, face, coupon_rate, years, freq):
    """Yield to maturity by Newton's method on the price-yield function, with its derivative
    written out; returns the yield and the number of iterations."""
    n = years * freq
    c = face * coupon_rate / freq
    y = coupon_rate
    for it in range(50):
        disc = [(1 + y / freq) ** -(t + 1) for t in range(n)]
        f = sum(c * d for d in disc) + face * disc[-1] - price
        df = sum(-(t + 1) / freq * c * d / (1 + y / freq) for t, d in enumerate(disc))
        df -= n / freq * face * disc[-1] / (1 + y / freq)
        step = f / df
        y -= step
        if abs(step) < 1e-12:
            return y, it + 1
    return y, 50


@CASES.case(args=[(PRICES, 3, 6), (PRICES, 2, 4), (PRICES[:4], 2, 3)])
def sma_crossover_trades(prices, fast, slow):
    """Simple moving averages by np.convolve, the position as np.where with scalar branches,
    and the trade count from sign changes."""
    if len(prices) < slow:
        return np.zeros(0), 0
    f = np.convolve(prices, np.ones(fast) / fast, mode="valid")[slow - fast :]
    s = np.convolve(prices, np.ones(slow) / slow, mode="valid")
    pos = np.where(f > s, 1, -1)
    trades = int(np.sum(pos[1:] != pos[:-1]))
    return pos, trades


@CASES.case(args=[(PRICES, 0.1), (PRICES, 0.02), (PRICES[:2], 0.5)])
def trailing_stop_exit(prices, trail):
    """Walks prices holding a long position with a trailing stop; returns at the first exit
    (index and realised return) or None when the stop is never hit."""
    high = prices[0]
    for i in range(1, len(prices)):
        high = max(high, prices[i])
        if prices[i] <= high * (1 - trail):
            return i, prices[i] / prices[0] - 1
    return None
