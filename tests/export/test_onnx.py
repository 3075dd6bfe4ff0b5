"""export_onnx: every compiled conformance case that ONNX can express exports, passes
onnx.checker and gives tograph's results in onnxruntime; If and Loop, indexing, reductions and the
errors for what ONNX cannot hold."""

import contextlib
import importlib.util
import io
import pathlib
import warnings

import numpy as np
import onnx
import onnxruntime
import pytest

import tograph as tg
from tograph.backend import codegen
from tograph.ir import core

from . import compiled as corpus
from . import onnx_run

ENTRIES = corpus.compiled()

# Why the rest do not export: effects (exported with drop_effects=True instead), complex numbers,
# an op with no ONNX form yet, or no tensor result at all.
_COMPLEX = {"complex_state_in_loop", "mandelbrot_escape", "low_pass_until_smooth"}
_NO_FORM = {"largest_eigenvalue_over_a_stack", "whiten_until_small", "histogram_accumulate"}
# host calls (numpy_call) run NumPy itself, which ONNX cannot
_HOST = {"hermitian_spectrum", "tensor_inverse_branch", "tensor_solve_in_loop", "ndarray_methods"}
_HOST |= {"python_scalars_from_tensors"}  # math.* runs Python's math (math_call)
_HOST |= {"sorted_with_lambda_key_over_list"}  # Python's own sorted (python_order)
_NO_FORM |= {"round_of_float_of_tensor"}  # Python's round(x, n) rounds in decimal
_NO_FORM |= {"tuple_of_matrices_chain_product"}  # np.trace
# random draws take their numbers from NumPy's or Python's generators, which ONNX cannot
# the graph raises NumPy's error on these inputs (np.stack of an empty list)
_NUMPY_RAISES = {"stack_of_empty_list_raises"}
_RANDOM = {entry.case.name for entry in ENTRIES if entry.case.category == "random"}
_WHY = {
    **dict.fromkeys(_RANDOM, "which ONNX's random operators cannot reproduce"),
    **dict.fromkeys(_COMPLEX, "complex"),
    **dict.fromkeys(_NO_FORM | _HOST, "ONNX has no equivalent op"),
}
# The realistic routines use what ONNX lacks (math.*, FFTs, medians by sorting, a seeded
# generator's draws) or, on Python number inputs, have no tensor result: each that does not export
# must say one of these.
_REALISTIC_WHY = (
    "ONNX has no equivalent op",
    "complex numbers",
    "no tensor result",
    "which ONNX's random operators cannot reproduce",
)


def _why(entry):
    """The reasons an entry's export may give for failing (none: it must export)."""
    if entry.case.category == "realistic":
        return _REALISTIC_WHY
    if not entry.cf.graph.outputs:  # every result static on these inputs (a loop run no time)
        return ("no tensor result",)
    return (_WHY.get(entry.case.name, "(exports)"),)


def _export(entry):
    try:
        return tg.export_onnx(entry.cf), False
    except tg.ExportError as exc:
        if "cannot export print" in exc.message or "cannot export assert" in exc.message:
            return tg.export_onnx(entry.cf, drop_effects=True), True
        if "cannot export raise" in exc.message:
            return tg.export_onnx(entry.cf, drop_effects=True), True
        raise


def _assert_same(expected, actual):
    assert len(expected) == len(actual)
    for i, (x, y) in enumerate(zip(expected, actual)):
        if isinstance(x, list):  # a tensor list: onnxruntime gives a sequence as a list too
            _assert_same(x, y)
            continue
        assert (y.dtype, y.shape) == (x.dtype, x.shape), f"output {i}"
        rtol = 1e-5 if x.dtype == np.float32 else 1e-9
        np.testing.assert_allclose(y, x, rtol=rtol, atol=1e-12, err_msg=f"output {i}")


@pytest.mark.parametrize("entry", ENTRIES, ids=corpus.ids(ENTRIES))
def test_conformance_case_exports_and_runs(entry):
    try:
        model, dropped = _export(entry)
    except tg.ExportError as exc:
        assert any(reason in exc.message for reason in _why(entry)), exc.message
        return
    onnx.checker.check_model(model, full_check=True)
    args, kwargs = entry.arguments()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            codegen.execute(entry.cf.graph, *onnx_run.graph_inputs(entry.cf, args, kwargs))
    except Exception as exc:  # noqa: BLE001 - what the graph raises on these inputs
        # an assert or raise the model, without effects, does not have; or NumPy's own error
        assert dropped or entry.case.name in _NUMPY_RAISES, exc
        assert exc.__notes__[-1].startswith("tograph: "), exc
        return
    expected, actual = onnx_run.run_both(model, entry.cf, *entry.arguments())
    _assert_same(expected, actual)


