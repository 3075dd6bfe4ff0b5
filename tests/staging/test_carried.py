"""Carried values: variables flattened to leaves with display paths (``state[0]['k']``), static
leaves compared by type and bits, leaves converted to a joined type, placeholders aligned and
zero-filled, and ``merge_branches`` / ``widen_carries``: the joined types (NumPy promotion, unknown
dims where they differ, weak only when both are) and the errors that name the variable."""

import collections

import numpy as np
import pytest

from tograph import errors
from tograph.ir import types
from tograph.ops import lists
from tograph.staging import carried
from tograph.trace import builder as builder_mod

Pair = collections.namedtuple("Pair", "a b")


class Opaque:
    """A value whose ``==`` is not a truth value (as arrays' is not)."""

    def __eq__(self, other):
        return "maybe"

    __hash__ = object.__hash__


Undefined, Placeholder = carried.Undefined, carried.Placeholder

F64_3 = types.TensorType(np.float64, (3,))
F32_4 = types.TensorType(np.float32, (4,))
F64 = types.TensorType(np.float64, ())
WEAK_INT = types.TensorType(np.int64, (), weak=True)


@pytest.fixture
def sym():
    """Symbolic inputs x:f64[3], y:f32[4], s:f64[], w:i64[]~ of a builder that stays active."""
    b = builder_mod.GraphBuilder("g")
    with b.active():
        yield {
            "b": b,
            "x": b.add_input(F64_3, "x"),
            "y": b.add_input(F32_4, "y"),
            "s": b.add_input(F64, "s"),
            "w": b.add_input(WEAK_INT, "w"),
        }


def flat(*pairs):
    """``carried.flatten`` of (name, value) pairs."""
    return carried.flatten([v for _, v in pairs], [n for n, _ in pairs])


def merge(name, a, b):
    return carried.merge_branches(flat((name, a)), flat((name, b)))


def widen(name, before, after, carry):
    return carried.widen_carries(flat((name, before)), flat((name, after)), carry)


# ---- flatten -----------------------------------------------------------------------------------


def test_flatten_gives_leaves_with_paths_and_roots():
    f = flat(("state", (1, {"k": 2.0, "j": [3]})), ("p", Pair(4, 5)), ("n", 6))
    assert f.leaves == [1, 2.0, 3, 4, 5, 6]
    assert f.paths == ["state[0]", "state[1]['k']", "state[1]['j'][0]", "p[0]", "p[1]", "n"]
    assert f.roots == ["state", "state", "state", "p", "p", "n"]
    assert [t.num_leaves for t in f.trees] == [3, 2, 1]


def test_unflatten_rebuilds_each_variable():
    f = flat(("state", (1, {"k": 2.0, "j": [3]})), ("p", Pair(4, 5)), ("n", 6))
    rebuilt = f.unflatten(list("abcdef"))
    assert rebuilt == (("a", {"k": "b", "j": ["c"]}), Pair("d", "e"), "f")
    assert type(rebuilt[1]) is Pair and type(rebuilt[0][1]["j"]) is list


def test_flatten_needs_a_name_per_value():
    with pytest.raises(errors.InternalError, match="2 values but 1 names"):
        carried.flatten([1, 2], ["a"])


# ---- leaves ------------------------------------------------------------------------------------


def test_undefined_and_placeholder():
    assert repr(Undefined("x")) == "Undefined('x')"
    assert repr(Placeholder("retval")) == "Placeholder('retval')"
    assert isinstance(Placeholder("r"), Undefined)


def test_is_tensor_like_and_type_of(sym):
    x, w = sym["x"], sym["w"]
    lst = lists.new()
    for value in (x, lst, 1, 2.5, True, np.float32(1), np.ones(2)):
        assert carried.is_tensor_like(value)
    for value in ("a", None, [1.0], Undefined("u"), object()):
        assert not carried.is_tensor_like(value)
    assert carried.type_of(x) == F64_3 and carried.type_of(w) == WEAK_INT
    assert carried.type_of(lst) == types.ListType(None)
    assert carried.type_of(2) == WEAK_INT
    assert carried.type_of(np.ones((2, 2), np.float32)) == types.TensorType(np.float32, (2, 2))


