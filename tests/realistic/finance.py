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


# ---- round 3 ------------------------------------------------------------------------------------


def _bs_call(s, k, t, r, sigma):
    d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    n1 = 0.5 * (1 + math.erf(d1 / math.sqrt(2)))
    n2 = 0.5 * (1 + math.erf(d2 / math.sqrt(2)))
    vega = s * math.sqrt(t) * math.exp(-0.5 * d1 * d1) / math.sqrt(2 * math.pi)
    return s * n1 - k * math.exp(-r * t) * n2, vega


@CASES.case(
    args=[
        (10.45, 100.0, 100.0, 1.0, 0.05),
        (2.0, 100.0, 120.0, 0.5, 0.01),
        (0.0, 100.0, 100.0, 1.0, 0.05),
    ]
)
def implied_vol_newton(price, s, k, t, r, sigma=0.3, tol=1e-10, max_iter=50):
    """Implied volatility of a European call by Newton's method on vega."""
    if price <= max(s - k * math.exp(-r * t), 0.0):
        raise ValueError(f"price {price} is below the arbitrage bound")
    for i in range(max_iter):
        value, vega = _bs_call(s, k, t, r, sigma)
        diff = value - price
        if abs(diff) < tol:
            return sigma, i
        sigma = sigma - diff / vega
        if sigma <= 0:
            sigma = 1e-4
    raise RuntimeError("implied volatility did not converge")


@CASES.case(args=[(100.0, 100.0, 1.0, 0.05, 0.2, 6), (36.0, 40.0, 1.0, 0.06, 0.2, 10)])
def american_put_binomial(s0, k, t, r, sigma, steps):
    """An American put on a CRR tree, checking early exercise at every node."""
    dt = t / steps
    u = math.exp(sigma * math.sqrt(dt))
    d = 1 / u
    p = (math.exp(r * dt) - d) / (u - d)
    disc = math.exp(-r * dt)
    prices = s0 * u ** np.arange(steps, -1, -1) * d ** np.arange(0, steps + 1)
    values = np.maximum(k - prices, 0.0)
    early = 0
    for i in range(steps - 1, -1, -1):
        prices = prices[:-1] / u
        cont = disc * (p * values[:-1] + (1 - p) * values[1:])
        exercise = k - prices
        early += int(np.sum(exercise > cont))
        values = np.maximum(cont, exercise)
    return values[0], early


@CASES.case(args=[(PRICES,), (np.array([10.0, 11.0, 12.0]),), (PRICES[::-1],)])
def ulcer_index(prices):
    """The ulcer index: the root mean square of percentage drawdowns from the running peak."""
    peak = prices[0]
    total = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = 100.0 * (p - peak) / peak
        total += dd * dd
    return math.sqrt(total / len(prices))


@CASES.case(args=[(1000.0, 0.01, 100.0), (500.0, 0.0, 120.0), (1000.0, 0.12, 5.0)])
def loan_payoff_months(principal, monthly_rate, payment):
    """Months to pay off a loan, with each month's interest kept in a list."""
    if payment <= principal * monthly_rate:
        raise ValueError("payment does not cover the interest")
    balance = principal
    interest_paid = []
    months = 0
    while balance > 0:
        interest = round(balance * monthly_rate, 2)
        interest_paid.append(interest)
        balance = balance + interest - payment
        months += 1
    return months, sum(interest_paid), round(-balance, 2)


@CASES.case(args=[(RETURNS, 1e-6, 0.1, 0.85), (RETURNS[:3], 1e-5, 0.05, 0.9)])
def garch11_variance(returns, omega, alpha, beta):
    """The GARCH(1,1) conditional variance recursion, started at the sample variance."""
    if alpha + beta >= 1:
        raise ValueError("not stationary")
    var = np.empty(len(returns))
    var[0] = np.var(returns)
    for t in range(1, len(returns)):
        var[t] = omega + alpha * returns[t - 1] ** 2 + beta * var[t - 1]
    log_lik = -0.5 * np.sum(np.log(2 * np.pi * var) + returns**2 / var)
    return var, log_lik


@CASES.case(
    args=[
        ([-1000.0, 300.0, 400.0, 500.0], [0, 180, 365, 730]),
        ([-100.0, 110.0], [0, 365]),
        ([-50.0, -50.0, 120.0], [0, 100, 400], 0.2),
    ]
)
def xirr_secant(flows, days, guess=0.1, tol=1e-9):
    """XIRR: the rate that zeroes the NPV of dated flows (actual/365), by the secant method."""

    def xnpv(rate):
        return sum(cf / (1 + rate) ** (d / 365.0) for cf, d in zip(flows, days))

    r0, r1 = guess, guess + 0.05
    f0, f1 = xnpv(r0), xnpv(r1)
    for _ in range(100):
        if f1 == f0:
            break
        r2 = r1 - f1 * (r1 - r0) / (f1 - f0)
        r0, f0 = r1, f1
        r1, f1 = r2, xnpv(r2)
        if abs(r1 - r0) < tol:
            break
    return r1