def test_nearly_every_case_exports():
    exported = 0
    entries = [
        entry for entry in ENTRIES if entry.case.category != "realistic" and entry.cf.graph.outputs
    ]
    for entry in entries:
        try:
            _export(entry)
            exported += 1
        except tg.ExportError:
            pass
    hosted = sum(entry.case.name in _HOST | _RANDOM for entry in entries)
    assert exported >= len(entries) - 12 - hosted


def _check(fn, *args, **options):
    """Exports ``fn``'s signature for ``args``, checks the model, runs both, returns the model."""
    static = tg.to_static(fn, fallback="error")
    cf = static.concrete(*args)
    model = tg.export_onnx(cf, **options)
    onnx.checker.check_model(model, full_check=True)
    _assert_same(*onnx_run.run_both(model, cf, args, {}))
    return model


def _ops(model):
    found = set()

    def visit(graph):
        for node in graph.node:
            found.add(node.op_type)
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    visit(attr.g)

    visit(model.graph)
    return found


# ---- control flow ------------------------------------------------------------------------


def test_cond_becomes_if():
    def relu_sum(x):
        if np.sum(x) > 0:
            x = x * 2
        else:
            x = -x
        return x

    for x in (np.array([1.0, -3.0]), np.array([1.0, 3.0])):
        assert "If" in _ops(_check(relu_sum, x))


def test_while_loop_becomes_loop_with_carried_counter_and_consts():
    def collatz(n):
        steps = 0
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    model = _check(collatz, np.int64(27))
    assert {"Loop", "If"} <= _ops(model)


def test_nested_loops_and_lists():
    def triangle(m, n):
        rows = []
        for i in range(n):
            total = np.float64(0.0)  # a Python float on the path the while skips would differ
            j = 0
            while j <= i:
                total = total + m[i, j]
                j += 1
            rows.append(total)
        return np.stack(rows)

    model = _check(triangle, np.arange(16.0).reshape(4, 4), np.int64(4))
    assert {"Loop", "SequenceEmpty", "SequenceInsert", "ConcatFromSequence"} <= _ops(model)


def test_a_tensor_list_left_empty_stacks_in_onnxruntime():
    """ConcatFromSequence refuses an empty sequence, where tograph stacks to shape (0, 2)."""

    def kept_pairs(x):
        rows = []
        for v in x:
            if v > 1:
                rows.append(np.array([v, v * v]))
        return tg.ops.lists.stack(rows)

    for x in (np.array([0.5, 2.0, 3.0]), np.array([0.5, -1.0])):
        _check(kept_pairs, x)


def test_newton_exports_with_its_print_dropped():
    import sys

    from . import test_dot

    del sys  # test_dot put examples/ on the path
    cf = test_dot._newton()
    with pytest.raises(tg.ExportError) as info:
        tg.export_onnx(cf)
    assert "cannot export print to ONNX" in str(info.value)
    assert "quickstart.py:23" in str(info.value)
    model = tg.export_onnx(cf, drop_effects=True)
    assert "Loop" in _ops(model)
    a = np.array([2.0, 9.0, 1e4])
    expected, actual = onnx_run.run_both(model, cf, (a,), {})
    _assert_same(expected, actual)
    assert [i.name for i in model.graph.input] == ["a"]
    assert [o.name for o in model.graph.output] == ["x", "steps"]


def test_an_errstate_block_that_raises_is_an_effect_to_drop():
    """Eager raises FloatingPointError in such a block, which no ONNX operator does: like a
    ``raise``, it exports only with ``drop_effects`` (the bug: it was left out silently)."""

    def guarded(x):
        with np.errstate(divide="raise"):
            y = 1.0 / x
        return y

    def quiet(x):
        with np.errstate(divide="ignore"):
            y = 1.0 / x
        return y

    a = np.array([2.0, 4.0])
    with pytest.raises(tg.ExportError, match="makes floating-point errors raise"):
        tg.export_onnx(tg.to_static(guarded).concrete(a))
    for fn in (guarded, quiet):
        cf = tg.to_static(fn).concrete(a)
        model = tg.export_onnx(cf, drop_effects=fn is guarded)
        expected, actual = onnx_run.run_both(model, cf, (a,), {})
        _assert_same(expected, actual)


