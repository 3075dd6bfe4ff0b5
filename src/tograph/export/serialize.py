"""``save`` and ``load``: compiled functions to a versioned file and back, without running code.

Stage: export. Input: a ``ConcreteFunction`` (one signature) or a ``StaticFunction`` /
``GradFunction`` (every signature compiled so far). Output: a file (``export.container``) whose
header holds the function's name, parameters and ``input_spec`` and, per signature, the argument
layout, the optimised graph (``export.graphs``) and how its outputs make the Python result.
``load`` gives a ``LoadedFunction``: called like the original, it runs the saved graphs; ``tg.grad``
differentiates it. Requires: graphs that compiled (an eager fallback has no graph to save).

The format is documented in ``docs/export.md``.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import api, concrete, errors
from tograph.autodiff import tape as tape_mod
from tograph.autodiff import vjp
from tograph.export import container, graphs, values
from tograph.ir import pytree, types
from tograph.staging import build_graph
from tograph.trace import signature, tensor

_P = inspect.Parameter
_PARAM_KINDS = {
    kind.name: kind
    for kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.VAR_POSITIONAL, _P.KEYWORD_ONLY)
    + (_P.VAR_KEYWORD,)
}


def save(fn: Any, file: str | os.PathLike[str]) -> None:
    """Writes ``fn``'s compiled graphs to ``file``; ``tograph.load`` reads them back.

    Args:
      fn: a ``ConcreteFunction`` (``f.concrete(*args)``: that signature), or a ``to_static``,
        ``grad`` or loaded function (every signature it has compiled so far).
      file: the path to write.

    Raises:
      ExportError: nothing compiled to save, a signature that runs eagerly, or a value the file
        format cannot hold (the message names the op or argument and the user's line).
    """
    data = saves(fn)
    with open(file, "wb") as out:
        out.write(data)


def saves(fn: Any) -> bytes:
    """The bytes ``save`` writes."""
    return pack_functions(_concrete_functions(fn))


def pack_functions(functions: Sequence[concrete.ConcreteFunction]) -> bytes:
    """The file holding these concrete functions, signatures of one function, with graphs."""
    owner = functions[0].owner
    data = bytearray()
    encoder = values.Encoder(data)
    writer = graphs.GraphWriter(encoder)
    header: dict[str, Any] = {
        "name": str(getattr(owner, "__name__", built_of(functions[0]).graph.name)),
        "parameters": _parameters(inspect.signature(owner), encoder),
        "input_spec": _input_spec(getattr(owner, "input_spec", None)),
        "signatures": [_signature(cf, writer) for cf in functions],
    }
    header["locations"] = writer.locations
    return container.pack(header, data)


def load(file: str | os.PathLike[str]) -> LoadedFunction:
    """The function saved in ``file``, ready to call, differentiate and save again.

    Raises:
      LoadError: the file is not a tograph file, is damaged or truncated, has trailing data, is of
        another format version, or holds a graph this tograph cannot run (an unknown primitive,
        types that do not follow the primitives' rules). Nothing in the file runs while loading.
    """
    with open(file, "rb") as source:
        return loads(source.read())


def loads(blob: bytes) -> LoadedFunction:
    """The function held in the bytes of a saved file (see ``load``)."""
    header, data = container.unpack(blob)
    fields = values.expect_dict(
        header, "header", {"name", "parameters", "input_spec", "signatures", "locations"}
    )
    decoder = values.Decoder(data)
    reader = graphs.GraphReader(decoder, fields["locations"])
    name = values.expect_str(fields["name"], "function name")
    fn_signature = _read_parameters(fields["parameters"], decoder)
    input_spec = _read_input_spec(fields["input_spec"])
    stand_in = _NoSource(name, fn_signature)
    entries = [
        _read_signature(form, reader, decoder, fn_signature, input_spec)
        for form in values.expect_list(fields["signatures"], "signatures")
    ]
    if not entries:
        raise errors.LoadError("the file holds no signature")
    return LoadedFunction(stand_in, input_spec, entries)


class LoadedFunction(api.StaticFunction):
    """A function read by ``tograph.load``: its saved graphs, one per signature.

    It is called, differentiated (``tg.grad``), saved and pickled like the ``StaticFunction`` it
    was saved from, but it has no Python source: a call whose argument types match no saved
    signature raises a ``ToGraphError`` that lists the saved ones.
    """

    def __init__(
        self,
        stand_in: _NoSource,
        input_spec: Sequence[Any] | None,
        entries: Sequence[tuple[signature.Signature, build_graph.BuiltGraph]],
    ):
        super().__init__(stand_in, input_spec, "error")
        self._name = stand_in.__name__
        del self.__tograph_python_function__  # converted code calls it, not its (absent) source
        self._saved = [
            concrete.ConcreteFunction.from_graph(self, sig, built) for sig, built in entries
        ]
        self._cache.update((cf.signature.key, cf) for cf in self._saved)

    @property
    def concrete_functions(self) -> list[concrete.ConcreteFunction]:
        """The saved concrete functions, in the order they were saved."""
        return list(self._saved)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        leaves, tree = pytree.flatten((list(args), kwargs))
        if not any(isinstance(leaf, tensor.TensorBase) for leaf in leaves):
            return super().__call__(*args, **kwargs)
        # Called from code being converted (symbolic tensors) or on an eager tape: the saved graph
        # of the tensors' types is inlined or run on the tape, as a grad function's is.
        stand_ins = [
            _stand_in(leaf.type) if isinstance(leaf, tensor.TensorBase) else leaf for leaf in leaves
        ]
        stand_args, stand_kwargs = tree.unflatten(stand_ins)
        cf = self.concrete(*stand_args, **stand_kwargs)
        built = built_of(cf)
        tensors: list[Any] = [None] * len(built.graph.inputs)
        for leaf, slot in zip(leaves, cf.signature.slots):
            if isinstance(slot, int):
                tensors[slot] = leaf
        if any(isinstance(t, tensor.Symbolic) for t in tensors):
            outputs = vjp.inline(built.graph, tensors)
        else:
            outputs = tape_mod.run_eagerly(built.graph, tensors)
        return built.unflatten(tuple(outputs))

    @property
    def graph(self) -> Any:
        """The graph of the first saved signature (``concrete_functions`` has them all)."""
        return self.concrete_functions[0].graph

    def _trace(self, sig: signature.Signature) -> concrete.ConcreteFunction:
        # A namedtuple argument is of the caller's class, the saved tree of one made when loading:
        # they match by name and fields.
        wanted = _structural_key(sig)
        for cf in self.concrete_functions:
            if _structural_key(cf.signature) == wanted:
                return cf
        saved = "; ".join(_describe(cf.signature) for cf in self.concrete_functions)
        raise errors.ToGraphError(
            f"loaded function {self._name} has no graph for arguments "
            f"({_describe(sig)}); it was saved for: {saved}",
            hint="save the function after calling it with these argument types",
        )

    def __repr__(self) -> str:
        count = len(self.concrete_functions)
        return f"<LoadedFunction {self._name}: {count} signature{'s' * (count != 1)}>"


class _NoSource:
    """Stands for the Python function of a loaded one: its name and signature, no code."""

    def __init__(self, name: str, fn_signature: inspect.Signature):
        self.__name__ = self.__qualname__ = name
        self.__module__ = __name__
        self.__doc__ = f"{name}, loaded from a saved file."
        self.__signature__ = fn_signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise errors.ToGraphError(f"loaded function {self.__name__} has no Python source to run")


# ---- which functions --------------------------------------------------------------------


def built_of(cf: concrete.ConcreteFunction) -> build_graph.BuiltGraph:
    """The graph and result layout of a compiled (not eager) concrete function."""
    if cf.built is None or cf.graph is None:
        raise errors.InternalError("a concrete function without a graph reached export")
    return build_graph.BuiltGraph(cf.graph, cf.built.out_tree, cf.built.out_slots)


def _concrete_functions(fn: Any) -> list[concrete.ConcreteFunction]:
    if isinstance(fn, concrete.ConcreteFunction):
        functions = [fn]
    elif hasattr(fn, "concrete_functions"):
        functions = fn.concrete_functions
    else:
        raise errors.ExportError(
            f"cannot save a {type(fn).__name__}: save takes a to_static, grad or loaded function, "
            "or one of their concrete functions"
        )
    if not functions:
        raise errors.ExportError(
            f"{getattr(fn, '__name__', fn)} has no compiled signature to save",
            hint="call it (or its .concrete(...)) with example arguments first",
        )
    for cf in functions:
        if cf.graph is None or cf.built is None:
            raise errors.ExportError(
                f"{getattr(cf.owner, '__name__', 'the function')} runs eagerly for "
                f"({_describe(cf.signature)}), so it has no graph to save: {cf.fallback}"
            )
    return functions


# ---- parameters and input_spec -----------------------------------------------------------


def _parameters(fn_signature: inspect.Signature, encoder: values.Encoder) -> list[Any]:
    out = []
    for param in fn_signature.parameters.values():
        form: dict[str, Any] = {"name": param.name, "kind": param.kind.name}
        if param.default is not inspect.Parameter.empty:
            encoder.context = (f"the default of parameter {param.name!r}", None)
            form["default"] = encoder.encode(param.default)
        out.append(form)
    return out


def _read_parameters(form: Any, decoder: values.Decoder) -> inspect.Signature:
    params = []
    for item in values.expect_list(form, "parameters"):
        fields = values.expect_dict(item, "parameter", {"name", "kind"}, {"default"})
        name = values.expect_str(fields["name"], "parameter name")
        kind = _PARAM_KINDS.get(values.expect_str(fields["kind"], "parameter kind"))
        if kind is None or not name.isidentifier():
            raise errors.LoadError(f"parameter {name!r:.60} of kind {fields['kind']!r:.40}")
        default = (
            decoder.decode(fields["default"]) if "default" in fields else inspect.Parameter.empty
        )
        params.append(inspect.Parameter(name, kind, default=default))
    try:
        return inspect.Signature(params)
    except ValueError as exc:
        raise errors.LoadError(f"the parameters do not make a signature: {exc}") from None


def _input_spec(spec: Any) -> Any:
    if spec is None:
        return None
    return [
        None
        if s is None
        else {"shape": list(s.shape), "dtype": None if s.dtype is None else s.dtype.name}
        for s in spec
    ]


def _read_input_spec(form: Any) -> tuple[Any, ...] | None:
    if form is None:
        return None
    specs: list[Any] = []
    for item in values.expect_list(form, "input_spec"):
        if item is None:
            specs.append(None)
            continue
        fields = values.expect_dict(item, "tensor spec", {"shape", "dtype"})
        shape = tuple(
            None if d is None else values.expect_int(d, "spec dimension")
            for d in values.expect_list(fields["shape"], "spec shape")
        )
        dtype = None if fields["dtype"] is None else values.parse_dtype(fields["dtype"])
        specs.append(signature.TensorSpec(shape, dtype))
    return tuple(specs)


# ---- signatures ----------------------------------------------------------------------------


def _signature(cf: concrete.ConcreteFunction, writer: graphs.GraphWriter) -> dict[str, Any]:
    sig, built = cf.signature, built_of(cf)
    encoder = writer.encoder
    names = iter(_leaf_labels(sig))
    slots: list[Any] = []
    for slot in sig.slots:
        label = next(names)
        if isinstance(slot, int):
            slots.append(slot)
        else:
            encoder.context = (f"argument {label} (a static value)", None)
            slots.append({"static": encoder.encode(slot.value)})
    results: list[Any] = []
    for i, slot in enumerate(built.out_slots):
        encoder.context = (f"result leaf {i} (a static value)", None)
        results.append(slot if isinstance(slot, int) else {"static": encoder.encode(slot.value)})
    return {
        "arguments": _tree(sig.tree, encoder),
        "slots": slots,
        "graph": writer.graph(built.graph),
        "result": {"tree": _tree(built.out_tree, encoder), "slots": results},
    }


def _read_signature(
    form: Any,
    reader: graphs.GraphReader,
    decoder: values.Decoder,
    fn_signature: inspect.Signature,
    input_spec: tuple[Any, ...] | None,
) -> tuple[signature.Signature, build_graph.BuiltGraph]:
    fields = values.expect_dict(form, "signature", {"arguments", "slots", "graph", "result"})
    graph = reader.graph(fields["graph"])
    tree = _read_tree(fields["arguments"], decoder)
    slots = _read_slots(fields["slots"], decoder, len(graph.inputs))
    result = values.expect_dict(fields["result"], "result", {"tree", "slots"})
    out_tree = _read_tree(result["tree"], decoder)
    out_slots = _read_slots(result["slots"], decoder, len(graph.outputs))
    if len(slots) != tree.num_leaves or len(out_slots) != out_tree.num_leaves:
        raise errors.LoadError("a signature's slots do not match its argument or result tree")
    sig = _rebuild_signature(tree, slots, [v.type for v in graph.inputs], fn_signature, input_spec)
    return sig, build_graph.BuiltGraph(graph, out_tree, tuple(out_slots))


def _read_slots(form: Any, decoder: values.Decoder, count: int) -> list[Any]:
    slots: list[Any] = []
    for item in values.expect_list(form, "slots"):
        if type(item) is int:
            if not 0 <= item < count:
                raise errors.LoadError(f"slot {item} is not one of the graph's {count} values")
            slots.append(item)
        else:
            fields = values.expect_dict(item, "static slot", {"static"})
            slots.append(signature.Static(decoder.decode(fields["static"])))
    return slots


def _rebuild_signature(
    tree: pytree.TreeDef,
    slots: list[Any],
    in_types: list[types.ValueType],
    fn_signature: inspect.Signature,
    input_spec: tuple[Any, ...] | None,
) -> signature.Signature:
    """The signature a call with these arguments makes, so that such calls find this graph."""
    stand_ins = [_stand_in(in_types[s]) if isinstance(s, int) else s.value for s in slots]
    try:
        args, kwargs = tree.unflatten(stand_ins)
        bound_args, bound_kwargs, names = signature.bind(fn_signature, tuple(args), kwargs)
        sig, _ = signature.make_signature(bound_args, bound_kwargs, names, input_spec)
    except (TypeError, ValueError, errors.ToGraphError) as exc:
        raise errors.LoadError(f"a saved signature does not fit the parameters: {exc}") from None
    if list(sig.input_types) != in_types or len(sig.slots) != len(slots):
        raise errors.LoadError(
            f"a saved signature ({_describe(sig)}) does not match its graph's inputs "
            f"({', '.join(map(str, in_types))})"
        )
    return sig


def _structural_key(sig: signature.Signature) -> Any:
    """``sig.key`` with each namedtuple class replaced by its name and fields."""

    def shape(tree: pytree.TreeDef) -> Any:
        kind = tree.kind
        if kind is not None and kind not in (tuple, list, dict):
            kind = (kind.__name__, tuple(kind._fields))
        return (kind, tree.meta, tuple(shape(c) for c in tree.children))

    return shape(sig.tree), sig.key[1:]


def _stand_in(t: types.ValueType) -> np.ndarray:
    tensor_type = types.tensor_type(t)
    shape = tuple(0 if d is None else d for d in tensor_type.shape)
    return np.broadcast_to(np.zeros((), tensor_type.dtype), shape)


def _describe(sig: signature.Signature) -> str:
    return ", ".join(f"{n}: {t}" for n, t in zip(sig.input_names, sig.input_types)) or "no arrays"


def _leaf_labels(sig: signature.Signature) -> list[str]:
    paths = sig.tree.paths("arguments")
    return [p.replace("arguments[0]", "args").replace("arguments[1]", "kwargs") for p in paths]


# ---- result and argument trees -----------------------------------------------------------


def _tree(tree: pytree.TreeDef, encoder: values.Encoder) -> Any:
    if tree.kind is None:
        return None
    children = [_tree(c, encoder) for c in tree.children]
    if tree.kind is tuple or tree.kind is list:
        return {tree.kind.__name__: children}
    if tree.kind is dict:
        encoder.context = ("a dict key", None)
        return {"dict": [[encoder.encode(k), c] for k, c in zip(tree.meta, children)]}
    fields = list(tree.kind._fields)
    return {"namedtuple": {"name": tree.kind.__name__, "fields": fields, "children": children}}


def _read_tree(form: Any, decoder: values.Decoder, depth: int = 0) -> pytree.TreeDef:
    if form is None:
        return pytree.LEAF
    if depth > values.MAX_DEPTH or type(form) is not dict or len(form) != 1:
        raise errors.LoadError(f"malformed tree {form!r:.60}")
    ((kind, body),) = form.items()
    if kind in ("tuple", "list"):
        items = [_read_tree(c, decoder, depth + 1) for c in values.expect_list(body, kind)]
        return pytree.TreeDef(tuple if kind == "tuple" else list, None, tuple(items))
    if kind == "dict":
        pairs = [values.expect_list(p, "dict entry") for p in values.expect_list(body, "dict")]
        if any(len(p) != 2 for p in pairs):
            raise errors.LoadError("a dict entry is a key and a tree")
        keys = tuple(decoder.decode(k) for k, _ in pairs)
        try:
            distinct = len(set(keys)) == len(keys)
        except TypeError:
            distinct = False
        if not distinct:
            raise errors.LoadError(f"dict keys {keys!r:.60} are not distinct hashable values")
        children = tuple(_read_tree(c, decoder, depth + 1) for _, c in pairs)
        return pytree.TreeDef(dict, keys, children)
    if kind == "namedtuple":
        fields = values.expect_dict(body, "namedtuple", {"name", "fields", "children"})
        names = tuple(
            values.expect_str(f, "field") for f in values.expect_list(fields["fields"], "fields")
        )
        cls = decoder.namedtuple(values.expect_str(fields["name"], "namedtuple name"), names)
        kids = values.expect_list(fields["children"], "children")
        if len(kids) != len(names):
            raise errors.LoadError(f"namedtuple {cls.__name__} has {len(names)} fields")
        return pytree.TreeDef(cls, None, tuple(_read_tree(c, decoder, depth + 1) for c in kids))
    raise errors.LoadError(f"unknown tree kind {kind!r:.40}")
