"""Lowering step 0: a filtered list comprehension, or one over a list the function appends to,
assigned or returned, becomes a loop.

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

A filtered list inside the expression of an assignment, an expression statement, a ``return`` or
an ``if`` test is written out the same way before that statement (its value then read from the
loop's list), where nothing the expression evaluates before it can be told apart from running
later (names, constants, attributes, literals of those): ``n = len([v for v in x if v > 0])``,
``s = sum(v for v in x if v > 0)`` (a generator given to ``sum``, ``max``, ``min``, ``sorted``,
``list`` or ``tuple``, which take every item), ``k = len(list(filter(lambda v: v > 0, x)))``.
"""

from __future__ import annotations

import itertools
from typing import Any

import gast

from tograph.frontend import nodes
from tograph.lowering import templates

_NESTED = (gast.NamedExpr, gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp)


def desugar_filtered(
    tree: gast.FunctionDef, taken: set[str], walked: list[Any] | None = None
) -> bool:
    """Rewrites ``tree``'s filtered list comprehensions, and those over a list the function
    grows with ``append``, in place (see module docstring); fresh names avoid ``taken``, which
    grows. ``walked`` holds every node of ``tree`` (``nodes.walk``), if the caller has walked it.
    Returns whether anything changed."""
    rewriter = _Rewriter(taken, _appended_names(nodes.walk(tree) if walked is None else walked))
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


def _convertible(comp: Any, grown: frozenset[str]) -> bool:
    if not isinstance(comp, gast.ListComp):
        return False
    over_grown = len(comp.generators) == 1 and (
        isinstance(comp.generators[0].iter, gast.Name) and comp.generators[0].iter.id in grown
    )
    if not (over_grown or any(g.ifs for g in comp.generators)):
        return False
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
    def __init__(self, taken: set[str], grown: frozenset[str]):
        self.taken = taken
        self.grown = grown
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
                return self._loop(node.value, "target = acc", target.id)
        return self._hoisted(node, "value")

    def visit_Return(self, node: gast.Return) -> Any:
        if node.value is None:
            return node
        if _convertible(node.value, self.grown):
            return self._loop(node.value, "return acc")
        return self._hoisted(node, "value")

    def visit_AugAssign(self, node: gast.AugAssign) -> Any:
        return self._hoisted(node, "value") if _unobservable(node.target) else node

    def visit_Expr(self, node: gast.Expr) -> Any:
        return self._hoisted(node, "value")

    def visit_If(self, node: gast.If) -> Any:
        self.generic_visit(node)
        return self._hoisted(node, "test")

    def _hoisted(self, node: Any, field: str) -> Any:
        """``node`` after the loops building the filtered lists its ``field`` evaluates first
        (see module docstring), each read there from its list."""
        found: list[Any] = []
        setattr(node, field, _Hoist(self, found).scan(getattr(node, field)))
        if not found:
            return node
        built = []
        for comp, acc in found:
            built += self._loop(comp, "", accumulator=acc)
        return [*built, node]

    def _loop(
        self, comp: gast.ListComp, finish: str, target: str = "", accumulator: str = ""
    ) -> list[Any]:
        """The statements building ``comp``'s list in a fresh variable (``accumulator`` if
        given), then ``finish``: a template naming that variable ``acc`` (and the assigned
        name ``target``)."""
        self.changed = True
        acc = accumulator or self.fresh(ACCUMULATOR)
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
        last = templates.quote(finish, comp, acc=acc, target=target) if finish else []
        return [*templates.quote("acc = []", comp, acc=acc), *body, *last]


ACCUMULATOR = "comprehension"  # the base of the names of the lists this step builds

# Builtins that take every item of a generator given to them (``any``/``all`` stop early).
_EXHAUSTING = frozenset({"sum", "max", "min", "sorted", "list", "tuple"})


