"""Checking a case's gradients: ``tograph.grad`` of the compiled function against finite
differences.

Stage: none (test harness). Input: a "match" case with ``grad`` argument positions, its
``to_static`` function and one input set. Output: nothing, or ``compare.Mismatch`` saying which
gradient differs. The oracle is central differences of the eager function in float64, one
element at a time (the inputs are small); the compiled gradient must not fall back, and must have
its argument's shape and dtype (a Python float's gradient is a NumPy float64).
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import tograph as tg
from tograph_conformance import case as case_mod
from tograph_conformance import compare

_STEP = 1e-6
_RTOL = 1e-5
_ATOL = 1e-6


def check_gradients(
    fn: Callable[..., Any],
    static: tg.StaticFunction,
    inputs: tuple[Any, ...],
    argnums: tuple[int, ...],
) -> None:
    """Raises ``compare.Mismatch`` unless ``grad(static, argnums)`` equals central differences."""
    args, kwargs = case_mod.split(copy.deepcopy(inputs))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = tg.grad(static, argnums=argnums)(*args, **kwargs)
    fell_back = [w for w in caught if issubclass(w.category, tg.FallbackWarning)]
    if fell_back:
        raise compare.Mismatch(f"the gradient fell back to eager: {fell_back[0].message}")
    for position, computed in zip(argnums, got):
        expected = central_differences(fn, inputs, position)
        where = f"gradient by argument {position}"
        if np.shape(computed) != np.shape(expected):
            raise compare.Mismatch(f"{where}: shape {np.shape(computed)} != {np.shape(expected)}")
        if not np.allclose(computed, expected, rtol=_RTOL, atol=_ATOL):
            raise compare.Mismatch(f"{where}: {computed} != finite differences {expected}")


def central_differences(fn: Callable[..., Any], inputs: tuple[Any, ...], position: int) -> Any:
    """d fn / d argument ``position`` by central differences, each element moved in turn."""
    point = np.array(inputs[position], dtype=np.float64)
    slope = np.zeros_like(point)
    for index in np.ndindex(point.shape):
        ends = []
        for step in (_STEP, -_STEP):
            moved = point.copy()
            moved[index] += step
            args, kwargs = case_mod.split(copy.deepcopy(inputs))
            args = (*args[:position], _like(inputs[position], moved), *args[position + 1 :])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ends.append(float(fn(*args, **kwargs)))
        slope[index] = (ends[0] - ends[1]) / (2 * _STEP)
    return slope


def _like(original: Any, moved: np.ndarray) -> Any:
    """``moved`` in the kind of ``original``: a Python float, a NumPy scalar or an array."""
    if isinstance(original, float) and not isinstance(original, np.floating):
        return float(moved)
    if isinstance(original, np.generic):
        return original.dtype.type(moved)
    return moved.astype(np.asarray(original).dtype)
