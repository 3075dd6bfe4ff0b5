"""Finance the way tutorials write it: NPV and IRR by Newton and bisection, amortization
schedules, GBM Monte Carlo with a seeded generator, an American option on a binomial tree,
implied volatility by bisection, Sharpe, Sortino, maximum drawdown and Calmar ratios, historical
and parametric VaR and CVaR, MACD, RSI, ATR and the stochastic oscillator; called with lists of
floats, arrays, flat and negative prices and cash flows with no sign change."""

import math

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("finance")

CLOSES = [
    44.34,
    44.09,
    44.15,
    43.61,
    44.33,
    44.83,
    45.10,
    45.42,
    45.84,
    46.08,
    45.89,
    46.03,
    45.61,
    46.28,
    46.28,
    46.00,
    46.03,
    46.41,
]
HIGHS = np.array(CLOSES) + np.array(
    [0.4, 0.2, 0.5, 0.3, 0.6, 0.2, 0.1, 0.3, 0.5, 0.2, 0.4, 0.6, 0.3, 0.2, 0.1, 0.5, 0.4, 0.3]
)
LOWS = np.array(CLOSES) - np.array(
    [0.3, 0.5, 0.2, 0.4, 0.1, 0.3, 0.6, 0.2, 0.3, 0.4, 0.2, 0.1, 0.5, 0.3, 0.2, 0.4, 0.3, 0.2]
)
RETURNS = np.array(
    [0.012, -0.008, 0.004, -0.021, 0.015, 0.007, -0.003, 0.011, -0.014, 0.009, 0.002, -0.006]
)
FLAT = np.full(8, 100.0)


@CASES.case(
    args=[
        (0.08, [-1000.0, 300.0, 420.0, 680.0]),
        (0.0, [-10, 5, 5]),
        (0.05, []),
        (-0.5, [1.0, 1.0]),
    ]
)
def npv_enumerate(rate, cashflows):
    """NPV with the first flow at time zero, by enumerate and a generator."""
    return sum(cf / (1 + rate) ** t for t, cf in enumerate(cashflows))


@CASES.case(args=[([-1000.0, 300.0, 420.0, 680.0],), ([-100.0, 110.0],), ([100.0, 50.0],)])
def irr_newton_raphson(cashflows, guess=0.1, tol=1e-10, max_iter=50):
    """IRR by Newton-Raphson on the NPV polynomial; None when it does not converge."""
    rate = guess
    for _ in range(max_iter):
        npv = 0.0
        d_npv = 0.0
        for t, cf in enumerate(cashflows):
            npv += cf / (1 + rate) ** t
            d_npv -= t * cf / (1 + rate) ** (t + 1)
        if d_npv == 0:
            return None
        new_rate = rate - npv / d_npv
        if abs(new_rate - rate) < tol:
            return new_rate
        rate = new_rate
    return None


@CASES.case(args=[(np.array([-500.0, 100.0, 200.0, 300.0]),), (np.array([-100.0, -10.0]),)])
def irr_bisection_array(flows, lo=-0.99, hi=1.0):
    """IRR by bisection on an array of flows; raises when the NPV does not change sign."""
    t = np.arange(len(flows))

    def npv(r):
        return np.sum(flows / (1.0 + r) ** t)

    f_lo, f_hi = npv(lo), npv(hi)
    if f_lo * f_hi > 0:
        raise ValueError("NPV has the same sign at both ends: no IRR in the bracket")
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        f_mid = npv(mid)
        if f_lo * f_mid <= 0:
            hi, f_hi = mid, f_mid
        else:
            lo, f_lo = mid, f_mid
    return 0.5 * (lo + hi)


@CASES.case(args=[(10000.0, 0.06, 12), (5000, 0.0, 4), (1200.0, 0.12, 1)])
def amortization_rows(principal, annual_rate, months):
    """A monthly amortization schedule as a list of (month, payment, interest, principal,
    balance) rows, rounded to cents, with the zero-rate case handled."""
    r = annual_rate / 12
    if r == 0:
        payment = principal / months
    else:
        payment = principal * r / (1 - (1 + r) ** -months)
    balance = principal
    rows = []
    for m in range(1, months + 1):
        interest = balance * r
        paid = payment - interest
        balance -= paid
        rows.append(
            (m, round(payment, 2), round(interest, 2), round(paid, 2), round(max(balance, 0.0), 2))
        )
    return rows


