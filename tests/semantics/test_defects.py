"""Regression tests for the defects of issue 10, section 2, each written from the user's side:
the function compiled gives what it gives eagerly (``eager_oracle``), by a graph or by a
fallback that names the construct and the line; never an error from inside the compiler."""

import linecache
import warnings

import numpy as np
import pytest
from eager_oracle import assert_matches_eager

import tograph as tg
from tograph.backend import codegen
from tograph.lowering import convert
from tograph.passes import manager
from tograph.staging import build_graph

VEC = np.array([1.0, -2.0, 3.0])


def branchy(x):
    if x.sum() > 0:
        x = x * 2
    return x + 1


def _raise_inside(*_args, **_kwargs):
    raise KeyError("a bug in the compiler")


# ---- crash safety: an exception inside the compiler becomes a fallback with its reason -------


@pytest.mark.parametrize(
    "module, name",
    [
        (convert, "analyze"),
        (convert, "lower"),
        (build_graph, "build_graph"),
        (manager, "run_passes"),
        (codegen, "compile_graph"),
    ],
)
def test_an_exception_in_any_compiler_stage_falls_back(monkeypatch, module, name):
    monkeypatch.setattr(module, name, _raise_inside)
    cf = assert_matches_eager(branchy, VEC, compiles=False)
    assert "KeyError" in cf.fallback
    with pytest.raises(tg.ConversionError, match="a bug in the compiler"):
        tg.to_static(branchy, fallback="error")(VEC)


def _compiled_from_source(name, source):
    """A function defined by ``source`` in a file of its own (its source readable by inspect)."""
    filename = f"<defects {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - the test's own source
    return namespace[name]


def _elif_chain(arms):
    lines = ["def chain(x):", "    s = x.sum()"]
    for i in range(arms):
        lines += [f"    {'if' if i == 0 else 'elif'} s > {arms - i}:", f"        return x * {i}"]
    lines.append("    return x - 1")
    return _compiled_from_source("chain", "\n".join(lines) + "\n")


@pytest.mark.parametrize("arms, construct", [(120, "deeply nested"), (250, "nesting depth")])
def test_long_elif_chains_fall_back_naming_the_cause(arms, construct):
    chain = _elif_chain(arms)
    for value in (0.5, 60.5, 1000.0):
        cf = assert_matches_eager(chain, np.array([value]), compiles=False)
    assert "nested too deeply" in cf.fallback
    with pytest.warns(tg.FallbackWarning, match=construct):
        tg.to_static(chain)(VEC)


def halve_until_small(x):
    if x.sum() < 1:
        return x
    return halve_until_small(x / 2)


def test_recursion_ending_on_a_tensor_falls_back_at_the_recursive_call():
    cf = assert_matches_eager(halve_until_small, np.array([10.0]), compiles=False)
    assert "recursion" in cf.fallback
    first = halve_until_small.__code__.co_firstlineno
    assert any(f"test_defects.py:{first + k})" in cf.fallback for k in (1, 2, 3))


def test_fallback_error_mode_reports_the_recursion():
    with pytest.raises(tg.ConversionError, match="recursion too deep"):
        tg.to_static(halve_until_small, fallback="error")(np.array([10.0]))


# ---- `is` on values that are Python bools or numbers in eager code ---------------------------


def loop_while_flag_is_false(x):
    flag = False
    n = 0
    while flag is False:
        n += 1
        if x.sum() < n:
            flag = True
    return n


def loop_while_flag_is_not_true(x):
    flag = False
    n = 0
    while flag is not True:
        n += 1
        flag = bool(x.sum() < n) or flag
    return n, flag


def flags_compared_by_identity(x):
    hit = False
    if x.max() > 2:
        hit = True
    return hit is True, hit is not False, hit is None, not hit, (x.sum() > 0) is True


def weak_number_identity(x):
    count = 0
    if x.sum() > 0:
        count = 1
    return count == 1 and count is not None, count is int("0")


