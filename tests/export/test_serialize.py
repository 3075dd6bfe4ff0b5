"""tg.save and tg.load: every compiled conformance case round-trips (same graph text, same
outcome on its inputs, same gradients), and the API around it: signatures, files, errors."""

import random
import warnings

import numpy as np
import pytest

import tograph as tg
from tograph.export import container
from tograph.ir import pytree, types
from tograph_conformance import compare

from . import compiled as corpus

ENTRIES = corpus.compiled()


def _plain(value):
    """``value`` with namedtuples as plain tuples (a loaded result's namedtuple class is new)."""
    leaves, tree = pytree.flatten(value)
    return _untyped(tree).unflatten(leaves)


def _untyped(tree):
    kind = tree.kind if tree.kind in (None, tuple, list, dict) else tuple
    return pytree.TreeDef(kind, tree.meta, tuple(_untyped(c) for c in tree.children))


def _outcome(fn, entry):
    """What a call does, from the same seeds of the global random generators each time."""
    args, kwargs = entry.arguments()
    np.random.seed(0)
    random.seed(0)
    outcome = compare.observe(lambda: fn(*args, **kwargs))
    outcome.value = _plain(outcome.value)
    return outcome


def test_the_corpus_compiles():
    assert len(ENTRIES) >= 500


@pytest.mark.parametrize("entry", ENTRIES, ids=corpus.ids(ENTRIES))
def test_round_trip(entry):
    try:
        blob = tg.export.saves(entry.cf)
    except tg.ExportError as exc:
        assert entry.case.name in _UNSAVEABLE, exc
        return
    loaded = tg.export.loads(blob)
    assert str(loaded.graph) == str(entry.cf.graph)
    compare.compare_outcomes(_outcome(entry.cf, entry), _outcome(loaded, entry))
    assert tg.export.saves(loaded) == blob  # saving is deterministic, and loading loses nothing


# A function passed as an argument is static and known by identity, and a function given an
# object reads its attributes at every call: no file can hold either.
_UNSAVEABLE = {
    "function_passed_in",
    "bound_method_self_attributes",
    *("welford_object", "adam_object", "alpha_beta_tracker_object", "ring_buffer_object"),
    # a generator passed as an argument is static too, and the graph draws from that very object
    *("dropout_with_generator_argument", "shuffle_argument_in_place", "draw_only_on_taken_branch"),
    # a raise of np.linalg.LinAlgError: a file holds only built-in exception classes
    "gauss_partial_pivoting",
}


def test_only_the_known_cases_cannot_be_saved():
    unsaveable = set()
    for entry in ENTRIES:
        try:
            tg.export.saves(entry.cf)
        except tg.ExportError:
            unsaveable.add(entry.case.name)
    assert unsaveable == _UNSAVEABLE


def _differentiable(entry):
    """Float array arguments and float results: the sum of the results is differentiable."""
    args, kwargs = entry.arguments()
    if kwargs or not entry.cf.graph.outputs:
        return None
    wrt = tuple(
        i
        for i, a in enumerate(args)
        if isinstance(a, (np.ndarray, np.floating)) and np.asarray(a).dtype.kind == "f"
    )
    outs = [t for t in entry.cf.graph.out_types if isinstance(t, types.TensorType)]
    if (
        not wrt
        or len(outs) != len(entry.cf.graph.outputs)
        or any(t.dtype.kind != "f" for t in outs)
    ):
        return None
    if any(e.prim.effectful for e in entry.cf.graph.walk()):
        return None  # the gradient would print or raise as well
    return wrt


def _total(fn):
    def total(*args):
        leaves, _ = pytree.flatten(fn(*args))
        return sum(np.sum(leaf) for leaf in leaves if not isinstance(leaf, (str, type(None))))

    return total


GRAD_ENTRIES = tuple(
    e for e in ENTRIES if e.case.name not in _UNSAVEABLE and _differentiable(e) is not None
)


def test_many_cases_are_differentiable():
    assert len(GRAD_ENTRIES) >= 100


