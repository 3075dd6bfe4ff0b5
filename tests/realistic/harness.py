"""Runs a realistic routine eagerly and under ``tograph.to_static`` and says how they compare.

Each input set is run eagerly and twice compiled (the first call traces, the second reuses the
graph), each on fresh copies of the arguments. The outcome is one of: ``compiled`` (no fallback,
and results, arguments and objects afterwards, printed output, warnings and exceptions agree:
dtypes and Python-vs-NumPy kinds, values bit for bit, warnings in order), ``fallback``
(ran eagerly with a FallbackWarning: the reason is kept), ``differs`` (a different answer: the
worst bug) or ``crashed`` (an internal error where eager did not raise)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

import tograph as tg
from tograph_conformance import case as case_mod
from tograph_conformance import check, compare


@dataclasses.dataclass(frozen=True)
class Verdict:
    """How one routine fared: ``kind`` is compiled, fallback, differs or crashed."""

    name: str
    kind: str
    detail: str = ""

    def reason_key(self) -> str:
        """The fallback reason without its file and line, to count reasons across routines."""
        text = re.sub(r"\([^()]*\.py:\d+\)", "", self.detail)
        text = re.sub(r"^\S+ runs eagerly: ", "", text)
        return re.sub(r"'[^']*'", "'_'", text).strip()


def assert_bitwise(expected: Any, actual: Any, path: str = "result") -> None:
    """Raises ``compare.Mismatch`` where two structures of the same kinds differ in any bit
    (NaN equals NaN, but -0.0 is not 0.0)."""
    if isinstance(expected, dict):
        for key in expected:
            assert_bitwise(expected[key], actual[key], f"{path}[{key!r}]")
    elif isinstance(expected, (list, tuple)):
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_bitwise(e, a, f"{path}[{i}]")
    elif isinstance(expected, (np.ndarray, np.generic, float, complex)):
        e, a = np.asarray(expected), np.asarray(actual)
        same_sign = np.array_equal(np.signbit(e.real), np.signbit(a.real))
        if not (np.array_equal(e, a, equal_nan=True) and same_sign):
            raise compare.Mismatch(f"{path}: bits of {a!r} != {e!r}")
    elif compare._is_object(expected):
        assert_bitwise(vars(expected), vars(actual), path)


def _warnings(outcome: compare.Outcome) -> list[tuple[str, str]]:
    """The category and text of each warning a call gave, in order, but FallbackWarnings."""
    return [
        (w.category.__name__, str(w.message))
        for w in outcome.warnings
        if not issubclass(w.category, tg.FallbackWarning)
    ]


def _agree(eager: compare.Outcome, compiled: compare.Outcome) -> None:
    compare.compare_outcomes(eager, compiled)
    assert_bitwise(eager.value, compiled.value)
    assert_bitwise(eager.arguments, compiled.arguments, "arguments afterwards")
    if _warnings(eager) != _warnings(compiled):
        raise compare.Mismatch(f"warned {_warnings(compiled)}, eager warned {_warnings(eager)}")


def judge(case: case_mod.Case) -> Verdict:
    """Runs every input set of ``case`` eagerly and compiled; the first failure decides."""
    static = tg.to_static(case.fn)
    for number, inputs in enumerate(case.args):
        eager = check.call_on_copies(case.fn, inputs)
        for attempt in ("first", "second"):
            compiled = check.call_on_copies(static, inputs)
            exc = compiled.exception
            raised_like_eager = eager.exception is not None and isinstance(
                exc, type(eager.exception)
            )
            if isinstance(exc, tg.ToGraphError) and not raised_like_eager:
                detail = f"input {number}, {attempt} call: {compare.describe(exc)}"
                return Verdict(case.name, "crashed", detail)
            try:
                _agree(eager, compiled)
            except compare.Mismatch as mismatch:
                return Verdict(case.name, "differs", f"input {number}, {attempt} call: {mismatch}")
            if check.fallback_warnings(compiled):
                return Verdict(case.name, "fallback", check.fallback_warnings(compiled)[0])
    return Verdict(case.name, "compiled")
