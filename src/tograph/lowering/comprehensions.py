"""Lowering step 0: a filtered list comprehension, or one over a list the function appends to,
becomes a loop.

Input: a gast ``FunctionDef``. Output: the same function in which each statement
``name = [elt for v in items if test]`` (or ``return [...]``) is written out as the loop a person
would write::

    acc = []
    for v_1 in items:
        if test_1:
            acc.append(elt_1)
    name = acc

with the comprehension's own variables renamed to fresh names, since they do not leak into the
function. A filter on a tensor then becomes a ``cond`` around a tensor-list push, as the same
loop written by hand does, where the comprehension run as Python would need the filter's truth
while the graph is built. A comprehension over a list the function grows with ``append``
(``[x[i] for i in peaks]``) is written out too: grown in a loop over tensors, that list has a
length known only when the graph runs, which a loop over it handles and a Python comprehension
does not. Other comprehensions without a filter, and those with a walrus, a lambda or another
comprehension inside, stay as they are (Python builds those lists exactly while tracing).

A comprehension elsewhere in a statement (``n += len([...])``, ``np.mean([...])``, a tuple's item)
is built by such a loop just before the statement, read from its list there; so is a filtered
generator expression that a builtin drains whole (``sum(v for v in x if v > 0)``). What the
statement evaluates before it, in places that always run, is computed first into a variable of
its own (``_Hoistable``): ``return np.mean([a for ...]), np.mean([b for ...])`` becomes the
first mean, then the second list, then the statement, the order in which eager code prints,
warns and raises.
"""

from __future__ import annotations

import itertools
from collections.abc import Set
from typing import Any, NamedTuple

import gast

from tograph.frontend import nodes
from tograph.lowering import templates

_NESTED = (gast.NamedExpr, gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp)


# builtins that drain an iterable whole before they return: a filtered generator expression
# handed to one may be built as a list first
CONSUMERS = frozenset({"sum", "min", "max", "list", "tuple", "sorted", "set", "frozenset"})
# the builtins this step relies on, where the module's globals or a closure do not shadow them
BUILTINS = CONSUMERS | {"filter", "len"}


def desugar_filtered(
    tree: gast.FunctionDef,
    taken: set[str],
    walked: list[Any] | None = None,
    shadowed: frozenset[str] = frozenset(),
) -> bool:
    """Rewrites ``tree``'s filtered list comprehensions, and those over a list the function
    grows with ``append``, in place (see module docstring); fresh names avoid ``taken``, which
    grows. ``walked`` holds every node of ``tree`` (``nodes.walk``), if the caller has walked it;
    ``shadowed`` are the ``BUILTINS`` the function's globals or closure define.
    Returns whether anything changed."""
    walked = nodes.walk(tree) if walked is None else walked
    classes = set(map(type, walked))
    if classes.isdisjoint((gast.ListComp, gast.GeneratorExp, gast.Lambda)):
        return False  # no comprehension nor ``filter(lambda ...)``: nothing to visit for
    bound = {n.id for n in walked if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)}
    bound |= {n.name for n in walked if isinstance(n, (gast.FunctionDef, gast.ClassDef))}
    bound |= {n.asname or n.name for n in walked if isinstance(n, gast.alias)}
    rewriter = _Rewriter(taken, _appended_names(walked), BUILTINS - bound - shadowed)
    rewriter.visit(tree)
    return rewriter.changed


def _appended_names(walked: list[Any]) -> frozenset[str]:
    """The names ``n`` of the calls ``n.append(...)`` among the nodes ``walked``: lists that may
    grow in a loop over tensors, whose length is then known only when the graph runs."""
    return frozenset(
        n.func.value.id
        for n in walked
        if isinstance(n, gast.Call)
        and isinstance(n.func, gast.Attribute)
        and n.func.attr == "append"
        and isinstance(n.func.value, gast.Name)
    )


def _convertible(comp: Any, grown: Set[str], kind: type = gast.ListComp) -> bool:
    """Whether ``comp`` is a comprehension of ``kind`` to write out: one with a filter, or one
    over a list the function grows (``grown``), that ``_simple`` allows."""
    if not isinstance(comp, kind):
        return False
    over_grown = len(comp.generators) == 1 and (
        isinstance(comp.generators[0].iter, gast.Name) and comp.generators[0].iter.id in grown
    )
    if not (over_grown or any(g.ifs for g in comp.generators)):
        return False
    return _simple(comp)


def _simple(comp: Any) -> bool:
    """Whether a comprehension can be written out as loops: synchronous, its targets names,
    nothing inside that binds a name or makes a scope of its own."""
    if any(g.is_async for g in comp.generators):
        return False
    inner = [n for g in comp.generators for part in (g.iter, *g.ifs) for n in gast.walk(part)]
    inner += list(gast.walk(comp.elt))
    targets = [n for g in comp.generators for n in gast.walk(g.target)]
    simple = all(isinstance(n, (gast.Name, gast.Tuple, gast.Store)) for n in targets)
    return simple and not any(isinstance(n, (*_NESTED, gast.GeneratorExp)) for n in inner)


