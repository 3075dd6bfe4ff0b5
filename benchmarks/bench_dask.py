"""Dask benchmark: ``f.map`` throughput on 1 and 2 workers, and the Dask backend out of core.

Run as ``python benchmarks/bench_dask.py [--calls N] [--repeats R] [--array-gib G]``. Two parts:

* ``map``: W1's scalar while loop (``tograph.bench.workloads.loops.scalar_while``, compiled) on
  ``--calls`` starting values, through ``f.map`` on a ``LocalCluster`` of one single-threaded
  worker process and on one of two, both started first and timed in turn, ``--repeats`` times
  each after a warm-up map (steady state: the workers hold the function). The table gives the
  medians, the calls per second, the speedup of two workers over one (target: at least 1.7 on
  two cores), and a plain local loop's time for scale.
* ``array``: a compiled function (column means and spreads, with a data-dependent ``if``) on a
  ``dask.array`` of ``--array-gib`` GiB of random float64 numbers, made on the workers, run on
  two workers of ``--worker-memory`` each (by default 4 GiB on 2 x 512 MiB), which spill to
  disk. It reports the time, each worker's peak resident memory (sampled every 0.2 s) and the
  most either spilled to disk.

The machine may be shared: read the medians and the ratio measured side by side, not one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from typing import Any

# One BLAS thread per worker process: the workers are the parallelism being measured.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import tograph as tg
from tograph.bench.workloads import loops


def local_cluster(workers: int, memory_limit: str | None = None) -> LocalCluster:
    """Single-threaded worker processes on this machine's loopback, without a dashboard."""
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        memory_limit=memory_limit or "auto",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )


# ---- map throughput ----------------------------------------------------------------------------


def bench_map(calls: int, repeats: int) -> None:
    w1 = tg.to_static(loops.scalar_while)
    starts = [np.float64(100.0 + k % 100) for k in range(calls)]
    expected = [w1(x) for x in starts]
    local = []
    for _ in range(repeats):
        began = time.perf_counter()
        for x in starts:
            w1(x)
        local.append(time.perf_counter() - began)
    times: dict[int, list[float]] = {1: [], 2: []}
    with local_cluster(1) as one, local_cluster(2) as two:
        with Client(one) as c1, Client(two) as c2:
            clients = {1: c1, 2: c2}
            for client in clients.values():
                assert w1.map(starts, client=client, progress=False) == expected  # warm-up
            for _ in range(repeats):
                for n, client in clients.items():  # in turn: a busy machine slows both alike
                    began = time.perf_counter()
                    results = w1.map(starts, client=client, progress=False)
                    times[n].append(time.perf_counter() - began)
                    assert results == expected
    t_local = statistics.median(local)
    t1, t2 = statistics.median(times[1]), statistics.median(times[2])
    print(f"f.map of W1 (scalar while from 100..199, compiled), {calls} calls, median of {repeats}")
    print(f"  {'':24} {'seconds':>9} {'calls/s':>10}")
    print(f"  {'local loop':24} {t_local:9.3f} {calls / t_local:10.0f}")
    print(f"  {'f.map, 1 worker':24} {t1:9.3f} {calls / t1:10.0f}")
    print(f"  {'f.map, 2 workers':24} {t2:9.3f} {calls / t2:10.0f}")
    print(f"  speedup 2 workers / 1 worker: {t1 / t2:.2f}x (target >= 1.7x)")
    print(f"  samples: 1 worker {fmt(times[1])}; 2 workers {fmt(times[2])}; local {fmt(local)}")


def fmt(samples: list[float]) -> str:
    return ", ".join(f"{s:.3f}" for s in samples)


# ---- out of core -----------------------------------------------------------------------------


@tg.to_static
def column_stats(x: Any) -> Any:
    """Column means and spreads; rescaled when a spread is large (a data-dependent ``if``)."""
    mean = np.mean(x, axis=0)
    centred = x - mean
    spread = np.sqrt(np.mean(centred * centred, axis=0))
    if np.max(spread) > 0.25:
        spread = spread / np.max(spread)
    return mean, spread, np.max(np.abs(centred))


class MemoryWatch:
    """Samples each worker's resident memory and spilled bytes in a thread until stopped."""

    def __init__(self, client: Client, interval: float = 0.2):
        self.client = client
        self.interval = interval
        self.peak: dict[str, int] = {}
        self.spilled = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def watch(self) -> None:
        while not self.done.wait(self.interval):
            for address, rss in self.client.run(_resident).items():
                self.peak[address] = max(self.peak.get(address, 0), rss)
            for info in self.client.scheduler_info()["workers"].values():
                self.spilled = max(self.spilled, info["metrics"]["spilled_bytes"]["disk"])

    def __enter__(self) -> MemoryWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.done.set()
        self.thread.join()


def _resident() -> int:
    import psutil

    return int(psutil.Process().memory_info().rss)


def bench_array(gib: float, worker_memory: str) -> None:
    columns = 4096
    rows = int(gib * 2**30 / 8 / columns)
    with local_cluster(2, worker_memory) as cluster, Client(cluster) as client:
        x = da.random.default_rng(0).random((rows, columns), chunks=(1024, 2048))
        with MemoryWatch(client) as memory:
            began = time.perf_counter()
            mean, spread, largest = column_stats(x)  # the if's predicate is computed here
            mean, spread, largest = client.gather(client.compute([mean, spread, largest]))
            elapsed = time.perf_counter() - began
    mib = 2**20
    print(f"Dask backend: column_stats on {rows} x {columns} float64 = {x.nbytes / 2**30:.2f} GiB")
    print(f"  {x.npartitions} chunks of {x.chunksize}, 2 workers with {worker_memory} each")
    print(f"  completed in {elapsed:.1f} s; mean of means {mean.mean():.4f} (0.5 expected),")
    print(f"  largest spread {spread.max():.4f}, largest deviation {largest:.4f}")
    peaks = ", ".join(f"{rss / mib:.0f} MiB" for _, rss in sorted(memory.peak.items()))
    print(f"  peak resident memory per worker: {peaks}")
    print(f"  most spilled to disk by one worker: {memory.spilled / mib:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--array-gib", type=float, default=4.0)
    parser.add_argument("--worker-memory", default="512MiB")
    parser.add_argument("--skip-map", action="store_true")
    parser.add_argument("--skip-array", action="store_true")
    args = parser.parse_args()
    if not args.skip_map:
        bench_map(args.calls, args.repeats)
    if not args.skip_array:
        bench_array(args.array_gib, args.worker_memory)


if __name__ == "__main__":
    main()
