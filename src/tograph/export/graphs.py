"""Graphs in a saved file: ``Graph`` to JSON and back, primitives resolved by registry name.

Stage: export (save and load). Input: a ``Graph`` (its params and literals through
``export.values``), or its JSON form. Output: the JSON form, or a ``Graph`` that passes
``check.check_graph``. Printed form of a JSON graph (``docs/export.md``)::

    {"name": "f", "inputs": [{"id": 0, "type": "f64[3]", "hint": "x"}],
     "eqns": [{"op": "multiply", "in": [0, {"value": {"float": "0x1.0p+1"}, "type": "f64[]~"}],
               "out": [{"id": 1, "type": "f64[3]"}], "params": {}, "loc": 0}],
     "outputs": [1]}

A var is declared once with a file-wide integer id and referred to by that id; a literal is an
object with its value and type; a nested graph is a param ``{"graph": {...}}``. Source locations
are shared through the file's ``locations`` table. Loading builds fresh ``Var``s, takes each
primitive from ``primitives.REGISTRY`` by name and runs the graph checker, so a file whose types do
not follow the primitives' rules is refused before anything can run it.
"""

from __future__ import annotations

import re
from typing import Any

from tograph import errors
from tograph.export import schema, values
from tograph.ir import check, core, primitives

_MAX_NAME = 200


class GraphWriter:
    """Encodes the graphs of one file, sharing its data section and its locations table."""

    def __init__(self, encoder: values.Encoder):
        self.encoder = encoder
        self.locations: list[list[Any]] = []
        self._loc_index: dict[errors.SourceLocation, int] = {}
        self._ids: dict[int, int] = {}

    def graph(self, graph: core.Graph) -> dict[str, Any]:
        """The JSON form of ``graph``.

        Raises:
          ExportError: an equation holds a value a file cannot hold (naming the op and its line).
        """
        return {
            "name": graph.name,
            "inputs": [self._declare(v) for v in graph.inputs],
            "eqns": [self._eqn(e) for e in graph.eqns],
            "outputs": [self._atom(a) for a in graph.outputs],
        }

    def _declare(self, var: core.Var) -> dict[str, Any]:
        self._ids[var.id] = len(self._ids)
        form: dict[str, Any] = {"id": self._ids[var.id], "type": str(var.type)}
        if var.hint is not None:
            form["hint"] = var.hint
        return form

    def _atom(self, atom: core.Atom) -> Any:
        if isinstance(atom, core.Var):
            return self._ids[atom.id]
        return {"value": self.encoder.encode(atom.value), "type": str(atom.type)}

    def _eqn(self, eqn: core.Eqn) -> dict[str, Any]:
        where = f"{eqn.prim.name}"
        self.encoder.context = (f"the literal operand of {where}", eqn.loc)
        form: dict[str, Any] = {"op": eqn.prim.name, "in": [self._atom(a) for a in eqn.inputs]}
        params: dict[str, Any] = {}
        for key in sorted(eqn.params):
            value = eqn.params[key]
            if isinstance(value, core.Graph):
                params[key] = {"graph": self.graph(value)}
            else:
                self.encoder.context = (f"param {key!r} of {where}", eqn.loc)
                params[key] = self.encoder.encode(value)
        form["params"] = params
        form["out"] = [self._declare(v) for v in eqn.outputs]
        if eqn.loc is not None:
            form["loc"] = self._location(eqn.loc)
        return form

    def _location(self, loc: errors.SourceLocation) -> int:
        if loc not in self._loc_index:
            self._loc_index[loc] = len(self.locations)
            self.locations.append([loc.file, loc.line, loc.col, loc.source_line, loc.function])
        return self._loc_index[loc]


