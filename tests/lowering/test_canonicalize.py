"""lowering.canonicalize: expressions and mutations rewritten into runtime calls.

Covers the rewritten source of small functions: ``and``/``or``/``not``/ternaries and chained
comparisons as lazy ``_t`` calls, which calls go through ``_t.call`` (user functions, builtins,
NumPy functions with an override or taking sequences) and which stay as written (NumPy ufuncs and
functions that dispatch themselves, tensor methods, the runtime's own calls), item assignment
through the runtime (rebinding the function's own variables, so that they are state of the
control flow around; never globals, attributes or enclosing functions' variables), ``append`` on
a local list as a list push, ``assert``/``raise``/f-strings, a for loop's exit test, the
locations of generated nodes, and that the rewritten code runs like the original (item writes
and unpacking included, Python's evaluation order kept).
"""

import textwrap

import astor
import gast
import numpy as np
import pytest

from tograph.lowering import canonicalize, jumps
from tograph.staging import runtime


def user_helper(v):
    return v + 1


GLOBALS = {"np": np, "helper": user_helper, "table": {}}


def canonical(src: str, globals_: dict | None = None) -> gast.FunctionDef:
    fn = gast.parse(textwrap.dedent(src)).body[0]
    return canonicalize.canonicalize(fn, GLOBALS if globals_ is None else globals_)


def rendered(node) -> str:
    return astor.to_source(gast.gast_to_ast(node), pretty_source="".join).strip()


def expect(src: str, golden: str) -> None:
    assert rendered(canonical(src)) == textwrap.dedent(golden).strip()


def compiled(fn: gast.FunctionDef):
    module = gast.gast_to_ast(gast.Module(body=[fn], type_ignores=[]))
    namespace = {"_t": runtime, "np": np}
    exec(compile(module, "<canonical>", "exec"), namespace)
    return namespace[fn.name]


def eager(src: str):
    namespace = {"np": np}
    exec(textwrap.dedent(src), namespace)
    return next(v for k, v in namespace.items() if k not in ("np", "__builtins__"))


# ---- expressions ------------------------------------------------------------------------------


def test_boolean_operators_become_lazy_runtime_calls():
    expect(
        """
        def f(a, b, c):
            return a and b or c
        """,
        """
        def f(a, b, c):
            return _t.or_(lambda : _t.and_(lambda : a, lambda : b), lambda : c)
        """,
    )


def test_boolean_operator_with_many_operands_nests_to_the_right():
    expect(
        """
        def f(a, b, c):
            return a and b and c
        """,
        """
        def f(a, b, c):
            return _t.and_(lambda : a, lambda : _t.and_(lambda : b, lambda : c))
        """,
    )


def test_not_and_conditional_expression():
    expect(
        """
        def f(a, b, c):
            x = not a
            y = -a
            return b if x else c
        """,
        """
        def f(a, b, c):
            x = _t.not_(a)
            y = -a
            return _t.if_exp(x, lambda : b, lambda : c)
        """,
    )


def test_operands_are_rewritten_inside_the_lambdas():
    expect(
        """
        def f(a, b):
            return (not a) or (b if a else not b)
        """,
        """
        def f(a, b):
            return _t.or_(lambda : _t.not_(a), lambda : _t.if_exp(a, lambda : b, lambda : _t.not_(b)))
        """,  # noqa: E501 - generated code, as printed
    )


def test_single_comparison_is_unchanged():
    expect(
        """
        def f(a, b):
            return a < b
        """,
        """
        def f(a, b):
            return a < b
        """,
    )


def test_chained_comparison_is_a_lazy_conjunction():
    fn = canonical("""
    def f(a, b, c):
        return a < b <= c
    """)
    value = fn.body[0].value
    assert rendered(value.func) == "_t.compare_chain"
    assert [type(arg) for arg in value.args] == [gast.Lambda] * 5
    check = compiled(fn)
    for args in [(1, 2, 3), (1, 2, 2), (2, 1, 3), (1, 3, 2), (3, 2, 1)]:
        a, b, c = args
        assert check(*args) == (a < b <= c), args


