"""The memory planner: liveness over a graph, ``out=`` into dead buffers, and peak bytes.

Stage: execute (planning for the code generator). Input: a graph and its fused regions
(``backend.fusion``). Output: a ``Plan``: for each elementwise equation that may reuse memory, the
dead value whose buffer it writes into (``ufunc(a, b, out=buffer)``), and the plan's peak bytes.
Requires: a checked graph.

An equation reuses a buffer only when all of these hold, so the result is the very array NumPy
would have made, in a buffer nobody can see any more:

- it is a ufunc (``ops.elementwise.UFUNCS``) with one output of a static shape of at least one
  dimension and at least ``MIN_BYTES`` (below that NumPy's allocator is faster than ``out=``), or
  ``LOOP_MIN_BYTES`` in a graph run once per trip of a loop (a ``while_loop``'s test and body and
  the graphs nested in them): there a reused buffer stays in the processor's cache from trip to
  trip, which a fresh allocation of every temporary of every trip does not;
- the buffer belongs to a value of the same dtype and shape, made by this graph (never an argument,
  a literal or a value a nested graph returns) as a fresh C-contiguous array, and the result would
  be C-contiguous too (``c_contiguous``), so strides are unchanged;
- that value and every value that may share its memory (views of it, values control flow made
  from it) are dead: no later equation reads them and the graph does not return them, nor
  pushes them onto a tensor list (which keeps the array itself). A value dying at this very
  equation may be its own operand: ufuncs compute in place exactly.

The peak is simulated in program order: arguments, then each fresh array from its definition to
its last use; a fused region holds its outputs and its chunk scratch; a nested graph adds its own
peak of temporaries. Values of unknown size count zero (``Plan.exact`` is then False).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from tograph.ir import core, types
from tograph.ops import control, elementwise

MIN_BYTES = 1 << 18
# NumPy keeps freed buffers under 1 KiB for its next allocations itself (its small-block cache),
# and an ``out=`` costs more than that on single-element arrays; from 1 KiB on, reusing buffers
# in a loop body measured 5-15% faster per trip.
LOOP_MIN_BYTES = 1 << 10


class RegionLike(Protocol):
    """What the planner needs of a fused region (``fusion.Region``)."""

    @property
    def start(self) -> int: ...
    @property
    def eqns(self) -> tuple[core.Eqn, ...]: ...
    @property
    def outputs(self) -> tuple[core.Var, ...]: ...
    @property
    def scratch_bytes(self) -> int: ...


@dataclasses.dataclass(frozen=True)
class Plan:
    """Where equations write, and what the graph's arrays need at most.

    Attributes:
      donors: for the ``id`` of an equation, the dead value whose buffer it writes into.
      peak_bytes: bytes of arrays alive at once at the worst point, arguments included.
      input_bytes: bytes of the arguments.
      exact: whether every array's size was known.
    """

    donors: dict[int, core.Var]
    peak_bytes: int
    input_bytes: int
    exact: bool


def nbytes(t: types.ValueType) -> int | None:
    """Bytes of a value of type ``t`` (None when a dimension is unknown or ``t`` is a list)."""
    if not isinstance(t, types.TensorType) or t.size is None:
        return None
    return t.size * t.dtype.itemsize


def has_large_arrays(graph: core.Graph, limit: int) -> bool:
    """Whether an equation of ``graph`` (not of its nested graphs) makes an array of a known size
    of at least ``limit`` bytes."""
    for eqn in graph.eqns:
        for v in eqn.outputs:
            size = nbytes(v.type)
            if size is not None and size >= limit:
                return True
    return False


def c_contiguous(graph: core.Graph, c_inputs: Sequence[bool] = ()) -> set[core.Var]:
    """Values known to be C-contiguous arrays: the inputs ``c_inputs`` marks, results of C-layout
    primitives, and of ufunc-like (``layout="K"``) ones whose array operands of two or more
    dimensions are such values too (one-dimensional results are always contiguous)."""
    found = {v for v, c in zip(graph.inputs, c_inputs) if c}
    for eqn in graph.eqns:
        if eqn.prim.views or eqn.prim.layout is None or len(eqn.outputs) != 1:
            continue
        out = eqn.outputs[0].type
        if not isinstance(out, types.TensorType) or out.ndim == 0:
            continue
        operands_c = all(
            isinstance(a, core.Var) and a in found
            for a in eqn.inputs
            if isinstance(a.type, types.TensorType) and a.type.ndim >= 2
        )
        if eqn.prim.layout == "C" or out.ndim == 1 or operands_c:
            found.add(eqn.outputs[0])
    return found


def plan(
    graph: core.Graph,
    regions: Sequence[RegionLike] = (),
    fresh: set[core.Var] | None = None,
    reuse: bool = True,
    per_trip: bool = False,
) -> Plan:
    """The memory plan of ``graph`` whose ``regions`` run fused; see module docstring.

    With ``reuse`` off no equation writes into a dead buffer (the peak is then NumPy's own,
    less what its reuse of temporaries inside one expression saves). ``fresh`` are the values
    known to be C-contiguous (``c_contiguous``); only those made here may lend their buffer.
    ``per_trip`` says that ``graph`` runs once per trip of a loop (``LOOP_MIN_BYTES`` applies).
    """
    made = c_contiguous(graph) if fresh is None else fresh
    return _Planner(graph, regions, made, reuse, per_trip).run()


def min_bytes(per_trip: bool) -> int:
    """The smallest buffer worth reusing, in a graph run once per loop trip or not."""
    return LOOP_MIN_BYTES if per_trip else MIN_BYTES


class _Planner:
    def __init__(
        self,
        graph: core.Graph,
        regions: Sequence[RegionLike],
        fresh: set[core.Var],
        reuse: bool,
        per_trip: bool,
    ):
        self.graph = graph
        self.reuse = reuse
        self.per_trip = per_trip
        self.min_bytes = min_bytes(per_trip)
        self.regions = {r.start: r for r in regions}
        self.fresh = fresh - set(graph.inputs)
        for region in regions:
            self.fresh.update(region.outputs)
        n = len(graph.eqns)
        self.last_use: dict[core.Var, int] = {}
        for k, eqn in enumerate(graph.eqns):
            for a in eqn.inputs:
                if isinstance(a, core.Var):
                    self.last_use[a] = k
        for a in graph.outputs:
            if isinstance(a, core.Var):
                self.last_use[a] = n
        self.root: dict[core.Var, core.Var] = {}
        self.pinned: set[core.Var] = set(graph.inputs)
        for eqn in graph.eqns:  # a tensor list keeps the very arrays pushed onto it
            if any(isinstance(v.type, types.ListType) for v in (*eqn.inputs, *eqn.outputs)):
                self.pinned.update(a for a in eqn.inputs if isinstance(a, core.Var))
        self.exact = True

    def find(self, var: core.Var) -> core.Var:
        while var in self.root:
            var = self.root[var]
        return var

    def _group_ends(self) -> dict[core.Var, int]:
        """The index after which each buffer (group root) is dead, for groups made by views and
        control flow (which may hand out an operand's memory)."""
        for eqn in self.graph.eqns:
            shares = eqn.prim.views or next(eqn.subgraphs(), None) is not None
            if not shares:
                continue
            operands = [a for a in eqn.inputs if isinstance(a, core.Var)]
            if not operands:
                continue
            base = self.find(operands[0])
            for v in (*operands[1:], *eqn.outputs):
                r = self.find(v)
                if r is not base:
                    self.root[r] = base
        ends: dict[core.Var, int] = {}
        for var, k in self.last_use.items():
            r = self.find(var)
            ends[r] = max(ends.get(r, -1), k)
        return ends

    def run(self) -> Plan:
        ends = self._group_ends()
        pinned = {self.find(v) for v in self.pinned} | {
            self.find(a) for a in self.graph.outputs if isinstance(a, core.Var)
        }
        release: dict[int, list[core.Var]] = {}
        for r, end in ends.items():
            release.setdefault(end, []).append(r)
        inputs = sum(self._size(v) for v in self.graph.inputs)
        self.live = self.peak = inputs
        self.alive: dict[core.Var, int] = {}  # group root -> bytes it holds
        free: dict[tuple[object, ...], list[core.Var]] = {}  # dead buffers by dtype and shape
        donors: dict[int, core.Var] = {}
        skip_until = 0
        for k, eqn in enumerate(self.graph.eqns):
            dying = [r for r in release.get(k, ()) if r in self.alive and r not in pinned]
            for r in dying:
                if r in self.fresh and (nbytes(r.type) or 0) >= self.min_bytes:
                    free.setdefault(_key(r), []).append(r)
            region = self.regions.get(k)
            if region is not None:
                skip_until = k + len(region.eqns)
                self._allocate(region.outputs, region.scratch_bytes)
            elif k >= skip_until:
                donor = self._donor(eqn, free)
                if donor is None:
                    per_trip = self.per_trip or eqn.prim is control.while_loop_p
                    transient = sum(self._nested_peak(sub, per_trip) for sub in eqn.subgraphs())
                    fresh = [v for v in eqn.outputs if self.find(v) is v and not eqn.prim.views]
                    self._allocate(fresh, transient)
                else:
                    out = eqn.outputs[0]
                    donors[id(eqn)] = donor
                    release.setdefault(ends.get(self.find(out), k), []).append(donor)
                    self.root[out] = donor
                    if donor in dying:
                        dying.remove(donor)  # the operand's buffer, computed in place
                    else:
                        self._allocate([donor], 0)
            for r in dying:
                self.live -= self.alive.pop(r)
        return Plan(donors, self.peak, inputs, self.exact)

    def _allocate(self, values: Sequence[core.Var], transient: int) -> None:
        """Counts ``values`` as allocated now, ``transient`` more bytes briefly."""
        for v in values:
            self.alive[v] = self._size(v)
            self.live += self.alive[v]
        self.peak = max(self.peak, self.live + transient)

    def _donor(
        self, eqn: core.Eqn, free: dict[tuple[object, ...], list[core.Var]]
    ) -> core.Var | None:
        if not self.reuse or eqn.prim not in elementwise.UFUNCS or len(eqn.outputs) != 1:
            return None
        out = eqn.outputs[0]
        if out not in self.fresh:
            return None
        t = out.type
        if not isinstance(t, types.TensorType) or t.weak or not t.is_static_shape:
            return None
        pool = free.get(_key(out))
        return pool.pop() if pool else None

    def _size(self, var: core.Var) -> int:
        size = nbytes(var.type)
        if size is None:
            self.exact = self.exact and isinstance(var.type, types.ListType)
            return 0
        return size

    def _nested_peak(self, sub: core.Graph, per_trip: bool) -> int:
        inner = plan(sub, reuse=self.reuse, per_trip=per_trip)
        self.exact = self.exact and inner.exact
        return inner.peak_bytes - inner.input_bytes


def _key(var: core.Var) -> tuple[object, ...]:
    t = types.tensor_type(var.type)
    return (t.dtype, t.shape)