@pytest.mark.parametrize(
    "fn", [loop_while_flag_is_false, loop_while_flag_is_not_true, flags_compared_by_identity]
)
@pytest.mark.parametrize("x", [np.array([4.5]), np.array([-1.0, 3.0]), VEC])
def test_identity_of_python_bools_compares_their_values(fn, x):
    assert_matches_eager(fn, x)


def test_identity_of_numbers_falls_back():
    for x in (VEC, -VEC):
        cf = assert_matches_eager(weak_number_identity, x, compiles=False)
    assert "'is' between numbers" in cf.fallback


# ---- chained comparisons evaluate each operand once ------------------------------------------


def announced(v):
    print("evaluating", v.shape)
    return v.sum()


def chained_with_effects(x):
    return 0 < announced(x) < 10 < announced(x * 4)


@pytest.mark.parametrize("x", [VEC, -VEC, np.array([5.0])])
def test_chained_comparison_evaluates_each_operand_once(x, capsys):
    assert_matches_eager(chained_with_effects, x)
    printed = capsys.readouterr().out.splitlines()
    half = len(printed) // 2
    assert printed[:half] == printed[half:] and half in (1, 2)


# ---- builtins and operators on tensors give what they give on arrays --------------------------


def kinds_of_values(x):
    total = x.sum()
    count = len(x) + 0
    return (
        type(x),
        type(total),
        type(count),
        type(x) is np.ndarray,
        isinstance(total, np.floating),
        isinstance(total, np.float64),
        isinstance(total, float),
        isinstance(count, int),
        isinstance(x, (np.generic, list)),
    )


def compared_with_a_list(x):
    return x == [1.0, -2.0, 0.0], [3.0, 2.0, 1.0] != x, x * [1, 2, 3], (1, 2, 3) + x


def compared_with_a_list_of_tensors(x):
    return x == [x.sum(), 1.0, 2.0]


def quotient_and_remainder(x):
    q, r = divmod(x, 2.0)
    qs, rs = divmod(x.sum(), 3)
    return q, r, qs, rs, divmod(7, x.astype(np.int64))


def loop_over_float_range(x):
    total = 0.0
    for i in range(x.sum()):
        total += i
    return total


def largest_row(x):
    return max(x)


@pytest.mark.parametrize("fn", [kinds_of_values, compared_with_a_list, quotient_and_remainder])
def test_builtins_and_operators_match_eager(fn):
    assert_matches_eager(fn, VEC)


@pytest.mark.parametrize(
    "fn, x",
    [
        (compared_with_a_list_of_tensors, VEC),
        (loop_over_float_range, VEC),
        (largest_row, np.arange(6.0).reshape(2, 3)),
        (largest_row, np.arange(3.0).reshape(3, 1)),
    ],
)
def test_what_a_graph_cannot_decide_or_eager_raises_falls_back(fn, x):
    assert_matches_eager(fn, x, compiles=False)


@pytest.mark.parametrize("x", [VEC, np.array([np.nan, 1.0]), np.array([1.0, np.nan, 3.0])])
def test_max_of_a_vector_compiles(x):
    assert_matches_eager(largest_row, x)


def int_of(x):
    return int(x * 2)


def float_of(x):
    return float(x - 1)


@pytest.mark.parametrize("fn", [int_of, float_of])
@pytest.mark.parametrize("x", [VEC, np.arange(3.0).reshape(3, 1)])
def test_int_and_float_of_an_array_raise_type_error_as_eager(fn, x):
    with pytest.raises(TypeError):
        fn(x)
    assert_matches_eager(fn, x, compiles=False)


# ---- strings formatted from tensors ----------------------------------------------------------


def returns_an_fstring(x):
    return f"sum={x.sum():.2f}"


def returns_str_of_a_tensor(x):
    return str(x.sum()) + "!"


def prints_str_and_repr(x):
    print(str(x.sum()), repr(x.max()), format(x.min(), ".1f"))
    return x


# (an exception's message formatted from tensors compiles: test_raise_messages)
@pytest.mark.parametrize("fn", [returns_an_fstring, returns_str_of_a_tensor])
@pytest.mark.parametrize("x", [VEC, -VEC])
def test_strings_of_tensors_outside_print_fall_back(fn, x):
    cf = assert_matches_eager(fn, x, compiles=False)
    assert "string formatted from a tensor" in cf.fallback


