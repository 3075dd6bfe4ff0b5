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
    ],
)
def test_bad_arguments_print_one_line_and_exit_2(program, capsys, argv, message):
    argv = [a.replace("{prog}", str(program)) for a in argv]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and err.startswith("tograph: error:")


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
