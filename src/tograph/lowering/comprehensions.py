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
    walked = nodes.walk(tree) if walked is None else walked
    if gast.ListComp not in set(map(type, walked)):
        return False  # no comprehension: no need to visit every node
    rewriter = _Rewriter(taken, _appended_names(walked))
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
        if len(node.targets) != 1 or not isinstance(target, gast.Name):
            return node
        if not _convertible(node.value, self.grown):
            return node
        return self._loop(node.value, "target = acc", target.id)

    def visit_Return(self, node: gast.Return) -> Any:
        if node.value is None or not _convertible(node.value, self.grown):
            return node
        return self._loop(node.value, "return acc")

    def _loop(self, comp: gast.ListComp, finish: str, target: str = "") -> list[Any]:
        """The statements building ``comp``'s list in a fresh variable, then ``finish``: a
        template naming that variable ``acc`` (and the assigned name ``target``)."""
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
        last = templates.quote(finish, comp, acc=acc, target=target)
        return [*templates.quote("acc = []", comp, acc=acc), *body, *last]


ACCUMULATOR = "comprehension"  # the base of the names of the lists this step builds


def is_accumulator(name: str) -> bool:
    """Whether ``name`` is one this step made for a comprehension's list: its only use after the
    loop is the assignment that hands the list to the comprehension's target, so it is not a
    second name for that list."""
    base, _, number = name.rpartition("_")
    return base == ACCUMULATOR and number.isdigit()


def _is_name(node: Any) -> bool:
    return isinstance(node, gast.Name)
