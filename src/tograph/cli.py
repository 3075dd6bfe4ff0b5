"""The ``tograph`` command: show every stage of a function, run the conformance suite, benchmark.

    tograph show FILE.py:FUNCTION [--arg SPEC ...]   # SPEC: f64[3], f32[None,4], 5, 2.5, True
    tograph show FILE.py:FUNCTION --arg SPEC --dot   # the graph as Graphviz DOT (--svg: as SVG)
    tograph conformance [-k PATTERN] [-v]
    tograph bench [--quick] [--json OUT] [--only W1,W3] [--peers torch,jax|none] [--threads N]

Bad arguments print one line and exit with status 2. An error of the user's own code (importing
the file, or the function raising for the given argument types) prints its traceback without
tograph's frames and exits with status 1.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import inspect
import math
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.export import dot as export_dot
from tograph.ir import types

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_EXAMPLE_LIMIT = 2**30  # bytes: an example array larger than this is surely a mistyped dim


class UsageError(Exception):
    """A bad command-line argument; printed as one line, exit status 2."""


class UserCodeError(Exception):
    """The user's code raised (importing it, or the function for these arguments): printed as
    its traceback without tograph's frames, exit status 1."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error

    def report(self) -> str:
        frames = [  # without columns: converted code's do not match the user's line
            traceback.FrameSummary(f.filename, f.lineno, f.name, line=f.line)
            for f in traceback.extract_tb(self.error.__traceback__)
            if not f.filename.startswith((_PACKAGE, "<tograph ", "<frozen "))
        ]
        lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)]
        return "".join(lines + traceback.format_exception_only(self.error))


def parse_spec(text: str) -> tuple[Any, Any]:
    """An argument spec -> (example, TensorSpec or None); ``f64[3]`` a tensor, ``5`` static."""
    from tograph.trace import signature

    text = text.strip()
    if "[" in text:
        try:
            t = types.parse_type(text)
        except ValueError as exc:
            raise UsageError(f"cannot parse argument spec {text!r}: {exc}") from None
        if any(d is not None and d < 0 for d in t.shape):
            raise UsageError(f"argument spec {text!r} has a negative dimension")
        shape = tuple(1 if d is None else d for d in t.shape)
        if math.prod(shape) * t.dtype.itemsize > _EXAMPLE_LIMIT:
            raise UsageError(
                f"argument spec {text!r} is too large for an example array (over 1 GiB); "
                "give None for a dimension known only at run time"
            )
        example = np.zeros(shape, dtype=t.dtype)
        spec = signature.TensorSpec(t.shape, t.dtype) if None in t.shape else None
        return (example[()] if t.shape == () else example), spec
    try:
        return ast.literal_eval(text), None
    except (ValueError, SyntaxError):
        raise UsageError(
            f"cannot parse argument spec {text!r}; "
            "use a type like f64[3] or i64[] or a Python literal"
        ) from None


def load_function(target: str) -> Any:
    """``path/to/file.py:function`` -> the function object (the file is imported as a module)."""
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise UsageError(f"expected FILE.py:FUNCTION, got {target!r}")
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - whatever the user's file raises is its own error
        raise UserCodeError(exc) from None
    finally:
        sys.path.pop(0)
    fn = getattr(module, name, None)
    if fn is None:
        raise UsageError(f"{path} has no function {name!r}")
    return getattr(fn, "python_function", fn)


def _section(title: str, body: str, color: bool) -> str:
    header = f"\033[1;36m== {title} ==\033[0m" if color else f"== {title} =="
    return f"{header}\n{body}\n"


def _highlight(code: str, color: bool) -> str:
    if not color:
        return code
    try:
        import pygments
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return code
    return pygments.highlight(code, PythonLexer(), TerminalFormatter()).rstrip("\n")


