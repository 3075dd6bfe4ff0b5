"""lowering.control_flow: ``if``/``while``/``for`` as state functions plus one runtime call.

Covers the lowered source of small functions: branch outputs are the written variables live after
the ``if`` (and its state also those a branch reads before writing), loop carries are the written
variables live at the header or after the loop, ``_t.Undefined`` initialises state that may be
unbound (at the top of the function or of a state function), a for loop binds its target from
the item and turns a break test into ``loop_test_N``, nested functions are lowered on their own,
and statements decided statically (``stmt.static_test``) stay plain Python with their blocks
lowered inside (a static for loop with a break flag stops before binding its next target, as a
``break`` would). The lowered code is run with the runtime and compared with the plain function.
"""

import textwrap

import astor
import gast
import pytest

from tograph.frontend import names
from tograph.lowering import canonicalize, control_flow, convert, jumps
from tograph.staging import runtime


def lowered(src: str, static: tuple[int, ...] = ()) -> str:
    """``src`` through jumps, canonicalize and control flow; ``static`` numbers the control
    statements decided statically (as ``names.control_statements`` numbers them)."""
    fn = gast.parse(textwrap.dedent(src)).body[0]
    jumps.lower_jumps(fn)
    for index, stmt in enumerate(names.control_statements(fn.body)):
        stmt.static_test = index in static
    canonicalize.canonicalize(fn, {})
    fn = control_flow.lower_control_flow(fn)
    return astor.to_source(gast.gast_to_ast(fn), pretty_source="".join).strip()


def expect(src: str, golden: str, static: tuple[int, ...] = ()) -> None:
    assert lowered(src, static) == textwrap.dedent(golden).strip()


# ---- if ------------------------------------------------------------------------------------------


def test_if_outputs_only_live_written_variables():
    expect(
        """
        def f(x, t):
            y = 0
            if t:
                y = x
                tmp = 1
            else:
                y = -x
            return y
        """,
        """
        def f(x, t):
            y = 0

            def if_body_1(y):
                y = x
                tmp = 1
                return y,

            def else_body_1(y):
                y = -x
                return y,
            y, = _t.if_stmt(t, if_body_1, else_body_1, (y,), ('y',), ('y',))
            return y
        """,
    )


def test_if_state_includes_variables_a_branch_reads_before_writing():
    expect(
        """
        def f(x, t):
            c = 0
            if t:
                c = c + 1
                x = c
            return x
        """,
        """
        def f(x, t):
            c = 0

            def if_body_1(c, x):
                c = c + 1
                x = c
                return c, x

            def else_body_1(c, x):
                pass
                return c, x
            x, = _t.if_stmt(t, if_body_1, else_body_1, (c, x), ('c', 'x'), ('x',))
            return x
        """,
    )


def test_if_without_live_writes_is_a_bare_call():
    expect(
        """
        def f(x, t):
            if t:
                tmp = x + 1
            return x
        """,
        """
        def f(x, t):

            def if_body_1():
                tmp = x + 1
                return ()

            def else_body_1():
                pass
                return ()
            _t.if_stmt(t, if_body_1, else_body_1, (), (), ())
            return x
        """,
    )


def test_output_that_may_be_unbound_starts_undefined():
    expect(
        """
        def f(x, t):
            if t:
                y = x
            return y
        """,
        """
        def f(x, t):
            y = _t.Undefined('y')

            def if_body_1(y):
                y = x
                return y,

            def else_body_1(y):
                pass
                return y,
            y, = _t.if_stmt(t, if_body_1, else_body_1, (y,), ('y',), ('y',))
            return _t.read(y, 'y')
        """,
    )


def test_nested_ifs_share_the_state_and_number_in_order():
    expect(
        """
        def f(t, u):
            if t:
                if u:
                    y = 1
                else:
                    y = 2
            else:
                y = 3
            return y
        """,
        """
        def f(t, u):
            y = _t.Undefined('y')

            def if_body_1(y):

                def if_body_2(y):
                    y = 1
                    return y,

                def else_body_2(y):
                    y = 2
                    return y,
                y, = _t.if_stmt(u, if_body_2, else_body_2, (y,), ('y',), ('y',))
                return y,

            def else_body_1(y):
                y = 3
                return y,
            y, = _t.if_stmt(t, if_body_1, else_body_1, (y,), ('y',), ('y',))
            return _t.read(y, 'y')
        """,
    )


