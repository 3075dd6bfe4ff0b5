"""Signatures in a saved file: parameters, ``input_spec``, argument layouts and result trees.

Stage: export (save and load). Input: a compiled ``ConcreteFunction`` and its owner's parameters,
or their JSON forms. Output: the forms (``docs/export.md``), or a ``signature.Signature`` rebuilt
the way a call with such arguments makes it, so that those calls find the loaded graph, and the
``BuiltGraph`` that turns the graph's outputs into the Python result.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from tograph import concrete, errors
from tograph.export import graphs, schema, values
from tograph.ir import primitives, pytree, types
from tograph.staging import build_graph, choices, kinds, optional
from tograph.trace import signature

_P = inspect.Parameter
_PARAM_KINDS = {
    kind.name: kind
    for kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD, _P.VAR_POSITIONAL, _P.KEYWORD_ONLY)
    + (_P.VAR_KEYWORD,)
}


def built_of(cf: concrete.ConcreteFunction) -> build_graph.BuiltGraph:
    """The graph and result layout of a compiled (not eager) concrete function."""
    if cf.built is None or cf.graph is None:
        raise errors.InternalError("a concrete function without a graph reached export")
    return build_graph.BuiltGraph(
        cf.graph,
        cf.built.out_tree,
        cf.built.out_slots,
        cf.built.write_backs,
        container_writes=cf.built.container_writes,
    )


# ---- parameters and input_spec -----------------------------------------------------------


def write_parameters(fn_signature: inspect.Signature, encoder: values.Encoder) -> list[Any]:
    """The parameters' forms: name, kind and (if any) default."""
    out = []
    for param in fn_signature.parameters.values():
        form: dict[str, Any] = {"name": param.name, "kind": param.kind.name}
        if param.default is not inspect.Parameter.empty:
            encoder.context = (f"the default of parameter {param.name!r}", None)
            form["default"] = encoder.encode(param.default)
        out.append(form)
    return out


def read_parameters(form: Any, decoder: values.Decoder) -> inspect.Signature:
    """The function signature that parameter forms describe."""
    params = []
    for item in schema.expect_list(form, "parameters"):
        fields = schema.expect_dict(item, "parameter", {"name", "kind"}, {"default"})
        name = schema.expect_str(fields["name"], "parameter name")
        kind = _PARAM_KINDS.get(schema.expect_str(fields["kind"], "parameter kind"))
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


def write_input_spec(spec: Any) -> Any:
    """The form of an ``input_spec``: null, or per argument null or a shape and dtype."""
    if spec is None:
        return None
    return [
        None
        if s is None
        else {"shape": list(s.shape), "dtype": None if s.dtype is None else s.dtype.name}
        for s in spec
    ]


def read_input_spec(form: Any) -> tuple[Any, ...] | None:
    """The ``input_spec`` an input_spec form describes."""
    if form is None:
        return None
    specs: list[Any] = []
    for item in schema.expect_list(form, "input_spec"):
        if item is None:
            specs.append(None)
            continue
        fields = schema.expect_dict(item, "tensor spec", {"shape", "dtype"})
        shape = tuple(
            None if d is None else schema.expect_int(d, "spec dimension")
            for d in schema.expect_list(fields["shape"], "spec shape")
        )
        dtype = None if fields["dtype"] is None else schema.parse_dtype(fields["dtype"])
        specs.append(signature.TensorSpec(shape, dtype))
    return tuple(specs)


# ---- signatures ----------------------------------------------------------------------------


