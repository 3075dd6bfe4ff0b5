"""Access to the repository's benchmark scripts, whose functions some workloads reuse.

Stage: benchmark harness. Input: a script name under ``benchmarks/`` of the source checkout
(``bench_autodiff``, ``bench_conversion``). Output: the script imported as a module, so that W2
and W5 run the very RNN and MLP that ``benchmarks/bench_autodiff.py`` defines, and W6 the
function generators of ``benchmarks/bench_conversion.py``, instead of copies of them.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
import types

from tograph import errors

BENCHMARKS_DIR = pathlib.Path(__file__).resolve().parents[3] / "benchmarks"


class ScriptNotFoundError(errors.ToGraphError):
    """A workload needs a script of the source checkout's ``benchmarks/`` folder, not found."""


def load(name: str) -> types.ModuleType:
    """``benchmarks/<name>.py`` imported once as the module ``tograph_benchmarks.<name>``.

    Raises:
      ScriptNotFoundError: tograph is not installed from a source checkout with that script.
    """
    module_name = f"tograph_benchmarks.{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = BENCHMARKS_DIR / f"{name}.py"
    if not path.is_file():
        raise ScriptNotFoundError(
            f"{path} not found",
            hint="run the benchmarks from a source checkout installed with `pip install -e .`",
        )
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module