def test_undefined_is_initialised_inside_the_state_function_that_needs_it():
    expect(
        """
        def f(t, u):
            if t:
                if u:
                    z = 1
                else:
                    z = 2
                y = z
            else:
                y = 0
            return y
        """,
        """
        def f(t, u):
            y = _t.Undefined('y')

            def if_body_1(y):
                z = _t.Undefined('z')

                def if_body_2(z):
                    z = 1
                    return z,

                def else_body_2(z):
                    z = 2
                    return z,
                z, = _t.if_stmt(u, if_body_2, else_body_2, (z,), ('z',), ('z',))
                y = _t.read(z, 'z')
                return y,

            def else_body_1(y):
                y = 0
                return y,
            y, = _t.if_stmt(t, if_body_1, else_body_1, (y,), ('y',), ('y',))
            return _t.read(y, 'y')
        """,
    )


# ---- loops ---------------------------------------------------------------------------------------


def test_while_carries_only_written_variables_live_at_header_or_after():
    expect(
        """
        def f(x, n):
            i = 0
            while i < n:
                unused = i
                tmp = x * 2
                x = tmp + 1
                i = i + 1
            return x
        """,
        """
        def f(x, n):
            i = 0

            def loop_test_1(i, x):
                return i < n

            def loop_body_1(i, x):
                unused = i
                tmp = x * 2
                x = tmp + 1
                i = i + 1
                return i, x
            i, x = _t.while_stmt(loop_test_1, loop_body_1, (i, x), ('i', 'x'))
            return x
        """,
    )


def test_for_binds_its_target_from_the_item_and_carries_what_is_live():
    expect(
        """
        def f(xs):
            n = 0
            for v in xs:
                n = n + v
            return n
        """,
        """
        def f(xs):
            n = 0

            def loop_body_1(item_1, n):
                v = item_1
                n = n + v
                return n,
            n, = _t.for_stmt(xs, None, loop_body_1, (n,), ('n',))
            return n
        """,
    )


def test_for_with_break_has_a_loop_test_and_carries_a_target_used_after():
    expect(
        """
        def f(xs, t):
            s = 0
            for v in xs:
                if v > t:
                    break
                s = s + v
            return s, v
        """,
        """
        def f(xs, t):
            v = _t.Undefined('v')
            s = 0
            break_1 = False

            def loop_test_1(break_1, s, v):
                return _t.not_(break_1)

            def loop_body_1(item_1, break_1, s, v):
                v = item_1

                def if_body_2(break_1):
                    break_1 = True
                    return break_1,

                def else_body_2(break_1):
                    pass
                    return break_1,
                break_1, = _t.if_stmt(_t.read(v, 'v') > t, if_body_2, else_body_2, (break_1,), ('break_1',), ('break_1',))

                def if_body_3(s):
                    s = s + _t.read(v, 'v')
                    return s,

                def else_body_3(s):
                    pass
                    return s,
                s, = _t.if_stmt(_t.not_(break_1), if_body_3, else_body_3, (s,), ('s',), ('s',))
                return break_1, s, v
            break_1, s, v = _t.for_stmt(xs, loop_test_1, loop_body_1, (break_1, s, v), ('break_1', 's', 'v'))
            return s, _t.read(v, 'v')
        """,  # noqa: E501 - generated code, as printed
    )


def test_if_in_a_loop_outputs_what_the_next_iteration_reads():
    expect(
        """
        def f(x, n):
            while n > 0:
                if x > 0:
                    z = 1
                    x = x - z
                n = n - 1
            return n
        """,
        """
        def f(x, n):

            def loop_test_1(n, x):
                return n > 0

            def loop_body_1(n, x):

                def if_body_2(x):
                    z = 1
                    x = x - z
                    return x,

                def else_body_2(x):
                    pass
                    return x,
                x, = _t.if_stmt(x > 0, if_body_2, else_body_2, (x,), ('x',), ('x',))
                n = n - 1
                return n, x
            n, x = _t.while_stmt(loop_test_1, loop_body_1, (n, x), ('n', 'x'))
            return n
        """,
    )


def test_nested_function_is_lowered_with_its_own_numbering():
    expect(
        """
        def f(x, t):
            def g(a):
                if a:
                    a = 1
                return a
            if t:
                x = g(x)
            return x
        """,
        """
        def f(x, t):

            def g(a):

                def if_body_1(a):
                    a = 1
                    return a,

                def else_body_1(a):
                    pass
                    return a,
                a, = _t.if_stmt(a, if_body_1, else_body_1, (a,), ('a',), ('a',))
                return a

            def if_body_1(x):
                x = _t.call(g, x)
                return x,

            def else_body_1(x):
                pass
                return x,
            x, = _t.if_stmt(t, if_body_1, else_body_1, (x,), ('x',), ('x',))
            return x
        """,
    )


