"""Random expressions of everyday Python and NumPy idioms the core forms leave out: ``and``/``or``
giving one of their operands (not a bool) and ternaries over arrays and numbers (``truthy``);
lambdas called in place, with ``map``, ``filter`` and ``max``/``sorted(key=...)`` over ranges
(``lambdas``); comprehensions with conditions over ranges and arrays (``comprehensions``); arrays
of small and unusual dtypes (int8, uint8, int32, float16, complex128, bool) in arithmetic that
wraps, ``np.where``/``np.clip``/``np.cumsum``/``np.sort``/``np.unique``/``np.argmax`` over them
(``dtypes``); and the array methods that return a view or a copy depending on the array
(``ravel``, ``flatten``, ``swapaxes``, ``astype(copy=False)``, ``view``, ``np.asarray``;
``view_methods``).

``Idioms`` is a part of ``expressions.Expressions``; each form comes only under its feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .expressions import Expr

# The dtypes of the ``q`` argument (``programs``) and of the casts ``dtypes`` writes.
SMALL_DTYPES = ("int8", "uint8", "int32", "float16", "complex128", "bool")


def _is_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.size > 0


def _is_row(value: Any) -> bool:
    return _is_array(value) and value.ndim >= 1


def _is_small(value: Any) -> bool:
    """An array of one of ``SMALL_DTYPES`` (or float32): where wrapping and rounding differ."""
    return _is_row(value) and value.dtype.name in (*SMALL_DTYPES, "float32")


class Idioms:
    """The idiom forms; mixed into ``expressions.Expressions``."""

    if TYPE_CHECKING:
        rng: Any
        features: frozenset[str]

        def make(self, code: str) -> Expr | None: ...
        def pick(self, test: Callable[[Any], bool]) -> Expr | None: ...
        def array(self, depth: int = 2) -> Expr | None: ...
        def number(self, depth: int = 2) -> Expr | None: ...
        def condition(self, depth: int = 2) -> Expr | None: ...

    def idiom_arrays(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Array makers of this module for the features chosen."""
        if depth <= 0:
            return []
        makers: list[Callable[[], Expr | None]] = []
        if "truthy" in self.features:
            makers.append(lambda: self.ternary(self.array, depth))
        if "lambdas" in self.features:
            makers.append(lambda: self.lambda_array(depth))
        if "comprehensions" in self.features:
            makers.append(lambda: self.comprehension_array(depth))
        if "dtypes" in self.features:
            makers += [lambda: self.small_dtype_array(depth)] * 2
        if "view_methods" in self.features:
            makers.append(lambda: self.method_view(depth))
        return makers

    def idiom_numbers(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Number makers of this module for the features chosen."""
        if depth <= 0:
            return []
        makers: list[Callable[[], Expr | None]] = []
        if "truthy" in self.features:
            makers += [lambda: self.ternary(self.number, depth), lambda: self.operand_of(depth)]
        if "lambdas" in self.features:
            makers.append(lambda: self.lambda_number(depth))
        if "comprehensions" in self.features:
            makers.append(lambda: self.comprehension_number(depth))
        if "dtypes" in self.features:
            makers.append(lambda: self.small_dtype_number(depth))
        return makers

    # ---- truthy ----------------------------------------------------------------------------
    def ternary(self, maker: Callable[[int], Expr | None], depth: int) -> Expr | None:
        """``a if cond else b`` of two values of one kind (so the kind is the same either way)."""
        a, b, c = maker(depth - 1), maker(depth - 1), self.condition(0)
        if a is None or b is None or c is None or not _same_kind(a.probe, b.probe):
            return None
        return self.make(f"({a.code} if {c.code} else {b.code})")

    def operand_of(self, depth: int) -> Expr | None:
        """``a or b``, ``a and b`` of numbers of one kind: Python gives one of the operands."""
        a, b = self.number(depth - 1), self.number(depth - 1)
        if a is None or b is None or not _same_kind(a.probe, b.probe):
            return None
        return self.make(f"({a.code} {self.rng.choice(['or', 'and'])} {b.code})")

    # ---- lambdas ---------------------------------------------------------------------------
    def lambda_array(self, depth: int) -> Expr | None:
        a = self.array(depth - 1)
        if a is None:
            return None
        n = self.number(0)
        c = n.code if n is not None else "2"
        forms = [
            f"(lambda u: u * {c} - 1)({a.code})",
            f"(lambda u, w={c}: np.maximum(u, w))({a.code})",
            "np.array(list(map(lambda t: t * 2, range(3))))",
            f"sum(map(lambda u: u + 1, [{a.code}, {a.code}]))",
        ]
        return self.make(self.rng.choice(forms))

    def lambda_number(self, depth: int) -> Expr | None:
        row = self.pick(_is_row)
        n = self.number(depth - 1)
        forms = [
            "max(range(4), key=lambda i: (i * 3) % 4)",
            "sorted(range(4), key=lambda i: -i)[1]",
            "len(list(filter(lambda i: i % 2, range(5))))",
        ]
        if n is not None:
            forms += [
                f"(lambda t: t * 2 + 1)({n.code})",
                f"sum(map(lambda i: i * {n.code}, range(3)))",
            ]
        if row is not None:
            size = row.probe.shape[0]
            forms += [
                f"max(range({size}), key=lambda i: {row.code}[i])",
                f"len(list(filter(lambda t: t > 0, {row.code})))",
                f"sum(map(lambda t: t * 2, {row.code}))",
            ]
        return self.make(self.rng.choice(forms))

    # ---- comprehensions --------------------------------------------------------------------
    def comprehension_array(self, depth: int) -> Expr | None:
        a = self.pick(_is_row)
        n = self.number(depth - 1)
        if a is None or n is None:
            return None
        size = a.probe.shape[0]
        forms = [
            f"np.array([{a.code}[i] * 2 for i in range({size}) if i != 1])",
            f"np.array([t + {n.code} for t in {a.code}])",
            f"np.array([i * {n.code} for i in range(4) if i % 2 == 0])",
            f"np.stack([{a.code}[i] for i in range({size})[::-1]])",
        ]
        return self.make(self.rng.choice(forms))

    def comprehension_number(self, depth: int) -> Expr | None:
        a = self.pick(_is_row)
        n = self.number(depth - 1)
        if a is None or n is None:
            return None
        forms = [
            f"sum([t * 2 for t in {a.code} if t > {n.code}])",
            f"sum(t for t in {a.code} if t != 0)",
            f"len([i for i in range(5) if i > {n.code}])",
            f"max([t for t in {a.code}] + [{n.code}])",
            f"sum(i * t for i, t in enumerate({a.code}))",
        ]
        return self.make(self.rng.choice(forms))

    # ---- dtypes ----------------------------------------------------------------------------
    def small_dtype_array(self, depth: int) -> Expr | None:
        small = self.pick(_is_small)
        if small is None or self.rng.random() < 0.3:
            source = self.array(depth - 1)
            if source is None:
                return None
            small = self.make(f"{source.code}.astype(np.{self.rng.choice(SMALL_DTYPES)})")
            if small is None:
                return None
        q = small.code
        forms = [
            f"({q} + {q})",
            f"({q} * 100)",
            f"({q} - 3)",
            f"np.where({q} > 0, {q}, 0)",
            f"np.clip({q}, 0, 5)",
            f"np.cumsum({q})",
            f"np.sort({q})",
            f"np.unique({q})",
            f"({q} * 1.5)",
            f"({q} // 2)",
            f"np.abs({q})",
            f"{q}.astype(np.int8)",
            f"({q} + np.int8(100))",
            f"({q} * np.float16(3))",
        ]
        return self.make(self.rng.choice(forms))

    def small_dtype_number(self, depth: int) -> Expr | None:
        small = self.pick(_is_small)
        if small is None:
            return None
        q = small.code
        forms = [
            f"np.argmax({q})",
            f"{q}.sum()",
            f"{q}[0]",
            f"({q}[0] + {q}[-1])",
            f"{q}.max()",
            f"np.prod({q})",
            f"{q}.mean()",
        ]
        return self.make(self.rng.choice(forms))

    # ---- view methods ----------------------------------------------------------------------
    def method_view(self, depth: int) -> Expr | None:
        """A method that returns a view or a copy: which one depends on the array's layout."""
        a = self.array(depth - 1)
        if a is None or not _is_array(a.probe):
            return None
        forms = [
            f"{a.code}.ravel()",
            f"{a.code}.flatten()",
            f"{a.code}.astype({a.code}.dtype, copy=False)",
            f"{a.code}.astype(np.float64, copy=False)",
            f"{a.code}.view()",
            f"np.asarray({a.code})",
            f"np.ravel({a.code})",
        ]
        if a.probe.ndim == 2:
            forms += [f"{a.code}.swapaxes(0, 1)", f"np.swapaxes({a.code}, 1, 0)"]
        return self.make(self.rng.choice(forms))


def _same_kind(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` have one kind: type, and an array's shape and dtype (as
    ``expressions.kind`` tells them)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return bool(a.shape == b.shape and a.dtype == b.dtype)
    return not isinstance(a, np.generic) or a.dtype == b.dtype
