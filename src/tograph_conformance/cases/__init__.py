"""The conformance cases, one module per category; ``all_cases()`` collects them in order.

Each module holds a ``CASES`` registry and ordinary user functions registered on it. The
functions are written the way people write NumPy code, not the way the compiler would like it.
"""

from __future__ import annotations

from tograph_conformance import case as case_mod
from tograph_conformance.cases import (
    boolean,
    branches,
    breadth,
    calls,
    checks,
    control_flow_grads,
    draws,
    effects,
    errors,
    fallback,
    for_loops,
    helpers,
    idioms,
    imperative,
    iteration,
    jumps,
    lists,
    logic,
    loop_exits,
    loop_programs,
    loop_sources,
    loop_state,
    mutation,
    nested_jumps,
    numerics,
    realistic,
    tensor_conditions,
    types,
    while_loops,
)

_MODULES = (
    branches,
    boolean,
    while_loops,
    for_loops,
    jumps,
    lists,
    mutation,
    imperative,
    effects,
    draws,
    calls,
    types,
    numerics,
    idioms,
    realistic,
    breadth,
    fallback,
    errors,
    nested_jumps,
    iteration,
    logic,
    helpers,
    checks,
    loop_exits,
    loop_sources,
    loop_state,
    tensor_conditions,
    control_flow_grads,
    loop_programs,
)


def all_cases() -> list[case_mod.Case]:
    """Every case of every category module; raises ValueError on a duplicate name."""
    found = [c for module in _MODULES for c in module.CASES.cases]
    seen: set[str] = set()
    for c in found:
        if c.name in seen:
            raise ValueError(f"two conformance cases are named {c.name!r}")
        seen.add(c.name)
    return found