# ---- statements decided statically ---------------------------------------------------------------


def test_static_if_stays_python_with_its_blocks_lowered():
    expect(
        """
        def f(x, t, u):
            if t:
                y = 1
                if u:
                    x = x + y
            return x
        """,
        """
        def f(x, t, u):
            if t:
                y = 1

                def if_body_1(x):
                    x = x + y
                    return x,

                def else_body_1(x):
                    pass
                    return x,
                x, = _t.if_stmt(u, if_body_1, else_body_1, (x,), ('x',), ('x',))
            return x
        """,
        static=(0,),
    )


def test_static_if_binding_on_both_sides_defines_the_variable():
    expect(
        """
        def f(x, t, u):
            if t:
                y = 1
            else:
                y = 2
            if u:
                y = y + x
            return y
        """,
        """
        def f(x, t, u):
            if t:
                y = 1
            else:
                y = 2

            def if_body_1(y):
                y = y + x
                return y,

            def else_body_1(y):
                pass
                return y,
            y, = _t.if_stmt(u, if_body_1, else_body_1, (y,), ('y',), ('y',))
            return y
        """,
        static=(0,),
    )


def test_static_if_binding_on_one_side_leaves_the_variable_undefined():
    got = lowered(
        """
        def f(x, t, u):
            if t:
                y = 1
            if u:
                y = x
            return y
        """,
        static=(0,),
    )
    assert got.splitlines()[1] == "    y = _t.Undefined('y')"


def test_static_loop_binds_nothing_for_sure():
    got = lowered(
        """
        def f(xs, u):
            for v in xs:
                y = v
            if u:
                y = 0
            return y
        """,
        static=(0,),
    )
    assert got.splitlines()[1:4] == [
        "    y = _t.Undefined('y')",
        "    for v in xs:",
        "        y = v",
    ]


def test_every_statement_static_is_plain_python():
    expect(
        """
        def f(x, n):
            i = 0
            while i < n:
                if i % 2:
                    x = x + i
                i = i + 1
            return x
        """,
        """
        def f(x, n):
            i = 0
            while i < n:
                if i % 2:
                    x = x + i
                i = i + 1
            return x
        """,
        static=(0, 1),
    )


def test_static_for_with_break_stops_before_binding_the_next_target():
    expect(
        """
        def f(xs, limit):
            for v in xs:
                if v > limit:
                    break
            return v
        """,
        """
        def f(xs, limit):
            break_1 = False
            for item_1 in xs:
                if not _t.not_(break_1):
                    break
                v = item_1
                if v > limit:
                    break_1 = True
            return v
        """,
        static=(0, 1),
    )


def test_static_for_with_tuple_target_binds_it_from_the_item():
    got = lowered(
        """
        def f(pairs):
            for k, v in pairs:
                if v:
                    break
            return k
        """,
        static=(0, 1),
    )
    assert "    for item_1 in pairs:" in got.splitlines()
    assert "        k, v = item_1" in got.splitlines()


# ---- the lowered code runs like the function -----------------------------------------------------


def first_above(xs, limit):
    found = -1
    for v in xs:
        if v > limit:
            found = v
            break
    return found, v


def collatz(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def signs(xs):
    out = []
    pos = 0
    for i, x in enumerate(xs):
        if x > 0:
            pos = pos + 1
            sign = 1
        elif x < 0:
            sign = -1
        else:
            continue
        out.append(sign * i)
    return out, pos


def run(fn, static: frozenset, *args):
    return convert.lower(fn, static).instantiate(fn, runtime)(*args)


@pytest.mark.parametrize("static", [frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1})])
def test_for_with_break_runs_like_python_whatever_is_static(static):
    assert run(first_above, static, [1, 3, 5, 7], 2) == (3, 3)  # v stays the item that broke
    for xs, limit in [([1, 3, 5, 7], 2), ([1, 2], 5), ([9], 0), ([4, 4, 9, 1], 4)]:
        assert run(first_above, static, xs, limit) == first_above(xs, limit), (xs, limit)


@pytest.mark.parametrize("static", [frozenset(), frozenset({0, 1})])
def test_while_with_if_runs_like_python(static):
    for n in [1, 2, 6, 27]:
        assert run(collatz, static, n) == collatz(n)


@pytest.mark.parametrize("static", [frozenset(), frozenset({0}), frozenset({0, 1, 2, 3})])
def test_loop_with_continue_and_elif_runs_like_python(static):
    for xs in [[], [1, -2, 0, 3], [0, 0], [-1, -1, 5]]:
        assert run(signs, static, xs) == signs(xs), xs
