"""Lowering step 1: ``return``, ``break`` and ``continue`` in control flow become flag variables.

Input: a gast ``FunctionDef``. Output: the same function in which control only leaves a statement
at its end, so branches and loop bodies can become functions. An ``if`` whose body ends in
``return`` takes the rest of the block as its ``else`` (no flag needed); other jumps set a flag
(``do_return``, ``break_N``, ``continue_N``), the statements after them are guarded by
``if not flag:``, and a loop with ``break`` or ``return`` also tests the flag (for ``for`` loops the
test is stored as ``node.extra_test``). ``for``/``while ... else`` runs its ``else`` after the loop
unless a break flag is set. A ``while`` whose test assigns (a walrus) tests at the top of its body
instead (``short_circuit.test_at_top``), its ``else`` run where that test failed. A jump in a
``try`` body or handler sets its flag as anywhere, and the ``try``'s ``else`` is guarded by it
too, as Python skips that clause after a jump. A single
``return retval`` ends the function; ``retval`` starts as a ``Placeholder``, which control flow
may join with any value because no path reads it unset.
"""

from __future__ import annotations

import itertools
from typing import Any

import gast

from tograph.frontend import nodes, tries
from tograph.lowering import short_circuit, templates
from tograph.lowering.canonicalize import RUNTIME


def _contains(stmts: list[Any], kinds: tuple[type, ...], into_loops: bool) -> bool:
    for stmt in stmts:
        if isinstance(stmt, kinds):
            return True
        if isinstance(stmt, gast.If) and _contains(stmt.body + stmt.orelse, kinds, into_loops):
            return True
        if isinstance(stmt, (gast.While, gast.For)):
            if into_loops and _contains(stmt.body, kinds, into_loops):
                return True
            if _contains(stmt.orelse, kinds, into_loops):
                return True
        if isinstance(stmt, gast.Try) and any(
            _contains(block, kinds, into_loops) for block in tries.blocks(stmt)
        ):
            return True
    return False