@CASES.case(
    args=[
        (np.array([10.0, 5.0, 2.0]), np.array([20.0, 50.0, 100.0]), np.array([0.4, 0.4, 0.2])),
        (np.array([0.0, 0.0]), np.array([10.0, 10.0]), np.array([0.5, 0.5]), 100.0),
    ]
)
def rebalance_inplace(holdings, prices, targets, cash=0.0):
    """Rebalances whole-unit holdings towards target weights; holdings are changed in place."""
    value = float(holdings @ prices) + cash
    trades = []
    for i in range(len(holdings)):
        want = int(targets[i] * value // prices[i])
        delta = want - holdings[i]
        if delta != 0:
            trades.append((i, delta))
            cash -= delta * prices[i]
            holdings[i] = want
    return trades, cash


@CASES.case(
    args=[
        (np.random.default_rng(3), 100.0, 100.0, 0.05, 0.2, 1.0, 500),
        (np.random.default_rng(4), 50.0, 60.0, 0.0, 0.4, 0.5, 100),
    ]
)
def monte_carlo_call(rng, s0, k, r, sigma, t, n_paths):
    """A Monte Carlo European call price with antithetic normals from the caller's Generator."""
    z = rng.standard_normal(n_paths // 2)
    z = np.concatenate([z, -z])
    st = s0 * np.exp((r - 0.5 * sigma**2) * t + sigma * math.sqrt(t) * z)
    payoff = np.maximum(st - k, 0.0)
    price = math.exp(-r * t) * payoff.mean()
    stderr = math.exp(-r * t) * payoff.std(ddof=1) / math.sqrt(len(payoff))
    return price, stderr


@CASES.case(args=[(PRICES, 3), (PRICES, 5), (PRICES[:3], 14)])
def rsi_wilder(prices, period=14):
    """The relative strength index with Wilder's smoothing; None until enough prices."""
    if len(prices) <= period:
        return None
    deltas = np.diff(prices)
    gains = np.where(deltas > 0, deltas, 0.0)
    losses = np.where(deltas < 0, -deltas, 0.0)
    avg_gain = gains[:period].mean()
    avg_loss = losses[:period].mean()
    rsi = []
    for i in range(period, len(deltas)):
        avg_gain = (avg_gain * (period - 1) + gains[i]) / period
        avg_loss = (avg_loss * (period - 1) + losses[i]) / period
        if avg_loss == 0:
            rsi.append(100.0)
        else:
            rs = avg_gain / avg_loss
            rsi.append(100 - 100 / (1 + rs))
    return np.array(rsi)


@CASES.case(args=[(RETURNS, 0.0), (RETURNS, 0.01), (np.array([0.01, 0.02]), 0.0)])
def sortino_ratio(returns, target=0.0, periods=252):
    """The Sortino ratio: excess mean over the downside deviation, annualised."""
    downside = 0.0
    for r in returns:
        if r < target:
            downside += (r - target) ** 2
    downside = math.sqrt(downside / len(returns))
    if downside == 0:
        return float("inf")
    return (np.mean(returns) - target) / downside * math.sqrt(periods)


@CASES.case(args=[(PRICES, 3, 2.0), (PRICES, 5, 1.5), (PRICES[:2], 3, 2.0)])
def bollinger_signals(prices, window, k):
    """Bollinger bands by a loop over windows; 'buy' and 'sell' signals collected as tuples."""
    signals = []
    upper = np.full(len(prices), np.nan)
    lower = np.full(len(prices), np.nan)
    for t in range(window - 1, len(prices)):
        w = prices[t - window + 1 : t + 1]
        mid = w.mean()
        sd = w.std()
        upper[t] = mid + k * sd
        lower[t] = mid - k * sd
        if prices[t] > upper[t]:
            signals.append((t, "sell"))
        elif prices[t] < lower[t]:
            signals.append((t, "buy"))
    return upper, lower, signals


@CASES.case(args=[(100000.0, 0.05, 30), (5000.0, 0.0, 2), (1000.0, 0.12, 1)])
def mortgage_table(principal, annual_rate, years):
    """Monthly payment by the annuity formula, then a year-by-year summary as a list of dicts."""
    r = annual_rate / 12
    n = years * 12
    payment = principal / n if r == 0 else principal * r / (1 - (1 + r) ** -n)
    balance = principal
    rows = []
    for year in range(1, years + 1):
        paid_interest = 0.0
        for _ in range(12):
            interest = balance * r
            paid_interest += interest
            balance -= payment - interest
        rows.append(
            {"year": year, "interest": round(paid_interest, 2), "balance": max(balance, 0.0)}
        )
    return round(payment, 2), rows


@CASES.case(args=[(PRICES, 0.02), (PRICES, 0.5), (PRICES[:2], 0.01)])
def drawdown_episodes(prices, threshold):
    """Days where the drawdown from the running peak first passes a threshold, and the depth
    reached on each of those days (a comprehension over the days found)."""
    peak = prices[0]
    starts = []
    inside = False
    for t in range(len(prices)):
        peak = max(peak, prices[t])
        dd = 1 - prices[t] / peak
        if dd > threshold and not inside:
            starts.append(t)
            inside = True
        elif dd <= threshold:
            inside = False
    depths = [1 - prices[t] / np.max(prices[: t + 1]) for t in starts]
    return starts, depths
