"""Tensor types: dtype, shape with unknown (``None``) dimensions, and the weak flag.

A *weak* type marks a value that is a Python scalar in eager code (a literal, a ``range`` index, a
counter started at ``0``). NumPy 2 (NEP 50) lets such values adopt the dtype of the arrays they
meet, so ``float32_array * i`` stays float32. At run time tograph keeps weak values as Python
scalars, so NumPy itself applies exactly that rule; the type rules here predict it.

Printed form: ``f32[3,None]``; a weak type carries a trailing ``~`` (``i64[]~``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from typing import Any, cast

import numpy as np

from tograph import errors, origin

_INT64 = np.iinfo(np.int64)
_INT64_MIN, _INT64_MAX = int(_INT64.min), int(_INT64.max)

Dim = int | None
Shape = tuple[Dim, ...]

_ABBREV = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "u8",
    np.dtype(np.uint16): "u16",
    np.dtype(np.uint32): "u32",
    np.dtype(np.uint64): "u64",
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "c64",
    np.dtype(np.complex128): "c128",
}
_FROM_ABBREV = {v: k for k, v in _ABBREV.items()}

# What a weak value of each dtype kind stands for when NumPy promotes it.
_WEAK_PROXY = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


@dataclasses.dataclass(frozen=True, slots=True)
class TensorType:
    """The static type of a graph value, e.g. ``f64[3,None]`` or ``i64[]~`` (weak)."""

    dtype: np.dtype
    shape: Shape
    weak: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", np.dtype(self.dtype))
        object.__setattr__(self, "shape", tuple(self.shape))
        if self.weak and self.shape != ():
            raise errors.InternalError(f"weak type must be a scalar, got shape {self.shape}")

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        """Number of elements, or None when a dimension is unknown."""
        if None in self.shape:
            return None
        return math.prod(cast("tuple[int, ...]", self.shape))

    @property
    def is_static_shape(self) -> bool:
        return None not in self.shape

    def with_shape(self, shape: Sequence[Dim]) -> TensorType:
        return TensorType(self.dtype, tuple(shape), self.weak and tuple(shape) == ())

    def strong(self) -> TensorType:
        return TensorType(self.dtype, self.shape, False)

    def __str__(self) -> str:
        dims = ",".join("None" if d is None else str(d) for d in self.shape)
        return f"{dtype_name(self.dtype)}[{dims}]" + ("~" if self.weak else "")

    __repr__ = __str__


def dtype_name(dtype: Any) -> str:
    """Short dtype name used in printed types (``f32``, ``i64``, ``bool``)."""
    dtype = np.dtype(dtype)
    return _ABBREV.get(dtype, str(dtype.name))


def parse_type(text: str) -> TensorType:
    """Parses the printed form of a type, e.g. ``f32[3,None]`` or ``i64[]~``."""
    text = text.strip()
    weak = text.endswith("~")
    if weak:
        text = text[:-1]
    if not text.endswith("]") or "[" not in text:
        raise ValueError(f"cannot parse type {text!r}; expected e.g. 'f64[3]' or 'i64[]'")
    name, dims = text[:-1].split("[", 1)
    dtype = _FROM_ABBREV.get(name)
    if dtype is None:
        try:
            dtype = np.dtype(name)
        except TypeError as exc:
            raise ValueError(f"unknown dtype {name!r} in type {text!r}") from exc
    shape = tuple(
        None if d.strip() in ("None", "?") else int(d) for d in dims.split(",") if d.strip()
    )
    return TensorType(dtype, shape, weak)


def is_python_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, complex)) and not isinstance(value, np.generic)


def is_dask_array(value: Any) -> bool:
    """Whether ``value`` is a ``dask.array.Array``, told without importing dask."""
    return type(value).__module__.startswith("dask.array") and hasattr(value, "__dask_graph__")


def type_of(value: Any) -> TensorType:
    """The type of a concrete value: NumPy arrays and scalars are strong, Python scalars weak.

    A chunked array that is not NumPy's (a ``dask.array.Array``) is typed by its ``dtype`` and
    ``shape`` without being computed; its shape must be known.
    """
    weak = _WEAK_TYPES.get(type(value))
    if weak is not None and (type(value) is not int or _INT64_MIN <= value <= _INT64_MAX):
        return weak  # a Python number (the common literal): its type is its class's
    if is_python_scalar(value):
        if type(value) is int and not _INT64.min <= value <= _INT64.max:
            raise errors.UnsupportedError(
                f"the Python int {value} does not fit in 64 bits, as a graph's integers must",
                origin.current_location(),
                construct="Python int beyond 64 bits",
            )
        return TensorType(np.asarray(value).dtype, (), weak=True)
    if is_dask_array(value):
        return TensorType(np.dtype(value.dtype), tuple(int(n) for n in value.shape))
    arr = np.asarray(value)
    if arr.dtype == object:
        raise errors.ToGraphError(f"value of type {type(value).__name__} is not a tensor")
    return TensorType(arr.dtype, arr.shape)


# The weak type of each Python number class: NumPy's dtype for its values (ints within int64).
_WEAK_TYPES = {
    kind: TensorType(np.asarray(kind()).dtype, (), weak=True)
    for kind in (bool, int, float, complex)
}


# What a scalar is in eager code, as a code: a Python number of the type NumPy gives weak scalars
# of each dtype kind (1-4), a NumPy scalar of one of these dtypes (16 on), or a 0-d array of one
# (64 on). Staging carries such a code beside a scalar whose kind depends on the path taken
# (``staging.kinds``).
_PYTHON_CODES = {"b": (1, bool), "i": (2, int), "u": (2, int), "f": (3, float), "c": (4, complex)}
_NUMPY_CODES = [np.dtype(c) for c in "?bhilqBHILQefdgFDG"]
_ARRAY_CODES = 64
_KIND_OF_CODE: dict[int, Any] = {code: kind for code, kind in _PYTHON_CODES.values()}
_KIND_OF_CODE.update({16 + i: dtype.type for i, dtype in enumerate(_NUMPY_CODES)})
_KIND_OF_CODE.update({_ARRAY_CODES + i: dtype for i, dtype in enumerate(_NUMPY_CODES)})


def kind_code(dtype: np.dtype, weak: bool, array: bool = False) -> int | None:
    """The code of a scalar of ``dtype`` that is a Python number (``weak``), a NumPy scalar, or
    a 0-d array (``array``)."""
    if weak:
        return _PYTHON_CODES[dtype.kind][0] if dtype.kind in _PYTHON_CODES else None
    if dtype not in _NUMPY_CODES:
        return None
    return (_ARRAY_CODES if array else 16) + _NUMPY_CODES.index(dtype)


def is_array_code(code: int) -> bool:
    """Whether ``code`` names a 0-d array."""
    return code >= _ARRAY_CODES


def kind_name(code: int) -> str | None:
    """The name of the kind ``code`` stands for (``float``, ``float32``), None for no kind."""
    kind = _KIND_OF_CODE.get(code)
    return None if kind is None else kind.__name__


def kind_type(code: int) -> TensorType:
    """The scalar type of the kind ``code``: weak for a Python number."""
    kind = _KIND_OF_CODE[code]
    if issubclass(kind, np.generic):
        return TensorType(np.dtype(kind), ())
    return TensorType(np.asarray(kind()).dtype, (), weak=True)


def of_kind(code: Any, value: Any) -> Any:
    """``value`` (a scalar) as the Python number, NumPy scalar or 0-d array that ``code`` names
    (a 0-d array of that dtype is returned as itself). A complex value named real by ``code``
    held a real number on its path (the join of a complex and a real number is complex): its
    real part is taken, without NumPy's warning or Python's TypeError."""
    kind = _KIND_OF_CODE[int(code)]
    if np.iscomplexobj(value) and np.dtype(kind).kind != "c":
        value = np.real(value)
    if isinstance(kind, np.dtype):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype == kind:
            return value
        return np.array(value, dtype=kind)
    if issubclass(kind, np.generic):
        return kind(value)
    return kind(value.item() if isinstance(value, np.generic) else value)


def weak_proxy(t: TensorType) -> Any:
    """A Python scalar that promotes the way the weak type ``t`` does."""
    return _WEAK_PROXY[t.dtype.kind]


def promote(types: Iterable[TensorType]) -> tuple[np.dtype, bool]:
    """NumPy 2 result dtype of combining ``types``, and whether the result is weak.

    Weak types take part as Python scalars (NEP 50); the result is weak only if every input is.
    """
    types = list(types)
    strong = [t.dtype for t in types if not t.weak]
    weak = [weak_proxy(t) for t in types if t.weak]
    if not strong:
        return np.result_type(*weak), True
    return np.result_type(*strong, *weak), False


def broadcast_shapes(*shapes: Shape, what: str = "operands") -> Shape:
    """NumPy broadcasting of shapes with unknown dims; raises a clear error on mismatch."""
    if len(shapes) == 2 and shapes[0] == shapes[1] and None not in shapes[0]:
        return tuple(shapes[0])  # the common case, without the general walk
    ndim = max(len(s) for s in shapes) if shapes else 0
    out: list[Dim] = []
    for axis in range(ndim):
        dims = [s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            pretty = ", ".join(str(tuple(s)) for s in shapes)
            raise errors.ShapeError(f"{what} could not be broadcast together with shapes {pretty}")
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def join(a: ValueType, b: ValueType) -> ValueType:
    """The least type holding values of ``a`` and ``b``: promoted dtype, differing dims unknown.

    Two list types join their element types, which must agree in dtype (a list's elements are never
    converted); ``list[?]`` (nothing pushed yet) joined with ``list[T]`` is ``list[T]``.
    """
    if isinstance(a, ListType) or isinstance(b, ListType):
        return _join_lists(a, b)
    dtype, weak = promote([a, b])
    if a.ndim != b.ndim:
        raise errors.ShapeError(
            f"values of rank {a.ndim} ({a}) and rank {b.ndim} ({b}) cannot be merged"
        )
    shape = tuple(x if x == y else None for x, y in zip(a.shape, b.shape))
    return TensorType(dtype, shape, weak and shape == ())


def _join_lists(a: ValueType, b: ValueType) -> ListType:
    if not isinstance(a, ListType) or not isinstance(b, ListType):
        kinds = [f"a list ({t})" if isinstance(t, ListType) else f"a tensor ({t})" for t in (a, b)]
        raise errors.DTypeError(f"{kinds[0]} and {kinds[1]} cannot be merged")
    if a.elem is None or b.elem is None:
        return a if b.elem is None else b
    elem = join(a.elem, b.elem)
    if not isinstance(elem, TensorType):
        raise errors.DTypeError(f"lists of {a.elem} and of {b.elem} cannot be merged")
    for side in (a.elem, b.elem):
        if (elem.dtype, elem.weak) != (side.dtype, side.weak):
            raise errors.DTypeError(f"lists of {a.elem} and of {b.elem} cannot be merged")
    return ListType(elem)


def fits(value: ValueType, target: ValueType) -> bool:
    """Whether a value of type ``value`` may stand where ``target`` is expected.

    Dtype, weakness and rank must agree and every known dim of ``target`` must equal the value's:
    ``f64[3]`` fits ``f64[None]``, not the reverse. ``list[?]`` (empty) fits any list type.
    """
    if isinstance(target, ListType) or isinstance(value, ListType):
        if not (isinstance(target, ListType) and isinstance(value, ListType)):
            return False
        if value.elem is None or target.elem is None:
            return value.elem is None
        return fits(value.elem, target.elem)
    if (value.dtype, value.weak, value.ndim) != (target.dtype, target.weak, target.ndim):
        return False
    return all(t is None or t == v for v, t in zip(value.shape, target.shape))


def matches(t: TensorType, value: Any) -> bool:
    """Whether a concrete value fits type ``t`` (dtype equal, known dims equal)."""
    v = type_of(value)
    if v.dtype != t.dtype or v.ndim != t.ndim:
        return False
    return all(d is None or d == e for d, e in zip(t.shape, v.shape))


@dataclasses.dataclass(frozen=True, slots=True)
class ListType:
    """A typed tensor list (values appended inside loops); ``elem`` is None until the first push.

    Printed form: ``list[f64[3]]``.
    """

    elem: TensorType | None

    def __str__(self) -> str:
        return f"list[{self.elem if self.elem is not None else '?'}]"

    __repr__ = __str__


ValueType = TensorType | ListType


def tensor_type(t: ValueType) -> TensorType:
    """``t``, which the caller knows is a tensor type (not a list type)."""
    if not isinstance(t, TensorType):
        raise errors.InternalError(f"expected a tensor type, got {t}")
    return t
