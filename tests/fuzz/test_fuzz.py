"""The random-program tester in CI: a fixed seed range of generated imperative programs, each
compiled and held to its eager run, and checks that the judge and the shrinker catch what they
must (a tester that passes everything would test nothing)."""

import pathlib

import numpy as np
import pytest

from . import campaign, execution, judge, programs, shrink

CI_PROGRAMS = 150


def test_generated_programs_match_eager():
    tally = campaign.run(range(CI_PROGRAMS), programs.CI_FEATURES)
    assert not tally.failures, tally.format()
    assert tally.statuses["compiled"] >= CI_PROGRAMS // 2, tally.format()


def test_every_feature_s_program_generates():
    """Seed 300302 made a uint8 number the generator could not construct again."""
    assert "def f(" in programs.generate(300302, programs.ALL_FEATURES).source


def test_a_seed_names_one_program():
    assert programs.generate(7).source == programs.generate(7).source
    assert programs.generate(7).source != programs.generate(8).source


def _run(value=None, args=(), stdout="", exception=None, warned=()):
    return execution.Run(value, exception, args, stdout, [], warned=list(warned))


_DIVIDE = "RuntimeWarning: divide by zero encountered in divide"
_EMPTY = "RuntimeWarning: Mean of empty slice"


@pytest.mark.parametrize(
    "eager, compiled, problem",
    [
        (_run(1), _run(np.int64(1)), "result: NumPy int64"),
        (_run(args=(np.ones(2),)), _run(args=(np.zeros(2),)), "args[0]: values"),
        (_run(args=([1.0],)), _run(args=([1.0, 2.0],)), "args[0]: length"),
        (_run(np.ones(2, np.float32)), _run(np.ones(2)), "dtype float64 != float32"),
        (_run(stdout="1\n"), _run(stdout="1.0\n"), "printed"),
        (_run(exception=ValueError("e1")), _run(), "did not raise"),
        (_run(warned=[_DIVIDE]), _run(warned=[_DIVIDE, _DIVIDE]), "more than eager"),
        (_run(), _run(warned=[_EMPTY]), "more than eager"),
    ],
)
def test_the_judge_finds_each_kind_of_difference(eager, compiled, problem):
    assert problem in judge.compare_runs(eager, compiled)


def test_the_judge_allows_a_missing_warning_and_one_twice_in_a_call_that_raised():
    """The two limits the README names: a warning of an unused computation is missing, and a
    graph that writes arguments and fails runs again eagerly, warning again."""
    assert judge.compare_runs(_run(warned=[_DIVIDE]), _run()) is None
    fails = ValueError("e1")
    twice = _run(warned=[_DIVIDE, _DIVIDE], exception=fails)
    assert judge.compare_runs(_run(warned=[_DIVIDE], exception=fails), twice) is None


def test_the_judge_compares_memory_sharing():
    a = np.ones(3)
    eager = _run(a[1:], (a,))
    assert "does not share memory" in judge.compare_runs(eager, _run(a[1:].copy(), (a,)))
    assert judge.compare_runs(eager, _run(a[1:], (a,))) is None


def test_the_judge_compares_identity():
    """A view of an argument shares its memory but is not the argument: ``return x`` and
    ``return x[:]`` differ, as do a list holding an argument array and one holding a copy."""
    a = np.ones(3)
    problem = judge.compare_runs(_run(a, (a,)), _run(a[:], (a,)))
    assert "is not the same object as args[0]" in problem
    held, copied = [a], [a[:]]
    problem = judge.compare_runs(_run(args=(a, held)), _run(args=(a, copied)))
    assert "args[0] is not the same object as args[1][0]" in problem
    assert judge.compare_runs(_run(held, (a, held)), _run(held, (a, held))) is None


def test_the_judge_compares_memory_sharing_across_calls():
    constant, table = np.zeros(2), np.ones(2)
    one_constant = execution.Trial(
        pathlib.Path(), [(_run(np.zeros(2)), _run(constant)) for _ in range(2)], []
    )
    assert (
        "of call 0 shares memory with result array 0 of call 1" in judge.judge(one_constant).reason
    )
    one_table = execution.Trial(pathlib.Path(), [(_run(table), _run(table))] * 2, [])
    assert judge.judge(one_table).status == "compiled"


def test_the_shrinker_keeps_what_still_fails():
    source = "def f(x):\n    a = 1\n    if x:\n        b = 2\n        print('bad')\n    return a\n"
    small = shrink.shrink(source, lambda text: "print('bad')" in text, seconds=10)
    assert small == "def f(x):\n    print('bad')\n"


def test_a_reproducer_replays(tmp_path: pathlib.Path):
    path = tmp_path / "program.py"
    path.write_text(programs.generate(3).source)
    assert campaign.replay(path).status in ("compiled", "fell back")


def test_the_generator_writes_each_construct_of_its_features():
    """Each optional construct turns up in a few dozen programs (a feature whose forms NumPy
    always refuses, or that is never drawn, would silently test nothing)."""
    sources = [programs.generate(seed, programs.CI_FEATURES).source for seed in range(40)]
    text = "\n".join(sources)
    constructs = ["def g", " = g", "zip(", " // ", " % ", "np.argm", "[:-1]", "else:", "~"]
    constructs += ["ts[", "o.hist.append(", "first_items(", "np.exp(", ".T[", "!r}"]
    constructs += ["while True:", "reversed(", " if ", " or ", "q)", "copy=False", ".ravel()"]
    constructs += ["setdefault(", "setattr(", ".extend(", ".pop(", ".reshape(-1)\n", "same = "]
    for construct in constructs:
        assert construct in text, construct


def test_the_generator_writes_each_idiom_of_all_features():
    """The idioms left out of the CI run (they often fall back) turn up under all features."""
    sources = [programs.generate(seed, programs.ALL_FEATURES).source for seed in range(60)]
    text = "\n".join(sources)
    constructs = ["nonlocal", "lambda", "filter(", "for t in", "np.array2string(", "% (", "out="]
    constructs += ["np.copyto(", "np.unique(", "np.int8", "except", "sorted("]
    for construct in constructs:
        assert construct in text, construct
