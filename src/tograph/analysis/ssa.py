"""Stage: SSA. A structured function -> static single assignment form with phi nodes.

Input: a gast ``FunctionDef`` whose jumps are already flags (``lowering.jumps``).
Output: ``SSAForm``
listing every definition (``x``, ``x_1``, ``x_2``: the user's name plus a version) and its printed
text, in which a phi node ``x_3 = φ(x_1, x_2)`` joins the versions reaching the end of an ``if``,
and a loop header ``loop_1:`` holds the phis of the variables a loop carries. ``lst.append(v)`` on a
local list is a definition too, ``lst_1 = append(lst, v)``, as lowering makes it a functional push
(a tensor list grows in a loop over tensors). The form is *pruned*:
a phi appears only where its variable is live, which is exactly the state that lowering makes
into ``cond`` outputs and ``while_loop`` carries (``analysis.liveness``). A ``try``'s handlers may
start anywhere in its body, so what the body assigns is a fresh unknown version there, and what the
statement assigns is one after it (``x_2 = ?``): inference decides nothing by such values.
Requires: lowering.jumps.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import astor
import gast

from tograph.analysis import liveness, mutation
from tograph.frontend import names

UNDEF = "⊥"


@dataclasses.dataclass
class Definition:
    """One SSA value: ``name = expr`` (an assignment) or ``name = φ(*incoming)`` (a join)."""

    name: str
    var: str
    expr: Any = None  # gast expression with renamed reads, or None for params and phis
    incoming: tuple[str, ...] = ()
    kind: str = "assign"  # "param", "assign", "phi", "loop-phi", "target", "append"
    # for phis: the condition (or loop iterable) deciding between the incoming values; for the
    # target of a ``for`` that a break or return may end: that loop's test
    test: Any = None


@dataclasses.dataclass
class Control:
    """One ``if``, ``while`` or ``for`` (numbered as ``frontend.names.control_statements`` does)
    with the expressions deciding it, their reads renamed to SSA values: an if's or while's
    ``test``; a for's ``iterable`` and, when a break or return may end it, its ``test``."""

    kind: str  # "if", "while" or "for"
    test: Any = None
    iterable: Any = None


Line = list[Any]  # printed pieces: strings, and SSA-renamed expressions printed as source


@dataclasses.dataclass
class SSAForm:
    """Every definition, the control statements, and the printed form (made when first read)."""

    definitions: list[Definition]
    lines: list[Line]
    controls: list[Control] = dataclasses.field(default_factory=list)
    # variables whose items are assigned (``x[i] = v``) or updated in place (``x += v``): their
    # arrays change in place, which the definitions do not show
    written: frozenset[str] = frozenset()

    @functools.cached_property
    def text(self) -> str:
        return "\n".join(
            "".join(p if isinstance(p, str) else _src(p) for p in line) for line in self.lines
        )


def _renamed(node: Any, env: dict[str, str]) -> Any:
    """A copy of ``node`` whose loaded names are renamed by ``env`` (a new tree, original kept)."""
    if isinstance(node, list):
        return [_renamed(n, env) for n in node]
    if not isinstance(node, gast.AST):
        return node
    if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and node.id in env:
        return gast.Name(id=env[node.id], ctx=node.ctx, annotation=None, type_comment=None)
    fields = {f: _renamed(getattr(node, f, None), env) for f in node._fields}
    copy = type(node)(**fields)
    for attribute in node._attributes:
        if hasattr(node, attribute):
            setattr(copy, attribute, getattr(node, attribute))
    return copy


def _src(node: Any) -> str:
    if isinstance(node, _Indented):
        return _src(node.node).replace("\n", "\n" + node.indent)
    text = str(astor.to_source(gast.gast_to_ast(node), pretty_source="".join)).strip()
    return text[1:-1] if _wrapped(text) else text


@dataclasses.dataclass(frozen=True)
class _Indented:
    """A statement printed at ``indent`` (its continuation lines too)."""

    node: Any
    indent: str


