"""A graph written as numba-jittable Python, for the operations numba computes exactly as NumPy.

Stage: execute (source generation for ``tograph.backend.numba_exec``; needs no numba). Input: a
``Graph``. Output: ``Generated``: the source of a module with one function taking the graph's
inputs (then its array constants) and returning ``(outputs, flags)``, where ``flags`` are the
processor's floating-point exception flags raised meanwhile; or ``Unsupported`` saying which
equation has no exact numba form. For example::

    @numba.njit(cache=True, error_model="numpy", boundscheck=True)
    def scalar_while(x):
        feclearexcept(61)
        n = 0
        x_1 = x
        while x_1 > np.float64(1.0):
            x_1 = x_1 * np.float64(0.995)
            n = add_i64(n, 1)
        return (x_1, n), fetestexcept(29)

Exactness is the rule for what is written. Every operand is cast to the dtype NumPy computes in (NEP
50 promotion, from the graph's types), so float32 stays float32 and a weak Python number never
widens an array. Only operations whose results are the same bits in numba and NumPy are accepted:
arithmetic, comparisons, logic, ``sqrt``, ``floor``/``ceil``/``trunc``, integer
``maximum``/``minimum``, ``where`` of arrays, casts, integer reductions, ``sum`` and ``mean`` of a
whole float64 or float32 array in NumPy's pairwise order (``numba_kernels.sum_float``), float64
``sin`` and ``cos`` (the C library's in both, which ``numba_libm`` checks before the executor
compiles: ``Generated.libm``), float64 matrix products and ``tanh``, ``exp``, ``log`` and their kin
(below), indexing by integers, run-time dimensions and sizes, ``cond`` and
``while_loop``. Every array of a compiled graph is C-contiguous (inputs by the signature, constants
copied so), as NumPy's are then too, so NumPy also sums each as one flat run; a graph with a float
sum and a constant that is not C-contiguous (NumPy would sum what is computed from it in its
memory order) keeps NumPy. A scalar NumPy gives as a 0-d array (``where`` of scalars, a 0-d array
constant) and a Python number NumPy converts with a warning or an error (``1e39`` meeting float32,
``2**63`` meeting int64) keep the NumPy executor too. Products of float64 matrices and float64
``tanh``, ``exp``, ``log`` and their kin (``NUMPY_UNARY``) of arrays call NumPy's own kernels,
its BLAS's ``dgemm`` and its ufuncs' SIMD loops (``numba_numpy``, which the executor checks before
compiling: ``Generated.numpy_kernels``). NumPy computes float32 ``sin`` and the other functions
with SIMD kernels numba has no call to, and float sums over some axes in other orders, none of
which numba reproduces bit for bit: a graph using one keeps the NumPy executor. Scalar int64
arithmetic (NumPy scalars warn on overflow, weak Python ints never wrap) goes through the checked
helpers of ``numba_kernels``; ``array_or_scalar`` is written as its operator (a call that warns
or wraps, where a 0-d array and a NumPy scalar would differ, goes to the NumPy executor).

A loop writes the results of NumPy's kernels in its body into buffers it reuses from one step
to the next (``matmul_f64_into(a, b, buffer)``), where the value a buffer held is dead by the
time it is written again: a result only read by operations making new arrays, or a carry's
only result, given two buffers used in turn, when the carry's value coming into the step is
only read that way too (``_Writer.plan_buffers``). Allocating each step's matrices cost W2 a
sixth of its time; the kernels' bits are the same wherever they write.

A value used once, by a later operation of the same block, is written into that operation's
expression rather than named (``x_2 = np.sin(x_1) - np.float64(0.3)``): numba then fuses the array
operations into one loop, as a user writing numba by hand would get. A graph with float sums
makes their stack once per call (``sum_stack = new_sum_stack()``), and the names the module uses
besides the graph's values (the helpers, the constants) are kept from them: a user's ``add_i64``
or ``mean_float`` becomes ``add_i64_1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tograph.ir import core, types
from tograph.ops import control, elementwise, indexing, linalg, reductions, shape

_INDENT = "    "
_SUM_STACK = "sum_stack"
# NumPy's float64 kernels compiled code calls (``numba_numpy``), each by its helper <name>_f64.
NUMPY_UNARY = ("tanh", "exp", "log", "expm1", "log1p", "sinh", "cosh", "arctan", "log2", "log10")
NUMPY_KERNELS = ("matmul", *NUMPY_UNARY)
# The names the module uses besides the graph's values: numba_kernels' helpers and the sum stack.
_HELPERS = (
    *("feclearexcept", "fetestexcept", "ALL_FLAGS", "WATCHED", "Bail", "numba"),
    *(f"{name}_f64{form}" for name in NUMPY_KERNELS for form in ("", "_into")),
    *("add_i64", "sub_i64", "mul_i64", "neg_i64", "abs_i64", "floordiv_i64", "mod_i64"),
    *("sum_float", "mean_float", "new_sum_stack", _SUM_STACK),
)
_DTYPES = {np.dtype(d) for d in (np.bool_, np.int64, np.float64, np.float32, np.int8)}
_I64, _F64, _BOOL = np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.bool_)
_FLOATS = {_F64, np.dtype(np.float32)}
# Only moved, never computed with: the kind tags of path-dependent values (staging/kinds.py).
_MOVED_ONLY = {np.dtype(np.int8)}


class Unsupported(Exception):
    """The graph has no exact numba form; the message says why."""


@dataclasses.dataclass
class Generated:
    """A generated module: its source, the function's name, the array constants it takes after
    the graph's inputs, for each graph output either ("value", k) — the k-th returned value,
    boxed as ``kinds[k]`` says — or ("const", value), the names of the C library functions
    it calls where NumPy calls them too (``sin``, ``cos``), and of NumPy's own kernels it calls
    (``matmul``, ``tanh``: ``numba_numpy``), with the static ``(m, n, p)`` of its matrix
    products, which the executor checks against NumPy's before compiling."""

    source: str
    name: str
    consts: list[Any]
    outputs: list[tuple[str, Any]]
    kinds: list[tuple[str, np.dtype]]
    libm: frozenset[str] = frozenset()
    numpy_kernels: frozenset[str] = frozenset()
    matmul_shapes: frozenset[tuple[int, int, int]] = frozenset()