@pytest.mark.parametrize(
    "a, b, same",
    [
        (1, 1, True),
        (1, True, False),
        (1, 1.0, False),
        (0.0, -0.0, False),
        (float("nan"), float("nan"), True),
        ("a", "a", True),
        ("a", "b", False),
        (None, None, True),
        (np.float32(1), np.float64(1), False),
        (np.array([1.0, np.nan]), np.array([1.0, np.nan]), True),
        (np.array([0.0]), np.array([-0.0]), False),
        (np.ones(2), np.ones(3), False),
        (np.ones(2, np.int32), np.ones(2, np.int64), False),
        ((1, 2), (1, 2), True),
        (Opaque(), Opaque(), False),  # == gives no single truth value
        (Undefined("a"), Placeholder("b"), True),
    ],
    ids=repr,
)
def test_same_static(a, b, same):
    assert carried.same_static(a, b) is same


def test_symbolic_values_are_the_same_only_when_identical(sym):
    x = sym["x"]
    assert carried.same_static(x, x)
    assert not carried.same_static(x, x + 0)


def test_describe(sym):
    assert carried.describe(sym["x"]) == "a tensor (f64[3])"
    assert carried.describe(lists.new()) == "a list (list[?])"
    assert carried.describe(Undefined("v")) == "unset"
    assert carried.describe("text") == "'text'"
    assert carried.describe(None) == "None"
    assert carried.describe(np.sum) == "function sum"
    assert carried.describe(len) == "function len"


@pytest.mark.parametrize(
    "path, subject",
    [
        ("y", "variable 'y'"),
        ("state[0]", "variable 'state[0]'"),
        ("retval", "the return value"),
        ("retval_1[0]", "the return value[0]"),
        ("retvals", "variable 'retvals'"),
        ("expression value", "the value of the conditional expression"),
    ],
)
def test_contrast_names_what_the_compiler_made_in_the_users_terms(path, subject):
    """Messages said "variable 'retval[0]'" of a return value: a name the user never wrote."""
    message = carried.contrast(path, "1", "None", ("here", "there"))
    assert message == f"{subject} is 1 here but None there"


# ---- convert -----------------------------------------------------------------------------------


def test_convert_emits_astype_only_where_dtype_or_weakness_differ(sym):
    b, s, w = sym["b"], sym["s"], sym["w"]
    assert carried.convert(s, types.TensorType(np.float64, (None,))) is s  # dims do not matter
    f32 = carried.convert(s, types.TensorType(np.float32, ()))
    strong = carried.convert(w, types.TensorType(np.int64, ()))
    assert [str(e.prim) + str(sorted(e.params.items())) for e in b.eqns] == [
        "astype[('dtype', dtype('float32')), ('weak', False)]",
        "astype[('dtype', dtype('int64')), ('weak', False)]",
    ]
    assert f32.type == types.TensorType(np.float32, ()) and strong.type.weak is False


@pytest.mark.parametrize(
    "value, target, expected",
    [
        (1, types.TensorType(np.float64, ()), np.float64(1.0)),
        (1, types.TensorType(np.float64, (), weak=True), 1.0),
        (True, WEAK_INT, 1),
        (np.int32(3), types.TensorType(np.int64, ()), np.int64(3)),
    ],
    ids=repr,
)
def test_convert_of_numbers_computes_at_once(value, target, expected):
    got = carried.convert(value, target)
    assert type(got) is type(expected) and got == expected


def test_convert_leaves_lists_alone(sym):
    lst = lists.new()
    assert carried.convert(lst, types.ListType(F64)) is lst
    assert [e.prim.name for e in sym["b"].eqns] == ["list_new"]  # nothing after the new list


def test_a_placeholder_becomes_a_zero_of_the_target_type():
    zero = carried.convert(Placeholder("r"), types.TensorType(np.float32, (None, 2)))
    assert zero.dtype == np.float32 and zero.shape == (0, 2)
    scalar = carried.convert(Placeholder("r"), F64)
    assert type(scalar) is np.float64 and scalar == 0
    weak = carried.convert(Placeholder("r"), WEAK_INT)
    assert type(weak) is int and weak == 0
    with pytest.raises(errors.ConversionError, match="'r' is a list on one path and unset"):
        carried.convert(Placeholder("r"), types.ListType(None))


