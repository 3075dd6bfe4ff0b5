"""trace.functional.freeze_path_alias: what an array may share memory with on some paths."""

import numpy as np

from tograph.ir import types
from tograph.trace import builder as builder_mod
from tograph.trace import functional


def test_aliases_passed_on_through_nested_ifs_and_loops_are_kept_once():
    """Fuzz seed 5746: each if or loop passed its aliases on again, so the lists doubled with
    every level and tracing the program took minutes."""
    graph = builder_mod.GraphBuilder("f")
    vector = types.TensorType(np.dtype(np.float64), (3,))
    with graph.active():
        a, b, c = (graph.add_input(vector) for _ in range(3))
        for _ in range(12):
            functional.freeze_path_alias(b, [a], "shared on some paths")
            functional.freeze_path_alias(c, [b], "shared on some paths")
            functional.freeze_path_alias(b, [c], "shared on some paths")
        aliases = functional.storage_of(b).path_aliases
    assert len(aliases) == len({id(v) for v in aliases}) <= 3
    assert any(v is a for v in aliases) and any(v is c for v in aliases)
