"""analysis.ssa: small functions in pruned SSA form.

Covers the printed text (versions, phis at joins, loop headers with their phis, ``⊥`` for a
value unset on a path, for-loop exit tests from ``lowering.jumps``), the ``definitions`` (kind,
expression, phi incoming values and deciding test), and the ``controls`` (their order and their
SSA-renamed tests and iterables). Pruning is checked too: a phi exists only where its variable is
live, so dead branch values and loop temporaries get none.
"""

import ast
import textwrap

import gast

from tograph.analysis import ssa
from tograph.frontend import names
from tograph.lowering import jumps


def form(src: str) -> ssa.SSAForm:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    return ssa.to_ssa(jumps.lower_jumps(fn))


def expect(got: str, golden: str) -> None:
    assert got == textwrap.dedent(golden).strip("\n")


def text(node) -> str | None:
    if node is None:
        return None
    return ast.unparse(gast.gast_to_ast(node))


def defs(f: ssa.SSAForm) -> dict[str, ssa.Definition]:
    return {d.name: d for d in f.definitions}


def test_straight_line_code_versions_each_assignment():
    f = form("""
    def f(x, t):
        a, b = x, t
        a, b = b, a
        x += 1
        y = (a + 1) * (b + 1)
        return y
    """)
    expect(
        f.text,
        """
    def f(x, t):
        a, b = x, t
        a_1, b_1 = b, a
        x_1 = x + 1
        y = (a_1 + 1) * (b_1 + 1)
        return y
    """,
    )
    d = defs(f)
    assert [(n, d[n].var, d[n].kind) for n in ["x", "t", "a", "a_1", "x_1"]] == [
        ("x", "x", "param"),
        ("t", "t", "param"),
        ("a", "a", "assign"),
        ("a_1", "a", "assign"),
        ("x_1", "x", "assign"),
    ]
    assert text(d["x_1"].expr) == "x + 1"  # augmented assignment as the binary operation
    assert d["a_1"].expr is None  # a tuple assignment has no single expression per name
    assert text(d["y"].expr) == "(a_1 + 1) * (b_1 + 1)"
    assert f.controls == []


def test_if_else_joins_with_a_phi_deciding_on_the_test():
    f = form("""
    def f(x, t):
        if t > 0:
            y = x
        else:
            y = -x
        return y
    """)
    expect(
        f.text,
        """
    def f(x, t):
        if t > 0:
            y = x
        else:
            y_1 = -x
        y_2 = φ(y, y_1)
        return y_2
    """,
    )
    phi = defs(f)["y_2"]
    assert (phi.var, phi.kind, phi.incoming) == ("y", "phi", ("y", "y_1"))
    assert text(phi.test) == "t > 0"
    assert [(c.kind, text(c.test), c.iterable) for c in f.controls] == [("if", "t > 0", None)]


def test_value_set_on_one_path_joins_with_bottom():
    f = form("""
    def f(x, t):
        if t:
            y = x
        return y
    """)
    expect(
        f.text,
        """
    def f(x, t):
        if t:
            y = x
        y_1 = φ(y, ⊥)
        return y_1
    """,
    )
    assert defs(f)["y_1"].incoming == ("y", ssa.UNDEF)


def test_no_phi_for_a_value_dead_after_the_if():
    f = form("""
    def f(x, t):
        if t:
            y = x
            z = 1
        else:
            y = 2
        y = 3
        return y
    """)
    expect(
        f.text,
        """
    def f(x, t):
        if t:
            y = x
            z = 1
        else:
            y_1 = 2
        y_2 = 3
        return y_2
    """,
    )
    assert all(d.kind != "phi" for d in f.definitions)


def test_reads_after_the_if_use_the_unchanged_version():
    f = form("""
    def f(x, t):
        y = x
        if t:
            z = 1
        else:
            z = 2
        return y + z
    """)
    expect(
        f.text,
        """
    def f(x, t):
        y = x
        if t:
            z = 1
        else:
            z_1 = 2
        z_2 = φ(z, z_1)
        return y + z_2
    """,
    )


def test_while_loop_phis_hold_the_carried_variables():
    f = form("""
    def f(x, n):
        i = 0
        while i < n:
            tmp = x * 2
            x = tmp
            i += 1
        return x
    """)
    expect(
        f.text,
        """
    def f(x, n):
        i = 0
        loop_1:
            i_1 = φ(i, i_2)
            x_1 = φ(x, x_2)
            while i_1 < n:
                tmp = x_1 * 2
                x_2 = tmp
                i_2 = i_1 + 1
        return x_1
    """,
    )
    d = defs(f)
    assert (d["i_1"].kind, d["i_1"].incoming) == ("loop-phi", ("i", "i_2"))
    assert (d["x_1"].kind, d["x_1"].incoming) == ("loop-phi", ("x", "x_2"))
    assert text(d["x_1"].test) == "i_1 < n"
    assert "tmp_1" not in d  # written before read in every iteration: not carried
    assert [(c.kind, text(c.test)) for c in f.controls] == [("while", "i_1 < n")]


def test_loop_variable_first_set_in_the_loop_enters_as_bottom():
    f = form("""
    def f(n):
        i = 0
        while i < n:
            last = i
            i = i + 1
        return last
    """)
    expect(
        f.text,
        """
    def f(n):
        i = 0
        loop_1:
            i_1 = φ(i, i_2)
            last = φ(⊥, last_1)
            while i_1 < n:
                last_1 = i_1
                i_2 = i_1 + 1
        return last
    """,
    )
    assert defs(f)["last"].incoming == (ssa.UNDEF, "last_1")