def test_chained_comparison_evaluates_each_operand_once_and_lazily():
    fn = canonical("""
    def f(items, first, second):
        return next(items) + first < next(items) + second < next(items) + 3
    """)
    for first, second, result, left in [(1, 2, True, [9]), (2, 1, False, [0, 9])]:
        items = iter([0, 0, 0, 9])
        assert compiled(fn)(items, first, second) is result
        assert list(items) == left


def test_identity_comparisons_go_through_the_runtime():
    expect(
        """
        def f(a, b):
            return a is True, a is not b, a is None
        """,
        """
        def f(a, b):
            return _t.is_(a, True), _t.is_not(a, b), a is None
        """,
    )


# ---- calls ------------------------------------------------------------------------------------


@pytest.mark.parametrize("class_cell", [True, False])
def test_zero_argument_super_names_the_class_cell_and_the_first_parameter(class_cell):
    """Called through the runtime, ``super()`` would look for ``__class__`` and ``self`` in the
    runtime's frame; a lambda's, and a function's without a ``__class__`` cell, stay as
    written (Python raises for them as it would)."""
    src = """
        def step(self, x):
            def inner(v):
                return super().f(v)
            g = lambda: super().f(x)
            return super().step(x) + super(Base, self).step(x) + inner(x) + g()
        """
    fn = gast.parse(textwrap.dedent(src)).body[0]
    code = rendered(canonicalize.canonicalize(fn, GLOBALS, class_cell=class_cell))
    assert ("_t.call(super, __class__, self).step" in code) is class_cell
    assert ("_t.call(super, __class__, v).f" in code) is class_cell
    assert "lambda : _t.call(_t.call(super).f, x)" in code
    assert "_t.call(super, Base, self).step" in code


def test_calls_go_through_the_runtime_unless_they_dispatch_themselves():
    expect(
        """
        def f(x, xs, obj):
            y = x + 1
            a = np.sin(y) + np.sum(y)
            b = np.stack(xs) + np.zeros(3)
            c = helper(x) + len(xs) + unknown(x)
            d = x.sum() + x.reshape(3, 1) + obj.method(x, k=2)
            return _t.call(a, b)
        """,
        """
        def f(x, xs, obj):
            y = x + 1
            a = np.sin(y) + np.sum(y)
            b = _t.call(np.stack, xs) + _t.call(np.zeros, 3)
            c = _t.call(helper, x) + _t.call(len, xs) + _t.call(unknown, x)
            d = _t.method(x, 'sum')() + _t.method(x, 'reshape')(3, 1) + _t.call(obj.method, x, k=2)
            return _t.call(a, b)
        """,
    )


def test_numpy_calls_on_a_list_built_in_the_function_or_a_parameter_go_through_the_runtime():
    expect(
        """
        def f(x, given):
            rows = [x, x]
            grown = []
            grown.append(x)
            made = list(given)
            a = np.mean(rows, axis=0) + np.sum(grown)
            return a + np.max(made) + np.sum(given)
        """,
        """
        def f(x, given):
            rows = [x, x]
            grown = []
            grown = _t.list_append(grown, x)
            made = _t.call(list, given)
            a = _t.call(np.mean, rows, axis=0) + _t.call(np.sum, grown)
            return a + _t.call(np.max, made) + _t.call(np.sum, given)
        """,
    )


def test_numpy_calls_on_what_may_be_a_sequence_go_through_the_runtime():
    # items, attributes, call results and loop targets may be tuples or lists of tensors, which
    # NumPy would read through __array__; arrays computed by operators and ufuncs may not
    expect(
        """
        def f(x, obj):
            pairs = list(zip(x, x))
            m = helper(x)
            for p in pairs:
                n = np.sum(p)
            a = x - 1.0
            y = np.sin(a) * 2
            s = np.sum(pairs[0]) + np.mean(obj.hist) + np.max(m)
            return s + np.cos(y) + np.abs(a.T)
        """,
        """
        def f(x, obj):
            pairs = _t.call(list, _t.call(zip, x, x))
            m = _t.call(helper, x)
            for p in pairs:
                n = _t.call(np.sum, p)
            a = x - 1.0
            y = np.sin(a) * 2
            s = _t.call(np.sum, pairs[0]) + _t.call(np.mean, obj.hist) + _t.call(np.max, m)
            return s + np.cos(y) + np.abs(a.T)
        """,
    )