@pytest.mark.parametrize("entry", GRAD_ENTRIES, ids=corpus.ids(GRAD_ENTRIES))
def test_grad_of_loaded_function_matches(entry):
    wrt = _differentiable(entry)
    loaded = tg.export.loads(tg.export.saves(entry.cf))
    args, _ = entry.arguments()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tg.FallbackWarning)
        try:
            expected = tg.grad(_total(entry.case.fn), wrt)(*args)
        except tg.ToGraphError:  # not differentiable here: nor is the loaded function
            with pytest.raises(tg.ToGraphError):
                tg.grad(_total(loaded), wrt)(*entry.arguments()[0])
            return
        except ValueError as exc:  # NumPy's error on these inputs: the loaded function's too
            with pytest.raises(type(exc), match=str(exc)):
                tg.grad(_total(loaded), wrt)(*entry.arguments()[0])
            return
    actual = tg.grad(_total(loaded), wrt)(*entry.arguments()[0])
    compare.compare_values(expected, actual)


# ---- the API -------------------------------------------------------------------------------


@tg.to_static
def scale(x, factor=2.0, *, shift=0):
    if np.sum(x) > 0:
        x = x * factor
    return {"y": x + shift, "n": 3}


def test_every_traced_signature_is_saved(tmp_path):
    x32, x64 = np.ones(3, np.float32), -np.ones((2, 2))
    scale(x32)
    scale(x64, 3.0, shift=1)
    path = tmp_path / "scale.tograph"
    tg.save(scale, path)
    loaded = tg.load(path)
    assert len(loaded.concrete_functions) == 2
    compare.compare_values(scale(x32), loaded(x32))
    compare.compare_values(scale(x64, 3.0, shift=1), loaded(x64, factor=3.0, shift=1))
    assert loaded.__name__ == "scale"
    assert repr(loaded) == "<LoadedFunction scale: 2 signatures>"


def test_a_call_with_unsaved_types_names_the_saved_ones():
    loaded = tg.export.loads(tg.export.saves(scale.concrete(np.ones(3))))
    with pytest.raises(
        tg.ToGraphError, match=r"no graph for arguments \(x: i64\[3\]\).*x: f64\[3\]"
    ):
        loaded(np.ones(3, np.int64))
    with pytest.raises(tg.ToGraphError, match="no graph"):
        loaded(np.ones(3), 5.0)  # a static value is part of the signature


def test_input_spec_with_dynamic_dims_is_kept():
    spec = tg.to_static(lambda v: np.cumsum(v) * 2, input_spec=[tg.TensorSpec((None,))])
    spec(np.arange(3.0))
    loaded = tg.export.loads(tg.export.saves(spec))
    np.testing.assert_array_equal(loaded(np.arange(7.0)), np.cumsum(np.arange(7.0)) * 2)
    assert str(loaded.graph.inputs[0].type) == "f64[None]"


def test_a_loaded_function_runs_inside_converted_code():
    loaded = tg.export.loads(tg.export.saves(scale.concrete(np.ones(3))))

    @tg.to_static
    def outer(x):
        return loaded(x)["y"] + loaded(factor=2.0, x=x)["y"]

    assert outer(np.ones(3)).tolist() == [4.0, 4.0, 4.0]
    assert "cond" in outer.concrete(np.ones(3)).op_counts()


def test_grad_of_a_loaded_scalar_function():
    @tg.to_static
    def energy(w):
        e = np.sum(w * w)
        while e > 1.0:
            e = e / 2
        return e

    w = np.array([1.0, 2.0])
    loaded = tg.export.loads(tg.export.saves(energy.concrete(w)))
    np.testing.assert_allclose(tg.grad(loaded)(w), tg.grad(energy)(w))
    value, grad = tg.value_and_grad(loaded)(w)
    assert value == energy(w)


def test_grad_functions_save_and_load():
    dscale = tg.grad(lambda w: np.sum(np.tanh(w) ** 2))
    w = np.linspace(-1, 1, 4)
    expected = dscale(w)
    loaded = tg.export.loads(tg.export.saves(dscale))
    np.testing.assert_allclose(loaded(w), expected)


def test_resaving_a_loaded_function_gives_the_same_bytes(tmp_path):
    scale(np.ones(3))
    tg.save(scale, tmp_path / "a")
    tg.save(tg.load(tmp_path / "a"), tmp_path / "b")
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()


def test_loaded_concrete_function_has_no_source_stages():
    cf = tg.export.loads(tg.export.saves(scale.concrete(np.ones(3)))).concrete_functions[0]
    assert cf.graph is not None and cf.fallback is None
    assert (cf.code, cf.ssa, cf.types) == (None, None, {})


