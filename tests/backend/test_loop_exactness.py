"""Both backends against eager Python on the loop corpus (``loop_programs``): the same value,
dtype and scalar kind (np.float64 vs float), the same exception class, warnings (in order) and
arguments' state afterwards, by default and under ``np.errstate`` settings that raise or silence.
A case may run eagerly (a Python number the trace takes as static): that is a correct outcome.

The NumPy backend keeps loop scalars as Python numbers where exact; the numba backend runs what
it compiles and hands the rest to NumPy. Each (function, backend) is compiled once per module."""

import copy
import warnings

import loop_programs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tograph as tg

BACKENDS = ("numpy", "numba")
STATIC: dict = {}
ERRSTATES = [
    {"all": "raise"},
    {"all": "ignore"},
    {"over": "ignore", "divide": "warn", "invalid": "raise", "under": "warn"},
]


def same(a, b):
    """Equal values of the same types; arrays and NumPy scalars also of the same dtype."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a == b or (a != a and b != b)


def static(fn, backend):
    if (fn, backend) not in STATIC:
        STATIC[fn, backend] = tg.to_static(fn, backend=backend)
    return STATIC[fn, backend]


def outcome(fn, args, errstate):
    copies = copy.deepcopy(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with np.errstate(**errstate):
                result = fn(*copies)
        except Exception as exc:  # noqa: BLE001 - the outcome to compare
            result = exc
    kept = [w for w in caught if not issubclass(w.category, tg.FallbackWarning)]
    return result, copies, [(w.category, str(w.message)) for w in kept]


def assert_matches_eager(fn, args, errstate):
    expected, expected_args, expected_warnings = outcome(fn, args, errstate)
    for backend in BACKENDS:
        compiled = static(fn, backend)
        with warnings.catch_warnings():  # tracing's own warnings are not the call's
            warnings.simplefilter("ignore")
            compiled.concrete(*copy.deepcopy(args))
        got, got_args, got_warnings = outcome(compiled, args, errstate)
        where = f"{backend}: eager {expected!r}, compiled {got!r}"
        if isinstance(expected, Exception):
            assert isinstance(got, type(expected)), where
        else:
            assert same(expected, got), where
        assert same(expected_args, got_args), where
        assert got_warnings == expected_warnings, where


def case_id(case):
    fn, args = case
    return f"{fn.__name__}{args!r}"


@pytest.mark.parametrize("case", loop_programs.CASES, ids=case_id)
def test_matches_eager(case):
    assert_matches_eager(*case, errstate={})


@pytest.mark.parametrize("errstate", ERRSTATES, ids=str)
def test_matches_eager_under_errstate(errstate):
    for case in loop_programs.CASES:
        assert_matches_eager(*case, errstate=errstate)


ON_NUMBA = [
    (loop_programs.grow, (np.float64(1.0), np.int64(3))),
    (loop_programs.int_steps, (np.int64(3), np.int64(40))),
    (loop_programs.floor_mod, (np.int64(100), np.int64(3), np.int64(3))),
    (loop_programs.halve_f32, (np.float32(1.0), np.int64(5))),
    (loop_programs.count_above, (np.arange(4.0), np.float64(1.0))),
    (loop_programs.wrap_vector, (np.arange(3), np.int64(8))),
    (loop_programs.int_extremes, (np.int64(5), np.int64(3), np.int64(4))),
    (loop_programs.nested_sum, (3, 4)),
    (loop_programs.double_until, (1.0, 100)),
    (loop_programs.flip_flag, (np.float64(5.0), np.int64(6))),  # int8 kind tags, moved only
]
ON_NUMPY = [
    (loop_programs.where_scalar, (np.float64(3.0), 4), "where of scalars"),
    (loop_programs.grow_f32_past_range, (np.float32(1.0), np.int64(3)), "1e+39 as float32"),
]


@pytest.mark.parametrize("case", ON_NUMBA, ids=case_id)
def test_the_corpus_runs_on_numba(case):
    fn, args = case
    assert static(fn, "numba").concrete(*args).backend == "numba"


@pytest.mark.parametrize("fn, args, why", ON_NUMPY, ids=lambda x: getattr(x, "__name__", ""))
def test_what_numba_would_change_stays_on_numpy(fn, args, why):
    cf = static(fn, "numba").concrete(*args)
    assert cf.backend == "numpy" and why in cf.backend_note


NUMBER = {"allow_nan": True, "allow_infinity": True}


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(**NUMBER),
    y=st.floats(**NUMBER),
    n=st.integers(0, 6),
    dtype=st.sampled_from([np.float64, np.float32]),
)
def test_random_floats_match_eager(x, y, n, dtype):
    """NumPy scalars only: a Python number is a static value, traced (and compiled) anew."""
    with np.errstate(over="ignore"):  # the conversion to float32 itself
        args = (dtype(x), dtype(y), np.int64(n))
    assert_matches_eager(loop_programs.mixed_steps, args, errstate={})


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(-(2**63), 2**63 - 1),
    j=st.integers(-(2**63), 2**63 - 1),
    n=st.integers(0, 4),
)
def test_random_ints_match_eager(k, j, n):
    args = (np.int64(k), np.int64(j), np.int64(n))
    assert_matches_eager(loop_programs.int_mix, args, errstate={})