def generate(graph: core.Graph) -> Generated:
    """The numba module of ``graph`` (see module docstring).

    Raises:
      Unsupported: an equation or a value has no exact numba form.
    """
    return _Writer(graph).write()


def _ttype(atom: core.Atom) -> types.TensorType:
    t = atom.type
    if not isinstance(t, types.TensorType):
        raise Unsupported(f"a list value ({t}) has no numba form here")
    if t.dtype not in _DTYPES:
        raise Unsupported(f"dtype {t.dtype} is not compiled with numba here")
    return t


def _np(dtype: np.dtype) -> str:
    return f"np.{np.dtype(dtype).name}"


class _Writer:
    def __init__(self, graph: core.Graph):
        self.graph = graph
        self.namer = core.Namer()
        for name in _HELPERS:  # a user's variable of the same name gets another
            self.namer.fresh(name)
        core.name_vars(graph, self.namer)
        self.env: dict[int, str] = {}
        self.lines: list[str] = []
        self.consts: list[Any] = []
        self.const_names: list[str] = []
        self.libm: set[str] = set()
        self.numpy_kernels: set[str] = set()
        self.matmul_shapes: set[tuple[int, int, int]] = set()
        self.float_sums = False
        self.reordered_consts = False
        self.uses = _use_counts(graph)
        # kernel results written into a buffer a loop reuses: value id -> (buffer, partner)
        self.scratch: dict[int, tuple[str, str | None]] = {}

    def write(self) -> Generated:
        params = [self.define(v) for v in self.graph.inputs]
        for v in self.graph.inputs:
            _ttype(v)
        name = _identifier(self.graph.name)
        body: list[str] = []
        self.lines = body
        self.line(_INDENT, "feclearexcept(ALL_FLAGS)")
        self.block(self.graph, _INDENT)
        if self.float_sums:
            body.insert(1, f"{_INDENT}{_SUM_STACK} = new_sum_stack()")
        outputs, returned, kinds = self.results()
        ret = ", ".join(returned) + ("," if len(returned) == 1 else "")
        self.line(_INDENT, f"return ({ret}), fetestexcept(WATCHED)")
        consts = [types.type_of(c) for c in self.consts]
        signature = ", ".join(str(t) for t in [*(v.type for v in self.graph.inputs), *consts])
        header = [
            # The types make the file's name, its hash, differ per signature: numba compiles
            # each module for one signature only.
            f"# graph {self.graph.name}({signature}), generated by tograph.backend.numba_code",
            "import numba",
            "import numpy as np",
            "from tograph.backend.numba_kernels import *  # noqa: F403",
            *(
                f"from tograph.backend.numba_numpy import {name}_f64, {name}_f64_into"
                for name in sorted(self.numpy_kernels)
            ),
            "",
            "",
            '@numba.njit(cache=True, error_model="numpy", boundscheck=True)',
            f"def {name}({', '.join([*params, *self.const_names])}):",
        ]
        if self.float_sums and self.reordered_consts:
            # NumPy sums an array in its memory order, and a value computed from a constant
            # keeps the constant's layout; numba's copy of it is C-ordered
            raise Unsupported("a float sum in a graph with a non-C-contiguous array constant")
        if self.numpy_kernels and self.reordered_consts:
            # NumPy passes such a constant, and what is computed from it, to its BLAS transposed
            raise Unsupported(
                f"{min(self.numpy_kernels)} in a graph with a non-C-contiguous array constant"
            )
        source = "\n".join(header + body) + "\n"
        return Generated(
            source,
            name,
            self.consts,
            outputs,
            kinds,
            frozenset(self.libm),
            frozenset(self.numpy_kernels),
            frozenset(self.matmul_shapes),
        )

    def results(self) -> tuple[list[tuple[str, Any]], list[str], list[tuple[str, np.dtype]]]:
        outputs: list[tuple[str, Any]] = []
        returned: list[str] = []
        kinds: list[tuple[str, np.dtype]] = []
        for atom in self.graph.outputs:
            if isinstance(atom, core.Lit):
                outputs.append(("const", atom.value))
                continue
            t = _ttype(atom)
            outputs.append(("value", len(returned)))
            returned.append(self.expr(atom))
            kinds.append(("weak" if t.weak else "scalar" if t.shape == () else "array", t.dtype))
        return outputs, returned, kinds

    # ---- writing ------------------------------------------------------------------------
    def line(self, indent: str, text: str) -> None:
        self.lines.append(indent + text)

    def define(self, var: core.Var) -> str:
        name = self.namer.name(var)
        self.env[var.id] = name
        return name

    def expr(self, atom: core.Atom) -> str:
        if isinstance(atom, core.Var):
            return self.env[atom.id]
        return self.literal(atom.value, _ttype(atom))

    def literal(self, value: Any, t: types.TensorType) -> str:
        if isinstance(value, np.ndarray) and value.shape == ():  # numba would give a scalar
            raise Unsupported("a 0-d array constant")
        if t.shape != ():
            name = self.namer.fresh(f"const_{len(self.consts)}")
            self.reordered_consts |= not np.asarray(value).flags.c_contiguous
            self.consts.append(np.ascontiguousarray(value))
            self.const_names.append(name)
            return name
        value = value.item() if isinstance(value, (np.generic, np.ndarray)) else value
        if t.dtype == _BOOL:
            return repr(bool(value))
        if isinstance(value, float) and not np.isfinite(value):
            text = "np.nan" if np.isnan(value) else ("np.inf" if value > 0 else "-np.inf")
        else:
            text = repr(value)
        return text if t.weak else f"{_np(t.dtype)}({text})"

    def cast(self, atom: core.Atom, dtype: np.dtype) -> str:
        """``atom`` as a value of ``dtype`` (scalars converted, arrays by ``astype``)."""
        t, text = _ttype(atom), self.expr(atom)
        if isinstance(atom, core.Lit) and t.shape == ():
            value = atom.value.item() if hasattr(atom.value, "item") else atom.value
            try:
                with np.errstate(all="raise"):
                    converted = np.dtype(dtype).type(value)
            except (FloatingPointError, OverflowError) as exc:  # NumPy warns or raises per call
                raise Unsupported(f"{value!r} as {dtype} ({exc})") from exc
            return self.literal(converted, types.TensorType(dtype, ()))
        if t.dtype == dtype and not t.weak:
            return text
        if t.weak and t.dtype.kind == "i" and dtype.kind in "iu" and dtype != _I64:
            raise Unsupported("a Python int meeting a narrower int array (NumPy checks its range)")
        if t.shape == ():
            return f"{_np(dtype)}({text})"
        return f"{text}.astype({_np(dtype)})"

    def block(self, graph: core.Graph, indent: str) -> None:
        nested = self.nested_uses(graph)
        for eqn in graph.eqns:
            if eqn.prim is control.cond_p:
                self.write_cond(eqn, indent)
            elif eqn.prim is control.while_loop_p:
                self.write_while(eqn, indent)
            else:
                emit = _EMITTERS.get(eqn.prim)
                if emit is None or eqn.prim.effectful:
                    raise Unsupported(f"{eqn.prim.name} has no exact numba form here")
                operation = elementwise.as_operator(eqn)  # kind tags are only read
                for atom in [*operation.inputs, *operation.outputs]:
                    if _ttype(atom).dtype in _MOVED_ONLY:
                        raise Unsupported(f"{eqn.prim.name} of {_ttype(atom).dtype}")
                text = emit(self, eqn)
                single = eqn.outputs[0].id if len(eqn.outputs) == 1 else None
                if single in nested and single not in self.scratch:
                    self.env[eqn.outputs[0].id] = text
                    continue
                outs = [self.define(v) for v in eqn.outputs]
                self.line(indent, f"{', '.join(outs)} = {text}")
                if single in self.scratch:
                    self.keep_buffer(eqn.outputs[0].id, indent)

    def nested_uses(self, graph: core.Graph) -> set[int]:
        """The values of ``graph``'s block written into the one expression that uses them, so
        numba fuses a chain of array operations into one loop (``np.sin(x) - 0.3``) instead of
        filling an array per step: those used once, by a later equation of the same block that
        names each operand once. The expressions are pure and nothing in a block is assigned
        twice, so evaluating one where it is used gives the same value."""
        nested: set[int] = set()
        for eqn in graph.eqns:
            if eqn.prim in (control.cond_p, control.while_loop_p) or eqn.prim in _REPEATS:
                continue
            for atom in eqn.inputs:
                if isinstance(atom, core.Var) and self.uses[atom.id] == 1:
                    nested.add(atom.id)
        return nested

    def inline(
        self, graph: core.Graph, args: Sequence[str], targets: Sequence[core.Var], indent: str
    ) -> None:
        for var, arg in zip(graph.inputs, args):
            self.env[var.id] = arg
        start = len(self.lines)
        self.block(graph, indent)
        exprs = [self.cast(a, _ttype(t).dtype) for a, t in zip(graph.outputs, targets)]
        names = [self.env[t.id] for t in targets]
        pairs = [(n, e) for n, e in zip(names, exprs) if n != e]
        if pairs:
            lhs, rhs = ", ".join(n for n, _ in pairs), ", ".join(e for _, e in pairs)
            self.line(indent, f"{lhs} = {rhs}")
        if len(self.lines) == start:
            self.line(indent, "pass")

    def write_cond(self, eqn: core.Eqn, indent: str) -> None:
        pred, operands = self.expr(eqn.inputs[0]), [self.expr(a) for a in eqn.inputs[1:]]
        for v in eqn.outputs:
            self.define(v)
        self.line(indent, f"if {pred}:")
        self.inline(eqn.params["then_graph"], operands, eqn.outputs, indent + _INDENT)
        self.line(indent, "else:")
        self.inline(eqn.params["else_graph"], operands, eqn.outputs, indent + _INDENT)

    def write_while(self, eqn: core.Eqn, indent: str) -> None:
        n = eqn.params["num_consts"]
        test, body = eqn.params["cond_graph"], eqn.params["body_graph"]
        consts = [self.expr(a) for a in eqn.inputs[:n]]
        inits = [self.cast(a, _ttype(v).dtype) for a, v in zip(eqn.inputs[n:], eqn.outputs)]
        carries = [self.define(v) for v in eqn.outputs]
        if carries:
            self.line(indent, f"{', '.join(carries)} = {', '.join(inits)}")
        self.plan_buffers(eqn, indent)
        inner = indent + _INDENT
        for var, arg in zip(test.inputs, [*consts, *carries]):
            self.env[var.id] = arg
        self.line(indent, "while True:")
        self.block(test, inner)
        self.line(inner, f"if not {self.expr(test.outputs[0])}:")
        self.line(inner + _INDENT, "break")
        for var, carry in zip(body.inputs[n:], eqn.outputs):
            self.env[var.id] = self.env[carry.id]
        self.inline(body, [*consts, *carries], eqn.outputs, inner)

    # ---- buffers reused from one step of a loop to the next ---------------------------------
    def plan_buffers(self, eqn: core.Eqn, indent: str) -> None:
        """Gives buffers to the kernel results of the loop's body that can reuse one, and
        declares them (empty: a kernel writing into one of another shape makes a new array,
        kept for the next step). Each entry into the loop declares them anew, so nothing a
        loop entered before holds is written.

        A result read only by operations making new arrays (``_SHARING`` aside) in its block is
        dead before the next step writes its buffer again. The body's result for a carry may
        take two buffers used in turn, when it is that carry's only result and is otherwise
        read as above, and the carry's value coming into the body is read that way only too:
        the step writing a buffer again is the second after it was written, and the value it
        held then, the carry coming into the step before, was not handed on."""
        n = eqn.params["num_consts"]
        body: core.Graph = eqn.params["body_graph"]
        reads = _fresh_reads(body)
        results = [a.id if isinstance(a, core.Var) else None for a in body.outputs]

        def only_read(var: core.Var, also: int = 0) -> bool:
            return reads.get(var.id, 0) + also == self.uses.get(var.id, 0)

        for e in body.eqns:
            if e.prim not in _KERNELS:
                continue
            (var,) = e.outputs
            empty = f"np.empty({(0,) * _ttype(var).ndim}, np.float64)"
            if only_read(var):
                buffer = self.namer.fresh("buffer")
                self.scratch[var.id] = (buffer, None)
                self.line(indent, f"{buffer} = {empty}")
            elif results.count(var.id) == 1 and only_read(var, also=1):
                incoming = body.inputs[n + results.index(var.id)]
                if results.count(incoming.id) or not only_read(incoming):
                    continue
                buffer, partner = self.namer.fresh("buffer"), self.namer.fresh("buffer")
                self.scratch[var.id] = (buffer, partner)
                self.line(indent, f"{buffer}, {partner} = {empty}, {empty}")

    def into(self, eqn: core.Eqn, call: str) -> str:
        """The kernel ``call`` (``name(args)``) written into its buffer, if it has one."""
        planned = self.scratch.get(eqn.outputs[0].id)
        if planned is None:
            return call
        name, args = call.split("(", 1)
        return f"{name}_into({args[:-1]}, {planned[0]})"

    def keep_buffer(self, var_id: int, indent: str) -> None:
        """Keeps the array a kernel wrote for the next step (and turns the two of a carry)."""
        buffer, partner = self.scratch[var_id]
        name = self.env[var_id]
        if partner is None:
            self.line(indent, f"{buffer} = {name}")
        else:
            self.line(indent, f"{buffer}, {partner} = {partner}, {name}")


