"""``tograph bench``: tograph against hand-written NumPy and, when installed, JAX, PyTorch,
TensorFlow and PaddlePaddle, on workloads W1-W8 (see ``tograph.bench.workloads``).

Stage: benchmark harness (not part of the compiler). Input: command-line arguments. Output: a
printed table of median times per call, ratios ``tograph / X``, each workload's peak memory and the
verdicts on the performance targets; with ``--json OUT`` also the full results as JSON.

    tograph bench [--quick | --smoke] [--json OUT.json] [--only W1,W3] [--peers torch,jax | none]
    python benchmarks/run.py ...   # the same, with the one-thread variables set before start-up

Every contender runs in this one process, one thread each (``tograph.bench.peers``), warmed up,
then timed in interleaved samples (``tograph.bench.timing``). Peers are optional: one that is
not installed is skipped with a note. ``benchmarks/peers.md`` tells how to install them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tograph.bench import runner


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the benchmark suite; returns the exit status (0, or 2 for bad arguments).

    Args:
      argv: the arguments after ``bench`` (None: none).
    """
    try:
        options = runner.parse_options(argv or [])
    except SystemExit as exc:  # argparse exits on --help and on bad arguments
        return int(exc.code or 0)
    data = runner.run(options)
    if options.json_path:
        with open(options.json_path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
        print(f"results written to {options.json_path}")
    return 0
