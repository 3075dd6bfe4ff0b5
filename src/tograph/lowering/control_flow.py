"""Lowering step 3: ``if``, ``while`` and ``for`` become calls with explicit state.

Input: a gast ``FunctionDef`` after ``jumps`` and ``canonicalize``. Output: every compound statement
rewritten as functions plus one runtime call, e.g. ::

    def if_body_1(n):            # state in, state out
        n = n // 2
        return (n,)
    def else_body_1(n):
        n = 3 * n + 1
        return (n,)
    (n,) = _t.if_stmt(n % 2 == 0, if_body_1, else_body_1, (n,), ('n',))

The runtime (``lowering.runtime``) decides when the graph is built: a tensor condition becomes a
``cond`` / ``while_loop`` op, a Python condition runs as plain Python. The state of an ``if`` is the
variables it writes that are live after it; of a loop, the variables its body writes that are live
at the loop header or after the loop (``analysis.liveness``). A state variable that may be unbound
where the statement starts is set to ``_t.Undefined('x')`` at the top of its function, which keeps
Python's meaning and lets ``cond`` carry a variable set on only one side; the user's reads of such
variables become guarded reads (``lowering.guards``). A statement the analysis decided on static
values stays Python, except a ``for`` over a variable its body changes, which ``_t.for_stmt`` walks
so it can refuse a list that a tensor ``if`` in the body turned into a tensor list.
Requires: lowering.jumps, lowering.canonicalize.
"""

from __future__ import annotations

import itertools
from typing import Any

import gast

from tograph.analysis import liveness
from tograph.frontend import names
from tograph.lowering import guards, templates
from tograph.lowering.canonicalize import RUNTIME


def _param_names(names: list[str], origin: Any) -> list[gast.Name]:
    return [
        templates.locate_node(
            gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None), origin
        )
        for p in names
    ]