def write_signature(cf: concrete.ConcreteFunction, writer: graphs.GraphWriter) -> dict[str, Any]:
    """The form of one signature: argument tree and slots, graph, result tree and slots."""
    sig, built = cf.signature, built_of(cf)
    if cf.built is not None and (cf.built.reads or cf.built.attr_writes):
        raise errors.ExportError(
            f"{getattr(cf.owner, '__name__', 'the function')} reads or sets attributes of objects "
            f"given to it ({describe(sig)}): a saved graph holds arrays, not objects",
            hint="pass the arrays themselves as arguments",
        )
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
        results.append(_result_slot(slot, encoder))
    result: dict[str, Any] = {"tree": _tree(built.out_tree, encoder), "slots": results}
    if built.write_backs:
        result["write_backs"] = [list(pair) for pair in built.write_backs]
    if built.container_writes:
        result["container_writes"] = [
            {
                "path": _path(write.target, encoder),
                "tree": _tree(write.tree, encoder),
                "slots": [_result_slot(s, encoder) for s in write.slots],
            }
            for write in built.container_writes
        ]
    kinds = [
        {"layout": layout, "array0d": array0d, "twin": twin}
        for layout, array0d, twin in zip(sig.input_layouts, sig.input_array0d, sig.input_twins)
    ]
    return {
        "arguments": _tree(sig.tree, encoder),
        "slots": slots,
        "inputs": kinds,
        "graph": writer.graph(built.graph),
        "result": result,
    }


def _result_slot(slot: Any, encoder: values.Encoder) -> Any:
    """The form of one result leaf's slot (``build_graph.BuiltGraph.out_slots``)."""
    if isinstance(slot, int):
        return slot
    if isinstance(slot, build_graph.Copy):
        return {"copy": slot.index}
    if isinstance(slot, build_graph.Fresh):
        return {"fresh": encoder.encode(slot.value)}
    if isinstance(slot, build_graph.ArgRef):
        return {"argument": _path(slot, encoder)}
    if isinstance(slot, build_graph.Tagged):
        return {
            "tag": slot.tag,
            "value": _result_slot(slot.value, encoder),
            "choices": [[code, _result_slot(alias, encoder)] for code, alias in slot.choices],
        }
    if isinstance(slot, build_graph.AliasOut):
        steps = [
            {
                "op": prim.name,
                "count": count,
                "params": {key: encoder.encode(params[key]) for key in sorted(params)},
            }
            for prim, count, params in slot.steps
        ]
        return {"alias": slot.slot, "steps": steps, "operands": list(slot.operands)}
    return {"static": encoder.encode(slot.value)}


def read_signature(
    form: Any,
    reader: graphs.GraphReader,
    decoder: values.Decoder,
    fn_signature: inspect.Signature,
    input_spec: tuple[Any, ...] | None,
) -> tuple[signature.Signature, build_graph.BuiltGraph]:
    """The signature a form describes, as calls make it, and its checked graph and result."""
    fields = schema.expect_dict(
        form, "signature", {"arguments", "slots", "inputs", "graph", "result"}
    )
    graph = reader.graph(fields["graph"])
    tree = _read_tree(fields["arguments"], decoder)
    slots = _read_slots(fields["slots"], decoder, len(graph.inputs))
    result = schema.expect_dict(
        fields["result"], "result", {"tree", "slots"}, {"write_backs", "container_writes"}
    )
    out_tree = _read_tree(result["tree"], decoder)
    out_slots = _read_slots(result["slots"], decoder, len(graph.outputs))
    if len(slots) != tree.num_leaves or len(out_slots) != out_tree.num_leaves:
        raise errors.LoadError("a signature's slots do not match its argument or result tree")
    write_backs = _read_write_backs(result.get("write_backs", []), graph)
    sig = _rebuild_signature(tree, slots, [v.type for v in graph.inputs], fn_signature, input_spec)
    sig = _read_input_kinds(fields["inputs"], sig)
    container_writes = _read_container_writes(
        result.get("container_writes", []), decoder, len(graph.outputs)
    )
    return sig, build_graph.BuiltGraph(
        graph, out_tree, tuple(out_slots), write_backs, container_writes=container_writes
    )


