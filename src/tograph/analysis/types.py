"""Stage: type inference. SSA form + a call signature -> a type for every SSA value, and which
``if``/``while``/``for`` statements are decided by static Python values.

Each SSA value is *static* (a Python value known while converting, or a static value of known
kind that differs between paths), a *tensor* with dtype and shape (``None`` dims unknown, ``~``
for weak), or *unknown* (``?``: inference cannot tell, e.g. a call into user code). Tensor
expressions are typed with the primitives' own type rules: the expression is evaluated on
stand-in symbolic tensors in a scratch graph that is thrown away, so inference and graph building
cannot disagree. Phi nodes join their inputs (``types.join``); loop phis are iterated to a fixed
point. Only expressions without effects are evaluated: calls of NumPy (not its random module) and
of pure builtins, tensor methods, and attributes that are plain values.

The decisions feed lowering: a statement whose test (and, for a ``for``, iterable) is surely
static stays plain Python in the lowered code; the others call the runtime, which emits ``cond``
or ``while_loop`` for a tensor test (and still runs Python if the value turns out static). A
``for`` over a ``range`` too long to unroll (``values.rolled``) is a ``while_loop`` with a tensor
index; a ``while`` on Python numbers that change in it is left to the runtime, which rolls it up
too.
Requires: analysis.ssa.
"""

from __future__ import annotations

import ast
import builtins
import collections.abc
import dataclasses
import inspect
import types as pytypes
import warnings
from typing import Any

import gast
import numpy as np

from tograph.analysis import lazy, ssa, values
from tograph.analysis.values import PENDING, UNKNOWN
from tograph.ir import types
from tograph.ops import lists
from tograph.trace import builder as builder_mod
from tograph.trace import dispatch, signature, tensor

_MAX_ROUNDS = 24


def _range(*args: Any) -> Any:
    if any(isinstance(a, tensor.TensorBase) for a in args):
        return values.TensorIterable(index_only=True)
    return range(*args)


def _over_tensors(python_fn: Any) -> Any:
    """``enumerate``/``zip`` as the runtime's: over a tensor, a tensor iterable."""

    def call(*args: Any, **kwargs: Any) -> Any:
        if any(values.is_tensorish(a) for a in (*args, *kwargs.values())):
            return values.TensorIterable()
        return python_fn(*args, **kwargs)

    return call


def _len(value: Any) -> Any:
    """``len`` as the runtime's: a tensor list's length is a weak int known when the graph runs."""
    if isinstance(value, tensor.Symbolic) and isinstance(value.graph_var.type, types.ListType):
        return lists.length(value)
    return len(value)


_PURE_BUILTINS = (
    "len abs min max int float bool complex str tuple list dict set frozenset enumerate zip sum "
    "round divmod isinstance sorted reversed any all"
).split()
_SAFE_BUILTINS: dict[str, Any] = {b: getattr(builtins, b) for b in _PURE_BUILTINS}
_SAFE_BUILTINS["range"] = _range
_SAFE_BUILTINS["len"] = _len
_SAFE_BUILTINS["enumerate"] = _over_tensors(enumerate)
_SAFE_BUILTINS["zip"] = _over_tensors(zip)


def _is_identity(node: Any) -> bool:
    """Whether ``node`` is a comparison by ``is`` or ``is not``."""
    return isinstance(node, gast.Compare) and any(
        isinstance(op, (gast.Is, gast.IsNot)) for op in node.ops
    )


@dataclasses.dataclass(frozen=True)
class Inference:
    """The result: printed types per SSA value, and the statements decided statically."""

    types: dict[str, str]
    static_controls: frozenset[int]  # indices into ``ssa.SSAForm.controls``