@CASES.case(args=[(100.0, 0.05, 0.2, 1.0, 12, 200, 42), (50.0, 0.0, 0.4, 0.5, 4, 50, 7)])
def gbm_monte_carlo(s0, mu, sigma, horizon, steps, n_paths, seed):
    """GBM paths with a seeded default_rng: the mean final price and a 5% quantile."""
    rng = np.random.default_rng(seed)
    dt = horizon / steps
    z = rng.standard_normal((n_paths, steps))
    increments = (mu - 0.5 * sigma**2) * dt + sigma * np.sqrt(dt) * z
    paths = s0 * np.exp(np.cumsum(increments, axis=1))
    final = paths[:, -1]
    return final.mean(), np.percentile(final, 5), paths.max()


@CASES.case(
    args=[
        (100.0, 100.0, 1.0, 0.05, 0.2, 50),
        (36.0, 40.0, 1.0, 0.06, 0.2, 20),
        (10.0, 5.0, 0.5, 0.0, 0.3, 3),
    ]
)
def american_put_tree(S, K, T, r, sigma, steps):
    """An American put on a CRR binomial tree, exercising early when that pays more."""
    dt = T / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    prices = S * u ** np.arange(steps, -1, -1) * d ** np.arange(0, steps + 1)
    values = np.maximum(K - prices, 0.0)
    for i in range(steps - 1, -1, -1):
        prices = S * u ** np.arange(i, -1, -1) * d ** np.arange(0, i + 1)
        values = disc * (p * values[:-1] + (1 - p) * values[1:])
        values = np.maximum(values, K - prices)
    return values[0]


def _bs_call_price(S, K, T, r, sigma):
    d1 = (math.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * math.sqrt(T))
    d2 = d1 - sigma * math.sqrt(T)
    nd1 = 0.5 * (1 + math.erf(d1 / math.sqrt(2)))
    nd2 = 0.5 * (1 + math.erf(d2 / math.sqrt(2)))
    return S * nd1 - K * math.exp(-r * T) * nd2


@CASES.case(
    args=[
        (10.45, 100.0, 100.0, 1.0, 0.05),
        (0.5, 100.0, 100.0, 1.0, 0.05),
        (200.0, 100.0, 100.0, 1.0, 0.05),
    ]
)
def implied_vol_bisection(price, S, K, T, r, lo=1e-4, hi=3.0, tol=1e-8):
    """Implied volatility of a call by bisection; NaN when the price is outside the bounds."""
    if price < _bs_call_price(S, K, T, r, lo) or price > _bs_call_price(S, K, T, r, hi):
        return float("nan")
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if _bs_call_price(S, K, T, r, mid) > price:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


@CASES.case(
    args=[
        (RETURNS, 0.0),
        (list(RETURNS), 0.02),
        (np.zeros(5), 0.0),
        (RETURNS.astype(np.float32), 0.01),
    ]
)
def sharpe_sortino_annualised(returns, risk_free, periods=252):
    """Annualised Sharpe and Sortino ratios; NaN when the deviation is zero."""
    r = np.asarray(returns)
    excess = r - risk_free / periods
    std = excess.std(ddof=1)
    sharpe = np.sqrt(periods) * excess.mean() / std if std > 0 else np.nan
    downside = excess[excess < 0]
    dd = np.sqrt(np.mean(downside**2)) if len(downside) else 0.0
    sortino = np.sqrt(periods) * excess.mean() / dd if dd > 0 else np.nan
    return sharpe, sortino


@CASES.case(args=[(CLOSES,), (FLAT,), ([10.0, 12.0, 6.0, 9.0, 3.0, 15.0],), ([5.0],)])
def max_drawdown_and_calmar(prices):
    """Maximum drawdown by a running peak, when it happened, and the Calmar ratio."""
    peak = prices[0]
    mdd = 0.0
    trough_at = 0
    for i, p in enumerate(prices):
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > mdd:
            mdd = dd
            trough_at = i
    total_return = prices[-1] / prices[0] - 1
    calmar = total_return / mdd if mdd > 0 else float("inf")
    return mdd, trough_at, calmar


@CASES.case(args=[(RETURNS, 0.95), (RETURNS, 0.9), (list(RETURNS[:4]), 0.5)])
def var_cvar_historical(returns, level):
    """Historical VaR and CVaR (expected shortfall) as positive losses."""
    r = np.sort(np.asarray(returns))
    cutoff = int(np.floor((1 - level) * len(r)))
    cutoff = max(cutoff, 1)
    var = -r[cutoff - 1]
    cvar = -r[:cutoff].mean()
    return var, cvar


