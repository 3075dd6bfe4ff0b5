"""Blocked fusion: a run of elementwise equations on large arrays, computed chunk by chunk.

Stage: execute (planning and writing for the code generator). Input: a graph. Output: its fused
``Region``s, and the lines that run one (``write_region``). Requires: a checked graph.

Nine elementwise operations on 16 MB arrays are nine passes over main memory; the same operations
on 64K-element chunks, each chunk's temporaries reused through ``out=``, stay in the cache and need
no full-size temporary at all. A region is a maximal run of consecutive elementwise equations
(ufuncs, ``where``, ``clip``, ``round``, strong ``astype``) whose results have one static shape of
at least ``MIN_ELEMENTS`` elements and are C-contiguous when computed whole (``memory.
c_contiguous``); chunks are slices along the first axis. An operand from outside the region is
sliced the same way when its first axis is the region's, and used whole when it broadcasts along
that axis (a scalar, a Python number, a row), so every element is computed by the same ufunc loop
from the same operand values as without fusion: the results are bit for bit the same. Values used
after the region are written into full arrays (``out=`` their chunk); the rest live in chunk-sized
scratch buffers, reused once dead, or, for operations that take no ``out=`` (``power``, ``where``),
in small fresh arrays.

Errors and warnings: a region runs under ``strict.errstate()`` (every floating-point category
the caller does not ignore raises); if anything goes wrong it runs again unfused (it reads only
values nobody has written, so that is exact), which raises or warns exactly as the unfused graph
would, in its order. Casts from complex to real numbers, which warn through ``warnings`` rather
than the error state, are not fused.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from tograph.backend import memory, strict
from tograph.ir import core, types
from tograph.ops import elementwise as ew

MIN_ELEMENTS = 1 << 18
CHUNK_ELEMENTS = 1 << 16

_FUSIBLE = frozenset({*ew.UFUNCS, ew.power_p, ew.where_p, ew.clip_p, ew.round_p, ew.astype_p})


@dataclasses.dataclass(frozen=True)
class Region:
    """Equations ``start, start + 1, ...`` of a graph, run in chunks of ``rows`` along axis 0.

    Attributes:
      outputs: the values used after the region or returned (written into full arrays).
      scratch: for each value kept in a scratch buffer, that buffer's index.
      scratch_dtypes: the dtype of each scratch buffer (``rows`` by ``shape[1:]`` elements).
    """

    start: int
    eqns: tuple[core.Eqn, ...]
    shape: tuple[int, ...]
    rows: int
    outputs: tuple[core.Var, ...]
    scratch: dict[core.Var, int]
    scratch_dtypes: tuple[np.dtype, ...]

    @property
    def scratch_bytes(self) -> int:
        row = math.prod(self.shape[1:])
        return sum(self.rows * row * d.itemsize for d in self.scratch_dtypes)


def find_regions(graph: core.Graph, fresh: set[core.Var] | None = None) -> list[Region]:
    """The fused regions of ``graph`` (not of its nested graphs), in order.

    ``fresh`` are the values known to be C-contiguous (by default ``memory.c_contiguous``).
    """
    fresh = memory.c_contiguous(graph) if fresh is None else fresh
    runs: list[list[int]] = []
    shape: tuple[int, ...] | None = None
    for k, eqn in enumerate(graph.eqns):
        this = _region_shape(eqn, fresh)
        if this is not None and this == shape:
            runs[-1].append(k)
        elif this is not None:
            runs.append([k])
        shape = this
    later = _last_uses(graph)
    return [_region(graph, run, later) for run in runs if len(run) >= 2]


def _region_shape(eqn: core.Eqn, fresh: set[core.Var]) -> tuple[int, ...] | None:
    """The shape of the region ``eqn`` may be part of, or None."""
    if eqn.prim not in _FUSIBLE or len(eqn.outputs) != 1 or eqn.outputs[0] not in fresh:
        return None
    if eqn.prim is ew.astype_p and (eqn.params["weak"] or _drops_imaginary(eqn)):
        return None
    out = eqn.outputs[0].type
    if not isinstance(out, types.TensorType) or not out.is_static_shape or out.ndim == 0:
        return None
    shape = tuple(d for d in out.shape if d is not None)
    if math.prod(shape) < MIN_ELEMENTS:
        return None
    for a in eqn.inputs:
        t = a.type
        if not isinstance(t, types.TensorType) or not t.is_static_shape:
            return None
        if t.ndim == len(shape) and t.shape[0] not in (1, shape[0]):
            return None
    return shape


def _drops_imaginary(eqn: core.Eqn) -> bool:
    """Whether a cast takes complex numbers to real ones (NumPy's ComplexWarning)."""
    source = types.tensor_type(eqn.inputs[0].type).dtype
    return source.kind == "c" and np.dtype(eqn.params["dtype"]).kind != "c"


def _sliced(atom: core.Atom, shape: tuple[int, ...]) -> bool:
    """Whether an operand from outside a region of ``shape`` is sliced with the chunks."""
    t = types.tensor_type(atom.type)
    return t.ndim == len(shape) and t.shape[0] == shape[0] and shape[0] != 1


def _last_uses(graph: core.Graph) -> dict[core.Var, int]:
    last: dict[core.Var, int] = {}
    for k, eqn in enumerate(graph.eqns):
        for a in eqn.inputs:
            if isinstance(a, core.Var):
                last[a] = k
    for a in graph.outputs:
        if isinstance(a, core.Var):
            last[a] = len(graph.eqns)
    return last


def _region(graph: core.Graph, run: list[int], last: dict[core.Var, int]) -> Region:
    eqns = tuple(graph.eqns[k] for k in run)
    end = run[-1]
    outputs = tuple(e.outputs[0] for e in eqns if last.get(e.outputs[0], -1) > end)
    out_type = types.tensor_type(eqns[0].outputs[0].type)
    shape = tuple(d for d in out_type.shape if d is not None)
    rows = max(1, CHUNK_ELEMENTS // max(1, math.prod(shape[1:])))
    scratch: dict[core.Var, int] = {}
    dtypes: list[np.dtype] = []
    free: dict[np.dtype, list[int]] = {}
    kept = set(outputs)
    for k, eqn in zip(run, eqns):
        for a in set(eqn.inputs):  # operands dying here give their buffer back (in place)
            if isinstance(a, core.Var) and a in scratch and last.get(a) == k:
                free.setdefault(types.tensor_type(a.type).dtype, []).append(scratch[a])
        out = eqn.outputs[0]
        if out in kept or eqn.prim not in ew.UFUNCS or last.get(out, -1) <= k:
            continue
        dtype = types.tensor_type(out.type).dtype
        pool = free.get(dtype)
        if pool:
            scratch[out] = pool.pop()
        else:
            scratch[out] = len(dtypes)
            dtypes.append(dtype)
    return Region(run[0], eqns, shape, min(rows, shape[0]), outputs, scratch, tuple(dtypes))


class Writer(Protocol):
    """What ``write_region`` needs of the code generator."""

    def const(self, value: Any) -> str: ...
    def fresh(self, base: str) -> str: ...
    def expr(self, atom: core.Atom) -> str: ...
    def bind(self, var: core.Var, text: str) -> None: ...
    def define(self, vars_: Sequence[core.Var]) -> list[str]: ...
    def line(self, indent: str, text: str, eqn: core.Eqn | None) -> None: ...
    def write_eqn(self, eqn: core.Eqn, indent: str) -> None: ...
    def emit(self, eqn: core.Eqn, args: Sequence[str]) -> str: ...


def write_region(w: Writer, region: Region, indent: str, inner: str) -> None:
    """The lines running ``region`` in chunks, and unfused if that fails (module docstring).

    ``inner`` is one indentation step.
    """
    first = region.eqns[0]
    fulls = w.define(region.outputs)
    made = {e.outputs[0] for e in region.eqns}
    outer = {
        v: w.expr(v)
        for e in region.eqns
        for v in e.inputs
        if isinstance(v, core.Var) and v not in made
    }
    w.line(indent, "try:", first)
    body = indent + inner
    w.line(body, f"with {w.const(strict.errstate)}():", first)
    body += inner
    empty, shape = w.const(np.empty), repr(region.shape)
    for name, var in zip(fulls, region.outputs):
        dtype = w.const(types.tensor_type(var.type).dtype)
        w.line(body, f"{name} = {empty}({shape}, {dtype})", first)
    chunk_shape = repr((region.rows, *region.shape[1:]))
    buffers = [w.fresh("scratch") for _ in region.scratch_dtypes]
    for name, dtype in zip(buffers, region.scratch_dtypes):
        w.line(body, f"{name} = {empty}({chunk_shape}, {w.const(dtype)})", first)
    start, stop, n = w.fresh("start"), w.fresh("stop"), region.shape[0]
    w.line(body, f"for {start} in range(0, {n}, {region.rows}):", first)
    loop = body + inner
    w.line(loop, f"{stop} = {start} + {region.rows}", first)
    if n % region.rows and buffers:
        w.line(loop, f"if {stop} > {n}:", first)
        for name in buffers:
            w.line(loop + inner, f"{name} = {name}[:{n} - {start}]", first)
    targets = dict(zip(region.outputs, fulls))
    _chunk_lines(w, region, loop, f"{start}:{stop}", outer, made, targets, buffers)
    w.line(indent, "except Exception:", first)
    for var, text in outer.items():
        w.bind(var, text)
    for eqn in region.eqns:
        w.write_eqn(eqn, indent + inner)
    for var, name in zip(region.outputs, fulls):
        w.bind(var, name)


def _chunk_lines(
    w: Writer,
    region: Region,
    indent: str,
    window: str,
    outer: dict[core.Var, str],
    made: set[core.Var],
    fulls: dict[core.Var, str],
    buffers: list[str],
) -> None:
    """One chunk's lines: operands sliced, each equation into its chunk of an output, a scratch
    buffer, or a fresh small array."""
    sliced: dict[str, str] = {}

    def operand(atom: core.Atom) -> str:
        if isinstance(atom, core.Var) and atom in made:
            return w.expr(atom)
        text = outer[atom] if isinstance(atom, core.Var) else w.expr(atom)
        if not _sliced(atom, region.shape):
            return text
        if text not in sliced:
            sliced[text] = w.fresh("chunk")
            w.line(indent, f"{sliced[text]} = {text}[{window}]", None)
        return sliced[text]

    for eqn in region.eqns:
        out = eqn.outputs[0]
        args = [operand(a) for a in eqn.inputs]
        ufunc = ew.UFUNCS.get(eqn.prim)
        if out in fulls:
            target = w.fresh("chunk")
            w.line(indent, f"{target} = {fulls[out]}[{window}]", eqn)
            if ufunc is not None:
                w.line(indent, f"{w.const(ufunc)}({', '.join(args)}, out={target})", eqn)
            else:
                w.line(indent, f"{target}[...] = {w.emit(eqn, args)}", eqn)
            w.bind(out, target)
        elif out in region.scratch and ufunc is not None:
            target = buffers[region.scratch[out]]
            w.line(indent, f"{w.const(ufunc)}({', '.join(args)}, out={target})", eqn)
            w.bind(out, target)
        else:
            name = w.fresh("chunk")
            w.line(indent, f"{name} = {w.emit(eqn, args)}", eqn)
            w.bind(out, name)