def show(target: str, arg_specs: Sequence[str], out: Any = None, view: str = "stages") -> None:
    """Prints the lowered source, SSA, types and graph of ``target`` for these argument specs.

    With ``view`` "dot" or "svg" it prints the graph alone, as Graphviz DOT or SVG.
    """
    import tograph as tg

    out = out or sys.stdout
    fn = load_function(target)
    parsed = [parse_spec(s) for s in arg_specs]
    values = [v for v, _ in parsed]
    specs = [s for _, s in parsed]
    _check_arity(target, fn, len(values))
    spec = specs if any(specs) else None
    try:  # an error of the user's own code is reported as one, not as a fallback
        cf = tg.to_static(fn, input_spec=spec, fallback="error").concrete(*values)
    except tg.ConversionError as exc:
        cause = exc.__cause__
        own = (errors.UnsupportedError, errors.TracerError, errors.ConversionError)
        if isinstance(cause, Exception) and not isinstance(cause, own):
            raise UserCodeError(cause) from None
        cf = tg.to_static(fn, input_spec=spec, fallback="silent").concrete(*values)
    color = hasattr(out, "isatty") and out.isatty()
    if view != "stages":
        if cf.graph is None:
            raise UsageError(f"{target} runs eagerly, so it has no graph to draw: {cf.fallback}")
        try:
            out.write(cf.graph.to_dot() if view == "dot" else export_dot.to_svg(cf.graph))
        except tg.ExportError as exc:
            raise UsageError(exc.message + (f" ({exc.hint})" if exc.hint else "")) from None
        return
    if cf.fallback is not None:
        out.write(_section("fallback", f"runs eagerly: {cf.fallback}", color))
        return
    type_lines = "\n".join(f"{name}: {t}" for name, t in cf.types.items())
    out.write(_section("generated source (cf.code)", _highlight(cf.code.rstrip(), color), color))
    out.write(_section("SSA (cf.ssa)", cf.ssa, color))
    out.write(_section("types (cf.types)", type_lines, color))
    out.write(_section("graph (cf.graph)", str(cf.graph), color))


def _check_arity(target: str, fn: Any, count: int) -> None:
    """One ``--arg`` per parameter the function needs, and no more than it takes."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*range(count))
    except TypeError as exc:
        params = [
            p.name
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
        ]
        given = f"{count} --arg" + ("" if count == 1 else "s")
        raise UsageError(
            f"{target}({', '.join(params)}): {exc} ({given} given; one per argument, in order)"
        ) from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tograph", description="Compile Python + NumPy functions to graphs."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_show = sub.add_parser(
        "show", help="print the generated source, SSA, types and graph of a function"
    )
    p_show.add_argument("target", help="FILE.py:FUNCTION")
    p_show.add_argument(
        "--arg", action="append", default=[], help="argument spec: f64[3], i64[], 5, 2.5, ..."
    )
    drawing = p_show.add_mutually_exclusive_group()
    drawing.add_argument(
        "--dot", dest="view", action="store_const", const="dot", help="print the graph as DOT"
    )
    drawing.add_argument(
        "--svg",
        dest="view",
        action="store_const",
        const="svg",
        help="print the graph as SVG (needs Graphviz: the dot program or tograph[svg])",
    )
    p_conf = sub.add_parser("conformance", help="run the control-flow conformance suite")
    p_conf.add_argument(
        "-k", dest="pattern", default=None, help="only cases whose name contains PATTERN"
    )
    p_conf.add_argument("-v", dest="verbose", action="store_true")
    sub.add_parser(
        "bench",
        help="run the benchmark suite and print the table (see tograph bench --help)",
        add_help=False,
    )
    opts, rest = parser.parse_known_args(argv)
    if rest and opts.command != "bench":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if opts.command == "show":
            show(opts.target, opts.arg, view=opts.view or "stages")
            return 0
        if opts.command == "conformance":
            from tograph_conformance import runner

            try:
                runner.select(opts.pattern)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            args = (["-k", opts.pattern] if opts.pattern else []) + (["-v"] if opts.verbose else [])
            return runner.main(args)
        from tograph import bench

        return bench.main(rest)
    except UsageError as exc:
        print(f"tograph: error: {exc}", file=sys.stderr)
        return 2
    except UserCodeError as exc:
        print(exc.report(), file=sys.stderr, end="")
        return 1


if __name__ == "__main__":
    sys.exit(main())