def test_call_keeps_keywords_and_starred_arguments():
    expect(
        """
        def f(x, args, kw):
            return helper(x, *args, scale=2, **kw)
        """,
        """
        def f(x, args, kw):
            return _t.call(helper, x, *args, scale=2, **kw)
        """,
    )


def test_names_resolve_in_the_given_globals():
    src = """
    def f(x):
        y = x + 1
        return sin(y)
    """
    with_numpy = canonical(src, {"sin": np.sin})
    with_other = canonical(src, {"sin": user_helper})
    assert rendered(with_numpy.body[1].value) == "sin(y)"
    assert rendered(with_other.body[1].value) == "_t.call(sin, y)"


def test_nested_calls_are_each_rewritten():
    expect(
        """
        def f(x):
            return helper(helper(x))
        """,
        """
        def f(x):
            return _t.call(helper, _t.call(helper, x))
        """,
    )


# ---- mutations --------------------------------------------------------------------------------


def stores(fn: gast.FunctionDef) -> list:
    """The subscript stores left in ``fn`` (Python's own item assignments)."""
    return [
        n for n in gast.walk(fn) if isinstance(n, gast.Subscript) and isinstance(n.ctx, gast.Store)
    ]


def rebound(fn: gast.FunctionDef) -> list[str]:
    """The names the top-level statements of ``fn`` assign, in order."""
    return [
        t.id
        for s in fn.body
        if isinstance(s, gast.Assign)
        for t in s.targets
        if isinstance(t, gast.Name)
    ]


ITEM_WRITES = """
def f(x, i, v):
    x[i] = [v, v]
    x[0][1] = v
    x[i][0] += v
    x[1][0] *= v
    return x
"""


def test_item_assignment_to_a_local_rebinds_the_local_through_the_runtime():
    fn = canonical(ITEM_WRITES)
    assert stores(fn) == []
    assert rebound(fn) == ["x", "x", "x", "x"]  # x is state of branches and loops around
    for stmt in fn.body[:4]:
        assert rendered(stmt.value).startswith("_t."), rendered(stmt)


def test_item_assignment_runs_like_python():
    converted, original = compiled(canonical(ITEM_WRITES)), eager(ITEM_WRITES)
    for i, v in [(0, 2), (1, 3), (2, -1)]:
        rows = [[1, 2], [3, 4], [5, 6]]
        assert converted([r[:] for r in rows], i, v) == original([r[:] for r in rows], i, v)


def test_augmented_item_assignment_evaluates_the_index_once():
    src = """
    def f(x, idx):
        x[idx.pop()] += 10
        return x
    """
    converted, original = compiled(canonical(src)), eager(src)
    assert converted([0, 1, 2], [0, 1]) == original([0, 1, 2], [0, 1]) == [0, 11, 2]


def test_item_assignment_computes_the_value_before_the_target_as_python_does():
    src = """
    def f(x, order):
        x[order.pop()] = order.pop()
        return x
    """
    converted, original = compiled(canonical(src)), eager(src)
    assert converted([0, 0], [0, 9]) == original([0, 0], [0, 9]) == [9, 0]


def test_local_array_written_in_place_enters_through_the_runtime():
    fn = canonical("""
    def f(n):
        a = np.zeros(n)
        b = np.ones(n)
        a[0] = 1
        return a + b
    """)
    assert rendered(fn.body[0].value) == "_t.fresh(_t.call(np.zeros, n))"
    assert rendered(fn.body[1].value) == "_t.call(np.ones, n)"  # never written: left as is


def test_item_assignment_to_a_global_or_an_attribute_does_not_rebind():
    fn = canonical("""
    def f(obj, v):
        table['k'] = v
        table['n'] += 1
        obj.items[0] = v
        return obj
    """)
    assert stores(fn) == []
    assert rebound(fn) == []
    assert all(isinstance(s, gast.Expr) for s in fn.body[:3])


