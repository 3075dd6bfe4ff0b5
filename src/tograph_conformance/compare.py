"""Comparing a compiled function's outcome with its eager run: values, types, nesting, output.

Stage: none (test harness). Input: two ``Outcome``s of the same call (eager and compiled). Output:
nothing, or ``Mismatch`` saying where they differ, e.g. ``result[1]: dtype float64 != float32``.
Python scalars must stay Python scalars of the same type (weak semantics); NumPy values must agree
in dtype and shape, and a NumPy scalar is not a 0-d array (``x.sum()`` is a scalar,
``np.array(x.sum())`` an array: only the array can be written into); containers in type, length
and keys; objects by their attributes; random generators by their states; exceptions in type and
message; printed output exactly; the arguments as the call leaves them (arrays, lists, dicts and
objects changed in place); and NumPy's and Python's global random states, where recorded.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import random
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

_PY_SCALARS = (bool, int, float, complex)
_RTOL = {2: 1e-3, 4: 1e-6, 8: 1e-12, 16: 1e-12}


class Mismatch(Exception):
    """The compiled function's outcome differs from the eager one (the message says how)."""


@dataclasses.dataclass
class Outcome:
    """What one call did: its result or exception, what it printed, and its warnings."""

    value: Any = None
    exception: BaseException | None = None
    stdout: str = ""
    warnings: list[warnings.WarningMessage] = dataclasses.field(default_factory=list)
    # the call's arguments afterwards (arrays, lists, dicts and objects it may have changed)
    arguments: Any = None
    # NumPy's and Python's global random states afterwards (``global_random_states``)
    random_states: Any = None


def observe(call: Callable[[], Any]) -> Outcome:
    """Runs ``call``, recording its result or exception, stdout and warnings."""
    out = Outcome()
    buffer = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(buffer):
        warnings.simplefilter("always")
        try:
            out.value = call()
        except Exception as exc:  # noqa: BLE001 - every user exception is part of the outcome
            out.exception = exc
    out.stdout = buffer.getvalue()
    out.warnings = list(caught)
    return out


