"""``export_onnx``: a compiled signature as an ONNX model, control flow as ``If`` and ``Loop``.

Stage: export. Input: a ``ConcreteFunction`` (or a function with one compiled signature). Output:
an ``onnx.ModelProto`` (written to a file if one is given) whose inputs are the graph's inputs,
named as the printed graph names them, and whose outputs are those of the function's pure form
(``ConcreteFunction.functional_graph``): the result's arrays, then the final values of arguments
written in place; static results (Python values fixed when the graph was built) are not outputs.
Requires the ``onnx`` package (``pip install 'tograph[onnx]'``).

Each equation becomes ONNX nodes (``export.onnx_ops``) whose ``doc_string`` is the user's line.
Types follow the graph exactly: operands are cast to the dtype NumPy computes in (the equation's
result dtype, or the promoted dtype of a comparison), so weak Python scalars behave as in NumPy 2.
``cond`` becomes ``If``: each branch is a subgraph that reads the operands from the enclosing scope.
``while_loop`` becomes ``Loop`` with no trip count: the cond graph runs once before the loop for
the first test and again at the end of each body for the next; constants are read from the
enclosing scope. Tensor lists become ONNX sequences. An op with no ONNX form, or ``print``,
``assert`` and ``raise`` (unless ``drop_effects``), is an ``ExportError`` naming the op and line;
so is a random draw (``ops.random``), always: its numbers come from the user's generator. NumPy's
own warnings (``warn``: ``np.nanmean`` of an all-NaN slice) are left out, and so are the error
states of ``with np.errstate(...)`` blocks, but for one that raises (unless ``drop_effects``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import concrete, errors
from tograph.export import onnx_ops
from tograph.ir import core, types
from tograph.ops import effects, errstates
from tograph.ops import random as random_draws

# NumPy's warnings and the error states that decide them: a model reports no warnings
_SILENT = (effects.warn_p, errstates.errstate_p, errstates.errstate_end_p)

OPSET = 18
_IR_VERSION = 8  # the IR version of opset 18 (ONNX 1.13), which runtimes since then read


def export_onnx(
    fn: Any, file: str | os.PathLike[str] | None = None, *, drop_effects: bool = False
) -> Any:
    """The ONNX model of one compiled signature of ``fn``; written to ``file`` if given.

    Args:
      fn: a ``ConcreteFunction`` (``f.concrete(*args)``), or a ``to_static``, ``grad`` or loaded
        function that has compiled exactly one signature.
      file: where to write the model, or None.
      drop_effects: leave ``print``, ``assert`` and ``raise`` out of the model instead of refusing
        to export them (ONNX has no such ops).

    Returns:
      The ``onnx.ModelProto``, checked with ``onnx.checker``.

    Raises:
      ExportError: the ``onnx`` package is missing, ``fn`` has no single compiled signature, or
        an equation has no ONNX form (the message names the op and the user's line).
    """
    try:
        import onnx
    except ImportError:
        raise errors.ExportError(
            "exporting to ONNX needs the onnx package", hint="pip install 'tograph[onnx]'"
        ) from None
    graph = _graph_of(fn)
    writer = Writer(onnx, drop_effects)
    model = writer.model(graph)
    onnx.checker.check_model(model)
    if file is not None:
        onnx.save(model, os.fspath(file))
    return model


def _graph_of(fn: Any) -> core.Graph:
    if isinstance(fn, concrete.ConcreteFunction):
        functions = [fn]
    elif hasattr(fn, "concrete_functions"):
        functions = fn.concrete_functions
    else:
        raise errors.ExportError(f"cannot export a {type(fn).__name__} to ONNX")
    if len(functions) != 1:
        raise errors.ExportError(
            f"{getattr(fn, '__name__', 'the function')} has {len(functions)} compiled signatures; "
            "an ONNX model holds one",
            hint="export fn.concrete(*example_args)",
        )
    (cf,) = functions
    graph = cf.functional_graph
    if graph is None:
        raise errors.ExportError(f"the function runs eagerly, so it has no graph: {cf.fallback}")
    return graph


class _Scope:
    """The nodes of one ONNX graph being written; constants made in it, shared with nested ones."""

    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.nodes: list[Any] = []
        self.consts: dict[tuple[str, tuple[int, ...], bytes], str] = {}

    def const(self, key: tuple[str, tuple[int, ...], bytes]) -> str | None:
        scope: _Scope | None = self
        while scope is not None:
            if key in scope.consts:
                return scope.consts[key]
            scope = scope.parent
        return None


class Writer:
    """Writes ONNX nodes for graphs; what ``onnx_ops`` functions build with."""

    def __init__(self, onnx: Any, drop_effects: bool):
        self.onnx = onnx
        self.helper = onnx.helper
        self.drop_effects = drop_effects
        self.env: dict[int, str] = {}
        self.scope = _Scope(None)
        self.eqn: core.Eqn | None = None
        self._used: set[str] = set()
        self._namer = core.Namer()
        self.list_elems: dict[int, types.TensorType] = {}

    # ---- names and nodes ------------------------------------------------------------------
    def fresh(self, base: str) -> str:
        """A name no other value in the model has."""
        name = base
        while name in self._used:
            name = f"{base}_{len(self._used)}"
        self._used.add(name)
        return name

    def node(self, op: str, inputs: Sequence[str], outputs: int = 1, **attrs: Any) -> list[str]:
        """Adds ``op`` to the graph being written; returns its output names."""
        names = [self.fresh(op.lower()) for _ in range(outputs)]
        doc = ""
        if self.eqn is not None and self.eqn.loc is not None:
            doc = f"{self.eqn.loc}: {self.eqn.loc.source_line.strip()}"
        made = self.helper.make_node(
            op, list(inputs), names, name=self.fresh(f"{op}_node"), doc_string=doc, **attrs
        )
        self.scope.nodes.append(made)
        return names

    def one(self, op: str, *inputs: str, **attrs: Any) -> str:
        """Adds a single-output node; returns its output name."""
        return self.node(op, inputs, 1, **attrs)[0]

    def const(self, value: Any, dtype: Any = None) -> str:
        """A constant tensor (shared within the graph being written and the graphs it holds)."""
        array = np.asarray(value, dtype=dtype)
        key = (array.dtype.str, array.shape, array.tobytes())
        found = self.scope.const(key)
        if found is not None:
            return found
        tensor = self.onnx.numpy_helper.from_array(array, self.fresh("const"))
        (name,) = self.node("Constant", [], value=tensor)
        self.scope.consts[key] = name
        return name

    def ints(self, values: Sequence[int]) -> str:
        """A 1-d int64 constant, for axes, shapes and slice bounds."""
        return self.const(np.asarray(list(values), dtype=np.int64).reshape(-1))

    def cast(self, name: str, source: Any, target: Any) -> str:
        """``name`` as ``target`` dtype (no node when it already is)."""
        if np.dtype(source) == np.dtype(target):
            return name
        return self.one("Cast", name, to=self.elem_type(target))

    def operand(self, atom: core.Atom, dtype: Any) -> str:
        """An equation operand in ``dtype``: literals made in it, values cast to it."""
        if isinstance(atom, core.Lit):
            return self.const(atom.value, dtype)
        return self.cast(self.env[atom.id], types.tensor_type(atom.type).dtype, np.dtype(dtype))

    def value(self, atom: core.Atom) -> str:
        """An operand in its own type."""
        if isinstance(atom, core.Lit):
            return self.const(atom.value, types.tensor_type(atom.type).dtype)
        return self.env[atom.id]

    # ---- types ----------------------------------------------------------------------------
    def elem_type(self, dtype: Any) -> int:
        return int(self.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))

    def value_info(self, name: str, t: types.ValueType) -> Any:
        if isinstance(t, types.ListType):
            if t.elem is None:
                raise self.error("a tensor list that is never pushed to has no element type")
            return self.helper.make_tensor_sequence_value_info(
                name, self.elem_type(t.elem.dtype), list(t.elem.shape)
            )
        return self.helper.make_tensor_value_info(name, self.elem_type(t.dtype), list(t.shape))

    def error(self, reason: str) -> errors.ExportError:
        eqn = self.eqn
        what = f"cannot export {eqn.prim.name} to ONNX" if eqn is not None else "cannot export"
        return errors.ExportError(f"{what}: {reason}", loc=eqn.loc if eqn is not None else None)

    # ---- graphs ---------------------------------------------------------------------------
    def model(self, graph: core.Graph) -> Any:
        if not graph.outputs:
            raise errors.ExportError(
                f"{graph.name} has no tensor result (every result is a Python value fixed when "
                "the graph was built), so an ONNX model of it would have no outputs"
            )
        core.print_lines(graph, namer=self._namer)  # readable names: the printed graph's
        self.list_elems = _list_elements(graph)
        inputs = []
        for var in graph.inputs:
            name = self.fresh(self._namer.name(var))
            self.env[var.id] = name
            inputs.append(self.value_info(name, var.type))
        self.block(graph)
        names = [self._namer.name(a) if isinstance(a, core.Var) else None for a in graph.outputs]
        outputs = self.outputs(graph, names)
        body = self.helper.make_graph(self.scope.nodes, graph.name, inputs, outputs)
        model = self.helper.make_model(
            body,
            producer_name="tograph",
            opset_imports=[self.helper.make_opsetid("", OPSET)],
            doc_string=f"{graph.name}, exported by tograph",
        )
        model.ir_version = _IR_VERSION
        return model

    def block(self, graph: core.Graph) -> None:
        """Nodes for ``graph``'s equations (its inputs already named in ``env``)."""
        for eqn in graph.eqns:
            self.eqn = eqn
            if eqn.prim is random_draws.random_p:
                raise self.error(
                    f"the draw {eqn.params['draw']!r} takes its numbers from NumPy's or Python's "
                    "generator, which ONNX's random operators cannot reproduce"
                )
            raising = eqn.prim is errstates.errstate_p and errstates.raises(eqn.params["settings"])
            if raising and not self.drop_effects:  # eager raises FloatingPointError there
                raise self.error(
                    "a with np.errstate(...) block that makes floating-point errors raise: ONNX "
                    "operators never raise (drop_effects=True leaves it out)"
                )
            if eqn.prim.effectful and (self.drop_effects or eqn.prim in _SILENT):
                continue  # NumPy's warnings (nanmean of an all-NaN slice) have no ONNX form
            if any(_is_complex(a.type) for a in (*eqn.inputs, *eqn.outputs)):
                raise self.error("ONNX operators do not compute with complex numbers")
            convert = onnx_ops.OPS.get(eqn.prim.name)
            if convert is None:
                raise self.error("ONNX has no equivalent op (tograph has no mapping for it)")
            outputs = convert(self, eqn, [self.value(a) for a in eqn.inputs])
            self.env.update((v.id, name) for v, name in zip(eqn.outputs, outputs))
        self.eqn = None

    def outputs(self, graph: core.Graph, names: Sequence[str | None]) -> list[Any]:
        """Graph outputs, each made by an ``Identity`` of its own (ONNX outputs are distinct)."""
        infos = []
        for i, atom in enumerate(graph.outputs):
            base = names[i] or f"output_{i}"
            out = self.fresh(base)
            self.scope.nodes.append(
                self.helper.make_node("Identity", [self.value(atom)], [out], name=out + "_out")
            )
            infos.append(self.value_info(out, atom.type))
        return infos

    def subgraph(
        self, graph: core.Graph, bind: Sequence[str], name: str, out_types: Sequence[Any]
    ) -> Any:
        """``graph`` as an ONNX subgraph whose inputs read the enclosing names ``bind``."""
        outer = self.scope
        self.scope = _Scope(outer)
        for var, source in zip(graph.inputs, bind):
            self.env[var.id] = source
        self.block(graph)
        outputs = self._typed_outputs(graph.outputs, out_types)
        made = self.helper.make_graph(self.scope.nodes, name, [], outputs)
        self.scope = outer
        return made

    def _typed_outputs(self, atoms: Sequence[core.Atom], out_types: Sequence[Any]) -> list[Any]:
        infos = []
        for atom, t in zip(atoms, out_types):
            out = self.fresh("out")
            self.scope.nodes.append(
                self.helper.make_node("Identity", [self.value(atom)], [out], name=out + "_out")
            )
            infos.append(self.value_info(out, t))
        return infos

    def loop_body(
        self, eqn: core.Eqn, consts: Sequence[str], carry_types: Sequence[types.ValueType]
    ) -> Any:
        """The ``Loop`` body: inputs (trip, cond, carries), outputs (next test, new carries)."""
        test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
        outer = self.scope
        self.scope = _Scope(outer)
        trip, cond_in = self.fresh("trip"), self.fresh("cond_in")
        carried = [self.fresh(f"carry_{k}") for k in range(len(carry_types))]
        inputs = [
            self.helper.make_tensor_value_info(trip, self.onnx.TensorProto.INT64, []),
            self.helper.make_tensor_value_info(cond_in, self.onnx.TensorProto.BOOL, []),
        ] + [self.value_info(n, t) for n, t in zip(carried, carry_types)]
        for var, source in zip(body.inputs, [*consts, *carried]):
            self.env[var.id] = source
        self.block(body)
        new = [self.value(a) for a in body.outputs]
        for var, source in zip(test.inputs, [*consts, *new]):
            self.env[var.id] = source
        self.block(test)
        boolean = types.TensorType(np.dtype(np.bool_), ())
        outputs = self._typed_outputs([test.outputs[0], *body.outputs], [boolean, *carry_types])
        made = self.helper.make_graph(self.scope.nodes, "body", inputs, outputs)
        self.scope = outer
        return made


def _is_complex(t: types.ValueType) -> bool:
    return isinstance(t, types.TensorType) and t.dtype.kind == "c"


def _list_elements(graph: core.Graph) -> dict[int, types.TensorType]:
    """The element type of each list value, including lists made empty (``list[?]``).

    A list made before a loop is typed by what the loop pushes: values that flow into each other
    (loop carries, branch operands and results, a push's list and result) share one type.
    """
    parent: dict[int, int] = {}
    known: dict[int, types.TensorType] = {}

    def find(key: int) -> int:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    def join(*atoms: core.Atom) -> None:
        keys = [find(a.id) for a in atoms if isinstance(a, core.Var)]
        for key in keys[1:]:
            parent[key] = keys[0]

    def visit(g: core.Graph) -> None:
        for var in [*g.inputs, *(v for e in g.eqns for v in e.outputs)]:
            if isinstance(var.type, types.ListType) and var.type.elem is not None:
                known[var.id] = var.type.elem
        for eqn in g.eqns:
            _link(eqn, join)
            for sub in eqn.subgraphs():
                visit(sub)

    visit(graph)
    by_class = {find(key): elem for key, elem in known.items()}
    return {key: by_class[find(key)] for key in parent if find(key) in by_class}


def _link(eqn: core.Eqn, join: Any) -> None:
    """Joins the list values of ``eqn`` that are the same list (see ``_list_elements``)."""
    name, params = eqn.prim.name, eqn.params
    if name == "list_push":
        join(eqn.inputs[0], eqn.outputs[0])
    elif name == "while_loop":
        k = params["num_consts"]
        test, body = params["cond_graph"], params["body_graph"]
        for i, out in enumerate(eqn.outputs):
            join(eqn.inputs[k + i], out, test.inputs[k + i], body.inputs[k + i], body.outputs[i])
    elif name == "cond":
        for branch in (params["then_graph"], params["else_graph"]):
            for operand, var in zip(eqn.inputs[1:], branch.inputs):
                join(operand, var)
            for result, out in zip(branch.outputs, eqn.outputs):
                join(result, out)