# ---- what cannot be saved ----------------------------------------------------------------


def test_nothing_compiled_is_an_export_error():
    with pytest.raises(tg.ExportError, match="(?s)no compiled signature.*hint: call it"):
        tg.export.saves(tg.to_static(lambda x: x + 1))


def test_a_fallback_is_an_export_error():
    def parse(x):
        try:
            return float(x.sum())
        except FloatingPointError:  # which np.seterr(all="raise") would make the sum raise
            return 0.0

    static = tg.to_static(parse, fallback="silent")
    expected = r"runs eagerly for \(x: f64\[2\]\).*try body with sum"
    with pytest.raises(tg.ExportError, match=expected):
        tg.export.saves(static.concrete(np.ones(2)))


class _Config:
    pass


def test_a_static_object_argument_is_an_export_error():
    static = tg.to_static(lambda x, cfg: x + 1)
    with pytest.raises(tg.ExportError, match=r"argument args\[1\] \(a static value\) is a _Config"):
        tg.export.saves(static.concrete(np.ones(2), _Config()))


class _MyError(Exception):
    pass


def test_an_op_holding_an_unsaveable_value_names_the_op_and_the_line():
    @tg.to_static
    def check(x):
        if np.sum(x) < 0:
            raise _MyError("negative")  # the line the error points at
        return x

    cf = check.concrete(np.ones(2))
    with pytest.raises(tg.ExportError) as info:
        tg.export.saves(cf)
    message = str(info.value)
    assert "param 'exception' of raise is an exception of class _MyError" in message
    assert "built-in exception classes" in message
    assert f"test_serialize.py:{info.value.loc.line}" in message
    assert 'raise _MyError("negative")' in message
    assert info.value.loc.line == check.python_function.__code__.co_firstlineno + 3


def test_save_takes_only_compiled_functions():
    with pytest.raises(tg.ExportError, match="cannot save a int"):
        tg.export.saves(3)


def test_the_file_is_the_documented_container():
    blob = tg.export.saves(scale.concrete(np.ones(3)))
    assert blob.startswith(b"\x89tograph\r\n\x1a\n\x01\x00\x00\x00")
    header, _ = container.unpack(blob)
    assert sorted(header) == ["input_spec", "locations", "name", "parameters", "signatures"]
    assert header["parameters"][1] == {
        "name": "factor",
        "kind": "POSITIONAL_OR_KEYWORD",
        "default": {"float": "0x1.0000000000000p+1"},
    }


# ---- every primitive ---------------------------------------------------------------------

_M = np.array([[2.0, 1.0], [1.0, 3.0]])
_V = np.array([3.0, -1.0, 2.0, 7.0])


# Functions that reach the primitives the corpus does not (with their params' every kind).
def _guarded_log(m, v):
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(v)
    return logs, m


def _sum_from_a_0d_array(m, v):
    """A 0-d array on the first trip, a NumPy scalar after it: ``array_or_scalar``."""
    total = np.zeros(())
    i = 0
    while i < v[0]:
        total = total + v[1]
        i += 1
    return total


