"""The conversion driver: a Python function -> its analysis, and its lowered twin.

``analyze(fn)`` runs parse -> fence -> errstate blocks -> comprehensions -> jumps -> nonlocal
copies -> SSA on the function's tree (cached per code object). ``lower(fn, static_controls)`` takes
that tree (the steps before SSA done again on a fresh parse after the first time) through
canonicalize -> control flow -> the checks of ``try`` statements, keeping as plain Python the
control statements that type inference decided statically, and compiles the result inside a factory
that receives the runtime module and the function's closure values (cached per code object and
decisions; the most recently used are kept). The compiled tree keeps the user's file name and line
numbers, so tracebacks and build-time errors point at the user's lines. A function the steps leave
exactly as parsed (straight-line NumPy code, say: ``nodes.same_structure`` tells) is not compiled
again: its factory runs a copy of the function's own code, registered as converted code as a
compiled one is. Work the analysed tree's nodes show to be needless is skipped: canonicalize reads
the nodes the analysis walked where the jumps left the tree as parsed, and control flow is not
lowered in a function of plain statements (``_plain_statements``). ``Conversion.source`` is the
lowered function as Python source (what ``cf.code`` shows).
Requires: frontend.parse, frontend.fence, analysis.ssa, lowering.errstates,
lowering.comprehensions, lowering.jumps, lowering.nonlocals, lowering.canonicalize,
lowering.control_flow, lowering.tries; inference (analysis.types) decides
``static_controls`` in between.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import threading
import types
from collections.abc import Callable
from typing import Any

import astor
import gast

from tograph import caching, errors, origin
from tograph.analysis import ssa
from tograph.frontend import fence, names, parse, translate
from tograph.frontend import nodes as frontend_nodes
from tograph.lowering import (
    canonicalize,
    comprehensions,
    control_flow,
    errstates,
    jumps,
    nonlocals,
    templates,
    tries,
)
from tograph.lowering.canonicalize import RUNTIME

_FACTORY = "__tograph_factory__"
_CACHE_LIMIT = 512  # functions (and decisions) whose analyses and conversions are kept
# Keyed by code object and file name: code objects compare equal across files (CPython leaves
# the file out of code equality), and the locations a conversion reports name its file.
_analyses: caching.LRU[tuple[types.CodeType, str, frozenset[str]], Analysis] = caching.LRU(
    _CACHE_LIMIT
)
_conversions: caching.LRU[
    tuple[types.CodeType, str, frozenset[int], frozenset[str] | None], Conversion
] = caching.LRU(_CACHE_LIMIT)
_lock = threading.Lock()


class Analysis:
    """A function's tree analysed: parsed, checked, jumps made flags; its SSA form on demand."""

    def __init__(
        self,
        parsed: parse.ParsedFunction,
        tree: gast.FunctionDef,
        shadowed: frozenset[str] = frozenset(),
        parsed_structure: list[Any] | None = None,
        walked: list[Any] | None = None,
    ):
        self.parsed = parsed
        self.shadowed = shadowed  # ``comprehensions.BUILTINS`` the function's scope redefines
        self._tree: gast.FunctionDef | None = tree  # jumps made flags; lowering may take it
        # ``tree`` as parsed (``nodes.walk_structure``), before the jumps: lowering that leaves
        # it so has nothing to compile (``_lower``)
        self.parsed_structure = parsed_structure
        # every node of ``tree`` (``nodes.walk``) where the jumps left it as parsed, else None
        self.walked = walked
        self.has_controls = bool(names.control_statements(tree.body))
        self._lock = threading.Lock()

    @functools.cached_property
    def ssa(self) -> ssa.SSAForm:
        """The function in SSA form (``analysis.ssa``), with its control statements numbered."""
        with self._lock:  # lowering must not take the tree while SSA reads it
            if self._tree is not None:
                return ssa.to_ssa(self._tree)
        fresh = self.parsed.tree()
        _lower_jumps(fresh, shadowed=self.shadowed)
        return ssa.to_ssa(fresh)

    def take_tree(self) -> tuple[gast.FunctionDef, list[Any] | None]:
        """A jumps-lowered tree that lowering may rewrite, with its structure as parsed: the
        analysed one the first time (whose nodes ``walked`` lists, where not None), then fresh
        ones (whose structure is not known: None)."""
        with self._lock:
            tree, self._tree = self._tree, None
        if tree is not None:
            return tree, self.parsed_structure
        fresh = self.parsed.tree()
        _lower_jumps(fresh, shadowed=self.shadowed)
        return fresh, None


