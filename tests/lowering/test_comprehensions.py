"""Golden tests of lowering.comprehensions: a filtered list comprehension, assigned or returned,
becomes the loop a person would write (semantics/test_filtered_comprehensions.py runs them)."""

import textwrap

import astor
import gast
import pytest

from tograph.lowering import comprehensions


def lowered(src: str, shadowed: frozenset[str] = frozenset()) -> str:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    taken = {n.id for n in gast.walk(fn) if isinstance(n, gast.Name)}
    comprehensions.desugar_filtered(fn, taken, shadowed=shadowed)
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
        "def f(x):\n    print(*x, [v for v in x if v])",
        "def f(x, sum):\n    return sum(v for v in x if v)",
        "def f(x):\n    return any(v for v in x if v)",
        "def f(x, k):\n    return max((v for v in x if v), key=k.get)",
        "def f(x, g):\n    g(x)[0:g(1)] += len([v for v in x if v])",
        "def f(x, g):\n    g(x)[(i := 0)] += len([v for v in x if v])",
    ],
    ids=[
        "no filter",
        "walrus",
        "nested comprehension",
        "after an unpacking",
        "shadowed consumer",
        "consumer that may stop early",
        "consumer argument that runs first",
        "augmented slice computed first",
        "augmented item whose index binds a name",
    ],
)
def test_other_comprehensions_stay_as_they_are(src):
    assert lowered(src) == src


def test_comprehensions_inside_a_statement_are_built_first_after_what_runs_before_them():
    got = lowered("""
    def f(x, t):
        n = 0
        n += len([v for v in x if v > t])
        return (t, [i for i in range(3) if x[i]]), np.mean([v for v in x if v < t]), [
            v for v in x if v
        ]
    """)
    assert got == textwrap.dedent("""\
        def f(x, t):
            n = 0
            comprehension_1 = []
            for v_2 in x:
                if v_2 > t:
                    comprehension_1.append(v_2)
            n += len(comprehension_1)
            comprehension_3 = []
            for i_4 in range(3):
                if x[i_4]:
                    comprehension_3.append(i_4)
            comprehension_5 = []
            for v_6 in x:
                if v_6 < t:
                    comprehension_5.append(v_6)
            operand_7 = np.mean(comprehension_5)
            comprehension_8 = []
            for v_9 in x:
                if v_9:
                    comprehension_8.append(v_9)
            return (t, comprehension_3), operand_7, comprehension_8""")


def test_operands_with_an_effect_before_a_comprehension_are_computed_first_in_order():
    got = lowered("""
    def f(x):
        return g(x) + x.mean(), x[0] and h(x), [v for v in x if v], x.sum()
    """)
    assert got == textwrap.dedent("""\
        def f(x):
            operand_1 = g(x) + x.mean()
            operand_2 = x[0] and h(x)
            comprehension_3 = []
            for v_4 in x:
                if v_4:
                    comprehension_3.append(v_4)
            return operand_1, operand_2, comprehension_3, x.sum()""")


def test_a_generator_a_builtin_drains_is_built_first_and_so_is_one_over_a_built_list():
    got = lowered("""
    def f(r):
        down = [v for v in r if v < 0]
        print(sum(d * d for d in down), min((v for v in r if v), default=-1.0))
    """)
    assert got == textwrap.dedent("""\
        def f(r):
            comprehension_1 = []
            for v_2 in r:
                if v_2 < 0:
                    comprehension_1.append(v_2)
            down = comprehension_1
            comprehension_3 = []
            for d_4 in down:
                comprehension_3.append(d_4 * d_4)
            operand_5 = sum(comprehension_3)
            comprehension_6 = []
            for v_7 in r:
                if v_7:
                    comprehension_6.append(v_7)
            print(operand_5, min(comprehension_6, default=-1.0))""")


def test_a_consumer_the_module_redefines_drains_nothing_early():
    src = "def f(x):\n    return sum(v for v in x if v)"
    assert lowered(src, shadowed=frozenset({"sum"})) == src
    assert "comprehension_1" in lowered(src)


