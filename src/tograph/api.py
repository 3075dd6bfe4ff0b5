"""The public entry point ``to_static``; the only place where eager fallback is decided.

``to_static(fn)`` returns a ``StaticFunction``. Calling it looks up (or builds) the
``ConcreteFunction`` for the arguments' signature: the graph of the converted function for those
tensor types and static values, optimised and compiled. When conversion or graph building meets a
construct tograph cannot handle, the function runs eagerly instead, with a ``FallbackWarning``
naming the construct and its ``file:line`` (or a ``ConversionError`` with ``fallback="error"``).

Any callable can be given: a function (a ``functools.wraps`` wrapper is its own code), a bound
method, an object with a Python ``__call__`` (the bound ``__call__`` is compiled), or a
``functools.partial`` (a ``PartialFunction``: its function compiled, the frozen arguments passed
first on every call, arrays as tensor inputs and other values static). A callable with no Python
code (a builtin, a ufunc, a class) runs eagerly, with the reason.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import inspect
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from tograph import caching, concrete, eager, errors, layout_check, origin
from tograph.analysis import types as type_inference
from tograph.backend import backends
from tograph.ir import pytree
from tograph.ir import types as types_mod
from tograph.lowering import convert
from tograph.staging import build_graph, objects, runtime
from tograph.trace import signature, tensor

TensorSpec = signature.TensorSpec
_FALLBACK_MODES = ("warn", "error", "silent")
_RETRACE_LIMIT = 8
_SIGNATURE_LIMIT = 64  # signatures whose concrete functions are kept (least recently used go)
_FAST_LIMIT = 256  # call layouts whose runners the fast path keeps
_MAX_LIFTS = 4


class StaticFunction:
    """A function compiled to graphs, one per argument signature; see ``to_static``."""

    def __init__(
        self,
        fn: Callable[..., Any],
        input_spec: Sequence[Any] | None,
        fallback: str,
        backend: str = "numpy",
    ):
        if fallback not in _FALLBACK_MODES:
            raise ValueError(f"fallback must be one of {_FALLBACK_MODES}, got {fallback!r}")
        backends.check_backend(backend)
        self.backend = backend
        self.python_function = fn
        self.__tograph_python_function__ = fn
        self.input_spec = tuple(input_spec) if input_spec is not None else None
        self.fallback_mode = fallback
        self._signature = _signature(fn)
        # per signature key, the concrete functions traced for it: more than one when they read
        # object attributes that differ between calls (each has its guards, ``objects.Read``)
        self._cache: caching.LRU[Any, list[concrete.ConcreteFunction]] = caching.LRU(
            _SIGNATURE_LIMIT
        )
        # attributes holding Python numbers that the function changes: read as tensors
        self._lifted: set[tuple[Any, str]] = set()
        # Calls with positional arrays and Python scalars only skip signature binding: keyed by
        # their dtypes, shapes and values, they go straight to the compiled graph.
        self._fast: caching.LRU[tuple[Any, ...], Callable[[list[Any]], Any]] = caching.LRU(
            _FAST_LIMIT
        )
        # Arrays only: per layout, the runner and the generated check of that layout, which
        # serves a call repeating the layout last looked up without building its key. The check
        # is generated when the layout is looked up again (None until then): most functions
        # converted are called once per layout.
        self._flat: caching.LRU[
            tuple[Any, ...], tuple[Callable[[tuple[Any, ...]], Any], layout_check.Check | None]
        ] = caching.LRU(_FAST_LIMIT)
        self._repeated: layout_check.Check = layout_check.never
        # Set when the function's code itself cannot be converted (a construct tograph does not
        # handle, no source): every call runs the function as it is, without a lookup.
        self._eager_only = False
        # Calls that take objects, dicts or lists (or need their arguments: attribute writes,
        # container writes) skip binding and the signature when their argument layout
        # (``_layout_key``) was seen: keyed by it, the concrete functions of its signature,
        # whose guards are checked at each call as ``_lookup`` checks them. As many as there
        # are signatures: each keeps its signature's static values (objects) alive.
        self._layouts: caching.LRU[tuple[Any, ...], list[concrete.ConcreteFunction]] = caching.LRU(
            _SIGNATURE_LIMIT
        )
        params = self._signature.parameters.values()
        # The fast path needs every parameter given positionally (no defaults filled in).
        self._fast_arity = (
            None
            if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
            else len(params)
        )
        self._last: concrete.ConcreteFunction | None = None
        self._traces = 0
        self._next_retrace_warning = _RETRACE_LIMIT + 1
        functools.update_wrapper(self, fn)

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        return BoundStaticFunction(self, instance)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._eager_only:
            return self.python_function(*args, **kwargs)
        if not kwargs:  # the arrays' layout of the last keyed call, checked without a key
            result = self._repeated(args)
            if result is not layout_check.MISS:
                return result
        fast = not kwargs and len(args) == self._fast_arity
        if fast and any(tensor.computes_attributes(type(a)) for a in args):
            fast = False  # a.dtype would run the class's own __getattr__
        if fast:
            try:  # all arguments arrays: the quickest key
                layout = tuple([(type(a), a.dtype, a.shape) for a in args])
            except AttributeError:
                pass
            else:
                entry = self._flat.get(layout)
                if entry is not None:
                    runner, check = entry
                    if check is None:
                        check = layout_check.for_layout(args, runner)
                        self._flat[layout] = (runner, check)
                    self._repeated = check
                    return runner(args)
        key: list[Any] = []
        leaves: list[Any] = []
        simple = fast and _fast_key(args, key, leaves)
        if simple:
            runner = self._fast.get(tuple(key))
            if runner is not None:
                return runner(leaves)
        call_layout: list[Any] = []
        arrays: list[Any] = []
        fast = fast and self.input_spec is None and _layout_key(args, call_layout, arrays, {})
        if fast:
            candidates = self._layouts.get(tuple(call_layout))
            if candidates is not None:
                root = (args, {}, self._bound())
                for cf in candidates:
                    extra = cf.guard_inputs(root)
                    if extra is not None:
                        self._last = cf
                        return cf.run(arrays + extra, args, {}, root)
        if _holds_eager_tensors((args, kwargs)):
            # On tensors an eager tape is recording (a GradientTape, or the tape under a
            # gradient of a function that runs eagerly) the function runs eagerly too, so the
            # tape records each operation: a graph would take their values as constants.
            return self.python_function(*args, **kwargs)
        cf, tensors, root = self._lookup(args, kwargs)
        runner = cf.leaves_runner() if simple else None
        if runner is not None and _same_objects(leaves, tensors):
            if _same_objects(leaves, args):
                layout = tuple((type(a), a.dtype, a.shape) for a in args)
                self._flat[layout] = (runner, None)
            self._fast[tuple(key)] = runner
        if fast:
            # the concrete functions of this signature, tried in the order _lookup tries them
            self._layouts[tuple(call_layout)] = self._cache.get(cf.signature.key) or [cf]
        return cf.run(tensors, args, kwargs, root)

    def concrete(self, *args: Any, **kwargs: Any) -> concrete.ConcreteFunction:
        """The ``ConcreteFunction`` for these arguments' types (compiled, not run)."""
        return self._lookup(args, kwargs)[0]

    def _lookup(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[concrete.ConcreteFunction, list[Any], tuple[Any, Any, Any]]:
        """The concrete function for a call, its graph inputs (the tensor leaves of the
        arguments, then those its guards read from objects) and the call's ``(args, kwargs,
        bound)``, bound to the parameters once for the lookup and the run."""
        try:
            bound_args, bound_kwargs, names = signature.bind(self._signature, args, kwargs)
        except TypeError:
            python = signature.binding_error(self.python_function, args, kwargs)
            if python is None:
                raise
            raise python from None
        sig, tensors = signature.make_signature(bound_args, bound_kwargs, names, self.input_spec)
        root = (bound_args, bound_kwargs, self._bound())
        for cf in self._cache.get(sig.key) or ():
            extra = cf.guard_inputs(root)
            if extra is not None:
                self._last = cf
                return cf, tensors + extra, root
        cf = self._traced(sig)
        extra = cf.guard_inputs(root)
        if extra is None:
            raise errors.InternalError(f"a new graph of {cf.signature} does not fit its call")
        return cf, tensors + extra, root

    def concrete_for(self, sig: signature.Signature) -> concrete.ConcreteFunction:
        """The ``ConcreteFunction`` for a signature the caller made (``tograph.autodiff`` does);
        of those that read object attributes, the one traced first."""
        found = self._cache.get(sig.key)
        if found:
            self._last = found[0]
            return found[0]
        return self._traced(sig)

    def _traced(self, sig: signature.Signature) -> concrete.ConcreteFunction:
        found = self._trace(sig)
        self._add(found)
        self._check_retracing()
        self._last = found
        return found

    def _add(self, cf: concrete.ConcreteFunction) -> None:
        """Keeps ``cf`` (traced here, or elsewhere and loaded) for calls of its signature."""
        self._cache.setdefault(cf.signature.key, []).append(cf)

    def _bound(self) -> tuple[Any, ...]:
        """The object ``to_static(obj.method)`` bound, as a one-element tuple (else empty)."""
        fn = self.python_function
        return (fn.__self__,) if isinstance(fn, types.MethodType) else ()

    @property
    def concrete_functions(self) -> list[concrete.ConcreteFunction]:
        """The concrete functions kept: those of the 64 signatures called most recently (traced
        or loaded), least recently called first."""
        return [cf for found in self._cache.values() for cf in found]

    def map(
        self,
        iterable: Iterable[Any],
        *,
        client: Any = None,
        batch: int | None = None,
        progress: bool | None = None,
    ) -> list[Any]:
        """This function called on every item of ``iterable`` (a tuple is the positional
        arguments, anything else the one argument) on a ``dask.distributed`` cluster: the given
        ``client``'s, or a ``LocalCluster`` started and closed for the call. Returns the results
        in order, equal to local calls'. ``tograph.distributed.map_calls`` has the details.
        """
        return _distributed().map_calls(
            self, iterable, client=client, batch=batch, progress=progress
        )

    def map_futures(
        self, iterable: Iterable[Any], *, client: Any = None, batch: int | None = None
    ) -> list[Any]:
        """As ``map``, without waiting: one ``distributed.Future`` per item, in order, on
        ``client`` (by default the current one). See ``tograph.distributed.map_futures``."""
        return _distributed().map_futures(self, iterable, client=client, batch=batch)

    @property
    def code(self) -> str | None:
        """The generated source of the most recent concrete function."""
        return None if self._last is None else self._last.code

    def _trace(self, sig: signature.Signature) -> concrete.ConcreteFunction:
        """The compiler's stages in order: analyse, infer, lower, build; then optimise and
        generate code (``ConcreteFunction``).

        Whatever stops any of them makes the function run eagerly, with the reason: a construct
        tograph cannot convert, and any other error, since the eager run then either works or
        raises the error the plain function raises, where a traceback from inside the compiler
        would help no one.
        """
        fn = self.python_function
        bound = self._bound()
        if sig.refuse is not None:
            return self._fallback(sig, errors.UnsupportedError(sig.refuse, construct="argument"))
        try:
            with _collection_paused():
                analysis = convert.analyze(fn)
        except errors.UnsupportedError as exc:  # the code itself, whatever the arguments
            found = self._fallback(sig, exc)
            self._eager_only = True
            return found
        except RecursionError as exc:
            return self._fallback(sig, _too_deep(fn, exc))
        except Exception as exc:  # noqa: BLE001 - see the docstring
            return self._fallback(sig, exc)
        try:
            with _collection_paused():
                inferred = None
                if analysis.has_controls:
                    inferred = type_inference.infer(analysis.ssa, fn, sig, fn.__globals__, bound)
                decided = inferred.static_controls if inferred is not None else frozenset()
                conversion = convert.lower(fn, decided, _sequence_params(self._signature, sig))
            # the user's code runs here, with the collector as the program has it
            lowered = conversion.instantiate(fn, runtime)
            built = self._build(fn.__name__, lowered, sig, _outside(fn, sig, bound), bound)
            with _collection_paused():
                return concrete.ConcreteFunction(
                    self, sig, conversion, built, analysis, inferred, backend=self.backend
                )
        except RecursionError as exc:
            return self._fallback(sig, _too_deep(fn, exc))
        except Exception as exc:  # noqa: BLE001 - see the docstring
            return self._fallback(sig, exc)

    def _build(
        self,
        name: str,
        lowered: Callable[..., Any],
        sig: signature.Signature,
        outside: frozenset[int],
        bound: tuple[Any, ...],
    ) -> build_graph.BuiltGraph:
        """``build_graph``, again with the attributes each trace shows to change as tensors."""
        for _ in range(_MAX_LIFTS):
            try:
                return build_graph.build_graph(
                    name, lowered, sig, outside, bound=bound, lifted=frozenset(self._lifted)
                )
            except objects.Relift as relift:
                self._lifted.update(relift.attributes)
        raise errors.UnsupportedError(
            "object attributes holding Python numbers keep changing kind while traced",
            construct="object attributes",
        )

    def _fallback(self, sig: signature.Signature, exc: Exception) -> concrete.ConcreteFunction:
        located = getattr(exc, "loc", None)
        loc = located or origin.traceback_location(exc.__traceback__)
        construct = getattr(exc, "construct", "") or type(exc).__name__
        where = f" ({loc})" if loc is not None else ""
        if isinstance(exc, errors.ToGraphError):
            problem = exc.message
        else:
            problem = f"tracing raised {type(exc).__name__}: {exc}"
        reason = f"{problem}{where}"
        name = _qualname(self.python_function)
        message = f"{name} runs eagerly: {reason}"
        if self.fallback_mode == "error":
            raise errors.ConversionError(f"cannot convert {name}: {problem}", loc=loc) from exc
        warning = f"{message} [construct: {construct}]" if self.fallback_mode == "warn" else None
        if warning is not None and isinstance(exc, (errors.UnsupportedError, errors.TracerError)):
            origin.warn(warning, errors.FallbackWarning)
            warning = None
        # Any other error raised while tracing is often the plain function's own (a failed
        # assert on static values, shapes that do not fit): warned about only once the eager
        # run shows it is not.
        cf = concrete.ConcreteFunction(self, sig, None, None, fallback=reason)
        cf.pending_warning = warning
        return cf

    def _check_retracing(self) -> None:
        """Warns when the traces reach 9, 18, 36, ...: each time their number doubles."""
        self._traces += 1
        count = self._traces
        if count >= self._next_retrace_warning:
            self._next_retrace_warning *= 2
            origin.warn(
                f"{_qualname(self.python_function)} has been traced {count} times for "
                "different argument types or static values; pass arrays instead of Python numbers, "
                "or give input_spec with None dims",
                errors.RetracingWarning,
            )


def _signature(fn: Any) -> inspect.Signature:
    """The parameters of the code that runs (a ``functools.wraps`` wrapper's own, not those of the
    function it wraps); ``(*args, **kwargs)`` for a callable Python cannot describe."""
    try:
        return inspect.signature(fn, follow_wrapped=False)
    except (TypeError, ValueError):
        kinds = [
            ("args", inspect.Parameter.VAR_POSITIONAL),
            ("kwargs", inspect.Parameter.VAR_KEYWORD),
        ]
        return inspect.Signature([inspect.Parameter(name, kind) for name, kind in kinds])


def _sequence_params(fn_sig: inspect.Signature, sig: signature.Signature) -> frozenset[str]:
    """The parameters (of ``fn_sig``) that hold a list or tuple in calls of ``sig`` (a
    ``*args`` always does): NumPy would read one holding tensors as one array, so their NumPy
    calls go through the runtime (``lowering.canonicalize``)."""
    params = list(fn_sig.parameters.values())
    args, kwargs = sig.tree.children
    found = {p.name for p in params if p.kind is p.VAR_POSITIONAL}
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for name, tree in zip(positional, args.children):
        if tree.kind in (list, tuple):
            found.add(name)
    for name, tree in zip(kwargs.meta or (), kwargs.children):
        if tree.kind in (list, tuple):
            found.add(name)
    return frozenset(found)


def _qualname(fn: Any) -> str:
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn))


