"""The primitives gradient graphs use (reduce_to, index_add, stacks): kernels against NumPy, type
rules, and
how they run in compiled graphs."""

import numpy as np
import pytest

from tograph.backend import codegen
from tograph.ir import check, types
from tograph.ops import indexing, reductions, stacks
from tograph.trace import builder as builder_mod

F64 = np.dtype(np.float64)


@pytest.mark.parametrize(
    "g_shape, target",
    [((2, 3), (3,)), ((2, 3), (2, 1)), ((4, 2, 3), (1, 3)), ((3,), ()), ((3,), (1, 3))],
    ids=str,
)
def test_reduce_to_sums_broadcast_axes(g_shape, target):
    g = np.arange(np.prod(g_shape), dtype=float).reshape(g_shape)
    got = reductions.reduce_to_p.impl(g, shape=target)
    assert np.shape(got) == target
    assert np.sum(got) == pytest.approx(np.sum(g))
    if g_shape == (2, 3) and target == (2, 1):
        np.testing.assert_array_equal(got, [[3.0], [12.0]])


def test_reduce_to_reads_unknown_dims_at_run_time():
    b = builder_mod.GraphBuilder("f")
    g = b.add_input(types.TensorType(F64, (None, 3)))
    x = b.add_input(types.TensorType(F64, (None, 1)))
    with b.active():
        out = reductions.reduce_to(g, x)
        graph = b.finish([out])
    check.check_graph(graph)
    assert graph.out_types == (types.TensorType(F64, (None, 1)),)
    (got,) = codegen.execute(graph, np.ones((4, 3)), np.ones((4, 1)))
    np.testing.assert_array_equal(got, np.full((4, 1), 3.0))
    (got,) = codegen.execute(graph, np.ones((4, 3)), np.ones((1, 1)))
    np.testing.assert_array_equal(got, [[12.0]])


def test_index_add_adds_repeated_indices():
    index, _ = indexing.parse_index(([0, 2, 0],))
    got = indexing.index_add_p.impl(np.zeros(3), np.array([1.0, 2.0, 3.0]), index=index)
    np.testing.assert_array_equal(got, [4.0, 0.0, 2.0])
    index, _ = indexing.parse_index((slice(1, None), 0))
    base = np.ones((3, 2))
    got = indexing.index_add_p.impl(base, np.array([5.0, 6.0]), index=index)
    np.testing.assert_array_equal(got, [[1, 1], [6, 1], [7, 1]])
    np.testing.assert_array_equal(base, np.ones((3, 2)))  # the base is not changed


def test_index_add_type_rule_checks_the_update_shape():
    index, _ = indexing.parse_index((slice(0, 2),))
    t = types.TensorType(F64, (3, 4))
    assert indexing.index_add_p.type_rule(t, types.TensorType(F64, (4,)), index=index) == t
    with pytest.raises(Exception, match="does not broadcast"):
        indexing.index_add_p.type_rule(t, types.TensorType(F64, (3,)), index=index)


def test_stack_pop_and_cotangent_lists():
    stack = [np.ones(2), np.zeros(2)]
    rest, top = stacks.list_pop_p.impl(stack)
    assert rest is stack and len(stack) == 1 and np.all(top == 0)
    cts = stacks.list_holes_p.impl(3, elem=types.TensorType(F64, (2,)))
    assert cts == [None, None, None]
    stacks.list_add_at_p.impl(cts, 1, np.ones(2))
    stacks.list_add_at_p.impl(cts, -2, np.ones(2))
    np.testing.assert_array_equal(cts[1], [2.0, 2.0])
    rest, ct = stacks.list_pop_ct_p.impl(cts, 4, shape=(None,), dtype=F64, weak=False)
    np.testing.assert_array_equal(ct, np.zeros(4))
    merged = stacks.list_add_p.impl(cts, [np.ones(2), np.ones(2)])
    np.testing.assert_array_equal(merged[0], [1.0, 1.0])
    np.testing.assert_array_equal(merged[1], [3.0, 3.0])
    unstacked = stacks.list_unstack_p.impl(np.arange(6.0).reshape(3, 2))
    assert len(unstacked) == 3 and np.all(unstacked[2] == [4.0, 5.0])


def test_list_type_rules():
    elem = types.TensorType(F64, (2,))
    lst = types.ListType(elem)
    assert stacks.list_pop_p.type_rule(lst) == (lst, elem)
    assert stacks.list_unstack_p.type_rule(types.TensorType(F64, (None, 2))) == lst
    weak = stacks.list_pop_ct_p.type_rule(lst, shape=(), dtype=F64, weak=True)[1]
    assert weak == types.TensorType(F64, (), weak=True)
    with pytest.raises(Exception, match="typed tensor list"):
        stacks.list_pop_p.type_rule(types.ListType(None))
