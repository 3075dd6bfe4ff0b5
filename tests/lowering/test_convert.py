"""lowering.convert: the driver from a Python function to its analysis and its lowered twin.

Covers ``analyze`` (cached per code object, jumps made flags, ``has_controls``, its SSA form also
after lowering took the analysed tree, unsupported constructs raising ``UnsupportedError``),
``lower``/``convert`` (cached per code object and static decisions, ``Conversion.source``, static
decisions kept as plain Python), and the compiled code (it runs like the plain function with the
runtime, binds closure values when instantiated, keeps the user's file name and line numbers, and
is registered as converted code). A function that lowering leaves exactly as written runs a copy of
its own code, registered and named as compiled code is, with its nested code copied too. Steps
skipped where the analysed tree shows them needless still run where they are needed: an ``is
None`` test, a nested function's control flow, a comprehension the analysis made a loop.
"""

import inspect
import sys
import textwrap
import types
import warnings

import gast
import numpy as np
import pytest

import tograph as tg
from tograph import errors, origin
from tograph.frontend import parse
from tograph.lowering import convert
from tograph.staging import runtime


def expect(got: str, golden: str) -> None:
    assert got.strip() == textwrap.dedent(golden).strip()


def line_of(fn, text: str) -> int:
    """The line number in this file of the first line of ``fn`` containing ``text``."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


# ---- analyze ----------------------------------------------------------------------------------


def halve_until_small(x):
    while x > 10:
        x = x / 2
    return x


def straight(x):
    y = x + 1
    return y * 2


def make_scaler(factor):
    def scale(x):
        if x > 0:
            return x * factor
        return -x * factor

    return scale


def test_analyze_is_cached_per_code_object():
    first = convert.analyze(halve_until_small)
    assert convert.analyze(halve_until_small) is first
    assert convert.analyze(straight) is not first
    # Two closures of one ``def`` share their code object, and so their analysis.
    assert convert.analyze(make_scaler(2)) is convert.analyze(make_scaler(3))


def test_analysis_knows_whether_there_is_control_flow():
    assert convert.analyze(halve_until_small).has_controls
    assert not convert.analyze(straight).has_controls
    assert convert.analyze(halve_until_small).parsed.name == "halve_until_small"


def first_positive(xs):
    for v in xs:
        if v > 0:
            return v
    return None


def test_analysis_ssa_of_a_function_with_a_return_in_a_loop():
    expect(
        convert.analyze(first_positive).ssa.text,
        """
        def first_positive(xs):
            retval = _t.Placeholder('retval')
            do_return = False
            loop_1:
                do_return_1 = φ(do_return, do_return_3)
                retval_1 = φ(retval, retval_3)
                for v in xs:  # and while not do_return_1
                    if v > 0:
                        retval_2 = v
                        do_return_2 = True
                    do_return_3 = φ(do_return_2, do_return_1)
                    retval_3 = φ(retval_2, retval_1)
            if not do_return_1:
                retval_4 = None
                do_return_4 = True
            retval_5 = φ(retval_4, retval_1)
            return retval_5
        """,
    )
    assert [c.kind for c in convert.analyze(first_positive).ssa.controls] == ["for", "if", "if"]


def count_down(n):
    while n > 0:
        n = n - 1
    return n


def test_ssa_is_available_after_lowering_took_the_analysed_tree():
    analysis = convert.analyze(count_down)
    convert.lower(count_down, frozenset({0}))  # takes the analysed tree and rewrites it
    expect(
        analysis.ssa.text,
        """
        def count_down(n):
            loop_1:
                n_1 = φ(n, n_2)
                while n_1 > 0:
                    n_2 = n_1 - 1
            return n_1
        """,
    )


def count_up(n):
    i = 0
    while i < n:
        if i > 5:
            break
        i = i + 1
    return i


def test_take_tree_gives_the_analysed_tree_once_then_fresh_lowered_ones():
    parsed, tree = parse.parse_function(count_up)
    analysis = convert.Analysis(parsed, tree, parsed_structure=["structure"])
    (first, first_structure), (second, second_structure) = (
        analysis.take_tree(),
        analysis.take_tree(),
    )
    assert first is tree and first_structure == ["structure"]
    assert second_structure is None  # a fresh tree's structure as parsed is not known
    assert second is not first and isinstance(second, gast.FunctionDef)
    assert second.lineno == count_up.__code__.co_firstlineno
    flags = {n.id for n in gast.walk(second) if isinstance(n, gast.Name)}
    assert "break_1" in flags  # a fresh tree has its jumps made flags too
    assert not any(isinstance(n, gast.Break) for n in gast.walk(second))


def test_ssa_of_an_analysis_whose_tree_was_taken_is_made_from_a_fresh_tree():
    analysis = convert.Analysis(*parse.parse_function(count_down))
    analysis.take_tree()
    expect(
        analysis.ssa.text,
        """
        def count_down(n):
            loop_1:
                n_1 = φ(n, n_2)
                while n_1 > 0:
                    n_2 = n_1 - 1
            return n_1
        """,
    )


def uses_try(x):
    try:
        y = x + 1
    except TypeError as err:
        y = err
    err = 0  # an except clause's name bound outside it
    return y, err


def test_unsupported_construct_raises_with_its_name_and_line():
    with pytest.raises(errors.UnsupportedError) as info:
        convert.analyze(uses_try)
    assert info.value.construct == "exception name 'err' used outside its except clause"
    assert "exception name 'err' used outside its except clause" in str(info.value)
    assert str(line_of(uses_try, "except TypeError")) in str(info.value)


# ---- lower ------------------------------------------------------------------------------------


def clip_add(x, y, limit):
    z = x + y
    if z > limit:
        z = limit
    return z


def test_lower_is_cached_per_code_and_decisions():
    dynamic = convert.lower(clip_add, frozenset())
    static = convert.lower(clip_add, frozenset({0}))
    assert convert.lower(clip_add, frozenset()) is dynamic
    assert convert.lower(clip_add, frozenset({0})) is static
    assert static is not dynamic
    assert convert.convert(clip_add) is dynamic


def test_conversion_source_calls_the_runtime_for_dynamic_statements():
    expect(
        convert.lower(clip_add, frozenset()).source,
        """
        def clip_add(x, y, limit):
            z = x + y

            def if_body_1(z):
                z = limit
                return z,

            def else_body_1(z):
                pass
                return z,
            z, = _t.if_stmt(z > limit, if_body_1, else_body_1, (z,), ('z',), ('z',))
            return z
        """,
    )


def test_conversion_source_keeps_static_statements_as_python():
    expect(
        convert.lower(clip_add, frozenset({0})).source,
        """
        def clip_add(x, y, limit):
            z = x + y
            if z > limit:
                z = limit
            return z
        """,
    )


def nested_decisions(x, n):
    for i in range(n):
        if x > i:
            x = x - 1
    return x


def test_decisions_are_numbered_like_the_control_statements():
    expect(
        convert.lower(nested_decisions, frozenset({1})).source,
        """
        def nested_decisions(x, n):

            def loop_body_1(item_1, x):
                i = item_1
                if x > i:
                    x = x - 1
                return x,
            x, = _t.for_stmt(_t.call(range, n), None, loop_body_1, (x,), ('x',))
            return x
        """,
    )


def test_lambda_is_lowered_as_a_def():
    double = lambda v: v * 2 if v > 0 else v  # noqa: E731 - the lambda is under test
    conversion = convert.convert(double)
    expect(
        conversion.source,
        """
        def lambda_(v):
            return _t.if_exp(v > 0, lambda : v * 2, lambda : v)
        """,
    )
    lowered = conversion.instantiate(double, runtime)
    assert [lowered(v) for v in (-3, 0, 4)] == [double(v) for v in (-3, 0, 4)]


# ---- the compiled code ------------------------------------------------------------------------


def collatz_steps(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("static", [frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1})])
def test_lowered_code_runs_like_the_function(static):
    lowered = convert.lower(collatz_steps, static).instantiate(collatz_steps, runtime)
    for n in [1, 2, 7, 27]:
        assert lowered(n) == collatz_steps(n)


def test_instantiate_binds_each_closures_values():
    double, triple = make_scaler(2), make_scaler(3)
    conversion = convert.convert(double)
    assert convert.convert(triple) is conversion
    assert conversion.instantiate(double, runtime)(5) == 10
    assert conversion.instantiate(triple, runtime)(5) == 15
    assert conversion.instantiate(triple, runtime)(-1) == 3


def make_early_reader():
    def reader():
        return later

    conversion = convert.convert(reader)
    lowered = conversion.instantiate(reader, runtime)  # ``later`` is not bound yet
    later = 1
    return lowered, reader, later


def test_instantiate_reads_an_empty_cell_as_none():
    lowered, reader, _ = make_early_reader()
    assert lowered() is None
    assert reader() == 1  # the plain function reads the cell when it runs


def divide(a, b):
    c = a + 1
    return c / b


def test_lowered_code_keeps_the_users_file_and_lines():
    lowered = convert.convert(divide).instantiate(divide, runtime)
    assert lowered.__code__.co_filename == divide.__code__.co_filename
    assert lowered.__code__.co_firstlineno == divide.__code__.co_firstlineno
    with pytest.raises(ZeroDivisionError) as info:
        lowered(1, 0)
    tb = info.tb
    while tb.tb_next is not None:
        tb = tb.tb_next
    assert tb.tb_frame.f_code.co_filename == __file__
    assert tb.tb_lineno == line_of(divide, "return c / b")


def test_lowered_code_is_registered_as_converted():
    lowered = convert.convert(collatz_steps).instantiate(collatz_steps, runtime)
    assert origin.is_converted(lowered.__code__)
    assert not origin.is_converted(collatz_steps.__code__)


OFFSET = 7


def uses_global(x):
    return x * OFFSET


def test_lowered_function_reads_the_users_globals():
    lowered = convert.convert(uses_global).instantiate(uses_global, runtime)
    assert lowered(2) == uses_global(2) == 2 * OFFSET


def test_lowered_code_compiles_with_every_node_located():
    conversion = convert.lower(collatz_steps, frozenset())
    for node in gast.walk(conversion.lowered):
        if "lineno" in node._attributes:
            assert node.lineno is not None, type(node).__name__
    body_lines = range(collatz_steps.__code__.co_firstlineno, line_of(collatz_steps, "return") + 1)
    lines = {n.lineno for n in gast.walk(conversion.lowered) if "lineno" in n._attributes}
    assert lines <= set(body_lines)


# ---- functions lowering leaves as written --------------------------------------------------


def scaled_sum(x, y):
    z = x * 2.5 + y
    return z - y / 4


def with_helpers(xs, k):
    shift = lambda v: v + k  # noqa: E731 - nested code in a function lowering leaves as written

    def scale(v):
        return v * k

    return [v * k for v in xs], shift, scale


def with_a_conditional_expression(x):
    return x if x > 0 else -x


def test_a_function_lowering_leaves_as_written_runs_a_copy_of_its_own_code():
    conversion = convert.lower(scaled_sum, frozenset())
    lowered = conversion.instantiate(scaled_sum, runtime)
    assert lowered.__code__ is not scaled_sum.__code__
    assert lowered.__code__.co_code == scaled_sum.__code__.co_code
    assert origin.is_converted(lowered.__code__)
    assert not origin.is_converted(scaled_sum.__code__)
    assert lowered.__closure__ is None and lowered.__defaults__ is None
    assert lowered(3.0, 1.0) == scaled_sum(3.0, 1.0)
    assert "z = x * 2.5 + y" in conversion.source


def _nested_codes(code: types.CodeType) -> list[types.CodeType]:
    found = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return found + [n for c in found for n in _nested_codes(c)]


def test_nested_code_of_a_function_left_as_written_is_copied_and_registered():
    lowered = convert.convert(with_helpers).instantiate(with_helpers, runtime)
    (made, shift, scale), (expected, plain_shift, plain_scale) = (
        lowered([1, 2], 3),
        with_helpers([1, 2], 3),
    )
    assert made == expected and shift(1) == plain_shift(1) and scale(2) == plain_scale(2)
    copies, originals = _nested_codes(lowered.__code__), _nested_codes(with_helpers.__code__)
    assert len(copies) == len(originals) >= 1
    for copied, original in zip(copies, originals):
        assert copied is not original and copied.co_code == original.co_code
        assert origin.is_converted(copied) and not origin.is_converted(original)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="code objects have no co_qualname")
def test_code_left_as_written_is_named_as_compiled_code_is():
    lowered = convert.convert(with_helpers).instantiate(with_helpers, runtime)
    compiled = convert._compile(
        convert.analyze(with_helpers).parsed.tree(),
        convert.analyze(with_helpers).parsed,
        with_helpers,
    )(runtime)
    assert lowered.__qualname__ == compiled.__qualname__
    assert [c.co_qualname for c in _nested_codes(lowered.__code__)] == [
        c.co_qualname for c in _nested_codes(compiled.__code__)
    ]


def test_a_function_lowering_rewrites_is_compiled_from_its_lowered_tree():
    lowered = convert.convert(with_a_conditional_expression).instantiate(
        with_a_conditional_expression, runtime
    )
    assert "_t" in lowered.__code__.co_varnames + lowered.__code__.co_freevars
    assert lowered(-2) == with_a_conditional_expression(-2) == 2


def test_a_closure_left_as_written_gets_fresh_cells_holding_its_values():
    offset = 5

    def add_offset(x):
        return x + offset

    lowered = convert.convert(add_offset).instantiate(add_offset, runtime)
    assert lowered.__closure__[0] is not add_offset.__closure__[0]
    assert lowered(1) == 6
    offset = 7
    assert lowered(1) == 6 and add_offset(1) == 8  # bound when instantiated, as compiled code is


class _Scaler:
    def __init__(self, weight):
        self.__weight = weight

    def apply(self, x):
        return x * self.__weight


def test_a_method_left_as_written_reads_its_private_attributes_as_python_does():
    scaler = _Scaler(3.0)
    lowered = convert.convert(_Scaler.apply).instantiate(_Scaler.apply, runtime)
    assert lowered(scaler, 2.0) == scaler.apply(2.0) == 6.0  # ``__weight`` is ``_Scaler__weight``


def _positives_counted(x):
    return len(list(filter(lambda v: v > 0, x)))


def _positives_counted_again(x):
    return len(list(filter(lambda v: v > 0, x)))


def test_a_builtin_the_module_redefines_is_not_read_as_the_builtin(monkeypatch):
    """``list(filter(lambda ...))`` is built as a loop only while ``filter`` is the builtin."""
    assert "comprehension_" in convert.convert(_positives_counted).source
    monkeypatch.setitem(globals(), "filter", lambda test, items: items)
    assert "comprehension_" not in convert.convert(_positives_counted_again).source


# ---- steps the analysed tree shows to be needless ---------------------------------------------


def default_flag(x, default=None):
    missing = default is None
    return x * 2.0, missing


def with_a_branching_helper(x):
    def clipped(v):
        if v > 1.0:
            return v * 0.0 + 1.0
        return v

    y = clipped(x)
    return y


def positives_doubled(x):
    kept = [v * 2.0 for v in x if v > 0]
    return kept


def test_an_is_none_test_without_control_flow_is_still_made_a_runtime_test():
    source = convert.lower(default_flag, frozenset()).source
    assert "_t.is_none(default)" in source
    compiled = tg.to_static(default_flag)
    for default in (None, 3.0):
        got, expected = compiled(np.arange(3.0), default), default_flag(np.arange(3.0), default)
        np.testing.assert_array_equal(got[0], expected[0])
        assert got[1] is expected[1]


def test_a_nested_function_s_control_flow_is_lowered_in_a_function_of_plain_statements():
    assert "_t.if_stmt" in convert.lower(with_a_branching_helper, frozenset()).source
    for x in (np.float64(0.5), np.float64(3.0)):
        got = tg.to_static(with_a_branching_helper)(x)
        assert got == with_a_branching_helper(x) and type(got) is type(with_a_branching_helper(x))


def test_a_comprehension_made_a_loop_is_canonicalized_from_its_new_nodes():
    x = np.array([1.5, -2.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FallbackWarning)
        got = tg.to_static(positives_doubled)(x)
    expected = positives_doubled(x)
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert a == b and type(a) is type(b)