def test_an_if_test_and_a_for_iterable_build_their_comprehensions_before_the_statement():
    got = lowered("""
    def f(x):
        for v in [w for w in x if w]:
            if len([u for u in x if u > v]) > 1:
                return v
    """)
    assert got == textwrap.dedent("""\
        def f(x):
            comprehension_1 = []
            for w_2 in x:
                if w_2:
                    comprehension_1.append(w_2)
            for v in comprehension_1:
                comprehension_3 = []
                for u_4 in x:
                    if u_4 > v:
                        comprehension_3.append(u_4)
                if len(comprehension_3) > 1:
                    return v""")


def test_a_filter_with_a_lambda_a_length_and_a_constant_slice_target_are_built_first():
    got = lowered("""
    def f(x):
        x[0:1] /= len(list(filter(lambda t: t > 0, x))) + 1
        print(len([t for t in x if t]), sum(t for t in x if t > 1))
    """)
    assert got == textwrap.dedent("""\
        def f(x):
            comprehension_1 = []
            for t_2 in x:
                if t_2 > 0:
                    comprehension_1.append(t_2)
            x[0:1] /= len(comprehension_1) + 1
            comprehension_3 = []
            for t_4 in x:
                if t_4:
                    comprehension_3.append(t_4)
            comprehension_5 = []
            for t_6 in x:
                if t_6 > 1:
                    comprehension_5.append(t_6)
            print(len(comprehension_3), sum(comprehension_5))""")


def test_a_while_test_is_computed_at_the_top_of_the_loop_and_its_else_kept():
    got = lowered("""
    def f(x, c):
        while len([v for v in x if v > c]) > 1:
            c += 1
        else:
            c = -c
        return c
    """)
    assert got == textwrap.dedent("""\
        def f(x, c):
            exhausted_1 = False
            while True:
                comprehension_2 = []
                for v_3 in x:
                    if v_3 > c:
                        comprehension_2.append(v_3)
                if not len(comprehension_2) > 1:
                    exhausted_1 = True
                    break
                c += 1
            if exhausted_1:
                c = -c
            return c""")


def test_a_later_operand_builds_its_list_in_the_branch_that_reaches_it():
    got = lowered("""
    def f(x, k):
        y = k or [v for v in x if v]
        if k > 0 and len([v for v in x if v]) < 2:
            return y
    """)
    assert got == textwrap.dedent("""\
        def f(x, k):
            short_circuit_1 = k
            if not short_circuit_1:
                comprehension_2 = []
                for v_3 in x:
                    if v_3:
                        comprehension_2.append(v_3)
                short_circuit_1 = comprehension_2
            y = short_circuit_1
            if k > 0:
                comprehension_5 = []
                for v_6 in x:
                    if v_6:
                        comprehension_5.append(v_6)
                if len(comprehension_5) < 2:
                    truth_4 = True
                else:
                    truth_4 = False
            else:
                truth_4 = False
            if truth_4:
                return y""")


def test_an_augmented_item_is_read_first_and_written_back():
    got = lowered("""
    def f(x, g):
        g(x)[[0, 1]] += len([v for v in x if v])
    """)
    assert got == textwrap.dedent("""\
        def f(x, g):
            operand_1 = g(x)
            operand_2 = operand_1[[0, 1]]
            comprehension_3 = []
            for v_4 in x:
                if v_4:
                    comprehension_3.append(v_4)
            operand_2 += len(comprehension_3)
            operand_1[[0, 1]] = operand_2""")


def test_an_assert_builds_its_test_only_where_asserts_run():
    got = lowered("""
    def f(x):
        assert len([v for v in x if v]) > 1, "few"
    """)
    assert got == textwrap.dedent("""\
        def f(x):
            if __debug__:
                comprehension_1 = []
                for v_2 in x:
                    if v_2:
                        comprehension_1.append(v_2)
                assert len(comprehension_1) > 1, 'few'""")