def _always_returns(stmts: list[Any]) -> bool:
    """Whether control never falls off the end of ``stmts`` (returns, raises or loops forever)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (gast.Return, gast.Raise)):
        return True
    if isinstance(last, gast.While):
        forever = isinstance(last.test, gast.Constant) and last.test.value is True
        return forever and not _contains(last.body, (gast.Break,), into_loops=False)
    return isinstance(last, gast.If) and _always_returns(last.body) and _always_returns(last.orelse)


class _Names:
    """Fresh flag names that clash with no name of the function."""

    def __init__(self, fn: gast.FunctionDef, taken: set[str] | None):
        self.taken = (
            taken
            if taken is not None
            else {n.id for n in nodes.walk(fn) if isinstance(n, gast.Name)}
        )
        self.counter = itertools.count(1)

    def fresh(self, base: str, numbered: bool = True) -> str:
        candidate = base if not numbered else f"{base}_{next(self.counter)}"
        while candidate in self.taken:
            candidate = f"{base}_{next(self.counter)}"
        self.taken.add(candidate)
        return candidate


def lower_jumps(fn: gast.FunctionDef, taken: set[str] | None = None) -> gast.FunctionDef:
    """Rewrites ``fn`` in place as described in the module docstring and returns it.

    ``taken`` holds the names the new flags must not clash with (default: every name in ``fn``).
    """
    names = _Names(fn, taken)
    fn.body = _LoopJumps(names).block(fn.body)
    nested_return = any(
        _contains([s], (gast.Return,), into_loops=True)
        for s in fn.body
        if isinstance(s, (gast.If, gast.While, gast.For, gast.Try))
    )
    if nested_return:
        fn.body = _Returns(names).lower(fn.body)
    return fn


class _Returns:
    """Turns returns nested in control flow into ``retval`` / ``do_return`` assignments."""

    def __init__(self, names: _Names):
        self.retval = names.fresh("retval", numbered=False)
        self.flag = names.fresh("do_return", numbered=False)
        self.flag_used = False

    def lower(self, body: list[Any]) -> list[Any]:
        if not _always_returns(body):
            # Falling off the end returns None: make it explicit so every path sets the value.
            body = body + templates.quote("return None", body[-1])
        body = _continuations(body)
        self.flag_used = self._needs_flag(body)
        new_body = self.block(body)
        prologue = templates.quote(
            f"{self.retval} = {RUNTIME}.Placeholder({self.retval!r})", body[0]
        )
        if self.flag_used:
            prologue += templates.quote(f"{self.flag} = False", body[0])
        epilogue = templates.quote(f"return {self.retval}", body[-1])
        return prologue + new_body + epilogue

    def _needs_flag(self, stmts: list[Any]) -> bool:
        """Whether some return is followed by code that must be skipped, or sits in a loop."""
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, (gast.While, gast.For)) and _contains([stmt], (gast.Return,), True):
                return True
            if i + 1 < len(stmts) and self._may_return(stmt):
                return True
            if isinstance(stmt, gast.Try) and self._may_return(stmt):
                return True  # its else clause is skipped by the flag
            if isinstance(stmt, gast.If) and self._needs_flag(stmt.body) | self._needs_flag(
                stmt.orelse
            ):
                return True
        return False

    def block(self, stmts: list[Any], in_loop: bool = False) -> list[Any]:
        out: list[Any] = []
        for i, stmt in enumerate(stmts):
            may_return = self._may_return(stmt)
            out.extend(self.stmt(stmt, in_loop))
            rest = stmts[i + 1 :]
            if rest and may_return:
                guard = templates.quote(f"if not {self.flag}:\n    pass", rest[0])[0]
                guard.body = self.block(rest, in_loop)
                out.append(guard)
                break
        return out

    def _may_return(self, stmt: Any) -> bool:
        if isinstance(stmt, gast.If):
            return _contains(stmt.body + stmt.orelse, (gast.Return,), True) and not (
                _always_returns(stmt.body) and _always_returns(stmt.orelse)
            )
        if isinstance(stmt, (gast.While, gast.For, gast.Try)):
            return _contains([stmt], (gast.Return,), True)
        return False

    def stmt(self, stmt: Any, in_loop: bool) -> list[Any]:
        if isinstance(stmt, gast.Return):
            value = stmt.value or gast.Constant(value=None, kind=None)
            out = templates.quote(f"{self.retval} = value", stmt, value=value)
            if self.flag_used:
                out += templates.quote(f"{self.flag} = True", stmt)
            return out
        if isinstance(stmt, gast.If):
            stmt.body = self.block(stmt.body, in_loop)
            stmt.orelse = self.block(stmt.orelse, in_loop)
        elif isinstance(stmt, (gast.While, gast.For)) and _contains(
            stmt.body, (gast.Return,), True
        ):
            stmt.body = self.block(stmt.body, in_loop=True)
            _add_exit_test(stmt, f"not {self.flag}")
        elif isinstance(stmt, gast.Try) and self._may_return(stmt):
            body_returns = _contains(stmt.body, (gast.Return,), True)
            _jumps_in_try(stmt, self.flag, body_returns, lambda block: self.block(block, in_loop))
        return [stmt]


def _jumps_in_try(stmt: gast.Try, flag: str, body_jumps: bool, lower: Any) -> None:
    """Lowers the jumps in the blocks of the ``try`` ``stmt`` with ``lower`` (a block -> block),
    and guards its ``else`` by ``flag`` when the body jumps (``body_jumps``): Python skips it
    then. No jump leaves a ``finally`` (``frontend.tries``)."""
    stmt.body = lower(stmt.body)
    for handler in stmt.handlers:
        handler.body = lower(handler.body)
    stmt.orelse = lower(stmt.orelse)
    if stmt.orelse and body_jumps:
        guard = templates.quote(f"if not {flag}:\n    pass", stmt.orelse[0])[0]
        guard.body = stmt.orelse
        stmt.orelse = [guard]


def _continuations(stmts: list[Any]) -> list[Any]:
    """Moves statements after an ``if`` that always returns on one side into its other side."""
    out: list[Any] = []
    for i, stmt in enumerate(stmts):
        out.append(stmt)
        if not isinstance(stmt, gast.If):
            continue
        rest = stmts[i + 1 :]
        body_returns, else_returns = _always_returns(stmt.body), _always_returns(stmt.orelse)
        if rest and body_returns and not else_returns:
            stmt.orelse = stmt.orelse + rest
        elif rest and else_returns and not body_returns:
            stmt.body = stmt.body + rest
        else:
            stmt.body, stmt.orelse = _continuations(stmt.body), _continuations(stmt.orelse)
            continue
        stmt.body, stmt.orelse = _continuations(stmt.body), _continuations(stmt.orelse)
        break
    return out


def _add_exit_test(loop: Any, test: str) -> None:
    """Makes ``loop`` also stop when ``test`` is false (before its own test)."""
    if isinstance(loop, gast.While):
        loop.test = templates.quote_expr(f"{test} and (original)", loop.test, original=loop.test)
    else:
        previous = getattr(loop, "extra_test", None)
        if previous is None:
            loop.extra_test = templates.quote_expr(test, loop)
        else:
            loop.extra_test = templates.quote_expr(
                f"{test} and (previous)", loop, previous=previous
            )


class _LoopJumps:
    """Turns ``break`` and ``continue`` into flags, innermost loop first."""

    def __init__(self, names: _Names):
        self.names = names

    def block(self, stmts: list[Any]) -> list[Any]:
        out: list[Any] = []
        for stmt in stmts:
            if isinstance(stmt, (gast.While, gast.For)):
                out.extend(self.loop(stmt))
            elif isinstance(stmt, gast.If):
                stmt.body, stmt.orelse = self.block(stmt.body), self.block(stmt.orelse)
                out.append(stmt)
            elif isinstance(stmt, gast.Try):  # no jump leaves it (``frontend.tries``)
                stmt.body, stmt.orelse = self.block(stmt.body), self.block(stmt.orelse)
                stmt.finalbody = self.block(stmt.finalbody)
                for handler in stmt.handlers:
                    handler.body = self.block(handler.body)
                out.append(stmt)
            else:
                out.append(stmt)
        return out

    def loop(self, loop: Any) -> list[Any]:
        prefix: list[Any] = []
        suffix: list[Any] = []
        if isinstance(loop, gast.While) and any(
            isinstance(n, gast.NamedExpr) for n in gast.walk(loop.test)
        ):
            # `while (y := f()) > 0:` assigns in the test: test inside the body, where the
            # assignment lands in the loop's state: `while True: if not test: break`.
            parts = short_circuit.test_at_top(loop, self.names.fresh)
            at = parts.index(loop)
            prefix, suffix = parts[:at], self.block(parts[at + 1 :])
        loop.body = self.block(loop.body)
        loop.orelse = self.block(loop.orelse)
        before: list[Any] = []
        if _contains(loop.body, (gast.Continue,), into_loops=False):
            flag = self.names.fresh("continue")
            loop.body = templates.quote(f"{flag} = False", loop) + _FlagJump(
                gast.Continue, flag
            ).block(loop.body)
        has_break = _contains(loop.body, (gast.Break,), into_loops=False)
        if has_break:
            flag = self.names.fresh("break")
            before = templates.quote(f"{flag} = False", loop)
            loop.body = _FlagJump(gast.Break, flag).block(loop.body)
            _add_exit_test(loop, f"not {flag}")
        after: list[Any] = []
        if loop.orelse:
            if has_break:
                guard = templates.quote(f"if not {flag}:\n    pass", loop.orelse[0])[0]
                guard.body = loop.orelse
                after = [guard]
            else:
                after = loop.orelse
            loop.orelse = []
        return prefix + before + [loop] + after + suffix


class _FlagJump:
    """Replaces one kind of jump by ``flag = True`` and guards what follows it."""

    def __init__(self, kind: type, flag: str):
        self.kind = kind
        self.flag = flag

    def block(self, stmts: list[Any]) -> list[Any]:
        out: list[Any] = []
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, self.kind):
                out.extend(templates.quote(f"{self.flag} = True", stmt))
                break  # statements after a jump never run
            jumps = isinstance(stmt, (gast.If, gast.Try)) and _contains(
                [stmt], (self.kind,), into_loops=False
            )
            if jumps and isinstance(stmt, gast.Try):
                body_jumps = _contains(stmt.body, (self.kind,), into_loops=False)
                _jumps_in_try(stmt, self.flag, body_jumps, self.block)
            elif jumps:
                stmt.body, stmt.orelse = self.block(stmt.body), self.block(stmt.orelse)
            out.append(stmt)
            rest = stmts[i + 1 :]
            if rest and jumps:
                guard = templates.quote(f"if not {self.flag}:\n    pass", rest[0])[0]
                guard.body = self.block(rest)
                out.append(guard)
                break
        return out
