"""Golden tests of lowering.jumps: return/break/continue become flags."""

import textwrap

import astor
import gast

from tograph.lowering import jumps


def lowered(src: str) -> str:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    return astor.to_source(gast.gast_to_ast(jumps.lower_jumps(fn))).strip()


def test_function_without_nested_return_is_unchanged():
    src = """
    def f(x):
        if x > 0:
            x = x + 1
        return x
    """
    assert lowered(src) == textwrap.dedent(src).strip()


def test_if_that_returns_takes_rest_of_block_as_else():
    got = lowered("""
    def f(x):
        if x > 0:
            return x
        y = x * 2
        return y
    """)
    assert (
        got
        == textwrap.dedent("""
    def f(x):
        retval = _t.Placeholder('retval')
        if x > 0:
            retval = x
        else:
            y = x * 2
            retval = y
        return retval
    """).strip()
    )


def test_return_in_loop_sets_flag_and_stops_loop():
    got = lowered("""
    def f(x):
        i = 0
        while i < 10:
            if x[i] > 0:
                return i
            i = i + 1
        return -1
    """)
    assert (
        got
        == textwrap.dedent("""
    def f(x):
        retval = _t.Placeholder('retval')
        do_return = False
        i = 0
        while not do_return and i < 10:
            if x[i] > 0:
                retval = i
                do_return = True
            if not do_return:
                i = i + 1
        if not do_return:
            retval = -1
            do_return = True
        return retval
    """).strip()
    )


def test_break_and_continue_become_guarded_flags():
    got = lowered("""
    def f(xs):
        s = 0
        for v in xs:
            if v < 0:
                continue
            if v > 9:
                break
            s = s + v
        else:
            s = -1
        return s
    """)
    assert (
        got
        == textwrap.dedent("""
    def f(xs):
        s = 0
        break_2 = False
        for v in xs:
            continue_1 = False
            if v < 0:
                continue_1 = True
            if not continue_1:
                if v > 9:
                    break_2 = True
                if not break_2:
                    s = s + v
        if not break_2:
            s = -1
        return s
    """).strip()
    )


def test_for_loop_with_break_gets_extra_test():
    fn = gast.parse("def f(xs):\n    for v in xs:\n        if v:\n            break\n").body[0]
    jumps.lower_jumps(fn)
    loop = next(n for n in gast.walk(fn) if isinstance(n, gast.For))
    assert astor.to_source(gast.gast_to_ast(loop.extra_test)).strip() == "(not break_1)"


def test_flag_names_avoid_user_names():
    got = lowered("""
    def f(break_1, retval):
        while break_1:
            break
        return retval
    """)
    assert "break_2 = False" in got and "retval = _t" not in got
