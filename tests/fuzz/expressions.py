"""Typed random expressions for the generated programs.

An expression is source text plus its *probe*: the value the text has when evaluated on stand-in
values of the names in scope (arrays of ones of the right shape and dtype, Python and NumPy
scalars, the list, dict and object arguments). The probe tells the generator the expression's
kind exactly as NumPy computes it (an array's shape and dtype, a Python or a NumPy scalar), so
statements can keep a variable's kind the same on every path, and a candidate NumPy refuses
(shapes that do not broadcast, a cast it forbids) is dropped before it reaches a program.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import io
import random
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .hazards import Hazards
from .idioms import Idioms
from .operators import Operators

REFUSED = object()  # the probe of a candidate NumPy or Python refuses
NUMBER_LITERALS = ("0", "1", "2", "3", "0.5", "-1.5", "2.25")


def _numpy_name(dtype: np.dtype) -> str:
    """The NumPy scalar type of ``dtype`` as source: ``np.float64``, ``np.bool``, ..."""
    return f"np.{dtype.name}"


def _constructor(probe: Any) -> str:
    """The callable that makes a number of ``probe``'s kind: ``float``, ``np.float32``, ..."""
    if isinstance(probe, np.generic):
        return _numpy_name(probe.dtype)
    return type(probe).__name__


def kind(value: Any) -> tuple[Any, ...]:
    """What a value is, as far as a program's semantics go: ``('array', shape, dtype)``,
    ``('numpy', dtype)`` for a NumPy scalar, ``('python', 'float')``, or a container's type."""
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype.str[1:])
    if isinstance(value, np.generic):
        return ("numpy", value.dtype.str[1:])
    if isinstance(value, (bool, int, float)):
        return ("python", type(value).__name__)
    return (type(value).__name__,)


def is_array(value: Any) -> bool:
    """A non-empty array (an empty one has no element to index or write)."""
    return isinstance(value, np.ndarray) and value.size > 0


def is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float, np.generic))


def is_int(value: Any) -> bool:
    """A Python or NumPy integer (not a bool): usable as an index."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_tensor_bool(value: Any) -> bool:
    """A condition that is a NumPy bool: a tensor in the graph, so its ``if`` is a ``cond``."""
    return isinstance(value, np.bool_)


@dataclasses.dataclass(frozen=True)
class Expr:
    """Source text and its probe."""

    code: str
    probe: Any


class Scope:
    """The names a program can read at one point, each with its probe.

    ``env`` holds the program's module globals (``np``, ``Box``, the helper functions);
    ``names`` the local names; ``lists`` the element kind of each local list (what its appends
    must keep).
    """

    def __init__(
        self,
        env: dict[str, Any],
        names: dict[str, Any],
        lists: dict[str, Any],
        arguments: list[np.ndarray],
    ):
        self.env = env
        self.names = names
        self.lists = lists
        self.arguments = arguments

    def child(self) -> Scope:
        """A copy for a nested block: names bound there are dropped when it ends. Array probes
        are shared (never written: statements run on copies), so views keep their bases."""
        names = {name: _copy_container(value) for name, value in self.names.items()}
        return Scope(self.env, names, dict(self.lists), self.arguments)

    def probe(self, code: str) -> Any:
        """The value of expression ``code`` (which writes nothing) on the probes, or ``REFUSED``."""
        return self.run(code, "eval", self.names)

    def accepts(self, statement: str) -> bool:
        """Whether NumPy and Python run ``statement`` on copies of the probes."""
        return self.run(statement, "exec", copy.deepcopy(self.names)) is not REFUSED

    def run(self, code: str, mode: str, names: dict[str, Any]) -> Any:
        quiet = contextlib.redirect_stdout(io.StringIO())  # a print statement tried on probes
        with warnings.catch_warnings(), np.errstate(all="ignore"), quiet:
            warnings.simplefilter("ignore")
            try:
                compiled = compile(code, "<probe>", mode)
                return eval(compiled, self.env, names)  # noqa: S307 - the generator's own text
            except Exception:  # noqa: BLE001 - any refusal drops the candidate
                return REFUSED

    def aliases_argument(self, probe: Any) -> bool:
        """Whether ``probe`` is an argument's array or a view of one."""
        return is_array(probe) and any(np.shares_memory(probe, a) for a in self.arguments)

    def operands(self) -> Iterator[tuple[str, Any]]:
        """Every readable place: names, object attributes, dict entries, a list's first item
        (every item of a tuple or of a list of arrays)."""
        for name, value in self.names.items():
            if isinstance(value, np.ndarray) or is_number(value):
                yield name, value
            elif isinstance(value, dict):
                yield from ((f"{name}[{key!r}]", v) for key, v in value.items())
            elif isinstance(value, tuple) or isinstance(value, list) and _holds_arrays(value):
                yield from ((f"{name}[{i}]", v) for i, v in enumerate(value))
            elif isinstance(value, list):
                if value:
                    yield f"{name}[0]", value[0]
            elif hasattr(value, "__dict__"):
                yield from ((f"{name}.{attr}", v) for attr, v in vars(value).items())


