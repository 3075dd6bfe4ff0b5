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
its own (``lowering.hoisting``): ``return np.mean([a for ...]), np.mean([b for ...])`` becomes
the first mean, then the second list, then the statement, the order in which eager code prints,
warns and raises.

Where a comprehension runs only on some paths, the statement is written so that it runs exactly
there. An ``and``, ``or``, conditional expression or comparison chain holding one in a later part
is computed first by ``if`` statements (``lowering.short_circuit``), into a variable of its own or,
as an ``if`` or ``while`` test, into a flag holding its truth. A ``while`` test that builds a list
is computed at the top of each pass (``while True:`` that breaks where it is false, its ``else``
kept). The target of ``c[i] op= ...`` is read first into a variable, the value's lists built,
and the item written back, as Python reads, computes and writes it.
"""

from __future__ import annotations

import itertools
from typing import Any

import gast

from tograph.frontend import nodes
from tograph.lowering import hoisting, short_circuit, templates

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
            if hoisting.convertible(node.value, self.grown):
                acc, built = self._build(node.value)
                self.grown.add(target.id)  # built by appends: its length may be known late
                return [*built, *templates.quote("t = acc", node, t=target.id, acc=acc)]
        return self._hoist(node)

    def visit_Return(self, node: gast.Return) -> Any:
        if node.value is not None and hoisting.convertible(node.value, self.grown):
            acc, built = self._build(node.value)
            return [*built, *templates.quote("return acc", node, acc=acc)]
        return self._hoist(node)

    def visit_AugAssign(self, node: gast.AugAssign) -> Any:
        # the target is read before the value: only a name or a constant slice of one, whose
        # read has no effect, lets the value's comprehensions be built first; another target
        # is read first into a variable of its own, and written back after
        if hoisting.plain_target(node.target):
            return self._hoist(node)
        if not self._needs_building(node.value):
            return node
        return self._split_augmented(node) or node

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

    def visit_Assert(self, node: gast.Assert) -> Any:
        # what the test builds runs only where asserts run (not under ``python -O``)
        if not self._needs_building(node.test):
            return node
        return templates.quote("if __debug__:\n    body", node, body=self._hoist(node, "test"))

    def visit_While(self, node: gast.While) -> Any:
        # the test runs before each pass: what it builds is built at the top of the body
        if self._needs_building(node.test):
            return self._visit_block(short_circuit.test_at_top(node, self.fresh))
        self.generic_visit(node)
        return node

    def _visit_block(self, statements: list[Any]) -> list[Any]:
        """``statements`` (made here) with this rewriter applied to each."""
        out: list[Any] = []
        for stmt in statements:
            visited = self.visit(stmt)
            out += visited if isinstance(visited, list) else [visited]
        return out

    def _needs_building(self, expression: Any) -> bool:
        """Whether ``expression`` holds comprehensions that ``_hoist`` builds before it."""
        return hoisting.Hoistable(self.grown, self.consumers).builds(expression)

    def _split_augmented(self, node: gast.AugAssign) -> list[Any] | None:
        """``c[i] op= value`` as Python runs it, ``c`` and ``i`` computed first unless they are
        names or constants: ``old = c[i]``, the comprehensions of ``value`` built, ``old op=
        value``, ``c[i] = old`` (an attribute alike). None where an index with a slice would
        have to be computed first."""
        target, built = node.target, []
        if isinstance(target, gast.Subscript) and not hoisting.plain_index(target.slice):
            if any(isinstance(n, gast.Slice) for n in gast.walk(target.slice)):
                return None
        fields = ["value", "slice"] if isinstance(target, gast.Subscript) else ["value"]
        computed = [
            field
            for field in fields
            if not (field == "slice" and hoisting.plain_index(getattr(target, field)))
            and not hoisting.plain_value(getattr(target, field))
        ]
        if not all(hoisting.computable_first(getattr(target, field)) for field in computed):
            return None
        for field in computed:
            part = getattr(target, field)
            name = self.fresh(OPERAND)
            built += templates.quote("v = part", part, v=name, part=part)
            setattr(target, field, templates.quote_expr(name, part))
        old = self.fresh(OPERAND)
        built += templates.quote("old = target", node, old=old, target=target)
        target_name = gast.copy_location(templates.name(old, store=True), node)
        update = gast.AugAssign(target=target_name, op=node.op, value=node.value)
        built += self._visit_block([gast.copy_location(update, node)])
        return [*built, *templates.quote("target = old", node, old=old, target=target)]

    def _hoist(self, stmt: Any, field: str = "value") -> Any:
        """``stmt`` preceded by the loops building the comprehensions in its ``field`` (an
        expression evaluated once, first) that run before anything else in it with an effect
        (``hoisting.Hoistable``), each read from its list."""
        expression = getattr(stmt, field)
        if expression is None:
            return stmt
        if field == "test" and self._short_circuit_test(expression):
            truth = self.fresh(short_circuit.TRUTH)
            built = self._visit_block(short_circuit.truth_of(expression, truth, self.fresh))
            stmt.test = templates.quote_expr(truth, expression)
            return [*built, stmt]
        finder = hoisting.Hoistable(self.grown, self.consumers)
        finder.pure(expression)
        found = finder.found
        while found and isinstance(found[-1], hoisting.Operand):
            found.pop()  # evaluated after the last list built: it stays in the statement
        if not found:
            return stmt
        built: list[Any] = []
        names: dict[int, str] = {}
        for item in found:
            if isinstance(item, hoisting.Operand):
                value = self.fresh(OPERAND)
                operand = _Replace(names).visit(item.node)
                built += templates.quote("v = operand", operand, v=value, operand=operand)
                names[id(item.node)] = value
                continue
            if isinstance(item, hoisting.ShortCircuit):
                value = self.fresh(short_circuit.VALUE)
                written = short_circuit.value_of(item.node, value, self.fresh)
                built += self._visit_block(written)
                names[id(item.node)] = value
                continue
            acc, statements = self._build(item)
            built += statements
            names[id(getattr(item, "stands_for", item))] = acc
        setattr(stmt, field, _Replace(names).visit(expression))
        return [*built, stmt]

    def _short_circuit_test(self, test: Any) -> bool:
        """Whether the test ``test`` (under any ``not``) is a short-circuit expression that
        builds comprehensions: its truth is then written out (``truth_of``), so that each part's
        truth is asked once, as Python asks it in a test."""
        while isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
            test = test.operand
        return short_circuit.is_short_circuit(test) and self._needs_building(test)

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
