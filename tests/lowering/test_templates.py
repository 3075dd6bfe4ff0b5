"""lowering.templates: gast trees built from source templates, and the locations they get.

Covers the node helpers (``name``, ``names_tuple``, ``strings_tuple``), ``quote`` and
``quote_expr`` substitution (a string renames, a node replaces and takes the context of its place,
a list of statements splices into a body), and locations: every node made from a template stands
on the origin's line, while substituted user code keeps its own (``set_location``,
``locate_node``).
"""

import textwrap

import astor
import gast

from tograph.lowering import templates


def src(node) -> str:
    if isinstance(node, list):
        node = gast.Module(body=node, type_ignores=[])
    return astor.to_source(gast.gast_to_ast(node)).strip()


def parse_at(source: str, first_line: int) -> list:
    """Statements of ``source`` whose first line is ``first_line`` in an imagined file."""
    return gast.parse("\n" * (first_line - 1) + textwrap.dedent(source)).body


def origin_at(line: int, col: int) -> gast.Pass:
    """A user statement standing at ``line``, column ``col``."""
    node = gast.Pass()
    node.lineno, node.end_lineno, node.col_offset, node.end_col_offset = line, line, col, col + 4
    return node


def located(tree) -> list:
    return [n for n in gast.walk(tree) if "lineno" in n._attributes]


# ---- node helpers -----------------------------------------------------------------------------


def test_name_load_and_store():
    load, store = templates.name("x"), templates.name("y", store=True)
    assert (load.id, type(load.ctx)) == ("x", gast.Load)
    assert (store.id, type(store.ctx)) == ("y", gast.Store)


def test_names_tuple_sets_context_on_every_element():
    tup = templates.names_tuple(["a", "b"], store=True)
    assert isinstance(tup.ctx, gast.Store)
    assert [(e.id, type(e.ctx)) for e in tup.elts] == [("a", gast.Store), ("b", gast.Store)]
    assert src(templates.names_tuple(("a", "b"))) == "(a, b)"
    assert src(templates.names_tuple(["a"])) == "(a,)"


def test_strings_tuple():
    assert src(templates.strings_tuple(["x", "y"])) == "('x', 'y')"
    assert src(templates.strings_tuple([])) == "()"


# ---- quote ------------------------------------------------------------------------------------


def test_quote_renames_with_strings():
    out = templates.quote("x = f(y)", x="a", f="g", y="b")
    assert src(out) == "a = g(b)"


def test_quote_renames_function_and_parameters():
    (fn,) = templates.quote("def name(p):\n    return p + 1", name="inc", p="v")
    assert (
        src(fn)
        == textwrap.dedent("""
        def inc(v):
            return v + 1
    """).strip()
    )


def test_quote_substitutes_nodes_with_copies():
    value = gast.parse("h(z) * 2").body[0].value
    out = templates.quote("a = value + value", value=value)
    assert src(out) == "a = h(z) * 2 + h(z) * 2"
    left, right = out[0].value.left, out[0].value.right
    assert left is not value and right is not value and left is not right


def test_quote_gives_substituted_node_the_context_of_its_place():
    target = gast.parse("p, q").body[0].value  # loaded where it was written
    (assign,) = templates.quote("target = pair", target=target)
    stored = assign.targets[0]
    assert isinstance(stored.ctx, gast.Store)
    assert all(isinstance(e.ctx, gast.Store) for e in stored.elts)
    assert isinstance(target.ctx, gast.Load)  # the original is left as it was
    subscript = gast.parse("x[i]").body[0].value
    (assign,) = templates.quote("t = 0", t=subscript)
    assert isinstance(assign.targets[0].ctx, gast.Store)
    assert isinstance(assign.targets[0].value.ctx, gast.Load)  # x itself is still read


def test_quote_splices_statement_lists_into_bodies():
    body = gast.parse("a = 1\nb = 2").body
    other = gast.parse("c = 3").body
    out = templates.quote("if t:\n    body\nelse:\n    other\n    d = 4", body=body, other=other)
    assert (
        src(out)
        == textwrap.dedent("""
        if t:
            a = 1
            b = 2
        else:
            c = 3
            d = 4
    """).strip()
    )


def test_quote_splices_into_function_body():
    body = gast.parse("y = x * 2").body
    (fn,) = templates.quote("def f(x):\n    body\n    return y", body=body)
    assert (
        src(fn)
        == textwrap.dedent("""
        def f(x):
            y = x * 2
            return y
    """).strip()
    )
    assert fn.body[0] is body[0]  # spliced as given, not copied


