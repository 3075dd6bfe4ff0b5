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

from tograph import api, concrete, errors
from tograph.autodiff import tape as tape_mod
from tograph.autodiff import vjp
from tograph.export import container, graphs, schema, signatures, values
from tograph.ir import pytree
from tograph.staging import build_graph
from tograph.trace import signature, tensor


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
        "name": str(getattr(owner, "__name__", signatures.built_of(functions[0]).graph.name)),
        "parameters": signatures.write_parameters(inspect.signature(owner), encoder),
        "input_spec": signatures.write_input_spec(getattr(owner, "input_spec", None)),
        "signatures": [signatures.write_signature(cf, writer) for cf in functions],
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
    fields = schema.expect_dict(
        header, "header", {"name", "parameters", "input_spec", "signatures", "locations"}
    )
    decoder = values.Decoder(data)
    reader = graphs.GraphReader(decoder, fields["locations"])
    name = schema.expect_str(fields["name"], "function name")
    fn_signature = signatures.read_parameters(fields["parameters"], decoder)
    input_spec = signatures.read_input_spec(fields["input_spec"])
    stand_in = _NoSource(name, fn_signature)
    entries = [
        signatures.read_signature(form, reader, decoder, fn_signature, input_spec)
        for form in schema.expect_list(fields["signatures"], "signatures")
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
        for cf in self._saved:
            self._add(cf)

    @property
    def concrete_functions(self) -> list[concrete.ConcreteFunction]:
        """The saved concrete functions, in the order they were saved."""
        return list(self._saved)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not any(isinstance(v, tensor.TensorBase) for v in pytree.flatten((args, kwargs))[0]):
            return super().__call__(*args, **kwargs)
        # Called from code being converted (symbolic tensors) or on an eager tape: the saved graph
        # of the tensors' types is inlined or run on the tape, as a grad function's is. Leaves are
        # taken in the order a signature lists them: arguments bound, defaults filled in.
        bound_args, bound_kwargs, _ = signature.bind(self._signature, args, kwargs)
        leaves, tree = pytree.flatten((list(bound_args), bound_kwargs))
        stand_ins = [
            signatures.stand_in(leaf.type) if isinstance(leaf, tensor.TensorBase) else leaf
            for leaf in leaves
        ]
        stand_args, stand_kwargs = tree.unflatten(stand_ins)
        stand_bound, stand_bound_kw, names = signature.bind(
            self._signature, tuple(stand_args), stand_kwargs
        )
        sig, _ = signature.make_signature(stand_bound, stand_bound_kw, names, self.input_spec)
        cf = self._saved_for(sig, among_all=True)  # tensors are written as values: any kind
        built = signatures.built_of(cf)
        tensors: list[Any] = [None] * len(built.graph.inputs)
        for leaf, slot in zip(leaves, cf.signature.slots):
            if isinstance(slot, int):
                tensors[slot] = leaf
        if any(isinstance(t, tensor.Symbolic) for t in tensors):
            outputs = vjp.inline(built.graph, tensors)
        else:
            outputs = tape_mod.run_eagerly(built.graph, tensors)
        arguments = (bound_args, bound_kwargs, ())
        return built.unflatten(tuple(outputs), tensors, arguments, values_only=True)

    @property
    def graph(self) -> Any:
        """The graph of the first saved signature (``concrete_functions`` has them all)."""
        return self.concrete_functions[0].graph

    def _trace(self, sig: signature.Signature) -> concrete.ConcreteFunction:
        return self._saved_for(sig, among_all=False)

    def _saved_for(self, sig: signature.Signature, among_all: bool) -> concrete.ConcreteFunction:
        """The saved concrete function for calls of ``sig``.

        A namedtuple argument is of the caller's class, the saved tree of one made when loading:
        they match by name and fields. Argument kinds (layout, 0-d array or scalar, one array
        passed twice) matter only to a graph that writes into its arguments or returns one of
        them, and not at all (``among_all``) when the graph runs on tensors.
        """
        wanted = signatures.structural_key(sig)
        for cf in self.concrete_functions:
            if signatures.structural_key(cf.signature) == wanted:
                return cf
        wanted = signatures.structural_key(sig, kinds=False)
        kinds_differ = False
        for cf in self.concrete_functions:
            if signatures.structural_key(cf.signature, kinds=False) == wanted:
                if among_all or cf.built is not None and cf.built.keeps_arguments:
                    return cf
                kinds_differ = True
        saved = "; ".join(signatures.describe(cf.signature) for cf in self.concrete_functions)
        why = (
            " (the graph for these types writes into its arguments or returns one, so it was "
            "saved for arrays laid out as those it was traced with: C-contiguous or not, 0-d "
            "arrays or NumPy scalars, distinct or the same array twice)"
            if kinds_differ
            else ""
        )
        raise errors.ToGraphError(
            f"loaded function {self._name} has no graph for arguments "
            f"({signatures.describe(sig)}); it was saved for: {saved}{why}",
            hint="save the function after calling it with such arguments",
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
                f"({signatures.describe(cf.signature)}), so it has no graph to save: {cf.fallback}"
            )
    return functions
