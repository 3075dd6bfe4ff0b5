"""frontend.translate: the ast <-> gast translations give exactly the trees gast's give.

Trees are compared with ``ast.dump(..., include_attributes=True)`` (fields, node classes and
locations) and by the classes met in a walk, on a sample of most of Python's syntax and on the
source of tograph's own frontend and lowering.
"""

import ast
import pathlib

import gast
import pytest
import syntax_sample

import tograph
from tograph.frontend import translate

_ROOT = pathlib.Path(tograph.__file__).parent
SOURCES = {"sample": syntax_sample.SOURCE} | {
    str(p.relative_to(_ROOT)): p.read_text()
    for folder in ("frontend", "lowering")
    for p in sorted((_ROOT / folder).glob("*.py"))
}


def same(a: ast.AST, b: ast.AST) -> bool:
    dumps = ast.dump(a, include_attributes=True), ast.dump(b, include_attributes=True)
    return dumps[0] == dumps[1] and [type(n) for n in ast.walk(a)] == [type(n) for n in ast.walk(b)]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_to_gast_and_back_match_gast(name):
    tree = ast.parse(SOURCES[name])
    ours = translate.to_gast(tree)
    assert same(ours, gast.ast_to_gast(tree))
    assert same(translate.to_ast(ours), gast.gast_to_ast(ours))


def test_parse_is_gast_parse():
    assert same(translate.parse(syntax_sample.SOURCE), gast.parse(syntax_sample.SOURCE))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_parse_converts_its_own_tree_in_place_into_gast_parse_s(name):
    ours = translate.parse(SOURCES[name])
    assert same(ours, gast.parse(SOURCES[name]))
    walked = list(gast.walk(ours))
    assert len({id(n) for n in walked}) == len(walked)  # no node shared, contexts included
    assert all(type(n).__module__ == "gast.gast" for n in walked)


def test_parse_leaves_the_nodes_ast_shares_between_trees_as_they_were():
    translate.parse("a = b + c is not d and not e")
    tree = ast.parse("x = y + z is not w and not v")
    value = tree.body[0].value
    shared = [tree.body[0].targets[0].ctx, value.op, value.values[0].ops[0], value.values[1].op]
    assert [type(n) for n in shared] == [ast.Store, ast.And, ast.IsNot, ast.Not]
    assert type(value.values[0].left.op) is ast.Add


def test_translated_tree_compiles_and_runs():
    tree = translate.to_ast(translate.parse("def f(a, *, b=2):\n    return [a * b]\n"))
    namespace: dict = {}
    exec(compile(tree, "<test>", "exec"), namespace)
    assert namespace["f"](3) == [6]
