"""frontend.names: the local names a piece of gast syntax reads, binds and numbers.

Covers ``reads`` (loads, nested scopes' free reads included), ``targets`` (assignment targets),
``params`` (a ``def``'s or ``lambda``'s parameters), ``writes`` (what one statement binds),
``assigned`` (everything a block binds, compound statements and walruses included, nested scopes
excluded) and ``control_statements`` (the pre-order numbering of ``if``/``while``/``for``).
"""

import textwrap

import gast
import pytest

from tograph.frontend import names, nodes


def stmts(src: str) -> list:
    return gast.parse(textwrap.dedent(src)).body


def stmt(src: str):
    (node,) = stmts(src)
    return node


def expr(src: str):
    return stmt(src).value


# ---- reads ------------------------------------------------------------------------------------


def test_reads_collects_loaded_names_only():
    assert names.reads(stmt("y = f(a, b.c) + d[e]")) == {"f", "a", "b", "d", "e"}


def test_reads_of_augmented_assignment_does_not_count_the_store():
    # The target of ``x += 1`` is a Store node: the read of x is implicit, not a Load.
    assert names.reads(stmt("x += y")) == {"y"}


def test_reads_of_compound_statement_covers_its_blocks():
    node = stmt("""
    while i < n:
        if t:
            s = s + v
        else:
            w = u
    """)
    assert names.reads(node) == {"i", "n", "t", "s", "v", "u"}


def test_reads_include_free_variables_of_nested_scopes():
    assert "b" in names.reads(expr("lambda a: a + b"))
    assert {"xs", "scale"} <= names.reads(expr("[v * scale for v in xs]"))
    node = stmt("""
    def g(a):
        return a + offset
    """)
    assert "offset" in names.reads(node)


def test_reads_of_constant_is_empty():
    assert names.reads(expr("1 + 2.5")) == set()


# ---- targets ----------------------------------------------------------------------------------


def test_targets_of_name_tuple_list_and_starred():
    assert names.targets(stmt("a = 1").targets[0]) == {"a"}
    assert names.targets(stmt("a, (b, [c, *d]) = v").targets[0]) == {"a", "b", "c", "d"}
    assert names.targets(stmt("[p, q] = v").targets[0]) == {"p", "q"}


def test_targets_of_subscript_and_attribute_bind_no_local():
    assert names.targets(stmt("x[i] = v").targets[0]) == set()
    assert names.targets(stmt("obj.attr = v").targets[0]) == set()
    assert names.targets(stmt("a, x[0], obj.b = v").targets[0]) == {"a"}


def test_targets_of_empty_tuple():
    assert names.targets(stmt("() = ()").targets[0]) == set()


# ---- params -----------------------------------------------------------------------------------


def test_params_of_def_in_order():
    fn = stmt("""
    def f(a, b, c=1):
        pass
    """)
    assert names.params(fn) == ["a", "b", "c"]


def test_params_include_every_kind_of_parameter():
    fn = stmt("""
    def f(a, /, b, *args, c, d=2, **kw):
        pass
    """)
    got = names.params(fn)
    assert got[:2] == ["a", "b"]
    assert sorted(got) == ["a", "args", "b", "c", "d", "kw"]


def test_params_of_lambda():
    assert names.params(expr("lambda x, y=1, *rest: x")) == ["x", "y", "rest"]
    assert names.params(expr("lambda: 0")) == []


# ---- writes -----------------------------------------------------------------------------------


def test_writes_of_assignments():
    assert names.writes(stmt("a = b = c")) == {"a", "b"}
    assert names.writes(stmt("a, b = b, a")) == {"a", "b"}
    assert names.writes(stmt("a += 1")) == {"a"}
    assert names.writes(stmt("a: int = 1")) == {"a"}
    assert names.writes(stmt("x[0] = 1")) == set()
    assert names.writes(stmt("obj.n += 1")) == set()


def test_writes_of_for_is_its_target_only():
    node = stmt("""
    for i, (j, k) in pairs:
        s = s + i
    """)
    assert names.writes(node) == {"i", "j", "k"}


def test_writes_of_definitions_and_imports():
    node = stmt("""
    def helper(z):
        inner = z
    """)
    assert names.writes(node) == {"helper"}
    assert names.writes(stmt("import os.path")) == {"os"}
    assert names.writes(stmt("import numpy as np, os.path as osp")) == {"np", "osp"}
    assert names.writes(stmt("from math import sin, cos as c")) == {"sin", "c"}


def test_writes_of_other_statements_is_empty():
    for src in ["f(x)", "return x", "pass", "assert x", "raise E"]:
        assert names.writes(stmt(src)) == set(), src
    node = stmt("""
    if t:
        y = 1
    """)
    assert names.writes(node) == set()  # what its blocks bind is not the if's own write


# ---- assigned ---------------------------------------------------------------------------------


def test_assigned_descends_into_compound_statements():
    block = stmts("""
    a = 0
    if t:
        b = 1
    else:
        while c:
            c -= 1
    for i in xs:
        d = i
    else:
        e = 2
    """)
    assert names.assigned(block) == {"a", "b", "c", "i", "d", "e"}


def test_assigned_counts_walrus_in_tests():
    block = stmts("""
    if (n := len(xs)) > 1:
        pass
    while (m := f()) > 0:
        pass
    """)
    assert names.assigned(block) == {"n", "m"}


def test_assigned_does_not_enter_nested_scopes():
    block = stmts("""
    def helper(p):
        inner = p
        for j in p:
            pass
    g = lambda q: q
    squares = [k * k for k in xs]
    table = {u: w for u, w in pairs}
    """)
    assert names.assigned(block) == {"helper", "g", "squares", "table"}


def test_assigned_of_empty_block():
    assert names.assigned([]) == set()


# ---- control_statements -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "src",
    [
        "def f(a, *b, c=1, **d):\n    x = a\n    if x:\n        y, *z = b\n    del c",
        "def f(a):\n    while (n := a):\n        a = n - 1\n    for i in range(a):\n        pass",
        "def f(a=(w := 2)):\n    x = w",  # a walrus in a default binds outside f
        "@deco(k := 1)\ndef f():\n    x = k",
        "def f(a):\n    g = lambda b: (c := b)\n    return [v := t for t in a]",
        "def f(a):\n    def g(b):\n        e = b\n    import os.path as p, sys\n    return g",
        "def f(a) -> (r := int):\n    s = r",
    ],
)
def test_function_locals_from_the_tree_are_params_and_assigned(src):
    fn = stmt(src)
    tree = nodes.walk(fn)
    expected = set(names.params(fn)) | names.assigned(fn.body)
    assert names.function_locals(fn, tree) == expected


def test_control_statements_in_preorder():
    block = stmts("""
    if a:
        while b:
            if c:
                pass
    else:
        for i in xs:
            pass
    while d:
        pass
    """)
    found = names.control_statements(block)
    kinds = [type(s).__name__ for s in found]
    assert kinds == ["If", "While", "If", "For", "While"]
    tests = [s.test.id if not isinstance(s, gast.For) else s.iter.id for s in found]
    assert tests == ["a", "b", "c", "xs", "d"]


def test_control_statements_include_loop_else_and_skip_nested_functions():
    block = stmts("""
    for i in xs:
        pass
    else:
        if late:
            pass
    def helper():
        if hidden:
            pass
    y = 1
    """)
    found = names.control_statements(block)
    assert [type(s).__name__ for s in found] == ["For", "If"]
    assert found[1].test.id == "late"


def test_control_statements_of_straight_line_code_is_empty():
    assert names.control_statements(stmts("a = 1\nb = a + 1")) == []
