"""Stage: SSA. A structured function -> static single assignment form with phi nodes.

Input: a gast ``FunctionDef`` whose jumps are already flags (``lowering.jumps``).
Output: ``SSAForm``
listing every definition (``x``, ``x_1``, ``x_2``: the user's name plus a version) and its printed
text, in which a phi node ``x_3 = φ(x_1, x_2)`` joins the versions reaching the end of an ``if``,
and a loop header ``loop_1:`` holds the phis of the variables a loop carries. The form is *pruned*:
a phi appears only where its variable is live, which is exactly the state that lowering makes
into ``cond`` outputs and ``while_loop`` carries (``analysis.liveness``).
Requires: lowering.jumps.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import astor
import gast

from tograph.analysis import liveness
from tograph.frontend import names

UNDEF = "⊥"


@dataclasses.dataclass
class Definition:
    """One SSA value: ``name = expr`` (an assignment) or ``name = φ(*incoming)`` (a join)."""

    name: str
    var: str
    expr: Any = None  # gast expression with renamed reads, or None for params and phis
    incoming: tuple[str, ...] = ()
    kind: str = "assign"  # "param", "assign", "phi", "loop-phi", "target"
    test: Any = (
        None  # for phis: the condition (or loop iterable) deciding between the incoming values
    )


@dataclasses.dataclass
class SSAForm:
    definitions: list[Definition]
    text: str


class _Renamer(gast.NodeTransformer):
    def __init__(self, env: dict[str, str]):
        self.env = env

    def visit_Name(self, node: gast.Name) -> Any:
        if isinstance(node.ctx, gast.Load) and node.id in self.env:
            return gast.Name(id=self.env[node.id], ctx=node.ctx, annotation=None, type_comment=None)
        return node


def _src(node: Any) -> str:
    text = str(astor.to_source(gast.gast_to_ast(node), pretty_source="".join)).strip()
    return text[1:-1] if _wrapped(text) else text


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
        self.lines: list[str] = []
        self.loops = 0

    def fresh(self, var: str) -> str:
        n = self.versions.get(var)
        self.versions[var] = 0 if n is None else n + 1
        return var if n is None else f"{var}_{n + 1}"

    def rename(self, expr: Any, env: dict[str, str]) -> Any:
        return _Renamer(env).visit(copy.deepcopy(expr))

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
        elif isinstance(stmt, gast.FunctionDef):
            self.define(stmt.name, env, kind="assign")
            self.lines.append(f"{indent}{env[stmt.name]} = <function {stmt.name}>")
        else:
            self.simple(stmt, env, indent)

    def simple(self, stmt: Any, env: dict[str, str], indent: str) -> None:
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
        self.lines.append(f"{indent}{_src(renamed)}".replace("\n", "\n" + indent))

    def if_(self, stmt: gast.If, env: dict[str, str], indent: str) -> None:
        test = self.rename(stmt.test, env)
        self.lines.append(f"{indent}if {_src(test)}:")
        then_env, else_env = dict(env), dict(env)
        self.block(stmt.body, then_env, indent + "    ")
        if not stmt.body:
            self.lines.append(f"{indent}    pass")
        if stmt.orelse:
            self.lines.append(f"{indent}else:")
            self.block(stmt.orelse, else_env, indent + "    ")
        for var in sorted(set(then_env) | set(else_env)):
            a, b = then_env.get(var, UNDEF), else_env.get(var, UNDEF)
            if a != b and var in stmt.live_out:
                name = self.define(var, env, incoming=(a, b), kind="phi", test=test)
                self.lines.append(f"{indent}{name} = φ({a}, {b})")
            elif a == b:
                env[var] = a

    def loop(self, stmt: Any, env: dict[str, str], indent: str) -> None:
        self.loops += 1
        carried = sorted(names.assigned([stmt]) & (stmt.live_header | stmt.live_out))
        self.lines.append(f"{indent}loop_{self.loops}:")
        inner = indent + "    "
        phi_defs = []
        for var in carried:
            before = env.get(var, UNDEF)
            phi_defs.append((self.define(var, env, incoming=(before,), kind="loop-phi"), before))
        header = len(self.lines)
        body_env = dict(env)
        test = self.rename(stmt.iter if isinstance(stmt, gast.For) else stmt.test, env)
        for name, _ in phi_defs:
            next(d for d in self.defs if d.name == name).test = test
        if isinstance(stmt, gast.For):
            self.lines.append(f"{inner}for {_src(stmt.target)} in {_src(test)}:")
            iter_expr = self.rename(stmt.iter, env) if isinstance(stmt.target, gast.Name) else None
            for var in sorted(names.targets(stmt.target)):
                self.define(var, body_env, kind="target", expr=iter_expr)
        else:
            self.lines.append(f"{inner}while {_src(test)}:")
        extra = getattr(stmt, "extra_test", None)
        if extra is not None:
            self.lines[-1] += f"  # and while {_src(self.rename(extra, env))}"
        self.block(stmt.body, body_env, inner + "    ")
        phis = []
        for (name, before), var in zip(phi_defs, carried):
            end = body_env.get(var, UNDEF)
            next(d for d in self.defs if d.name == name).incoming = (before, end)
            phis.append(f"{inner}{name} = φ({before}, {end})")
        self.lines[header:header] = phis


def to_ssa(fn: gast.FunctionDef) -> SSAForm:
    """The SSA form of ``fn``, whose jumps ``lowering.jumps`` has already made flags."""
    liveness.annotate(fn.body, set())
    ssa = _SSA()
    env: dict[str, str] = {}
    params = names.params(fn)
    for p in params:
        ssa.define(p, env, kind="param")
    ssa.lines.append(f"def {fn.name}({', '.join(params)}):")
    ssa.block(fn.body, env, "    ")
    return SSAForm(ssa.defs, "\n".join(ssa.lines))
