"""The NumPy coverage table: each row's kind agrees with what a converted function does with that
name, and the summary's figures are the table's."""

import types
import warnings

import numpy as np
import pytest

import tograph as tg
from tograph import coverage

TABLE = {row.name: row for row in coverage.rows()}


def test_every_public_name_has_one_row():
    names = {f"np.{name}" for name in dir(np) if callable(getattr(np, name))}
    names = {n for n in names if not n.startswith("np._")}
    assert names <= set(TABLE)
    methods = {f"ndarray.{n}" for n in dir(np.ndarray) if not n.startswith("_")}
    assert methods <= set(TABLE)
    assert {row.kind for row in TABLE.values()} <= set(coverage.KINDS)


@pytest.mark.parametrize(
    "name, program",
    [
        ("np.median", lambda a: np.median(a)),
        ("np.sum", lambda a: np.sum(a)),
        ("np.rot90", lambda a: np.rot90(a)),
        ("np.float32", lambda a: np.float32(a)),
        ("np.result_type", lambda a: np.result_type(a, 1.5) == a.dtype),
        ("np.apply_along_axis", lambda a: np.apply_along_axis(np.sum, 0, a)),
        ("np.putmask", lambda a: np.putmask(a, a > 2, 0.5)),
        ("np.einsum_path", lambda a: np.einsum_path("ij,jk", a, a.T)[0]),
        ("np.vectorize", lambda a: np.vectorize(abs)(a)),
        ("np.asmatrix", lambda a: np.asmatrix(a) * 2),
        ("ndarray.any", lambda a: a.any()),
        ("ndarray.view", lambda a: a.view(np.int64)),
        ("ndarray.byteswap", lambda a: a.byteswap()),
        ("ndarray.resize", lambda a: a.copy().resize(3)),
        ("ndarray.strides", lambda a: a.strides),
    ],
)
def test_a_rows_kind_is_what_a_converted_function_does(name, program):
    x = np.arange(6.0).reshape(2, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        np.testing.assert_equal(tg.to_static(program)(x), program(x))
    fell_back = any(issubclass(w.category, tg.FallbackWarning) for w in caught)
    assert fell_back == (TABLE[name].kind == "falls back"), TABLE[name]


def test_the_summary_counts_the_table():
    text = coverage.summary(list(TABLE.values()))
    functions = [r for r in TABLE.values() if r.name.startswith("np.")]
    assert f"functions of np, np.linalg, np.fft: {len(functions)} names" in text
    primitive = sum(r.kind == "primitive" for r in functions)
    assert f"{primitive} primitive" in text


def test_excluded_rows_are_named_and_left_out_of_the_share():
    assert TABLE["np.save"].excluded and TABLE["ndarray.strides"].excluded
    assert not TABLE["np.vectorize"].excluded and not TABLE["ndarray.resize"].excluded
    functions = [r for r in TABLE.values() if r.name.startswith("np.")]
    relevant = [r for r in functions if not r.excluded]
    compiled = sum(r.kind != "falls back" for r in relevant)
    share = f"{compiled} of {len(relevant)} ({100 * compiled / len(relevant):.1f}%) relevant names"
    assert share in coverage.summary(list(TABLE.values()))


class _Array:
    any = None


# A made-up array library: np.sum, np.linalg.qr, an ndarray with .any only; no np.fft.
_STANDIN = types.ModuleType("standin")
_STANDIN.sum, _STANDIN.ndarray = np.sum, _Array
_STANDIN.linalg = types.SimpleNamespace(qr=np.linalg.qr)


def test_another_library_is_checked_name_by_name():
    has = {name: coverage.has_name(_STANDIN, TABLE[name]) for name in TABLE}
    assert has["np.sum"] and has["np.linalg.qr"] and has["ndarray.any"]
    assert not has["np.median"] and not has["np.linalg.svd"] and not has["np.fft.fft"]
    assert not has["ndarray.all"] and sum(has.values()) == 4  # and np.ndarray
    text = coverage.summary(list(TABLE.values()), _STANDIN)
    functions = [r for r in TABLE.values() if r.name.startswith("np.") and not r.excluded]
    compiled = sum(r.kind != "falls back" for r in functions)
    assert f"tograph covers {compiled}, standin covers 3 of the same {len(functions)}" in text
    assert "standin covers 1 of the same" in text  # ndarray.any


def test_the_module_runs(capsys):
    assert coverage.main([]) == 0
    assert "relevant" in capsys.readouterr().out
    assert coverage.main(["--table", "--against", "numpy"]) == 0
    out = capsys.readouterr().out
    relevant = sum(not r.excluded for r in TABLE.values() if r.name.startswith("np."))
    assert f"numpy covers {relevant} of the same {relevant} relevant names" in out
    assert "np.median" in out and "has it" in out