def test_item_assignment_in_a_nested_function_to_an_outer_variable_does_not_rebind_it():
    fn = canonical("""
    def f(v):
        acc = [0]
        def inner(w):
            acc[0] = w
            own = [w]
            own[0] = 1
            return own
        return inner(v)
    """)
    inner = fn.body[1]
    assert isinstance(inner.body[0], gast.Expr)  # acc is not inner's to rebind
    assert rebound(inner) == ["own", "own"]
    assert stores(fn) == []


def test_unpacking_into_items_runs_like_python():
    src = """
    def f(x, i, j, pair):
        x[i], x[j] = x[j], x[i]
        (x[0], (x[1], y)), z = pair
        a, b = z, y
        return x, a, b
    """
    fn = canonical(src)
    assert stores(fn) == []
    converted, original = compiled(fn), eager(src)
    for i, j in [(0, 1), (2, 0), (1, 1)]:
        pair = ((7, (8, 9)), 10)
        assert converted([1, 2, 3], i, j, pair) == original([1, 2, 3], i, j, pair), (i, j)


def test_starred_unpacking_into_items_is_left_to_python():
    expect(
        """
        def f(x, vs):
            x[0], *rest = vs
            return rest
        """,
        """
        def f(x, vs):
            x[0], *rest = vs
            return rest
        """,
    )


def test_append_to_a_local_list_is_a_list_push():
    expect(
        """
        def f(x):
            out = []
            out.append(x * 2)
            out.append(helper(x))
            shared.append(x)
            out.append(x, 1)
            out.append(value=x)
            return out
        """,
        """
        def f(x):
            out = []
            out = _t.list_append(out, x * 2)
            out = _t.list_append(out, _t.call(helper, x))
            _t.call_outside(shared, 'append', x)
            _t.call(out.append, x, 1)
            _t.call(out.append, value=x)
            return out
        """,
    )


# ---- statements -------------------------------------------------------------------------------


def test_assert_and_raise_become_runtime_calls():
    expect(
        """
        def f(x):
            assert x > 0
            assert x < 9, 'too big'
            if x:
                raise ValueError('bad')
            raise ValueError
        """,
        """
        def f(x):
            _t.assert_(x > 0, lambda : None)
            _t.assert_(x < 9, lambda : 'too big')
            if x:
                _t.raise_(_t.call(ValueError, 'bad'))
            _t.raise_(ValueError)
        """,
    )


def test_bare_raise_and_raise_from_stay_python():
    expect(
        """
        def f(x):
            if x:
                raise
            raise ValueError('x') from None
        """,
        """
        def f(x):
            if x:
                raise
            raise _t.call(ValueError, 'x') from None
        """,
    )


def test_f_strings_format_at_run_time():
    expect(
        """
        def f(x, y):
            return f'x={x!r} y={y:.2f} {x + 1}'
        """,
        """
        def f(x, y):
            return _t.fstring('x=', _t.formatted(x, 114, ''), ' y=', _t.formatted(y, -1, '.2f'), ' ', _t.formatted(x + 1, -1, ''))
        """,  # noqa: E501 - generated code, as printed
    )


def test_f_string_with_computed_format_spec_is_left_to_python():
    fn = canonical("""
    def f(x, w):
        return f'{x:>{w}}'
    """)
    assert isinstance(fn.body[0].value, gast.JoinedStr)
    assert compiled(fn)(7, 3) == "  7"


def test_for_loop_exit_test_is_rewritten_too():
    fn = gast.parse(
        textwrap.dedent("""
    def f(xs):
        for v in xs:
            if v:
                break
        return v
    """)
    ).body[0]
    jumps.lower_jumps(fn)
    loop = fn.body[1]
    assert rendered(loop.extra_test) == "(not break_1)"
    canonicalize.canonicalize(fn, GLOBALS)
    assert rendered(loop.extra_test) == "_t.not_(break_1)"


def test_runtime_calls_made_by_earlier_steps_are_left_alone():
    expect(
        """
        def f(x):
            retval = _t.Placeholder('retval')
            return retval
        """,
        """
        def f(x):
            retval = _t.Placeholder('retval')
            return retval
        """,
    )