class _ControlFlow:
    def __init__(self) -> None:
        self.counter = itertools.count(1)
        # Per statement (held, so its id stays its own), which keeps each nested walk single.
        self._assigned: dict[int, tuple[Any, set[str]]] = {}
        # state variables that may be unbound where some control statement starts
        self.maybe_unbound: set[str] = set()

    def assigned(self, stmts: list[Any]) -> set[str]:
        """``names.assigned(stmts)``, each statement's set computed once (statements are read
        before they are lowered, so the first answer stays right)."""
        out: set[str] = set()
        for stmt in stmts:
            entry = self._assigned.get(id(stmt))
            if entry is None:
                entry = self._assigned[id(stmt)] = (stmt, names.assigned([stmt]))
            out |= entry[1]
        return out

    def function(self, fn: gast.FunctionDef) -> gast.FunctionDef:
        """Lowers the control flow of ``fn`` (and of functions nested in it)."""
        if not names.control_statements(fn.body):
            # no state to carry, so no read to guard: only ``is None`` tests and nested functions
            guards.rewrite_none_tests(fn)
            fn.body = [
                _ControlFlow().function(s) if isinstance(s, gast.FunctionDef) else s
                for s in fn.body
            ]
            return fn
        key = guards.mark(fn)
        liveness.annotate_function(fn)
        needed: set[str] = set()
        # a ``nonlocal`` name is bound outside: never initialised here (Python forbids it)
        fn.body = self.block(fn.body, needed, set(names.params(fn)) | names.nonlocals(fn))
        guards.guard(fn, key, self.maybe_unbound)
        self._init_undefined(fn, needed)
        return fn

    def _init_undefined(self, fn: gast.FunctionDef, missing: set[str]) -> None:
        inits = [
            templates.quote(f"{name} = {RUNTIME}.Undefined({name!r})", fn.body[0])[0]
            for name in sorted(missing)
        ]
        fn.body = inits + fn.body

    def block(self, stmts: list[Any], needed: set[str], defined: set[str]) -> list[Any]:
        """Lowers ``stmts``; adds to ``needed`` the state variables that may be unbound where used.

        ``defined`` holds the names certainly bound at the start of ``stmts`` (updated in place).
        """
        out: list[Any] = []
        for stmt in stmts:
            if getattr(stmt, "static_test", False) and not self.walks_what_it_changes(stmt):
                out.append(self.python_stmt(stmt, needed, defined))
            elif isinstance(stmt, (gast.If, gast.While, gast.For)):
                lower = {
                    gast.If: self.if_stmt,
                    gast.While: self.while_stmt,
                    gast.For: self.for_stmt,
                }[type(stmt)]
                new, state, outputs = lower(stmt)
                needed.update(set(state) - defined)
                self.maybe_unbound.update(set(state) - defined)
                defined.update(outputs)
                out.extend(new)
            elif isinstance(stmt, gast.Try):
                out.append(self.try_stmt(stmt, needed, defined))
            elif isinstance(stmt, gast.FunctionDef):
                out.append(_ControlFlow().function(stmt))
                defined.add(stmt.name)
            else:
                out.append(stmt)
                defined.update(names.writes(stmt))
        return out

    def walks_what_it_changes(self, stmt: Any) -> bool:
        """Whether ``stmt`` is a ``for`` over a variable its body changes (``items.append``):
        a tensor ``if`` in the body would make the variable a tensor list, which the Python loop
        would no longer walk, so the runtime's ``for_stmt`` must see it."""
        return (
            isinstance(stmt, gast.For)
            and isinstance(stmt.iter, gast.Name)
            and stmt.iter.id in self.assigned(stmt.body)
        )

    def python_stmt(self, stmt: Any, needed: set[str], defined: set[str]) -> Any:
        """A statement decided by static values: it stays Python, its blocks lowered inside."""
        extra_test = getattr(stmt, "extra_test", None)
        if isinstance(stmt, gast.For) and extra_test is not None:
            # Stop before the next item is bound, as a ``break`` leaves the target unchanged.
            item = f"item_{next(self.counter)}"
            stop = templates.quote("if not test:\n    break", stmt, test=extra_test)
            stop[0].static_test = True
            bind = templates.quote(f"target = {item}", stmt, target=stmt.target)
            stmt.body = stop + bind + stmt.body
            stmt.target = templates.name(item, store=True)
            templates.set_location(stmt.target, stmt)
        both = self.assigned(stmt.body) & self.assigned(stmt.orelse)
        stmt.body = self.block(stmt.body, needed, set(defined)) or templates.quote("pass", stmt)
        stmt.orelse = self.block(stmt.orelse, needed, set(defined))
        if isinstance(stmt, gast.If):  # a loop's body may not run: it binds nothing for sure
            defined.update(both)
        return stmt

    def try_stmt(self, stmt: gast.Try, needed: set[str], defined: set[str]) -> gast.Try:
        """A ``try`` stays Python (``lowering.tries`` adds its checks), its blocks lowered
        inside; what its ``finally`` binds at its top level is bound after it for sure."""
        stmt.body = self.block(stmt.body, needed, set(defined)) or templates.quote("pass", stmt)
        for handler in stmt.handlers:
            handler.body = self.block(handler.body, needed, set(defined)) or templates.quote(
                "pass", handler
            )
        stmt.orelse = self.block(stmt.orelse, needed, set(defined))
        stmt.finalbody = self.block(stmt.finalbody, needed, defined)
        return stmt

    def _state_function(
        self, name: str, params: list[str], body: list[Any], returns: list[str], origin: Any
    ) -> gast.FunctionDef:
        """``def name(*params): body; return (*returns,)``, its own control flow lowered too."""
        inner_needed: set[str] = set()
        lowered = self.block(body, inner_needed, set(params)) or templates.quote("pass", origin)
        ret = templates.quote("return state", origin, state=templates.names_tuple(returns))
        fn = templates.quote(f"def {name}(params):\n    body", origin, body=lowered + ret)[0]
        fn.args.args = _param_names(params, origin)
        self._init_undefined(fn, inner_needed)
        return fn

    def if_stmt(self, node: gast.If) -> tuple[list[Any], list[str], list[str]]:
        n = next(self.counter)
        written = self.assigned(node.body + node.orelse)
        outputs = sorted(written & node.live_out)
        params = sorted(set(outputs) | (written & node.live_in_branches))
        body_fn = self._state_function(f"if_body_{n}", params, node.body, params, node)
        else_fn = self._state_function(f"else_body_{n}", params, node.orelse, params, node)
        call = templates.quote_expr(
            f"{RUNTIME}.if_stmt(test, if_body_{n}, else_body_{n}, state, names, outputs)",
            node,
            test=node.test,
            state=templates.names_tuple(params),
            names=templates.strings_tuple(params),
            outputs=templates.strings_tuple(outputs),
        )
        return [body_fn, else_fn, self._assign(outputs, call, node)], params, outputs

    def _assign(self, outputs: list[str], call: Any, origin: Any) -> Any:
        """``(outputs,) = call``, or the bare call when there are no outputs."""
        if not outputs:
            return templates.set_location(gast.Expr(value=call), origin)
        target = templates.names_tuple(outputs, store=True)
        return templates.set_location(
            gast.Assign(targets=[target], value=call, type_comment=None), origin
        )

    def while_stmt(self, node: gast.While) -> tuple[list[Any], list[str], list[str]]:
        n = next(self.counter)
        carried = sorted(self.assigned(node.body) & (node.live_header | node.live_out))
        test_fn = templates.quote(
            f"def loop_test_{n}(params):\n    return test", node, test=node.test
        )[0]
        test_fn.args.args = _param_names(carried, node)
        body_fn = self._state_function(f"loop_body_{n}", carried, node.body, carried, node)
        call = templates.quote_expr(
            f"{RUNTIME}.while_stmt(loop_test_{n}, loop_body_{n}, state, names)",
            node,
            state=templates.names_tuple(carried),
            names=templates.strings_tuple(carried),
        )
        return [test_fn, body_fn, self._assign(carried, call, node)], carried, carried

    def for_stmt(self, node: gast.For) -> tuple[list[Any], list[str], list[str]]:
        n = next(self.counter)
        carried = sorted(self.assigned([node]) & (node.live_header | node.live_out))
        item = f"item_{n}"
        bind_target = templates.quote(f"target = {item}", node, target=node.target)
        body_fn = self._state_function(
            f"loop_body_{n}", [item] + carried, bind_target + node.body, carried, node
        )
        stmts: list[Any] = [body_fn]
        extra = "None"
        extra_test = getattr(node, "extra_test", None)
        if extra_test is not None:
            test_fn = templates.quote(
                f"def loop_test_{n}(params):\n    return test", node, test=extra_test
            )[0]
            test_fn.args.args = _param_names(carried, node)
            stmts.insert(0, test_fn)
            extra = f"loop_test_{n}"
        call = templates.quote_expr(
            f"{RUNTIME}.for_stmt(iterable, {extra}, loop_body_{n}, state, names)",
            node,
            iterable=node.iter,
            state=templates.names_tuple(carried),
            names=templates.strings_tuple(carried),
        )
        stmts.append(self._assign(carried, call, node))
        return stmts, carried, carried


def lower_control_flow(fn: gast.FunctionDef) -> gast.FunctionDef:
    """Rewrites the control flow of ``fn`` as described in the module docstring."""
    return _ControlFlow().function(fn)
