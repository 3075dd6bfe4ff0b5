"""Expressions that evaluate some of their parts only on some paths, written out as ``if``
statements, so that what runs in those parts may be statements of their own.

``a and b``, ``a or b``, ``b if t else c`` and a comparison chain ``a < b < c`` run their later
parts only when an earlier truth test lets them: a comprehension there cannot be built before the
statement holding the expression (``lowering.comprehensions``). ``value_of`` writes such an
expression as statements assigning its value to a variable, each later part evaluated exactly
where Python would evaluate it::

    v = a                    # v = a and b
    if v:
        v = b

``truth_of`` writes the truth of one (an ``if`` or ``while`` test) as a flag set to ``True`` or
``False`` in those branches, so that each part's truth is asked once, as Python asks it.
``test_at_top`` moves a ``while`` loop's test into its body (``while True:`` whose body starts
with ``if not test: break``), keeping its ``else`` clause, which runs when the test fails.

Every operand is evaluated once, in Python's order; a chain's middle operand is computed into a
variable of its own (``fresh`` names it), since it is compared twice.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import gast

from tograph.lowering import templates

Fresh = Callable[[str], str]
OPERAND = "operand"  # the base of the names of the operands this module computes first
VALUE = "short_circuit"  # the base of the names of the values ``value_of`` computes
TRUTH = "truth"  # the base of the names of the flags holding a test's truth
EXHAUSTED = "exhausted"  # the base of the flags telling a rewritten loop's test failed


def is_short_circuit(node: Any) -> bool:
    """Whether ``node`` evaluates some of its parts only on some paths (see module docstring)."""
    chain = isinstance(node, gast.Compare) and len(node.ops) > 1
    return chain or isinstance(node, (gast.BoolOp, gast.IfExp))


def later_parts(node: Any) -> list[Any]:
    """The parts of a short-circuit ``node`` that run only on some paths."""
    if isinstance(node, gast.BoolOp):
        return list(node.values[1:])
    if isinstance(node, gast.IfExp):
        return [node.body, node.orelse]
    return list(node.comparators[1:])


def first_part(node: Any) -> Any:
    """The part of a short-circuit ``node`` that always runs first."""
    if isinstance(node, gast.BoolOp):
        return node.values[0]
    if isinstance(node, gast.IfExp):
        return node.test
    return node.left


def value_of(node: Any, target: str, fresh: Fresh) -> list[Any]:
    """Statements setting ``target`` to the value of ``node``, its later parts evaluated only
    where Python evaluates them."""
    if isinstance(node, gast.BoolOp):
        first, rest = node.values[0], _rest_of(node)
        test = "target" if isinstance(node.op, gast.And) else "not target"
        then = templates.quote(f"if {test}:\n    pass", node, target=target)
        then[0].body = value_of(rest, target, fresh)
        return [*_assign(target, first, node), *then]
    if isinstance(node, gast.IfExp):
        branch = templates.quote("if test:\n    pass", node, test=node.test)[0]
        branch.body = value_of(node.body, target, fresh)
        branch.orelse = value_of(node.orelse, target, fresh)
        return [branch]
    if is_short_circuit(node):
        before, left, right, rest = _first_comparison(node, fresh)
        compared = gast.Compare(left=left, ops=node.ops[:1], comparators=[right])
        then = templates.quote("if target:\n    pass", node, target=target)
        then[0].body = value_of(rest, target, fresh)
        return [*before, *_assign(target, gast.copy_location(compared, node), node), *then]
    return _assign(target, node, node)


def truth_of(node: Any, flag: str, fresh: Fresh, negated: bool = False) -> list[Any]:
    """Statements setting ``flag`` to the truth of ``node`` (its negation, if ``negated``), each
    part's truth asked once and only where Python asks it."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.Not):
        return truth_of(node.operand, flag, fresh, not negated)
    if isinstance(node, gast.BoolOp):
        rest = truth_of(_rest_of(node), flag, fresh, negated)
        decided = _set(flag, isinstance(node.op, gast.Or) != negated, node)
        if isinstance(node.op, gast.And):
            return _branch(node.values[0], rest, decided, node)
        return _branch(node.values[0], decided, rest, node)
    if isinstance(node, gast.IfExp):
        then = truth_of(node.body, flag, fresh, negated)
        return _branch(node.test, then, truth_of(node.orelse, flag, fresh, negated), node)
    if is_short_circuit(node):
        before, left, right, rest = _first_comparison(node, fresh)
        compared = gast.copy_location(
            gast.Compare(left=left, ops=node.ops[:1], comparators=[right]), node
        )
        then = truth_of(rest, flag, fresh, negated)
        return [*before, *_branch(compared, then, _set(flag, negated, node), node)]
    return _branch(node, _set(flag, not negated, node), _set(flag, negated, node), node)


def test_at_top(loop: gast.While, fresh: Fresh) -> list[Any]:
    """``loop`` rewritten in place as ``while True:`` whose body first breaks where its test is
    false, with the statements that must surround it: a loop with an ``else`` sets a flag before
    that break and runs the ``else`` after the loop where the flag is set (a ``break`` of the
    body's own skips it, as in Python)."""
    exit_ = templates.quote("if not test:\n    break", loop.test, test=loop.test)
    loop.test = templates.quote_expr("True", loop.test)
    loop.body = exit_ + loop.body
    if not loop.orelse:
        return [loop]
    flag = fresh(EXHAUSTED)
    exit_[0].body = templates.quote(f"{flag} = True\nbreak", exit_[0])
    after = templates.quote(f"if {flag}:\n    pass", loop.orelse[0])
    after[0].body, loop.orelse = loop.orelse, []
    return [*templates.quote(f"{flag} = False", loop), loop, *after]


def _rest_of(node: gast.BoolOp) -> Any:
    """``node`` without its first operand (the last operand alone if only it remains)."""
    if len(node.values) == 2:
        return node.values[1]
    return gast.copy_location(gast.BoolOp(op=node.op, values=node.values[1:]), node)


def _first_comparison(node: gast.Compare, fresh: Fresh) -> tuple[list[Any], Any, Any, Any]:
    """For the chain ``node``: the statements computing its middle operand (into a variable,
    as it is compared twice) and, before it, its left one, the first comparison's operands, and
    the rest of the chain, which starts at the middle operand."""
    left, right, before = node.left, node.comparators[0], []
    if not _plain(right):  # computed before the comparison: so is what runs before it
        if not _plain(left):
            first = fresh(OPERAND)
            before = _assign(first, left, left)
            left = templates.quote_expr(first, left)
        middle = fresh(OPERAND)
        before += _assign(middle, right, right)
        right = templates.quote_expr(middle, right)
    rest = gast.Compare(
        left=copy.deepcopy(right), ops=node.ops[1:], comparators=node.comparators[1:]
    )
    return before, left, right, gast.copy_location(rest, node)


def _plain(node: Any) -> bool:
    """A name or a constant: reading it twice is reading it once."""
    return isinstance(node, (gast.Name, gast.Constant))


def _assign(target: str, value: Any, origin: Any) -> list[Any]:
    return templates.quote("target = value", origin, target=target, value=value)


def _set(flag: str, truth: bool, origin: Any) -> list[Any]:
    return templates.quote(f"{flag} = {truth}", origin)


def _branch(test: Any, then: list[Any], otherwise: list[Any], origin: Any) -> list[Any]:
    branch = templates.quote("if test:\n    pass", origin, test=test)[0]
    branch.body, branch.orelse = then, otherwise
    return [branch]