def test_str_repr_and_format_of_tensors_print_at_run_time(capsys):
    assert_matches_eager(prints_str_and_repr, VEC)
    eager, compiled = capsys.readouterr().out.splitlines()
    assert eager == compiled == "2.0 np.float64(3.0) -2.0"


# ---- names: nested scopes and walrus ---------------------------------------------------------


def closure_reads_a_variable_set_in_a_branch(x):
    k = 3.0
    scale = lambda v: v * k  # noqa: E731 - a lambda, like a nested def, reads k when called

    def shift(v):
        return v + k

    if x.sum() > 0:
        k = 4.0
    return scale(x), shift(x)


def closure_called_in_a_tensor_loop(x):
    k = 1.0

    def scale(v):
        return v * k

    total = x
    for j in range(3):
        if x.sum() > j:
            k = k + 1.0
        total = total + scale(x)
    return total


def walrus_in_a_comprehension_in_a_branch(x):
    last = 0.0
    if x.sum() > 0:
        doubled = [(last := v * 2) for v in [1.0, 2.0]]
        x = x + len(doubled)
    return x + last


@pytest.mark.parametrize(
    "fn",
    [
        closure_reads_a_variable_set_in_a_branch,
        walrus_in_a_comprehension_in_a_branch,
    ],
)
@pytest.mark.parametrize("x", [VEC, -VEC])
def test_names_bound_or_read_in_nested_scopes(fn, x):
    assert_matches_eager(fn, x)


@pytest.mark.parametrize("x", [VEC, -VEC])
def test_a_closure_called_in_a_block_that_assigns_its_variable_falls_back(x):
    cf = assert_matches_eager(closure_called_in_a_tensor_loop, x, compiles=False)
    assert "closure 'scale' over variable 'k'" in cf.fallback


# ---- arguments: signed zeros, NaN, ndarray subclasses, input_spec, big ints ------------------


def divide(x, s):
    return x / s


def test_zero_and_negative_zero_are_different_static_arguments():
    f = tg.to_static(divide)
    with np.errstate(divide="ignore"):
        for s in (0.0, -0.0, 0.0, -0.0):
            assert_matches_eager(divide, np.array([1.0, -1.0]), s)
            expected = divide(np.array([1.0]), s)
            np.testing.assert_array_equal(f(np.array([1.0]), s), expected)


def test_nan_arguments_share_one_cache_entry():
    f = tg.to_static(divide)
    for _ in range(20):
        assert np.isnan(f(np.array([1.0]), float("nan"))).all()
    assert len(f.concrete_functions) == 1
    assert len(f._fast) == 1  # noqa: SLF001 - the fast path's table is what grew


def scaled_rows(m):
    return m * m, m.sum(axis=0), m.shape


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize(
    "make",
    [
        lambda: np.matrix([[1.0, 2.0], [3.0, 4.0]]),
        lambda: np.ma.masked_array([1.0, 2.0, 3.0], [0, 1, 0]),
    ],
)
def test_ndarray_subclasses_fall_back(make):
    cf = assert_matches_eager(scaled_rows, make(), compiles=False)
    assert "subclass of ndarray" in cf.fallback


def doubled(x):
    return x * 2


@pytest.mark.parametrize(
    "spec, value",
    [
        (tg.TensorSpec((3,), np.float32), 3.0),
        (tg.TensorSpec((), np.float32), 3.0),
        (tg.TensorSpec((), np.int32), 3),
        (tg.TensorSpec((), np.float64), 3),
    ],
)
def test_input_spec_is_enforced_for_python_numbers(spec, value):
    f = tg.to_static(doubled, input_spec=[spec])
    with pytest.raises(tg.ToGraphError, match="input_spec"):
        f(value)


