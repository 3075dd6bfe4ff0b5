"""Golden tests of lowering.short_circuit: ``and``/``or``, conditional expressions and comparison
chains written as ``if`` statements that evaluate each part once, where Python evaluates it
(semantics/test_short_circuit_comprehensions.py runs them)."""

import itertools
import textwrap

import astor
import gast

from tograph.lowering import short_circuit


def written(statements) -> str:
    module = gast.Module(body=statements, type_ignores=[])
    return astor.to_source(gast.gast_to_ast(module)).strip()


def expression(src: str):
    return gast.parse(src).body[0].value


def fresh_names():
    counter = itertools.count(1)
    return lambda base: f"{base}_{next(counter)}"


def test_a_chain_computes_its_middle_operand_after_its_left_and_compares_it_twice():
    got = written(short_circuit.value_of(expression("f(a) < g(b) <= c"), "v", fresh_names()))
    assert got == textwrap.dedent("""\
        operand_1 = f(a)
        operand_2 = g(b)
        v = operand_1 < operand_2
        if v:
            v = operand_2 <= c""")


def test_the_truth_of_a_negated_or_asks_each_operand_once():
    got = written(
        short_circuit.truth_of(expression("not (a or b if t else c)"), "ok", fresh_names())
    )
    assert got == textwrap.dedent("""\
        if t:
            if a:
                ok = False
            elif b:
                ok = False
            else:
                ok = True
        elif c:
            ok = False
        else:
            ok = True""")


def test_the_value_of_and_is_the_first_false_operand():
    got = written(short_circuit.value_of(expression("a and b and c"), "v", fresh_names()))
    assert got == textwrap.dedent("""\
        v = a
        if v:
            v = b
            if v:
                v = c""")


def test_a_while_loop_without_else_only_moves_its_test():
    loop = gast.parse("while a and b:\n    a = f(a)").body[0]
    got = written(short_circuit.test_at_top(loop, fresh_names()))
    assert got == textwrap.dedent("""\
        while True:
            if not (a and b):
                break
            a = f(a)""")