class _Rename(nodes.Transformer):
    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: gast.Name) -> gast.Name:
        node.id = self.mapping.get(node.id, node.id)
        return node


class _Rewriter(nodes.Transformer):
    def __init__(self, taken: set[str], grown: frozenset[str], consumers: frozenset[str]):
        self.taken = taken
        self.grown = set(grown)
        self.consumers = consumers
        self.counter = itertools.count(1)
        self.changed = False

    def fresh(self, base: str) -> str:
        found = next(f"{base}_{k}" for k in self.counter if f"{base}_{k}" not in self.taken)
        self.taken.add(found)
        return found

    def visit_Assign(self, node: gast.Assign) -> Any:
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, gast.Name):
            if _convertible(node.value, self.grown):
                acc, built = self._build(node.value)
                self.grown.add(target.id)  # built by appends: its length may be known late
                return [*built, *templates.quote("t = acc", node, t=target.id, acc=acc)]
        return self._hoist(node)

    def visit_Return(self, node: gast.Return) -> Any:
        if node.value is not None and _convertible(node.value, self.grown):
            acc, built = self._build(node.value)
            return [*built, *templates.quote("return acc", node, acc=acc)]
        return self._hoist(node)

    def visit_AugAssign(self, node: gast.AugAssign) -> Any:
        # the target is read before the value: only a name or a constant slice of one, whose
        # read has no effect, lets the value's comprehensions be built first
        return self._hoist(node) if _plain_target(node.target) else node

    def visit_Expr(self, node: gast.Expr) -> Any:
        return self._hoist(node)

    def visit_If(self, node: gast.If) -> Any:
        hoisted = self._hoist(node, "test")
        self.generic_visit(node)
        return hoisted

    def visit_For(self, node: gast.For) -> Any:
        hoisted = self._hoist(node, "iter")
        self.generic_visit(node)
        return hoisted

    def _hoist(self, stmt: Any, field: str = "value") -> Any:
        """``stmt`` preceded by the loops building the comprehensions in its ``field`` (an
        expression evaluated once, first) that run before anything else in it with an effect
        (``_Hoistable``), each read from its list."""
        expression = getattr(stmt, field)
        if expression is None:
            return stmt
        finder = _Hoistable(self.grown, self.consumers)
        finder.pure(expression)
        found = finder.found
        while found and isinstance(found[-1], _Operand):
            found.pop()  # evaluated after the last list built: it stays in the statement
        if not found:
            return stmt
        built: list[Any] = []
        names: dict[int, str] = {}
        for item in found:
            if isinstance(item, _Operand):
                value = self.fresh(OPERAND)
                operand = _Replace(names).visit(item.node)
                built += templates.quote("v = operand", operand, v=value, operand=operand)
                names[id(item.node)] = value
                continue
            acc, statements = self._build(item)
            built += statements
            names[id(getattr(item, "stands_for", item))] = acc
        setattr(stmt, field, _Replace(names).visit(expression))
        return [*built, stmt]

    def _build(self, comp: Any) -> tuple[str, list[Any]]:
        """A fresh variable and the statements building ``comp``'s list in it."""
        self.changed = True
        acc = self.fresh(ACCUMULATOR)
        bound = [n.id for g in comp.generators for n in gast.walk(g.target) if _is_name(n)]
        rename = _Rename({name: self.fresh(name) for name in dict.fromkeys(bound)})
        body = templates.quote("acc.append(elt)", comp, acc=acc, elt=rename.visit(comp.elt))
        for position, gen in reversed(list(enumerate(comp.generators))):
            for test in reversed(gen.ifs):
                body = templates.quote(
                    "if test:\n    body", comp, test=rename.visit(test), body=body
                )
            items = gen.iter if position == 0 else rename.visit(gen.iter)
            loop = "for target in items:\n    body"
            body = templates.quote(
                loop, comp, target=rename.visit(gen.target), items=items, body=body
            )
        return acc, [*templates.quote("acc = []", comp, acc=acc), *body]


class _Operand(NamedTuple):
    """An operand with an effect that runs before a comprehension of its statement: computed
    first, into a variable of its own, so that the list may be built next."""

    node: Any