def describe(exc: BaseException) -> str:
    """``Type: first line of message`` of an exception, for short failure reasons."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def compare_outcomes(eager: Outcome, compiled: Outcome) -> None:
    """Raises ``Mismatch`` unless the two outcomes agree (see module docstring)."""
    if eager.exception is not None or compiled.exception is not None:
        _compare_exceptions(eager.exception, compiled.exception)
    else:
        compare_values(eager.value, compiled.value)
    if eager.arguments is not None:
        compare_values(eager.arguments, compiled.arguments, "arguments afterwards")
    if eager.random_states is not None:
        compare_values(eager.random_states, compiled.random_states, "global random state")
    if eager.stdout != compiled.stdout:
        raise Mismatch(f"printed {compiled.stdout!r}, eager printed {eager.stdout!r}")


def _compare_exceptions(eager: BaseException | None, compiled: BaseException | None) -> None:
    if eager is None and compiled is not None:
        raise Mismatch(f"raised {describe(compiled)}; eager did not raise")
    if compiled is None:
        raise Mismatch(f"did not raise; eager raised {describe(eager)}")
    if not isinstance(compiled, type(eager)):
        raise Mismatch(f"raised {describe(compiled)}; eager raised {describe(eager)}")
    if str(eager) and str(eager) not in str(compiled):
        raise Mismatch(f"raised {describe(compiled)}; eager's message is {str(eager)!r}")


def compare_values(expected: Any, actual: Any, path: str = "result") -> None:
    """Raises ``Mismatch`` naming the first place where ``actual`` differs from ``expected``."""
    if isinstance(expected, dict):
        _same_type(expected, actual, path)
        if list(expected) != list(actual):
            raise Mismatch(f"{path}: keys {list(actual)} != {list(expected)}")
        for key in expected:
            compare_values(expected[key], actual[key], f"{path}[{key!r}]")
    elif isinstance(expected, (list, tuple)):
        _same_type(expected, actual, path)
        if len(expected) != len(actual):
            raise Mismatch(f"{path}: length {len(actual)} != {len(expected)}")
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare_values(e, a, f"{path}[{i}]")
    elif isinstance(expected, (np.ndarray, np.generic)):  # first: np.float64 is a float too
        _compare_arrays(expected, actual, path)
    elif isinstance(expected, _PY_SCALARS):
        _same_type(expected, actual, path)
        _compare_numbers(np.asarray(expected), np.asarray(actual), path)
    elif _generator_state(expected) is not None:
        _same_type(expected, actual, path)
        compare_values(_generator_state(expected), _generator_state(actual), f"{path} (state)")
    elif _is_object(expected):
        _same_type(expected, actual, path)
        if list(vars(expected)) != list(vars(actual)):
            raise Mismatch(f"{path}: attributes {list(vars(actual))} != {list(vars(expected))}")
        for name, value in vars(expected).items():
            compare_values(value, vars(actual)[name], f"{path}.{name}")
    elif expected != actual:
        raise Mismatch(f"{path}: {actual!r} != {expected!r}")


def _generator_state(value: Any) -> Any:
    """The state of a NumPy or Python random generator (None for anything else): two generators
    agree when their next draws will."""
    if isinstance(value, np.random.Generator):
        return value.bit_generator.state
    if isinstance(value, np.random.RandomState):
        return value.get_state()
    if isinstance(value, random.Random):
        return value.getstate()
    return None


def global_random_states() -> tuple[Any, Any]:
    """The states of NumPy's and Python's global generators."""
    return np.random.get_state(), random.getstate()


def _is_object(value: Any) -> bool:
    """An object compared by its attributes (not a function, class or module)."""
    return hasattr(value, "__dict__") and not isinstance(
        value, (type, types.FunctionType, types.MethodType, types.ModuleType)
    )


def _same_type(expected: Any, actual: Any, path: str) -> None:
    if type(actual) is not type(expected):
        raise Mismatch(f"{path}: {_kind(actual)} != {_kind(expected)}")


def _kind(value: Any) -> str:
    """``NumPy int64 scalar``, ``array float32(3, 2)``, ``Python int 3``, or the type's name."""
    if isinstance(value, np.generic):
        return f"NumPy {value.dtype} scalar"
    if isinstance(value, np.ndarray):
        return f"array {value.dtype}{value.shape}"
    if isinstance(value, _PY_SCALARS):
        return f"Python {type(value).__name__} {value!r}"
    return type(value).__name__


def _compare_arrays(expected: np.ndarray | np.generic, actual: Any, path: str) -> None:
    if not isinstance(actual, (np.ndarray, np.generic)):
        raise Mismatch(f"{path}: {_kind(actual)} != {_kind(expected)}")
    if isinstance(actual, np.ndarray) != isinstance(expected, np.ndarray):
        raise Mismatch(f"{path}: {_kind(actual)} != {_kind(expected)}")
    if actual.dtype != expected.dtype:
        raise Mismatch(f"{path}: dtype {actual.dtype} != {expected.dtype}")
    if np.shape(actual) != np.shape(expected):
        raise Mismatch(f"{path}: shape {np.shape(actual)} != {np.shape(expected)}")
    _compare_numbers(np.asarray(expected), np.asarray(actual), path)


def _compare_numbers(expected: np.ndarray, actual: np.ndarray, path: str) -> None:
    if expected.dtype.kind in "fc":
        rtol = _RTOL.get(expected.dtype.itemsize // (2 if expected.dtype.kind == "c" else 1), 1e-12)
        same = np.allclose(actual, expected, rtol=rtol, atol=rtol * 1e-3, equal_nan=True)
    else:
        same = np.array_equal(actual, expected)
    if not same:
        raise Mismatch(f"{path}: values {_short(actual)} != {_short(expected)}")


def _short(value: np.ndarray) -> str:
    text = " ".join(np.array2string(value, threshold=8, edgeitems=3, floatmode="unique").split())
    return text if len(text) < 80 else text[:77] + "..."