@pytest.mark.parametrize(
    "spec, value", [(tg.TensorSpec((), np.float64), 3.0), (tg.TensorSpec(()), 4)]
)
def test_python_numbers_that_fit_their_input_spec_keep_their_kind(spec, value):
    got = tg.to_static(doubled, input_spec=[spec])(value)
    assert type(got) is type(doubled(value)) and got == doubled(value)


def add_a_big_int(x):
    return x + 2**70


@pytest.mark.parametrize("x", [VEC, np.array([1, 2])])
def test_python_ints_beyond_int64_fall_back(x):
    cf = assert_matches_eager(add_a_big_int, x, compiles=False)
    assert "does not fit in 64 bits" in cf.fallback


# ---- caches are bounded, and retracing keeps being reported ----------------------------------


def scaled(x, k):
    return x * k


def test_caches_keep_the_most_recent_signatures_and_warn_as_retraces_double():
    f = tg.to_static(scaled)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(100):
            assert f(VEC, k).tolist() == (VEC * k).tolist()
    retraces = [str(w.message) for w in caught if issubclass(w.category, tg.RetracingWarning)]
    assert [m.split(" has been traced ")[1].split()[0] for m in retraces] == ["9", "18", "36", "72"]
    assert len(f.concrete_functions) == 64 and len(f._fast) <= 256  # noqa: SLF001
    assert f.concrete(VEC, 99).signature in [cf.signature for cf in f.concrete_functions]


# ---- loops over long static ranges are while_loops, not unrolled -----------------------------


def counts_through_a_long_range(x):
    total = 0
    mean = 0.0
    flag = False
    for i in range(5000):
        total += i
        mean += 0.5
        if i % 7 == 0:
            flag = not flag
        if i == 4321:
            x = x * 2
    return total, mean, flag, x


def fills_an_array_in_a_long_range(x):
    out = np.zeros(1500)
    squares = []
    for i in range(1500):
        out[i] = i * x[0]
        squares.append(i * i)
    return out, squares


def stops_early_in_a_huge_range(x):
    s = 0
    i = 0
    for i in range(10**9):
        if i * x.sum() > 50:
            break
        s += i
    return s, i


def indexes_a_python_list_in_a_long_range(x):
    table = list(range(3000))
    s = 0
    for i in range(3000):
        s += table[i]
    return x + s


@pytest.mark.parametrize(
    "fn", [counts_through_a_long_range, fills_an_array_in_a_long_range, stops_early_in_a_huge_range]
)
def test_a_long_static_range_is_a_while_loop(fn):
    cf = assert_matches_eager(fn, VEC)
    assert cf.op_counts().get("while_loop") == 1
    assert sum(cf.op_counts().values()) < 60


def keys_a_dict_in_a_long_range(x):
    table = {i: i * 2 for i in range(3000)}
    s = 0
    for i in range(3000):
        s += table[i]
    return x + s


def test_a_long_range_whose_index_must_be_a_python_int_falls_back():
    cf = assert_matches_eager(keys_a_dict_in_a_long_range, VEC, compiles=False)
    assert "hashed" in cf.fallback


def test_a_long_range_indexes_a_python_list_of_numbers_as_a_table():
    cf = assert_matches_eager(indexes_a_python_list_in_a_long_range, VEC)
    assert cf.op_counts().get("while_loop") == 1


def counts_with_a_python_counter(x):
    i = 0
    total = 0.0
    while i < 100_000:
        x = x + 1
        total += i
        i += 1
    return x, i, total


def builds_a_long_python_string(x):
    text = ""
    i = 0
    while i < 1500:
        text = text + "a"
        i += 1
    return x, len(text)


def test_a_long_while_on_a_python_counter_is_a_while_loop():
    cf = assert_matches_eager(counts_with_a_python_counter, VEC)
    assert cf.op_counts().get("while_loop") == 1


def test_a_long_while_carrying_python_values_falls_back():
    assert_matches_eager(builds_a_long_python_string, VEC, compiles=False)


# ---- a loop carry that starts as a Python int and becomes a float ---------------------------


def halves_while_positive(x):
    r = 0
    i = 0
    while i < x.sum():
        r = r + 0.5
        i += 1
    return r


