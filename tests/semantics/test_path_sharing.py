"""Memory sharing of results that depends on the path taken: an argument returned on some paths
and a new array on others, a view of one, results made in Python that view each other. Each
function is compared with its eager run on values, dtypes, which results are (``is``) or share
memory with which arguments and with each other, and the arguments afterwards, also after
writing into every result (a write through a shared result must reach the caller's array)."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest
from eager_oracle import same

import tograph as tg


def _arrays(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, (tuple, list)):
        return [a for item in value for a in _arrays(item)]
    if isinstance(value, dict):
        return [a for item in value.values() for a in _arrays(item)]
    return []


def _run(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The result, the arguments after the call, the sharing facts, and the arguments after
    each writeable result array is written (``+= 1``)."""
    copies = copy.deepcopy(args)
    result = fn(*copies)
    after = copy.deepcopy(copies)
    results, arguments = _arrays(result), _arrays(copies)
    facts = [
        (a is b, np.shares_memory(a, b))
        for i, a in enumerate(results)
        for b in results[i + 1 :] + arguments
    ]
    for array in results:
        if array.flags.writeable and array.dtype != bool:
            array += 1
    return result, after, facts, copy.deepcopy(copies)


def assert_sharing_matches_eager(fn: Any, *args: Any) -> None:
    """``tg.to_static(fn)`` compiles and matches ``fn`` on values, sharing and arguments."""
    eager = _run(fn, args)
    static = tg.to_static(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        compiled = _run(static, args)
    assert same(eager[0], compiled[0]), f"eager gave {eager[0]!r}, compiled {compiled[0]!r}"
    assert same(eager[1], compiled[1]), f"arguments: eager {eager[1]!r}, compiled {compiled[1]!r}"
    assert eager[2] == compiled[2], f"(is, shares memory): eager {eager[2]}, compiled {compiled[2]}"
    assert same(eager[3], compiled[3]), "a write into the results reached other arrays"


def view_of_an_array_made_in_python(x):
    a = np.zeros(4).reshape(2, 2)
    return a, 2.25, a.ravel(), a, a[1]


@pytest.mark.parametrize("fn", [view_of_an_array_made_in_python])
def test_results_made_in_python_share_memory_as_eager(fn):
    assert_sharing_matches_eager(fn, np.arange(3.0))
