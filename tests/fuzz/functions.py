"""Local functions and tuple assignments in the generated programs: nested ``def``s (closures that
read a variable of ``f``, one with a default argument, one that writes its argument in place,
one that returns a tuple) defined at the top level of ``f`` and called anywhere, loops
included; ``p, q = g(a, b)`` and swaps ``a, b = b, a``.

A closure's variable may be rebound later (Python reads it when the closure runs), but only to a
value of its kind, so the closure's probe (made with the variable's probe at definition) stays
true. ``Functions`` is a part of ``statements.Writer``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .expressions import REFUSED, is_array, is_number, kind

if TYPE_CHECKING:
    from .statements import Flow


@dataclasses.dataclass(frozen=True)
class LocalFunction:
    """A nested ``def``: its name, what each parameter accepts, and whether it returns a pair."""

    name: str
    accepts: tuple[Callable[[Any], bool], ...]
    pair: bool


def _row(value: Any) -> bool:
    return is_array(value) and value.ndim >= 1


class Functions:
    """The local-function statements; mixed into ``statements.Writer``."""

    def define_function(self, flow: Flow) -> bool:
        """A nested ``def`` at the top level of ``f`` (Python binds it when the line runs)."""
        if flow.in_block:
            return False
        captured = self.ex.pick(lambda v: is_array(v) or is_number(v))
        name = self.fresh("g")
        number = self.ex.number(0)
        c = number.code if number is not None else "2"
        shapes: list[tuple[list[str], tuple[Callable[[Any], bool], ...], bool]] = [
            ([f"def {name}(u, w):", "    return u + w, u * w"], (is_array, is_array), True),
            ([f"def {name}(u, c={c}):", "    return u * c - 1"], (is_array,), False),
            (
                [f"def {name}(u):", f"    u[0] += {c}", "    return u[::2]"],
                (_row,),
                False,
            ),
        ]
        if captured is not None and "." not in captured.code and "[" not in captured.code:
            shapes.append(
                ([f"def {name}(u):", f"    return u * {c} + {captured.code}"], (is_array,), False)
            )
        lines, accepts, pair = self.rng.choice(shapes)
        namespace = {**self.scope.env, **self.scope.names}  # what the default values read
        if captured is not None:
            self.captured.add(captured.code)
        exec("\n".join(lines), namespace)  # noqa: S102 - the generator's own text
        self.scope.env[name] = namespace[name]
        for line in lines:
            self.emit(line)
        self.functions.append(LocalFunction(name, accepts, pair))
        return True

    def call_function(self, flow: Flow) -> bool:
        """``v = g(...)`` or ``p, q = g(...)`` of a local function, with fitting arguments."""
        if not self.functions:
            return False
        function = self.rng.choice(self.functions)
        args = [self.ex.pick(test) for test in function.accepts]
        if any(a is None for a in args):
            return False
        call = f"{function.name}({', '.join(a.code for a in args if a is not None)})"
        if not self.scope.accepts(call):
            return False
        value = self.scope.probe(call)
        if value is REFUSED:
            return False
        if function.pair:
            names = [self.fresh("p"), self.fresh("q")]
            self.emit(f"{names[0]}, {names[1]} = {call}")
            self.scope.names.update(zip(names, value))
        else:
            name = self.fresh("v")
            self.emit(f"{name} = {call}")
            self.scope.names[name] = value
        return True

    def swap(self, flow: Flow) -> bool:
        """``a, b = b, a`` of two variables of one kind (both arrays or both numbers)."""
        names = [
            n
            for n, v in self.scope.names.items()
            if (is_array(v) or is_number(v)) and n not in self.counters
        ]
        self.rng.shuffle(names)
        for first in names:
            for second in names:
                a, b = self.scope.names[first], self.scope.names[second]
                if first != second and kind(a) == kind(b) and self.swappable(flow, a, b):
                    self.emit(f"{first}, {second} = {second}, {first}")
                    self.scope.names[first], self.scope.names[second] = b, a
                    return True
        return False

    def swappable(self, flow: Flow, a: Any, b: Any) -> bool:
        return not flow.in_block or not (self.aliases(a) or self.aliases(b))

    if TYPE_CHECKING:
        from .expressions import Expressions, Scope

        captured: set[str]
        counters: set[str]
        functions: list[LocalFunction]
        rng: Any
        scope: Scope

        @property
        def ex(self) -> Expressions: ...
        def emit(self, text: str) -> None: ...
        def fresh(self, prefix: str) -> str: ...
        def aliases(self, probe: Any) -> bool: ...