@pytest.mark.parametrize("x", [np.array([2.0]), np.array([0.5]), np.array([0.0])])
def test_an_int_carry_that_becomes_a_float_has_eagers_kind(x):
    assert_matches_eager(halves_while_positive, x)


# ---- hashing and max/min of several values ---------------------------------------------------


def hashes_a_value(x):
    return hash(x.sum())


def distinct_items(x):
    return set(x)


def keyed_by_items(x):
    return {v: 1 for v in x}


def larger_of_mixed_kinds(x):
    return max(x.sum(), 0.0), min(0, x.max())


def larger_of_two_arrays(x):
    return max(x, x * 2)


def larger_of_like_values(x):
    total, peak = x.sum(), x.max()
    count = len(x) + 0
    return max(total, peak), min(total, peak, x.min()), max(count, 2), min(3, count)


@pytest.mark.parametrize(
    "fn, x",
    [
        (hashes_a_value, VEC),
        (distinct_items, VEC),
        (distinct_items, np.arange(6.0).reshape(3, 2)),
        (keyed_by_items, VEC),
        (larger_of_mixed_kinds, VEC),
        (larger_of_mixed_kinds, -VEC),
        (larger_of_two_arrays, VEC),
    ],
)
def test_values_needed_by_python_fall_back_or_raise_as_eager(fn, x):
    assert_matches_eager(fn, x, compiles=False)


@pytest.mark.parametrize("x", [VEC, -VEC, np.array([5.0])])
def test_max_and_min_of_values_of_one_kind_compile(x):
    assert_matches_eager(larger_of_like_values, x)


# ---- warnings raised by the function's static Python code ------------------------------------


def _warnings_of(fn, *args):
    """The messages and lines of the warnings ``fn(*args)`` gives, tograph's own left out."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    return [(str(w.message), w.lineno) for w in caught if w.category is RuntimeWarning]


def static_division_in_loop(x):
    s = x.sum()
    y = 0.0
    while s > 0:
        s = s - 1.0
        y = np.float64(1.0) / 0.0
    return s, y


def static_log_in_branch_not_taken(x):
    if x.sum() > 0:
        y = x
    else:
        y = x * np.log(0.0)
    return y


@pytest.mark.parametrize("fn", [static_division_in_loop, static_log_in_branch_not_taken])
def test_a_warning_from_static_code_warns_as_eager_on_every_call(fn):
    # static code runs once while the graph is built (and in both branches): its warning would
    # come at the wrong times, so the function runs eagerly, named with the line that warned
    static = tg.to_static(fn)
    with pytest.warns(tg.FallbackWarning, match=r"RuntimeWarning .* while the graph was built"):
        static(VEC)
    for _ in range(2):
        assert _warnings_of(static, VEC) == _warnings_of(fn, VEC)
    assert_matches_eager(fn, VEC, compiles=False)


def warns_only_past_a_static_return(x, done):
    if done:
        return x
    return x * (np.float64(1.0) / 0.0)


def test_type_inference_does_not_warn_for_code_the_call_does_not_run():
    static = tg.to_static(warns_only_past_a_static_return)
    assert (
        _warnings_of(static, VEC, True)
        == _warnings_of(warns_only_past_a_static_return, VEC, True)
        == []
    )
    assert static.concrete(VEC, True).fallback is None


def test_an_array_of_many_numbers_whose_kinds_depend_on_the_path_builds_in_linear_time():
    # each number is a Python float or an np.float64 by path: checking every combination of
    # kinds took 2^24 steps; np.array's type depends only on which kinds occur
    lines = ["def gather(x):"]
    for i in range(24):
        lines += [f"    a{i} = 1.5", f"    if x[{i % 3}] > 0:", f"        a{i} = np.float64(x[0])"]
    lines.append("    return np.array([" + ", ".join(f"a{i}" for i in range(24)) + "])")
    gather = _compiled_from_source("gather", "\n".join(lines) + "\n")
    for x in ([1.0, -2.0, 3.0], [-1.0, 2.0, -3.0]):
        assert_matches_eager(gather, np.array(x))
