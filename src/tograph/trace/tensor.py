"""Tensors that stand in for NumPy arrays: ``TensorBase`` and the symbolic ``SymbolicTensor``.

``TensorBase`` gives every tensor kind NumPy's face: operators, ``__array_ufunc__`` and
``__array_function__`` (so ``np.exp(t)`` or ``np.concatenate([t, u])`` work), attributes and
methods. Each of these goes to the handler that ``tograph.ops`` registered for the NumPy callable
it stands for (``t + u`` is ``np.add``, ``t[i]`` is ``operator.getitem``, ``t.astype`` is
``np.astype``) and ends in ``Primitive.bind``; a subclass decides what binding means:
``SymbolicTensor`` emits an equation into the graph being built, ``EagerTensor``
(``tograph.eager``) runs the kernel at once and records it on a tape.
"""

from __future__ import annotations

import functools
import operator
import random
import sys
import types as pytypes
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from tograph import errors, origin
from tograph.ir import core, primitives, types
from tograph.trace import context, dispatch, functional

if TYPE_CHECKING:
    from tograph.trace import builder as builder_mod


def _binary(ufunc: np.ufunc, reflected: bool = False) -> Any:
    """An operator method: the handler of ``ufunc`` (Python's meaning kept on Python scalars)."""

    def method(self: TensorBase, other: Any) -> Any:
        if not _is_operand(other) or not _elementwise_with(self, ufunc, other):
            return NotImplemented
        handler = dispatch.UFUNCS[ufunc]
        return handler(other, self) if reflected else handler(self, other)

    method.__name__ = f"__{'r' if reflected else ''}{ufunc.__name__}__"
    return method


