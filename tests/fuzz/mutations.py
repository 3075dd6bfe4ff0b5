"""Random in-place changes for the generated programs: writes into arrays (through views too;
fancy indexes that repeat under ``repeated_indices``), appends to and updates of lists, dict
entries and object attributes (appends to an object's list attribute under ``object_lists``),
and calls of helpers that write their argument (an array, a dict entry, each array of a tuple)
or return a view of it.

``Mutations`` is a part of ``statements.Writer``: it uses the writer's random source, scope,
output and binding rules (``emit``, ``ex``, ``has``, ``fresh``, ``kind_kept``, ``value_for``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .expressions import Expr, is_array, is_int

if TYPE_CHECKING:
    from .statements import Flow


def _is_place(code: str) -> bool:
    """Whether ``code`` can be the target of an augmented assignment (not a call)."""
    return isinstance(ast.parse(code, mode="eval").body, (ast.Name, ast.Attribute, ast.Subscript))


def _arrays(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and isinstance(value[0], np.ndarray)


class Mutations:
    """The statements that change a value in place; mixed into ``statements.Writer``."""

    # ---- in-place writes -----------------------------------------------------------------
    def inplace(self, flow: Flow) -> bool:
        """An in-place write into an array, through a view of it sometimes."""
        target = self.ex.pick(is_array)
        if target is None:
            return False
        if self.rng.random() < 0.3:
            target = self.ex.view(of=target) or target
        elif self.has("copy_writes") and self.rng.random() < 0.05:
            target = self.ex.make(f"{target.code}[[0]]") or target  # writes a copy: no effect
        if not is_array(target.probe):
            return False
        forms = self.write_forms(target.code, target.probe)
        if not forms:
            return False
        statement = self.rng.choice(forms)
        if not self.scope.accepts(statement) and self.rng.random() > 0.05:
            return False  # mostly writes NumPy accepts; a few that it refuses, for the errors
        self.emit(statement)
        return True

    def write_forms(self, t: str, probe: np.ndarray) -> list[str]:
        ex = self.ex
        num = (ex.number(1) or Expr("1.5", 1.5)).code
        whole = (ex.array(1) if self.rng.random() < 0.5 else ex.number(1)) or Expr(num, 0)
        op = self.rng.choice(["+=", "-=", "*=", "/="])
        whole_target = t if _is_place(t) else f"{t}[...]"  # `a.reshape(2, 2) += 1` is no Python
        forms = [f"{whole_target} {op} {whole.code}", f"{t}[...] = {whole.code}"]
        if probe.ndim >= 1 and probe.shape[0]:
            n = probe.shape[0]
            lo = self.rng.randrange(n)
            hi = self.rng.randrange(lo + 1, n + 1)
            part = ex.like(probe[lo:hi], 1)
            forms += [
                f"{t}[{self.rng.randrange(-n, n)}] = {num}",
                f"{t}[{lo}:{hi}] = {part.code}",
                f"{t}[{lo}:{hi}] {op} {num}",
            ]
            index = ex.pick(is_int)
            if index is not None:
                forms.append(f"{t}[{index.code} % {n}] = {num}")
            if self.has("mask_writes"):
                fill = ex.number(0) or Expr("0", 0)
                forms.append(f"{t}[{t} > {num}] = {fill.code}")
            if self.has("fancy_writes"):
                forms.append(f"{t}[[0, {self.rng.randrange(n)}]] {op} {num}")
            if self.has("sort_fill") and probe.ndim == 1:
                forms.append(f"{t}.sort()")
            if self.has("add_at") and probe.ndim == 1:
                forms.append(f"np.add.at({t}, [0, {self.rng.randrange(n)}, 0], {num})")
            if self.has("slice_updates") and n >= 2:
                forms += self.slice_updates(t, probe, op)
            if self.has("repeated_indices"):
                forms += self.repeated_index_writes(t, n, op, num)
        if probe.ndim == 2:
            r, c = probe.shape
            row = ex.like(probe[0], 1)
            forms += [
                f"{t}[{self.rng.randrange(r)}, {self.rng.randrange(c)}] = {num}",
                f"{t}[{self.rng.randrange(r)}] = {row.code}",
                f"{t}[:, {self.rng.randrange(c)}] {op} {num}",
            ]
        if self.has("sort_fill"):
            forms += [f"{t}.fill({num})", f"np.copyto({t}, {whole.code})"]
        if self.has("out_args"):
            other = ex.array(1) or Expr(t, probe)
            forms += [
                f"np.add({other.code}, {num}, out={t})",
                f"np.multiply({t}, {whole.code}, out={t})",
                f"np.negative({other.code}, out={t})",
            ]
        return forms

    def slice_updates(self, t: str, probe: np.ndarray, op: str) -> list[str]:
        """Slices updated by arrays, the array's own overlapping slices among them (NumPy
        reads the operand as it was before the write)."""
        n = probe.shape[0]
        lo = self.rng.randrange(n - 1)
        hi = self.rng.randrange(lo + 1, n + 1)
        k = self.rng.randrange(1, n)
        part = self.ex.like(probe[lo:hi], 1)
        return [
            f"{t}[{lo}:{hi}] {op} {part.code}",
            f"{t}[1:] {op} {t}[:-1]",
            f"{t}[:-1] {op} {t}[1:]",
            f"{t}[::-1] {op} {t}",
            f"{t}[:{k}] = {t}[{n - k}:]",
            f"{t}[{lo}:{hi}] = {t}[{lo}:{hi}][::-1]",
        ]

    def repeated_index_writes(self, t: str, n: int, op: str, num: str) -> list[str]:
        """Fancy-index updates whose index repeats (NumPy applies a repeated index's update
        once, the last assignment wins) or is a computed int array or a mask."""
        i, j = self.rng.randrange(n), self.rng.randrange(n)
        index = self.ex.pick(is_int)
        forms = [
            f"{t}[[{i}, {i}, {j}]] {op} {num}",
            f"{t}[[{i}, {j}, {i}]] = [1, 2, 3]",
            f"{t}[np.array([{j}, {i}, {j}])] {op} {num}",
            f"{t}[[-1, {i - n}]] += {t}[[{j}, {j}]]",
        ]
        if index is not None:
            forms.append(f"{t}[[{index.code} % {n}, {i}]] {op} {num}")
        return forms

    # ---- containers and objects ----------------------------------------------------------
    def list_op(self, flow: Flow) -> bool:
        """A new local list, an append (of the list's element kind) or an item update."""
        lists = [n for n, v in self.scope.names.items() if isinstance(v, list)]
        if not lists or self.rng.random() < 0.3:
            first = self.ex.number(1)
            if first is None or flow.in_block:
                return False
            name = self.fresh("acc")
            self.emit(f"{name} = []")
            self.scope.names[name] = []
            self.scope.lists[name] = first.probe
            return True
        name = self.rng.choice(lists)
        items = self.scope.names[name]
        element = self.scope.lists.get(name, items[0] if items else None)
        if element is None:
            return False
        if self.rng.random() < 0.6 or not items:
            value = self.ex.number() if self.has("list_mixed") else self.ex.like(element)
            if value is None:
                return False
            self.emit(f"{name}.append({value.code})")
            return True
        value = self.value_for(flow, items[0])
        if value is None:
            return False
        self.emit(f"{name}[0] = {value.code}")
        items[0] = value.probe
        return True

    def dict_op(self, flow: Flow) -> bool:
        """An entry replaced or updated in place, or a new key (outside blocks)."""
        dicts = [n for n, v in self.scope.names.items() if isinstance(v, dict)]
        if not dicts:
            return False
        name = self.rng.choice(dicts)
        entries = self.scope.names[name]
        if not flow.in_block and self.rng.random() < 0.3:
            value = self.ex.number() or self.ex.array()
            if value is None:
                return False
            key = self.fresh("k")
            self.emit(f"{name}[{key!r}] = {value.code}")
            entries[key] = value.probe
            return True
        key = self.rng.choice(list(entries))
        place = f"{name}[{key!r}]"
        return self.update_place(flow, place, entries[key], lambda v: entries.__setitem__(key, v))

    def object_op(self, flow: Flow) -> bool:
        """An attribute rebound or updated, or a new one (outside blocks)."""
        objects = [n for n, v in self.scope.names.items() if hasattr(v, "__dict__")]
        if not objects:
            return False
        name = self.rng.choice(objects)
        obj = self.scope.names[name]
        if self.has("object_lists") and hasattr(obj, "hist") and self.rng.random() < 0.5:
            return self.object_list_op(name, obj)
        if not flow.in_block and self.rng.random() < 0.2:
            value = self.ex.number() or self.ex.array()
            if value is None:
                return False
            attr = self.fresh("t")
            self.emit(f"{name}.{attr} = {value.code}")
            setattr(obj, attr, value.probe)
            return True
        attr = self.rng.choice([a for a, v in vars(obj).items() if not isinstance(v, list)])
        place = f"{name}.{attr}"
        return self.update_place(flow, place, getattr(obj, attr), lambda v: setattr(obj, attr, v))

    def object_list_op(self, name: str, obj: Any) -> bool:
        """An append to the object's list attribute, directly or through the ``record`` helper
        (which returns the new length), or its last item read."""
        value = self.ex.like(1.5)
        choice = self.rng.randrange(3)
        if choice == 0:
            self.emit(f"{name}.hist.append({value.code})")
            return True
        target = self.fresh("v")
        if choice == 1:
            self.emit(f"{target} = record({name}, {value.code})")
            self.scope.names[target] = len(obj.hist) + 1  # an int, as the probe of the length
            return True
        read = f"{name}.hist[-1] + len({name}.hist)"
        self.emit(f"{target} = {read}")
        self.scope.names[target] = self.scope.probe(read)
        return True

    def update_place(self, flow: Flow, place: str, old: Any, store: Callable[[Any], None]) -> bool:
        """``place = value`` or ``place += step`` (in place for an array)."""
        if self.rng.random() < 0.5:
            step = self.ex.like(old, 1) if is_array(old) else self.ex.number(1)
            if step is None:
                return False
            new = self.scope.probe(f"{place} + {step.code}")
            if not self.kind_kept(flow, old, new):
                return False
            self.emit(f"{place} += {step.code}")
            if not is_array(old):
                store(new)
            return True
        value = self.value_for(flow, old)
        if value is None:
            return False
        self.emit(f"{place} = {value.code}")
        store(value.probe)
        return True

    def call(self, flow: Flow) -> bool:
        """A call of a helper that writes its argument, or returns it or a view of it."""
        target = self.ex.pick(is_array)
        if target is None:
            return False
        name = self.fresh("v")
        forms = [f"{name} = scale_into({target.code}, 2)", f"{name} = head({target.code})"]
        dicts = [n for n, v in self.scope.names.items() if isinstance(v, dict) and "a" in v]
        if dicts:
            d = self.rng.choice(dicts)
            step = self.ex.like(self.scope.names[d]["a"], 1)  # keeps the entry's kind
            forms.append(f"{name} = add_entry({d}, 'a', {step.code})")
        items = [n for n, v in self.scope.names.items() if isinstance(v, tuple) or _arrays(v)]
        if items:
            forms.append(f"{name} = first_items({self.rng.choice(items)}, 0.5)")
        boxes = [n for n, v in self.scope.names.items() if hasattr(v, "__dict__")]
        if boxes:
            box = self.rng.choice(boxes)
            forms.append(f"{name} = {box}.bump({self.ex.like(self.scope.names[box].w).code})")
        statement = self.rng.choice(forms)
        if not self.scope.accepts(statement):
            return False
        self.emit(statement)
        self.scope.names[name] = self.scope.probe(statement.split(" = ", 1)[1])
        return True
