"""Random statements for the generated programs: bindings, in-place writes, list, dict and object
mutation (methods that edit containers, views written through, writes that wrap or overflow:
``imperative``), printing (f-strings with format specs and conversions, numbers inside lists and
tuples, ``sep``/``end`` under ``format_prints``), raising, ``try``/``except`` (``try_except``),
local functions and swaps (``functions``), and ``if``/``while``/``for`` blocks (``for`` over
ranges, arrays, ``enumerate`` and ``zip``; loops with an ``else`` at times) with ``break``,
``continue`` and early ``return``, nested.

Inside a block a rebinding keeps the variable's kind (shape, dtype, Python or NumPy scalar), so a
value's kind never depends on the path taken, unless the ``kind_changes`` feature allows it; names
first bound in a block are not read after it, unless ``one_sided`` allows it. ``while`` loops are
bounded by a counter, so every program ends.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable
from typing import Any

from .constructs import Constructs
from .expressions import REFUSED, Expr, Expressions, Scope, is_array, is_int, is_number, kind
from .functions import Functions, LocalFunction
from .imperative import Imperative
from .mutations import Mutations

# Features the generator can leave out (``programs.ALL_FEATURES`` lists them with the rest).
STATEMENT_FEATURES = frozenset(
    "if while for jumps returns lists prints raises calls "
    "out_args sort_fill mask_writes fancy_writes add_at "
    "operators functions iterators slice_updates "
    "format_prints hazards try_except scalar_mix view_chains repeated_indices "
    "container_edits view_writes dtype_writes".split()
)
# Everyday idioms (``idioms``, ``constructs``): closures, lambdas, comprehensions, small dtypes,
# view-or-copy methods, ``while True``, ``reversed``, ``out=`` reductions, arrays printed as text,
# ``and``/``or`` operands and ternaries, arguments returned as they are.
IDIOM_FEATURES = frozenset(
    "truthy lambdas comprehensions dtypes view_methods closures while_true reversed "
    "out_reductions array_text identity_returns".split()
)
# Constructs known to give differences or crashes: left out of the fixed-seed CI run.
RISKY_FEATURES = frozenset(
    "kind_changes one_sided mixed_returns list_mixed copy_writes alias_joins".split()
)
# Constructs that often fall back (``try``, whose handlers would have to run when the graph runs;
# ``nonlocal``, ``np.array2string``, a
# filter on tensors after something observable in an expression, ``out=`` of another dtype or
# shape): left out of the CI run too, whose programs should mostly compile.
FALLBACK_FEATURES = frozenset(
    {"try_except", "closures", "array_text", "lambdas", "comprehensions", "out_reductions"}
)
_MAX_DEPTH = 3
_LOOP_BOUND = 3


@dataclasses.dataclass(frozen=True)
class Flow:
    """Where a statement is: nesting depth, inside a loop, inside any block."""

    depth: int = 0
    in_loop: bool = False

    @property
    def in_block(self) -> bool:
        return self.depth > 0

    def nested(self, loop: bool = False) -> Flow:
        return Flow(self.depth + 1, self.in_loop or loop)


class Writer(Mutations, Imperative, Functions, Constructs):
    """Writes a function body as indented source lines."""

    def __init__(self, rng: random.Random, scope: Scope, features: frozenset[str]):
        self.rng = rng
        self.scope = scope
        self.features = features
        self.lines: list[str] = []
        self._indent = 1
        self._names = itertools.count()
        self.template: list[Any] | None = None  # the probes of what every return returns
        self.returned_early = False
        self.counters: set[str] = set()  # the while loops' counters: never rebound
        self.captured: set[str] = set()  # names closures read: rebound only to their kind
        self.functions: list[LocalFunction] = []

    # ---- output --------------------------------------------------------------------------
    def emit(self, text: str) -> None:
        self.lines.append("    " * self._indent + text)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self._names)}"

    def has(self, feature: str) -> bool:
        return feature in self.features

    @property
    def ex(self) -> Expressions:
        return Expressions(self.rng, self.scope, self.features)

    # ---- blocks --------------------------------------------------------------------------
    def block(self, flow: Flow, count: int) -> None:
        """``count`` statements at ``flow``; a block that ends up empty gets ``pass``."""
        start = len(self.lines)
        for _ in range(count):
            if self.statement(flow) == "return":
                break
        if len(self.lines) == start:
            self.emit("pass")

    def nested(self, flow: Flow, loop: bool = False) -> Scope:
        """Writes an indented block in a child scope; returns that scope."""
        outer = self.scope
        self.scope = outer.child()
        self._indent += 1
        try:
            self.block(flow.nested(loop), self.rng.randint(1, 4))
            return self.scope
        finally:
            self._indent -= 1
            self.scope = outer

    def statement(self, flow: Flow) -> str | None:
        """Writes one statement; returns its kind, or None when no candidate was accepted."""
        menu: list[tuple[str, float, Callable[[Flow], bool]]] = [
            ("assign", 3, self.assign),
            ("rebind", 2, self.rebind),
            ("inplace", 5, self.inplace),
            ("lists", 1, self.list_op),
            ("dict_args", 1, self.dict_op),
            ("object_args", 1, self.object_op),
            ("prints", 0.7, self.print_),
            ("raises", 0.5, self.raise_),
            ("try_except", 0.15 if flow.depth < _MAX_DEPTH else 0.0, self.try_),
            ("calls", 0.6, self.call),
            ("container_edits", 0.8, self.container_edit),
            ("view_writes", 0.6, self.view_write),
            ("dtype_writes", 0.9, self.dtype_write),
            ("returns", 0.4 if flow.in_block else 0.0, self.early_return),
            ("jumps", 1.0 if flow.in_loop else 0.0, self.jump),
            ("functions", 0.0 if flow.in_block else 0.5, self.define_function),
            ("functions", 1.5, self.call_function),
            ("functions", 0.3, self.swap),
            ("closures", 0.0 if flow.in_block else 0.4, self.define_closure),
            ("closures", 0.8 if self.functions else 0.0, self.call_function),
            ("out_reductions", 0.8, self.write_out),
            ("array_text", 0.5, self.print_text),
        ]
        if flow.depth < _MAX_DEPTH:
            menu += [("if", 2, self.if_), ("while", 1, self.while_), ("for", 1.5, self.for_)]
            menu.append(("while_true", 0.6, self.while_true))
        usable = [
            m
            for m in menu
            if m[1] > 0 and (m[0] in ("assign", "rebind", "inplace") or self.has(m[0]))
        ]
        for _ in range(4):
            name, _, write = self.rng.choices(usable, weights=[m[1] for m in usable])[0]
            if write(flow):
                return name
        return None

    # ---- bindings ------------------------------------------------------------------------
    def assign(self, flow: Flow) -> bool:
        """``vN = expr``: a new local array, number or condition."""
        maker = self.rng.choice([self.ex.array, self.ex.array, self.ex.number, self.ex.condition])
        value = maker()
        if value is None:
            return False
        self.bind(self.fresh("v"), value)
        return True

    def bind(self, name: str, value: Expr) -> None:
        self.emit(f"{name} = {value.code}")
        self.scope.names[name] = value.probe

    def rebind(self, flow: Flow) -> bool:
        """``name = expr`` or ``name += expr`` of a variable in scope (an argument too)."""
        names = [
            n
            for n, v in self.scope.names.items()
            if (is_array(v) or is_number(v)) and n not in self.counters
        ]
        if not names:
            return False
        name = self.rng.choice(names)
        old = self.scope.names[name]
        if self.rng.random() < 0.4 and is_number(old):
            step = self.ex.number(1)
            if step is None:
                return False
            new = self.scope.probe(f"{name} + {step.code}")
            if not self.kind_kept(flow, old, new) or not self.closure_safe(name, old, new):
                return False
            self.emit(f"{name} += {step.code}")
            self.scope.names[name] = new
            return True
        value = self.value_for(flow, old)
        if value is None or not self.closure_safe(name, old, value.probe):
            return False
        self.bind(name, value)
        return True

    def closure_safe(self, name: str, old: Any, new: Any) -> bool:
        """Whether rebinding ``name`` keeps the probes of the closures that read it true."""
        return name not in self.captured or kind(new) == kind(old)

    def kind_kept(self, flow: Flow, old: Any, new: Any) -> bool:
        """Whether a rebinding from ``old`` to ``new`` is allowed here: inside a block, of the
        same kind, and (without ``alias_joins``) neither an argument's array nor a view of one."""
        if not (is_array(new) or is_number(new)):
            return False
        if not flow.in_block:
            return True
        if self.aliases(old) or self.aliases(new):
            return False
        return self.has("kind_changes") or kind(new) == kind(old)

    def aliases(self, probe: Any) -> bool:
        """Whether ``probe`` aliases an argument, where the ``alias_joins`` feature is left out
        (a value joined after a block must then not be an argument or a view of one)."""
        return not self.has("alias_joins") and self.scope.aliases_argument(probe)

    def value_for(self, flow: Flow, old: Any) -> Expr | None:
        """A new value for a variable holding ``old`` (see ``kind_kept``)."""
        if flow.in_block and self.aliases(old):
            return None
        if flow.in_block and not self.has("kind_changes"):
            value = self.ex.like(old)
        else:
            value = self.ex.array() if is_array(old) else self.ex.number()
        if value is None or not self.kind_kept(flow, old, value.probe):
            return None
        return value

    # ---- effects -------------------------------------------------------------------------
    def print_(self, flow: Flow) -> bool:
        value = self.ex.number() if self.rng.random() < 0.7 else self.ex.array(1)
        if value is None:
            return False
        tag = self.fresh("p")
        if self.has("format_prints") and self.rng.random() < 0.5:
            return self.print_formatted(tag, value)
        if self.rng.random() < 0.3 and is_number(value.probe):
            self.emit(f'print(f"{tag} {{{value.code}}}")')
        else:
            self.emit(f'print("{tag}", {value.code})')
        return True

    def print_formatted(self, tag: str, value: Expr) -> bool:
        """An f-string with a format spec or conversion, a number in a list (its repr tells a
        NumPy scalar from a Python one), ``sep``/``end``, or an array's dtype and shape."""
        v = value.code
        forms = [
            f'print(f"{tag} {{{v}:.3f}}")',
            f'print(f"{tag} {{{v}:>9.2e}}|")',
            f'print(f"{tag} {{{v}:+}}")',
            f'print(f"{tag} {{{v}!r}}")',
            f'print(f"{tag} {{{v}=}}")',
            f'print(f"{tag} {{{v}:d}}")',
            f'print(f"{tag} {{{v}:5}}")',
            f'print("{tag}", [{v}], sep="; ", end="!\\n")',
            f'print("{tag}", ({v},), repr({v}))',
            f'print(f"{tag} {{{v}}}", type({v}).__name__)',
        ]
        if is_array(value.probe):
            forms += [f'print("{tag}", {v}.dtype, {v}.shape)', f'print(f"{tag} {{{v}!s}}")']
        for _ in range(4):
            statement = self.rng.choice(forms)
            if self.scope.accepts(statement):
                self.emit(statement)
                return True
        return False

    def raise_(self, flow: Flow) -> bool:
        condition = self.ex.condition()
        if condition is None:
            return False
        tag = self.fresh("e")
        if self.rng.random() < 0.5:
            self.emit(f'assert {condition.code}, "{tag}"')
        else:
            self.emit(f"if {condition.code}:")
            self.emit(f'    raise ValueError("{tag}")')
        return True

    def try_(self, flow: Flow) -> bool:
        """``try`` around a block (whose statements may raise) with ``except`` clauses that
        print, pass or rebind; a ``finally`` or an ``else`` at times."""
        self.emit("try:")
        self.nested(flow)
        caught = self.rng.choice(
            [
                "(IndexError, ZeroDivisionError)",
                "ValueError",
                "AssertionError",
                "Exception",
                "(ValueError, IndexError, ZeroDivisionError, AssertionError)",
            ]
        )
        name = self.fresh("err")
        self.emit(f"except {caught} as {name}:")
        self._indent += 1
        self.emit(self.rng.choice([f"print('caught', type({name}).__name__, {name})", "pass"]))
        self._indent -= 1
        if self.rng.random() < 0.3:
            self.nested(flow)  # more of the handler, at its indentation
        if self.rng.random() < 0.2:
            self.emit("else:")
            self.nested(flow)
        if self.rng.random() < 0.2:
            self.emit("finally:")
            self._indent += 1
            self.emit(f"print('{self.fresh('fin')}')")
            self._indent -= 1
        return True

    # ---- control flow --------------------------------------------------------------------
    def if_(self, flow: Flow) -> bool:
        condition = self.ex.condition()
        if condition is None:
            return False
        self.emit(f"if {condition.code}:")
        inner = [self.nested(flow)]
        if self.rng.random() < 0.6:
            self.emit("else:")
            inner.append(self.nested(flow))
        self.keep_one_sided(inner)
        return True

    def keep_one_sided(self, inner: list[Scope]) -> None:
        """With ``one_sided``: names a block bound stay readable after it (maybe unbound)."""
        if not self.has("one_sided") or self.rng.random() < 0.5:
            return
        for scope in inner:
            for name, value in scope.names.items():
                self.scope.names.setdefault(name, value)

    def while_(self, flow: Flow) -> bool:
        condition = self.ex.condition()
        if condition is None:
            return False
        counter = self.fresh("c")
        self.emit(f"{counter} = 0")
        self.scope.names[counter] = 0
        self.counters.add(counter)
        self.emit(f"while {counter} < {_LOOP_BOUND} and ({condition.code}):")
        self._indent += 1
        self.emit(f"{counter} += 1")
        self._indent -= 1
        self.loop_body(flow)
        return True

    def for_(self, flow: Flow) -> bool:
        iterables = self.iterables()
        iterable, targets = self.rng.choice(iterables)
        first = self.scope.probe(f"next(iter({iterable}), None)")
        if first is REFUSED or first is None and not iterable.startswith("range"):
            return False
        if first is None:
            first = 0  # the index of a range that may run no trips
        names = [self.fresh(prefix) for prefix in targets]
        self.emit(f"for {', '.join(names)} in {iterable}:")
        extra = dict(zip(names, first)) if len(names) > 1 else {names[0]: first}
        self.scope.names.update(extra)
        try:
            self.loop_body(flow)
        finally:
            for name in extra:
                del self.scope.names[name]
        return True

    def iterables(self) -> list[tuple[str, str]]:
        """What a ``for`` may iterate, each with its targets' name prefixes."""
        found = [(f"range({self.rng.randrange(4)})", "i")]
        if self.has("reversed"):
            found += self.reversed_iterables()
        bound = self.ex.pick(lambda v: is_int(v))
        if bound is not None:
            found.append((f"range({bound.code} % {_LOOP_BOUND + 1})", "i"))
        arrays = self.ex.pick(lambda v: is_array(v) and v.ndim >= 1)
        if arrays is not None:
            found += [(arrays.code, "i"), (f"enumerate({arrays.code})", "ji")]
        if not self.has("iterators"):
            return found
        other = self.ex.pick(lambda v: is_array(v) and v.ndim >= 1)
        if bound is not None:
            found.append((f"range({bound.code} % {_LOOP_BOUND + 1}, -1, -1)", "i"))
        if arrays is not None and other is not None:
            found += [
                (f"zip({arrays.code}, {other.code})", "ii"),
                (f"range(1, len({arrays.code}))", "i"),
                (f"enumerate({arrays.code}[::-1], 1)", "ji"),
                (f"zip(range(3), {arrays.code})", "ji"),
            ]
        return found

    def loop_body(self, flow: Flow) -> None:
        self.nested(flow, loop=True)
        if self.rng.random() < 0.2:
            self.emit("else:")
            self.nested(flow)

    def jump(self, flow: Flow) -> bool:
        condition = self.ex.condition()
        if condition is None:
            return False
        self.emit(f"if {condition.code}:")
        self.emit(f"    {self.rng.choice(['break', 'continue'])}")
        return True

    # ---- returns -------------------------------------------------------------------------
    def early_return(self, flow: Flow) -> bool:
        condition = self.ex.condition()
        if condition is None:
            return False
        self.emit(f"if {condition.code}:")
        self._indent += 1
        self.emit_return(joined=True)
        self._indent -= 1
        self.returned_early = True
        return True

    def emit_return(self, joined: bool, extras: tuple[str, ...] = ()) -> None:
        """``return`` of the template's kinds (fixing the template at the first return). The
        values of ``joined`` returns (there are several) alias no argument, unless the
        ``alias_joins`` feature allows it."""
        fits = (lambda e: not self.aliases(e.probe)) if joined else (lambda e: True)
        if self.template is None or self.has("mixed_returns") and self.rng.random() < 0.3:
            values = [self.returnable() for _ in range(self.rng.randint(0, 3))]
            values = [v for v in values if v is not None and fits(v)]
            if self.template is None:
                self.template = [v.probe for v in values]
        else:
            values = [self.ex.like(p, fits=fits) for p in self.template]
        codes = [v.code for v in values] + list(extras)
        if not codes:
            self.emit("return")
        else:
            self.emit(f"return {codes[0]}" if len(codes) == 1 else f"return {', '.join(codes)}")

    def returnable(self) -> Expr | None:
        makers = [self.ex.number, self.ex.array, lambda: self.ex.pick(is_array), self.ex.view]
        if self.has("identity_returns"):
            makers += [lambda: self.ex.pick(self.scope.aliases_argument)] * 3
        return self.rng.choice(makers)()
