"""``"template".format(...)`` with tensors among the values prints what eager code prints: each
replacement field becomes the f-string field with the same conversion and spec, its value found
by automatic or explicit numbering, keyword, attribute or index (it printed ``<SymbolicTensor
...>`` for an empty spec and fell back for any other); a nested spec falls back naming the line,
and mixing numberings raises as Python does."""
# ruff: noqa: UP032, F523, F525  (str.format calls, one of them mixing numberings, are the subject)

import types

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg


def automatic_and_explicit(n, x):
    print("{} items, mean {:.3f}, max {:>9.2e}".format(n, x.mean(), x.max()))
    print("{0} and {0!r} and {1!s:>12}|{1[0]:+.1f}".format(n, x))
    return 1


def keywords_attributes_and_indices(x, point):
    print(
        "{lo:.2f}..{hi:.2f} {p.y} {p.x:08.3f} {v[1]}".format(lo=x.min(), hi=x.max(), p=point, v=x)
    )
    print("{:<6d}|{:^7}|{!a}".format(np.argmax(x), "mid", x[0]))
    return "{}-{}".format(1, "static")


@pytest.mark.parametrize(
    "fn, args",
    [
        (automatic_and_explicit, (np.int64(7), np.array([1.5, -2.25, 3.0]))),
        (automatic_and_explicit, (3, np.array([0.1, 1e9], dtype=np.float32))),
        (
            keywords_attributes_and_indices,
            (np.array([2.5, -1.0, 0.25]), types.SimpleNamespace(x=np.float64(1.5), y=2)),
        ),
    ],
)
def test_str_format_of_tensors_prints_as_eager(fn, args, capsys):
    assert_matches_eager(fn, *args)
    printed = capsys.readouterr().out  # the oracle's eager run, then the compiled one
    half = len(printed) // 2
    assert printed and printed[:half] == printed[half:]
    assert "SymbolicTensor" not in printed


def nested_spec(x):
    print("{:{}}".format(x.sum(), 8))
    return 1


def test_a_nested_spec_falls_back_naming_its_line():
    with pytest.warns(tg.FallbackWarning, match=r"str.format of a tensor.*|nested replacement"):
        tg.to_static(nested_spec).concrete(np.array([1.5, 2.0]))


def manual_then_automatic(x):
    print("{0} {}".format(x.sum(), 1))
    return 1


def test_mixing_numberings_raises_as_python_does():
    with pytest.raises(ValueError, match="cannot switch"):
        manual_then_automatic(np.ones(2))
    with pytest.raises(ValueError, match="cannot switch"):
        tg.to_static(manual_then_automatic)(np.ones(2))
