"""Speculative runs: NumPy's floating-point reports turned into exceptions, for code that reruns.

Stage: execute (a run-time helper of the generated code). Input: the caller's ``np.errstate``.
Output: the error state a speculative run uses (``errstate``). Requires: nothing.

Fused regions (``fusion``) and parallel tasks (``parallel``) compute in another order than the
plain graph; they are exact only while nothing is reported, so they run under this state and,
on any exception, the plain graph runs again and reports what it reports. A category the caller
ignores stays ignored (it reports nothing either way, and underflow, ignored by default, is
common in ``exp`` chains); every other setting (warn, raise, call, print, log) becomes raise.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def errstate() -> Any:
    """``np.errstate`` raising on every floating-point category the caller does not ignore."""
    current = np.geterr()
    return np.errstate(**{k: "ignore" if v == "ignore" else "raise" for k, v in current.items()})