class GraphReader:
    """Decodes the graphs of one file; see module docstring."""

    def __init__(self, decoder: values.Decoder, locations: Any):
        self.decoder = decoder
        self.locations = [_location(form) for form in schema.expect_list(locations, "locations")]
        self._vars: dict[int, core.Var] = {}

    def graph(self, form: Any) -> core.Graph:
        """The checked graph of a JSON form.

        Raises:
          LoadError: the form is malformed, names an unknown primitive, or does not type-check.
        """
        graph = self._graph(form, 0)
        try:
            check.check_graph(graph)
        except check.MalformedGraphError as exc:
            raise errors.LoadError(
                f"graph {graph.name!r} is inconsistent: {exc.message.removesuffix(_BUG)}\n"
                f"{exc.window}"
            ) from None
        except Exception as exc:  # noqa: BLE001 - a type rule fed malformed params may raise anything
            raise errors.LoadError(
                f"graph {graph.name!r} does not type-check: {type(exc).__name__}: {exc}"
            ) from None
        return graph

    def _graph(self, form: Any, depth: int) -> core.Graph:
        if depth > values.MAX_DEPTH:
            raise errors.LoadError(f"graphs nest deeper than {values.MAX_DEPTH} levels")
        fields = schema.expect_dict(form, "graph", {"name", "inputs", "eqns", "outputs"})
        name = _name(fields["name"], "graph name")
        inputs = tuple(self._declare(d) for d in schema.expect_list(fields["inputs"], "inputs"))
        eqns = tuple(self._eqn(e, depth) for e in schema.expect_list(fields["eqns"], "eqns"))
        outputs = tuple(self._atom(a) for a in schema.expect_list(fields["outputs"], "outputs"))
        return core.Graph(name, inputs, eqns, outputs)

    def _declare(self, form: Any) -> core.Var:
        fields = schema.expect_dict(form, "variable", {"id", "type"}, {"hint"})
        key = schema.expect_int(fields["id"], "variable id")
        if key in self._vars:
            raise errors.LoadError(f"variable {key} is declared twice")
        hint = fields.get("hint")
        var = core.Var(
            schema.parse_value_type(fields["type"]),
            None if hint is None else _name(hint, "variable name"),
        )
        self._vars[key] = var
        return var

    def _atom(self, form: Any) -> core.Atom:
        if type(form) is int:
            if form not in self._vars:
                raise errors.LoadError(f"variable {form} is used but never declared")
            return self._vars[form]
        fields = schema.expect_dict(form, "operand", {"value", "type"})
        return core.Lit(
            self.decoder.decode(fields["value"]), schema.parse_value_type(fields["type"])
        )

    def _eqn(self, form: Any, depth: int) -> core.Eqn:
        fields = schema.expect_dict(form, "equation", {"op", "in", "params", "out"}, {"loc"})
        name = schema.expect_str(fields["op"], "op")
        prim = primitives.REGISTRY.get(name)
        if prim is None:
            raise errors.LoadError(
                f"unknown primitive {name!r}: this tograph has no op of that name "
                "(was the file written by a newer version?)"
            )
        inputs = tuple(self._atom(a) for a in schema.expect_list(fields["in"], "inputs"))
        params = self._params(fields["params"], depth)
        outputs = tuple(self._declare(d) for d in schema.expect_list(fields["out"], "outputs"))
        loc = None
        if "loc" in fields:
            index = schema.expect_int(fields["loc"], "location")
            if not 0 <= index < len(self.locations):
                raise errors.LoadError(f"location {index} is not in the locations table")
            loc = self.locations[index]
        return core.Eqn(prim, inputs, params, outputs, loc)

    def _params(self, form: Any, depth: int) -> dict[str, Any]:
        if type(form) is not dict:
            raise errors.LoadError(f"params must be an object, got {form!r:.60}")
        params: dict[str, Any] = {}
        for key, value in form.items():
            if not key.isidentifier():
                raise errors.LoadError(f"param name {key!r:.60} is not an identifier")
            if type(value) is dict and value.keys() == {"graph"}:
                params[key] = self._graph(value["graph"], depth + 1)
            else:
                params[key] = self.decoder.decode(value)
        return params


_BUG = ". This is a bug in tograph; please report it."


def _name(form: Any, what: str) -> str:
    """A graph or variable name, which generated code will use once made an identifier."""
    text = schema.expect_str(form, what)
    usable = re.sub(r"\W", "_", text)
    if len(text) > _MAX_NAME or not (usable == "" or usable[0].isdigit() or usable.isidentifier()):
        raise errors.LoadError(f"{what} {text!r:.60} cannot name a value in generated code")
    return text


def _location(form: Any) -> errors.SourceLocation:
    parts = schema.expect_list(form, "location")
    if len(parts) != 5:
        raise errors.LoadError("a location has five parts: file, line, column, source, function")
    file, line, col, source, function = parts
    return errors.SourceLocation(
        schema.expect_str(file, "location file"),
        schema.expect_int(line, "location line"),
        schema.expect_int(col, "location column"),
        schema.expect_str(source, "location source line"),
        schema.expect_str(function, "location function"),
    )
