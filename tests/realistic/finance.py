"""Finance as people write it: Black-Scholes with math.erf, binomial trees, IRR by Newton and by
bisection, drawdowns, EWMA volatility, amortization schedules, Sharpe ratios, NPV."""

import math

import numpy as np

from tograph_conformance.case import Registry
from tograph_conformance.cases.realistic import FLOWS, PRICES

CASES = Registry("finance")

RETURNS = np.diff(PRICES) / PRICES[:-1]


@CASES.case(args=[(100.0, 100.0, 1.0, 0.05, 0.2, 8), (100.0, 110.0, 1.0, 0.05, 0.3, 6, True)])
def binomial_tree(s, k, t, r, sigma, steps, american=False):
    dt = t / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1.0 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    prices = s * u ** np.arange(steps, -1, -1) * d ** np.arange(0, steps + 1)
    values = np.maximum(k - prices, 0.0) if american else np.maximum(prices - k, 0.0)
    for i in range(steps - 1, -1, -1):
        values[: i + 1] = disc * (p * values[: i + 1] + (1 - p) * values[1 : i + 2])
        if american:
            prices = prices[: i + 1] / u
            values[: i + 1] = np.maximum(values[: i + 1], k - prices)
    return values[0]


@CASES.case(args=[(FLOWS,), (np.array([-50.0, 20.0, 20.0, 20.0]),), (np.array([10.0, 10.0]),)])
def irr_bisection(flows, lo=-0.99, hi=10.0, tol=1e-9):
    def npv(rate):
        total = 0.0
        for t, cf in enumerate(flows):
            total += cf / (1.0 + rate) ** t
        return total

    f_lo = npv(lo)
    if f_lo * npv(hi) > 0:
        raise ValueError("no sign change in the bracket")
    while hi - lo > tol:
        mid = (lo + hi) / 2
        f_mid = npv(mid)
        if f_lo * f_mid <= 0:
            hi = mid
        else:
            lo, f_lo = mid, f_mid
    return (lo + hi) / 2


@CASES.case(args=[(RETURNS,), (RETURNS, 0.8), (RETURNS.astype(np.float32), 0.9)])
def ewma_volatility(returns, lam=0.94):
    var = returns[0] ** 2
    vols = [math.sqrt(var)]
    for r in returns[1:]:
        var = lam * var + (1 - lam) * r * r
        vols.append(math.sqrt(var))
    return np.array(vols)


@CASES.case(args=[(1000.0, 0.06, 1), (250000, 0.045, 2), (500.0, 0.0, 1)])
def amortization_schedule(principal, annual_rate, years, per_year=12):
    n = years * per_year
    rate = annual_rate / per_year
    if rate == 0:
        payment = principal / n
    else:
        payment = principal * rate / (1 - (1 + rate) ** -n)
    schedule = np.zeros((n, 3))
    balance = principal
    for i in range(n):
        interest = balance * rate
        paid = payment - interest
        balance -= paid
        schedule[i, 0] = interest
        schedule[i, 1] = paid
        schedule[i, 2] = max(balance, 0.0)
    return payment, schedule


@CASES.case(args=[(RETURNS,), (RETURNS, 0.001, 252), (np.full(4, 0.01),), (RETURNS[:1],)])
def sharpe_ratio(returns, risk_free=0.0, periods=12):
    if len(returns) < 2:
        raise ValueError("need at least two returns")
    excess = returns - risk_free
    sd = np.std(excess, ddof=1)
    if sd == 0:
        raise ValueError("returns have zero spread")
    return float(np.mean(excess) / sd * math.sqrt(periods))


@CASES.case(args=[(0.08, [-100.0, 30.0, 40.0, 50.0]), (np.float64(0.1), FLOWS), (0.0, [1, 2, 3])])
def npv_list(rate, flows):
    total = 0.0
    discount = 1.0
    for cf in flows:
        total += cf * discount
        discount /= 1 + rate
    return total


@CASES.case(args=[(PRICES, 3), (PRICES, 1), (PRICES[:2], 5)])
def moving_average_crossover(prices, short):
    """Buy/sell signals where a short moving average crosses the cumulative mean."""
    signals = []
    position = 0
    cash = 0.0
    for i in range(short, len(prices)):
        fast = prices[i - short + 1 : i + 1].mean()
        slow = prices[: i + 1].mean()
        if fast > slow and position == 0:
            position = 1
            cash -= prices[i]
            signals.append(("buy", i))
        elif fast < slow and position == 1:
            position = 0
            cash += prices[i]
            signals.append(("sell", i))
    if position:
        cash += prices[-1]
    return signals, round(float(cash), 6)