def test_align_placeholders_takes_the_other_sides_structure():
    a, b = carried.align_placeholders(Placeholder("r"), (1, [2, 3]))
    assert b == (1, [2, 3])
    assert isinstance(a, tuple) and isinstance(a[1], list)
    assert all(isinstance(p, Placeholder) and p.name == "r" for p in (a[0], *a[1]))
    b2, a2 = carried.align_placeholders({"k": (1, 2)}, {"k": Placeholder("q")})
    assert b2 == {"k": (1, 2)} and len(a2["k"]) == 2
    assert all(isinstance(p, Placeholder) for p in a2["k"])
    pair = carried.align_placeholders(Pair(Placeholder("p"), 1), Pair((1, 2), 1))
    assert type(pair[0]) is Pair and len(pair[0].a) == 2


def test_align_placeholders_leaves_what_cannot_match():
    keys = ({"a": Placeholder("r")}, {"b": (1, 2)})
    assert carried.align_placeholders(*keys) == keys
    lengths = ((Placeholder("r"),), (1, 2))
    assert carried.align_placeholders(*lengths) == lengths
    leaves = (Placeholder("r"), 3)
    assert carried.align_placeholders(*leaves) == leaves


# ---- merge_branches ----------------------------------------------------------------------------


def test_merge_keeps_agreed_static_values_and_joins_tensors(sym):
    x, s, w = sym["x"], sym["s"], sym["w"]
    z = sym["b"].add_input(types.TensorType(np.float64, (4,)), "z")
    joined = merge("state", (x, 1, "mode", z, w, s), (x, 1, "mode", x, 2.5, 3))
    assert joined == [
        None,  # the very same tensor after both branches: nothing to merge
        None,
        None,
        types.TensorType(np.float64, (None,)),
        types.TensorType(np.float64, (), weak=True),
        F64,
    ]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (1, 2, types.TensorType(np.int64, (), weak=True)),
        (1, 2.5, types.TensorType(np.float64, (), weak=True)),
        (True, 2, types.TensorType(np.int64, (), weak=True)),
        (1, np.float32(2), types.TensorType(np.float32, ())),
        (np.int8(1), np.uint8(2), types.TensorType(np.int16, ())),
        (np.ones(2), np.ones(3), types.TensorType(np.float64, (None,))),
        (
            np.ones((2, 3), np.int32),
            np.ones((2, 1), np.int32),
            types.TensorType(np.int32, (2, None)),
        ),
    ],
    ids=repr,
)
def test_merge_of_numbers_follows_numpy_promotion(a, b, expected):
    assert merge("v", a, b) == [expected]
    assert np.result_type(a, b) == expected.dtype


def test_merge_with_a_placeholder_takes_the_other_sides_type(sym):
    s = sym["s"]
    assert merge("retval", Placeholder("retval"), s) == [F64]
    assert merge("retval", 2, Placeholder("retval")) == [WEAK_INT]
    assert merge("retval", Placeholder("retval"), Undefined("retval")) == [None]


def test_merge_errors_name_the_variable_and_its_path(sym):
    x, s = sym["x"], sym["s"]
    cases = [
        (
            ("v", x, Undefined("v")),
            errors.ConversionError,
            "variable 'v' is set only in the if-branch; cond needs it in both branches",
            "initialise 'v' before the if",
        ),
        (
            ("v", Undefined("v"), x),
            errors.ConversionError,
            "variable 'v' is set only in the else-branch; cond needs it in both branches",
            "initialise 'v' before the if",
        ),
        (
            ("v", (x, x), (x,)),
            errors.ConversionError,
            "variable 'v' is a tuple of 2 in the if-branch but a tuple of 1 in the else-branch",
            "give it the same structure in both branches",
        ),
        (
            ("v", [x], (x,)),
            errors.ConversionError,
            "variable 'v' is a list of 1 in the if-branch but a tuple of 1 in the else-branch",
            "give it the same structure in both branches",
        ),
        (  # named at the first item that differs: `return [], z` facing `return found, z`
            ("v", ([], x), ((x,), x)),
            errors.ConversionError,
            "variable 'v[0]' is a list of 0 in the if-branch but a tuple of 1 in the else-branch",
            "give it the same structure in both branches",
        ),
        (
            ("state", (x, "a"), (x, "b")),
            errors.ConversionError,
            "variable 'state[1]' is 'a' in the if-branch but 'b' in the else-branch",
            "must be the same in both branches",
        ),
        (
            ("v", x, None),
            errors.ConversionError,
            "variable 'v' is a tensor (f64[3]) in the if-branch but None in the else-branch",
            "must be the same in both branches",
        ),
        (
            ("state", [{"k": x}], [{"k": s}]),
            errors.ShapeError,
            "variable 'state[0]['k']' is f64[3] in the if-branch but f64[] in the else-branch: "
            "values of rank 1 (f64[3]) and rank 0 (f64[]) cannot be merged",
            None,
        ),
        (
            ("acc", lists.new(), s),
            errors.DTypeError,
            "variable 'acc' is list[?] in the if-branch but f64[] in the else-branch: "
            "a list (list[?]) and a tensor (f64[]) cannot be merged",
            None,
        ),
    ]
    for (name, a, b), kind, message, hint in cases:
        with pytest.raises(kind) as info:
            merge(name, a, b)
        assert info.value.message == message
        assert info.value.hint is None if hint is None else hint in info.value.hint