def _holds_arrays(items: list[Any]) -> bool:
    return bool(items) and isinstance(items[0], np.ndarray)


def _copy_container(value: Any) -> Any:
    """A copy of a list, dict or object probe (its items shared), so a block's statements
    change only the block's copy; other probes as they are."""
    if isinstance(value, (list, dict)):
        return type(value)(value)
    if hasattr(value, "__dict__") and not isinstance(value, np.ndarray):
        return copy.copy(value)
    return value


class Expressions(Operators, Hazards, Idioms):
    """Random expressions over a scope; ``depth`` bounds their nesting; ``features`` name the
    optional forms (see ``operators``, ``hazards`` and ``idioms``)."""

    def __init__(self, rng: random.Random, scope: Scope, features: frozenset[str] = frozenset()):
        self.rng = rng
        self.scope = scope
        self.features = features

    # ---- helpers -------------------------------------------------------------------------
    def pick(self, test: Callable[[Any], bool]) -> Expr | None:
        found = [Expr(code, v) for code, v in self.scope.operands() if test(v)]
        return self.rng.choice(found) if found else None

    def make(self, code: str) -> Expr | None:
        value = self.scope.probe(code)
        return None if value is REFUSED else Expr(code, value)

    def first(self, makers: list[Callable[[], Expr | None]], tries: int = 12) -> Expr | None:
        """The first candidate, of ``makers`` drawn at random, that NumPy accepts."""
        for _ in range(tries):
            made = self.rng.choice(makers)()
            if made is not None:
                return made
        return None

    # ---- arrays --------------------------------------------------------------------------
    def array(self, depth: int = 2) -> Expr | None:
        """An array: an alias, a view, a copy, arithmetic, a ufunc, a reduction or a new one."""
        leaf = lambda: self.pick(is_array)  # noqa: E731
        makers: list[Callable[[], Expr | None]] = [leaf, leaf, leaf]
        if self.rng.random() < 0.15:
            makers.append(self.created)
        if depth > 0:
            makers += [
                lambda: self.view(depth),
                lambda: self.view(depth),
                lambda: self.copied(depth),
                lambda: self.arithmetic(depth),
                lambda: self.arithmetic(depth),
                lambda: self.ufunc(depth),
                lambda: self.reduced(depth),
                *self.operator_arrays(depth),
                *self.hazard_arrays(depth),
                *self.idiom_arrays(depth),
            ]
        return self.first(makers) or self.created()

    def view(self, depth: int = 1, of: Expr | None = None) -> Expr | None:
        """A view of an array: basic slices, ``.T``, ``reshape``/``ravel``, new axes, a row."""
        base = of or self.array(depth - 1)
        if base is None or not is_array(base.probe):
            return None
        a, shape = base.code, base.probe.shape
        n = shape[0] if shape else 0
        lo = self.rng.randrange(0, max(n, 1))
        hi = self.rng.randrange(lo + 1, n + 1) if n > lo else n
        forms = [f"{a}[{lo}:{hi}]", f"{a}[::-1]", f"{a}[1:]", f"{a}[::2]", f"{a}[..., None]"]
        if len(shape) == 1 and n % 2 == 0 and n:
            forms.append(f"{a}.reshape(2, {n // 2})")
        if len(shape) == 2:
            r, c = shape
            forms += [
                f"{a}.T",
                f"{a}[{self.rng.randrange(r)}]",
                f"{a}[:, {self.rng.randrange(c)}]",
                f"{a}.ravel()",
                f"{a}.reshape(-1)",
                f"{a}[{lo}:{hi}, 1:]",
            ]
        forms += self.view_chain(a, shape)
        if not shape:
            forms = [f"{a}[...]", f"{a}[None]"]
        return self.make(self.rng.choice(forms))

    def copied(self, depth: int) -> Expr | None:
        """A copy: ``.copy()``, ``np.array``, fancy indexing, ``astype``, ``np.sort``."""
        base = self.array(depth - 1)
        if base is None or not base.probe.size or not base.probe.ndim:
            return None
        a, n = base.code, base.probe.shape[0]
        picks = sorted({self.rng.randrange(n) for _ in range(2)})
        forms = [
            f"{a}.copy()",
            f"np.array({a})",
            f"{a}[{picks}]",
            f"{a}.astype(np.float64)",
            f"np.sort({a})",
            f"np.cumsum({a})",
            f"{a}.flatten()",
        ]
        return self.make(self.rng.choice(forms))

    def arithmetic(self, depth: int) -> Expr | None:
        """``a op b`` of arrays and numbers that broadcast."""
        left = self.array(depth - 1)
        if left is None:
            return None
        right = self.array(depth - 1) if self.rng.random() < 0.5 else self.number(depth - 1)
        if right is None:
            return None
        op = self.rng.choice(["+", "-", "*", "*", "+", "/"])
        pair = [left.code, right.code] if self.rng.random() < 0.7 else [right.code, left.code]
        return self.make(f"({pair[0]} {op} {pair[1]})")

    def ufunc(self, depth: int) -> Expr | None:
        a = self.array(depth - 1)
        if a is None:
            return None
        b = self.array(depth - 1) or a
        forms = [
            f"np.sin({a.code})",
            f"-{a.code}",
            f"np.abs({a.code})",
            f"np.sqrt(np.abs({a.code}))",
            f"np.maximum({a.code}, {b.code})",
            f"np.where({a.code} > 0, {a.code}, {b.code})",
            f"np.clip({a.code}, -1, 2)",
            f"({a.code} > {b.code})",
        ]
        return self.make(self.rng.choice(forms))

    def reduced(self, depth: int) -> Expr | None:
        a = self.array(depth - 1)
        if a is None or a.probe.ndim < 2:
            return None
        axis = self.rng.randrange(a.probe.ndim)
        form = self.rng.choice(["sum", "max", "mean"])
        return self.make(f"{a.code}.{form}(axis={axis})")

    def created(self) -> Expr | None:
        """A new array of the shape of one in scope."""
        like = self.pick(lambda v: is_array(v) and v.ndim > 0)
        shape = like.probe.shape if like is not None else (3,)
        dims = str(shape[0]) if len(shape) == 1 else str(shape)
        forms = [
            f"np.zeros({dims})",
            f"np.ones({dims}, dtype=np.float32)",
            f"np.full({dims}, 2.5)",
            f"np.arange({shape[0]}) * 1.0",
        ]
        if like is not None:
            forms.append(f"np.zeros_like({like.code})")
        return self.make(self.rng.choice(forms))

    # ---- numbers -------------------------------------------------------------------------
    def number(self, depth: int = 2) -> Expr | None:
        """A Python or NumPy scalar: a literal, a reduction, an element, arithmetic."""
        lit = self.rng.choice(NUMBER_LITERALS)
        makers: list[Callable[[], Expr | None]] = [
            lambda: self.pick(is_number),
            lambda: self.pick(is_number),
            lambda: Expr(lit, eval(lit)),  # noqa: S307 - a literal
        ]
        if depth > 0:
            makers += [
                lambda: self.reduction(depth),
                lambda: self.element(depth),
                lambda: self.number_arithmetic(depth),
                lambda: self.converted(depth),
                *self.operator_numbers(depth),
                *self.hazard_numbers(depth),
                *self.idiom_numbers(depth),
            ]
        return self.first(makers)

    def reduction(self, depth: int) -> Expr | None:
        """A reduction, ``len`` or a dim of an array, empty ones included."""
        empty = self.pick(lambda v: isinstance(v, np.ndarray) and not v.size)
        a = empty if empty is not None and self.rng.random() < 0.2 else self.array(depth - 1)
        if a is None:
            return None
        forms = [
            f"{a.code}.sum()",
            f"{a.code}.max()",
            f"np.mean({a.code})",
            f"np.sum({a.code})",
            f"{a.code}.min()",
            f"len({a.code})",
            f"{a.code}.shape[0]",
        ]
        return self.make(self.rng.choice(forms))

    def element(self, depth: int) -> Expr | None:
        """``a[i]`` with a static index in range, or a computed (maybe tensor) one."""
        a = self.array(depth - 1)
        if a is None or not a.probe.size or not a.probe.ndim:
            return None
        n = a.probe.shape[0]
        if self.rng.random() < 0.6:
            index = str(self.rng.randrange(-n, n))
        else:
            i = self.pick(is_int)
            if i is None:
                return None
            index = f"{i.code} % {n}"
        extra = "".join(f", {self.rng.randrange(d)}" for d in a.probe.shape[1:])
        return self.make(f"{a.code}[{index}{extra}]")

    def number_arithmetic(self, depth: int) -> Expr | None:
        a, b = self.number(depth - 1), self.number(depth - 1)
        if a is None or b is None:
            return None
        # ``min``/``max`` of two kinds of number returns either kind, by value: those are
        # tests/semantics/test_fuzz_findings.py's; here both are made of ``a``'s kind
        same = b.code if kind(a.probe) == kind(b.probe) else f"{_constructor(a.probe)}({b.code})"
        forms = [
            f"({a.code} + {b.code})",
            f"({a.code} - {b.code})",
            f"({a.code} * {b.code})",
            f"abs({a.code})",
            f"max({a.code}, {same})",
            f"min({a.code}, {same})",
            f"({a.code} // 2)",
        ]
        return self.make(self.rng.choice(forms))

    def converted(self, depth: int) -> Expr | None:
        a = self.number(depth - 1)
        if a is None:
            return None
        form = self.rng.choice(["float", "int", "np.float64", "np.float32", "np.int64"])
        return self.make(f"{form}({a.code})")

    # ---- conditions ----------------------------------------------------------------------
    def condition(self, depth: int = 2) -> Expr | None:
        """A comparison of numbers or arrays reduced by ``any``/``all``; ``and``/``or``/``not``."""
        makers: list[Callable[[], Expr | None]] = [self.comparison, self.comparison, self.any_all]
        makers += self.operator_conditions()
        if depth > 0:
            makers += [lambda: self.combined(depth)]
        return self.first(makers)

    def comparison(self) -> Expr | None:
        a, b = self.number(1), self.number(1)
        if a is None or b is None:
            return None
        op = self.rng.choice(["<", ">", "<=", ">=", "==", "!="])
        return self.make(f"{a.code} {op} {b.code}")

    def any_all(self) -> Expr | None:
        a, b = self.array(1), self.number(0)
        if a is None or b is None:
            return None
        form = self.rng.choice(["np.any({} > {})", "({} < {}).all()", "np.all({} >= {})"])
        return self.make(form.format(a.code, b.code))

    def combined(self, depth: int) -> Expr | None:
        a, b = self.condition(depth - 1), self.condition(depth - 1)
        if a is None or b is None:
            return None
        forms = [f"{a.code} and {b.code}", f"{a.code} or {b.code}", f"not {a.code}"]
        return self.make(self.rng.choice(forms))

    # ---- a value of a given kind ---------------------------------------------------------
    def like(
        self, probe: Any, depth: int = 2, fits: Callable[[Expr], bool] = lambda e: True
    ) -> Expr:
        """An expression of exactly ``probe``'s kind that ``fits`` (a constructor when none
        turns up)."""
        want = kind(probe)
        maker = self.array if isinstance(probe, np.ndarray) else self.number
        for _ in range(8):
            made = maker(depth)
            if made is not None and kind(made.probe) == want and fits(made):
                return made
        return self.construct(probe)

    def construct(self, probe: Any) -> Expr:
        """A constructor of ``probe``'s kind: ``np.zeros(shape, dtype)``, ``float(...)``, ..."""
        if isinstance(probe, np.ndarray):
            dtype = _numpy_name(probe.dtype)
            return self._sure(f"np.zeros({probe.shape}, dtype={dtype})")
        inner = self.number(1) or Expr("1", 1)
        name = _numpy_name(probe.dtype) if isinstance(probe, np.generic) else type(probe).__name__
        made = self.make(f"{name}({inner.code})")  # np.uint8(-1.5) is refused
        return made if made is not None else self._sure(f"{name}(1)")

    def _sure(self, code: str) -> Expr:
        made = self.make(code)
        if made is None:
            raise ValueError(f"constructor {code} does not evaluate")
        return made
