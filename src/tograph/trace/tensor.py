"""Tensors that stand in for NumPy arrays: ``TensorBase`` and the symbolic ``SymbolicTensor``.

``TensorBase`` gives every tensor kind NumPy's face: operators, ``__array_ufunc__`` and
``__array_function__`` (so ``np.exp(t)`` or ``np.concatenate([t, u])`` work), attributes and
methods. Each of these ends in ``Primitive.bind``; a subclass decides what binding means:
``SymbolicTensor`` emits an equation into the graph being built, ``EagerTensor``
(``tograph.eager``) runs the kernel at once and records it on a tape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import core, primitives, types
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch


def _prim(name: str) -> primitives.Primitive:
    return primitives.REGISTRY[name]


def _binary(name: str, reflected: bool = False) -> Any:
    def method(self: TensorBase, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return _prim(name).bind(other, self) if reflected else _prim(name).bind(self, other)

    method.__name__ = f"__{'r' if reflected else ''}{name}__"
    return method


def _unary(name: str) -> Any:
    def method(self: TensorBase) -> Any:
        return _prim(name).bind(self)

    return method


def _is_operand(value: Any) -> bool:
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
    def bind_primitive(cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]) -> Any:
        raise NotImplementedError

    def numpy(self) -> Any:
        raise errors.TracerError(
            f"{self._describe()} has no value while the graph is being built",
            hint="use NumPy operations on it, or make the value static (a Python number)",
        )

    def _describe(self) -> str:
        return f"tensor {self.type}"

    # ---- NumPy protocols -------------------------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        handler = dispatch.UFUNCS.get(ufunc) if method == "__call__" else None
        if handler is None or kwargs.get("out") is not None or "where" in kwargs:
            suffix = "" if method == "__call__" else f".{method}"
            raise dispatch.unsupported(f"np.{ufunc.__name__}{suffix}")
        kwargs.pop("out", None)
        result = handler(*inputs, **kwargs)
        # A NumPy function called on Python scalars returns a NumPy scalar: never weak.
        if isinstance(result, TensorBase) and result.type.weak:
            result = _prim("astype").bind(result, dtype=result.type.dtype, weak=False)
        return result

    def __array_function__(self, func: Any, types_: Any, args: Any, kwargs: Any) -> Any:
        handler = dispatch.FUNCTIONS.get(func)
        if handler is None:
            raise dispatch.unsupported(f"np.{func.__name__}")
        return handler(*args, **kwargs)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.numpy(), dtype=dtype)

    # ---- attributes -----------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype:
        return self.type.dtype

    @property
    def ndim(self) -> int:
        return self.type.ndim

    @property
    def shape(self) -> tuple[Any, ...]:
        """Static dims as ints; unknown dims as scalar tensors computed at run time."""
        return tuple(
            d if d is not None else _prim("dim").bind(self, axis=i) for i, d in enumerate(self.type.shape)
        )

    @property
    def size(self) -> Any:
        static = self.type.size
        return static if static is not None else _prim("size").bind(self)

    @property
    def T(self) -> Any:
        return np.transpose(self)

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
            f"{what} needs a concrete value, but {self._describe()} is only known when the graph runs",
            hint="keep the value a tensor (e.g. x.astype(np.int64)) or pass it as a static Python number",
        )

    # ---- indexing -------------------------------------------------------------------------
    def __getitem__(self, index: Any) -> Any:
        from tograph.ops import indexing

        return indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        raise errors.TracerError(
            f"{self._describe()} cannot be changed in place",
            hint="inside @to_static functions `x[i] = v` is rewritten to a functional update; "
            "elsewhere use tograph.ops.indexing.setitem(x, i, v), which returns the new value",
        )

    # ---- methods --------------------------------------------------------------------------
    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return np.sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return np.mean(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def prod(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return np.prod(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Any:
        return np.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Any:
        return np.min(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis: Any = None) -> Any:
        return np.argmax(self, axis=axis)

    def argmin(self, axis: Any = None) -> Any:
        return np.argmin(self, axis=axis)

    def argsort(self, axis: Any = -1, kind: Any = None) -> Any:
        return np.argsort(self, axis=axis, kind=kind)

    def cumsum(self, axis: Any = None) -> Any:
        return np.cumsum(self, axis=axis)

    def reshape(self, *shape: Any) -> Any:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return np.reshape(self, shape)

    def transpose(self, *axes: Any) -> Any:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return np.transpose(self, axes or None)

    def astype(self, dtype: Any) -> Any:
        return _prim("astype").bind(self, dtype=np.dtype(dtype), weak=False)

    def dot(self, other: Any) -> Any:
        return np.dot(self, other)

    def clip(self, a_min: Any = None, a_max: Any = None) -> Any:
        return np.clip(self, a_min, a_max)

    def squeeze(self, axis: Any = None) -> Any:
        return np.squeeze(self, axis=axis)

    def flatten(self) -> Any:
        return np.reshape(self, (-1,))

    ravel = flatten

    def copy(self) -> Any:
        return self

    def round(self, decimals: int = 0) -> Any:
        return np.round(self, decimals)

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(x)``: like a NumPy scalar, a Python int without digits, else a rounded tensor."""
        if ndigits is not None or self.ndim > 0:
            return np.round(self, ndigits or 0)
        return _prim("astype").bind(np.round(self), dtype=np.dtype(np.int64), weak=True)

    def item(self) -> Any:
        raise self._concrete_error(".item()")

    def tolist(self) -> Any:
        raise self._concrete_error(".tolist()")

    # ---- operators ------------------------------------------------------------------------
    __add__, __radd__ = _binary("add"), _binary("add", True)
    __sub__, __rsub__ = _binary("subtract"), _binary("subtract", True)
    __mul__, __rmul__ = _binary("multiply"), _binary("multiply", True)
    __truediv__, __rtruediv__ = _binary("divide"), _binary("divide", True)
    __floordiv__, __rfloordiv__ = _binary("floor_divide"), _binary("floor_divide", True)
    __mod__, __rmod__ = _binary("mod"), _binary("mod", True)
    __pow__, __rpow__ = _binary("power"), _binary("power", True)
    __matmul__, __rmatmul__ = _binary("matmul"), _binary("matmul", True)
    __and__, __rand__ = _binary("bitwise_and"), _binary("bitwise_and", True)
    __or__, __ror__ = _binary("bitwise_or"), _binary("bitwise_or", True)
    __xor__, __rxor__ = _binary("bitwise_xor"), _binary("bitwise_xor", True)
    __lshift__, __rlshift__ = _binary("left_shift"), _binary("left_shift", True)
    __rshift__, __rrshift__ = _binary("right_shift"), _binary("right_shift", True)
    __lt__, __le__ = _binary("less"), _binary("less_equal")
    __gt__, __ge__ = _binary("greater"), _binary("greater_equal")
    __eq__, __ne__ = _binary("equal"), _binary("not_equal")  # type: ignore[assignment]
    __neg__, __pos__ = _unary("negative"), _unary("positive")
    __abs__, __invert__ = _unary("abs"), _unary("invert")


