"""Which comprehensions of a statement may be built before it, and what must be computed first
so that they may (a step of ``lowering.comprehensions``).

``Hoistable`` walks an expression in evaluation order and collects, up to the first part that
runs only on some paths or whose effect cannot be moved, the comprehensions to build first
(``convertible``: filtered ones, and those over a list the function grows), the operands with an
effect to compute before them (``Operand``), and the short-circuit expressions whose later parts
hold such comprehensions (``ShortCircuit``), which ``lowering.short_circuit`` writes out as
``if`` statements. The predicates beside it say which expressions, targets and indices may be
read again, or computed early, without changing what the statement does.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any, NamedTuple

import gast

from tograph.lowering import short_circuit

_NESTED = (gast.NamedExpr, gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp)


def convertible(comp: Any, grown: Set[str], kind: type = gast.ListComp) -> bool:
    """Whether ``comp`` is a comprehension of ``kind`` to write out: one with a filter, or one
    over a list the function grows (``grown``), that ``simple`` allows."""
    if not isinstance(comp, kind):
        return False
    over_grown = len(comp.generators) == 1 and (
        isinstance(comp.generators[0].iter, gast.Name) and comp.generators[0].iter.id in grown
    )
    if not (over_grown or any(g.ifs for g in comp.generators)):
        return False
    return simple(comp)


def simple(comp: Any) -> bool:
    """Whether a comprehension can be written out as loops: synchronous, its targets names,
    nothing inside that binds a name or makes a scope of its own."""
    if any(g.is_async for g in comp.generators):
        return False
    inner = [n for g in comp.generators for part in (g.iter, *g.ifs) for n in gast.walk(part)]
    inner += list(gast.walk(comp.elt))
    targets = [n for g in comp.generators for n in gast.walk(g.target)]
    simple = all(isinstance(n, (gast.Name, gast.Tuple, gast.Store)) for n in targets)
    return simple and not any(isinstance(n, (*_NESTED, gast.GeneratorExp)) for n in inner)


class Operand(NamedTuple):
    """An operand with an effect that runs before a comprehension of its statement: computed
    first, into a variable of its own, so that the list may be built next."""

    node: Any


class ShortCircuit(NamedTuple):
    """An ``and``, ``or``, conditional expression or comparison chain whose later parts build
    comprehensions: its value is computed first, by ``if`` statements (``short_circuit``)."""

    node: Any


class Hoistable:
    """Finds, in evaluation order, the comprehensions of an expression that may be built before
    the statement holding it, in places that always run (an element of a tuple or list display,
    an argument of a call to a name, a module's function or a computed object's method, that
    object, an operand of an arithmetic or unary operator or of a comparison's first test, a
    subscripted or attribute's value and its index, an f-string's first field), with the
    operands before them that have an effect (``Operand``, to compute first). A generator
    expression with a filter counts where it is the one argument of a builtin that consumes it
    whole (``sum``, ``max``, ...) and every other argument is a name or constant, since those run
    before it is drained. An ``and``, ``or``, conditional expression or comparison chain whose
    later parts hold such comprehensions is found whole (``ShortCircuit``); else what runs only
    on some paths, or unpacks (``*args``), ends the search."""

    def __init__(self, grown: Set[str], consumers: frozenset[str]):
        self.grown = grown
        self.consumers = consumers
        self.found: list[Any] = []

    def pure(self, node: Any) -> bool:
        """Collects the hoistable comprehensions in ``node``; returns whether evaluating it,
        once they are built, has no effect (so that what runs after it may be hoisted too)."""
        if convertible(node, self.grown):
            self.found.append(node)
            return True
        if plain_value(node):
            return True
        if short_circuit.is_short_circuit(node):
            later = short_circuit.later_parts(node)
            if any(Hoistable(self.grown, self.consumers).builds(part) for part in later):
                self.found.append(ShortCircuit(node))
                return True
            if not isinstance(node, gast.Compare):
                self.in_order([short_circuit.first_part(node)])
                return False
        if isinstance(node, gast.UnaryOp):  # the operation (a truth test, say) may raise
            self.in_order([node.operand])
            return False
        if isinstance(node, gast.Attribute) and isinstance(node.ctx, gast.Load):
            self.in_order([node.value])
            return False
        if isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Load):
            self.in_order([node.value, *_index_parts(node.slice)])
            return False
        if isinstance(node, gast.JoinedStr):  # formatting a value may raise before the next
            formatted = [v.value for v in node.values if isinstance(v, gast.FormattedValue)]
            self.in_order(formatted[:1])
            return False
        if isinstance(node, (gast.Tuple, gast.List)) and isinstance(node.ctx, gast.Load):
            return self.in_order(node.elts)
        if isinstance(node, gast.BinOp):  # the operation itself may raise or warn
            self.in_order([node.left, node.right])
            return False
        if isinstance(node, gast.Compare):  # a chain's later operands may not run
            self.in_order([node.left, node.comparators[0]])
            return False
        if isinstance(node, gast.Call) and not plain_callee(node.func):
            # ``obj.method(...)``: the object is computed first, as Python computes it first
            if not isinstance(node.func, gast.Attribute) or not self.in_order([node.func.value]):
                return False
        if isinstance(node, gast.Call):
            filtered = self._filtered_list(node)
            if filtered is not None:
                self.found.append(filtered)
                return True
            if builtin_call(node, "len", self.consumers) and len(node.args) == 1:
                found = len(self.found)
                if self.pure(node.args[0]) and len(self.found) > found:
                    built = self.found[-1]  # the length of a list just built has no effect
                    return getattr(built, "stands_for", built) is node.args[0]
                return False
            arguments = [*node.args, *(kw.value for kw in node.keywords)]
            drained = self._drained(node, arguments)
            if drained is not None:
                self.found.append(drained)
                return False
            self.in_order(arguments)
        return False

    def builds(self, node: Any) -> bool:
        """Whether ``node`` holds comprehensions that may be built before it runs."""
        self.pure(node)
        return any(not isinstance(item, Operand) for item in self.found)

    def in_order(self, operands: list[Any]) -> bool:
        """Collects from ``operands``, evaluated in this order, those operands with an effect that
        can be computed first (``Operand``), up to one that cannot; returns whether all could
        (what remains of them once computed has no effect)."""
        for operand in operands:
            start = len(self.found)
            if self.pure(operand):
                continue
            if not computable_first(operand):
                return False
            while len(self.found) > start and isinstance(self.found[-1], Operand):
                self.found.pop()  # parts of ``operand`` after its last list: computed with it
            self.found.append(Operand(operand))
        return True

    def _filtered_list(self, call: gast.Call) -> Any:
        """``list(filter(lambda v: test, items))`` as the comprehension ``[v for v in items if
        test]`` it builds, standing in for the call (see ``_Replace``), if ``call`` is one."""
        if not (builtin_call(call, "list", self.consumers) and len(call.args) == 1):
            return None
        inner = call.args[0]
        if not (builtin_call(inner, "filter", self.consumers) and len(inner.args) == 2):
            return None
        test, items = inner.args
        if not isinstance(test, gast.Lambda):
            return None
        params = test.args
        if params.posonlyargs or params.vararg or params.kwonlyargs or params.kwarg:
            return None
        if len(params.args) != 1 or params.defaults:
            return None
        name = params.args[0].id
        comp = gast.ListComp(
            elt=gast.Name(name, gast.Load(), None, None),
            generators=[
                gast.comprehension(
                    target=gast.Name(name, gast.Store(), None, None),
                    iter=items,
                    ifs=[test.body],
                    is_async=0,
                )
            ],
        )
        gast.copy_location(comp, call)
        if not simple(comp):
            return None
        comp.stands_for = call
        return comp

    def _drained(self, call: gast.Call, arguments: list[Any]) -> Any:
        """The filtered generator expression ``call`` consumes whole, if it is one (see class)."""
        if not (isinstance(call.func, gast.Name) and call.func.id in self.consumers):
            return None
        generator = call.args[0] if call.args else None
        if not convertible(generator, self.grown, gast.GeneratorExp):
            return None
        if not all(plain_value(arg) for arg in arguments if arg is not generator):
            return None
        return generator


def _index_parts(index: Any) -> list[Any]:
    """The parts of an index evaluated in order: its bounds, if it is a slice; none, if it holds
    slices otherwise (which cannot be computed into a variable); else the index itself."""
    if isinstance(index, gast.Slice):
        return [b for b in (index.lower, index.upper, index.step) if b is not None]
    if any(isinstance(n, gast.Slice) for n in gast.walk(index)):
        return []
    return [index]


def computable_first(operand: Any) -> bool:
    """Whether ``operand`` may be computed into a variable before its statement: an expression
    evaluated once, whole, binding no name (not an unpacking ``*a``, not holding a walrus)."""
    if isinstance(operand, gast.Starred):
        return False
    return not any(isinstance(n, gast.NamedExpr) for n in gast.walk(operand))


def builtin_call(node: Any, name: str, unshadowed: frozenset[str]) -> bool:
    """Whether ``node`` calls the builtin ``name`` (which the function's scope does not
    redefine), with positional arguments only."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Name)
        and node.func.id == name
        and name in unshadowed
        and not node.keywords
    )


