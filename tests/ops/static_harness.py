"""Checks that a NumPy function compiles, inside tensor control flow, to a graph that matches NumPy.

``assert_compiled_matches(op, *args)`` runs ``op`` (a NumPy function or a lambda over one) inside
``in_branch`` and ``in_loop``, compiled with ``to_static(fallback="error")``: the concrete
function must not have fallen back, and its result must have NumPy's structure, dtypes, shapes
and values (``op_harness.assert_same_value``). The loop test is a tensor, so the branch and the
loop are ``cond`` and ``while_loop`` equations holding ``op``'s equations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from op_harness import assert_same_value

import tograph as tg
from tograph.ir import pytree


def in_branch(op, *args):
    out = op(*args)
    if np.sum(np.abs(args[0])) >= 0:
        out = op(*args)
    return out


def in_loop(op, *args):
    out = op(*args)
    k = 0
    while np.sum(np.abs(args[0])) * 0 + k < 2:
        out = op(*args)
        k += 1
    return out


def assert_compiled_matches(op: Callable[..., Any], *args: Any, rtol: float = 1e-5) -> None:
    """``op(*args)`` compiled inside a tensor ``if`` and a tensor ``while`` equals NumPy's."""
    expected = op(*args)
    want, want_tree = pytree.flatten(expected)
    for wrapper in (in_branch, in_loop):
        compiled = tg.to_static(wrapper, fallback="error")
        assert compiled.concrete(op, *args).fallback is None
        got, got_tree = pytree.flatten(compiled(op, *args))
        assert got_tree == want_tree, (wrapper.__name__, got_tree, want_tree)
        for g, w in zip(got, want, strict=True):
            if rtol == 1e-5:
                assert_same_value(g, w)
            else:
                assert np.asarray(g).dtype == np.asarray(w).dtype
                np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
