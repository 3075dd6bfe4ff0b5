"""The primitive registry: one definition per operation, used by tracing, execution and autodiff.

A ``Primitive`` bundles its NumPy kernel (``impl``), its type rule (output types from input types
and params), how the executor writes a call to it (``emit``), and a slot for its vector-Jacobian
product (``vjp``), registered by ``tograph.autodiff.rules``. Primitives are module-level constants
named ``<name>_p`` in ``tograph.ops``.

``prim.bind(*args)`` applies a primitive to whatever its arguments are (symbolic tensors emit an
equation, eager tensors run and record, plain values just run the kernel). Deciding that is the
tracing layer's job: ``tograph.trace.dispatch`` installs the binder with ``set_binder`` when it
is imported, so this module depends on nothing above it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from tograph.ir import types

TypeRule = Callable[..., "types.ValueType | tuple[types.ValueType, ...]"]


class EmitContext(Protocol):
    """What a primitive's ``emit`` may ask of the code generator."""

    def const(self, value: Any) -> str:
        """A name in the generated module bound to ``value``."""
        ...


Emitter = Callable[[EmitContext, Any, Sequence[str]], str]

REGISTRY: dict[str, Primitive] = {}

Binder = Callable[["Primitive", tuple[Any, ...], dict[str, Any]], Any]


def _kernel_only(prim: Primitive, args: tuple[Any, ...], params: dict[str, Any]) -> Any:
    return prim.impl(*args, **params)


_binder: Binder = _kernel_only


def set_binder(binder: Binder) -> None:
    """Installs what ``Primitive.bind`` calls (``tograph.trace.dispatch.bind``)."""
    global _binder
    _binder = binder


class Primitive:
    """One operation kind, e.g. ``add_p``; see module docstring.

    Args:
      name: printed name, unique in the registry.
      impl: NumPy kernel ``impl(*values, **params)``.
      type_rule: ``type_rule(*in_types, **params)`` returning the output type(s); raises a
        ``ToGraphError`` naming the shapes or dtypes when the inputs are invalid.
      emit: optional ``emit(ctx, eqn, arg_exprs) -> expression`` used by the executor's code
        generator (e.g. ``a + b`` instead of a call); default calls ``impl`` with the params.
      multiple_results: the kernel returns a tuple of outputs.
      effectful: the operation has effects (print, assert) and is never removed or reordered.
      layout: the memory layout of a result, where it matters (a reshape is a view only of a
        C-contiguous array): "C" for a new C-contiguous array, "K" for a new array laid out
        like its array operands (NumPy's ufuncs), None when unknown (views, say).
      views: the kernel may return a view of its first operand (or that operand itself), so a
        result may share memory with a graph input.
    """

    def __init__(
        self,
        name: str,
        impl: Callable[..., Any],
        type_rule: TypeRule,
        *,
        emit: Emitter | None = None,
        multiple_results: bool = False,
        effectful: bool = False,
        layout: str | None = None,
        views: bool = False,
    ):
        if name in REGISTRY:
            raise ValueError(f"primitive {name!r} is already registered")
        self.name = name
        self.impl = impl
        self.type_rule = type_rule
        self.emit = emit or self._emit_call
        self.multiple_results = multiple_results
        self.effectful = effectful
        self.layout = layout
        self.views = views
        self.vjp: Callable[..., Any] | None = None
        REGISTRY[name] = self

    def out_types(
        self, in_types: Sequence[types.ValueType], params: dict[str, Any]
    ) -> tuple[types.ValueType, ...]:
        """Output types as a tuple, whatever the arity of the rule's result."""
        out = self.type_rule(*in_types, **params)
        if self.multiple_results:
            return tuple(cast("tuple[types.ValueType, ...]", out))
        return (cast("types.ValueType", out),)

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive: emits an equation, records on the tape, or computes directly."""
        return _binder(self, args, params)

    def _emit_call(self, ctx: EmitContext, eqn: Any, args: Sequence[str]) -> str:
        params = sorted(eqn.params.items())
        pieces = list(args) + [f"{k}={param_expr(ctx, v)}" for k, v in params]
        return f"{ctx.const(self.impl)}({', '.join(pieces)})"

    def __repr__(self) -> str:
        return self.name


def param_expr(ctx: EmitContext, value: Any) -> str:
    """Source text for a param value: a literal when it round-trips, else a module constant."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float) and repr(value) not in ("nan", "inf", "-inf"):
        return repr(value)
    if isinstance(value, tuple) and all(v is None or isinstance(v, (bool, int)) for v in value):
        return repr(value)
    return ctx.const(value)
