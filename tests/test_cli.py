"""The tograph command: show, conformance and clear one-line errors with exit status 2."""

import io
import subprocess
import sys
import textwrap

import pytest

from tograph import cli


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(
        textwrap.dedent("""
        import numpy as np

        def clipped_sum(x, limit):
            total = 0.0
            for v in x:
                if v > limit:
                    break
                total = total + v
            return total
    """)
    )
    return path


def test_show_prints_every_stage(program):
    out = io.StringIO()
    cli.show(f"{program}:clipped_sum", ["f64[None]", "2.5"], out=out)
    text = out.getvalue()
    for header in ("generated source", "SSA", "types", "graph"):
        assert f"== {header}" in text
    assert "_t.for_stmt(" in text and "while_loop" in text
    assert "x: f64[None]" in text and "limit: float (static)" in text
    assert "greater" in text and "2.5" in text  # the static limit is baked into the graph


@pytest.mark.parametrize(
    "argv, message",
    [
        (["show", "missing.py:f"], "no such file: missing.py"),
        (["show", "{prog}:nope"], "has no function 'nope'"),
        (["show", "{prog}"], "expected FILE.py:FUNCTION"),
        (
            ["show", "{prog}:clipped_sum", "--arg", "f64[3", "--arg", "1"],
            "cannot parse argument spec",
        ),
        (["show", "{prog}:clipped_sum", "--arg", "q99[3]", "--arg", "1"], "unknown dtype"),
        (["show", "{prog}:clipped_sum"], "clipped_sum(x, limit): missing a required argument: 'x'"),
        (["show", "{prog}:clipped_sum", "--arg", "f64[3]"], "missing a required argument: 'limit'"),
        (
            ["show", "{prog}:clipped_sum", "--arg", "f64[3]", "--arg", "1", "--arg", "2"],
            "too many positional arguments (3 --args given",
        ),
        (["show", "{prog}:clipped_sum", "--arg", "f64[-1]", "--arg", "1"], "negative dimension"),
        (["show", "{prog}:clipped_sum", "--arg", "f64[10**12]", "--arg", "1"], "cannot parse"),
        (
            ["show", "{prog}:clipped_sum", "--arg", "f64[1000000,1000000]", "--arg", "1"],
            "too large for an example array",
        ),
        (
            ["show", "{prog}:clipped_sum", "--arg", f"f64[{10**30}]", "--arg", "1"],
            "too large for an example array",
        ),
        (["conformance", "-k", "zzz"], "no conformance case or category matches -k 'zzz'"),
        (["conformance", "-k", "("], "is not a regular expression"),
    ],
)
def test_bad_arguments_print_one_line_and_exit_2(program, capsys, argv, message):
    argv = [a.replace("{prog}", str(program)) for a in argv]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and err.startswith("tograph: error:")


USER_ERRORS = """
import numpy as np

def checked(x):
    return helper(x)

def helper(x):
    if x.shape[0] != 2:
        raise ValueError("need two values")
    return x

def reshaped(x):
    return x.reshape(7, 7)
"""


@pytest.mark.parametrize(
    "target, last_frame, error",
    [
        ("checked", 'raise ValueError("need two values")', "ValueError: need two values"),
        ("reshaped", "return x.reshape(7, 7)", "cannot reshape array of shape (3,)"),
    ],
)
def test_an_error_of_the_users_function_is_its_traceback_and_exit_1(
    tmp_path, capsys, target, last_frame, error
):
    path = tmp_path / "user.py"
    path.write_text(USER_ERRORS)
    assert cli.main(["show", f"{path}:{target}", "--arg", "f64[3]"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and error in err
    frames = [line for line in err.splitlines() if line.startswith("  File ")]
    assert frames and all(str(path) in f for f in frames), err  # no tograph frames
    lines = err.splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("  File "))
    assert lines[last + 1].strip() == last_frame


def test_a_file_that_raises_on_import_shows_its_traceback_and_exits_1(tmp_path, capsys):
    path = tmp_path / "broken.py"
    path.write_text("import numpy as np\n\nscale = 1 / 0\n")
    assert cli.main(["show", f"{path}:f", "--arg", "f64[3]"]) == 1
    err = capsys.readouterr().err
    assert f'File "{path}", line 3, in <module>' in err and "ZeroDivisionError" in err
    assert "importlib" not in err and "tograph" not in err


def test_conformance_subcommand_filters_and_reports(capsys):
    assert cli.main(["conformance", "-k", "collatz"]) == 0
    out = capsys.readouterr().out
    assert "passed, 0 failed" in out.splitlines()[-1]


def test_python_dash_m_entry_point(program):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tograph",
            "show",
            f"{program}:clipped_sum",
            "--arg",
            "f64[4]",
            "--arg",
            "1.0",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "graph clipped_sum(x:f64[4])" in result.stdout
