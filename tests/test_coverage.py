"""The NumPy coverage table: each row's kind agrees with what a converted function does with that
name, and the summary's figures are the table's."""

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
        ("ndarray.any", lambda a: a.any()),
        ("ndarray.view", lambda a: a.view()),
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


def test_the_module_runs(capsys):
    assert coverage.main([]) == 0
    assert "relevant" in capsys.readouterr().out