@CASES.case(args=[(RETURNS, 0.95, 1_000_000.0), (RETURNS.astype(np.float32), 0.99, 100.0)])
def var_cvar_parametric(returns, level, value):
    """Gaussian VaR and CVaR of a position, with the normal quantile by bisection on erf."""
    mu = np.mean(returns)
    sigma = np.std(returns, ddof=1)
    lo, hi = -10.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < level:
            lo = mid
        else:
            hi = mid
    z = (lo + hi) / 2
    pdf = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    var = value * (z * sigma - mu)
    cvar = value * (sigma * pdf / (1 - level) - mu)
    return var, cvar


def _ema_series(values, span):
    alpha = 2 / (span + 1)
    out = np.empty(len(values))
    out[0] = values[0]
    for i in range(1, len(values)):
        out[i] = alpha * values[i] + (1 - alpha) * out[i - 1]
    return out


@CASES.case(args=[(np.array(CLOSES), 3, 6, 4), (FLAT, 2, 4, 3)])
def macd_histogram(closes, fast, slow, signal):
    """MACD line, signal line and histogram, and the indices where MACD crosses above signal."""
    macd = _ema_series(closes, fast) - _ema_series(closes, slow)
    sig = _ema_series(macd, signal)
    hist = macd - sig
    crossings = [i for i in range(1, len(hist)) if hist[i - 1] <= 0 < hist[i]]
    return macd, sig, hist, crossings


@CASES.case(
    args=[(CLOSES, 14), (list(FLAT), 3), ([1.0, 2.0, 3.0, 4.0, 5.0], 2), ([5.0, 4.0, 3.0, 2.0], 2)]
)
def rsi_simple_average(closes, period):
    """RSI with simple averages of gains and losses over the last `period` changes; 100 when
    there were no losses, 50 when the prices did not move."""
    deltas = np.diff(closes)
    recent = deltas[-period:]
    avg_gain = recent[recent > 0].sum() / period
    avg_loss = -recent[recent < 0].sum() / period
    if avg_loss == 0:
        return 50.0 if avg_gain == 0 else 100.0
    rs = avg_gain / avg_loss
    return 100 - 100 / (1 + rs)


@CASES.case(
    args=[(HIGHS, LOWS, np.array(CLOSES), 5), (HIGHS[:3], LOWS[:3], np.array(CLOSES[:3]), 5)]
)
def average_true_range(high, low, close, period):
    """Wilder's ATR: the true range, its first average, then Wilder smoothing."""
    tr = np.empty(len(high))
    tr[0] = high[0] - low[0]
    for i in range(1, len(high)):
        tr[i] = max(high[i] - low[i], abs(high[i] - close[i - 1]), abs(low[i] - close[i - 1]))
    if len(tr) < period:
        return tr, None
    atr = [tr[:period].mean()]
    for i in range(period, len(tr)):
        atr.append((atr[-1] * (period - 1) + tr[i]) / period)
    return tr, atr


# each %K is a Python float (50.0) or an np.float64 by a tensor test: np.array(k_values) checks
# every combination of their kinds (2 ** len), so the window count stays small
@CASES.case(args=[(HIGHS[:9], LOWS[:9], np.array(CLOSES[:9]), 4, 3), (FLAT, FLAT, FLAT, 3, 2)])
def stochastic_oscillator(high, low, close, k_period, d_period):
    """%K over a rolling window and %D as its moving average; 50 when the range is zero."""
    k_values = []
    for i in range(k_period - 1, len(close)):
        hh = np.max(high[i - k_period + 1 : i + 1])
        ll = np.min(low[i - k_period + 1 : i + 1])
        k_values.append(50.0 if hh == ll else 100 * (close[i] - ll) / (hh - ll))
    k = np.array(k_values)
    d = np.convolve(k, np.ones(d_period) / d_period, mode="valid")
    return k, d


@CASES.case(args=[(CLOSES,), ([100.0, -5.0, 50.0],), ([0.0, 1.0],)])
def log_returns_checked(prices):
    """Log returns, refusing non-positive prices with a message naming the first one."""
    for i, p in enumerate(prices):
        if p <= 0:
            raise ValueError(f"price {p} at index {i} is not positive")
    p = np.asarray(prices, dtype=float)
    lr = np.log(p[1:] / p[:-1])
    return lr, lr.sum(), np.exp(lr.sum()) - 1
