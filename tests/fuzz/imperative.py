"""Random imperative statements the core forms have little of: lists, dicts and objects passed
in and edited with their methods (``pop``, ``del``, ``l[:] = ...``, ``sort(key=...)``,
``insert``, ``extend``, ``setdefault``, ``update``, ``setattr``, an array attribute written through
an index; ``container_edits``), views bound to a name and written through (``r = a.reshape(-1);
r[0] = c``, ``a.T[0] = c``, ``np.ravel(a)[i] = c`` beside ``a.flatten()[i] = c``, which writes a
copy, and ``out=`` a view of the array read; ``view_writes``), and writes that wrap, round or
overflow: integer arrays multiplied past their range, small dtypes given a Python int out of
their range (NumPy raises), float32 and float16 rounding, 0-d arrays and bool arrays written in
place (``dtype_writes``).

A pop, ``del`` or ``clear`` that shortens a container comes only outside blocks (so the probe,
which loses the item too, stays true on every path). ``Imperative`` is a part of
``statements.Writer``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .expressions import Expr, is_array, is_number

if TYPE_CHECKING:
    from .expressions import Expressions, Scope
    from .statements import Flow


def _number_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(is_number(v) for v in value)


def _box(value: Any) -> bool:
    return hasattr(value, "__dict__") and not isinstance(value, np.ndarray) and not callable(value)


class Imperative:
    """The container, view and dtype writes; mixed into ``statements.Writer``."""

    if TYPE_CHECKING:
        rng: Any
        scope: Scope

        @property
        def ex(self) -> Expressions: ...
        def emit(self, text: str) -> None: ...
        def fresh(self, prefix: str) -> str: ...
        def has(self, feature: str) -> bool: ...

    # ---- container_edits -----------------------------------------------------------------
    def container_edit(self, flow: Flow) -> bool:
        """A method call (or ``del``, slice assignment) that changes a list, dict or object."""
        names = self.scope.names
        makers: list[Callable[[], bool]] = []
        makers += [lambda n=n: self.list_edit(flow, n) for n, v in names.items() if _number_list(v)]
        makers += [lambda n=n: self.dict_edit(flow, n) for n, v in names.items() if _is_dict(v)]
        makers += [lambda n=n: self.object_edit(n) for n, v in names.items() if _box(v)]
        return bool(makers) and self.rng.choice(makers)()

    def list_edit(self, flow: Flow, name: str) -> bool:
        items = self.scope.names[name]
        value = self.ex.like(items[-1], 1)
        other = self.ex.like(items[0], 1)
        forms = [
            (f"{name}.insert(0, {value.code})", lambda: items.insert(0, value.probe)),
            (f"{name}.extend([{value.code}, {other.code}])", lambda: _extend(items, value, other)),
            (f"{name} += [{value.code}]", lambda: items.append(value.probe)),
            (f"{name}[:] = [{value.code}, {other.code}]", lambda: _replace(items, value, other)),
            (f"{name}[-1] = {value.code}", lambda: None),
            (f"{name}.reverse()", lambda: None),
        ]
        if all(isinstance(v, (int, float, np.integer, np.floating)) for v in items):
            forms += [
                (f"{name}.sort()", lambda: None),
                (f"{name}.sort(key=lambda t: -t)", lambda: None),
                (f"{name}.sort(key=abs, reverse=True)", lambda: None),
            ]
        if not flow.in_block and len(items) >= 2:
            target = self.fresh("v")
            forms += [
                (f"{target} = {name}.pop()", lambda: self._bind_popped(target, items, -1)),
                (f"{target} = {name}.pop(0)", lambda: self._bind_popped(target, items, 0)),
                (f"del {name}[0]", lambda: items.pop(0)),
                (f"del {name}[1:]", lambda: items.__delitem__(slice(1, None))),
            ]
        statement, change = self.rng.choice(forms)
        if not self.scope.accepts(statement):
            return False
        self.emit(statement)
        change()
        return True

    def _bind_popped(self, target: str, items: list[Any], index: int) -> None:
        self.scope.names[target] = items.pop(index)

    def dict_edit(self, flow: Flow, name: str) -> bool:
        entries = self.scope.names[name]
        numbers = [k for k, v in entries.items() if is_number(v)]
        if not numbers:
            return False
        key = self.rng.choice(numbers)
        value = self.ex.like(entries[key], 1)
        target = self.fresh("v")

        def bind(probe: Any) -> Callable[[], None]:
            return lambda: self.scope.names.__setitem__(target, probe)

        forms = [
            (f"{target} = {name}.setdefault({key!r}, {value.code})", bind(entries[key])),
            (f"{name}.update({{{key!r}: {value.code}}})", lambda: None),
            (f"{name}.update({key}={value.code})", lambda: None),
            (f"{name} |= {{{key!r}: {value.code}}}", lambda: None),
            (f"{target} = {name}.get({key!r}, {value.code})", bind(entries[key])),
        ]
        if not flow.in_block:
            new = self.fresh("k")

            def add() -> None:
                entries[new] = value.probe
                self.scope.names[target] = value.probe

            def remove() -> None:
                self.scope.names[target] = entries.pop(key)

            forms.append((f"{target} = {name}.setdefault({new!r}, {value.code})", add))
            if key not in ("a", "n", "v"):
                forms.append((f"{target} = {name}.pop({key!r})", remove))
        statement, change = self.rng.choice(forms)
        if not self.scope.accepts(statement):
            return False
        self.emit(statement)
        change()
        return True

    def object_edit(self, name: str) -> bool:
        obj = self.scope.names[name]
        attrs = [a for a, v in vars(obj).items() if is_number(v) or is_array(v)]
        if not attrs:
            return False
        attr = self.rng.choice(attrs)
        old = getattr(obj, attr)
        value = self.ex.like(old, 1)
        target = self.fresh("v")
        forms = [
            f"setattr({name}, {attr!r}, {value.code})",
            f"{target} = getattr({name}, {attr!r}) + {value.code}",
        ]
        if is_array(old) and old.ndim == 1:
            i = self.rng.randrange(old.shape[0])
            forms += [
                f"{name}.{attr}[{i}] = {self.ex.like(old[i], 1).code}",
                f"{name}.{attr}[1:] *= 2",
                f"{target} = {name}.{attr}\n{target}[0] = 0",
            ]
        statement = self.rng.choice(forms)
        if not self.scope.accepts(statement):
            return False
        for line in statement.split("\n"):
            self.emit(line)
        if statement.startswith(target):
            self.scope.names[target] = self.scope.probe(statement.split("\n")[0].split(" = ")[1])
        return True

    # ---- view_writes ---------------------------------------------------------------------
    def view_write(self, flow: Flow) -> bool:
        """A write through a view bound to a name, or through a method's view (or copy)."""
        target = self.ex.pick(is_array)
        if target is None or not target.probe.ndim:
            return False
        a, probe = target.code, target.probe
        n = probe.shape[0]
        c = (self.ex.number(0) or Expr("2", 2)).code
        name = self.fresh("v")
        forms = [
            f"{name} = {a}.reshape(-1)\n{name}[0] = {c}",
            f"{name} = {a}[1:]\n{name} *= 2",
            f"{name} = np.ravel({a})\n{name}[-1] += {c}",
            f"{name} = {a}.flatten()\n{name}[0] = {c}",
            f"{name} = {a}.view()\n{name} += {c}",
            f"{name} = np.asarray({a})\n{name}[...] = {c}",
            f"np.ravel({a})[{n - 1}] = {c}",
            f"{a}.reshape(-1)[0] = {c}",
            f"{a}.flatten()[0] = {c}",
            f"{a}.T[0] = {c}",
            f"np.negative({a}, out={a}[::-1])",
            f"np.multiply({a}[::2], 2, out={a}[::2])",
        ]
        if n >= 2:
            forms.append(f"np.add({a}[:-1], {a}[1:], out={a}[1:])")
            forms.append(f"np.subtract({a}[1:], {a}[:-1], out={a}[:-1])")
        if probe.ndim == 2:
            forms += [f"{name} = {a}.T\n{name}[0] = {c}", f"{a}.T[:, 0] *= {c}"]
        statement = self.rng.choice(forms)
        if not self.scope.accepts(statement):
            return False
        for line in statement.split("\n"):
            self.emit(line)
        if statement.startswith(name):
            self.scope.names[name] = self.scope.probe(statement.split("\n")[0].split(" = ")[1])
        return True

    # ---- dtype_writes --------------------------------------------------------------------
    def dtype_write(self, flow: Flow) -> bool:
        """An in-place write that wraps, rounds, overflows or casts (by the array's dtype)."""
        target = None
        if self.rng.random() < 0.6:  # mostly the arrays that wrap or round, when there are any
            target = self.ex.pick(lambda v: is_array(v) and (v.dtype.kind in "iub" or v.ndim == 0))
        target = target or self.ex.pick(is_array)
        if target is None:
            return False
        t, probe = target.code, target.probe
        kind = probe.dtype.kind
        forms = [f"np.copyto({t}, np.full({t}.shape, 2.75), casting='unsafe')"]
        if kind in "iu":
            forms += [f"{t} *= 65536", f"{t} += 2**31 - 1", f"{t} -= 300", f"{t} //= 0"]
            forms += [f"{t} <<= 30", f"{t} %= 0", f"{t} += np.int64(2**40)"]
        elif kind == "f":
            forms += [f"{t} += 0.1", f"{t} /= 3", f"{t} *= 1e30", f"{t} *= np.float32(1e30)"]
            forms += [f"{t} -= {t}", f"{t} /= 0"]
        elif kind == "b":
            forms += [f"{t} |= {t}[::-1]", f"{t} ^= True", f"{t} &= False", f"{t} += 1"]
        if probe.ndim == 0:
            c = (self.ex.number(1) or Expr("2", 2)).code
            forms += [
                f"{t}[()] = {c}",
                f"{t}.fill({c})",
                f"np.add({t}, 1, out={t})",
                f"{t} *= {t}",
                f"{t}[None] += {c}",
            ]
        statement = self.rng.choice(forms)
        if not self.scope.accepts(statement) and self.rng.random() > 0.3:
            return False  # mostly writes NumPy accepts; some it refuses, for the errors
        self.emit(statement)
        return True


def _is_dict(value: Any) -> bool:
    return isinstance(value, dict)


def _extend(items: list[Any], first: Expr, second: Expr) -> None:
    items.extend([first.probe, second.probe])


def _replace(items: list[Any], first: Expr, second: Expr) -> None:
    items[:] = [first.probe, second.probe]