def test_quote_without_substitutions_returns_every_statement():
    out = templates.quote("""
        a = 1
        b = a
    """)
    assert [type(s) for s in out] == [gast.Assign, gast.Assign]
    assert src(out) == "a = 1\nb = a"


def test_quote_expr_returns_the_expression():
    value = gast.parse("q").body[0].value
    expr = templates.quote_expr("_t.call(fn, value)", fn="print", value=value)
    assert isinstance(expr, gast.Call)
    assert src(expr) == "_t.call(print, q)"


# ---- locations --------------------------------------------------------------------------------


def test_quote_without_origin_leaves_template_nodes_unlocated():
    out = templates.quote("a = b\nc = d")
    assert all(n.lineno is None for n in located(out[0]) + located(out[1]))


def test_quote_puts_every_template_node_on_the_origin_line():
    origin = origin_at(42, 4)
    out = templates.quote("if t:\n    a = f(b)\nelse:\n    c = [1, 2]", origin)
    nodes = located(out[0])
    assert len(nodes) > 10
    for node in nodes:
        assert (node.lineno, node.end_lineno) == (42, 42), type(node).__name__
        assert (node.col_offset, node.end_col_offset) == (4, 4), type(node).__name__


def test_quote_keeps_the_lines_of_substituted_user_code():
    (user,) = parse_at("total = a + b", 7)
    (origin,) = parse_at("other = 0", 30)
    out = templates.quote("result = value * 2", origin, value=user.value)
    assign = out[0]
    assert assign.lineno == 30 and assign.targets[0].lineno == 30
    binop = assign.value
    assert binop.lineno == 30 and binop.right.lineno == 30  # template nodes
    assert binop.left.lineno == 7  # the user's expression, copied with its location
    assert {n.lineno for n in located(binop.left)} == {7}


def test_quote_keeps_the_lines_of_spliced_statements():
    body = parse_at("a = 1\nb = 2", 10)
    (origin,) = parse_at("pass", 3)
    (fn,) = templates.quote("def f():\n    body\n    return a", origin, body=body)
    assert fn.lineno == 3
    assert [s.lineno for s in fn.body] == [10, 11, 3]


def test_set_location_fills_unlocated_nodes_and_skips_located_subtrees():
    user = parse_at("u = v + w", 5)[0].value
    tree = gast.Call(func=templates.name("f"), args=[user, templates.name("g")], keywords=[])
    origin = origin_at(12, 2)
    assert templates.set_location(tree, origin) is tree
    assert (tree.lineno, tree.col_offset) == (12, 2)
    assert tree.func.lineno == 12 and tree.args[1].lineno == 12
    assert {n.lineno for n in located(user)} == {5}


def test_set_location_keeps_a_located_root_and_fills_its_children():
    (origin,) = parse_at("z = 0", 12)
    root = gast.Expr(value=templates.name("f"))
    root.lineno, root.end_lineno, root.col_offset, root.end_col_offset = 3, 3, 0, 1
    templates.set_location(root, origin)
    assert root.lineno == 3 and root.value.lineno == 12


def test_set_location_without_origin_changes_nothing():
    tree = templates.name("f")
    assert templates.set_location(tree, None) is tree
    assert getattr(tree, "lineno", None) is None


def test_locate_node_sets_only_the_node_itself():
    origin = origin_at(9, 8)
    call = gast.Call(func=templates.name("f"), args=[], keywords=[])
    templates.locate_node(call, origin)
    assert (call.lineno, call.end_lineno, call.col_offset, call.end_col_offset) == (9, 9, 8, 8)
    assert getattr(call.func, "lineno", None) is None


def test_locate_node_keeps_an_existing_location_and_ignores_unlocatable_nodes():
    (origin,) = parse_at("x = 1", 9)
    (user,) = parse_at("y = 2", 4)
    templates.locate_node(user, origin)
    assert user.lineno == 4
    load = gast.Load()
    assert templates.locate_node(load, origin) is load
    assert not hasattr(load, "lineno")


def test_quoted_code_with_origin_compiles_without_fixups():
    (origin,) = parse_at("x = 1", 20)
    body = templates.quote("def f(a):\n    b = a + 1\n    return (b, 'b')", origin)
    module = gast.gast_to_ast(gast.Module(body=body, type_ignores=[]))
    namespace: dict = {}
    exec(compile(module, "<templates>", "exec"), namespace)
    assert namespace["f"](1) == (2, "b")
    assert namespace["f"].__code__.co_firstlineno == 20