_OPS = [
    (_guarded_log, (_M, _V)),
    (_sum_from_a_0d_array, (_M, _V)),
    (  # operators of 0-d arrays: the loop, not the scalars' own arithmetic
        lambda m, v: (
            np.asarray(v[0]) + v[1],
            np.asarray(v[0]) - v[1],
            np.asarray(v[0]) // 2.0,
            np.asarray(v[0]) % 2.0,
            -np.asarray(v[0]),
            np.asarray(v[0]) ** 2,
        ),
        (_M, _V),
    ),
    (lambda m, v: (np.nanmean(m, axis=0), np.nanmax(v), np.average(v, weights=v)), (_M, _V)),
    (lambda m, v: (np.linalg.inv(m), np.linalg.solve(m, v[:2]), np.linalg.det(m)), (_M, _V)),
    (lambda m, v: (np.tensordot(m, m, axes=([1], [0])), np.trace(m), np.diag(v)), (_M, _V)),
    (
        lambda m, v: (np.linalg.norm(v, np.inf), np.linalg.norm(m, "fro"), np.einsum("ii", m)),
        (_M, _V),
    ),
    (lambda m, v: (np.sort(v), np.argsort(v), np.argmax(v), np.argmin(m, axis=0)), (_M, _V)),
    (lambda m, v: (np.linspace(v[0], v[1], 5), np.eye(3, k=1), np.arange(2, 9, 3.0)), (_M, _V)),
    (lambda m, v: (np.cumsum(v, dtype=np.float32), np.var(v), np.std(m), np.prod(v)), (_M, _V)),
    (
        lambda m, v: (np.flip(v), np.squeeze(m[None]), np.expand_dims(v, 1), v.reshape(2, -1)),
        (_M, _V),
    ),
    (
        lambda m, v: (np.broadcast_to(v, (2, 4)), m.T, np.matrix_transpose(m), v.size, v.shape[0]),
        (_M, _V),
    ),
    (lambda m, v: (np.round(v, 1), np.clip(v, 0, 2), np.where(v > 0, v, -v), ~(v > 0)), (_M, _V)),
    (lambda m, v: round(float(v[0]), 2), (_M, _V)),
    (lambda m, v: (divmod(v, 2.0), np.divmod(m, -3.0)), (_M, _V)),
    (  # ufuncs called by name on scalars: the loop, not the scalars' own arithmetic
        lambda m, v: (np.power(v[0], 1.5), np.multiply(v[1], v[2]), np.divide(v[0], 3.0)),
        (_M, _V),
    ),
    (lambda m, v: np.abs(v[0] + 1j), (_M, _V)),
    (lambda m, v: (tg.stop_gradient(v), tg.stop_gradient(m) * 2), (_M, _V)),
    (
        lambda m, v: tuple(
            f(v) for f in (np.cbrt, np.arctan, np.arcsinh, np.ceil, np.rint, np.trunc)
        ),
        (_M, _V),
    ),
    (
        lambda m, v: (np.arctan2(v, 2.0), np.logaddexp(v, 1.0), np.fmax(v, 0), np.fmin(v, 0)),
        (_M, _V),
    ),
    (
        lambda m, v: (np.isinf(v), np.isnan(v), np.isfinite(v), np.logical_xor(v > 0, v > 1)),
        (_M, _V),
    ),
    (lambda m, v: (np.reciprocal(v), np.square(v), np.sign(v), +v, np.dot(v, v)), (_M, _V)),
    (
        lambda m, v: tuple(f(v / 10) for f in (np.arcsin, np.arccos, np.arctanh, np.tan, np.sinh)),
        (_M, _V),
    ),
    (lambda m, v: (np.cosh(v), np.arccosh(v * v + 1), np.log2(v * v), np.log10(v * v)), (_M, _V)),
    (
        lambda m, v: (np.exp2(v), np.expm1(v), np.log1p(v * v), np.deg2rad(v), np.rad2deg(v)),
        (_M, _V),
    ),
    (lambda m, v: (np.hypot(v, 1.0), np.allclose(v, v), np.diff(v), np.roll(v, 1)), (_M, _V)),
    (lambda m, v: (np.triu(m), np.tril(m), np.invert(np.arange(4)), np.full((2,), v[0])), (_M, _V)),
    (
        lambda m, v: (np.cumprod(v), np.nanargmax(v), np.nanargmin(m, axis=0), np.unique(v)),
        (_M, _V),
    ),
    (
        lambda m, v: (np.nonzero(v > 0), np.split(v, [1, 3]), np.repeat(v, (v > 0).astype(int))),
        (_M, _V),
    ),
    (
        lambda m, v: (np.logaddexp.reduce(v), np.logaddexp.accumulate(v), *_writes(m, v)),
        (_M, _V),
    ),
    (lambda m, v: (np.asarray_chkfinite(v) + 1, v.view(np.int64) + 1, v.byteswap()), (_M, _V)),
]