@dataclasses.dataclass(frozen=True)
class Conversion:
    """A converted function: its parsed original, lowered tree and compiled factory."""

    parsed: parse.ParsedFunction
    lowered: gast.FunctionDef
    factory: Callable[..., Callable[..., Any]]

    @functools.cached_property
    def source(self) -> str:
        """The lowered function as Python source (what ``cf.code`` shows)."""
        return astor.to_source(translate.to_ast(self.lowered), pretty_source="".join)

    def instantiate(self, fn: Callable[..., Any], runtime: types.ModuleType) -> Callable[..., Any]:
        """The lowered function bound to ``fn``'s current closure values and to ``runtime``, the
        module its code calls as ``_t`` (``tograph.staging.runtime``)."""
        cells = fn.__closure__ or ()
        return self.factory(runtime, *(_cell_value(c) for c in cells))


def _cell_value(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell: a name the function refers to before it is bound
        return None


def analyze(fn: Callable[..., Any]) -> Analysis:
    """Parses, checks and analyses ``fn`` (cached per code object).

    Raises:
      UnsupportedError: the function (or its source) cannot be converted; names the construct.
    """
    code = parse.code_of(fn)
    shadowed = comprehensions.BUILTINS.intersection(
        (*getattr(fn, "__globals__", ()), *code.co_freevars)
    )
    key = (code, code.co_filename, shadowed)
    cached = _analyses.get(key)
    if cached is None:
        parsed, tree = parse.parse_function(fn)
        # one walk serves the fence, the flag names, the defs and the check that lowering
        # changed nothing
        nodes, structure = frontend_nodes.walk_structure(tree)
        fence.check_supported(parsed, nodes)
        changed = _lower_jumps(tree, nodes, shadowed)
        cached = Analysis(parsed, tree, shadowed, structure, None if changed else nodes)
        with _lock:
            _analyses[key] = cached
    return cached


def convert(fn: Callable[..., Any]) -> Conversion:
    """``fn`` lowered with every control statement decided at run time (calls from lowered code)."""
    return lower(fn, frozenset())


def lower(
    fn: Callable[..., Any],
    static_controls: frozenset[int],
    sequence_params: frozenset[str] | None = None,
) -> Conversion:
    """``fn`` lowered, the control statements numbered in ``static_controls`` kept as Python,
    and NumPy calls on the parameters in ``sequence_params`` (None: on any) routed through the
    runtime, which stacks a list or tuple for NumPy (cached per code object and decisions).

    Raises:
      UnsupportedError: the function (or its source) cannot be converted; names the construct.
    """
    key = (fn.__code__, fn.__code__.co_filename, static_controls, sequence_params)
    cached = _conversions.get(key)
    if cached is None:
        cached = _lower(fn, analyze(fn), static_controls, sequence_params)
        with _lock:
            _conversions[key] = cached
    return cached


def _lower_jumps(
    tree: gast.FunctionDef,
    nodes: list[Any] | None = None,
    shadowed: frozenset[str] = frozenset(),
) -> bool:
    """Makes, in place, ``with np.errstate(...)`` flat (``lowering.errstates``), filtered list
    comprehensions loops, jumps flags, and brackets calls of functions setting its ``nonlocal``
    variables with copies of them (``lowering.nonlocals``), in ``tree`` and the functions nested
    in it; ``nodes`` are all of its nodes, if the caller has walked it already; ``shadowed`` as
    ``comprehensions.desugar_filtered`` takes it. Returns whether the tree may have changed:
    jumps change nothing in a function without control statements."""
    nodes = frontend_nodes.walk(tree) if nodes is None else nodes
    taken = {n.id for n in frontend_nodes.of_class(nodes, (gast.Name,))}
    flattened = errstates.flatten(tree, nodes)
    if flattened:
        nodes = frontend_nodes.walk(tree)
    desugared = comprehensions.desugar_filtered(tree, taken, nodes, shadowed)
    if desugared:
        nodes = frontend_nodes.walk(tree)
    for fndef in frontend_nodes.of_class(nodes, (gast.FunctionDef,)):
        jumps.lower_jumps(fndef, taken)
    setters = bool(frontend_nodes.of_class(nodes, (gast.Nonlocal,)))
    nonlocals.copy_around_calls(tree)
    controls = frontend_nodes.of_class(nodes, (gast.If, gast.While, gast.For))
    return flattened or desugared or setters or bool(controls)


def _lower(
    fn: Callable[..., Any],
    analysis: Analysis,
    static_controls: frozenset[int],
    sequence_params: frozenset[str] | None,
) -> Conversion:
    parsed = analysis.parsed
    node, structure = analysis.take_tree()
    walked = analysis.walked if structure is not None else None  # the analysed tree's nodes
    for index, stmt in enumerate(names.control_statements(node.body)):
        stmt.static_test = index in static_controls
    plain = walked is not None and _plain_statements(walked)
    class_cell = "__class__" in fn.__code__.co_freevars
    canonicalize.canonicalize(node, fn.__globals__, sequence_params, walked, class_cell)
    if not plain:  # (lowering control flow and tries has nothing to rewrite in plain statements)
        control_flow.lower_control_flow(node)
        tries.add_checks(node)
    if (
        structure is not None
        and fn.__code__.co_name != "<lambda>"  # its tree is a ``def`` made for it
        and frontend_nodes.same_structure(node, structure)
    ):
        return Conversion(parsed, node, _user_code_factory(fn))
    return Conversion(parsed, node, _compile(node, parsed, fn))


def _plain_statements(walked: list[Any]) -> bool:
    """Whether the nodes ``walked`` of a function (all of them) show nothing for
    ``control_flow.lower_control_flow`` to rewrite: no function nested in it, no statement but
    assignments, expressions, ``return`` and ``pass``, and no ``is`` test (which it would make
    ``_t.is_none`` where it tests ``None``)."""
    kinds = set(map(type, walked))
    statements = {kind for kind in kinds if issubclass(kind, gast.stmt)}
    return (
        statements <= _PLAIN_STATEMENTS
        and kinds.isdisjoint((gast.Is, gast.IsNot))
        and len(frontend_nodes.of_class(walked, (gast.FunctionDef,))) == 1
    )


_PLAIN_STATEMENTS = {
    gast.FunctionDef,  # the function itself: ``_plain_statements`` counts them
    gast.Assign,
    gast.AugAssign,
    gast.AnnAssign,
    gast.Expr,
    gast.Return,
    gast.Pass,
}


def _user_code_factory(fn: Callable[..., Any]) -> Callable[..., Callable[..., Any]]:
    """The factory of a function that lowering left exactly as written: its lowered twin is
    the function's own code, so there is nothing to translate or compile. It runs a copy of the
    code (with its nested code copied too), registered as converted as compiled code is, and
    named as compiled code is named, inside the factory; the user's own code stays plain."""
    code = _copied(fn.__code__, fn.__code__, f"{_FACTORY}.<locals>.{fn.__code__.co_name}")
    origin.register([code], fn.__globals__)
    globals_, name = fn.__globals__, fn.__code__.co_name

    def factory(runtime: types.ModuleType, *cell_values: Any) -> Callable[..., Any]:
        cells = tuple(types.CellType(value) for value in cell_values)
        return types.FunctionType(code, globals_, name, None, cells or None)

    return factory


def _copied(code: types.CodeType, top: types.CodeType, top_name: str) -> types.CodeType:
    """A new code object equal to ``code`` (``top`` or code nested in it), nested code copied
    too, its qualified name (on Python 3.11+) the one it would have with ``top`` named
    ``top_name``."""
    consts = tuple(
        _copied(c, top, top_name) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    own = getattr(code, "co_qualname", None)
    if own is None:
        return code.replace(co_consts=consts)
    prefix = top.co_qualname
    if code is top or own.startswith(prefix + "."):
        own = top_name + own[len(prefix) :]
    return code.replace(co_consts=consts, co_qualname=own)


def _compile(
    node: gast.FunctionDef, parsed: parse.ParsedFunction, fn: Callable[..., Any]
) -> Callable[..., Any]:
    params = [RUNTIME, *parsed.freevars]
    factory_def = gast.FunctionDef(
        name=_FACTORY,
        args=gast.arguments(
            args=[
                gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
                for p in params
            ],
            posonlyargs=[],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        ),
        body=[
            node,
            gast.Return(
                value=gast.Name(id=node.name, ctx=gast.Load(), annotation=None, type_comment=None)
            ),
        ],
        decorator_list=[],
        returns=None,
        type_comment=None,
        type_params=[],
    )
    for part in [
        factory_def,
        *factory_def.args.args,
        factory_def.body[-1],
        factory_def.body[-1].value,
    ]:
        templates.locate_node(part, node)
    module = gast.Module(body=[factory_def], type_ignores=[])
    tree = translate.to_ast(module)
    try:
        try:
            code = compile(tree, parsed.filename, "exec")
        except TypeError:  # a node left without a location: borrow its parent's, then compile
            _locate(tree, node.lineno)
            code = compile(tree, parsed.filename, "exec")
    except (SyntaxError, ValueError, TypeError) as exc:
        raise errors.InternalError(
            f"the lowered code of {parsed.name} does not compile: {exc}"
        ) from exc
    origin.register([code], fn.__globals__)
    namespace: dict[str, Any] = {}
    exec(code, fn.__globals__, namespace)  # noqa: S102 - our own generated code
    return namespace[_FACTORY]


def _locate(tree: ast.AST, default_line: int) -> None:
    """Fills in locations that templates left out, from the nearest located ancestor."""

    def fill(node: ast.AST, line: int) -> None:
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is None:
                node.lineno = line
            line = node.lineno
            node.end_lineno = max(getattr(node, "end_lineno", None) or line, line)
            node.col_offset = getattr(node, "col_offset", None) or 0
            node.end_col_offset = getattr(node, "end_col_offset", None) or 0
        for child in ast.iter_child_nodes(node):
            fill(child, line)

    fill(tree, default_line)