class _Inference:
    def __init__(self, globals_: dict[str, Any], scratch: builder_mod.GraphBuilder):
        self.globals = globals_
        self.scratch = scratch
        self.env: dict[str, Any] = {}
        self._compiled: dict[int, Any] = {}  # id of an expression -> its code (rounds reuse it)
        # id of an expression -> the names it reads, and whether evaluating it is safe (None when
        # that depends on the SSA values, e.g. a method call on one).
        self._facts: dict[int, tuple[set[str], bool | None]] = {}
        self._split: dict[int, tuple[Any, list[tuple[str, Any]]]] = {}  # see ``_lazy_parts``
        self._namespace = {**globals_, "__builtins__": _SAFE_BUILTINS}
        self._locals = _Examples(self.env)

    # ---- evaluating one expression ----------------------------------------------------------
    def evaluate(self, expr: Any) -> Any:
        if expr is None:
            return UNKNOWN
        facts = self._facts.get(id(expr))
        if facts is None:
            facts = self._facts[id(expr)] = self._facts_of(expr)
        names, safe = facts
        if safe is None:  # whether it is safe depends on what the SSA values are now
            safe = self._safe(expr)
        if not safe:
            return UNKNOWN
        read = [self.env[n] for n in names if n in self.env]
        if any(v is UNKNOWN for v in read):
            return UNKNOWN
        if any(v is PENDING for v in read):
            return PENDING
        rewritten, cut = self._lazy_parts(expr)
        parts = {name: lazy.value(self, node) for name, node in cut}
        if any(v is UNKNOWN for v in parts.values()):
            return UNKNOWN
        if any(v is PENDING for v in parts.values()):
            return PENDING
        try:
            code = self._compiled.get(id(expr))
            if code is None:
                tree = ast.fix_missing_locations(ast.Expression(gast.gast_to_ast(rewritten)))
                code = self._compiled[id(expr)] = compile(tree, "<inference>", "eval")
            # quietly: the user sees the warnings of their code's runs, not of inference's
            with self.scratch.active(), warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                env = self._locals if not parts else _Examples({**self.env, **parts})
                value = eval(code, self._namespace, env)  # noqa: S307
        except Exception:  # noqa: BLE001 - anything inference cannot evaluate is simply unknown
            return UNKNOWN
        varies = any(isinstance(v, values.StaticOf) for v in [*read, *parts.values()])
        return values.StaticOf(type(value), value) if varies and values.is_static(value) else value

    def _lazy_parts(self, expr: Any) -> tuple[Any, list[tuple[str, Any]]]:
        """``expr`` with its lazy parts cut out (``analysis.lazy``), and those parts."""
        found = self._split.get(id(expr))
        if found is None:
            parts: list[tuple[str, Any]] = []
            found = self._split[id(expr)] = (lazy.replace_lazy(expr, parts), parts)
        return found

    def _facts_of(self, expr: Any) -> tuple[set[str], bool | None]:
        nodes = list(gast.walk(expr))
        names = {n.id for n in nodes if isinstance(n, gast.Name)}
        on_values = any(
            isinstance(n, gast.Attribute)
            and isinstance(n.value, gast.Name)
            and n.value.id in self.env
            for n in nodes
        ) or any(_is_identity(n) for n in nodes)
        return names, None if on_values else self._safe(expr)

    def _safe(self, expr: Any) -> bool:
        """Whether evaluating ``expr`` has no effect: only NumPy functions (not random ones),
        pure builtins, tensor methods, and attributes that are plain values are involved. An
        ``is`` on a tensor is left to the runtime's ``is_``, which Python's ``is`` is not."""
        for node in gast.walk(expr):
            if _is_identity(node) and any(
                isinstance(n, gast.Name) and values.is_tensorish(self.env.get(n.id))
                for n in gast.walk(node)
            ):
                return False
            if isinstance(node, (gast.Lambda, gast.NamedExpr, gast.Await, gast.Yield)):
                return False
            if isinstance(node, gast.Call) and not self._safe_callee(node.func):
                return False
            if isinstance(node, gast.Attribute) and not self._plain_attribute(node):
                return False
        return True

    def _resolve(self, expr: Any) -> Any:
        """The object a name or dotted name refers to, or UNKNOWN."""
        if isinstance(expr, gast.Name):
            if expr.id in self.env:
                return self.env[expr.id]
            if expr.id in self.globals:
                return self.globals[expr.id]
            return _SAFE_BUILTINS.get(expr.id, UNKNOWN)
        if isinstance(expr, gast.Attribute):
            base = self._resolve(expr.value)
            if base is UNKNOWN or isinstance(base, tensor.TensorBase):
                return UNKNOWN
            try:
                return inspect.getattr_static(base, expr.attr)
            except AttributeError:
                return UNKNOWN
        return UNKNOWN

    def _safe_callee(self, func: Any) -> bool:
        if isinstance(func, gast.Attribute) and self._is_tensor_expr(func.value):
            return True  # a tensor method: it emits into the scratch graph
        target = self._resolve(func)
        if isinstance(func, gast.Name) and func.id in _SAFE_BUILTINS and func.id not in self.env:
            return func.id not in self.globals or self.globals[func.id] is _SAFE_BUILTINS[func.id]
        if target is UNKNOWN or not dispatch.is_numpy(target):
            return False
        module = target.__name__ if isinstance(target, pytypes.ModuleType) else ""
        module = module or getattr(target, "__module__", "") or ""
        return not str(module).startswith("numpy.random")

    def _is_tensor_expr(self, expr: Any) -> bool:
        return isinstance(expr, gast.Name) and isinstance(self.env.get(expr.id), tensor.TensorBase)

    def _plain_attribute(self, node: gast.Attribute) -> bool:
        """Reading ``node`` runs no user code: a module's, a tensor's, or a plain stored value."""
        if self._is_tensor_expr(node.value) or not isinstance(
            node.value, (gast.Name, gast.Attribute)
        ):
            return True
        base = self._resolve(node.value)
        if base is UNKNOWN or isinstance(base, pytypes.ModuleType):
            return True
        try:
            found = inspect.getattr_static(base, node.attr)
        except AttributeError:
            return True  # evaluation fails the same way: unknown
        return not hasattr(type(found), "__get__") or isinstance(
            found, (pytypes.FunctionType, pytypes.BuiltinFunctionType, type)
        )

    # ---- joining the values of a phi ---------------------------------------------------------
    def join(self, incoming: list[Any], test: Any) -> Any:
        """A phi's value: static if the inputs agree and the test is static, else a tensor."""
        known = [v for v in incoming if v is not PENDING]
        if not known:
            return PENDING
        if any(v is UNKNOWN for v in known) or test is UNKNOWN:
            return UNKNOWN
        if all(
            values.is_static(v) and not isinstance(v, values.StaticOf) and values.same(v, known[0])
            for v in known
        ):
            return known[0]  # the same static value on every path, whatever decides between them
        by_tensor = values.is_tensorish(test) or any(values.is_tensorish(v) for v in known)
        if not by_tensor:
            kinds = {v.kind if isinstance(v, values.StaticOf) else type(v) for v in known}
            return values.StaticOf(
                kinds.pop() if len(kinds) == 1 else object, values.example(known[0])
            )
        try:
            joined: types.ValueType = values.type_of(known[0])
            for v in known[1:]:
                joined = types.join(joined, values.type_of(v))
        except Exception:  # noqa: BLE001 - values with no common type are unknown here
            return UNKNOWN
        return self.scratch.add_input(joined)


