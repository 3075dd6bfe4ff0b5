"""liveness: reads, writes, and the live sets that choose branch outputs and loop carries."""

import textwrap

import gast

from tograph.analysis import liveness
from tograph.frontend import names


def body(src):
    return gast.parse(textwrap.dedent(src)).body[0].body


def test_if_live_out_and_block_live_in():
    stmts = body("""
    def f(x, t):
        y = 0
        if t:
            y = x
            z = 1
        return y
    """)
    live = liveness.annotate(stmts, set())
    assert live == {"x", "t"}
    assert stmts[1].live_out == {"y"}  # z is dead after the if: not a branch output


def test_loop_header_holds_values_read_before_written():
    stmts = body("""
    def f(x, n):
        s = 0
        i = 0
        while i < n:
            tmp = x[i]
            s = s + tmp
            i = i + 1
        return s
    """)
    liveness.annotate(stmts, set())
    loop = stmts[2]
    assert loop.live_header == {"i", "n", "s", "x"}  # tmp is written first: not carried
    assert loop.live_out == {"s"}


def test_for_target_and_extra_test_are_live_at_the_header():
    stmts = body("""
    def f(xs):
        last = -1
        for v in xs:
            last = v
        return last
    """)
    loop = stmts[1]
    loop.extra_test = gast.parse("not stop").body[0].value
    liveness.annotate(stmts, set())
    assert "stop" in loop.live_header and "v" not in loop.live_header
    assert names.assigned([loop]) == {"v", "last"}


def test_nested_scopes_do_not_write_outer_names():
    stmts = body("""
    def f(x):
        g = lambda a: a + 1
        ys = [v * 2 for v in x]
        def h(b):
            c = b
            return c
        return g, ys, h
    """)
    assert names.assigned(stmts) == {"g", "ys", "h"}
    assert "v" in names.reads(stmts[1])  # a comprehension's reads are visible (conservative)
