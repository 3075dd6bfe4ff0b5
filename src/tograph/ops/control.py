"""Control-flow primitives ``cond`` and ``while_loop``: their type rules and printed form.

Stage: ops. Each holds closed graphs in its params: ``cond`` a ``then_graph`` and an
``else_graph``, ``while_loop`` a ``cond_graph`` and a ``body_graph``. Printed form::

    y:f64[] = cond p x
      then(x_1:f64[]):
        t0:f64[] = negative x_1
        return t0
      else(x_2:f64[]):
        return x_2
    i:i64[]~, s:f64[] = while_loop[num_consts=1] n 0 x
      cond(n_1:i64[], i_1:i64[]~, s_1:f64[]):
        t1:bool[] = less i_1 n_1
        return t1
      body(n_2:i64[], i_2:i64[]~, s_2:f64[]):
        ...

The graphs are closed: outer values a branch or body uses are captured as extra inputs (operands
after the explicit ones for ``cond``; the leading ``num_consts`` inputs for ``while_loop``). A
branch or body output may be more specific than the equation's type (``f64[3]`` for ``f64[None]``,
see ``types.fits``); dtypes and weakness always agree. Their kernels run nested graphs, so the
backend registers them (``tograph.backend.codegen``); ``staging.control_flow`` builds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import errors
from tograph.ir import core, primitives, types

# ---- primitives --------------------------------------------------------------------------


def _require(ok: bool, problem: str) -> None:
    if not ok:
        raise errors.InternalError(problem)


def _cond_rule(
    pred: types.ValueType,
    *operands: types.ValueType,
    then_graph: core.Graph,
    else_graph: core.Graph,
) -> tuple[types.ValueType, ...]:
    _require(_is_bool_scalar(pred), f"cond predicate must be a bool scalar, got {pred}")
    _require(then_graph.in_types == else_graph.in_types, "cond branches take different inputs")
    _require(_all_fit(operands, then_graph.in_types), "cond operands do not fit the branch inputs")
    _require(
        len(then_graph.outputs) == len(else_graph.outputs), "cond branches return different counts"
    )
    outs = []
    for a, b in zip(then_graph.out_types, else_graph.out_types):
        joined = types.join(a, b)
        _require(
            types.fits(a, joined) and types.fits(b, joined), f"cond branches return {a} and {b}"
        )
        outs.append(joined)
    return tuple(outs)


def _while_rule(
    *in_types: types.ValueType, cond_graph: core.Graph, body_graph: core.Graph, num_consts: int
) -> tuple[types.ValueType, ...]:
    carries = body_graph.in_types[num_consts:]
    _require(
        cond_graph.in_types == body_graph.in_types, "while_loop cond and body take different inputs"
    )
    _require(
        _all_fit(in_types, body_graph.in_types), "while_loop operands do not fit the loop inputs"
    )
    _require(
        len(cond_graph.outputs) == 1 and _is_bool_scalar(cond_graph.out_types[0]),
        f"while_loop cond must return one bool scalar, got {_types_text(cond_graph.out_types)}",
    )
    _require(
        _all_fit(body_graph.out_types, carries), "while_loop body outputs do not fit the carries"
    )
    return tuple(carries)


def _types_text(ts: Sequence[types.ValueType]) -> str:
    return f"({', '.join(map(str, ts))})"


def _is_bool_scalar(t: types.ValueType) -> bool:
    return isinstance(t, types.TensorType) and t.dtype == np.bool_ and t.shape == ()


def _all_fit(values: Sequence[types.ValueType], targets: Sequence[types.ValueType]) -> bool:
    return len(values) == len(targets) and all(types.fits(v, t) for v, t in zip(values, targets))


def _needs_backend(*args: Any, **params: Any) -> Any:
    raise errors.InternalError("control-flow kernels are registered by tograph.backend")


cond_p = primitives.Primitive("cond", _needs_backend, _cond_rule, multiple_results=True)
while_loop_p = primitives.Primitive(
    "while_loop", _needs_backend, _while_rule, multiple_results=True
)