# ---- widen_carries -----------------------------------------------------------------------------


def test_widen_keeps_stable_carries_and_static_values(sym):
    x = sym["x"]
    carry = [F64_3, WEAK_INT, None]
    assert widen("st", (x, 1, "k"), (x + 1, 2, "k"), carry) == carry


def test_widen_relaxes_dims_and_promotes_dtypes(sym):
    x, s = sym["x"], sym["s"]
    z = sym["b"].add_input(types.TensorType(np.float64, (4,)), "z")
    assert widen("v", x, z, [F64_3]) == [types.TensorType(np.float64, (None,))]
    assert widen("i", 0, s, [WEAK_INT]) == [F64]
    assert widen("i", 0, 0.5, [WEAK_INT]) == [types.TensorType(np.float64, (), weak=True)]
    # the carry, not the initial value, is what the body's result is joined with
    assert widen("v", x, x, [types.TensorType(np.float64, (None,))]) == [
        types.TensorType(np.float64, (None,))
    ]


def test_widen_gives_a_placeholder_the_bodys_type(sym):
    assert widen("best", Placeholder("best"), sym["s"], [None]) == [F64]


def test_widen_errors_name_the_variable_and_its_path(sym):
    x, s = sym["x"], sym["s"]
    cases = [
        (
            ("v", Undefined("v"), x, [None]),
            errors.ConversionError,
            "variable 'v' is first set inside a loop over tensors; initialise it before the loop",
            "give 'v' a value of the same type and shape before the loop",
        ),
        (
            ("v", [x], [x, x], [F64_3]),
            errors.ConversionError,
            "variable 'v' is a list of 1 before the loop but a list of 2 after the loop body",
            "a list that grows must be a tensor list",
        ),
        (
            ("v", {"k": "a"}, {"k": "b"}, [None]),
            errors.ConversionError,
            "variable 'v['k']' is 'a' before the loop but 'b' after the loop body",
            "cannot change in a loop over tensors",
        ),
        (
            ("v", {"k": x}, {"k": None}, [F64_3]),
            errors.ConversionError,
            "variable 'v['k']' is a tensor (f64[3]) before the loop but None after the loop body",
            "keep it a tensor of the same rank throughout the loop",
        ),
        (
            ("v", (0, x), (0, s), [WEAK_INT, F64_3]),
            errors.ShapeError,
            "variable 'v[1]' is f64[3] before the loop but f64[] after the loop body: "
            "values of rank 1 (f64[3]) and rank 0 (f64[]) cannot be merged",
            None,
        ),
    ]
    for (name, before, after, carry), kind, message, hint in cases:
        with pytest.raises(kind) as info:
            widen(name, before, after, carry)
        assert info.value.message == message
        assert info.value.hint is None if hint is None else hint in info.value.hint


def test_join_named_and_contrast():
    f64_4 = types.TensorType(np.float64, (4,))
    assert carried.join_named(F64_3, f64_4, "v", ("a", "b")) == types.TensorType(
        np.float64, (None,)
    )
    assert carried.contrast("p[0]", "1", "2", ("here", "there")) == (
        "variable 'p[0]' is 1 here but 2 there"
    )
    with pytest.raises(errors.DTypeError) as info:
        carried.join_named(F64, types.ListType(None), "v", ("here", "there"))
    assert info.value.message.startswith("variable 'v' is f64[] here but list[?] there: ")


def test_arrays_whose_dtype_depends_on_the_path_are_refused(sym):
    x, y = sym["x"], sym["y"]
    for run in (
        lambda: merge("v", x, y),
        lambda: widen("v", x, np.ones(3, np.complex64), [F64_3]),
        lambda: carried.join_named(F64_3, F32_4, "v", ("before", "after")),
    ):
        with pytest.raises(errors.UnsupportedError, match="dtype would depend on the path"):
            run()