def plain_value(node: Any) -> bool:
    """A name or a constant (``-1.0`` too): evaluating it has no effect."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        node = node.operand
    return isinstance(node, (gast.Name, gast.Constant))


def plain_target(target: Any) -> bool:
    """A name, or a slice of one with constant bounds (``x[0:1]``): reading it has no effect."""
    if isinstance(target, gast.Subscript) and isinstance(target.slice, gast.Slice):
        bounds = (target.slice.lower, target.slice.upper, target.slice.step)
        plain = all(b is None or plain_value(b) and not isinstance(b, gast.Name) for b in bounds)
        return plain and isinstance(target.value, gast.Name)
    return isinstance(target, gast.Name)


def plain_index(index: Any) -> bool:
    """An index whose evaluation has no effect: names, constants, slices with such bounds, and
    tuples of them, or lists of names and constants."""
    if isinstance(index, gast.Tuple):
        return all(plain_index(item) for item in index.elts)
    if isinstance(index, gast.List):
        return all(plain_value(item) for item in index.elts)
    if isinstance(index, gast.Slice):
        bounds = (index.lower, index.upper, index.step)
        return all(b is None or plain_value(b) for b in bounds)
    return plain_value(index)


def plain_callee(func: Any) -> bool:
    """A name, or attributes of a name (``np.mean``): reading it has no effect worth ordering."""
    while isinstance(func, gast.Attribute):
        func = func.value
    return isinstance(func, gast.Name)