def _read_input_kinds(form: Any, sig: signature.Signature) -> signature.Signature:
    """``sig`` for the argument kinds saved with it (layout, 0-d array, twin)."""
    items = schema.expect_list(form, "inputs")
    if len(items) != len(sig.input_types):
        raise errors.LoadError("a signature's input kinds do not match its graph's inputs")
    layouts: list[str | None] = []
    array0d: list[bool] = []
    twins: list[int | None] = []
    for i, item in enumerate(items):
        fields = schema.expect_dict(item, "input kind", {"layout", "array0d", "twin"})
        layout, is_0d, twin = fields["layout"], fields["array0d"], fields["twin"]
        if layout not in ("C", None) or type(is_0d) is not bool:
            raise errors.LoadError(f"input kind {item!r:.60} is not a layout and a 0-d flag")
        if twin is not None and not (type(twin) is int and 0 <= twin < i):
            raise errors.LoadError(f"input {i}'s twin {twin!r:.20} is not an earlier input")
        layouts.append(layout)
        array0d.append(is_0d)
        twins.append(twin)
    return sig.with_input_kinds(layouts, array0d, twins)


def _path(ref: build_graph.ArgRef, encoder: values.Encoder) -> list[Any]:
    encoder.context = ("the path of an argument list or dict", None)
    if not all(type(key) in (int, str) for key in ref.path):
        raise errors.ExportError("a saved graph holds arrays, lists and dicts, not objects")
    return [encoder.encode(key) for key in ref.path]


def _read_path(form: Any, decoder: values.Decoder) -> build_graph.ArgRef:
    keys = tuple(decoder.decode(k) for k in schema.expect_list(form, "argument path"))
    if len(keys) < 2 or keys[0] not in (0, 1) or not all(type(k) in (int, str) for k in keys):
        raise errors.LoadError(f"argument path {keys!r:.60} does not lead into the arguments")
    return build_graph.ArgRef(keys)


def _read_container_writes(
    form: Any, decoder: values.Decoder, count: int
) -> tuple[build_graph.ContainerWrite, ...]:
    writes = []
    for item in schema.expect_list(form, "container_writes"):
        fields = schema.expect_dict(item, "container write", {"path", "tree", "slots"})
        tree = _read_tree(fields["tree"], decoder)
        slots = _read_slots(fields["slots"], decoder, count)
        if len(slots) != tree.num_leaves:
            raise errors.LoadError("a container write's slots do not match its tree")
        writes.append(
            build_graph.ContainerWrite(_read_path(fields["path"], decoder), tree, tuple(slots))
        )
    return tuple(writes)


def _read_write_backs(form: Any, graph: Any) -> tuple[tuple[int, int], ...]:
    pairs = []
    for item in schema.expect_list(form, "write_backs"):
        pair = schema.expect_list(item, "write-back")
        if len(pair) != 2:
            raise errors.LoadError("a write-back is an argument and an output")
        slot, index = (schema.expect_int(v, "write-back index") for v in pair)
        if not (0 <= slot < len(graph.inputs) and 0 <= index < len(graph.outputs)):
            raise errors.LoadError(f"write-back {slot} -> {index} is outside the graph")
        pairs.append((slot, index))
    return tuple(pairs)


def _read_slots(form: Any, decoder: values.Decoder, count: int) -> list[Any]:
    return [_read_slot(item, decoder, count) for item in schema.expect_list(form, "slots")]


def _read_slot(item: Any, decoder: values.Decoder, count: int) -> Any:
    """One result leaf's slot from its form (``_result_slot``)."""
    if type(item) is int:
        if not 0 <= item < count:
            raise errors.LoadError(f"slot {item} is not one of the graph's {count} values")
        return item
    if type(item) is dict and item.keys() == {"copy"}:
        index = schema.expect_int(item["copy"], "copied output")
        if not 0 <= index < count:
            raise errors.LoadError(f"slot {index} is not one of the graph's {count} values")
        return build_graph.Copy(index)
    if type(item) is dict and item.keys() == {"fresh"}:
        return build_graph.Fresh(decoder.decode(item["fresh"]))
    if type(item) is dict and "alias" in item:
        return _read_alias(item, decoder, count)
    if type(item) is dict and item.keys() == {"argument"}:
        return _read_path(item["argument"], decoder)
    if type(item) is dict and item.keys() == {"tag", "value", "choices"}:
        tag = schema.expect_int(item["tag"], "identity tag")
        if not 0 <= tag < count:
            raise errors.LoadError(f"slot {tag} is not one of the graph's {count} values")
        choices = []
        for pair in schema.expect_list(item["choices"], "identity choices"):
            parts = schema.expect_list(pair, "identity choice")
            if len(parts) != 2:
                raise errors.LoadError("an identity choice must be [code, alias]")
            code, alias = parts
            code = schema.expect_int(code, "identity code")
            choices.append((code, _read_alias(alias, decoder, count)))
        return build_graph.Tagged(tag, _read_slot(item["value"], decoder, count), tuple(choices))
    fields = schema.expect_dict(item, "static slot", {"static"})
    return signature.Static(decoder.decode(fields["static"]))


