"""Call signatures: which argument leaves become graph inputs (arrays) and which stay static, the
input names and types (``input_spec`` with None dims included), the cache key (static numbers by
type and bits, objects by identity, classes and functions by value), the errors for arguments
that do not fit their spec, and ``rebuild``."""

import collections
import inspect

import numpy as np
import pytest

from tograph import errors
from tograph.ir import types
from tograph.trace import signature as sig_mod

Point = collections.namedtuple("Point", "x y")


def make(args, kwargs=None, names=None, input_spec=None):
    names = [f"a{i}" for i in range(len(args))] if names is None else names
    return sig_mod.make_signature(tuple(args), kwargs or {}, names, input_spec)


def key(*args, **kwargs):
    return make(args, kwargs)[0].key


def test_bind_applies_defaults_and_names_positional_parameters():
    def f(a, b=2.0, *rest, k=None, **extra):
        pass

    args, kwargs, names = sig_mod.bind(inspect.signature(f), (1, 2, 3, 4), {"z": 5})
    assert args == (1, 2, 3, 4)
    assert kwargs == {"k": None, "z": 5}
    assert names == ["a", "b", "rest_0", "rest_1"]
    args, kwargs, names = sig_mod.bind(inspect.signature(f), (1,), {"k": 3})
    assert (args, kwargs, names) == ((1, 2.0), {"k": 3}, ["a", "b"])
    with pytest.raises(TypeError):
        sig_mod.bind(inspect.signature(f), (), {})


@pytest.mark.parametrize(
    "value",
    [
        np.ones(3),
        np.float32(1.5),
        np.int8(3),
        np.bool_(True),
        np.array(2.0),
        np.zeros((0, 2), np.uint16),
        np.complex128(1j),
    ],
    ids=repr,
)
def test_numpy_numbers_are_tensor_inputs_typed_by_dtype_and_shape(value):
    sig, tensors = make([value])
    assert sig.slots == (0,)
    assert sig.input_types == (types.type_of(value),)
    assert not sig.input_types[0].weak
    assert sig.input_names == ("a0",)
    assert len(tensors) == 1 and tensors[0] is value


@pytest.mark.parametrize(
    "value",
    [1, 2.5, True, 1j, "s", None, b"b", np.array(["a"]), np.array([None]), object(), len],
    ids=repr,
)
def test_other_values_are_static(value):
    sig, tensors = make([value])
    assert tensors == [] and sig.input_types == ()
    (slot,) = sig.slots
    assert isinstance(slot, sig_mod.Static) and slot.value is value


def test_leaves_of_nested_arguments_are_named_by_argument_and_position():
    x, y, z, w = np.ones(3), np.zeros(2, np.float32), np.int64(1), np.ones((2, 2))
    sig, tensors = make(
        [x, ([y, 3], {"k": z}), Point(1.0, w)], {"opt": w}, names=["x", "s"], input_spec=None
    )
    assert sig.input_names == ("x", "s_0", "s_2", "arg2_1", "opt")
    assert [str(t) for t in sig.input_types] == [
        "f64[3]",
        "f32[2]",
        "i64[]",
        "f64[2,2]",
        "f64[2,2]",
    ]
    assert all(a is b for a, b in zip(tensors, (x, y, z, w, w)))
    assert [s if isinstance(s, int) else s.value for s in sig.slots] == [0, 1, 3, 2, 1.0, 3, 4]


def test_rebuild_puts_new_values_in_the_tensor_leaves():
    x, y = np.ones(3), np.zeros(2)
    sig, _ = make([x, ([y, 3], {"k": "text"}), Point(1.0, x)], {"opt": None})
    args, kwargs = sig.rebuild(["X", "Y", "X2"])
    assert args == ("X", (["Y", 3], {"k": "text"}), Point(1.0, "X2"))
    assert type(args[2]) is Point and type(args[1][0]) is list
    assert kwargs == {"opt": None}


def test_the_key_depends_on_types_not_array_values():
    assert key(np.ones(3)) == key(np.zeros(3))
    assert key(np.ones(3)) != key(np.ones(4))
    assert key(np.ones(3)) != key(np.ones(3, np.float32))
    assert key(np.float64(1)) != key(np.array([1.0]))


