"""lowering.guards: tests against None become ``_t.is_none`` / ``_t.is_not_none``, and the
user's reads of variables that may be unbound become ``_t.read``, while the state that lowering
passes to branches and loops is passed as it is."""

import textwrap

import astor
import gast

from tograph.lowering import canonicalize, control_flow, jumps


def lowered(src: str) -> str:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    jumps.lower_jumps(fn)
    canonicalize.canonicalize(fn, {})
    fn = control_flow.lower_control_flow(fn)
    return astor.to_source(gast.gast_to_ast(fn), pretty_source="".join).strip()


def test_tests_against_none_call_the_runtime_either_way_round():
    out = lowered(
        """
        def f(x, y):
            return x is None, None is not y, x is y
        """
    )
    assert out.splitlines()[-1] == "    return _t.is_none(x), _t.is_not_none(y), _t.is_(x, y)"


def test_only_the_users_reads_of_maybe_unbound_variables_are_guarded():
    out = lowered(
        """
        def f(x, t):
            if t:
                y = x
            z = x
            return y + z
        """
    )
    assert "y, = _t.if_stmt(t, if_body_1, else_body_1, (y,), ('y',), ('y',))" in out
    assert "z = x\n" in out
    assert out.splitlines()[-1] == "    return _t.read(y, 'y') + z"


def test_nested_functions_guard_their_own_reads():
    out = lowered(
        """
        def f(x, t):
            def g(u):
                if u:
                    w = 1
                return w + x
            return g(t)
        """
    )
    assert "return _t.read(w, 'w') + x" in out
    assert out.splitlines()[-1] == "    return _t.call(g, t)"