_LINALG = [
    (lambda m, v: (np.linalg.cholesky(m), np.linalg.eigh(m), np.linalg.eigvalsh(m)), (_M, _V)),
    (lambda m, v: (np.linalg.eig(m), np.linalg.eigvals(m), np.linalg.qr(m)), (_M, _V)),
    (lambda m, v: (np.linalg.svd(m), np.linalg.svdvals(m), np.linalg.pinv(m)), (_M, _V)),
    (
        lambda m, v: (
            np.linalg.lstsq(m, v[:2]),
            np.linalg.slogdet(m),
            np.linalg.matrix_power(m, 3),
        ),
        (_M, _V),
    ),
    (lambda m, v: (np.fft.fft(v, n=6), np.fft.rfft(v), np.fft.fftshift(v)), (_M, _V)),
    (
        lambda m, v: (np.fft.irfft(np.fft.rfft(v)), np.real(v * 1j), np.imag(np.conj(v * 1j))),
        (_M, _V),
    ),
    (
        lambda m, v: (np.convolve(v, m[0]), np.correlate(v, m[0]), np.interp(v, [0, 5], [1, 2])),
        (_M, _V),
    ),
    (
        lambda m, v: (np.polyval(v, m), np.polyfit(v, v * v, 2), np.searchsorted(np.sort(v), 1.5)),
        (_M, _V),
    ),
    (lambda m, v: (np.vdot(v, v), np.fft.fftfreq(v.size)), (_M, _V)),
    (
        lambda m, v: (sorted([v[1], v[0]], reverse=True), [(v[0], 1), (v[1], 2)].index((v[1], 2))),
        (_M, _V),
    ),
]


def _writes(m, v):
    m, v = m.copy(), v.copy()
    np.put_along_axis(m, np.array([[1], [0]]), -1.0, axis=1)
    np.add.at(v, [0, 0], 1.0)
    return m, v


def _grad_graphs():
    """Gradients reach the stack ops, reduce_to, index_add and the item assignment of a list."""

    def loss(w, n):
        total = 0.0
        for i in range(n):
            w = np.tanh(w * 1.5)
            total = total + np.sum(w[1:] * w[0])
        return total + np.sum(np.broadcast_to(w, (3, 4)) * w)

    def stacked(w, n):
        rows = []
        for i in range(n):
            rows.append(w * (i + 1))
        first = rows[0] if n > 1 else w
        return np.sum(np.stack(rows) ** 2) + np.sum(first) + len(rows)

    def tallied(w, n):
        sums = [0.0, 0.0]
        for i in range(n):
            sums[i % 2] += float(np.sum(w * (i + 1)))
        return sums[0] * sums[1]

    args = (np.array([0.1, 0.2, -0.3, 0.4]), np.int64(3))
    return [(tg.grad(loss), args), (tg.grad(stacked), args), (tg.grad(tallied), args)]


def _dynamic():
    """Shapes known only at run time keep size, dim, arange, eye, pad_index, fftfreq and split
    in the graph."""
    spec = [tg.TensorSpec((None,)), None]
    fn = tg.to_static(
        lambda v, n: (
            v.size,
            v.shape[0],
            np.arange(n),
            np.eye(n),
            np.floor(v),
            np.pad(v, 2, mode="edge"),
            np.fft.fftfreq(n),
            np.array_split(v, 2),
        ),
        input_spec=spec,
    )
    return [(fn, (_V, np.int64(3)))]


def _draws(v):
    np.random.seed(1)
    random.seed(2)
    rng = np.random.default_rng(3)
    return v + np.random.normal(size=v.shape), random.random(), rng.integers(0, 9, size=2)


def _random():
    """Draws from NumPy's and Python's global generators (seeded in the function, so two calls
    agree) and from a generator the function makes."""
    return [(tg.to_static(_draws), (_V,))]


def test_every_primitive_round_trips():
    """Every registered primitive, in the corpus or here, saves and loads with its params; a new
    primitive fails this test until a graph that holds it round-trips (a view of an argument
    that is returned is saved as the view's steps, replayed on the caller's array)."""
    cases = [(tg.to_static(fn, fallback="error"), args) for fn, args in [*_OPS, *_LINALG]]
    seen = {name for entry in ENTRIES for name in entry.cf.op_counts()}
    for fn, args in [*cases, *_grad_graphs(), *_dynamic(), *_random()]:
        cf = fn.concrete(*args)
        loaded = tg.export.loads(tg.export.saves(cf))
        (loaded_cf,) = loaded.concrete_functions
        assert str(loaded_cf.functional_graph) == str(cf.functional_graph)
        compare.compare_values(_plain(fn(*args)), _plain(loaded(*args)))
        seen.update(cf.functional_graph.op_counts())
    assert sorted(corpus.tograph_primitives() - seen) == []