class _Examples(collections.abc.Mapping[str, Any]):
    """The SSA values as an evaluation sees them: a static value of varying value by its example."""

    def __init__(self, env: dict[str, Any]):
        self.env = env

    def __getitem__(self, name: str) -> Any:
        return values.example(self.env[name])

    def __iter__(self) -> Any:
        return iter(self.env)

    def __len__(self) -> int:
        return len(self.env)


def _holds_object(value: Any) -> bool:
    """Whether ``value`` is, or holds, a user object."""
    if tensor.is_user_object(value):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_object(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_object(v) for v in value.values())
    return False


def infer(
    form: ssa.SSAForm,
    fn: Any,
    sig: signature.Signature,
    globals_: dict[str, Any],
    bound: tuple[Any, ...] = (),
) -> Inference:
    """The inferred type of every SSA value of ``fn`` (in SSA ``form``) called with ``sig``, and
    which of its control statements are decided by static values.

    Args:
      form: the SSA form of ``fn``.
      fn: the Python function, whose signature binds the call's arguments to its parameters.
      sig: the call's signature: tensor leaves become stand-ins, static values stay.
      globals_: the function's globals.
      bound: static arguments bound before the call's own (a method's ``self``).
    """
    scratch = builder_mod.GraphBuilder("inference")
    inference = _Inference(globals_, scratch)
    args, kwargs = sig.rebuild([scratch.add_input(t) for t in sig.input_types])
    try:
        binding = inspect.signature(fn, follow_wrapped=False).bind(*bound, *args, **kwargs)
    except TypeError:
        binding = None
    params = [d for d in form.definitions if d.kind == "param"]
    for d in params:
        found = binding.arguments.get(d.var, UNKNOWN) if binding is not None else UNKNOWN
        if _holds_object(found):
            found = UNKNOWN  # its attributes may be read as tensors (``staging.objects``)
        if d.var in form.written:
            found = _changing(inference, found)
        inference.env[d.name] = found
    for d in form.definitions:
        if d.kind != "param":
            inference.env[d.name] = PENDING
    previous: list[str] = []
    with warnings.catch_warnings():  # the expressions' own warnings come when the function runs
        warnings.simplefilter("ignore")
        for _ in range(_MAX_ROUNDS):
            for d in form.definitions:
                if d.kind != "param":
                    value = _evaluate_definition(inference, d)
                    if d.var in form.written:
                        value = _changing(inference, value)
                    inference.env[d.name] = value
            printed = [values.describe(inference.env[d.name]) for d in form.definitions]
            if printed == previous:
                break
            previous = printed
        else:  # no fixed point: claim nothing
            for d in form.definitions:
                if d.kind != "param":
                    inference.env[d.name] = UNKNOWN
    static = frozenset(i for i, c in enumerate(form.controls) if _decided_statically(inference, c))
    return Inference(
        {d.name: values.describe(inference.env[d.name]) for d in form.definitions}, static
    )


