"""The benchmark suite (W1-W8): tograph against hand-written NumPy and the installed peers.

    python benchmarks/run.py [--quick | --smoke] [--json OUT.json] [--only W1,W3]
                             [--peers LIST|none] [--backend numba|auto] [--threads N]

A thin wrapper around ``tograph.bench.main`` (the ``tograph bench`` command), which gives NumPy's
BLAS ``--threads`` threads (default 1) with threadpoolctl, or without it by rerunning itself with
the thread variables set before NumPy loads. See ``tograph/bench/__init__.py`` and
``benchmarks/peers.md``.
"""

import sys

from tograph.bench import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