def _read_alias(form: Any, decoder: values.Decoder, count: int) -> build_graph.AliasOut:
    fields = schema.expect_dict(form, "alias slot", {"alias", "steps", "operands"})
    steps = []
    for step in schema.expect_list(fields["steps"], "view steps"):
        parts = schema.expect_dict(step, "view step", {"op", "count", "params"})
        prim = primitives.REGISTRY.get(schema.expect_str(parts["op"], "op"))
        if prim is None or not prim.views:
            raise errors.LoadError(f"view step {parts['op']!r:.40} is not a view primitive")
        forms = parts["params"]
        if type(forms) is not dict or not all(type(k) is str for k in forms):
            raise errors.LoadError("a view step's params must be an object")
        params = {key: decoder.decode(value) for key, value in forms.items()}
        steps.append((prim, schema.expect_int(parts["count"], "operand count"), params))
    operands = tuple(
        schema.expect_int(v, "view operand") for v in schema.expect_list(fields["operands"], "ops")
    )
    if any(not 0 <= i < count for i in operands):
        raise errors.LoadError("a view operand is not one of the graph's values")
    if sum(n for _, n, _ in steps) != len(operands):
        raise errors.LoadError("a view's steps and operands do not match")
    return build_graph.AliasOut(
        schema.expect_int(fields["alias"], "aliased argument"), tuple(steps), operands
    )


def _rebuild_signature(
    tree: pytree.TreeDef,
    slots: list[Any],
    in_types: list[types.ValueType],
    fn_signature: inspect.Signature,
    input_spec: tuple[Any, ...] | None,
) -> signature.Signature:
    """The signature a call with these arguments makes, so that such calls find this graph."""
    stand_ins = [stand_in(in_types[s]) if isinstance(s, int) else s.value for s in slots]
    try:
        args, kwargs = tree.unflatten(stand_ins)
        bound_args, bound_kwargs, names = signature.bind(fn_signature, tuple(args), kwargs)
        sig, _ = signature.make_signature(bound_args, bound_kwargs, names, input_spec)
    except (TypeError, ValueError, errors.ToGraphError) as exc:
        raise errors.LoadError(f"a saved signature does not fit the parameters: {exc}") from None
    if list(sig.input_types) != in_types or len(sig.slots) != len(slots):
        raise errors.LoadError(
            f"a saved signature ({describe(sig)}) does not match its graph's inputs "
            f"({', '.join(map(str, in_types))})"
        )
    return sig


def structural_key(sig: signature.Signature, kinds: bool = True) -> Any:
    """``sig.key`` with each namedtuple class replaced by its name and fields; without the
    arguments' kinds (layout, 0-d array, twin) unless ``kinds``."""

    def shape(tree: pytree.TreeDef) -> Any:
        kind = tree.kind
        if kind is not None and kind not in (tuple, list, dict):
            kind = (kind.__name__, tuple(kind._fields))
        return (kind, tree.meta, tuple(shape(c) for c in tree.children))

    entries = sig.key[1]
    if not kinds:
        entries = tuple(
            sig.input_types[slot] if isinstance(slot, int) else entry
            for slot, entry in zip(sig.slots, entries)
        )
    return shape(sig.tree), entries


