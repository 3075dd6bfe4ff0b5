"""Loops over tensors met again in a retrace of the loop around them start from what they learned
(``staging.loop_hints``): results stay eager's, and traces grow about linearly with nesting."""

import collections

import numpy as np
import pytest
from tests.semantics.eager_oracle import assert_matches_eager

from tograph.staging import subtrace


@pytest.fixture
def body_traces(monkeypatch):
    """Counts the traces of loop bodies (``subtrace.trace`` with the label ``body``)."""
    counts = collections.Counter()
    original = subtrace.trace

    def counting(parent, label, *args, **kwargs):
        counts[label] += 1
        return original(parent, label, *args, **kwargs)

    monkeypatch.setattr(subtrace, "trace", counting)
    return counts


def three_loops_writing(x, n):
    s = x.copy()
    acc = np.zeros(2)
    i = 0
    while i < n:
        if s.sum() > 0:
            s = s - 0.25
        else:
            s = s + 0.5
        j = 0
        while j < n:
            if s.sum() > 1:
                s = s - 0.25
            else:
                s = s + 0.5
            k = 0
            while k < n:
                acc[0] += s.max()
                k += 1
            j += 1
        i += 1
    return s, acc


def three_loops_peeled(x, n):
    s = x[0] * 0.0
    total = 0.0
    for r0 in x:
        for r1 in x:
            for r2 in x:
                s = s + r0 * r1 * r2
                total += s.sum()
    return s, total


def test_nested_loops_writing_an_array_match_eager_and_trace_each_loop_a_few_times(body_traces):
    assert_matches_eager(three_loops_writing, np.arange(6.0).reshape(3, 2) / 10, np.array(2))
    # three loops, each learning one array to carry: 50 body traces when every retrace of a
    # loop traced the loops inside it from nothing, 9 now
    assert body_traces["body"] <= 12


def test_nested_loops_that_run_their_first_iteration_by_itself_match_eager(body_traces):
    assert_matches_eager(three_loops_peeled, np.arange(6.0).reshape(3, 2) / 10, np.array(2))
    # 30 body traces without hints, 22 now: the graph holds six loops
    assert body_traces["body"] <= 24


def add_rows(x, total):
    for row in x:
        total += row.sum()
    return total


def helper_loop_met_with_two_kinds(x, n):
    first = 0.0
    second = np.float64(0.0)
    i = 0
    while i < n:
        first = add_rows(x, 0.0)
        second = add_rows(x, second)
        i += 1
    return first, second


def test_one_helper_loop_met_with_a_python_and_a_numpy_total_keeps_each_kind():
    assert_matches_eager(helper_loop_met_with_two_kinds, np.ones((3, 2), np.float32), np.array(2))


def scale_rows(a, n):
    i = 0
    while i < n:
        a *= 0.5
        i += 1
    return a


def helper_loop_on_a_fresh_array_and_a_view(x, n):
    y = x.copy()
    i = 0
    while i < n:
        fresh = np.ones(3)
        scale_rows(fresh, n)
        scale_rows(y[1:], n)
        x = x + fresh[0]
        i += 1
    return x, y


def test_one_helper_loop_writing_a_fresh_array_then_a_view_writes_each():
    assert_matches_eager(helper_loop_on_a_fresh_array_and_a_view, np.arange(3.0), np.array(2))


def loops_in_both_branches(x, n, m):
    acc = np.zeros(2)
    i = 0
    while i < n:
        if x.sum() > i:
            j = 0
            while j < m:
                acc[0] += 1.0
                j += 1
        else:
            j = 0
            while j < m:
                acc[1] -= x[0]
                x = x * 2
                j += 1
        i += 1
    return x, acc


@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([-1.0, 0.5])])
def test_loops_in_both_branches_of_an_if_in_a_loop_match_eager(x):
    assert_matches_eager(loops_in_both_branches, x, np.array(3), np.array(2))


def numpy_array_written_in_a_loop(x, s):
    v = (-np.zeros((3, 4)) % 2).reshape(-1)
    c = 0
    while c < 3 and (x < s).all():
        c += 1
        v[:8] = v[4:] + 1.0
    return v, c


@pytest.mark.parametrize("s", [5.0, -5.0])
def test_a_numpy_array_made_while_tracing_and_written_in_a_loop_compiles(s):
    # fuzz seed 734: learning that the array is carried must not treat it as a symbolic one
    assert_matches_eager(numpy_array_written_in_a_loop, np.arange(3.0), s)