# ---- emitters ------------------------------------------------------------------------------------

Emitter = Callable[[_Writer, core.Eqn], str]
_ARITH = {
    elementwise.add_p: ("+", "add_i64"),
    elementwise.subtract_p: ("-", "sub_i64"),
    elementwise.multiply_p: ("*", "mul_i64"),
}
_COMPARE = {
    elementwise.less_p: "<",
    elementwise.less_equal_p: "<=",
    elementwise.greater_p: ">",
    elementwise.greater_equal_p: ">=",
    elementwise.equal_p: "==",
    elementwise.not_equal_p: "!=",
}


def _out(eqn: core.Eqn) -> types.TensorType:
    return _ttype(eqn.outputs[0])


def _common(eqn: core.Eqn) -> np.dtype:
    """The dtype NumPy computes ``eqn`` in: its operands' promotion (NEP 50)."""
    return types.promote([_ttype(a) for a in eqn.inputs])[0]


def _scalar_int(t: types.TensorType) -> bool:
    return t.shape == () and t.dtype.kind == "i"


def _arith(w: _Writer, eqn: core.Eqn) -> str:
    out = _out(eqn)
    if out.dtype == _BOOL:
        raise Unsupported(f"{eqn.prim.name} of bools")
    a, b = (w.cast(x, out.dtype) for x in eqn.inputs)
    symbol, checked = _ARITH[eqn.prim]
    if _scalar_int(out):
        return f"{checked}({a}, {b})"
    return f"({a} {symbol} {b})"


