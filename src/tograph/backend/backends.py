"""Choosing the executor of a graph: NumPy (``python_scalars`` over ``codegen``) or numba.

Stage: execute. Input: a ``Graph`` and the backend asked for. Output: an ``Executable``: the
function running the graph, the backend it uses, and why it is not numba when numba was asked.

* ``"numpy"``: generated Python calling NumPy kernels, loop scalars as Python numbers.
* ``"numba"``: the graph compiled by numba (``numba_exec``); a graph with an operation numba
  cannot compute exactly as NumPy keeps the NumPy executor, and ``Executable.note`` says why.
  Without numba installed, asking for it raises ``ImportError`` with the pip command.
* ``"auto"``: numba where it pays, NumPy elsewhere and whenever numba is not installed. It pays
  for loops (a ``while_loop`` anywhere) whose computed values are small (static shapes, at most
  ``SMALL_ARRAY`` elements each; what the loops only read, such as the sequence an RNN steps
  through, may be of any size): there the interpreter's trips cost more than the arithmetic, and
  numba removes them; on large arrays NumPy's kernels are as fast and compiling is waste.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tograph.backend import codegen, numba_code, numba_exec, python_scalars
from tograph.ir import core, types
from tograph.ops import control

BACKENDS = ("numpy", "numba", "auto")
SMALL_ARRAY = 4096


@dataclasses.dataclass(frozen=True)
class Executable:
    """A compiled graph: ``run(*inputs) -> outputs``, the backend running it ("numpy" or
    "numba"), and why numba does not run it when it was asked for (else None)."""

    run: Callable[..., tuple[Any, ...]]
    backend: str
    note: str | None = None


def check_backend(backend: str) -> None:
    """Raises ``ValueError`` for an unknown backend, ``ImportError`` for numba not installed."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend == "numba" and not numba_exec.available():
        raise ImportError(numba_exec.INSTALL_HINT)


def compile_graph(
    graph: core.Graph, backend: str = "numpy", options: codegen.Options = codegen.DEFAULT
) -> Executable:
    """The executable of ``graph`` on ``backend`` (see module docstring); ``options`` are the
    NumPy executor's (fusion, buffer reuse, threads: ``codegen.Options``)."""
    check_backend(backend)
    numpy_run = python_scalars.compile_graph(graph, options)
    if backend == "numpy":
        return Executable(numpy_run, "numpy")
    if backend == "auto" and not (numba_exec.available() and pays_off(graph)):
        return Executable(numpy_run, "numpy")
    try:
        return Executable(numba_exec.compile_graph(graph, numpy_run), "numba")
    except numba_code.Unsupported as exc:
        return Executable(numpy_run, "numpy", f"numba: {exc}; runs on NumPy")


def pays_off(graph: core.Graph) -> bool:
    """Whether ``graph`` loops, and its loops compute scalars and small arrays only (see module
    docstring)."""
    loops = [e for e in graph.walk() if e.prim is control.while_loop_p]
    if not loops:
        return False
    bodies = [g for e in loops for g in e.subgraphs()]
    for v in (v for g in bodies for inner in g.walk() for v in inner.outputs):
        t = v.type
        if not isinstance(t, types.TensorType) or t.size is None or t.size > SMALL_ARRAY:
            return False
    return True
