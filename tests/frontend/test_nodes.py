"""frontend.nodes: walking and transforming gast trees as gast's own walker and transformer do.

``walk`` must list exactly the nodes ``gast.walk`` yields, in its order, and ``children`` those of
``gast.iter_child_nodes``; ``walk_structure`` the same nodes, and a structure in which
``same_structure`` sees every rewrite in place (a node, list item or value replaced, an item moved
between lists, one deleted); ``Transformer`` must leave a tree as ``gast.NodeTransformer`` leaves
it, for visitors that replace, delete and splice.
"""

import ast
import copy

import gast
import pytest
import syntax_sample

from tograph.frontend import nodes


def sample_tree() -> gast.AST:
    return gast.parse(syntax_sample.SOURCE)


def test_walk_lists_the_nodes_of_gast_walk_in_its_order():
    tree = sample_tree()
    expected = list(gast.walk(tree))
    assert [id(n) for n in nodes.walk(tree)] == [id(n) for n in expected]


def test_walk_of_a_leaf_is_the_leaf():
    leaf = gast.Load()
    assert nodes.walk(leaf) == [leaf]


def test_children_are_those_of_iter_child_nodes():
    for node in gast.walk(sample_tree()):
        assert [id(c) for c in nodes.children(node)] == [id(c) for c in gast.iter_child_nodes(node)]


@pytest.mark.parametrize(
    "classes",
    [(gast.Name,), (gast.stmt,), (gast.FunctionDef, gast.Lambda), (gast.AST,), (gast.Await,)],
)
def test_of_class_picks_the_nodes_isinstance_picks_in_order(classes):
    walked = nodes.walk(sample_tree())
    expected = [n for n in walked if isinstance(n, classes)]
    assert [id(n) for n in nodes.of_class(walked, classes)] == [id(n) for n in expected]


def test_walk_structure_walks_as_walk_does():
    tree = sample_tree()
    assert [id(n) for n in nodes.walk_structure(tree)[0]] == [id(n) for n in nodes.walk(tree)]


def test_same_structure_holds_for_a_tree_left_as_it_was():
    tree = sample_tree()
    structure = nodes.walk_structure(tree)[1]
    nodes.Transformer().visit(tree)  # visits everything, changes nothing
    assert nodes.same_structure(tree, structure)


def _loop() -> gast.For:
    return gast.parse("for i in r:\n    a = 1\n    b = f(x)\nelse:\n    c = 2\n").body[0]


def _replace_value(loop: gast.For) -> None:
    loop.body[1].value = gast.Name(id="x", ctx=gast.Load(), annotation=None, type_comment=None)


def _replace_statement(loop: gast.For) -> None:
    loop.body[0] = copy.copy(loop.body[0])


def _move_between_lists(loop: gast.For) -> None:
    loop.orelse.insert(0, loop.body.pop())  # the walk's order of nodes stays as it was


def _delete_statement(loop: gast.For) -> None:
    del loop.orelse[0]


def _rename(loop: gast.For) -> None:
    loop.body[0].targets[0].id = "".join(["a", "2"])


def _new_list_same_items(loop: gast.For) -> None:
    loop.body = list(loop.body)  # not a change: what the tree says is the same


@pytest.mark.parametrize(
    "edit",
    [_replace_value, _replace_statement, _move_between_lists, _delete_statement, _rename],
)
def test_same_structure_sees_each_rewrite_in_place(edit):
    loop = _loop()
    structure = nodes.walk_structure(loop)[1]
    edit(loop)
    assert not nodes.same_structure(loop, structure)


def test_same_structure_ignores_a_list_replaced_by_one_with_the_same_items():
    loop = _loop()
    structure = nodes.walk_structure(loop)[1]
    _new_list_same_items(loop)
    assert nodes.same_structure(loop, structure)


class _Edits:
    """Visitors that use every kind of answer a transformer may give."""

    def visit_Name(self, node):  # replaces
        if node.id == "x":
            return gast.Name(id="renamed", ctx=node.ctx, annotation=None, type_comment=None)
        return node

    def visit_Pass(self, node):  # deletes
        return None

    def visit_Expr(self, node):  # splices two statements for one
        self.generic_visit(node)
        return [node, gast.Pass()]

    def visit_Constant(self, node):  # rewrites in place, after its (absent) children
        self.generic_visit(node)
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            node.value += 1
        return node

    def visit_Starred(self, node):  # deletes a required field's node: the field goes
        return None if isinstance(node.ctx, gast.Store) else self.generic_visit(node)


class _Reference(_Edits, gast.NodeTransformer):
    pass


class _Fast(_Edits, nodes.Transformer):
    pass


@pytest.mark.parametrize("start", ["module", "function"])
def test_transformer_leaves_the_tree_as_gast_node_transformer_does(start):
    tree = sample_tree()
    if start == "function":
        tree = next(n for n in gast.walk(tree) if isinstance(n, gast.FunctionDef))
    expected = _Reference().visit(copy.deepcopy(tree))
    got = _Fast().visit(copy.deepcopy(tree))
    assert ast.dump(got, include_attributes=True) == ast.dump(expected, include_attributes=True)


def test_transformer_tables_are_kept_per_class():
    class Upper(nodes.Transformer):
        def visit_Name(self, node):
            node.id = node.id.upper()
            return node

    tree = gast.parse("a = b")
    _Fast().visit(tree)  # a different class's table must not serve Upper
    Upper().visit(tree)
    assert {n.id for n in gast.walk(tree) if isinstance(n, gast.Name)} == {"A", "B"}


def test_a_deprecated_constant_visitor_is_still_called():
    """``ast.NodeVisitor.visit_Constant`` hands numbers to ``visit_Num`` (with a deprecation
    warning); a transformer that defines one must see it called as gast's transformer does."""

    class Doubler:
        def visit_Num(self, node):
            return gast.Constant(value=node.value * 2, kind=None)

    class Reference(Doubler, gast.NodeTransformer):
        pass

    class Fast(Doubler, nodes.Transformer):
        pass

    with pytest.warns(DeprecationWarning):
        expected = Reference().visit(gast.parse("x = 21"))
    with pytest.warns(DeprecationWarning):
        got = Fast().visit(gast.parse("x = 21"))
    assert ast.dump(got) == ast.dump(expected)
    assert got.body[0].value.value == 42