def _divmod(reflected: bool = False) -> Any:
    """``divmod(a, b)``: Python's ``divmod`` itself (on Python numbers its errors name divmod, on
    a NumPy value its warnings do), or ``(a // b, a % b)`` on numbers whose kind depends on the
    path."""
    floor_divide, remainder = _binary(np.floor_divide, reflected), _binary(np.remainder, reflected)

    def method(self: TensorBase, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        weak = is_tensor(other) and other.type.weak
        python = self.type.weak and (types.is_python_scalar(other) or weak)
        tagged = any(getattr(v, "kind_tag", None) is not None for v in (self, other))
        if python and tagged:  # path kinds follow // and % (``staging.kind_rules``)
            return floor_divide(self, other), remainder(self, other)
        handler = dispatch.FUNCTIONS[divmod]
        return handler(other, self) if reflected else handler(self, other)

    method.__name__ = f"__{'r' if reflected else ''}divmod__"
    return method


def _unary(ufunc: np.ufunc) -> Any:
    def method(self: TensorBase) -> Any:
        return dispatch.UFUNCS[ufunc](self)

    return method


def _in_place(ufunc: np.ufunc) -> Any:
    """An augmented assignment operator: ``x += y`` is ``np.add(x, y, out=x)`` for an array, and
    a new value for a scalar (which Python then binds to the name)."""

    def method(self: TensorBase, other: Any) -> Any:
        if not _is_operand(other) or not _elementwise_with(self, ufunc, other):
            return NotImplemented
        _refuse_array_on_some_paths(self)
        if not self.is_array:  # a NumPy scalar: Python binds the new value to the name
            return dispatch.UFUNCS[ufunc](self, other)
        return dispatch.FUNCTIONS[_ufunc_into](ufunc, (self, other), {"out": (self,)})

    method.__name__ = f"__i{ufunc.__name__}__"
    return method


def _elementwise_with(scalar: TensorBase, ufunc: np.ufunc, other: Any) -> bool:
    """Whether an operator between ``scalar`` and ``other`` is NumPy's elementwise one. Between a
    list or tuple and a number it is not always: a Python number takes Python's meaning (``*``
    repeats the sequence, ``==`` is False, the rest raise TypeError) and a NumPy scalar's ``*``
    repeats it too. Where it is not, the operator returns NotImplemented and Python's own
    protocol runs; a repeat count known only when the graph runs is refused."""
    if not isinstance(other, (list, tuple)) or scalar.is_array:
        return True
    if getattr(scalar, "kind_tag", None) is not None:
        raise errors.UnsupportedError(
            "an operator between a list or tuple and a number that is a Python number on some "
            "paths and a NumPy scalar on others: Python and NumPy give it different meanings",
            origin.current_location(),
            construct="operator between a sequence and a number whose kind depends on the path",
        )
    if ufunc is np.multiply and isinstance(scalar, Symbolic):
        raise errors.TracerError(
            "a list or tuple repeated by a number (sequence * n) that is only known when the "
            "graph runs",
            hint="build the values as an array (np.zeros(n)) or make the count static",
        )
    return not scalar.type.weak and ufunc is not np.multiply


def _refuse_array_on_some_paths(target: Any) -> None:
    """Refuses ``target op= value`` where ``target`` is a 0-d array on some paths only (its kind
    tag says so, ``staging.kinds``): eager writes the array in place there, where its other
    names see the change, and binds a new number on the others."""
    options = getattr(target, "kind_options", ())
    if getattr(target, "kind_tag", None) is not None and any(map(types.is_array_code, options)):
        raise errors.UnsupportedError(
            "an augmented assignment to a value that is a 0-d array on some paths and a number "
            "on others: eager writes the array in place on those paths only",
            origin.current_location(),
            construct="in-place update of a value whose kind depends on the path",
        )


# The handler of a ufunc call that writes into ``out=`` is registered under this key.
_ufunc_into = np.ufunc.__call__


def _method_name(method: str) -> str:
    return "" if method == "__call__" else method


def _call_handler(handler: Any, host: Any, name: str, args: Any, kwargs: dict[str, Any]) -> Any:
    """``handler(*args, **kwargs)``; where there is none, or it refuses these arguments, the
    host call ``host`` (a pure NumPy function run when the graph runs), if there is one (a
    ``host`` that only ``refuses``, for an impure function, speaks only where no handler did)."""
    if handler is None:
        if host is None:
            raise dispatch.unsupported(name)
        return host(*args, **kwargs)
    if host is None:
        return handler(*args, **kwargs)
    try:
        return handler(*args, **kwargs)
    except errors.UnsupportedError:
        if getattr(host, "refuses", False):
            raise
        return host(*args, **kwargs)


def _method(fn: Any) -> Any:
    """The ndarray method that is ``fn(self, *args, **kwargs)``."""

    def method(self: TensorBase, *args: Any, **kwargs: Any) -> Any:
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    method.__doc__ = f"``x.{fn.__name__}(...)`` is ``np.{fn.__name__}(x, ...)``."
    return method


# Why memory attributes and serialization fall back (the coverage table leaves them out).
MEMORY = "it describes or sets memory (storage, not values), which a graph value does not have"
SERIALIZES = "it serializes the array into bytes (for a file or a pickle)"


# the code names of comprehensions' own frames (before Python 3.12 inlines list, set and dict
# comprehensions into the function's frame)
_COMPREHENSION_CODES = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})


class _RefusedProperty(property):
    """An attribute a tensor does not have, with the reason (read by the coverage table)."""

    refusal = ""


def _memory(name: str) -> Any:
    def get(self: TensorBase) -> Any:
        raise errors.UnsupportedError(f".{name} of a tensor: {MEMORY}", construct=f".{name}")

    attribute = _RefusedProperty(get)
    attribute.refusal = MEMORY
    return attribute


def _refuses(what: str, reason: str) -> Any:
    def method(self: TensorBase, *args: Any, **kwargs: Any) -> Any:
        raise errors.UnsupportedError(f"{what} on a tensor: {reason}", construct=what)

    method.refusal = reason  # type: ignore[attr-defined]  # read by the coverage table
    return method


class _FlatReader:
    """``x.flat`` of a tensor: item reads and iteration over the flattened tensor."""

    def __init__(self, x: TensorBase):
        self._flat = np.ravel(x)

    def __getitem__(self, index: Any) -> Any:
        return self._flat[index]

    def __iter__(self) -> Any:
        return iter(self._flat)

    def __len__(self) -> int:
        return len(self._flat)

    def __setitem__(self, index: Any, value: Any) -> None:
        raise errors.UnsupportedError(
            "writing x.flat[...] of a tensor",
            hint="write x.reshape(-1)[...] or x[...] instead",
            construct="x.flat[...] = v",
        )


