"""Counts how the realistic corpus fares: compiled, fell back (by reason), differed, crashed.

python -m tests.realistic.triage [-v]
"""

from __future__ import annotations

import collections
import sys
import warnings

from . import corpus, harness


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    warnings.simplefilter("ignore")
    verdicts = [harness.judge(case) for case in corpus.all_cases()]
    kinds = collections.Counter(v.kind for v in verdicts)
    reasons = collections.Counter(v.reason_key() for v in verdicts if v.kind == "fallback")
    for v in verdicts:
        if verbose or v.kind in ("differs", "crashed"):
            print(f"{v.kind:9} {v.name}: {v.detail}")
    print(f"{len(verdicts)} routines: " + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())))
    for reason, n in reasons.most_common():
        print(f"  {n:3} fallback: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
