"""If-expressions, ``and``/``or`` and ``not`` in type inference: typed as the runtime runs them.

Stage: type inference (a helper of ``analysis.types``). Lowering makes these expressions lazy
(``_t.if_exp``, ``_t.and_``, ``_t.or_``, ``_t.not_``): on a static test only the side taken runs,
on a tensor test a ``cond`` joins both sides. Plain evaluation cannot type them (a tensor has no
truth value while a graph is built), so ``replace_lazy`` cuts them out of an expression and
``value`` gives each its value from its parts, evaluated by the inference.
"""

from __future__ import annotations

from typing import Any, Protocol

import gast

from tograph.analysis import values
from tograph.ops import elementwise
from tograph.trace import builder as builder_mod
from tograph.trace import tensor


class Evaluator(Protocol):
    """What ``value`` needs of the inference: evaluating expressions and joining values."""

    scratch: builder_mod.GraphBuilder

    def evaluate(self, expr: Any) -> Any: ...

    def join(self, incoming: list[Any], test: Any) -> Any: ...


def is_lazy(node: Any) -> bool:
    not_ = isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.Not)
    return not_ or isinstance(node, (gast.IfExp, gast.BoolOp))


def replace_lazy(expr: Any, parts: list[tuple[str, Any]]) -> Any:
    """A copy of ``expr`` whose outermost lazy parts are names ``__lazy_<k>`` (added to
    ``parts``); ``expr`` itself when it has none."""
    if is_lazy(expr):
        name = f"__lazy_{len(parts)}"
        parts.append((name, expr))
        return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
    if not any(is_lazy(n) for n in gast.walk(expr)):
        return expr
    fields = {}
    for field in expr._fields:
        child = getattr(expr, field, None)
        if isinstance(child, list):
            child = [replace_lazy(c, parts) if isinstance(c, gast.AST) else c for c in child]
        elif isinstance(child, gast.AST):
            child = replace_lazy(child, parts)
        fields[field] = child
    return type(expr)(**fields)


def value(inference: Evaluator, node: Any) -> Any:
    """The value of a lazy ``node``: on a static test, the side taken; on a tensor test (or a
    static one that differs between paths), the join of both sides."""
    if isinstance(node, gast.UnaryOp):
        operand = inference.evaluate(node.operand)
        if isinstance(operand, tensor.TensorBase):
            with inference.scratch.active():
                return elementwise.python_not(operand)
        return _static_apply(lambda v: not v, operand)
    if isinstance(node, gast.BoolOp):
        left = inference.evaluate(node.values[0])
        rest = node.values[1] if len(node.values) == 2 else gast.BoolOp(node.op, node.values[1:])
        right = (
            value(inference, rest) if isinstance(rest, gast.BoolOp) else inference.evaluate(rest)
        )
        if _varies(left):
            return inference.join([left, right], left)
        keep = isinstance(node.op, gast.Or)  # a true left side decides an ``or``
        return _static_apply(lambda v: left if bool(v) == keep else right, left)
    test = inference.evaluate(node.test)
    if not _varies(test):
        return _static_apply(lambda t: inference.evaluate(node.body if t else node.orelse), test)
    return inference.join([inference.evaluate(node.body), inference.evaluate(node.orelse)], test)


def _varies(test: Any) -> bool:
    """Whether both sides of a lazy part may be taken: its test is a tensor or varies."""
    return not values.is_static(test) or isinstance(test, values.StaticOf)


def _static_apply(fn: Any, value: Any) -> Any:
    """``fn(value)`` for a static value; UNKNOWN when that fails, PENDING and UNKNOWN kept."""
    if value is values.UNKNOWN or value is values.PENDING:
        return value
    try:
        return fn(values.example(value))
    except Exception:  # noqa: BLE001 - a truth value inference cannot take: unknown
        return values.UNKNOWN