PYTHON_TYPES: dict[str, type] = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


def check_number_attribute(value: Any, name: str) -> None:
    """Raises eager's ``AttributeError`` when ``value`` is a tensor standing for a Python number
    (weak) whose type has no attribute ``name`` (``n.shape`` where eager's ``n`` is an ``int``)."""
    if isinstance(value, TensorBase) and value.type.weak:
        kind = PYTHON_TYPES[value.type.dtype.kind]
        if not hasattr(kind, name):
            raise AttributeError(f"'{kind.__name__}' object has no attribute '{name}'")


def _number_attribute(value: Any, name: str) -> None:
    """``check_number_attribute`` when the user's converted code asks for the attribute (the
    compiler's own code reads these of every tensor)."""
    if origin.is_converted(sys._getframe(2).f_code):
        check_number_attribute(value, name)


def _is_operand(value: Any) -> bool:
    """Whether an operator takes ``value`` as NumPy's would: tensors, arrays, numbers, and lists
    and tuples of numbers (``x == [1, 2]`` compares elementwise). A list holding tensors would
    need stacking first: refused, since Python's fallback (``==`` by identity) would be wrong."""
    if isinstance(value, (list, tuple)):
        if contains_tensor(value):
            raise errors.UnsupportedError(
                "an operator between a tensor and a list or tuple holding tensors",
                construct="operator on a list of tensors",
                hint="make the list an array first (np.stack)",
            )
        return True
    return isinstance(value, (TensorBase, np.ndarray, np.generic)) or types.is_python_scalar(value)


