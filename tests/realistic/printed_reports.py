"""Routines that print as they go, the way scripts and notebooks report: ``print(f"{x:.3f}")``,
``'%d' % n`` and ``'%8.4f' % x``, ``str.format``, ``str(arr)`` and ``repr`` of arrays and NumPy
scalars, progress lines inside loops, aligned tables, ``sep=`` and ``end=``; the printed text
is compared with eager's character for character."""
# ruff: noqa: UP031, UP032  (printf-style and str.format calls are what these routines use)

import numpy as np

from tograph_conformance.case import Registry

CASES = Registry("textbook")

X = np.array([0.125, -2.5, 3.75, 1.0, 0.0625])


@CASES.case(args=[(X,), (X.astype(np.float32),), (np.array([], dtype=float),)])
def summary_f_strings(x):
    """Prints the count, mean, spread and extremes with f-string formats."""
    n = len(x)
    print(f"n = {n}")
    if n == 0:
        print("empty")
        return None
    mean = x.mean()
    print(f"mean = {mean:.3f}, std = {x.std():.3e}")
    print(f"range [{x.min():+.2f}, {x.max():+.2f}]")
    return mean


@CASES.case(args=[(X, 3), (X[:2], 1)])
def percent_format_progress(x, every):
    """A descent loop that prints '%d' and '%8.4f' progress lines every few iterations."""
    w = np.zeros_like(x)
    for it in range(6):
        grad = 2.0 * (w - x)
        w -= 0.3 * grad
        loss = float(np.sum((w - x) ** 2))
        if it % every == 0:
            print("iter %d loss %8.4f" % (it, loss))
    print("done after %d iterations" % 6)
    return w


@CASES.case(args=[(np.array([1.5, 2.25, 3.0]),), (np.arange(4),), (np.array([[1.0, 2.0]]),)])
def str_and_repr_of_arrays(a):
    """print() of arrays, str() of an array in a sentence, repr() of a NumPy scalar."""
    print(a)
    print("as text: " + str(a * 2))
    total = a.sum()
    print(repr(total), type(total).__name__)
    return total


@CASES.case(args=[(np.array([3, 1, 2]), ["apples", "pears", "kiwis"]), (np.array([5]), ["x"])])
def aligned_inventory_table(counts, names):
    """A right-aligned table with str.format widths and a rule of dashes."""
    print("{:<10}{:>6}".format("item", "count"))
    print("-" * 16)
    for name, c in zip(names, counts):
        print("{:<10}{:>6d}".format(name, c))
    print("{:<10}{:>6}".format("total", counts.sum()))
    return int(counts.sum())


@CASES.case(args=[(X,), (X[:1],)])
def print_with_sep_and_end(x):
    """print with sep= and end=, building one line from a loop."""
    for i, v in enumerate(x):
        print(i, round(float(v), 2), sep=":", end=" ")
    print()
    print(*np.round(x, 1), sep=", ")
    return len(x)


@CASES.case(args=[(100.0, 0.05, 3), (2500.0, 0.0375, 2)])
def compound_interest_ledger(principal, rate, years):
    """A year-by-year ledger with thousands separators and a percent format."""
    balance = principal
    for year in range(1, years + 1):
        interest = balance * rate
        balance += interest
        print(f"year {year:2d}: interest {interest:,.2f}  balance {balance:,.2f}")
    print(f"growth {(balance / principal - 1):.2%}")
    return balance


@CASES.case(args=[(np.array([0.2, 0.5, 0.9, 0.4]), 0.45), (np.array([0.1]), 0.5)])
def threshold_report_strings(scores, cut):
    """Builds a report string from labels chosen by Python comparisons of floats."""
    lines = []
    for i, s in enumerate(scores.tolist()):
        label = "PASS" if s >= cut else "fail"
        lines.append("%2d %-4s %.2f" % (i, label, s))
    report = "\n".join(lines)
    print(report)
    return report, sum(1 for s in scores.tolist() if s >= cut)


@CASES.case(args=[(X,), (X.astype(np.float32),)])
def formatted_array_with_array2string(x):
    """np.array2string with a precision and np.set_printoptions-free formatting."""
    text = np.array2string(x, precision=2, separator=", ")
    print("x =", text)
    print("cumsum:", np.array2string(np.cumsum(x), precision=3))
    return text


@CASES.case(args=[(np.array([1.0, 2.0, 4.0]), 1e-3), (np.array([1.0, 1.0]), 0.5)])
def newton_sqrt_verbose(targets, tol):
    """Newton's square roots, printing each iterate with its error in scientific notation."""
    roots = np.empty_like(targets)
    for k, a in enumerate(targets):
        x = a if a > 1 else 1.0
        it = 0
        while abs(x * x - a) > tol:
            x = 0.5 * (x + a / x)
            it += 1
            print(f"  a={a:g} it={it} x={x:.6f} err={abs(x * x - a):.2e}")
        roots[k] = x
    return roots


@CASES.case(args=[(np.int64(7), 3.5), (12, np.float64(0.25))])
def mixed_scalar_formats(n, x):
    """'%s', '%r', '%5.1f', '%x' and '%o' of Python and NumPy numbers."""
    print("%s items at %r each" % (n, x))
    print("%5.1f|%-6d|%x|%o" % (x, n, n, n))
    print("{0} and {0!r} and {1:>8.3f}".format(n, x))
    return n * x


@CASES.case(args=[(np.array([3.0, np.nan, 1.5, np.inf]),), (np.array([-0.0, 1.0]),)])
def printing_special_values(x):
    """NaN, inf and -0.0 in f-strings and str()."""
    for v in x:
        print(f"{v:.1f} {v!s} {float(v)}")
    print(str(np.nanmax(x)))
    return np.isnan(x).sum()