def test_the_key_depends_on_structure():
    x = np.ones(3)
    assert key((x,)) != key([x])
    assert key(x, x) != key((x, x))
    assert key({"a": x, "b": 1}) != key({"b": 1, "a": x})
    assert key(x, k=1) != key(x, j=1)


@pytest.mark.parametrize(
    "a, b",
    [
        (0.0, -0.0),
        (1, 1.0),
        (1, True),
        (0, False),
        (1.0, 1.0 + 2**-52),
        ("1", 1),
        (None, 0),
        (b"a", "a"),
    ],
    ids=repr,
)
def test_static_numbers_key_by_type_and_bits(a, b):
    assert key(np.ones(2), a) != key(np.ones(2), b)
    assert key(np.ones(2), a) == key(np.ones(2), a)


def test_equal_static_values_share_a_key():
    assert key(2.5) == key(5 / 2)
    assert key(float("inf")) == key(float("inf"))
    assert key("abc") == key("ab" + "c")
    assert key(3 + 4j) == key(complex(3, 4))


def test_objects_key_by_identity_and_classes_functions_dtypes_by_value():
    shared, other = {1, 2}, {1, 2}
    assert key(shared) == key(shared)
    assert key(shared) != key(other)  # unhashable: identity
    thing = object()
    assert key(thing) == key(thing) and key(thing) != key(object())
    assert key(np.float32) == key(np.float32)
    assert key(np.dtype("float64")) == key(np.dtype(np.float64))
    assert key(np.dtype("float64")) != key(np.dtype("float32"))
    assert key(len) == key(len) and key(len) != key(abs)


def test_input_spec_none_dims_make_one_key_for_every_size():
    spec = [sig_mod.TensorSpec((None, 3))]
    small, _ = make([np.ones((2, 3))], input_spec=spec)
    large, tensors = make([np.ones((7, 3))], input_spec=spec)
    assert small.key == large.key
    assert large.input_types == (types.TensorType(np.float64, (None, 3)),)
    assert tensors[0].shape == (7, 3)


def test_input_spec_applies_to_its_own_argument_after_nested_ones():
    spec = [None, sig_mod.TensorSpec((None,), "float32")]
    sig, _ = make([(np.ones(2), np.ones(3)), np.ones(5, np.float32)], input_spec=spec)
    assert [str(t) for t in sig.input_types] == ["f64[2]", "f64[3]", "f32[None]"]


def test_tensor_spec_normalises_shape_and_dtype():
    spec = sig_mod.TensorSpec([None, 4], "float32")
    assert spec.shape == (None, 4) and spec.dtype == np.dtype(np.float32)
    assert sig_mod.TensorSpec((3,)).dtype is None
    assert spec.type_for(np.ones((9, 4), np.float32), "x") == types.TensorType(
        np.float32, (None, 4)
    )


@pytest.mark.parametrize(
    "value, spec, message",
    [
        (
            np.ones((2, 3)),
            sig_mod.TensorSpec((None, 4)),
            "argument 'w' is f64[2,3] but its input_spec is f64[None,4]",
        ),
        (
            np.ones((2, 3)),
            sig_mod.TensorSpec((None, 3), np.float32),
            "argument 'w' is f64[2,3] but its input_spec is f32[None,3]",
        ),
        (
            np.ones(3),
            sig_mod.TensorSpec((None, None)),
            "argument 'w' is f64[3] but its input_spec is f64[None,None]",
        ),
        (
            np.float32(1),
            sig_mod.TensorSpec((None,)),
            "argument 'w' is f32[] but its input_spec is f32[None]",
        ),
    ],
)
def test_an_argument_that_does_not_fit_its_spec_is_named(value, spec, message):
    with pytest.raises(errors.ToGraphError) as info:
        make([np.ones(1), value], names=["v", "w"], input_spec=[None, spec])
    assert info.value.message == message


def test_a_tensor_spec_for_a_container_argument_is_an_error():
    with pytest.raises(
        errors.ToGraphError, match="input_spec\\[0\\] is a TensorSpec but argument 0"
    ):
        make([(np.ones(3), np.ones(3))], input_spec=[sig_mod.TensorSpec((None,))])
