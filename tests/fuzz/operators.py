"""Random expressions of the operators hand-written NumPy code mixes and the generator's core
forms leave out: integer floor division and remainder with negative operands, bool array logic
(``&``, ``|``, ``^``, ``~``), ``np.argmax``-style index reductions, ``np.count_nonzero``,
chained comparisons, 0-d arrays beside Python and NumPy scalars, and ``np.where``/``np.clip``
with scalar branches.

``Operators`` is a part of ``expressions.Expressions`` (it uses its random source, scope and
``make``/``pick``/``array``/``number``); every form is taken only under the ``operators``
feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .expressions import Expr

# Divisors that are never zero, negative ones included (Python and NumPy round toward -inf).
_DIVISORS = ("2", "3", "-2", "-3", "7")


def _is_bool_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.size > 0 and value.dtype == bool


class Operators:
    """The operator forms; mixed into ``expressions.Expressions``."""

    if TYPE_CHECKING:
        rng: Any
        features: frozenset[str]

        def make(self, code: str) -> Expr | None: ...
        def pick(self, test: Callable[[Any], bool]) -> Expr | None: ...
        def array(self, depth: int = 2) -> Expr | None: ...
        def number(self, depth: int = 2) -> Expr | None: ...

    def operator_arrays(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Array makers of this module (none without the ``operators`` feature)."""
        if "operators" not in self.features or depth <= 0:
            return []
        return [
            lambda: self.integer_division(depth),
            lambda: self.bool_logic(depth),
            lambda: self.index_array(depth),
            lambda: self.zero_dim(depth),
        ]

    def operator_numbers(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Number makers of this module (none without the ``operators`` feature)."""
        if "operators" not in self.features or depth <= 0:
            return []
        return [lambda: self.index_number(depth), lambda: self.number_division(depth)]

    def operator_conditions(self) -> list[Callable[[], Expr | None]]:
        """Condition makers of this module (none without the ``operators`` feature)."""
        if "operators" not in self.features:
            return []
        return [self.chained_comparison]

    def integer_division(self, depth: int) -> Expr | None:
        """``a // d``, ``a % d`` (``d`` a nonzero literal or a positive array), ``a ** 2``."""
        a = self.array(depth - 1)
        if a is None:
            return None
        d = self.rng.choice(_DIVISORS)
        other = self.pick(lambda v: isinstance(v, np.ndarray) and v.size > 0)
        positive = f"(np.abs({other.code}) + 1)" if other is not None else d
        forms = [
            f"({a.code} // {d})",
            f"({a.code} % {d})",
            f"(-{a.code} % {d})",
            f"({a.code} // {positive})",
            f"np.floor_divide({a.code}, {d})",
            f"np.mod({a.code} * 3 - 1, {d})",
            f"({a.code} ** 2)",
        ]
        return self.make(self.rng.choice(forms))

    def bool_logic(self, depth: int) -> Expr | None:
        """Masks combined: ``(a > n) & b``, ``~m``, ``m ^ (a < n)``, ``np.logical_or``."""
        a = self.array(depth - 1)
        n = self.number(0)
        if a is None or n is None:
            return None
        mask = f"({a.code} > {n.code})"
        other = self.pick(_is_bool_array)
        second = other.code if other is not None else f"({a.code} < 1)"
        forms = [
            f"({mask} & {second})",
            f"({mask} | {second})",
            f"({mask} ^ {second})",
            f"~{mask}",
            f"~{second}",
            f"np.logical_or({mask}, {second})",
            f"np.logical_not({second})",
            f"np.where({mask}, {n.code}, -1)",
            f"np.where({second}, {a.code}, 0.5)",
            f"np.clip({a.code}, {n.code}, None)",
        ]
        return self.make(self.rng.choice(forms))

    def index_array(self, depth: int) -> Expr | None:
        """Index reductions along an axis, and running totals of integer or bool arrays."""
        a = self.array(depth - 1)
        if a is None or not a.probe.ndim:
            return None
        axis = self.rng.randrange(a.probe.ndim)
        forms = [
            f"np.argmax({a.code}, axis={axis})",
            f"{a.code}.argmin(axis={axis})",
            f"np.cumsum({a.code} > 0)",
            f"np.cumprod({a.code} // 2 + 1)",
        ]
        return self.make(self.rng.choice(forms))

    def zero_dim(self, depth: int) -> Expr | None:
        """0-d arrays: ``np.array(number)``, ``np.asarray``, a reduction kept 0-d."""
        n = self.number(depth - 1)
        a = self.array(depth - 1)
        forms = [] if n is None else [f"np.array({n.code})", f"np.asarray({n.code})"]
        if a is not None:
            forms += [f"np.array({a.code}.sum())", f"np.add.reduce({a.code}, axis=None)"]
        return self.make(self.rng.choice(forms)) if forms else None

    def index_number(self, depth: int) -> Expr | None:
        """``np.argmax(a)`` (a NumPy int), ``np.count_nonzero`` (a Python int), ``.item()``."""
        a = self.array(depth - 1)
        if a is None:
            return None
        forms = [
            f"np.argmax({a.code})",
            f"{a.code}.argmin()",
            f"np.count_nonzero({a.code} > 0)",
            f"int(np.argmax({a.code}))",
            f"{a.code}.max().item()",
        ]
        return self.make(self.rng.choice(forms))

    def number_division(self, depth: int) -> Expr | None:
        """``n // d``, ``n % d``, ``divmod(n, d)[i]`` and ``-n // d`` of numbers."""
        n = self.number(depth - 1)
        if n is None:
            return None
        d = self.rng.choice(_DIVISORS)
        forms = [
            f"({n.code} // {d})",
            f"({n.code} % {d})",
            f"(-{n.code} // {d})",
            f"divmod({n.code}, {d})[{self.rng.randrange(2)}]",
        ]
        return self.make(self.rng.choice(forms))

    def chained_comparison(self) -> Expr | None:
        """``a < b <= c`` of numbers (Python evaluates ``b`` once and stops at the first false)."""
        a, b, c = self.number(1), self.number(1), self.number(1)
        if a is None or b is None or c is None:
            return None
        first, second = (self.rng.choice(["<", "<=", ">", "!=", "=="]) for _ in range(2))
        return self.make(f"{a.code} {first} {b.code} {second} {c.code}")