# ---- ops beyond the corpus ---------------------------------------------------------------

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]])
V = np.array([3.0, -1.0, 2.0, 7.0, -5.0])
N = np.array([7, -7, 3, -3, 0])


@pytest.mark.parametrize(
    "fn, args",
    [
        (lambda x: (np.var(x, axis=1), np.std(x), np.mean(x, axis=0, keepdims=True)), (X,)),
        (lambda x: (np.argmax(x, axis=1), np.argmin(x), np.cumsum(x, axis=1)), (X,)),
        (lambda x: (np.prod(x, axis=0), np.min(x, axis=1), np.any(x > 3), np.all(x > -3)), (X,)),
        (lambda x: (np.linalg.norm(x), np.linalg.norm(x, axis=1), np.linalg.norm(x[0], 1)), (X,)),
        (lambda x: (x.reshape(3, 2), x.T, np.flip(x, axis=1), x[:, None, :].squeeze(1)), (X,)),
        (lambda x: (np.concatenate([x, x], axis=0), np.stack([x, x], axis=2), x.ravel()), (X,)),
        (
            lambda x: (np.broadcast_to(x[0], (4, 3)), np.expand_dims(x, 0), np.swapaxes(x, 0, 1)),
            (X,),
        ),
        (lambda x: (np.where(x > 0, x, 0.0), np.clip(x, -1.0, 2.0), np.round(x * 10, 1)), (X,)),
        (lambda x: (x @ x.T, np.dot(x[0], x[1]), np.einsum("ij,kj->ik", x, x)), (X,)),
        (lambda x: (np.diagonal(x), np.diag(x, 1), x[None].diagonal(-1, 2, 1) * 2), (X,)),
        (lambda x: np.linalg.det(x @ x.T + 1.0), (X.astype(np.float32),)),  # ORT: f32 only
        (lambda x: (np.arange(5) * x[0, 0], np.zeros((2, 3)) + x, np.ones(3, np.int32) + 1), (X,)),
        (lambda i: (i // 2, i % 3, i // -2, i % -3, i << 2, i >> 1), (N,)),
        (lambda v: (v // 2.0, v % 2.0, v % -2.0, np.floor_divide(v, -3.0)), (V,)),
        (lambda v: (*divmod(v, -2.0), *np.divmod(v.astype(np.int64), 3)), (V,)),
        (lambda v: (np.sqrt(np.abs(v)), np.exp(v / 10), np.log1p(np.abs(v)), np.tanh(v)), (V,)),
        (
            lambda v: (np.expm1(v), np.log2(v * v), np.log10(v * v), np.exp2(v), np.trunc(v / 3)),
            (V,),
        ),
        (lambda v: (np.deg2rad(v), np.rad2deg(v), np.hypot(v, 2.0), np.sin(v), np.cos(v)), (V,)),
        (lambda v: (np.isnan(v), np.isfinite(v / 0.5), np.sign(v), v.astype(np.int32)), (V,)),
        (lambda v: (v[1:4], v[::-1], v[-2], v[::2], v[3:0:-1], v[..., None]), (V,)),
        (lambda x: (x[1], x[:, 1], x[1, ::-1], x[..., 0], x[None, 1, :2]), (X,)),
        (lambda v: (v[v > 0], v[[0, 2, 2]], v[np.array([-1, 0])]), (V,)),
        (lambda x: (x[x > 0], x[:, x[0] > 0], x[[1, 0], [2, 2]], x[[0, 1]]), (X,)),
    ],
    ids=lambda value: "" if not callable(value) else None,
)
def test_op_matches_numpy(fn, args):
    _check(fn, *args)


def test_indexing_with_tensor_bounds_and_updates():
    def window(v, k):
        out = v.copy()
        out[k : k + 2] = 0.0
        out[k] += 10.0
        return v[k:], v[: k + 1], v[k], out

    for k in (np.int64(0), np.int64(2)):
        assert "ScatterElements" in _ops(_check(window, V, k))


def test_weak_python_scalars_keep_float32():
    model = _check(lambda x: x * 0.5 + 1, np.ones(3, np.float32))
    assert model.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT


def test_a_reshape_to_a_scalar_exports():
    """A 0-d target shape is an empty shape tensor (it was a Concat of no inputs, which the
    checker rejects): a one-element array as a condition is reshaped so."""
    _check(lambda x: np.reshape(x * 2, ()), np.ones((1, 1)))

    def halve_while_large(x):
        while x > 1.0:
            x = x / 2
        return x

    _check(halve_while_large, np.array([5.0]))


def test_a_literal_output_is_an_output():
    """Passes fold constant results away; a loaded graph may still return a literal."""
    from tograph.export import container

    header, data = container.unpack(tg.export.saves(tg.to_static(lambda x: x + 1).concrete(V)))
    signature = header["signatures"][0]
    signature["graph"]["outputs"].append({"value": {"float": "0x1.8p+1"}, "type": "f64[]~"})
    signature["result"] = {"tree": {"tuple": [None, None]}, "slots": [0, 1]}
    loaded = tg.export.loads(container.pack(header, bytes(data)))
    assert isinstance(loaded.graph.outputs[1], core.Lit)
    cf = loaded.concrete_functions[0]
    model = tg.export_onnx(cf)
    assert [o.name for o in model.graph.output] == ["t0", "output_1"]
    _assert_same(*onnx_run.run_both(model, cf, (V,), {}))


def test_dynamic_dims_stay_dynamic():
    static = tg.to_static(lambda v: np.cumsum(v) * 2, input_spec=[tg.TensorSpec((None,))])
    cf = static.concrete(np.arange(3.0))
    model = tg.export_onnx(cf)
    dim = model.graph.input[0].type.tensor_type.shape.dim[0]
    assert not dim.HasField("dim_value")
    for n in (1, 6):
        _assert_same(*onnx_run.run_both(model, cf, (np.arange(float(n)),), {}))


# ---- files, metadata, errors -------------------------------------------------------------


def test_the_model_is_written_and_names_user_lines(tmp_path):
    def double(x):
        return x * 2

    cf = tg.to_static(double).concrete(V)
    path = tmp_path / "double.onnx"
    tg.export_onnx(cf, path)
    model = onnx.load(path)
    assert model.producer_name == "tograph"
    assert model.opset_import[0].version == 18
    (mul,) = [n for n in model.graph.node if n.op_type == "Mul"]
    assert "test_onnx.py:" in mul.doc_string and "return x * 2" in mul.doc_string


def test_an_op_without_onnx_form_names_the_op_and_line():
    def invert(m):
        return np.linalg.inv(m)  # the line the error names

    cf = tg.to_static(invert).concrete(np.eye(2))
    with pytest.raises(tg.ExportError) as info:
        tg.export_onnx(cf)
    assert info.value.message.startswith("cannot export inv to ONNX: ONNX has no equivalent op")
    assert "return np.linalg.inv(m)" in str(info.value)
    assert info.value.loc.line == invert.__code__.co_firstlineno + 1


def test_which_signature_to_export_must_be_clear():
    static = tg.to_static(lambda x: x + 1)
    with pytest.raises(tg.ExportError, match="0 compiled signatures"):
        tg.export_onnx(static)
    static(np.ones(2))
    assert tg.export_onnx(static).graph.input[0].name == "x"
    static(np.ones(3))
    with pytest.raises(tg.ExportError, match="(?s)2 compiled signatures.*fn.concrete"):
        tg.export_onnx(static)
    with pytest.raises(tg.ExportError, match="cannot export a str"):
        tg.export_onnx("model")


def test_a_loaded_function_exports_like_the_original():
    cf = tg.to_static(lambda v: np.maximum(v, 0) ** 2).concrete(V)
    loaded = tg.export.loads(tg.export.saves(cf))
    assert tg.export_onnx(loaded).SerializeToString() == tg.export_onnx(cf).SerializeToString()


def test_the_ops_without_onnx_form_are_the_documented_ones():
    from tograph.export import onnx_ops

    missing = corpus.tograph_primitives() - set(onnx_ops.OPS)
    assert missing == {
        *("inv", "solve", "argsort", "sort", "tensordot", "trace", "diag", "linspace", "eye"),
        *("arctan2", "logaddexp", "cbrt", "print", "assert", "raise", "warn", "check_finite"),
        *("raise_if", "errstate", "errstate_end"),
        *("bitcast", "byteswap", "random"),
        *("list_pop_ct", "list_holes", "list_unstack", "list_add", "list_add_at"),
        *("list_set", "list_take_ct"),
        *("cumprod", "nanargmax", "nanargmin", "nonzero", "pad_index", "put_along_axis"),
        *("repeat", "split", "ufunc_accumulate", "ufunc_at", "ufunc_reduce", "unique"),
        *("cholesky", "eig", "eigh", "eigvals", "eigvalsh", "lstsq", "matrix_power", "pinv"),
        *("qr", "slogdet", "svd", "svdvals", "vdot", "real", "imag", "conj"),
        *("fft", "fft_resize", "fftfreq", "fftshift", "irfft", "rfft"),
        *("convolve", "correlate", "interp", "polyfit", "polyval", "searchsorted"),
        *("numpy_call", "math_call", "python_order"),
        "python_round",
    }
    docs = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "export.md").read_text()
    assert [name for name in sorted(missing) if f"`{name}`" not in docs] == []


def test_arguments_written_in_place_are_outputs_after_the_result():
    def step(x, v):
        v *= 0.9
        v += x
        x += v
        return x[:2]

    x, v = np.linspace(0.0, 1.0, 4), np.ones(4)
    cf = tg.to_static(step, fallback="error").concrete(x, v)
    model = tg.export_onnx(cf)
    assert len(model.graph.output) == 3  # the view returned, then x and v as the call leaves them
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    view, new_x, new_v = session.run(None, {"x": x, "v": v})
    step(x, v)
    np.testing.assert_allclose(new_x, x)
    np.testing.assert_allclose(new_v, v)
    np.testing.assert_allclose(view, x[:2])


def _example(name):
    """A module of examples/, imported by path (it has no package)."""
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_example_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _exports_and_runs(cf, args):
    """The model of ``cf``, checked and run; float32 sums in another order differ in the last
    bits, so results are compared relative to each output's largest magnitude."""
    model = tg.export_onnx(cf)
    onnx.checker.check_model(model, full_check=True)
    expected, actual = onnx_run.run_both(model, cf, args, {})
    assert len(expected) == len(actual)
    for x, y in zip(expected, actual):
        assert (y.dtype, y.shape) == (x.dtype, x.shape)
        scale = float(np.max(np.abs(x), initial=1.0))
        np.testing.assert_allclose(y, x, rtol=0, atol=np.finfo(x.dtype).eps * 64 * scale)
    return model


def test_the_rnn_example_and_its_gradient_export():
    rnn = _example("rnn")
    rng = np.random.default_rng(1)
    args = (
        rng.standard_normal((5, 5)) * 0.3,
        rng.standard_normal((3, 5)) * 0.3,
        np.zeros(5),
        rng.standard_normal((7, 2, 3)),
        rng.standard_normal((2, 5)),
    )
    assert "Loop" in _ops(_exports_and_runs(rnn.rnn_loss.concrete(*args), args))
    step = tg.value_and_grad(rnn.rnn_loss, argnums=(0, 1, 2))
    assert "Loop" in _ops(_exports_and_runs(step.concrete(*args), args))


def test_the_mlp_examples_export():
    mlp = _example("mlp_inference")
    rng = np.random.default_rng(2)
    params = [
        (rng.standard_normal((m, n)).astype(np.float32), np.zeros(n, np.float32))
        for m, n in [(6, 4), (4, 2)]
    ]
    x = rng.standard_normal((3, 6)).astype(np.float32)
    _exports_and_runs(tg.to_static(mlp.mlp).concrete(x, params), (x, params))
    classifier = _example("mlp_classifier")
    rng = np.random.default_rng(3)
    params = classifier.init_params(rng)
    points, labels = classifier.spirals(rng)
    args = (params, points, labels)
    _exports_and_runs(classifier.loss_fn.concrete(*args), args)
    step = tg.value_and_grad(classifier.loss_fn)
    _exports_and_runs(step.concrete(*args), args)


def test_a_gradient_summed_back_over_a_run_time_dim_exports():
    def loss(x, b):
        return np.sum(np.tanh(x + b) * x)

    spec = [tg.TensorSpec((None, 3), np.float64), tg.TensorSpec((3,), np.float64)]
    step = tg.value_and_grad(tg.to_static(loss, input_spec=spec), argnums=(0, 1))
    x, b = np.linspace(-1, 1, 12).reshape(4, 3), np.array([0.1, -0.2, 0.3])
    cf = step.concrete(x, b)
    model = _exports_and_runs(cf, (x, b))
    assert "ReduceSum" in _ops(model)
    assert not model.graph.input[0].type.tensor_type.shape.dim[0].HasField("dim_value")
    _assert_same(*onnx_run.run_both(model, cf, (x[:2], b), {}))


def _nan_statistics(x):
    return np.nanmean(x, axis=0), np.nanvar(x, axis=0, ddof=1)


def test_numpy_s_warnings_are_left_out_of_the_model():
    x = np.array([[np.nan, 1.0, np.nan], [np.nan, 2.0, 3.0]])
    assert str(tg.to_static(_nan_statistics).concrete(x).graph).count("warn[") == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _check(_nan_statistics, x)
