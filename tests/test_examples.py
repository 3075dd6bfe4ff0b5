"""Every example runs to completion and prints what it promises (so none of them rots)."""

import pathlib
import re
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"

EXPECTED = {
    "quickstart.py": ["newton_sqrt([2.0, 9.0, 10000.0])", "FallbackWarning", "while_loop"],
    "collatz.py": ["collatz_steps(27) = 111", "graph collatz_steps"],
    "rnn.py": ["step 200", "while_loop"],
    "mlp_inference.py": ["1000 calls", "ratio"],
    "linear_regression.py": ["loss"],
    "mlp_classifier.py": ["final accuracy"],
}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_runs(name):
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    for text in EXPECTED[name]:
        assert text in result.stdout + result.stderr, f"{name} did not print {text!r}"


@pytest.mark.parametrize("name", ["linear_regression.py", "mlp_classifier.py", "rnn.py"])
def test_training_examples_reduce_the_loss(name):
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    losses = [float(v) for v in re.findall(r"loss (\d+\.\d+)", out)]
    assert len(losses) >= 3 and losses[-1] < losses[0] / 4, losses