def _divide(w: _Writer, eqn: core.Eqn) -> str:
    ins = [_ttype(x) for x in eqn.inputs]
    if all(t.weak and t.dtype.kind == "i" for t in ins):
        raise Unsupported("true division of Python ints (exact in Python, not in float64)")
    a, b = (w.cast(x, _out(eqn).dtype) for x in eqn.inputs)
    return f"({a} / {b})"


def _int_division(helper: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        out = _out(eqn)
        if not _scalar_int(out) or out.dtype != _I64:
            raise Unsupported(f"{eqn.prim.name} other than of int64 scalars")
        a, b = (w.cast(x, _I64) for x in eqn.inputs)
        return f"{helper}({a}, {b})"

    return emit


def _compare(w: _Writer, eqn: core.Eqn) -> str:
    ins = [_ttype(x) for x in eqn.inputs]
    if all(t.weak for t in ins) and {t.dtype.kind for t in ins} == {"i", "f"}:
        raise Unsupported("comparison of a Python int with a Python float (exact in Python)")
    common = _common(eqn)
    a, b = (w.cast(x, common) for x in eqn.inputs)
    return f"({a} {_COMPARE[eqn.prim]} {b})"


def _logic(name: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        if any(_ttype(a).dtype != _BOOL for a in eqn.inputs):
            raise Unsupported(f"{eqn.prim.name} of non-bool values")
        args = [w.cast(a, _BOOL) for a in eqn.inputs]
        if _out(eqn).shape == ():
            if name == "logical_not":
                return f"(not {args[0]})"
            symbol = {"logical_and": "and", "logical_or": "or", "logical_xor": "!="}[name]
            return f"({args[0]} {symbol} {args[1]})"
        return f"np.{name}({', '.join(args)})"

    return emit


def _unary(kind: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        out = _out(eqn)
        (a,) = (w.cast(x, out.dtype) for x in eqn.inputs)
        if out.dtype == _BOOL:
            raise Unsupported(f"{eqn.prim.name} of bools")
        if kind == "negative":
            return f"neg_i64({a})" if _scalar_int(out) else f"(-{a})"
        if kind == "abs":
            return f"abs_i64({a})" if _scalar_int(out) else f"np.abs({a})"
        if kind == "square":
            return f"mul_i64({a}, {a})" if _scalar_int(out) else f"({a} * {a})"
        if out.dtype.kind != "f":
            raise Unsupported(f"{eqn.prim.name} of {out.dtype}")
        return f"np.{kind}({a})"

    return emit


def _int_extremum(name: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        out = _out(eqn)
        if out.dtype.kind != "i":  # float maxima: NumPy's SIMD kernels pick among signed zeros
            raise Unsupported(f"{name} of {out.dtype}")
        a, b = (w.cast(x, out.dtype) for x in eqn.inputs)
        return f"{name}({a}, {b})" if out.shape == () else f"np.{name}imum({a}, {b})"

    return emit


def _float_test(name: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        (x,) = eqn.inputs
        if _ttype(x).dtype.kind != "f":
            raise Unsupported(f"{name} of {_ttype(x)}")
        return f"np.{name}({w.expr(x)})"

    return emit


def _where(w: _Writer, eqn: core.Eqn) -> str:
    out = _out(eqn)
    c = w.cast(eqn.inputs[0], _BOOL)
    a, b = (w.cast(x, out.dtype) for x in eqn.inputs[1:])
    if out.shape == ():  # numba would give a scalar
        raise Unsupported("where of scalars (NumPy gives a 0-d array)")
    if any(_ttype(x).shape != out.shape for x in eqn.inputs):
        raise Unsupported("where with broadcasting")
    return f"np.where({c}, {a}, {b})"


def _astype(w: _Writer, eqn: core.Eqn) -> str:
    (x,), out = eqn.inputs, _out(eqn)
    if out.weak:
        return {"b": "bool", "i": "int", "f": "float"}[out.dtype.kind] + f"({w.expr(x)})"
    text = w.cast(x, out.dtype)
    return f"{text}.copy()" if text == w.expr(x) and out.shape != () else text


def _reduction(name: str) -> Emitter:
    def emit(w: _Writer, eqn: core.Eqn) -> str:
        (x,) = eqn.inputs
        t, out = _ttype(x), _out(eqn)
        if name == "sum" and t.dtype in _FLOATS:
            return _float_reduction(w, eqn, "sum_float")
        if t.dtype.kind not in "bi" or out.shape != ():
            raise Unsupported(f"{name} of {t} (compiled for whole int and bool arrays only)")
        if eqn.params.get("dtype") is not None or t.shape == ():
            raise Unsupported(f"{name} with a dtype or of a scalar")
        text = w.cast(x, out.dtype)
        return f"np.{name}({text})" if name != "sum" else f"{text}.sum()"

    return emit


def _float_reduction(w: _Writer, eqn: core.Eqn, kernel: str) -> str:
    """``np.sum`` or ``np.mean`` of a whole float64 or float32 array, in NumPy's pairwise order
    (``numba_kernels.sum_float``): the array is C-contiguous, as every array of a compiled graph
    is, so NumPy too sums it as one flat run."""
    (x,) = eqn.inputs
    t, out = _ttype(x), _out(eqn)
    whole = eqn.params["axis"] in (None, tuple(range(t.ndim)))
    if t.dtype not in _FLOATS or out.dtype != t.dtype:
        raise Unsupported(f"{eqn.prim.name} of {t} (NumPy converts in buffers)")
    if t.shape == () or not whole or eqn.params["keepdims"] or eqn.params["dtype"] is not None:
        raise Unsupported(f"{eqn.prim.name} of {t} other than of a whole array in its dtype")
    w.float_sums = True
    return f"{kernel}({w.expr(x)}, {_SUM_STACK})"


def _mean(w: _Writer, eqn: core.Eqn) -> str:
    return _float_reduction(w, eqn, "mean_float")


def _libm(name: str) -> Emitter:
    """``sin`` or ``cos`` of float64 values: NumPy calls the C library's function for them, as
    numba does, and the executor checks that the two agree on this machine (``numba_libm``).
    NumPy computes float32 ones with its own SIMD kernels."""

    def emit(w: _Writer, eqn: core.Eqn) -> str:
        if _out(eqn).dtype != _F64:
            raise Unsupported(f"{name} of {_out(eqn).dtype} (NumPy's own SIMD kernel)")
        w.libm.add(name)
        return f"np.{name}({w.cast(eqn.inputs[0], _F64)})"

    return emit


def _numpy_unary(name: str) -> Emitter:
    """A float64 array through the loop NumPy's ufunc runs for it (``numba_numpy``), checked by
    the executor against NumPy's before compiling."""

    def emit(w: _Writer, eqn: core.Eqn) -> str:
        (x,) = eqn.inputs
        t, out = _ttype(x), _out(eqn)
        if t.dtype != _F64 or t.weak or out.dtype != _F64:
            raise Unsupported(f"{name} of {t} (NumPy's own kernel is called for float64 only)")
        if t.shape == ():
            raise Unsupported(f"{name} of a scalar (NumPy's own kernel is called on arrays only)")
        w.numpy_kernels.add(name)
        return w.into(eqn, f"{name}_f64({w.expr(x)})")

    return emit


def _matmul(w: _Writer, eqn: core.Eqn) -> str:
    """``a @ b`` of float64 matrices by the BLAS call NumPy makes (``numba_numpy.matmul_f64``,
    which hands shapes and layouts NumPy computes otherwise to the NumPy executor)."""
    a, b = (_ttype(x) for x in eqn.inputs)
    if any(t.dtype != _F64 or t.weak or t.ndim != 2 for t in (a, b)):
        raise Unsupported(f"matmul of {a} and {b} (NumPy's BLAS is called for float64 matrices)")
    if any(d is not None and d < 2 for d in (*a.shape, b.shape[1])):
        raise Unsupported(f"matmul of {a} and {b} (a dimension below 2: NumPy does not call gemm)")
    w.numpy_kernels.add("matmul")
    m, n, p = (*a.shape, b.shape[1])
    if m is not None and n is not None and p is not None:
        w.matmul_shapes.add((m, n, p))
    return w.into(eqn, f"matmul_f64({w.expr(eqn.inputs[0])}, {w.expr(eqn.inputs[1])})")


def _getitem(w: _Writer, eqn: core.Eqn) -> str:
    x, *args = eqn.inputs
    items = []
    for item in eqn.params["index"].items:
        if isinstance(item, indexing.Arg):
            arg = args[item.k]
            if not _scalar_int(_ttype(arg)):
                raise Unsupported("an index that is not an integer")
            items.append(w.expr(arg))
        elif type(item) is int:
            items.append(repr(item))
        else:
            raise Unsupported(f"index item {item!r}")
    if not items:
        raise Unsupported("an empty index")
    return f"{w.expr(x)}[{', '.join(items)}]"


def _dim(w: _Writer, eqn: core.Eqn) -> str:
    (x,) = eqn.inputs
    return f"{w.expr(x)}.shape[{eqn.params['axis'] % _ttype(x).ndim}]"


def _size(w: _Writer, eqn: core.Eqn) -> str:
    return f"{w.expr(eqn.inputs[0])}.size"


# Emitters naming an operand twice (``x * x``): an expression written in would run twice.
def _array_or_scalar(w: _Writer, eqn: core.Eqn) -> str:
    """The operator itself: a call on which the array's arithmetic and the NumPy scalar's would
    differ (a warning, a wrap) goes to the NumPy executor, which runs ``array_or_scalar``."""
    operator = elementwise.as_operator(eqn)
    emit = _EMITTERS.get(operator.prim)
    if emit is None:
        raise Unsupported(f"{operator.prim.name} has no exact numba form here")
    return emit(w, operator)


_REPEATS = {elementwise.square_p}
# Emitters whose result may share an operand's memory (a view). Every other emitter's result is
# a new array or a scalar, which ``_Writer.plan_buffers`` relies on: one returning a view
# belongs here.
_SHARING = {indexing.getitem_p}

_EMITTERS: dict[Any, Emitter] = {
    **{p: _arith for p in _ARITH},
    **{p: _compare for p in _COMPARE},
    elementwise.divide_p: _divide,
    elementwise.floor_divide_p: _int_division("floordiv_i64"),
    elementwise.mod_p: _int_division("mod_i64"),
    elementwise.logical_and_p: _logic("logical_and"),
    elementwise.logical_or_p: _logic("logical_or"),
    elementwise.logical_xor_p: _logic("logical_xor"),
    elementwise.logical_not_p: _logic("logical_not"),
    elementwise.negative_p: _unary("negative"),
    elementwise.abs_p: _unary("abs"),
    elementwise.square_p: _unary("square"),
    elementwise.sqrt_p: _unary("sqrt"),
    elementwise.floor_p: _unary("floor"),
    elementwise.ceil_p: _unary("ceil"),
    elementwise.trunc_p: _unary("trunc"),
    elementwise.sin_p: _libm("sin"),
    elementwise.cos_p: _libm("cos"),
    **{getattr(elementwise, f"{name}_p"): _numpy_unary(name) for name in NUMPY_UNARY},
    linalg.matmul_p: _matmul,
    elementwise.maximum_p: _int_extremum("max"),
    elementwise.minimum_p: _int_extremum("min"),
    elementwise.isnan_p: _float_test("isnan"),
    elementwise.isfinite_p: _float_test("isfinite"),
    elementwise.isinf_p: _float_test("isinf"),
    elementwise.where_p: _where,
    elementwise.array_or_scalar_p: _array_or_scalar,
    elementwise.astype_p: _astype,
    reductions.sum_p: _reduction("sum"),
    reductions.mean_p: _mean,
    reductions.max_p: _reduction("max"),
    reductions.min_p: _reduction("min"),
    reductions.any_p: _reduction("any"),
    reductions.all_p: _reduction("all"),
    indexing.getitem_p: _getitem,
    shape.dim_p: _dim,
    shape.size_p: _size,
}


# The kernels writing into a loop's buffer (``numba_numpy``'s ``_into`` helpers).
_KERNELS = {linalg.matmul_p, *(getattr(elementwise, f"{name}_p") for name in NUMPY_UNARY)}


def _fresh_reads(graph: core.Graph) -> dict[int, int]:
    """How often each value is read by an equation of ``graph``'s own block making a new array
    or a scalar from it (not a view, not a nested graph's operand)."""
    counts: dict[int, int] = {}
    for eqn in graph.eqns:
        if eqn.prim in _EMITTERS and eqn.prim not in _SHARING:
            for atom in eqn.inputs:
                if isinstance(atom, core.Var):
                    counts[atom.id] = counts.get(atom.id, 0) + 1
    return counts


def _use_counts(graph: core.Graph) -> dict[int, int]:
    """How often each value is an operand or an output, nested graphs included."""
    counts: dict[int, int] = {}
    graphs = [graph]
    while graphs:
        g = graphs.pop()
        for atom in [*(a for e in g.eqns for a in e.inputs), *g.outputs]:
            if isinstance(atom, core.Var):
                counts[atom.id] = counts.get(atom.id, 0) + 1
        graphs.extend(sub for e in g.eqns for sub in e.subgraphs())
    return counts


def _identifier(text: str) -> str:
    base = "".join(c if c.isalnum() else "_" for c in text).strip("_") or "graph"
    return f"graph_{base}" if base[0].isdigit() else base
