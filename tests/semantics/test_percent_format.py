"""``"template" % values`` with tensors among the values prints what eager code prints: each
conversion becomes the f-string field that formats alike; a conversion with no such field falls
back, naming the line (fuzz seeds 59, 80 and 178 printed ``<SymbolicTensor ...>``)."""
# ruff: noqa: UP031, F507  (printf-style formatting is what these functions test)

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def strings_and_reprs(x, s, z):
    print("a %s b %r" % (x, s))
    print("%s" % x[1:], "%r" % (z,), "%s" % [x[0], 1])
    print("%10s|%-10r|%.3s|%05s" % (s, x[0], s, s))
    return 1


def real_numbers(x, s):
    print("%.2f|%+8.3e|%-6.1f|%06.2f|%g|% F" % (s, s, x.sum(), x[0], s, x[1]))
    return "%.1f" % 1.25


def integers(k, x):
    n = np.argmax(x)
    print("%d %5d %x %#o %-4i| %+05d %#X %%" % (k, k, k, k, n, k, k))
    return 1


@pytest.mark.parametrize(
    "fn, args",
    [
        (strings_and_reprs, (np.array([1.5, -2.25, 3.0]), np.float32(2.5), np.array(1.5))),
        (strings_and_reprs, (np.array([0.0, 1e9, -1e-9]), 2.5, np.array(-3.0))),
        (real_numbers, (np.array([1.5, -2.25, 3.0]), np.float32(2.5))),
        (real_numbers, (np.array([-1e10, 2.0, np.nan]), 1.0 / 3.0)),
        (integers, (np.int64(-7), np.array([1.0, 3.0]))),
        (integers, (255, np.array([1.0, -3.0]))),
    ],
)
def test_percent_formatting_of_tensors_prints_as_eager(fn, args, capsys):
    assert_matches_eager(fn, *args)
    printed = capsys.readouterr().out  # the oracle's eager run, then the compiled one
    half = len(printed) // 2
    assert printed and printed[:half] == printed[half:]


def integer_of_a_float(x):
    print("%d" % x.sum())
    return 1


def too_few_values(x):
    print("%s %s" % (x,))
    return 1


@pytest.mark.parametrize("fn", [integer_of_a_float, too_few_values])
def test_a_conversion_without_a_field_falls_back_naming_its_line(fn):
    with pytest.warns(tg.FallbackWarning, match="% formatting of a tensor"):
        tg.to_static(fn).concrete(np.array([1.5, 2.0]))
