"""The control-flow conformance suite: user functions whose compiled results must equal eager ones.

Each case (``conformance.case.Case``) is an ordinary Python + NumPy function with input sets and an
expectation: the compiled function matches its eager run, falls back with a warning naming the
construct and line, or raises a conversion error naming the variable and line. Run them with
``python -m tograph_conformance`` or ``run()``; ``tests/conformance`` runs each as a pytest case.
"""

from tograph_conformance.case import Case, Inputs, Registry, kw
from tograph_conformance.cases import all_cases
from tograph_conformance.check import CaseFailure, check_case
from tograph_conformance.runner import Report, Result, run

__all__ = [
    "Case",
    "CaseFailure",
    "Inputs",
    "Registry",
    "Report",
    "Result",
    "all_cases",
    "check_case",
    "kw",
    "run",
]
