"""Parallel scheduling: independent large chains of a graph run on a thread pool.

Stage: execute (planning for the code generator, and the run-time helper it calls). Input: a
graph. Output: a ``Split`` into a sequential head, independent tasks and a sequential tail, when
a cost model says threads pay; ``run_tasks`` runs the tasks. Requires: a checked graph.

NumPy releases the GIL inside large ufunc loops and BLAS calls, so two independent matrix chains
can use two cores. The equations are grouped by data flow: each joins the group of the values it
reads, except that an equation reading two groups that are each costly is where the work joins,
and it and everything after it that depends on it form the tail. Groups estimated under
``MIN_TASK_NS`` are cheap and run first, in order, in the calling thread. The rest run as tasks
when there are at least two (and at least two CPUs); results are unchanged because the tasks
share no value a task writes (each part is planned as its own graph, so no buffer is reused
across threads).

Only graphs without effects are split (a print must keep its place), and only when every
equation reports problems through NumPy's floating-point error state or by raising, never by
``warnings.warn`` (``QUIET``: a mean of an empty slice warns, a cast from complex numbers warns).
The split graph runs under ``strict.errstate()``, each task in a copy of the caller's context (so
``np.errstate`` and other context variables carry over): if anything fails or would warn, the
generated code runs the whole graph again in its own order, which raises or warns exactly as the
sequential graph would (the graph has no effects and its inputs are unchanged, so this is exact).

The cost model (``cost_ns``): a matrix product ``2 m k n`` flops at 20 GFLOP/s, control flow the
sum of its nested graphs, anything else nothing. Elementwise work and reductions are bound by
memory bandwidth, which threads share, and splitting an elementwise chain stops blocked fusion
from running it in cache: W4's two elementwise chains took 0.84x NumPy's time on two threads and
0.61x fused on one, with one full-size array instead of three. What the estimate misses only
decides whether threads are used.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import dataclasses
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph.backend import strict
from tograph.ir import core, types
from tograph.ops import control, creation, indexing, join, linalg, reductions, shape
from tograph.ops import elementwise as ew

MIN_TASK_NS = 500_000.0
_FLOP_NS = 0.05

# The primitives whose kernels report problems only through the floating-point error state or an
# exception (``astype`` too, unless it casts complex numbers to real ones).
QUIET = frozenset(
    {
        *ew.UFUNCS,
        ew.power_p,
        ew.where_p,
        ew.clip_p,
        ew.round_p,
        ew.astype_p,
        linalg.matmul_p,
        linalg.dot_p,
        reductions.sum_p,
        reductions.prod_p,
        reductions.max_p,
        reductions.min_p,
        reductions.any_p,
        reductions.all_p,
        reductions.argmax_p,
        reductions.argmin_p,
        reductions.cumsum_p,
        reductions.cumprod_p,
        reductions.reduce_to_p,
        shape.reshape_p,
        shape.broadcast_to_p,
        shape.transpose_p,
        shape.matrix_transpose_p,
        shape.expand_dims_p,
        shape.squeeze_p,
        shape.flip_p,
        indexing.getitem_p,
        indexing.setitem_p,
        join.concatenate_p,
        join.stack_p,
        creation.full_p,
        creation.arange_p,
        creation.eye_p,
        control.cond_p,
        control.while_loop_p,
    }
)


@dataclasses.dataclass(frozen=True)
class Split:
    """A graph cut into ``head`` (run first), ``tasks`` (run at once) and ``tail`` (run last);
    each part is a graph over the same vars, its inputs what it reads from earlier parts or the
    graph's inputs, its outputs what later parts or the graph's outputs read."""

    head: core.Graph
    tasks: tuple[core.Graph, ...]
    tail: core.Graph


def cost_ns(eqn: core.Eqn) -> float:
    """The estimated run time of ``eqn`` in nanoseconds (see module docstring)."""
    if eqn.prim in (linalg.matmul_p, linalg.dot_p):
        a, b = (types.tensor_type(x.type) for x in eqn.inputs)
        out = types.tensor_type(eqn.outputs[0].type)
        k = a.shape[-1] if a.ndim else 1
        if k is None or out.size is None:
            return 0.0
        return 2.0 * out.size * k * _FLOP_NS
    if not eqn.params:  # (no nested graph: most equations)
        return 0.0
    return float(sum(cost_ns(e) for sub in eqn.subgraphs() for e in sub.eqns))


def quiet(eqn: core.Eqn) -> bool:
    """Whether ``eqn`` has no effects and reports problems only by the error state or raising."""
    if eqn.prim not in QUIET:
        return False
    if eqn.prim is ew.astype_p:
        source = types.tensor_type(eqn.inputs[0].type).dtype
        return source.kind != "c" or np.dtype(eqn.params["dtype"]).kind == "c"
    return True


def split(graph: core.Graph) -> Split | None:
    """The parallel split of ``graph``, or None when it has effects, may warn outside the error
    state, or has fewer than two costly independent groups (see module docstring)."""
    if sum(cost_ns(e) for e in graph.eqns) < 2 * MIN_TASK_NS:  # (most graphs: asked first)
        return None
    if (os.cpu_count() or 1) < 2 or not all(quiet(e) for e in graph.walk()):
        return None
    group: list[int] = []  # per equation: its group (a union-find parent index), -1 for the tail
    parent: dict[int, int] = {}
    cost: dict[int, float] = {}
    producer: dict[core.Var, int] = {}

    def find(g: int) -> int:
        while parent[g] != g:
            g = parent[g]
        return g

    for k, eqn in enumerate(graph.eqns):
        read = [a for a in eqn.inputs if isinstance(a, core.Var) and a in producer]
        sources = {group[producer[a]] for a in read}
        roots = {find(g) for g in sources if g >= 0}
        costly = [r for r in roots if cost[r] >= MIN_TASK_NS]
        if -1 in sources or len(costly) >= 2:
            group.append(-1)
        else:
            parent[k], cost[k] = k, cost_ns(eqn)
            for r in roots:
                parent[r] = k
                cost[k] += cost[r]
            group.append(k)
        producer.update((v, k) for v in eqn.outputs)
    members: dict[int, list[int]] = {}
    for k, g in enumerate(group):
        members.setdefault(find(g) if g >= 0 else -1, []).append(k)
    tasks = [ks for r, ks in members.items() if r >= 0 and cost[r] >= MIN_TASK_NS]
    if len(tasks) < 2:
        return None
    head = sorted(k for r, ks in members.items() if r >= 0 and cost[r] < MIN_TASK_NS for k in ks)
    parts = [head, *tasks, members.get(-1, [])]
    made = [_part(graph, ks, parts) for ks in parts]
    return Split(made[0], tuple(made[1:-1]), made[-1])


def _part(graph: core.Graph, ks: list[int], parts: list[list[int]]) -> core.Graph:
    eqns = tuple(graph.eqns[k] for k in ks)
    own = {v for e in eqns for v in e.outputs}
    reads = [a for e in eqns for a in e.inputs if isinstance(a, core.Var) and a not in own]
    inputs = tuple(dict.fromkeys(reads))
    others = {k for p in parts if p is not ks for k in p}
    later = {a for k in others for a in graph.eqns[k].inputs if isinstance(a, core.Var)}
    later.update(a for a in graph.outputs if isinstance(a, core.Var))
    outputs = tuple(v for e in eqns for v in e.outputs if v in later)
    return core.Graph(graph.name, inputs, eqns, outputs)


_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            workers = max(1, (os.cpu_count() or 2) - 1)
            _pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="tograph")
        return _pool


def _strict(task: Callable[[], Any]) -> Any:
    with strict.errstate():
        return task()


def run_tasks(tasks: Sequence[Callable[[], Any]]) -> list[Any]:
    """Runs ``tasks[1:]`` on the pool and ``tasks[0]`` in this thread, each in a copy of this
    context under ``strict.errstate()``; returns their results in order, or raises the first
    failure once all have finished."""
    pool = _executor()
    futures = [pool.submit(contextvars.copy_context().run, _strict, t) for t in tasks[1:]]
    try:
        first = contextvars.copy_context().run(_strict, tasks[0])
    finally:
        concurrent.futures.wait(futures)
    return [first, *(f.result() for f in futures)]