class Symbolic:
    """Any value of the graph being built: a graph ``Var`` owned by a ``GraphBuilder``."""

    __slots__ = ()
    var: core.Var
    builder: builder_mod.GraphBuilder


# Which symbolic class stands for a value of each type class (ListType values are registered by ops.lists).
SYMBOLIC_CLASSES: dict[type, Any] = {}


def wrap(var: core.Var, builder: builder_mod.GraphBuilder) -> Symbolic:
    """The symbolic value for ``var``: a ``SymbolicTensor``, or e.g. a symbolic list for a ListType."""
    return SYMBOLIC_CLASSES.get(type(var.type), SymbolicTensor)(var, builder)


class SymbolicTensor(Symbolic, TensorBase):
    """A tensor of the graph being built; operations on it append equations."""

    PRIORITY = 2
    __slots__ = ("var", "builder")

    def __init__(self, var: core.Var, builder: builder_mod.GraphBuilder):
        self.var = var
        self.builder = builder

    @property
    def type(self) -> types.TensorType:
        return self.var.type

    @classmethod
    def bind_primitive(cls, prim: primitives.Primitive, args: tuple[Any, ...], params: dict[str, Any]) -> Any:
        current = builder_mod.current()
        if current is None:
            raise errors.TracerError(
                f"a symbolic tensor was used in {prim.name} after its graph was built",
                hint="values computed while compiling cannot escape the compiled function",
            )
        return current.emit(prim, args, params)

    def _describe(self) -> str:
        name = f" '{self.var.hint}'" if self.var.hint else ""
        return f"tensor{name} ({self.var.type})"

    def __repr__(self) -> str:
        return f"<SymbolicTensor {self._describe()}>"


def is_symbolic(value: Any) -> bool:
    """Whether ``value`` belongs to the graph being built."""
    return isinstance(value, Symbolic)


def contains_symbolic(tree: Any) -> bool:
    """Whether a symbolic value occurs anywhere in nested lists, tuples and dicts."""
    if isinstance(tree, Symbolic):
        return True
    if isinstance(tree, (list, tuple)):
        return any(contains_symbolic(v) for v in tree)
    if isinstance(tree, dict):
        return any(contains_symbolic(v) for v in tree.values())
    return False