def _wrapped(text: str) -> bool:
    """Whether ``text`` is one parenthesised expression, e.g. ``(a > 1)`` but not ``(a) + (b)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


class _SSA:
    def __init__(self) -> None:
        self.versions: dict[str, int] = {}
        self.defs: list[Definition] = []
        self.lines: list[Line] = []
        self.controls: list[Control] = []
        self.loops = 0

    def fresh(self, var: str) -> str:
        n = self.versions.get(var)
        self.versions[var] = 0 if n is None else n + 1
        return var if n is None else f"{var}_{n + 1}"

    def rename(self, expr: Any, env: dict[str, str]) -> Any:
        return _renamed(expr, env)

    def define(self, var: str, env: dict[str, str], **kw: Any) -> str:
        name = self.fresh(var)
        env[var] = name
        self.defs.append(Definition(name, var, **kw))
        return name

    def block(self, stmts: list[Any], env: dict[str, str], indent: str) -> None:
        for stmt in stmts:
            self.stmt(stmt, env, indent)

    def stmt(self, stmt: Any, env: dict[str, str], indent: str) -> None:
        if isinstance(stmt, gast.If):
            self.if_(stmt, env, indent)
        elif isinstance(stmt, (gast.While, gast.For)):
            self.loop(stmt, env, indent)
        elif isinstance(stmt, gast.Try):
            self.try_(stmt, env, indent)
        elif isinstance(stmt, gast.FunctionDef):
            self.define(stmt.name, env, kind="assign")
            self.lines.append([f"{indent}{env[stmt.name]} = <function {stmt.name}>"])
        else:
            self.simple(stmt, env, indent)

    def simple(self, stmt: Any, env: dict[str, str], indent: str) -> None:
        appended = _appended(stmt)
        if appended is not None and appended in env:
            item = self.rename(stmt.value.args[0], env)
            before = env[appended]
            name = self.define(appended, env, expr=item, incoming=(before,), kind="append")
            self.lines.append([f"{indent}{name} = append({before}, ", item, ")"])
            return
        if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
            load = gast.Name(id=stmt.target.id, ctx=gast.Load(), annotation=None, type_comment=None)
            value = gast.BinOp(left=load, op=stmt.op, right=stmt.value)
            stmt = gast.Assign(targets=[stmt.target], value=value, type_comment=None)
        renamed = self.rename(stmt, env)
        written = sorted(names.writes(stmt))
        value = renamed.value if isinstance(renamed, gast.Assign) and len(written) == 1 else None
        for var in written:
            self.define(var, env, expr=value)
        for node in gast.walk(renamed):
            if (
                isinstance(node, gast.Name)
                and isinstance(node.ctx, gast.Store)
                and node.id in written
            ):
                node.id = env[node.id]
        self.lines.append([indent, _Indented(renamed, indent)])

    def if_(self, stmt: gast.If, env: dict[str, str], indent: str) -> None:
        test = self.rename(stmt.test, env)
        self.controls.append(Control("if", test=test))
        self.lines.append([f"{indent}if ", test, ":"])
        then_env, else_env = dict(env), dict(env)
        self.block(stmt.body, then_env, indent + "    ")
        if not stmt.body:
            self.lines.append([f"{indent}    pass"])
        if stmt.orelse:
            self.lines.append([f"{indent}else:"])
            self.block(stmt.orelse, else_env, indent + "    ")
        for var in sorted(set(then_env) | set(else_env)):
            a, b = then_env.get(var, UNDEF), else_env.get(var, UNDEF)
            if a != b and var in stmt.live_out:
                name = self.define(var, env, incoming=(a, b), kind="phi", test=test)
                self.lines.append([f"{indent}{name} = φ({a}, {b})"])
            elif a == b:
                env[var] = a

    def try_(self, stmt: gast.Try, env: dict[str, str], indent: str) -> None:
        """A ``try``: its blocks in order, each handler starting where the body may have stopped,
        so a variable the body assigns is unknown there (``?``), as is every variable the
        statement assigns after it: inference decides nothing by them."""
        inner = indent + "    "
        self.lines.append([f"{indent}try:"])
        body_env = dict(env)
        self.block(stmt.body, body_env, inner)
        for var in sorted(names.assigned(stmt.body)):
            self.define(var, env)
        for handler in stmt.handlers:
            caught = "" if handler.type is None else " " + _src(self.rename(handler.type, env))
            bound = "" if handler.name is None else f" as {handler.name.id}"
            self.lines.append([f"{indent}except{caught}{bound}:"])
            self.block(handler.body, dict(env), inner)
        if stmt.orelse:
            self.lines.append([f"{indent}else:"])
            self.block(stmt.orelse, body_env, inner)
        changed = sorted(names.assigned([stmt]))
        for var in changed:
            self.define(var, env)
        if changed:
            unknown = ", ".join(env[var] for var in changed)
            self.lines.append([f"{indent}{unknown} = ?"])
        if stmt.finalbody:
            self.lines.append([f"{indent}finally:"])
            self.block(stmt.finalbody, env, inner)

    def loop(self, stmt: Any, env: dict[str, str], indent: str) -> None:
        self.loops += 1
        written = names.assigned([stmt]) | _appended_in(stmt)
        carried = sorted(written & (stmt.live_header | stmt.live_out))
        self.lines.append([f"{indent}loop_{self.loops}:"])
        inner = indent + "    "
        before_loop = dict(env)
        phi_defs = []
        for var in carried:
            before = env.get(var, UNDEF)
            phi_defs.append((self.define(var, env, incoming=(before,), kind="loop-phi"), before))
        header = len(self.lines)
        body_env = dict(env)
        is_for = isinstance(stmt, gast.For)
        test = self.rename(stmt.iter, before_loop) if is_for else self.rename(stmt.test, env)
        for name, _ in phi_defs:
            next(d for d in self.defs if d.name == name).test = test
        extra = getattr(stmt, "extra_test", None)
        extra_test = None if extra is None else self.rename(extra, env)
        if is_for:
            self.controls.append(Control("for", test=extra_test, iterable=test))
            self.lines.append([f"{inner}for ", stmt.target, " in ", test, ":"])
            iter_expr = test if isinstance(stmt.target, gast.Name) else None
            for var in sorted(names.targets(stmt.target)):
                self.define(var, body_env, kind="target", expr=iter_expr, test=extra_test)
        else:
            self.controls.append(Control("while", test=test))
            self.lines.append([f"{inner}while ", test, ":"])
        if extra_test is not None:
            self.lines[-1] += ["  # and while ", extra_test]
        self.block(stmt.body, body_env, inner + "    ")
        phis = []
        for (name, before), var in zip(phi_defs, carried):
            end = body_env.get(var, UNDEF)
            next(d for d in self.defs if d.name == name).incoming = (before, end)
            phis.append([f"{inner}{name} = φ({before}, {end})"])
        self.lines[header:header] = phis


def _appended(stmt: Any) -> str | None:
    """The name ``stmt`` appends to, if it is ``name.append(value)`` (as lowering rewrites it)."""
    call = stmt.value if isinstance(stmt, gast.Expr) else None
    if (
        isinstance(call, gast.Call)
        and isinstance(call.func, gast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, gast.Name)
        and len(call.args) == 1
        and not call.keywords
    ):
        return str(call.func.value.id)
    return None


def _appended_in(loop: Any) -> set[str]:
    """The names appended to anywhere in ``loop`` (not in nested functions)."""
    found = set()
    for node in gast.walk(loop):
        name = _appended(node) if isinstance(node, gast.Expr) else None
        if name is not None:
            found.add(name)
    return found


def to_ssa(fn: gast.FunctionDef) -> SSAForm:
    """The SSA form of ``fn``, whose jumps ``lowering.jumps`` has already made flags."""
    liveness.annotate_function(fn)
    ssa = _SSA()
    env: dict[str, str] = {}
    params = names.params(fn)
    for p in params:
        ssa.define(p, env, kind="param")
    ssa.lines.append([f"def {fn.name}({', '.join(params)}):"])
    ssa.block(fn.body, env, "    ")
    return SSAForm(ssa.defs, ssa.lines, ssa.controls, _item_written(fn))


# Methods of containers and arrays that change their items in place (an append is a definition
# of its own: ``Definition.kind`` "append").
_CHANGING_METHODS = (names.CONTAINER_MUTATORS - {"append"}) | mutation.IN_PLACE_METHODS


def _item_written(fn: gast.FunctionDef) -> frozenset[str]:
    """The variables of ``fn`` whose items are assigned (``x[i] = v``, ``x[i] += v``), changed
    by a method (``d.update(...)``, ``x.sort()``) or updated in place (``x += v``, in place when
    ``x`` is an array or a list)."""
    found: set[str] = set()
    for node in gast.walk(fn):
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Attribute)
            and node.func.attr in _CHANGING_METHODS
            and isinstance(node.func.value, gast.Name)
        ):
            found.add(node.func.value.id)
        targets = node.targets if isinstance(node, gast.Assign) else []
        if isinstance(node, gast.AugAssign):
            targets = [node.target]
            if isinstance(node.target, gast.Name):
                found.add(node.target.id)
        for target in targets:
            while isinstance(target, gast.Subscript):
                target = target.value
                if isinstance(target, gast.Name):
                    found.add(target.id)
    return frozenset(found)
