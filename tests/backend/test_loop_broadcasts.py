"""Loop-invariant operands a loop body broadcasts: which are copied to full shape before the loop,
and that the compiled loop then gives eager's results bit for bit."""

import numpy as np
import pytest

import tograph as tg
from tograph.backend import loop_broadcasts
from tograph.ops import control


def rnn(xs, h, wx, wh, b):
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return h


def powers(xs, h, wx, wh, b):
    for t in range(xs.shape[0]):
        h = np.tanh(np.power(np.abs(xs[t] @ wx), b) + h @ wh)
    return h


def carried_plus_bias(xs, h, wx, wh, b):
    for t in range(xs.shape[0]):
        h = np.tanh(h + b) @ wh + xs[t] @ wx
    return h


def rnn_inputs(batch=4, hidden=8, dtype=np.float64):
    rng = np.random.default_rng(7)
    return (
        rng.normal(size=(5, batch, 3)).astype(dtype),
        np.zeros((batch, hidden), dtype),
        (rng.normal(size=(3, hidden)) * 0.5).astype(dtype),
        (rng.normal(size=(hidden, hidden)) * 0.5).astype(dtype),
        rng.normal(size=hidden).astype(dtype),
    )


def compiled(fn, args):
    """``fn`` compiled with the time dimension dynamic, so that its ``for`` is a ``while_loop``."""
    spec = [tg.TensorSpec((None, *args[0].shape[1:])), None, None, None, None]
    return tg.to_static(fn, input_spec=spec, fallback="error")


def broadcasts_of(fn, args):
    graph = compiled(fn, args).concrete(*args).graph
    (loop,) = [e for e in graph.eqns if e.prim is control.while_loop_p]
    body = loop.params["body_graph"]
    found = loop_broadcasts.find(body, loop.params["num_consts"])
    return [(body.inputs[b.index].type, b.shape, len(b.uses)) for b in found]


def test_a_bias_added_to_each_step_is_copied_once_to_the_batch_shape():
    args = rnn_inputs()
    ((bias_type, shape, uses),) = broadcasts_of(rnn, args)
    assert bias_type.shape == (8,) and shape == (4, 8) and uses == 1


@pytest.mark.parametrize(
    ("fn", "why"),
    [
        (powers, "power may round differently on contiguous operands"),
        (carried_plus_bias, "the other operand is a carry, of unknown layout"),
    ],
)
def test_operands_that_could_change_a_result_are_left_alone(fn, why):
    assert broadcasts_of(fn, rnn_inputs()) == [], why


def test_a_copy_larger_than_the_limit_is_not_made(monkeypatch):
    monkeypatch.setattr(loop_broadcasts, "MAX_BYTES", 4 * 8 * 8 - 1)
    assert broadcasts_of(rnn, rnn_inputs()) == []


@pytest.mark.parametrize("fn", [rnn, powers, carried_plus_bias])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_compiled_loops_give_eager_bits(fn, dtype):
    args = rnn_inputs(dtype=dtype)
    args[4][:3] = [np.inf, -0.0, 1e30]  # an infinite bias saturates tanh; no warning either way
    saved = [a.copy() for a in args]
    expected = fn(*saved)
    got = compiled(fn, args)(*args)
    assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    for arg, before in zip(args, saved):
        assert arg.tobytes() == before.tobytes()
