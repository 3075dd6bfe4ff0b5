"""Random statements of everyday Python the core statements leave out: closures that count calls
with ``nonlocal`` or write an array of ``f`` (``closures``); ``while True`` loops left by
``break`` (``while_true``); ``for`` over ``reversed`` ranges and arrays (``reversed``); reductions
and ufuncs writing an ``out=`` array and ``np.copyto`` with ``where=`` (``out_reductions``); and
prints of arrays as text (``np.array2string``, ``repr``, ``str``, ``%`` formatting;
``array_text``).

``Constructs`` is a part of ``statements.Writer``; each statement comes only under its feature.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .expressions import is_array, is_number
from .functions import LocalFunction

if TYPE_CHECKING:
    from .statements import Flow

_LOOP_BOUND = 3


class Constructs:
    """The statements of this module; mixed into ``statements.Writer``."""

    def define_closure(self, flow: Flow) -> bool:
        """A nested ``def`` at the top level of ``f`` that counts its calls in a variable of
        ``f`` (``nonlocal``), or that writes an array of ``f`` in place; called later as
        ``v = g()``."""
        if flow.in_block:
            return False
        name = self.fresh("g")
        target = self.ex.pick(lambda v: is_array(v) and v.ndim >= 1)
        if target is not None and "[" not in target.code and self.rng.random() < 0.4:
            n = self.ex.number(0)
            step = n.code if n is not None else "1"
            t = target.code
            lines = [f"def {name}():", f"    {t}[0] += {step}", f"    return {t}[0]"]
            # the probe writes a copy: probes are never written
            namespace = {**self.scope.env, **self.scope.names, target.code: target.probe.copy()}
            self.captured.add(target.code)
            exec("\n".join(lines), namespace)  # noqa: S102 - the generator's own text
            self.scope.env[name] = namespace[name]
        else:
            counter = self.fresh("n")
            self.emit(f"{counter} = 0")
            self.scope.names[counter] = 0
            self.counters.add(counter)
            lines = [
                f"def {name}():",
                f"    nonlocal {counter}",
                f"    {counter} += 1",
                f"    return {counter} * 2",
            ]
            self.scope.env[name] = lambda: 2  # the probe: an int, as every call returns
        for line in lines:
            self.emit(line)
        self.functions.append(LocalFunction(name, (), False))
        return True

    def while_true(self, flow: Flow) -> bool:
        """``while True:`` whose first statement leaves after a few trips or on a condition."""
        condition = self.ex.condition()
        if condition is None:
            return False
        counter = self.fresh("c")
        self.emit(f"{counter} = 0")
        self.scope.names[counter] = 0
        self.counters.add(counter)
        self.emit("while True:")
        self._indent += 1
        self.emit(f"{counter} += 1")
        self.emit(f"if {counter} > {_LOOP_BOUND} or ({condition.code}):")
        self.emit("    break")
        self._indent -= 1
        self.loop_body(flow)
        return True

    def reversed_iterables(self) -> list[tuple[str, str]]:
        """What a ``for`` may iterate under ``reversed``, with its targets' name prefixes."""
        found = [(f"reversed(range({self.rng.randrange(4)}))", "i")]
        row = self.ex.pick(lambda v: is_array(v) and v.ndim >= 1)
        if row is not None:
            found += [(f"reversed({row.code})", "i"), (f"enumerate(reversed({row.code}))", "ji")]
        return found

    def write_out(self, flow: Flow) -> bool:
        """A reduction or ufunc into an ``out=`` array, or ``np.copyto`` with a mask."""
        target = self.ex.pick(is_array)
        if target is None:
            return False
        t, probe = target.code, target.probe
        forms = [f"np.copyto({t}, {t}[::-1], where={t} > 0)"]
        source = self.ex.array(1)
        if source is not None:
            s = source.code
            forms += [
                f"np.sum({s}, axis=0, out={t})",
                f"np.max({s}, axis=-1, out={t})",
                f"np.add.reduce({s}, axis=0, out={t})",
                f"np.maximum({s}, {t}, out={t})",
                f"np.copyto({t}, {s}, where={s} > 0)",
                f"np.copyto({t}, {s}, casting='unsafe')",
            ]
            if source.probe.shape == probe.shape and probe.ndim == 1:
                # NumPy checks no size here: a smaller ``out`` is written past its end
                forms.append(f"np.cumsum({s}, out={t})")
        if probe.ndim == 0:
            forms.append(f"np.mean({t}.reshape(1), out={t})")
        for _ in range(4):
            statement = self.rng.choice(forms)
            if self.scope.accepts(statement):
                self.emit(statement)
                return True
        return False

    def print_text(self, flow: Flow) -> bool:
        """A print of an array as text, or of a number with ``%`` formatting."""
        value = self.ex.array(1) if self.rng.random() < 0.6 else self.ex.number(1)
        if value is None:
            return False
        v, tag = value.code, self.fresh("p")
        forms = [f'print("{tag} %s" % ({v},))', f'print("{tag}", repr({v}), str({v}))']
        if isinstance(value.probe, np.ndarray):
            forms += [
                f'print("{tag}", np.array2string({v}, precision=2))',
                f'print("{tag}", np.array2string({v}, separator=", "))',
                f'print("{tag}", np.array_repr({v}))',
                f'print("{tag}", {v}.tolist())',
            ]
        elif is_number(value.probe):
            forms += [f'print("{tag} %.2f %d" % ({v}, {v}))', f'print("{tag} %r" % ({v},))']
        for _ in range(4):
            statement = self.rng.choice(forms)
            if self.scope.accepts(statement):
                self.emit(statement)
                return True
        return False

    if TYPE_CHECKING:
        from .expressions import Expressions, Scope

        captured: set[str]
        counters: set[str]
        functions: list[LocalFunction]
        rng: Any
        scope: Scope
        _indent: int

        @property
        def ex(self) -> Expressions: ...
        def emit(self, text: str) -> None: ...
        def fresh(self, prefix: str) -> str: ...
        def loop_body(self, flow: Flow) -> None: ...