class _Hoistable:
    """Finds, in evaluation order, the comprehensions of an expression that may be built before
    the statement holding it, in places that always run (an element of a tuple or list display,
    an argument of a call to a name or a module's function, an operand of an arithmetic
    operator or of a comparison's first test), with the operands before them that have an
    effect (``_Operand``, to compute first). A generator expression with a filter counts where it
    is the one argument of a builtin that consumes it whole (``sum``, ``max``, ...) and every
    other argument is a name or constant, since those run before it is drained. What runs only
    on some paths (``and``, ``or``, a conditional expression) or unpacks (``*args``) ends the
    search."""

    def __init__(self, grown: Set[str], consumers: frozenset[str]):
        self.grown = grown
        self.consumers = consumers
        self.found: list[Any] = []

    def pure(self, node: Any) -> bool:
        """Collects the hoistable comprehensions in ``node``; returns whether evaluating it,
        once they are built, has no effect (so that what runs after it may be hoisted too)."""
        if _convertible(node, self.grown):
            self.found.append(node)
            return True
        if _plain_value(node):
            return True
        if isinstance(node, (gast.Tuple, gast.List)) and isinstance(node.ctx, gast.Load):
            return self.in_order(node.elts)
        if isinstance(node, gast.BinOp):  # the operation itself may raise or warn
            self.in_order([node.left, node.right])
            return False
        if isinstance(node, gast.Compare):  # a chain's later operands may not run
            self.in_order([node.left, node.comparators[0]])
            return False
        if isinstance(node, gast.Call) and _plain_callee(node.func):
            filtered = self._filtered_list(node)
            if filtered is not None:
                self.found.append(filtered)
                return True
            if _builtin_call(node, "len", self.consumers) and len(node.args) == 1:
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

    def in_order(self, operands: list[Any]) -> bool:
        """Collects from ``operands``, evaluated in this order, those operands with an effect that
        can be computed first (``_Operand``), up to one that cannot; returns whether all could
        (what remains of them once computed has no effect)."""
        for operand in operands:
            start = len(self.found)
            if self.pure(operand):
                continue
            if not _computable_first(operand):
                return False
            while len(self.found) > start and isinstance(self.found[-1], _Operand):
                self.found.pop()  # parts of ``operand`` after its last list: computed with it
            self.found.append(_Operand(operand))
        return True

    def _filtered_list(self, call: gast.Call) -> Any:
        """``list(filter(lambda v: test, items))`` as the comprehension ``[v for v in items if
        test]`` it builds, standing in for the call (see ``_Replace``), if ``call`` is one."""
        if not (_builtin_call(call, "list", self.consumers) and len(call.args) == 1):
            return None
        inner = call.args[0]
        if not (_builtin_call(inner, "filter", self.consumers) and len(inner.args) == 2):
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
        if not _simple(comp):
            return None
        comp.stands_for = call
        return comp

    def _drained(self, call: gast.Call, arguments: list[Any]) -> Any:
        """The filtered generator expression ``call`` consumes whole, if it is one (see class)."""
        if not (isinstance(call.func, gast.Name) and call.func.id in self.consumers):
            return None
        generator = call.args[0] if call.args else None
        if not _convertible(generator, self.grown, gast.GeneratorExp):
            return None
        if not all(_plain_value(arg) for arg in arguments if arg is not generator):
            return None
        return generator


def _computable_first(operand: Any) -> bool:
    """Whether ``operand`` may be computed into a variable before its statement: an expression
    evaluated once, whole, binding no name (not an unpacking ``*a``, not holding a walrus)."""
    if isinstance(operand, gast.Starred):
        return False
    return not any(isinstance(n, gast.NamedExpr) for n in gast.walk(operand))


def _builtin_call(node: Any, name: str, unshadowed: frozenset[str]) -> bool:
    """Whether ``node`` calls the builtin ``name`` (which the function's scope does not
    redefine), with positional arguments only."""
    return (
        isinstance(node, gast.Call)
        and isinstance(node.func, gast.Name)
        and node.func.id == name
        and name in unshadowed
        and not node.keywords
    )


def _plain_value(node: Any) -> bool:
    """A name or a constant (``-1.0`` too): evaluating it has no effect."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        node = node.operand
    return isinstance(node, (gast.Name, gast.Constant))


def _plain_target(target: Any) -> bool:
    """A name, or a slice of one with constant bounds (``x[0:1]``): reading it has no effect."""
    if isinstance(target, gast.Subscript) and isinstance(target.slice, gast.Slice):
        bounds = (target.slice.lower, target.slice.upper, target.slice.step)
        plain = all(b is None or _plain_value(b) and not isinstance(b, gast.Name) for b in bounds)
        return plain and isinstance(target.value, gast.Name)
    return isinstance(target, gast.Name)


def _plain_callee(func: Any) -> bool:
    """A name, or attributes of a name (``np.mean``): reading it has no effect worth ordering."""
    while isinstance(func, gast.Attribute):
        func = func.value
    return isinstance(func, gast.Name)


class _Replace(nodes.Transformer):
    """Puts a read of its list in place of each comprehension built before the statement."""

    def __init__(self, names: dict[int, str]):
        self.names = names

    def visit(self, node: Any) -> Any:
        name = self.names.get(id(node))
        if name is not None:
            return templates.quote_expr(name, node)
        return super().visit(node)


ACCUMULATOR = "comprehension"  # the base of the names of the lists this step builds
OPERAND = "operand"  # the base of the names of the operands computed before such a list


def is_accumulator(name: str) -> bool:
    """Whether ``name`` is one this step made for a comprehension's list: its only use after the
    loop is the assignment that hands the list to the comprehension's target, so it is not a
    second name for that list."""
    base, _, number = name.rpartition("_")
    return base == ACCUMULATOR and number.isdigit()


def _is_name(node: Any) -> bool:
    return isinstance(node, gast.Name)
