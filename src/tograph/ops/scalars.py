"""Python scalars taken from tensors: ``t.item()``, ``t.tolist()``, ``float(t)``-like casts and
the ``math`` module's functions of 0-d tensors.

Stage: graph building. Input: a 0-d (or, for ``item``/``tolist``, any static-shape) tensor.
Output: weak scalars (``f64[]~``, ``i64[]~``, ``bool[]~``, ``c128[]~``): values that are Python
numbers at run time and are returned to the caller as the Python ``float``/``int`` eager code
gives, so a data-dependent ``if`` on one is a ``cond``. ``math.f(t)`` is one ``math_call``
equation running ``math.f`` itself when the graph runs (its values and its errors, such as
``math domain error``, are Python's). Printed form::

    t1:f64[]~ = math_call[fn='sqrt'] t0
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import primitives, types
from tograph.ops import elementwise
from tograph.trace import dispatch, tensor

# The Python type a scalar of each dtype kind becomes (``item``, ``tolist``).
_PYTHON = {"b": bool, "i": int, "u": int, "f": float, "c": complex}
_MAX_TOLIST = 1024

# math's functions of numbers (math.fsum, prod, dist and the like take iterables: not here).
MATH_FUNCTIONS = frozenset(
    "acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees erf erfc "
    "exp exp2 expm1 fabs factorial floor fmod gamma gcd hypot isclose isfinite isinf isnan "
    "isqrt lcm ldexp lgamma log log10 log1p log2 nextafter perm pow radians remainder sin "
    "sinh sqrt tan tanh trunc ulp".split()
)


def cast(value: Any, kind: type) -> Any:
    """``kind(value)`` (``float``, ``int``, ``bool``, ``complex``) of a 0-d tensor: a weak
    scalar of that Python type."""
    return elementwise.astype_p.bind(value, dtype=np.dtype(kind), weak=True)


def _scalar_of(x: Any, index: tuple[Any, ...]) -> Any:
    """The one element ``x.item(*index)`` names, still a tensor."""
    if len(index) == 1:
        return np.ravel(x)[index[0]]
    if index:
        return x[index]
    if x.type.size not in (1, None):
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return np.reshape(x, ())


# NumPy's concrete numeric scalar types (np.float32, np.int8, np.bool_, ...).
SCALAR_TYPES = tuple(
    sorted(
        {np.dtype(code).type for code in np.typecodes["All"] if np.dtype(code).kind in "biufc"},
        key=lambda t: t.__name__,
    )
)


def scalar_type(kind: type, value: Any = 0) -> Any:
    """``np.float32(t)`` and the like: a NumPy scalar of that type from a 0-d tensor, an array
    of that dtype from any other (as ``t.astype``); an array already of that dtype is returned
    itself, as NumPy does (a write through the result is a write to it)."""
    if getattr(value, "ndim", 0) > 0 and value.dtype == np.dtype(kind):
        return value
    out = elementwise.astype_p.bind(value, dtype=np.dtype(kind), weak=False)
    if isinstance(out, tensor.SymbolicTensor):
        out.array0d = False
    return out


for _kind in SCALAR_TYPES:
    dispatch.overrides(_kind)(functools.partial(scalar_type, _kind))


@dispatch.implements(np.ndarray.item)
def item(x: Any, *index: Any) -> Any:
    """``x.item(*index)``: a Python scalar (weak) of the element's kind."""
    element = _scalar_of(x, index)
    return cast(element, _PYTHON[x.dtype.kind])


@dispatch.implements(np.ndarray.tolist)
def tolist(x: Any) -> Any:
    """``x.tolist()``: nested Python lists of weak scalars (a static shape, of modest size)."""
    if x.ndim == 0:
        return item(x)
    if not x.type.is_static_shape or (x.type.size or 0) > _MAX_TOLIST:
        raise errors.UnsupportedError(
            f".tolist() of a tensor of shape {x.type.shape}: a list's length must be known "
            f"while the graph is built, and of at most {_MAX_TOLIST} items",
            construct=".tolist()",
        )
    return [tolist(x[i]) for i in range(x.type.shape[0])]


# ---- math.* ------------------------------------------------------------------------------------


def _math_impl(*values: Any, fn: str, keywords: tuple[str, ...] = ()) -> Any:
    return _call_math(fn, values, keywords)


def _call_math(fn: str, values: Any, keywords: tuple[str, ...]) -> Any:
    """``math.fn`` of the operands, the last ``len(keywords)`` of them passed by those names
    (``math.isclose``'s ``rel_tol`` and ``abs_tol`` are keyword-only)."""
    positional = len(values) - len(keywords)
    return getattr(math, fn)(*values[:positional], **dict(zip(keywords, values[positional:])))


@functools.lru_cache(maxsize=256)
def _math_rule(
    *in_types: types.TensorType, fn: str, keywords: tuple[str, ...] = ()
) -> types.TensorType:
    if fn not in MATH_FUNCTIONS:
        raise errors.UnsupportedError(f"math.{fn} is not a function of numbers", construct=fn)
    for t in in_types:
        if t.shape != ():
            raise errors.ShapeError(f"math.{fn} takes scalars, got a tensor of type {t}")
    # probes until one is inside the domain: 2 for the integer functions (factorial, comb,
    # isqrt), 0.5 for most of the others, 2.0 for acosh
    error: Exception | None = None
    for probe in (0.5, 2.0):
        values = [_PYTHON[t.dtype.kind](2 if t.dtype.kind in "biu" else probe) for t in in_types]
        try:
            return types.type_of(_call_math(fn, values, keywords))
        except (TypeError, ValueError) as exc:
            error = exc
    raise errors.DTypeError(f"math.{fn} of {', '.join(map(str, in_types))}: {error}")


math_call_p = primitives.Primitive("math_call", _math_impl, _math_rule)


def math_handler(fn: Callable[..., Any]) -> Callable[..., Any]:
    """What converted code calls for ``fn``, a ``math`` function: ``math_call`` when an
    argument (positional or keyword, as ``math.isclose(a, b, rel_tol=r)``) is a tensor, else
    ``fn`` itself."""
    name = fn.__name__

    def call(*args: Any, **kwargs: Any) -> Any:
        if not any(tensor.is_symbolic(a) for a in (*args, *kwargs.values())):
            return fn(*args, **kwargs)
        keywords = tuple(sorted(kwargs))
        operands = [_scalar_operand(a, name) for a in (*args, *(kwargs[k] for k in keywords))]
        named = {"keywords": keywords} if keywords else {}
        return math_call_p.bind(*operands, fn=name, **named)

    return call


def _scalar_operand(value: Any, name: str) -> Any:
    if tensor.is_tensor(value):
        return value
    if types.is_python_scalar(value) or isinstance(value, np.generic):
        return value
    try:
        return operator.index(value)
    except TypeError:
        raise errors.UnsupportedError(
            f"math.{name} of a {type(value).__name__} beside a tensor", construct=f"math.{name}"
        ) from None