class _Hoist:
    """Finds the filtered lists an expression evaluates before anything observable (a call, an
    operator, an index: each may warn, print or raise), replacing each with a fresh name; the
    comprehensions found, each with its name, go to ``found``."""

    def __init__(self, rewriter: _Rewriter, found: list[Any]):
        self.rewriter = rewriter
        self.found = found
        self.calm = True  # nothing observable evaluated so far

    def scan(self, node: Any) -> Any:
        """``node`` with the hoisted comprehensions replaced; see class docstring."""
        if not self.calm:
            return node
        if _convertible(node, self.rewriter.grown):
            return self._hoist(node)
        if isinstance(node, (gast.Name, gast.Constant)):
            return node
        if isinstance(node, gast.Attribute):
            node.value = self.scan(node.value)
            return node
        if isinstance(node, (gast.Tuple, gast.List)):
            node.elts = [self.scan(e) for e in node.elts]
            return node
        if isinstance(node, gast.Call):
            node.func = self.scan(node.func)
            items = _exhausted_list(node, self.rewriter.grown) if self.calm else None
            if items is not None and node.func.id == "list":
                return self._hoist(items)  # the same new list
            if items is not None:
                node.args = [self._hoist(items)]
            else:
                node.args = [self.scan(a) for a in node.args]
                for keyword in node.keywords:
                    keyword.value = self.scan(keyword.value)
            if self._length_of_hoisted(node):
                return node
        elif isinstance(node, gast.BinOp):
            node.left = self.scan(node.left)
            node.right = self.scan(node.right)
        elif isinstance(node, gast.UnaryOp):
            node.operand = self.scan(node.operand)
        elif isinstance(node, gast.Compare):  # later comparators run only if the first holds
            node.left = self.scan(node.left)
            node.comparators[0] = self.scan(node.comparators[0])
        elif isinstance(node, gast.BoolOp):  # later operands run only on the first's truth
            node.values[0] = self.scan(node.values[0])
        elif isinstance(node, gast.IfExp):
            node.test = self.scan(node.test)
        elif isinstance(node, gast.Subscript):
            node.value = self.scan(node.value)
            node.slice = self.scan(node.slice)
        self.calm = False
        return node

    def _hoist(self, comp: gast.ListComp) -> Any:
        """A fresh name for ``comp``'s list, built before the statement (in turn with the lists
        hoisted before it, so what they evaluate keeps its order)."""
        name = self.rewriter.fresh(ACCUMULATOR)
        self.found.append((comp, name))
        return templates.quote_expr(name, comp)

    def _length_of_hoisted(self, node: gast.Call) -> bool:
        """Whether ``node`` is ``len`` of a hoisted list: nothing to observe."""
        hoisted = {name for _, name in self.found}
        return (
            isinstance(node.func, gast.Name)
            and node.func.id == "len"
            and len(node.args) == 1
            and isinstance(node.args[0], gast.Name)
            and node.args[0].id in hoisted
        )


def _exhausted_list(call: gast.Call, grown: frozenset[str]) -> gast.ListComp | None:
    """The filtered list comprehension that ``call``'s one argument stands for, where ``call``
    is a builtin of ``_EXHAUSTING`` (it takes every item): a generator, or ``filter`` of a
    one-parameter lambda."""
    if not (isinstance(call.func, gast.Name) and call.func.id in _EXHAUSTING):
        return None
    if len(call.args) != 1 or call.keywords:
        return None
    (arg,) = call.args
    comp = None
    if isinstance(arg, gast.GeneratorExp):
        comp = templates.set_location(gast.ListComp(elt=arg.elt, generators=arg.generators), arg)
    elif _is_filter_of_lambda(arg):
        test, items = arg.args
        (param,) = test.args.args
        target = gast.Name(id=param.id, ctx=gast.Store(), annotation=None, type_comment=None)
        load = gast.Name(id=param.id, ctx=gast.Load(), annotation=None, type_comment=None)
        loop = gast.comprehension(target=target, iter=items, ifs=[test.body], is_async=0)
        comp = templates.set_location(gast.ListComp(elt=load, generators=[loop]), arg)
    return comp if comp is not None and _convertible(comp, grown) else None


def _unobservable(target: Any) -> bool:
    """Whether reading the target of ``target op= value`` (before ``value``) can be told apart
    from reading it later: a name, an attribute of a name, a name sliced by constants."""
    if isinstance(target, gast.Name):
        return True
    if isinstance(target, gast.Attribute):
        return isinstance(target.value, gast.Name)
    if not (isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name)):
        return False
    parts = target.slice.elts if isinstance(target.slice, gast.Tuple) else [target.slice]
    bounds = [b for p in parts if isinstance(p, gast.Slice) for b in (p.lower, p.upper, p.step)]
    return all(isinstance(p, gast.Slice) for p in parts) and all(
        b is None or isinstance(b, gast.Constant) for b in bounds
    )


def _is_filter_of_lambda(node: Any) -> bool:
    """Whether ``node`` is ``filter(lambda v: test, items)``."""
    if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)):
        return False
    if node.func.id != "filter" or len(node.args) != 2 or node.keywords:
        return False
    test = node.args[0]
    if not isinstance(test, gast.Lambda):
        return False
    a = test.args
    plain = not (a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults)
    return plain and len(a.args) == 1 and isinstance(a.args[0], gast.Name)


def is_accumulator(name: str) -> bool:
    """Whether ``name`` is one this step made for a comprehension's list: its only use after the
    loop is the assignment that hands the list to the comprehension's target, so it is not a
    second name for that list."""
    base, _, number = name.rpartition("_")
    return base == ACCUMULATOR and number.isdigit()


def _is_name(node: Any) -> bool:
    return isinstance(node, gast.Name)
