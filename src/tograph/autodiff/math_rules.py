"""The VJP rule of ``math_call``: the derivatives of the ``math`` module's functions of numbers.

Stage: autodiff. Input and output as in ``rules``; the function is the equation's ``fn`` param
(``math_call[fn='erf']``). Each derivative is written with NumPy functions of the operands, so
the gradient graph is ordinary equations. Piecewise constant functions (``floor``, ``isnan``,
``trunc``, ...) pass no cotangent; a function without a derivative here (``gamma``, ``fmod``)
raises ``UnsupportedError`` naming it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tograph import errors
from tograph.autodiff.rules import defvjp
from tograph.ops import scalars

_ONE_ARGUMENT: dict[str, Callable[[Any, Any], Any]] = {
    "sqrt": lambda x, out: 1 / (2 * out),
    "cbrt": lambda x, out: 1 / (3 * out * out),
    "exp": lambda x, out: out,
    "exp2": lambda x, out: out * math.log(2.0),
    "expm1": lambda x, out: out + 1,
    "log1p": lambda x, out: 1 / (1 + x),
    "log10": lambda x, out: 1 / (x * math.log(10.0)),
    "log2": lambda x, out: 1 / (x * math.log(2.0)),
    "sin": lambda x, out: np.cos(x),
    "cos": lambda x, out: -np.sin(x),
    "tan": lambda x, out: 1 + out * out,
    "sinh": lambda x, out: np.cosh(x),
    "cosh": lambda x, out: np.sinh(x),
    "tanh": lambda x, out: 1 - out * out,
    "asin": lambda x, out: 1 / np.sqrt(1 - x * x),
    "acos": lambda x, out: -1 / np.sqrt(1 - x * x),
    "atan": lambda x, out: 1 / (1 + x * x),
    "asinh": lambda x, out: 1 / np.sqrt(x * x + 1),
    "acosh": lambda x, out: 1 / np.sqrt(x * x - 1),
    "atanh": lambda x, out: 1 / (1 - x * x),
    "erf": lambda x, out: 2 / math.sqrt(math.pi) * np.exp(-x * x),
    "erfc": lambda x, out: -2 / math.sqrt(math.pi) * np.exp(-x * x),
    "fabs": lambda x, out: np.sign(x),
    "degrees": lambda x, out: 180.0 / math.pi,
    "radians": lambda x, out: math.pi / 180.0,
}

_CONSTANT = frozenset(
    "ceil floor trunc isnan isinf isfinite isclose factorial comb perm gcd lcm isqrt".split()
)


def _log(x: Any, base: Any = None) -> tuple[Any, ...]:
    """``log(x)`` and ``log(x, base) = ln x / ln base``: the partial derivatives."""
    if base is None:
        return (1 / x,)
    ln_base = np.log(base)
    return 1 / (x * ln_base), -np.log(x) / (base * ln_base * ln_base)


def _two_arguments(fn: str, x: Any, y: Any, out: Any) -> tuple[Any, Any] | None:
    if fn == "atan2":  # atan2(y, x): the operands are named as math names them
        r2 = x * x + y * y
        return y / r2, -x / r2
    if fn == "hypot":
        return x / out, y / out
    if fn == "pow":
        return y * x ** (y - 1), out * np.log(np.where(x > 0, x, 1))
    if fn == "copysign":
        return np.sign(x) * np.sign(out), None
    return None


@defvjp(scalars.math_call_p)
def _math_call(
    g: Any, *args: Any, out: Any, fn: str, keywords: tuple[str, ...] = ()
) -> tuple[Any, ...]:
    if fn in _CONSTANT:
        return (None,) * len(args)
    partials: tuple[Any, ...] | None = None
    if fn == "log":
        partials = _log(*args)
    elif len(args) == 1 and fn in _ONE_ARGUMENT:
        partials = (_ONE_ARGUMENT[fn](args[0], out),)
    elif len(args) == 2:
        partials = _two_arguments(fn, args[0], args[1], out)
    if partials is None:
        raise errors.UnsupportedError(
            f"tograph cannot differentiate math.{fn}: it has no gradient rule",
            construct=f"gradient of math.{fn}",
        )
    return tuple(None if p is None else g * p for p in partials)