# ---- locations and behaviour ------------------------------------------------------------------


def test_generated_nodes_stand_on_the_line_they_replace():
    fn = canonical("""
    def f(a, b, x):
        y = 1
        z = (a and
             b)
        x[0] = not y
        return z
    """)
    for node in gast.walk(fn):
        if "lineno" in node._attributes:
            assert node.lineno is not None, type(node).__name__
    bool_call = fn.body[1].value
    assert bool_call.lineno == 4 and bool_call.func.lineno == 4
    assert bool_call.args[1].lineno == 5  # the lambda around b stands where b does
    setitem = fn.body[2]
    assert {n.lineno for n in gast.walk(setitem) if "lineno" in n._attributes} == {6}


def test_rewritten_function_runs_like_the_original():
    src = """
    def f(a, b, c, xs):
        out = [0, 0, 0]
        out[0] = a and b or c
        out[1] = 0 < a < b <= c
        out[2] = b if not a else c
        xs.append(len(out))
        xs[0], xs[1] = xs[1], xs[0]
        xs[2] += 10
        s = f"{a}-{b!r}:{c:>3}"
        assert a >= 0, "negative"
        return out, xs, s, max(xs)
    """
    converted, original = compiled(canonical(src)), eager(src)
    for args in [(1, 2, 3), (0, 2, 3), (3, 2, 1), (1, 0, 5)]:
        assert converted(*args, [5, 6, 7]) == original(*args, [5, 6, 7]), args


def test_rewritten_function_keeps_python_list_mutation():
    src = """
    def f(xs, v):
        alias = xs
        xs.append(v)
        xs[0] = -1
        return alias
    """
    converted, original = compiled(canonical(src)), eager(src)
    a, b = [1, 2], [1, 2]
    assert converted(a, 3) is a and original(b, 3) is b
    assert a == b == [-1, 2, 3]


def test_del_of_an_item_goes_through_the_runtime():
    expect(
        """
        def f(x, d):
            del d['a'], x[0]
            del d[0][1]
            return d
        """,
        """
        def f(x, d):
            _t.delitem(d, 'a')
            _t.delitem(x, 0)
            _t.delitem(d[0], 1)
            return d
        """,
    )


def test_containers_changed_through_outside_values_go_through_the_runtime():
    expect(
        """
        def f(self, x):
            self.history.append(x)
            table.update(a=x)
            rows = [[]]
            rows[0].append(x)
            return rows
        """,
        """
        def f(self, x):
            _t.call_outside(self.history, 'append', x)
            _t.call_outside(table, 'update', a=x)
            rows = [[]]
            _t.call(rows[0].append, x)
            return rows
        """,
    )


def test_a_second_name_for_a_changed_container_is_marked_shared():
    expect(
        """
        def f(x):
            a = []
            b = a
            c = d = []
            y = x
            b.append(x)
            c[0] = y
            return a, d
        """,
        """
        def f(x):
            a = []
            b = _t.shared(a)
            unpacked_1 = _t.shared([])
            c = unpacked_1
            d = unpacked_1
            y = x
            b = _t.list_append(b, x)
            c = _t.setitem(c, 0, y)
            return a, d
        """,
    )


def test_attributes_are_set_through_the_runtime():
    expect(
        """
        def f(self, x):
            self.m = x
            table.count = 1
            table.total += x
            return x
        """,
        """
        def f(self, x):
            _t.setattr_local(x, self, 'm')
            _t.setattr_outside(table, 'count', 1)
            _t.setattr_outside(table, 'total', None)
            return x
        """,
    )


def test_a_set_display_has_its_items_stored_like_a_list():
    # A set display has no ``ctx``: reading it as a list crashed every function holding
    # one (``s in {1.0}``), which then ran eagerly.
    expect(
        """
        def f(x):
            a = []
            b = a
            b.append(x)
            return {1.0, b}, x in {1.0}
        """,
        """
        def f(x):
            a = []
            b = _t.shared(a)
            b = _t.list_append(b, x)
            return {1.0, _t.shared(b)}, _t.in_(x, {1.0})
        """,
    )
