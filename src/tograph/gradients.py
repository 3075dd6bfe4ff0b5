"""``grad`` and ``value_and_grad``: gradient functions of scalar functions.

Stage: autodiff (public API). Input: a function returning a scalar (a 0-d float array or a Python
float): a ``to_static`` function, a ``grad`` function, or a plain function (compiled on the fly).
Output: a ``GradFunction``, which works like a ``StaticFunction``: per argument signature it
builds (and caches) a ``ConcreteFunction`` whose graph computes the value and the gradients
(``vjp.gradient`` of the function's graph); ``.concrete(*args)`` shows it. A function that runs
eagerly (fallback) is differentiated on an eager tape instead (``tape.backward``).

A ``GradFunction`` called while a graph is being built inlines its gradient graph, and called on
eager values it runs on them, so ``grad(grad(f))`` and ``grad`` inside compiled code both work.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph import api, eager, errors, layout_check
from tograph import concrete as concrete_module
from tograph.autodiff import tape as tape_mod
from tograph.autodiff import vjp
from tograph.ir import pytree, types
from tograph.staging import build_graph, kinds
from tograph.trace import signature, tensor

Argnums = int | Sequence[int]


class GradFunction:
    """The gradient (and value) of a scalar function; see ``grad`` and ``value_and_grad``."""

    def __init__(self, fn: Callable[..., Any], argnums: Argnums, with_value: bool):
        target = fn if isinstance(fn, (api.StaticFunction, GradFunction)) else api.to_static(fn)
        self._target: api.StaticFunction | GradFunction = target
        self._argnums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        if not self._argnums or not all(isinstance(i, int) and i >= 0 for i in self._argnums):
            raise TypeError(
                f"argnums must be a non-negative int or a non-empty tuple of them, got {argnums!r}"
            )
        self._single = isinstance(argnums, int)
        self._with_value = with_value
        self.input_spec: Any = target.input_spec
        self._signature = inspect.signature(self._python(target))
        self._cache: dict[Any, concrete_module.ConcreteFunction] = {}
        # calls whose arguments are all NumPy arrays, by their types: the compiled graph's runner
        # and the generated check of that layout (``layout_check``), kept for the call after;
        # the check is generated when the layout is looked up again (None until then)
        self._flat: dict[
            tuple[Any, ...], tuple[Callable[[tuple[Any, ...]], Any], layout_check.Check | None]
        ] = {}
        self._repeated: layout_check.Check = layout_check.never
        params = self._signature.parameters.values()
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        self._arity = len(params) if all(p.kind in positional for p in params) else None
        functools.update_wrapper(self, self._python(target))
        prefix = "value_and_grad" if with_value else "grad"
        self.__name__ = f"{prefix}_{getattr(target, '__name__', 'f')}"

    @staticmethod
    def _python(fn: Any) -> Callable[..., Any]:
        """The user's function at the bottom of ``fn`` (a StaticFunction or GradFunction)."""
        return fn.python_function if isinstance(fn, api.StaticFunction) else fn._python(fn._target)

    # ---- calling ------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not kwargs:  # the layout of the last keyed call, checked without a key
            result = self._repeated(args)
            if result is not layout_check.MISS:
                return result
        flat = not kwargs and len(args) == self._arity
        if flat:  # the fast path of ``to_static``: arrays of types seen before
            try:
                key = tuple([(type(a), a.dtype, a.shape) for a in args])
            except AttributeError:
                flat = False
            else:
                entry = self._flat.get(key)
                if entry is not None:
                    runner, check = entry
                    if check is None:
                        check = layout_check.for_layout(args, runner)
                        self._flat[key] = (runner, check)
                    self._repeated = check
                    return runner(args)
        args = self._prepare(args)
        cf, tensors = self._lookup(args, kwargs)
        if flat and all(type(a) is np.ndarray for a in args) and len(tensors) == len(args):
            runner = cf.leaves_runner()
            if runner is not None and all(t is a for t, a in zip(tensors, args)):
                self._flat[key] = (runner, None)
        if any(isinstance(t, tensor.Symbolic) for t in tensors):
            return self._inline(cf, tensors)
        if any(isinstance(t, eager.EagerTensor) for t in tensors):
            if cf.graph is None:
                return cf.run(tensors, args, kwargs)
            outputs = tuple(tape_mod.run_eagerly(cf.graph, tensors))
            return cf.built.unflatten(outputs, tensors)  # type: ignore[union-attr]
        return eager.unwrap(cf.run(tensors, args, kwargs))

    def concrete(self, *args: Any, **kwargs: Any) -> concrete_module.ConcreteFunction:
        """The gradient's ``ConcreteFunction`` for these arguments (``.graph`` shows its graph)."""
        return self._lookup(self._prepare(args), kwargs)[0]

    def concrete_for(self, sig: signature.Signature) -> concrete_module.ConcreteFunction:
        """The gradient's ``ConcreteFunction`` for a signature, built on first use."""
        found = self._cache.get(sig.key)
        if found is None:
            found = self._build(sig)
            self._cache[sig.key] = found
        return found

    @property
    def concrete_functions(self) -> list[concrete_module.ConcreteFunction]:
        """Every gradient concrete function built so far, one per signature, oldest first."""
        return list(self._cache.values())

    def python_function(self, *args: Any, **kwargs: Any) -> Any:
        """The gradient computed eagerly, on a tape (what a fallback runs)."""
        watched_args = list(args)
        with eager.Tape() as tape:
            watched: list[Any] = []
            for i in self._argnums:
                leaves, tree = pytree.flatten(watched_args[i])
                leaves = [tape.watch(leaf) for leaf in leaves]
                watched_args[i] = tree.unflatten(leaves)
                watched += leaves
            value = self._target.python_function(*watched_args, **kwargs)
        _unwrap_stored((watched_args, kwargs))
        _check_output(types.type_of(eager.unwrap(value)), self.__name__)
        grads = tape_mod.backward(tape, value, watched)
        return self._result(
            value,
            grads,
            [len(pytree.flatten(args[i])[0]) for i in self._argnums],
            [pytree.flatten(args[i])[1] for i in self._argnums],
        )

    # ---- arguments ----------------------------------------------------------------------
    def _prepare(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """``args`` with Python floats and complexes at ``argnums`` made NumPy scalars; rejects
        other arguments."""
        fixed = list(args)
        names = list(self._signature.parameters)
        for i in self._argnums:
            if i >= len(args):
                raise TypeError(
                    f"{self.__name__}: argnums {i} is out of range for {len(args)} positional "
                    "arguments"
                )
            name = names[i] if i < len(names) else f"argument {i}"
            leaves, tree = pytree.flatten(args[i])
            fixed[i] = tree.unflatten([_float_leaf(leaf, name, self.__name__) for leaf in leaves])
        return tuple(fixed)

    def _lookup(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[concrete_module.ConcreteFunction, list[Any]]:
        bound_args, bound_kwargs, names = signature.bind(self._signature, args, kwargs)
        sig, tensors = _signature_of(bound_args, bound_kwargs, names, self.input_spec)
        return self.concrete_for(sig), tensors

    # ---- building -----------------------------------------------------------------------
    def _build(self, sig: signature.Signature) -> concrete_module.ConcreteFunction:
        inner = self._target.concrete_for(sig)
        if inner.graph is None or inner.built is None:
            return concrete_module.ConcreteFunction(self, sig, None, None, fallback=inner.fallback)
        if inner.built.reads or inner.built.attr_writes:
            reason = (
                "it reads or sets attributes of objects given to it; the tape differentiates it"
            )
            return concrete_module.ConcreteFunction(self, sig, None, None, fallback=reason)
        arg_trees = [sig.tree.children[0].children[i] for i in self._argnums]
        flat_wrt = [s for i in self._argnums for s in _input_slots(sig, i)]
        out_slot = _output_slot(inner, self.__name__)
        output = out_slot if isinstance(out_slot, int) else None
        grad = vjp.gradient(inner.graph, flat_wrt, output, self.__name__)
        first = 0 if output is None else 1
        grad_slots = list(range(first, first + len(flat_wrt)))
        value_slot = 0 if output is not None else out_slot
        tree, slots = self._layout(
            value_slot, grad_slots, [t.num_leaves for t in arg_trees], arg_trees
        )
        built = build_graph.BuiltGraph(grad.graph, tree, tuple(slots))
        return concrete_module.ConcreteFunction(self, sig, None, built, gradient=True)

    def _layout(
        self, value: Any, grads: list[Any], counts: list[int], trees: list[pytree.TreeDef]
    ) -> tuple[pytree.TreeDef, list[Any]]:
        """Result structure and leaves: ``value``, then ``grads`` shaped like the arguments."""
        result = self._result(value, grads, counts, trees)
        leaves, tree = pytree.flatten(result)
        return tree, leaves

    def _result(
        self, value: Any, grads: list[Any], counts: list[int], trees: list[pytree.TreeDef]
    ) -> Any:
        it = iter(grads)
        per_arg = [tree.unflatten([next(it) for _ in range(n)]) for n, tree in zip(counts, trees)]
        shaped = per_arg[0] if self._single else tuple(per_arg)
        return (value, shaped) if self._with_value else shaped

    def _inline(self, cf: concrete_module.ConcreteFunction, tensors: list[Any]) -> Any:
        if cf.graph is None or cf.built is None:
            raise errors.UnsupportedError(
                f"{self.__name__} runs eagerly ({cf.fallback}), so it cannot be part of a graph",
                construct="gradient of an eager function",
            )
        return cf.built.unflatten(tuple(vjp.inline(cf.graph, tensors)), tensors)

    def __repr__(self) -> str:
        return f"<GradFunction {self.__name__} argnums={self._argnums}>"


def grad(fn: Callable[..., Any], argnums: Argnums = 0) -> Any:
    """The gradient of ``fn``, a function returning a scalar, with respect to ``argnums``.

    Args:
      fn: a ``to_static`` function, a ``grad`` function or a plain Python function.
      argnums: the positional argument(s) to differentiate with respect to: an int, or a tuple
        (the gradients are then a tuple too). Each is a float or complex array, a Python float
        or complex, or a nested list, tuple or dict of them (its gradient has the same
        structure). The gradient with respect to a complex ``z = x + iy`` is
        ``dL/dx - i dL/dy``, as in JAX (``tograph.autodiff.complex_rules``).

    Returns:
      A ``GradFunction``: call it like ``fn``; each gradient has its argument's dtype and shape.
      For a ``functools.partial`` (or ``to_static`` of one), a partial of the gradient of its
      function, ``argnums`` counting the arguments the partial still takes.

    Raises (when called):
      DTypeError: an argument at ``argnums`` is not a float or complex value (naming it), or
        ``fn`` returns a non-float value.
      ShapeError: ``fn`` does not return a scalar.
    """
    return _gradient(fn, argnums, with_value=False)


def value_and_grad(fn: Callable[..., Any], argnums: Argnums = 0) -> Any:
    """Like ``grad``, but the gradient function returns ``(value, gradients)``."""
    return _gradient(fn, argnums, with_value=True)


def _gradient(fn: Any, argnums: Argnums, with_value: bool) -> Any:
    """A ``GradFunction``; of a partial, the partial of its function's gradient."""
    if isinstance(fn, functools.partial) and not isinstance(fn, api.PartialFunction):
        fn = api.to_static(fn)
    if isinstance(fn, api.PartialFunction):
        frozen = len(fn.args)
        shifted = (  # anything but an index is left for GradFunction to reject
            _shift(argnums, frozen)
            if isinstance(argnums, int)
            else tuple(_shift(i, frozen) for i in argnums)
        )
        inner = _gradient(fn.func, shifted, with_value)
        return api.PartialFunction(inner, *fn.args, **fn.keywords)
    return GradFunction(fn, argnums, with_value)


# ---- helpers -----------------------------------------------------------------------------


def _shift(argnum: Any, by: int) -> Any:
    return argnum + by if isinstance(argnum, int) and argnum >= 0 else argnum


def _float_leaf(leaf: Any, name: str, fn_name: str) -> Any:
    if isinstance(leaf, float) and not isinstance(leaf, np.floating):
        return np.float64(leaf)
    if isinstance(leaf, complex) and not isinstance(leaf, np.complexfloating):
        return np.complex128(leaf)
    kind = (
        leaf.type.dtype.kind
        if isinstance(leaf, tensor.TensorBase)
        else getattr(leaf, "dtype", np.dtype(object)).kind
    )
    if isinstance(leaf, (bool, int)) or kind not in "fc":
        described = (
            f"{type(leaf).__name__} {leaf!r}"
            if types.is_python_scalar(leaf) or kind == "O"
            else str(leaf.type if isinstance(leaf, tensor.TensorBase) else types.type_of(leaf))
        )
        raise errors.DTypeError(
            f"{fn_name}: cannot differentiate with respect to argument '{name}', which is "
            f"{described}: "
            "gradients are defined for float and complex arguments only",
            hint=f"pass '{name}' as floats (np.asarray({name}, float)) or leave it out of argnums",
        )
    return leaf


def _output_slot(cf: concrete_module.ConcreteFunction, fn_name: str) -> Any:
    """Where the differentiated function's result is: a graph output index or a ``Static``."""
    built = cf.built
    slot = None
    if built is not None and built.out_tree.kind is None:
        slot = built.out_slots[0]
    elif built is not None and built.out_tree.kind is kinds.Boxed:
        slot = built.out_slots[1]  # a scalar whose kind depends on the path: its value
    if isinstance(slot, build_graph.Tagged):
        slot = slot.value  # an argument on some paths: its value is the output
    if slot is None:
        raise errors.ShapeError(
            f"{fn_name}: the function must return one scalar (a 0-d float array or a Python float)"
        )
    if isinstance(slot, int):
        _check_output(cf.graph.outputs[slot].type, fn_name)  # type: ignore[union-attr]
    elif not types.is_python_scalar(slot.value) and not isinstance(slot.value, np.generic):
        raise errors.ShapeError(
            f"{fn_name}: the function must return a scalar, but it returns {slot.value!r}"
        )
    return slot


def _check_output(t: types.TensorType, fn_name: str) -> None:
    """The differentiated function must return a float scalar."""
    if t.shape != ():
        raise errors.ShapeError(
            f"{fn_name}: the function must return a scalar, but it returns a {t} array",
            hint="reduce it first, e.g. with np.sum(...) or np.mean(...)",
        )
    if t.dtype.kind != "f":
        raise errors.DTypeError(
            f"{fn_name}: the function must return a float scalar, but it returns {t}"
        )


def _input_slots(sig: signature.Signature, argnum: int) -> list[int]:
    """The graph inputs holding the leaves of positional argument ``argnum``."""
    args_tree = sig.tree.children[0]
    start = sum(c.num_leaves for c in args_tree.children[:argnum])
    slots = sig.slots[start : start + args_tree.children[argnum].num_leaves]
    found = [s for s in slots if isinstance(s, int)]
    if len(found) != len(slots):
        raise errors.InternalError(f"a float leaf of argument {argnum} is not a graph input")
    return found


def _signature_of(
    args: tuple[Any, ...], kwargs: dict[str, Any], names: list[str], input_spec: Any
) -> tuple[signature.Signature, list[Any]]:
    """``signature.make_signature``, also for symbolic and eager tensors among the arguments.

    Those are typed by their own type (a view of the right shape stands in for them while the
    signature is made); the key then differs from plain arrays' keys, so they never share a graph.
    """
    leaves, tree = pytree.flatten((list(args), kwargs))
    typed = {i: leaf for i, leaf in enumerate(leaves) if isinstance(leaf, tensor.TensorBase)}
    if not typed:
        return signature.make_signature(args, kwargs, names, input_spec)
    stand_ins = [_stand_in(leaf.type) if i in typed else leaf for i, leaf in enumerate(leaves)]
    stand_args, stand_kwargs = tree.unflatten(stand_ins)
    sig, tensors = signature.make_signature(tuple(stand_args), stand_kwargs, names, input_spec)
    in_types = list(sig.input_types)
    for i, slot in enumerate(sig.slots):
        if i in typed and isinstance(slot, int):
            in_types[slot] = typed[i].type
            tensors[slot] = typed[i]
    key = ("typed", sig.key, tuple(in_types))
    return dataclasses.replace(sig, key=key, input_types=tuple(in_types)), tensors


def _stand_in(t: types.TensorType) -> np.ndarray:
    return np.broadcast_to(np.zeros((), t.dtype), tuple(0 if d is None else d for d in t.shape))


def _unwrap_stored(arguments: Any) -> None:
    """Replaces the tape's tensors that the function stored in the lists and dicts of its
    arguments (``history.append(loss)``) with their values, as the eager run leaves them."""
    pending, seen = [arguments], set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if type(node) is list:
            node[:] = [eager.unwrap(v) if isinstance(v, eager.EagerTensor) else v for v in node]
            pending.extend(node)
        elif type(node) is dict:
            node.update(
                {k: eager.unwrap(v) for k, v in node.items() if isinstance(v, eager.EagerTensor)}
            )
            pending.extend(node.values())
        elif type(node) is tuple:
            pending.extend(node)
