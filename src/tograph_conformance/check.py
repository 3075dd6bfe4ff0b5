"""Checking one conformance case: compile its function and hold each input set to the expectation.

Stage: none (test harness). Input: a ``Case``. Output: nothing, or ``CaseFailure`` with a short
reason. For "match" every input set is run eagerly and then twice through ``to_static`` (the first
call builds the graph, the second reuses it), each with NumPy's and Python's global random
generators seeded alike: results, exceptions, printed output, the arguments' state afterwards and
the global generators' states afterwards must agree, the function must not fall back, and
``cf.op_counts()`` must hold ``expect_ops`` and none of ``forbid_ops``; a case with ``grad``
positions must also have compiled gradients equal to finite differences (``conformance.gradient``).
For "fallback" the call must warn, ``cf.fallback`` must name the construct and ``file:LINE``, and
the result must still equal eager. For "error" the call must raise ``error_type`` whose message
matches ``error`` and names ``file:LINE``.
"""

from __future__ import annotations

import copy
import os
import random
import re
from typing import Any

import numpy as np

import tograph as tg
from tograph_conformance import case as case_mod
from tograph_conformance import compare, gradient


class CaseFailure(Exception):
    """A case did not meet its expectation; the message is the short reason."""


def check_case(case: case_mod.Case) -> None:
    """Raises ``CaseFailure`` unless ``case`` meets its expectation for every input set."""
    static = tg.to_static(case.fn)
    for number, inputs in enumerate(case.args):
        try:
            if case.expect == "match":
                _check_match(case, static, inputs)
            elif case.expect == "fallback":
                _check_fallback(case, inputs)
            else:
                _check_error(case, inputs)
        except (compare.Mismatch, CaseFailure) as exc:
            raise CaseFailure(f"input set {number}: {exc}") from None


def call_on_copies(fn: Any, inputs: tuple[Any, ...]) -> compare.Outcome:
    """Calls ``fn`` on a fresh copy of the inputs (eager code may update arrays in place) with
    the global random generators seeded alike; the outcome holds the copies as the call leaves
    them, and the generators' states."""
    args, kwargs = case_mod.split(copy.deepcopy(inputs))
    np.random.seed(_SEED)
    random.seed(_SEED)
    outcome = compare.observe(lambda: fn(*args, **kwargs))
    outcome.arguments = (args, kwargs)
    outcome.random_states = compare.global_random_states()
    return outcome


_SEED = 20260101  # of NumPy's and Python's global generators before each call


def fallback_warnings(outcome: compare.Outcome) -> list[str]:
    """The messages of the FallbackWarnings a call gave."""
    return [str(w.message) for w in outcome.warnings if issubclass(w.category, tg.FallbackWarning)]


def _concrete(static: tg.StaticFunction, inputs: tuple[Any, ...]) -> tg.ConcreteFunction:
    args, kwargs = case_mod.split(copy.deepcopy(inputs))
    return static.concrete(*args, **kwargs)


def _check_match(case: case_mod.Case, static: tg.StaticFunction, inputs: tuple[Any, ...]) -> None:
    eager = call_on_copies(case.fn, inputs)
    for attempt in ("first call", "second call"):
        compiled = call_on_copies(static, inputs)
        fell_back = fallback_warnings(compiled)
        if fell_back:
            raise CaseFailure(f"fell back to eager: {fell_back[0]}")
        try:
            compare.compare_outcomes(eager, compiled)
        except compare.Mismatch as exc:
            raise CaseFailure(f"{attempt}: {exc}") from None
    if compiled.exception is None:
        _check_ops(case, _concrete(static, inputs))
        if case.grad:
            gradient.check_gradients(case.fn, static, inputs, case.grad)


def _check_ops(case: case_mod.Case, cf: tg.ConcreteFunction) -> None:
    if cf.fallback is not None:
        raise CaseFailure(f"fell back to eager: {cf.fallback}")
    ops = cf.op_counts()
    missing = sorted(case.expect_ops - set(ops))
    if missing:
        raise CaseFailure(f"graph lacks {missing}; it has {sorted(ops)}")
    present = sorted(case.forbid_ops & set(ops))
    if present:
        raise CaseFailure(f"graph has forbidden {present}")


def _where(case: case_mod.Case) -> str:
    """The regex of ``file:LINE`` that a reason or message must contain."""
    name = os.path.basename(case.expected_file())
    return rf"{re.escape(name)}:{case.expected_line()}\b"


def _check_fallback(case: case_mod.Case, inputs: tuple[Any, ...]) -> None:
    static = tg.to_static(case.fn)  # a fresh one: the warning comes once per traced signature
    eager = call_on_copies(case.fn, inputs)
    compiled = call_on_copies(static, inputs)
    # The warning comes once the eager run shows the reason is not the function's own error.
    if eager.exception is None and not fallback_warnings(compiled):
        raise CaseFailure("no FallbackWarning was emitted")
    compare.compare_outcomes(eager, compiled)
    cf = _concrete(static, inputs)
    if cf.fallback is None:
        raise CaseFailure(f"compiled, but should fall back on {case.error!r}")
    for pattern, what in ((case.error, "the construct"), (_where(case), "the line")):
        if not re.search(pattern or "", cf.fallback):
            raise CaseFailure(f"fallback reason does not name {what} ({pattern}): {cf.fallback}")


def _check_error(case: case_mod.Case, inputs: tuple[Any, ...]) -> None:
    compiled = call_on_copies(tg.to_static(case.fn), inputs)
    exc = compiled.exception
    if exc is None:
        raise CaseFailure(f"did not raise {case.error_type.__name__}; returned {compiled.value!r}")
    if not isinstance(exc, case.error_type):
        raise CaseFailure(f"raised {compare.describe(exc)}, expected {case.error_type.__name__}")
    message = str(exc)
    for pattern, what in ((case.error, "the variable"), (_where(case), "the line")):
        if not re.search(pattern or "", message):
            raise CaseFailure(f"message does not name {what} ({pattern}): {compare.describe(exc)}")
