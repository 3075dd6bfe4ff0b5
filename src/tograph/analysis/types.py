"""Stage: type inference. SSA form + argument types -> a type for every SSA value.

Each SSA value is a *static* Python value (its type, and its value when known) or a *tensor* with
dtype and shape (``None`` dims unknown, ``~`` for weak). Tensor expressions are typed with the
primitives' own type rules: the expression is evaluated on stand-in symbolic tensors in a scratch
graph that is thrown away, so inference and graph building can never disagree. Phi nodes join
their inputs (``types.join``); loop phis are iterated to a fixed point. An expression inference
cannot evaluate safely (a call to user code, say) is typed ``?``.
Requires: analysis.ssa.
"""

from __future__ import annotations

import builtins
from typing import Any

import astor
import gast
import numpy as np

from tograph.analysis import ssa
from tograph.ir import types
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, signature, tensor

UNKNOWN = object()


class _TensorRange:
    """``range(...)`` with a tensor bound: what a loop over it iterates is a weak int tensor."""


def _range(*args: Any) -> Any:
    if any(isinstance(a, tensor.TensorBase) for a in args):
        return _TensorRange()
    return range(*args)


_SAFE_BUILTINS: dict[str, Any] = {
    b: getattr(builtins, b)
    for b in (
        "len",
        "abs",
        "min",
        "max",
        "int",
        "float",
        "bool",
        "tuple",
        "list",
        "enumerate",
        "zip",
        "sum",
        "round",
    )
}
_SAFE_BUILTINS["range"] = _range


def describe(value: Any) -> str:
    """How a value's type prints in ``cf.types``."""
    if value is UNKNOWN:
        return "?"
    if isinstance(value, tensor.SymbolicTensor):
        return str(value.type)
    if isinstance(value, _TensorRange):
        return "tensor iterable"
    if isinstance(value, (np.ndarray, np.generic)):
        return f"{types.type_of(value)} (constant)"
    return f"{type(value).__name__} (static)"


class _Inference:
    def __init__(self, globals_: dict[str, Any], scratch: builder_mod.GraphBuilder):
        self.globals = globals_
        self.scratch = scratch
        self.env: dict[str, Any] = {}

    def evaluate(self, expr: Any) -> Any:
        if expr is None or not self._safe(expr):
            return UNKNOWN
        names = {n.id for n in gast.walk(expr) if isinstance(n, gast.Name)}
        if any(self.env.get(n) is UNKNOWN or isinstance(self.env.get(n), _StaticOf) for n in names):
            return UNKNOWN
        namespace = dict(self.globals)
        namespace.update({k: v for k, v in self.env.items() if v is not UNKNOWN})
        try:
            source = astor.to_source(gast.gast_to_ast(expr)).strip()
            with self.scratch.active():
                return eval(source, {"__builtins__": _SAFE_BUILTINS}, namespace)  # noqa: S307
        except Exception:  # noqa: BLE001 - anything inference cannot evaluate is simply unknown
            return UNKNOWN

    def _safe(self, expr: Any) -> bool:
        """Whether evaluating ``expr`` can only call NumPy, tensor methods and pure builtins."""
        for node in gast.walk(expr):
            if isinstance(node, (gast.Lambda, gast.NamedExpr, gast.Await, gast.Yield)):
                return False
            if isinstance(node, gast.Call) and not self._safe_callee(node.func):
                return False
        return True

    def _safe_callee(self, func: Any) -> bool:
        if isinstance(func, gast.Name):
            target = self.globals.get(func.id, _SAFE_BUILTINS.get(func.id))
            return target is not None and (func.id in _SAFE_BUILTINS or dispatch.is_numpy(target))
        if isinstance(func, gast.Attribute):
            base = func.value
            if isinstance(base, gast.Name) and base.id in self.env:
                return isinstance(self.env[base.id], tensor.TensorBase)
            return (
                self._safe_callee(base) if isinstance(base, (gast.Name, gast.Attribute)) else False
            )
        return False

    def join(self, values: list[Any], test: Any) -> Any:
        """The value of a phi: static if the inputs agree and the test is static, else a tensor."""
        known = [v for v in values if v is not UNKNOWN and not isinstance(v, _StaticOf)]
        if not known:
            return UNKNOWN
        decided_by_tensor = isinstance(test, (tensor.TensorBase, _TensorRange))
        statics = [v for v in known if not isinstance(v, tensor.TensorBase)]
        if decided_by_tensor and any(
            not (types.is_python_scalar(v) or isinstance(v, (np.ndarray, np.generic)))
            for v in statics
        ):
            return UNKNOWN
        if not decided_by_tensor and len(statics) == len(known):
            same = all(type(v) is type(known[0]) and _same(v, known[0]) for v in known)
            return known[0] if same else _StaticOf(type(known[0]))
        try:
            joined: types.ValueType = (
                known[0].type
                if isinstance(known[0], tensor.TensorBase)
                else types.type_of(known[0])
            )
            for v in known[1:]:
                joined = types.join(
                    joined, v.type if isinstance(v, tensor.TensorBase) else types.type_of(v)
                )
        except Exception:  # noqa: BLE001 - values with no common type are unknown here
            return UNKNOWN
        return self.scratch.add_input(joined)


class _StaticOf:
    """A static value whose type is known but whose value differs between paths."""

    def __init__(self, kind: type):
        self.kind = kind


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - incomparable values are different
        return False


def infer_types(
    form: ssa.SSAForm, sig: signature.Signature, globals_: dict[str, Any]
) -> dict[str, str]:
    """The inferred type of every SSA value of a function (in SSA ``form``) called with ``sig``."""
    scratch = builder_mod.GraphBuilder("inference")
    inference = _Inference(globals_, scratch)
    args, kwargs = sig.rebuild([scratch.add_input(t) for t in sig.input_types])
    params = [d for d in form.definitions if d.kind == "param"]
    for d, value in zip(params, list(args) + list(kwargs.values())):
        inference.env[d.name] = value
    for _ in range(3):  # loop phis reach a fixed point in two passes; the third confirms it
        for d in form.definitions:
            if d.kind == "param":
                continue
            if d.kind in ("phi", "loop-phi"):
                incoming = [inference.env.get(n, UNKNOWN) for n in d.incoming if n != ssa.UNDEF]
                inference.env[d.name] = inference.join(incoming, inference.evaluate(d.test))
            elif d.kind == "target":
                inference.env[d.name] = _loop_item(inference.evaluate(d.expr), scratch)
            else:
                inference.env[d.name] = inference.evaluate(d.expr)
    return {d.name: _describe(inference.env.get(d.name, UNKNOWN)) for d in form.definitions}


def _describe(value: Any) -> str:
    if isinstance(value, _StaticOf):
        return f"{value.kind.__name__} (static)"
    return describe(value)


def _loop_item(iterable: Any, scratch: builder_mod.GraphBuilder) -> Any:
    """A stand-in for the items of a loop over ``iterable``."""
    if isinstance(iterable, range):
        return 0
    if isinstance(iterable, _TensorRange):
        return scratch.add_input(types.TensorType(np.dtype(np.int64), (), weak=True))
    if isinstance(iterable, tensor.SymbolicTensor) and iterable.ndim > 0:
        with scratch.active():
            return iterable[0]
    return UNKNOWN