# ---- functions that write into their arguments or return them --------------------------------


@tg.to_static
def _normalize_in_place(x):
    if np.sum(x) > 0:
        x /= np.sum(x)
    x[0] = -1.0
    return x[1:]


def test_a_loaded_function_writes_into_its_arguments_as_the_original():
    cf = _normalize_in_place.concrete(np.arange(4.0))
    loaded = tg.export.loads(tg.export.saves(cf))
    expected_arg, actual_arg = np.arange(4.0), np.arange(4.0)
    expected = _normalize_in_place.python_function(expected_arg)
    actual = loaded(actual_arg)
    np.testing.assert_array_equal(actual_arg, expected_arg)
    np.testing.assert_array_equal(actual, expected)
    assert np.shares_memory(actual, actual_arg)  # the result is a view of the caller's array
    actual[0] = 7.0
    assert actual_arg[1] == 7.0


def test_argument_layouts_matter_only_to_a_graph_that_writes_into_them():
    fortran = np.asfortranarray(np.ones((2, 3)))
    pure = tg.export.loads(tg.export.saves(tg.to_static(lambda m: m * 2).concrete(np.ones((2, 3)))))
    np.testing.assert_array_equal(pure(fortran), fortran * 2)

    @tg.to_static
    def flatten_and_write(m):
        flat = m.reshape(-1)  # a view of a C-contiguous array only
        flat[0] = 5.0
        return m

    writer = tg.export.loads(tg.export.saves(flatten_and_write.concrete(np.ones((2, 3)))))
    with pytest.raises(tg.ToGraphError, match="saved for arrays laid out as those it was traced"):
        writer(fortran)


def test_grad_of_a_loaded_function_returning_its_argument():
    @tg.to_static
    def both(x):
        return x, np.sin(x)

    x = np.linspace(0.1, 1.0, 3)
    loaded = tg.export.loads(tg.export.saves(both.concrete(x)))

    def total(v):
        a, b = loaded(v)
        return np.sum(a * b)

    np.testing.assert_allclose(tg.grad(total)(x), np.sin(x) + x * np.cos(x))


def test_a_loaded_function_changes_argument_lists_as_the_original():
    @tg.to_static
    def record(history, x):
        history.append(x * 2)
        history[0] = history[0] + 1
        return history

    cf = record.concrete([np.ones(2)], np.ones(2))
    loaded = tg.export.loads(tg.export.saves(cf))
    expected, actual = [np.ones(2)], [np.ones(2)]
    record.python_function(expected, np.ones(2))
    result = loaded(actual, np.ones(2))
    assert result is actual and len(actual) == 2
    for a, b in zip(actual, expected):
        np.testing.assert_array_equal(a, b)


@tg.to_static
def _argument_or_new(x):
    if np.sum(x) > 0:
        return x[::-1]
    return x * 2


def test_a_loaded_function_returns_the_callers_array_on_the_paths_eager_does():
    loaded = tg.export.loads(tg.export.saves(_argument_or_new.concrete(np.arange(3.0))))
    for x in (np.arange(3.0), -np.arange(3.0)):
        expected, actual = _argument_or_new.python_function(x), loaded(x)
        np.testing.assert_array_equal(actual, expected)
        assert np.shares_memory(actual, x) == np.shares_memory(expected, x)


def _clip_in_place(x, hi):
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = hi
    return x.sum()


def test_an_array_written_in_place_under_many_ifs_saves_and_loads(tmp_path):
    """Each tensor ``if`` named the array it writes by its name so far plus "(written in
    place)", so after a dozen (a loop over a static range, unrolled) the name outgrew what a
    saved graph may hold and loading refused it."""
    x = np.linspace(-1.0, 3.0, 12)
    static = tg.to_static(_clip_in_place, fallback="error")
    static(x.copy(), 1.0)
    tg.save(static, tmp_path / "clip.tograph")
    loaded = tg.load(tmp_path / "clip.tograph")
    eager_x, loaded_x = x.copy(), x.copy()
    assert loaded(loaded_x, 1.0) == _clip_in_place(eager_x, 1.0)
    np.testing.assert_array_equal(loaded_x, eager_x)
