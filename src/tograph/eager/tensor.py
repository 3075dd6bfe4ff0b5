"""Eager (define-by-run) values: ``EagerTensor`` and ``EagerList``.

Stage: eager execution. Input: NumPy values and operations on them. Output: eager values whose
primitives ran at once, recorded on the active tapes that watch an input
(``tograph.eager.recording``).

An ``EagerTensor`` wraps a concrete NumPy value (a Python scalar when its type is weak), so it can
be used wherever Python needs a value: ``bool``, ``float``, ``int``, ``len``, iteration. Every
operation runs the same primitive as graph execution, through the same type rule, so eager and
graph results agree in value and dtype. A NumPy function with no primitive runs on the plain
values when no tape watches its arguments (nothing to record) and raises otherwise.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from tograph import errors
from tograph.eager import recording
from tograph.ir import primitives, types
from tograph.ops import lists
from tograph.trace import dispatch, tensor


class EagerTensor(tensor.TensorBase):
    """A tensor with a value; see module docstring. ``numpy()`` returns the value."""

    PRIORITY = 1

    def __init__(self, value: Any):
        if not (types.is_python_scalar(value) or isinstance(value, (np.ndarray, np.generic))):
            value = np.asarray(value)
        self.value = value
        self._type = types.type_of(value)

    @property
    def type(self) -> types.TensorType:
        return self._type

    def numpy(self) -> Any:
        return self.value

    @property
    def is_array(self) -> bool:
        return isinstance(self.value, np.ndarray)

    def mutate(self, update: Any, *args: Any) -> None:
        """Runs NumPy's in-place ``update`` on the value; refused on a value being differentiated
        (the tape records no in-place updates)."""
        if recording.watched_by_active_tape([self]):
            raise errors.UnsupportedError(
                "an in-place update of a tensor being differentiated cannot be recorded",
                hint="compute a new array instead (e.g. np.where, or x = x + y)",
                construct="in-place update",
            )
        update(self.value, *(unwrap(a) for a in args))

    @classmethod
    def bind_primitive(
        cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]
    ) -> Any:
        """Runs ``prim`` on the values of ``args``, wraps the results and records them."""
        out_types = prim.out_types([value_type(a) for a in args], params)
        result = prim.impl(*(_raw(a) for a in args), **params)
        results = result if prim.multiple_results else (result,)
        outputs = tuple(_wrap(value, t) for value, t in zip(results, out_types))
        recording.record(prim, args, params, outputs)
        return outputs if prim.multiple_results else outputs[0]

    # ---- NumPy functions without a primitive ------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        try:
            return super().__array_ufunc__(ufunc, method, *inputs, **kwargs)
        except errors.UnsupportedError:
            name = dispatch.numpy_name(ufunc, method)
            return _untaped(name, getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func: Any, types_: Any, args: Any, kwargs: Any) -> Any:
        try:
            return super().__array_function__(func, types_, args, kwargs)
        except errors.UnsupportedError:
            return _untaped(dispatch.numpy_name(func), func, args, kwargs)

    # ---- concrete conversions -------------------------------------------------------------
    # A watched tensor turned into a plain float or array would drop out of the gradient without
    # a trace, so a strict tape refuses those conversions (a lenient one lets them give a
    # constant, and arrays still refuse); truth values, ints and values of non-float dtypes
    # (decisions, or piecewise constant: no gradient to lose) are allowed.
    def _untaped_value(self, what: str, number: bool = False) -> Any:
        differentiable = self._type.dtype.kind in "fc"
        if differentiable and recording.watched_by_active_tape([self], strict_only=number):
            raise errors.UnsupportedError(
                f"{what} turns a tensor being differentiated into a plain value; "
                "its gradient would be lost",
                hint="keep it a NumPy operation on the tensor "
                "(e.g. x.astype(...) or np.full_like(x, v))",
                construct=what,
            )
        return self.value

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._untaped_value("conversion to a NumPy array"), dtype=dtype)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self._untaped_value("float()", number=True))

    def __complex__(self) -> complex:
        return complex(self._untaped_value("complex()", number=True))

    def __index__(self) -> int:
        return operator.index(self.value)

    def __len__(self) -> int:
        return len(np.asarray(self.value))

    def item(self) -> Any:
        return np.asarray(self._untaped_value(".item()", number=True)).item()

    def tolist(self) -> Any:
        return np.asarray(self._untaped_value(".tolist()")).tolist()

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __repr__(self) -> str:
        return f"EagerTensor({self.value!r})"


class EagerList:
    """A tensor list with a value (a Python list of NumPy values) and its ``ListType``."""

    PRIORITY = 1

    def __init__(self, value: list[Any], type_: types.ListType):
        self.value = value
        self.type = type_

    @classmethod
    def bind_primitive(
        cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]
    ) -> Any:
        return EagerTensor.bind_primitive(prim, args, params)

    def __len__(self) -> int:
        return len(self.value)

    def __getitem__(self, index: Any) -> Any:
        return lists.read(self, index)

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"EagerList({self.value!r}, {self.type})"


def value_type(value: Any) -> types.ValueType:
    """The type of an eager value, a Python list (a tensor list) or a concrete value."""
    if isinstance(value, (EagerTensor, EagerList)):
        return value.type
    if isinstance(value, list):
        return _python_list_type(value)
    return types.type_of(value)


def _python_list_type(values: list[Any]) -> types.ListType:
    result: types.ValueType = types.ListType(None)
    for value in values:
        result = types.join(result, types.ListType(value_type(value)))
    return cast(types.ListType, result)


def _raw(value: Any) -> Any:
    """The plain value of an eager value; a Python list becomes a new list of plain values."""
    if isinstance(value, (EagerTensor, EagerList)):
        return value.value
    if isinstance(value, list):
        return [_raw(v) for v in value]
    return value


def _wrap(value: Any, t: types.ValueType) -> Any:
    """The eager value for a kernel result of type ``t``, as a Python scalar exactly when weak."""
    if isinstance(t, types.ListType):
        return EagerList(value, t)
    if t.weak and not types.is_python_scalar(value):
        value = np.asarray(value).item()
    elif not t.weak and types.is_python_scalar(value):
        value = t.dtype.type(value)
    return EagerTensor(value)


def unwrap(tree: Any) -> Any:
    """``tree`` with every eager value replaced by its NumPy value (lists, tuples, dicts nested)."""
    if isinstance(tree, EagerTensor):
        return tree.value
    if isinstance(tree, EagerList):
        return list(tree.value)
    if isinstance(tree, (list, tuple)):
        return type(tree)(unwrap(v) for v in tree)
    if isinstance(tree, dict):
        return {k: unwrap(v) for k, v in tree.items()}
    return tree


def _untaped(name: str, fn: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> Any:
    """``fn`` (called ``name``) on plain values, when no tape needs to record it."""
    flat = [a for a in _leaves((args, kwargs)) if isinstance(a, EagerTensor)]
    if recording.watched_by_active_tape(flat):
        raise errors.UnsupportedError(
            f"{name} on a watched eager tensor has no primitive, so the tape cannot record it",
            hint="compute it outside the tape, or write it with supported NumPy functions",
            construct=name,
        )
    return _wrap_arrays(fn(*unwrap(tuple(args)), **unwrap(kwargs)))


def _leaves(tree: Any) -> Any:
    if isinstance(tree, (list, tuple)):
        for v in tree:
            yield from _leaves(v)
    elif isinstance(tree, dict):
        for v in tree.values():
            yield from _leaves(v)
    else:
        yield tree


def _wrap_arrays(tree: Any) -> Any:
    if isinstance(tree, (np.ndarray, np.generic)):
        return EagerTensor(tree)
    if isinstance(tree, (list, tuple)):
        return type(tree)(_wrap_arrays(v) for v in tree)
    return tree
