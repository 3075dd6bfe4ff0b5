"""pickle and cloudpickle carry compiled functions: by reference where they can be imported, else
with their graphs in tograph's saved format."""

import pickle
import subprocess
import sys

import cloudpickle
import numpy as np
import pytest

import tograph as tg

from . import pickled

X = np.array([7.0, -3.0])


def test_a_module_level_function_pickles_by_reference():
    pickled.halve_until_small(X)
    blob = pickle.dumps(pickled.halve_until_small)
    assert pickle.loads(blob) is pickled.halve_until_small
    assert b"halve_until_small" in blob and len(blob) < 200  # a reference, not graphs
    assert cloudpickle.loads(cloudpickle.dumps(pickled.halve_until_small)) is (
        pickled.halve_until_small
    )


@pytest.mark.parametrize("picker", [pickle, cloudpickle], ids=["pickle", "cloudpickle"])
def test_a_wrapped_function_pickles_with_its_graphs(picker):
    static = tg.to_static(pickled.softplus)
    expected = static(X)
    clone = picker.loads(picker.dumps(static))
    assert isinstance(clone, tg.StaticFunction) and clone is not static
    (cf,) = clone.concrete_functions  # compiled already: the graph came with the pickle
    assert str(cf.graph) == str(static.concrete(X).graph)
    np.testing.assert_array_equal(clone(X), expected)
    assert len(clone.concrete_functions) == 1  # the call used the pickled graph
    clone(np.ones(4, np.float32))  # a new signature is traced from the source
    assert len(clone.concrete_functions) == 2


def test_cloudpickle_carries_a_closure_by_value():
    scale = 3.0

    @tg.to_static
    def scaled(x):
        if np.sum(x) > 0:
            return x * scale
        return -x

    expected = scaled(X)
    clone = cloudpickle.loads(cloudpickle.dumps(scaled))
    np.testing.assert_array_equal(clone(X), expected)
    assert str(clone.concrete(X).graph) == str(scaled.concrete(X).graph)


@pytest.mark.parametrize("picker", [pickle, cloudpickle], ids=["pickle", "cloudpickle"])
def test_concrete_and_loaded_functions_round_trip(picker):
    cf = pickled.halve_until_small.concrete(X)
    clone = picker.loads(picker.dumps(cf))
    assert isinstance(clone, tg.ConcreteFunction)
    assert str(clone.graph) == str(cf.graph)
    np.testing.assert_array_equal(clone(X), pickled.halve_until_small(X))
    loaded = tg.export.loads(tg.export.saves(cf))
    again = picker.loads(picker.dumps(loaded))
    assert isinstance(again, tg.LoadedFunction)
    assert str(again.graph) == str(cf.graph)
    np.testing.assert_array_equal(again(X), loaded(X))


def test_a_fallback_concrete_function_does_not_pickle():
    def parse(x):
        try:
            return float(x.sum())
        except FloatingPointError:  # which np.seterr(all="raise") would make the sum raise
            return 0.0

    cf = tg.to_static(parse, fallback="silent").concrete(X)
    with pytest.raises(tg.ExportError, match="runs eagerly"):
        pickle.dumps(cf)


def test_signatures_that_cannot_be_saved_are_traced_again():
    static = tg.to_static(lambda x, k: x * 2)
    static(X, "abc")  # a static string: saveable
    static(X, object())  # a static object, known by identity: not saveable
    clone = cloudpickle.loads(cloudpickle.dumps(static))
    assert len(clone.concrete_functions) == 1
    np.testing.assert_array_equal(clone(X, "abc"), X * 2)


def test_a_worker_without_the_source_runs_the_pickled_graphs(tmp_path):
    """cloudpickle sends a script's function by value; where its source is gone, the pickled
    graph still runs compiled (no FallbackWarning, which this run turns into an error)."""
    script = tmp_path / "make.py"
    script.write_text(
        "import numpy as np, cloudpickle, tograph as tg\n"
        "@tg.to_static\n"
        "def f(x):\n"
        "    while np.max(x) > 1.0:\n"
        "        x = x / 2\n"
        "    return x\n"
        "f(np.array([5.0, 3.0]))\n"
        "with open('f.pkl', 'wb') as out:\n"
        "    out.write(cloudpickle.dumps(f))\n"
    )
    subprocess.run([sys.executable, str(script)], cwd=tmp_path, check=True)
    script.unlink()
    worker = (
        "import cloudpickle, numpy as np\n"
        "with open('f.pkl', 'rb') as source:\n"
        "    f = cloudpickle.load(source)\n"
        "print(f(np.array([5.0, 3.0])).tolist())\n"
    )
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", worker],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-1000:]
    assert result.stdout.strip() == "[0.625, 0.375]"