def test_for_loop_with_break_has_an_exit_test_and_a_phi_inside():
    f = form("""
    def f(xs):
        best = 0
        for i, v in enumerate(xs):
            if v > 3:
                break
            best = v
        return best
    """)
    expect(
        f.text,
        """
    def f(xs):
        best = 0
        break_1 = False
        loop_1:
            best_1 = φ(best, best_3)
            break_1_1 = φ(break_1, break_1_3)
            for i, v in enumerate(xs):  # and while not break_1_1
                if v > 3:
                    break_1_2 = True
                break_1_3 = φ(break_1_2, break_1_1)
                if not break_1_3:
                    best_2 = v
                best_3 = φ(best_2, best_1)
        return best_1
    """,
    )
    d = defs(f)
    assert [(d[n].kind, d[n].expr) for n in ["i", "v"]] == [("target", None), ("target", None)]
    assert text(d["best_1"].test) == "enumerate(xs)"  # a for loop's phis depend on its iterable
    assert [(c.kind, text(c.test), text(c.iterable)) for c in f.controls] == [
        ("for", "not break_1_1", "enumerate(xs)"),
        ("if", "v > 3", None),
        ("if", "not break_1_3", None),
    ]


def test_for_loop_target_is_a_definition_of_the_iterable():
    f = form("""
    def f(x, n):
        for k in range(n):
            x = x + k
        return x
    """)
    expect(
        f.text,
        """
    def f(x, n):
        loop_1:
            x_1 = φ(x, x_2)
            for k in range(n):
                x_2 = x_1 + k
        return x_1
    """,
    )
    target = defs(f)["k"]
    assert (target.kind, text(target.expr)) == ("target", "range(n)")
    assert f.controls[0].test is None  # no break: nothing but the iterable decides the loop


def test_for_iterable_reads_versions_from_before_the_loop():
    f = form("""
    def f(xs):
        for v in xs:
            xs = v
        return xs
    """)
    expect(
        f.text,
        """
    def f(xs):
        loop_1:
            xs_1 = φ(xs, xs_2)
            for v in xs:
                xs_2 = v
        return xs_1
    """,
    )
    assert text(f.controls[0].iterable) == "xs"


def test_early_return_joins_the_return_value():
    f = form("""
    def f(x):
        if x:
            return 1
        return 2
    """)
    expect(
        f.text,
        """
    def f(x):
        retval = _t.Placeholder('retval')
        if x:
            retval_1 = 1
        else:
            retval_2 = 2
        retval_3 = φ(retval_1, retval_2)
        return retval_3
    """,
    )


def test_nested_function_is_one_definition_and_its_controls_are_its_own():
    f = form("""
    def f(x):
        def h(y):
            if y:
                y = 1
            return y
        return h(x)
    """)
    expect(
        f.text,
        """
    def f(x):
        h = <function h>
        return h(x)
    """,
    )
    assert [(d.name, d.kind) for d in f.definitions] == [("x", "param"), ("h", "assign")]
    assert f.controls == []


def test_subscript_assignment_defines_no_new_version():
    f = form("""
    def f(x):
        x[0] = 2
        return x
    """)
    expect(
        f.text,
        """
    def f(x):
        x[0] = 2
        return x
    """,
    )
    assert [d.name for d in f.definitions] == ["x"]


def test_append_to_a_local_list_is_a_definition_a_loop_carries():
    f = form("""
    def f(x):
        out = []
        for v in x:
            out.append(v * 2)
        log.append(out)
        return out
    """)
    expect(
        f.text,
        """
    def f(x):
        out = []
        loop_1:
            out_1 = φ(out, out_2)
            for v in x:
                out_2 = append(out_1, v * 2)
        log.append(out_1)
        return out_1
    """,
    )
    appended = defs(f)["out_2"]
    assert appended.kind == "append" and appended.incoming == ("out_1",)
    assert text(appended.expr) == "v * 2"


def test_nested_loops_are_numbered_in_order():
    f = form("""
    def f(n):
        s = 0
        i = 0
        while i < n:
            j = 0
            while j < i:
                s = s + j
                j = j + 1
            i = i + 1
        return s
    """)
    expect(
        f.text,
        """
    def f(n):
        s = 0
        i = 0
        loop_1:
            i_1 = φ(i, i_2)
            s_1 = φ(s, s_2)
            while i_1 < n:
                j = 0
                loop_2:
                    j_1 = φ(j, j_2)
                    s_2 = φ(s_1, s_3)
                    while j_1 < i_1:
                        s_3 = s_2 + j_1
                        j_2 = j_1 + 1
                i_2 = i_1 + 1
        return s_1
    """,
    )


def test_controls_follow_the_numbering_of_names_control_statements():
    source = """
    def f(x, n):
        if x:
            for i in range(n):
                if i > 1:
                    x = x + i
        else:
            while n > 0:
                n = n - 1
        return x
    """
    fn = jumps.lower_jumps(gast.parse(textwrap.dedent(source)).body[0])
    statements = names.control_statements(fn.body)
    controls = ssa.to_ssa(fn).controls
    kinds = {gast.If: "if", gast.While: "while", gast.For: "for"}
    assert [c.kind for c in controls] == [kinds[type(s)] for s in statements]
    assert [c.kind for c in controls] == ["if", "for", "if", "while"]


def test_continuation_lines_of_a_statement_keep_its_indent():
    f = form('''
    def f(x):
        if x:
            """first
    second"""
            y = 1
        return x
    ''')
    expect(
        f.text,
        '''
    def f(x):
        if x:
            """first
            second"""
            y = 1
        return x
    ''',
    )


def test_definitions_and_lines_are_consistent():
    f = form("""
    def f(x, t):
        if t:
            x = x + 1
        return x
    """)
    assert [d.name for d in f.definitions] == ["x", "t", "x_1", "x_2"]
    assert f.text.splitlines()[0] == "def f(x, t):"
    assert f.text is f.text  # printed once, when first read
