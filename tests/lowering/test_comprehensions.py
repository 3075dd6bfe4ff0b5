"""Golden tests of lowering.comprehensions: a filtered list comprehension, assigned or returned,
becomes the loop a person would write (semantics/test_filtered_comprehensions.py runs them)."""

import textwrap

import astor
import gast
import pytest

from tograph.lowering import comprehensions


def lowered(src: str) -> str:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    taken = {n.id for n in gast.walk(fn) if isinstance(n, gast.Name)}
    comprehensions.desugar_filtered(fn, taken)
    return astor.to_source(gast.gast_to_ast(fn)).strip()


def test_an_assigned_filtered_comprehension_is_a_loop_with_fresh_names():
    got = lowered("""
    def f(x, t):
        i = 7
        x = [x[i] * 2 for i in range(len(x)) if x[i] > t]
        return x, i
    """)
    assert got == textwrap.dedent("""\
        def f(x, t):
            i = 7
            comprehension_1 = []
            for i_2 in range(len(x)):
                if x[i_2] > t:
                    comprehension_1.append(x[i_2] * 2)
            x = comprehension_1
            return x, i""")


def test_a_returned_comprehension_with_two_generators_and_filters():
    got = lowered("""
    def f(m):
        return [(i, j) for i in range(3) if i for j in range(i) if m[i, j] > 0 if j]
    """)
    assert got == textwrap.dedent("""\
        def f(m):
            comprehension_1 = []
            for i_2 in range(3):
                if i_2:
                    for j_3 in range(i_2):
                        if m[i_2, j_3] > 0:
                            if j_3:
                                comprehension_1.append((i_2, j_3))
            return comprehension_1""")


@pytest.mark.parametrize(
    "src",
    [
        "def f(x):\n    return [v for v in x]",
        "def f(x):\n    return [(y := v) for v in x if y]",
        "def f(x):\n    return [[w for w in v if w] for v in x if v]",
        "def f(x):\n    a, b = g(x), [v for v in x if v]\n    return a",
        "def f(x):\n    return x[0] and sum(v for v in x if v)",
        "def f(x):\n    while sum(v for v in x if v):\n        x = x - 1\n    return x",
        "def f(x):\n    return any(v for v in x if v)",
    ],
    ids=[
        "no filter",
        "walrus",
        "nested comprehension",
        "after a call",
        "after a short circuit",
        "while test",
        "any stops early",
    ],
)
def test_other_comprehensions_stay_as_they_are(src):
    assert lowered(src) == src


def test_a_filtered_list_evaluated_first_in_an_expression_is_built_before_it():
    got = lowered("""
    def f(x):
        a, b = len(list(filter(lambda v: v > 0, x))), sum(w * 2 for w in x if w)
        return a
    """)
    assert got == textwrap.dedent("""\
        def f(x):
            comprehension_1 = []
            for v_3 in x:
                if v_3 > 0:
                    comprehension_1.append(v_3)
            comprehension_2 = []
            for w_4 in x:
                if w_4:
                    comprehension_2.append(w_4 * 2)
            a, b = len(comprehension_1), sum(comprehension_2)
            return a""")
