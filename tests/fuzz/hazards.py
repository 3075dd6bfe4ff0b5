"""Random expressions that raise or warn on some inputs: an index out of range (``IndexError``),
a Python int or float divided by zero (``ZeroDivisionError``; a NumPy one warns and gives inf,
nan or 0), integers that overflow (a NumPy scalar warns, an array wraps silently), ``log`` and
``sqrt`` of negatives; and the kinds hand-written code mixes: Python bools and ints beside NumPy
scalars (``True + s``, ``np.float32(k) * 2``), and chains of views (``m.T[1:]``,
``x.reshape(2, 2)[1]``, ``x[::2][1:]``).

The probe stands in for every input, so a form is kept when it runs on the probe; the program's
other inputs may take it out of range or to zero. ``Hazards`` is a part of
``expressions.Expressions``; the raising and warning forms come only under the ``hazards``
feature, the bools and mixed scalars under ``scalar_mix``, the view chains under ``view_chains``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .expressions import Expr


def _is_int_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.size > 0 and value.dtype.kind == "i"


class Hazards:
    """The raising, warning, mixed-scalar and view-chain forms; mixed into ``Expressions``."""

    if TYPE_CHECKING:
        rng: Any
        features: frozenset[str]

        def make(self, code: str) -> Expr | None: ...
        def pick(self, test: Callable[[Any], bool]) -> Expr | None: ...
        def array(self, depth: int = 2) -> Expr | None: ...
        def number(self, depth: int = 2) -> Expr | None: ...

    def hazard_numbers(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Number makers of this module for the features chosen (drawn rarely: most programs
        should run to their end on most inputs)."""
        makers: list[Callable[[], Expr | None]] = []
        if "hazards" in self.features and depth > 0 and self.rng.random() < 0.25:
            makers += [lambda: self.indexed_beyond(depth), lambda: self.divided_by_zero(depth)]
            makers += [lambda: self.overflowed(depth)]
        if "scalar_mix" in self.features and depth > 0:
            makers.append(lambda: self.mixed_scalar(depth))
        return makers

    def hazard_arrays(self, depth: int) -> list[Callable[[], Expr | None]]:
        """Array makers of this module for the features chosen."""
        makers: list[Callable[[], Expr | None]] = []
        if "hazards" in self.features and depth > 0 and self.rng.random() < 0.25:
            makers.append(lambda: self.warning_array(depth))
        return makers

    def indexed_beyond(self, depth: int) -> Expr | None:
        """``a[i + c]`` or ``a[-i - c]`` of an int ``i``: in range on the probe, maybe not on the
        program's inputs."""
        a = self.array(depth - 1)
        i = self.pick(lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool))
        if a is None or i is None or not a.probe.ndim:
            return None
        c = self.rng.randrange(0, 3)
        extra = "".join(", 0" for _ in a.probe.shape[1:])
        forms = [f"{a.code}[{i.code} + {c}{extra}]", f"{a.code}[-{i.code} - {c}{extra}]"]
        return self.make(self.rng.choice(forms))

    def divided_by_zero(self, depth: int) -> Expr | None:
        """``n // (i - c)``, ``n % (i - c)``, ``n / (i - c)``: a Python int ``i`` raises
        ZeroDivisionError where it is ``c``, a NumPy one warns and gives 0, inf or nan."""
        n = self.number(depth - 1)
        i = self.pick(lambda v: isinstance(v, (int, float, np.integer, np.floating)))
        if n is None or i is None or isinstance(i.probe, bool):
            return None
        c = self.rng.choice(["0", "1", "2", "3"])
        op = self.rng.choice(["//", "%", "/"])
        return self.make(f"({n.code} {op} ({i.code} - {c}))")

    def overflowed(self, depth: int) -> Expr | None:
        """NumPy integers past their range (a scalar warns and wraps), floats past theirs."""
        i = self.pick(lambda v: isinstance(v, (np.integer, int)) and not isinstance(v, bool))
        s = self.number(depth - 1)
        forms = []
        if i is not None:
            forms += [
                f"(np.int64({i.code}) * 2**62)",
                f"(np.int32({i.code}) + np.int32(2**31 - 1))",
                f"(np.int64({i.code}) - np.int64(2**63 - 1) - 2)",
                f"abs(np.int64({i.code}) * 0 - 2**63)",
            ]
        if s is not None:
            forms += [f"np.exp(np.float64({s.code}) * 400)", f"(np.float32({s.code}) * 1e38)"]
        return self.make(self.rng.choice(forms)) if forms else None

    def warning_array(self, depth: int) -> Expr | None:
        """Arrays divided by arrays that may hold zeros, logs of negatives, wrapped integers."""
        a = self.array(depth - 1)
        if a is None:
            return None
        b = self.array(depth - 1) or a
        forms = [
            f"({a.code} / ({a.code} - {b.code}))",
            f"np.log({a.code})",
            f"np.sqrt({a.code})",
            f"({a.code} // ({b.code} * 0 + {a.code}))",
            f"({a.code} % {b.code})",
        ]
        ints = self.pick(_is_int_array)
        if ints is not None:
            forms += [f"({ints.code} * 2**62)", f"({ints.code} // ({ints.code} - 1))"]
        return self.make(self.rng.choice(forms))

    def mixed_scalar(self, depth: int) -> Expr | None:
        """Python bools and ints beside NumPy scalars, and NumPy bools in arithmetic."""
        a = self.number(depth - 1)
        if a is None:
            return None
        flag = self.rng.choice(["True", "False", "np.True_", "np.bool_(False)"])
        kind = self.rng.choice(["np.float32", "np.int32", "np.float64", "np.int64", "bool"])
        forms = [
            f"({flag} + {a.code})",
            f"({a.code} * {flag})",
            f"({kind}({a.code}) * 2)",
            f"({kind}({a.code}) + 1.5)",
            f"(np.float32({a.code}) + np.int64(3))",
            f"({a.code} - np.int32(1))",
            f"(int({a.code} > 0) + {a.code})",
            f"(np.uint8(3) + {a.code})",
        ]
        return self.make(self.rng.choice(forms))

    def view_chain(self, a: str, shape: tuple[int, ...]) -> list[str]:
        """Views of views of ``a`` (of ``shape``), under ``view_chains``."""
        if "view_chains" not in self.features or not shape:
            return []
        n = shape[0]
        forms = [f"{a}[::2][1:]", f"{a}[::-1][::2]", f"{a}[1:][::-1]", f"{a}[None][0]"]
        if len(shape) == 1 and n % 2 == 0:
            forms += [f"{a}.reshape(2, {n // 2})[1]", f"{a}.reshape(2, -1).T[:, 0]"]
        if len(shape) == 2:
            forms += [f"{a}.T[1:]", f"{a}.T[::-1, 0]", f"{a}[:, ::-1].T", f"{a}.ravel()[::2]"]
        return forms