@CASES.case(args=[(1000.0, [0.05, -0.02, 0.1], 2), (100, [0.0], 1), (1.0, [], 3)])
def compound_growth(start, rates, decimals):
    """Balance after each period's rate, rounded for display, and the total return in percent."""
    balance = start
    rounded = []
    for r in rates:
        balance *= 1 + r
        rounded.append(round(balance, decimals))
    total = (balance / start - 1) * 100
    print(f"total return {total:.2f}%")
    return rounded, total


@CASES.case(args=[(np.array([5.0, 3.0, 8.0]), 10.0), (np.array([1.0]), 0.5), (np.array([]), 1.0)])
def budget_purchases(costs, budget):
    """Greedy purchases in order while the budget lasts; returns what was bought and the rest."""
    spent = 0.0
    i = 0
    bought = []
    while True:
        if i >= len(costs):
            break
        if spent + costs[i] > budget:
            i += 1
            continue
        spent += costs[i]
        bought.append(i)
        i += 1
    return bought, spent, budget - spent


@CASES.case(
    args=[
        (1000.0, 0.05, 10, 0.04),
        (np.float64(100.0), 0.0, 3, 0.02, 1),
        (1000.0, 0.06, 5, 0.06, 2),
    ]
)
def bond_price_duration(face, coupon_rate, years, ytm, freq=2):
    """Price, Macaulay and modified duration of a fixed-coupon bond from its cash flows."""
    periods = years * freq
    coupon = face * coupon_rate / freq
    rate = ytm / freq
    price = 0.0
    weighted = 0.0
    for n in range(1, periods + 1):
        flow = coupon + (face if n == periods else 0.0)
        pv = flow / (1 + rate) ** n
        price += pv
        weighted += n * pv
    macaulay = weighted / price / freq
    return round(price, 4), macaulay, macaulay / (1 + rate)


@CASES.case(args=[(PRICES,), (PRICES[::-1],), (np.array([5.0, 5.0, 5.0]),), (np.array([]),)])
def drawdown_durations(prices):
    """The longest stretch below a running peak and the deepest drawdown, by one pass."""
    if len(prices) == 0:
        return 0, 0.0
    peak = prices[0]
    longest = current = 0
    deepest = 0.0
    for p in prices[1:]:
        if p >= peak:
            peak = p
            current = 0
        else:
            current += 1
            longest = max(longest, current)
            deepest = min(deepest, (p - peak) / peak)
    return longest, deepest


def _norm_pdf(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


GREEKS = {"s": 100.0, "k": 105.0, "t": 0.5, "r": 0.01, "sigma": 0.25}


@CASES.case(args=[(GREEKS,), ({**GREEKS, "t": 0.0},), ({**GREEKS, "sigma": np.float64(0.4)},)])
def call_greeks(params):
    """Delta, gamma, vega and theta of a European call from a dict of parameters; expiry raises."""
    s, k, t, r, sigma = (params[name] for name in ("s", "k", "t", "r", "sigma"))
    if t <= 0:
        raise ValueError("option has expired")
    d1 = (math.log(s / k) + (r + sigma**2 / 2) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    greeks = {
        "delta": _norm_cdf(d1),
        "gamma": _norm_pdf(d1) / (s * sigma * math.sqrt(t)),
        "vega": s * _norm_pdf(d1) * math.sqrt(t) / 100,
        "theta": (
            -s * _norm_pdf(d1) * sigma / (2 * math.sqrt(t))
            - r * k * math.exp(-r * t) * _norm_cdf(d2)
        )
        / 365,
    }
    return {name: round(value, 6) for name, value in greeks.items()}


@CASES.case(args=[(PRICES, 4), (PRICES, 0), (PRICES[:3], 2)])
def cagr_and_report(prices, periods_per_year):
    """Compound annual growth with a printed report line; bad input raises."""
    if periods_per_year <= 0:
        raise ValueError("periods_per_year must be positive")
    years = (len(prices) - 1) / periods_per_year
    growth = prices[-1] / prices[0]
    cagr = growth ** (1 / years) - 1
    print(f"{len(prices)} prices over {years:.2f} years: CAGR {cagr:.2%}, total {growth - 1:+.1%}")
    return cagr


@CASES.case(args=[(FLOWS, 0.08), (np.array([-50.0, 0.0, 0.0, 80.0]), 0.0), (FLOWS, -1.0)])
def npv_and_payback(flows, rate):
    """Net present value by a discount loop and the payback period (None when never repaid)."""
    if rate <= -1:
        raise ValueError(f"rate {rate} must exceed -100%")
    npv = 0.0
    cumulative = 0.0
    payback = None
    for t, cf in enumerate(flows):
        npv += cf / (1 + rate) ** t
        previous = cumulative
        cumulative += cf
        if payback is None and cumulative >= 0 > previous:
            payback = t - 1 + (-previous / cf)
    return npv, payback
