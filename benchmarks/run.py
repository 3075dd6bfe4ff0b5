"""The benchmark suite (W1-W7): tograph against hand-written NumPy and the installed peers.

    python benchmarks/run.py [--quick | --smoke] [--json OUT.json] [--only W1,W3]
                             [--peers LIST|none]

A thin wrapper around ``tograph.bench.main`` (the ``tograph bench`` command) that first sets the
one-thread environment variables, so NumPy's BLAS starts with one thread even without
threadpoolctl. See ``tograph/bench/__init__.py`` and ``benchmarks/peers.md``.
"""

import os
import sys

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = "1"  # before NumPy loads its BLAS

from tograph.bench import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
