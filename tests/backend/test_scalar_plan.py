"""Which loop values the plan unboxes, by their printed names."""

import numpy as np

import tograph as tg
from tograph.backend import scalar_plan
from tograph.ir import core


def planned(fn, *args):
    """The printed graph and the sorted names of its unboxed and entry variables."""
    graph = tg.to_static(fn, fallback="error").concrete(*args).graph
    namer = core.Namer()
    core.print_lines(graph, namer=namer)
    found = scalar_plan.plan(graph)
    by_id = {v.id: namer.name(v) for e in graph.walk() for v in e.outputs}
    for sub in (s for e in graph.walk() for s in e.subgraphs()):
        by_id.update({v.id: namer.name(v) for v in sub.inputs})
    return sorted(by_id[i] for i in found.unboxed), sorted(by_id[i] for i in found.entries)


def test_carries_and_their_arithmetic_are_unboxed():
    def shrink(x):
        n = 0
        while x > 1.0:
            x = x * 0.995
            n = n + 1
        return x, n

    unboxed, entries = planned(shrink, np.float64(3.0))
    # x_1 is the loop's result, x_2/x_3 its value in the condition and the body; t0 the test,
    # t1 the product; n is weak (a Python int already) and so not in the plan
    assert unboxed == ["t0", "t1", "x_1", "x_2", "x_3"]
    assert entries == ["x_1", "x_2", "x_3"]


def test_a_carry_computed_by_numpy_stays_boxed():
    def wave(x, n):
        i = 0
        while i < n:
            x = np.sin(x) + 0.5
            i = i + 1
        return x

    unboxed, _ = planned(wave, np.float64(3.0), np.int64(4))
    assert unboxed == ["n_1", "n_2", "t0"]  # the loop bound, a constant, and the test


def test_a_bool_carry_entering_as_numpy_stays_boxed():
    def toggle(flag, n):
        i = 0
        while i < n:
            flag = flag ^ (i > 2)
            i = i + 1
        return flag

    unboxed, _ = planned(toggle, np.bool_(True), np.int64(4))
    assert unboxed == ["n_1", "n_2", "t0"]


def test_a_branch_result_is_unboxed_when_both_branches_give_it():
    def clamp(x, n):
        i = 0
        while i < n:
            if x > 5.0:
                x = x - 1.0
            i = i + 1
        return x

    unboxed, entries = planned(clamp, np.float64(9.0), np.int64(3))
    assert {"x_4", "x_5", "x_6"} <= set(unboxed)  # the branch result and both branches' x
    assert "x_4" in entries  # the else branch passes the entry value through