def stand_in(t: types.ValueType) -> np.ndarray:
    """An array of type ``t`` (unknown dims 0) that stands for an argument of that type."""
    tensor_type = types.tensor_type(t)
    shape = tuple(0 if d is None else d for d in tensor_type.shape)
    return np.broadcast_to(np.zeros((), tensor_type.dtype), shape)


def describe(sig: signature.Signature) -> str:
    """``x: f64[3], n: i64[]``: a signature's arrays, for messages."""
    return ", ".join(f"{n}: {t}" for n, t in zip(sig.input_names, sig.input_types)) or "no arrays"


def _leaf_labels(sig: signature.Signature) -> list[str]:
    paths = sig.tree.paths("arguments")
    return [p.replace("arguments[0]", "args").replace("arguments[1]", "kwargs") for p in paths]


# ---- result and argument trees -----------------------------------------------------------

# results whose leaves a flag decides: None or the value, a Python number or a NumPy scalar, one
# of the constants a choice holds
_BOXES: dict[str, type] = {
    "optional": optional.Boxed,
    "kinded": kinds.Boxed,
    "choice": choices.Boxed,
}


def _tree(tree: pytree.TreeDef, encoder: values.Encoder) -> Any:
    if tree.kind is None:
        return None
    children = [_tree(c, encoder) for c in tree.children]
    if tree.kind is tuple or tree.kind is list:
        return {tree.kind.__name__: children}
    if tree.kind is dict:
        encoder.context = ("a dict key", None)
        return {"dict": [[encoder.encode(k), c] for k, c in zip(tree.meta, children)]}
    for name, kind in _BOXES.items():
        if tree.kind is kind:
            return {name: children}
    fields = list(tree.kind._fields)
    return {"namedtuple": {"name": tree.kind.__name__, "fields": fields, "children": children}}


def _boxed_value(kind: str, tree: pytree.TreeDef) -> bool:
    """Whether ``tree`` may be the value of a box of ``kind``: a leaf, or for an optional a tuple
    of leaves (``return i, j`` on some paths, ``None`` on others), for a choice the tuple of its
    options."""
    if tree == pytree.LEAF:
        return kind != "choice"
    leaves = all(c == pytree.LEAF for c in tree.children)
    return kind in ("optional", "choice") and tree.kind is tuple and bool(tree.children) and leaves


def _read_tree(form: Any, decoder: values.Decoder, depth: int = 0) -> pytree.TreeDef:
    if form is None:
        return pytree.LEAF
    if depth > values.MAX_DEPTH or type(form) is not dict or len(form) != 1:
        raise errors.LoadError(f"malformed tree {form!r:.60}")
    ((kind, body),) = form.items()
    if kind in ("tuple", "list"):
        items = [_read_tree(c, decoder, depth + 1) for c in schema.expect_list(body, kind)]
        return pytree.TreeDef(tuple if kind == "tuple" else list, None, tuple(items))
    if kind in _BOXES:
        items = [_read_tree(c, decoder, depth + 1) for c in schema.expect_list(body, kind)]
        if len(items) != 2 or items[0] != pytree.LEAF or not _boxed_value(kind, items[1]):
            raise errors.LoadError(f"{kind} is a flag and a value (a tuple for some boxes)")
        return pytree.TreeDef(_BOXES[kind], None, tuple(items))
    if kind == "dict":
        pairs = [schema.expect_list(p, "dict entry") for p in schema.expect_list(body, "dict")]
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
        fields = schema.expect_dict(body, "namedtuple", {"name", "fields", "children"})
        names = tuple(
            schema.expect_str(f, "field") for f in schema.expect_list(fields["fields"], "fields")
        )
        cls = decoder.namedtuple(schema.expect_str(fields["name"], "namedtuple name"), names)
        kids = schema.expect_list(fields["children"], "children")
        if len(kids) != len(names):
            raise errors.LoadError(f"namedtuple {cls.__name__} has {len(names)} fields")
        return pytree.TreeDef(cls, None, tuple(_read_tree(c, decoder, depth + 1) for c in kids))
    raise errors.LoadError(f"unknown tree kind {kind!r:.40}")
