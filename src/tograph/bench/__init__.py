"""``tograph bench``: tograph against hand-written NumPy and, when installed, JAX, PyTorch,
TensorFlow and PaddlePaddle, on workloads W1-W8 (see ``tograph.bench.workloads``).

Stage: benchmark harness (not part of the compiler). Input: command-line arguments. Output: a
printed table of median times per call, ratios ``tograph / X``, each workload's peak memory and the
verdicts on the performance targets; with ``--json OUT`` also the full results as JSON.

    tograph bench [--quick | --smoke] [--json OUT.json] [--only W1,W3] [--peers torch,jax | none]
                  [--backend numba | auto] [--threads N]
    python benchmarks/run.py ...   # the same, with the thread variables set before start-up

Every contender runs in this one process with ``--threads`` BLAS / OpenMP threads each (default
1; ``tograph.bench.peers``), warmed up, then timed in interleaved samples
(``tograph.bench.timing``). Without threadpoolctl (``pip install "tograph[bench]"``) NumPy's BLAS
cannot be limited once loaded, so the suite reruns itself in a child process with the variables
set. Peers are optional: one that is not installed is skipped with a note.
``benchmarks/peers.md`` tells how to install them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence

from tograph.bench import peers, runner


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the benchmark suite; returns the exit status (0, or 2 for bad arguments).

    Args:
      argv: the arguments after ``bench`` (None: none).
    """
    try:
        options = runner.parse_options(argv or [])
    except SystemExit as exc:  # argparse exits on --help and on bad arguments
        return int(exc.code or 0)
    if peers.restart_needed(options.threads):
        env = {**os.environ, **peers.thread_env(options.threads)}
        return subprocess.call([sys.executable, "-m", "tograph.bench", *(argv or [])], env=env)
    data = runner.run(options)
    if options.json_path:
        with open(options.json_path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
        print(f"results written to {options.json_path}")
    return 0