class TensorBase:
    """NumPy-compatible behaviour shared by symbolic and eager tensors."""

    PRIORITY = 0
    __array_priority__ = 1000
    __hash__ = object.__hash__

    @property
    def type(self) -> types.TensorType:
        raise NotImplementedError

    @classmethod
    def bind_primitive(
        cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]
    ) -> Any:
        raise NotImplementedError

    @property
    def is_array(self) -> bool:
        """Whether this is a NumPy array (mutable), not a Python or NumPy scalar."""
        raise NotImplementedError

    def mutate(self, update: Any, *args: Any) -> None:
        """Runs ``update(value, *args)``, a NumPy in-place operation, on a concrete value."""
        raise errors.UnsupportedError(
            f"in-place update of {self._describe()}", construct="in-place update"
        )

    def numpy(self) -> Any:
        raise errors.TracerError(
            f"{self._describe()} has no value while the graph is being built",
            hint="use NumPy operations on it, or make the value static (a Python number)",
        )

    def _describe(self) -> str:
        return f"tensor {self.type}"

    # ---- NumPy protocols -------------------------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        name = dispatch.numpy_name(ufunc, method)
        if method == "__call__":
            handler = dispatch.UFUNCS.get(ufunc)
            if handler is not None and (kwargs.get("out") is not None or "where" in kwargs):
                return dispatch.FUNCTIONS[_ufunc_into](ufunc, inputs, kwargs)
            # The operators of tensors call their handlers themselves, so this is the ufunc
            # called by name, unless a NumPy scalar's operator called it (``np.float64(2) * t``)
            if not any(isinstance(v, np.generic) for v in inputs):
                handler = dispatch.LOOPS.get(ufunc, handler)
        else:
            handler = dispatch.UFUNC_METHODS.get((ufunc, method))
            if kwargs.get("out") is not None or "where" in kwargs:
                handler = None
        if kwargs.get("out") is not None:
            raise dispatch.unsupported(name, "it writes into out=, and it has no primitive")
        kwargs.pop("out", None)
        host = dispatch.fallback_handler(ufunc, _method_name(method))
        result = _call_handler(handler, host, name, inputs, kwargs)
        # A NumPy function called on Python scalars returns a NumPy scalar: never weak (nor a
        # Python number on some paths only, ``kind_tag``).
        strong = isinstance(result, TensorBase) and (
            result.type.weak or getattr(result, "kind_tag", None) is not None
        )
        if strong:
            result = np.astype(result, result.type.dtype)
        return result

    def __array_function__(self, func: Any, types_: Any, args: Any, kwargs: Any) -> Any:
        host = dispatch.fallback_handler(func)
        return _call_handler(
            dispatch.FUNCTIONS.get(func), host, dispatch.numpy_name(func), args, kwargs
        )

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.numpy(), dtype=dtype)

    # ---- attributes -----------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        if self.type.weak:
            _number_attribute(self, "dtype")
        return self.type.dtype

    @property
    def ndim(self) -> int:
        if self.type.weak:
            _number_attribute(self, "ndim")
        return self.type.ndim

    @property
    def shape(self) -> tuple[Any, ...]:
        """Static dims as ints; unknown dims as scalar tensors computed at run time."""
        if self.type.weak:
            _number_attribute(self, "shape")
        return dispatch.FUNCTIONS[np.shape](self)  # type: ignore[no-any-return]

    @property
    def size(self) -> Any:
        if self.type.weak:
            _number_attribute(self, "size")
        return dispatch.FUNCTIONS[np.size](self)

    @property
    def T(self) -> Any:
        if self.type.weak:
            _number_attribute(self, "T")
        return np.transpose(self)

    @property
    def real(self) -> Any:
        return dispatch.FUNCTIONS[np.real](self)

    @property
    def imag(self) -> Any:
        return dispatch.FUNCTIONS[np.imag](self)

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of unsized object (a 0-d tensor)")
        first = self.type.shape[0]
        if first is None:
            raise errors.TracerError(
                f"len() of {self._describe()} whose first dimension is only known at run time",
                hint="use x.shape[0], which is a tensor here",
            )
        return first

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    # ---- conversions that need a concrete value -------------------------------------------
    def __bool__(self) -> bool:
        if sys._getframe(1).f_code.co_name in _COMPREHENSION_CODES:
            error = errors.TracerError(
                f"the truth value of {self._describe()} in a comprehension's `if` (or an `and`, "
                "`or` or conditional inside one) is only known when the graph runs",
                hint="tograph writes out a filtered list comprehension that is assigned, "
                "returned, or an argument of a call nothing with an effect runs before; "
                "elsewhere, assign it to a variable first",
            )
            error.construct = "comprehension filtered on a tensor"
            raise error
        raise errors.TracerError(
            f"the truth value of {self._describe()} is only known when the graph runs",
            hint="tograph turns `if`/`while` on tensors into cond/while_loop inside @to_static "
            "functions; elsewhere compare static values",
        )

    def __int__(self) -> int:
        raise self._concrete_error("int()")

    def __float__(self) -> float:
        raise self._concrete_error("float()")

    def __index__(self) -> int:
        raise self._concrete_error("use as a Python index")

    def __complex__(self) -> complex:
        raise self._concrete_error("complex()")

    def _concrete_error(self, what: str) -> errors.TracerError:
        return errors.TracerError(
            f"{what} needs a concrete value, but {self._describe()} is only known when the graph "
            "runs",
            hint="keep the value a tensor (e.g. x.astype(np.int64)) or pass it as a static "
            "Python number",
        )

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, index: Any) -> Any:
        return dispatch.FUNCTIONS[operator.getitem](self, index)

    # ---- methods: each is the NumPy function of the same name (NumPy's argument order) -------
    sum = _method(np.sum)
    mean = _method(np.mean)
    prod = _method(np.prod)
    max = _method(np.max)
    min = _method(np.min)
    var = _method(np.var)
    std = _method(np.std)
    all = _method(np.all)
    any = _method(np.any)
    cumsum = _method(np.cumsum)
    cumprod = _method(np.cumprod)
    argmax = _method(np.argmax)
    argmin = _method(np.argmin)
    argsort = _method(np.argsort)
    argpartition = _method(np.argpartition)
    searchsorted = _method(np.searchsorted)
    repeat = _method(np.repeat)
    take = _method(np.take)
    choose = _method(np.choose)
    diagonal = _method(np.diagonal)
    trace = _method(np.trace)
    nonzero = _method(np.nonzero)
    swapaxes = _method(np.swapaxes)
    squeeze = _method(np.squeeze)
    ravel = _method(np.ravel)
    clip = _method(np.clip)
    dot = _method(np.dot)
    round = _method(np.round)

    def copy(self, order: str = "K") -> Any:
        """``x.copy()``: ``np.copy(x)``, but a NumPy scalar's own copy is a NumPy scalar."""
        out = np.copy(self, order=order)
        if isinstance(out, SymbolicTensor) and not self.is_array:
            out.array0d = False
        return out

    __copy__ = copy

    def __deepcopy__(self, memo: Any) -> Any:
        return np.copy(self)

    def compress(self, condition: Any, axis: Any = None) -> Any:
        return np.compress(condition, self, axis=axis)

    def reshape(self, *shape: Any, **kwargs: Any) -> Any:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return np.reshape(self, shape, **kwargs)

    def transpose(self, *axes: Any) -> Any:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return np.transpose(self, axes or None)

    @property
    def mT(self) -> Any:
        return np.matrix_transpose(self)

    def astype(self, dtype: Any, **kwargs: Any) -> Any:
        if set(kwargs) - {"copy", "casting", "order", "subok"}:
            raise TypeError(f"astype() got unexpected keyword arguments {sorted(kwargs)}")
        copy = kwargs.get("copy", True)
        if not copy and kwargs.get("order", "K") != "K":
            # NumPy returns the array itself only if it already has that memory order
            raise dispatch.unsupported("astype", "with copy=False and an order other than 'K'")
        return dispatch.FUNCTIONS[np.astype](self, dtype, copy=bool(copy))

    def conj(self) -> Any:
        # unlike np.conjugate, the method leaves bools bools
        return dispatch.UFUNCS[np.conjugate](self) if self.dtype.kind == "c" else self

    conjugate = conj

    def flatten(self, order: str = "C") -> Any:
        return np.copy(np.ravel(self, order=order))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> Any:
        return self.size * self.dtype.itemsize

    @property
    def device(self) -> str:
        return "cpu"

    def to_device(self, device: Any, /, *, stream: Any = None) -> Any:
        if device != "cpu":
            raise ValueError(f"unsupported device {device!r}")
        return self

    @property
    def flat(self) -> Any:
        """``x.flat``: reading items (``x.flat[i]``, iteration) reads the flattened array."""
        return _FlatReader(self)

    # ---- what a graph cannot do: the compiler falls back, naming the reason -----------------
    base = _memory("base")
    strides = _memory("strides")
    flags = _memory("flags")
    data = _memory("data")
    ctypes = _memory("ctypes")
    setflags = _refuses(".setflags()", MEMORY)
    resize = _refuses(".resize()", "it changes the array's shape in place")
    tofile = _refuses(".tofile()", "it writes a file")
    dump = _refuses(".dump()", "it writes a file")
    dumps = _refuses(".dumps()", SERIALIZES)
    tobytes = _refuses(".tobytes()", SERIALIZES)
    __dlpack__ = _refuses(".__dlpack__()", "a graph value has no memory to share")
    __array_namespace__ = _refuses(".__array_namespace__()", "tograph is no array API namespace")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("shape", "dtype", "strides", "real", "imag", "flat", "data"):
            raise errors.UnsupportedError(
                f"setting .{name} of a tensor changes the array in place, which tograph does not "
                "convert",
                hint="use x = x.reshape(...) or x.astype(...) instead",
                construct=f"setting .{name}",
            )
        object.__setattr__(self, name, value)

    # ---- in place: the handlers update the array and every view of it (trace.functional) --
    def __setitem__(self, index: Any, value: Any) -> None:
        dispatch.FUNCTIONS[operator.setitem](self, index, value)

    def sort(self, axis: Any = -1, kind: Any = None, order: Any = None) -> None:
        dispatch.FUNCTIONS[np.ndarray.sort](self, axis, kind, order)

    def fill(self, value: Any) -> None:
        dispatch.FUNCTIONS[np.ndarray.fill](self, value)

    def partition(
        self, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
    ) -> None:
        dispatch.FUNCTIONS[np.ndarray.partition](self, kth, axis, kind, order)

    def put(self, indices: Any, values: Any, mode: str = "raise") -> None:
        np.put(self, indices, values, mode)

    def view(self, *args: Any, **kwargs: Any) -> Any:
        return dispatch.FUNCTIONS[np.ndarray.view](self, *args, **kwargs)

    def byteswap(self, inplace: bool = False) -> Any:
        return dispatch.FUNCTIONS[np.ndarray.byteswap](self, inplace)

    def getfield(self, dtype: Any, offset: int = 0) -> Any:
        return dispatch.FUNCTIONS[np.ndarray.getfield](self, dtype, offset)

    def setfield(self, val: Any, dtype: Any, offset: int = 0) -> None:
        dispatch.FUNCTIONS[np.ndarray.setfield](self, val, dtype, offset)

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(x)`` as for the value it stands for: an array has no ``__round__``; without
        digits a Python int; with them a number of the same kind, rounded as Python rounds a
        Python number and as NumPy rounds a NumPy scalar."""
        if self.ndim > 0 or getattr(self, "array0d", False):
            raise TypeError("type numpy.ndarray doesn't define __round__ method")
        if self.dtype == np.bool_ and not self.type.weak:
            raise TypeError(f"type numpy.{np.bool_.__name__} doesn't define __round__ method")
        return dispatch.FUNCTIONS[round](self, ndigits)

    def item(self, *index: Any) -> Any:
        return dispatch.FUNCTIONS[np.ndarray.item](self, *index)

    def tolist(self) -> Any:
        return dispatch.FUNCTIONS[np.ndarray.tolist](self)

    # ---- operators ------------------------------------------------------------------------
    __add__, __radd__ = _binary(np.add), _binary(np.add, True)
    __sub__, __rsub__ = _binary(np.subtract), _binary(np.subtract, True)
    __mul__, __rmul__ = _binary(np.multiply), _binary(np.multiply, True)
    __truediv__, __rtruediv__ = _binary(np.divide), _binary(np.divide, True)
    __floordiv__, __rfloordiv__ = _binary(np.floor_divide), _binary(np.floor_divide, True)
    __mod__, __rmod__ = _binary(np.remainder), _binary(np.remainder, True)
    __pow__, __rpow__ = _binary(np.power), _binary(np.power, True)
    __matmul__, __rmatmul__ = _binary(np.matmul), _binary(np.matmul, True)
    __and__, __rand__ = _binary(np.bitwise_and), _binary(np.bitwise_and, True)
    __or__, __ror__ = _binary(np.bitwise_or), _binary(np.bitwise_or, True)
    __xor__, __rxor__ = _binary(np.bitwise_xor), _binary(np.bitwise_xor, True)
    __lshift__, __rlshift__ = _binary(np.left_shift), _binary(np.left_shift, True)
    __rshift__, __rrshift__ = _binary(np.right_shift), _binary(np.right_shift, True)
    __lt__, __le__ = _binary(np.less), _binary(np.less_equal)
    __gt__, __ge__ = _binary(np.greater), _binary(np.greater_equal)
    __eq__, __ne__ = _binary(np.equal), _binary(np.not_equal)  # type: ignore[assignment]
    __neg__, __pos__ = _unary(np.negative), _unary(np.positive)
    __divmod__, __rdivmod__ = _divmod(), _divmod(reflected=True)
    __abs__, __invert__ = _unary(np.absolute), _unary(np.invert)
    __iadd__, __isub__ = _in_place(np.add), _in_place(np.subtract)
    __imul__, __itruediv__ = _in_place(np.multiply), _in_place(np.divide)
    __ifloordiv__, __imod__ = _in_place(np.floor_divide), _in_place(np.remainder)
    __ipow__, __imatmul__ = _in_place(np.power), _in_place(np.matmul)
    __iand__, __ior__ = _in_place(np.bitwise_and), _in_place(np.bitwise_or)
    __ixor__ = _in_place(np.bitwise_xor)
    __ilshift__, __irshift__ = _in_place(np.left_shift), _in_place(np.right_shift)


class Symbolic:
    """Any value of the graph being built: a graph ``Var`` owned by a ``GraphBuilder``."""

    __slots__ = ()
    graph_var: core.Var
    builder: builder_mod.GraphBuilder


# Which symbolic class stands for a value of each type class (ops.lists registers ListType's).
SYMBOLIC_CLASSES: dict[type, Any] = {}


def wrap(var: core.Var, builder: builder_mod.GraphBuilder) -> Symbolic:
    """The symbolic value for ``var``: a ``SymbolicTensor``, or a symbolic list for a ListType."""
    return SYMBOLIC_CLASSES.get(type(var.type), SymbolicTensor)(var, builder)


class SymbolicTensor(Symbolic, TensorBase):
    """A tensor of the graph being built; operations on it append equations.

    A tensor written in place, or viewed, shares a ``functional.Storage`` with its base and its
    views: ``graph_var`` is then the value the array holds now (see ``trace.functional``).
    ``array0d`` marks a 0-d value that is an array (mutable) rather than a NumPy scalar;
    ``layout`` is "C" when the array is known to be C-contiguous; ``kind_tag`` (set by
    ``staging.kinds``) tells a scalar that is a Python number on some paths only, and
    ``kind_options`` the kind codes it may hold; ``identity`` (set by ``staging.identity``) tells
    which array, an argument or a new one, an output of control flow is on the path taken.
    """

    PRIORITY = 2
    __slots__ = (
        "_var",
        "_builder",
        "_storage",
        "_path",
        "_seen",
        "array0d",
        "layout",
        "kind_tag",
        "identity",
        "kind_options",
    )
    _var: core.Var
    _builder: builder_mod.GraphBuilder
    _storage: functional.Storage | None
    _path: tuple[functional.ViewStep, ...]
    _seen: int
    array0d: bool
    layout: str | None
    kind_tag: Any
    identity: Any
    kind_options: frozenset[int]

    def __init__(self, var: core.Var, builder: builder_mod.GraphBuilder):
        # Set through the slots' own setters, past ``TensorBase.__setattr__`` (which guards
        # only names no slot has): every equation built makes a tensor.
        (
            set_var,
            set_builder,
            set_storage,
            set_path,
            set_seen,
            set_array0d,
            set_layout,
            set_kind_tag,
            set_identity,
            set_kind_options,
        ) = _TENSOR_SETTERS
        set_var(self, var)
        set_builder(self, builder)
        set_storage(self, None)  # a functional.Storage once written in place or viewed
        set_path(self, ())  # the functional.ViewSteps from the storage's base
        set_seen(self, 0)
        set_array0d(self, False)
        set_layout(self, None)  # "C" when known C-contiguous (a reshape is then a view)
        # an int8 scalar, the kind code of this scalar on the path taken (``staging.kinds``):
        # which Python number or NumPy scalar it is; None when its kind is its type's
        set_kind_tag(self, None)
        # an int64 code, or a symbolic int64 tag, naming the array this is on the path taken
        # (``staging.identity``); None when it is itself
        set_identity(self, None)
        set_kind_options(self, _NO_KINDS)

    @property
    def graph_var(self) -> core.Var:
        """The graph value this tensor holds now."""
        if self._storage is None:
            return self._var
        var: core.Var = functional.resolve(self)[0]
        return var

    @property
    def builder(self) -> builder_mod.GraphBuilder:
        """The builder of the graph that ``graph_var`` belongs to."""
        if self._storage is None:
            return self._builder
        builder: builder_mod.GraphBuilder = functional.resolve(self)[1]
        return builder

    def plain(self) -> SymbolicTensor:
        """This tensor if it has no storage, else a snapshot of the value it holds now."""
        if self._storage is None:
            return self
        snapshot: SymbolicTensor = functional.snapshot(self)
        return snapshot

    @property
    def type(self) -> types.TensorType:
        return self._var.type  # in-place writes keep the type, views are typed when made

    @property
    def is_array(self) -> bool:
        t = self._var.type
        return not t.weak and (t.ndim > 0 or self.array0d)

    @classmethod
    def bind_primitive(
        cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]
    ) -> Any:
        current = context.current()
        if current is None:
            raise errors.TracerError(
                f"a symbolic tensor was used in {prim.name} after its graph was built",
                hint="values computed while compiling cannot escape the compiled function",
            )
        return current.emit(prim, args, params)

    def _describe(self) -> str:
        name = f" '{self.graph_var.hint}'" if self.graph_var.hint else ""
        return f"tensor{name} ({self.graph_var.type})"

    def __repr__(self) -> str:
        return f"<SymbolicTensor {self._describe()}>"

    def __hash__(self) -> int:
        """Refused: eager code hashes the value (a NumPy scalar's) or raises (an array's), and a
        graph value has neither; as a dict key or set member it would be compared by identity."""
        if self.is_array:
            raise TypeError("unhashable type: 'numpy.ndarray'")
        raise errors.UnsupportedError(
            f"{self._describe()} is hashed (a dict key, a set member, hash()), which needs its "
            "value",
            construct="hash of a tensor",
        )


_SLOTS: Any = vars(SymbolicTensor)
_TENSOR_SETTERS = tuple(_SLOTS[name].__set__ for name in SymbolicTensor.__slots__)
_NO_KINDS: frozenset[int] = frozenset()
# ``t.layout = value`` without ``TensorBase.__setattr__``'s guard: every equation sets one
set_layout: Callable[[SymbolicTensor, str | None], None] = _SLOTS["layout"].__set__


# ---- what a value is: the one set of predicates the compiler asks -----------------------------


def is_symbolic(value: Any) -> bool:
    """Whether ``value`` belongs to the graph being built (a symbolic tensor or tensor list)."""
    return isinstance(value, Symbolic)


def is_tensor(value: Any) -> bool:
    """Whether ``value`` is a tensor, symbolic or eager (not a concrete or static value)."""
    return isinstance(value, TensorBase)


def contains_tensor(value: Any) -> bool:
    """Whether ``value`` is a tensor or a (nested) list or tuple holding one."""
    if isinstance(value, (list, tuple)):
        return any(contains_tensor(v) for v in value)
    return isinstance(value, TensorBase)


def is_array_value(value: Any) -> bool:
    """Whether ``value`` is a concrete NumPy array or scalar of a bool or numeric dtype: what a
    graph takes as an input (other values are static)."""
    return isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc"


def is_number(value: Any) -> bool:
    """Python numbers and concrete NumPy arrays and scalars: values a graph can carry."""
    return types.is_python_scalar(value) or is_array_value(value)


_NOT_OBJECTS = (
    type,
    pytypes.ModuleType,
    pytypes.FunctionType,
    pytypes.MethodType,
    pytypes.BuiltinFunctionType,
    functools.partial,
    np.ndarray,
    np.generic,
    np.ufunc,
    np.dtype,
)


def is_user_object(value: Any) -> bool:
    """Whether ``value`` is an object with attributes of its own, of a class that is not
    Python's or NumPy's (``self`` of a method, an optimizer's state): its attributes are read
    and written through ``staging.objects`` while a graph is built."""
    if isinstance(value, (*_NOT_OBJECTS, TensorBase)) or type(value) is random.Random:
        return False  # a random.Random: its draws are graph equations (ops.random)
    module = getattr(type(value), "__module__", "") or ""
    if module == "builtins" or module.split(".")[0] in ("numpy", "tograph"):
        return False
    return hasattr(value, "__dict__") or bool(getattr(type(value), "__slots__", ()))


@functools.cache
def computes_attributes(cls: type) -> bool:
    """Whether ``cls`` computes attribute reads with code of its own (a ``__getattr__``, or a
    ``__getattribute__`` other than ``object``'s): such a read may print, count or draw, so
    reading it while a graph is built (or probing it for a layout) is not what eager does."""
    module = getattr(cls, "__module__", "") or ""
    if module == "builtins" or module.split(".")[0] in ("numpy", "tograph"):
        return False
    for base in getattr(cls, "__mro__", ()):
        for name in ("__getattr__", "__getattribute__"):
            if isinstance(vars(base).get(name), pytypes.FunctionType):
                return True  # Python code of the user's (a C type's slot is its own business)
    return False


def attribute_values(value: Any) -> list[Any]:
    """The values of a user object's own attributes, in its ``__dict__`` and its slots."""
    found = list(getattr(value, "__dict__", {}).values())
    for cls in type(value).__mro__:
        slots = getattr(cls, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                found.append(getattr(value, name))
    return found


def contains_symbolic(tree: Any) -> bool:
    """Whether a symbolic value occurs anywhere in nested lists, tuples and dicts."""
    if isinstance(tree, Symbolic):
        return True
    if isinstance(tree, (list, tuple)):
        return any(contains_symbolic(v) for v in tree)
    if isinstance(tree, dict):
        return any(contains_symbolic(v) for v in tree.values())
    return False