def _changing(inference: _Inference, value: Any) -> Any:
    """``value`` of a variable whose items are assigned: a concrete array is a stand-in of its
    type (lowering makes it a tensor, ``analysis.mutation``), and a list or dict is unknown (an
    item may become a tensor: ``d['loss'] = x.sum()``), so nothing is decided by the values it
    starts with."""
    if isinstance(value, np.ndarray):
        return inference.scratch.add_input(types.type_of(value))
    if isinstance(value, (list, dict)):
        return UNKNOWN
    return value


def _evaluate_definition(inference: _Inference, d: ssa.Definition) -> Any:
    if d.kind in ("phi", "loop-phi"):
        incoming = [inference.env.get(n, UNKNOWN) for n in d.incoming if n != ssa.UNDEF]
        return inference.join(incoming, inference.evaluate(d.test))
    if d.kind == "target":
        iterable = inference.evaluate(d.expr)
        if isinstance(values.example(iterable), range) and d.test is not None:
            # a break on a tensor makes the rest of a range a while_loop: its index a tensor
            test = inference.evaluate(d.test)
            if test is UNKNOWN or values.is_tensorish(test):
                return values.loop_item(values.TensorIterable(index_only=True), inference.scratch)
        return values.loop_item(iterable, inference.scratch)
    if d.kind == "append":
        target = inference.env.get(d.incoming[0], UNKNOWN)
        return values.append(target, inference.evaluate(d.expr), inference.scratch)
    return inference.evaluate(d.expr)


def _decided_statically(inference: _Inference, control: ssa.Control) -> bool:
    if control.kind == "for":
        iterable = inference.evaluate(control.iterable)
        if not values.is_static(iterable) or not values.python_iterable(iterable):
            return False
        if values.rolled(iterable):
            return False
        return control.test is None or values.is_static(inference.evaluate(control.test))
    test = inference.evaluate(control.test)
    if control.kind == "while" and isinstance(test, values.StaticOf):
        return False  # a Python counter: the runtime rolls a long loop up (``UNROLL_LIMIT``)
    return values.is_static(test)