def _python_callable(fn: Any) -> Any:
    """The Python function or bound method to compile for ``fn``: a ``StaticFunction``'s own
    function, an object's bound ``__call__``; ``fn`` itself otherwise."""
    if isinstance(fn, StaticFunction):
        return fn.python_function
    if isinstance(fn, BoundStaticFunction):
        return types.MethodType(fn.__func__.python_function, fn.__self__)
    if isinstance(fn, (types.FunctionType, types.MethodType, type)) or not callable(fn):
        return fn
    call = type(fn).__call__
    if isinstance(call, (types.FunctionType, StaticFunction)):
        return _python_callable(fn.__call__)
    return fn


# tograph.distributed, which sits above this layer, installs itself here when tograph is imported.
_DISTRIBUTED: Any = None


def set_distributed(module: Any) -> None:
    """Installs what ``StaticFunction.map`` and ``map_futures`` call (``tograph.distributed``)."""
    global _DISTRIBUTED
    _DISTRIBUTED = module


def _distributed() -> Any:
    if _DISTRIBUTED is None:
        raise errors.InternalError("tograph.distributed did not install itself")
    return _DISTRIBUTED


def _outside(fn: Any, sig: signature.Signature, bound: tuple[Any, ...]) -> frozenset[int]:
    """``id`` of the objects that exist outside ``fn``'s call: its globals, closure values, the
    static arguments (an array among them returned by the function is returned itself)."""
    values = [*fn.__globals__.values(), *bound]
    values.extend(cell.cell_contents for cell in (fn.__closure__ or ()) if _bound_cell(cell))
    values.extend(s.value for s in sig.slots if isinstance(s, signature.Static))
    return frozenset(map(id, values))


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while the compiler's own stages run (not while
    the user's function is traced: its code sees the collector as the program set it).

    Converting, optimising and generating code allocate many objects that live on (trees,
    graphs, code), and each collection those allocations trigger walks the whole heap to free
    nothing: on long functions that was a sixth of the compile time. Cycles made meanwhile are
    collected afterwards, as usual.
    """
    if not gc.isenabled():  # held off already (an enclosing compile, or the program's choice)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _too_deep(fn: Any, exc: RecursionError) -> errors.UnsupportedError:
    """The reason for a RecursionError while converting ``fn``: a recursion of the user's
    (at the line of the call that recursed) or code nested too deeply for the compiler's tree
    walks (at the function's first line)."""
    loc = origin.traceback_location(exc.__traceback__)
    if loc is not None:
        reason = "recursion too deep to trace (a recursion whose end depends on tensors?)"
        return errors.UnsupportedError(reason, loc=loc, construct="recursion")
    reason = "code nested too deeply to convert (an if/elif chain of hundreds of arms?)"
    return errors.UnsupportedError(reason, loc=origin.definition(fn), construct="nesting depth")


def _bound_cell(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


def _holds_eager_tensors(tree: Any) -> bool:
    return any(isinstance(leaf, eager.EagerTensor) for leaf in pytree.flatten(tree)[0])


def _fast_key(values: Any, key: list[Any], leaves: list[Any]) -> bool:
    """Appends to ``key`` the layout of ``values`` (arrays by dtype and shape, Python numbers by
    value, lists and tuples by length) and to ``leaves`` its arrays, in signature order; False for
    anything else, which takes the full signature path."""
    for a in values:
        kind = type(a)
        if kind is np.ndarray or isinstance(a, np.generic):
            if not tensor.is_array_value(a):
                return False
            key.append((kind, a.dtype, a.shape))
            leaves.append(a)
        elif kind is float:
            key.append((kind, a.hex()))  # -0.0 and 0.0 differ; every NaN is one key
        elif kind in (int, bool, str) or a is None:
            key.append((kind, a))
        elif kind is list or kind is tuple:
            key.append((kind, len(a)))
            if not _fast_key(a, key, leaves):
                return False
        else:
            return False
    return True


def _same_objects(these: Sequence[Any], those: Sequence[Any]) -> bool:
    """Whether two sequences hold the very same objects, in order."""
    return len(these) == len(those) and all(x is y for x, y in zip(these, those))


_STATIC_KINDS = (int, float, bool, complex, str, bytes, type(None))


def _layout_key(
    values: Any,
    key: list[Any],
    arrays: list[Any],
    seen: dict[int, int],
    containers: set[int] | None = None,
) -> bool:
    """Appends to ``key`` what ``signature.make_signature`` keys ``values`` by (list and tuple
    lengths, dict keys; arrays by type, dtype, shape, layout and the earlier array they are;
    Python values and user objects by ``static_key``) and to ``arrays`` the tensor leaves, in
    signature order: equal keys are calls of one signature (its objects are kept alive by the
    concrete functions stored under the key, so an ``id`` in it names one object). False for
    anything else (a dask array, an ndarray subclass, a namedtuple, an eager tensor, a list or
    dict met twice: ``containers`` holds those met), which takes the full signature path."""
    containers = set() if containers is None else containers
    for a in values:
        kind = type(a)
        if kind is np.ndarray or isinstance(a, np.generic):
            if a.dtype.kind not in "biufc":  # not a graph input (tensor.is_array_value)
                return False
            layout = signature.layout_of(a)
            twin = seen.get(id(a)) if kind is np.ndarray else None
            seen.setdefault(id(a), len(arrays))
            key.append((kind, a.dtype, a.shape, layout, twin))
            arrays.append(a)
        elif kind in _STATIC_KINDS:
            key.append(signature.static_key(a))
        elif kind is list or kind is tuple:
            if kind is list and id(a) in containers:
                return False  # one list passed twice: the signature refuses it
            containers.add(id(a))
            key.append((kind, len(a)))
            if not _layout_key(a, key, arrays, seen, containers):
                return False
        elif kind is dict:
            if id(a) in containers:
                return False
            containers.add(id(a))
            key.append((kind, tuple(a)))
            if not _layout_key(a.values(), key, arrays, seen, containers):
                return False
        elif tensor.is_user_object(a) and not pytree.is_node(a) and not types_mod.is_dask_array(a):
            key.append(signature.static_key(a))
        else:
            return False
    return True


class PartialFunction(functools.partial):  # type: ignore[type-arg]
    """``to_static(functools.partial(f, *args, **keywords))``: a partial of ``to_static(f)``.

    Calling it calls the compiled ``f`` with the frozen arguments first, as the partial would: the
    frozen arrays are tensor inputs (the graph reads them on every call, so later writes to them
    show), other frozen values are static. ``concrete`` shows the graph for a call.
    """

    @property
    def python_function(self) -> Any:
        """The partial of the user's function (what runs eagerly)."""
        return functools.partial(self.func.python_function, *self.args, **self.keywords)

    @property
    def input_spec(self) -> Any:
        return self.func.input_spec

    def concrete(self, *args: Any, **kwargs: Any) -> concrete.ConcreteFunction:
        return self.func.concrete(*self.args, *args, **{**self.keywords, **kwargs})

    @property
    def concrete_functions(self) -> list[concrete.ConcreteFunction]:
        return list(self.func.concrete_functions)


class BoundStaticFunction:
    """A ``StaticFunction`` used as a method: ``obj.method`` with ``obj`` as a static argument."""

    def __init__(self, function: StaticFunction, instance: Any):
        self.__func__ = function
        self.__self__ = instance
        self.__tograph_python_function__ = function.python_function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__func__(self.__self__, *args, **kwargs)

    def concrete(self, *args: Any, **kwargs: Any) -> concrete.ConcreteFunction:
        return self.__func__.concrete(self.__self__, *args, **kwargs)

    @property
    def code(self) -> str | None:
        return self.__func__.code


def to_static(
    fn: Callable[..., Any] | None = None,
    *,
    input_spec: Sequence[Any] | None = None,
    fallback: str = "warn",
    backend: str = "numpy",
) -> Any:
    """Compiles ``fn`` into static graphs; usable as ``@to_static`` or ``@to_static(...)``.

    Args:
      fn: a function, method, nested function, closure or lambda; an object with a ``__call__``
        method; a ``functools.partial`` of any of these (see the module docstring).
      input_spec: per positional argument, a ``TensorSpec`` (None dims are dynamic) or None.
      fallback: when ``fn`` cannot be converted: "warn" (run eagerly with a FallbackWarning),
        "error" (raise ConversionError) or "silent" (run eagerly).
      backend: what runs the graphs: "numpy" (generated Python over NumPy kernels), "numba"
        (compiled by numba where every operation has an exact numba form, else NumPy: the
        concrete function's ``backend_note`` says why) or "auto" (numba for loops over scalars
        and small arrays when numba is installed, else NumPy). See ``tograph.backend.backends``.

    Returns:
      A ``StaticFunction`` (a ``PartialFunction`` for a partial), or a decorator making one.

    Raises:
      ImportError: ``backend="numba"`` without numba installed (``pip install "tograph[numba]"``).
    """

    def decorate(f: Callable[..., Any]) -> Any:
        if isinstance(f, functools.partial):
            frozen = (None,) * len(f.args)
            spec = None if input_spec is None else (*frozen, *input_spec)
            inner = to_static(f.func, input_spec=spec, fallback=fallback, backend=backend)
            return PartialFunction(inner, *f.args, **f.keywords)
        return StaticFunction(_python_callable(f), input_spec, fallback, backend)

    return decorate if fn is None else decorate(fn)
