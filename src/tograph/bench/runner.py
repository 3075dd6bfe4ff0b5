"""The benchmark runner: builds each variant's contenders, checks them, times them, reports.

Stage: benchmark harness. Input: command-line options. Output: a JSON-able result (one record per
variant: per contender the median time, samples, calls per sample and check status; ratios of
each tograph contender to NumPy and to each peer; NumPy's and tograph's peak memory; what each
tograph contender's graph ran on, ``ran_on``), printed as a table and optionally written.

For each variant: the NumPy and tograph contenders, with ``--backend numba`` or ``auto`` a second
tograph contender ("tograph.numba", "tograph.auto") compiled for that backend, and every loaded
peer's are built (a failure is a note, not a crash), each one's result is compared with NumPy's
(the comparison is the first warm-up call), then all are timed together by ``timing.measure``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from tograph import api
from tograph.backend import backends
from tograph.bench import compare, peers, report, timing, workloads

_MODES = {  # repeats, seconds per sample, time budget per variant (seconds)
    "full": (21, 0.05, 60.0),
    "quick": (5, 0.02, 15.0),
    "smoke": (1, 0.0, 5.0),
}
_FIRST_CALL_REPEATS = {"full": 5, "quick": 2, "smoke": 1}


@dataclasses.dataclass
class Options:
    """What to run: mode ("full", "quick", "smoke"), workloads, peers, where to write JSON, a
    backend ("numba" or "auto": ``to_static(..., backend=)``) to time tograph on beside NumPy,
    and the BLAS / OpenMP threads every contender may use."""

    mode: str = "full"
    backend: str = "numpy"
    threads: int = 1
    only: list[str] | None = None
    peers: list[str] | None = None
    json_path: str | None = None


def parse_options(argv: Sequence[str]) -> Options:
    """The options of ``tograph bench`` / ``benchmarks/run.py``."""
    parser = argparse.ArgumentParser(
        prog="tograph bench", description="tograph against NumPy and peers."
    )
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter samples")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one sample: checks only")
    parser.add_argument("--json", dest="json_path", metavar="OUT.json", help="write the results")
    parser.add_argument("--only", metavar="W1,W3", help="run only these workloads")
    parser.add_argument(
        "--peers", metavar="LIST", help="peers to try: torch,jax,tensorflow,paddle,numba or none"
    )
    parser.add_argument(
        "--backend",
        choices=backends.BACKENDS,
        default="numpy",
        help="also time tograph on this backend (numba, auto), beside the NumPy backend",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="BLAS and OpenMP threads for NumPy, tograph's kernels and the peers (default 1)",
    )
    opts = parser.parse_args(list(argv))
    if opts.threads < 1:
        parser.error(f"--threads must be at least 1, got {opts.threads}")
    only = [w.strip().upper() for w in opts.only.split(",")] if opts.only else None
    known = [w.name for w in workloads.all_workloads()]
    for name in only or []:
        if name not in known:
            parser.error(f"unknown workload {name!r}; choose from {','.join(known)}")
    peer_names = None
    if opts.peers is not None:
        peer_names = (
            [] if opts.peers.strip() == "none" else [p.strip() for p in opts.peers.split(",")]
        )
    mode = "smoke" if opts.smoke else "quick" if opts.quick else "full"
    return Options(
        mode=mode,
        only=only,
        peers=peer_names,
        json_path=opts.json_path,
        backend=opts.backend,
        threads=opts.threads,
    )


def _on_backend(
    contender: timing.Contender, backend: str
) -> tuple[timing.Contender | None, str | None]:
    """The tograph contender compiled for ``backend`` (named "tograph.<backend>"), and the
    backend its graph runs on; ``(None, None)`` for the NumPy backend or a function that is no
    ``to_static`` one (a gradient)."""
    fn = contender.fn
    if backend == "numpy" or not isinstance(fn, api.StaticFunction) or contender.self_timed:
        return None, None
    fn = api.to_static(
        fn.python_function, input_spec=fn.input_spec, fallback=fn.fallback_mode, backend=backend
    )
    extra = dataclasses.replace(contender, name=f"tograph.{backend}", fn=fn)
    return extra, ran_on(extra)


def _peer_contenders(
    variant: workloads.Variant, loaded: list[peers.Peer], notes: list[str]
) -> list[timing.Contender]:
    found = []
    for peer in loaded:
        try:
            found += peer.module.contenders(variant)
        except Exception as exc:  # noqa: BLE001 - a peer that cannot build its version is a note
            notes.append(f"{peer.name}: cannot build: {type(exc).__name__}: {str(exc)[:200]}")
    return found


def _checked(
    variant: workloads.Variant, contenders: list[timing.Contender], notes: list[str]
) -> tuple[list[timing.Contender], dict[str, str]]:
    """The contenders whose first call ran, and each one's check status against NumPy."""
    reference = variant.reference if variant.numpy is None else variant.numpy.result()
    kept, status = [], {}
    for c in contenders:
        try:
            status[c.name] = compare.check(
                c, reference, variant.rtol, variant.atol, not c.name.startswith("tograph")
            )
        except Exception as exc:  # noqa: BLE001 - a contender that fails to run is a note
            notes.append(f"{c.name}: failed: {type(exc).__name__}: {str(exc)[:200]}")
            continue
        if status[c.name] != "ok":
            notes.append(f"{c.name}: result differs from NumPy: {status[c.name]}")
        kept.append(c)
    return kept, status


def run_variant(
    variant: workloads.Variant, loaded: list[peers.Peer], mode: str, backend: str = "numpy"
) -> dict[str, Any]:
    """Checks and times one variant; returns its record (see module docstring)."""
    notes: list[str] = []
    extra, used = _on_backend(variant.tograph, backend)
    contenders = [c for c in (variant.numpy, variant.tograph, extra) if c is not None]
    contenders, status = _checked(
        variant, contenders + _peer_contenders(variant, loaded, notes), notes
    )
    repeats, sample_seconds, budget = _MODES[mode]
    if variant.first_call:
        repeats, sample_seconds = _FIRST_CALL_REPEATS[mode], 0.0
    number = 1 if mode == "smoke" else variant.number
    timings = timing.measure(
        contenders, repeats, sample_seconds, number=number, budget_seconds=budget
    )
    record: dict[str, Any] = {
        "key": variant.key,
        "workload": variant.workload,
        "title": variant.title,
        "first_call": variant.first_call,
        "contenders": {
            name: {
                "median_s": t.median,
                "samples": t.samples,
                "number": t.number,
                "check": status[name],
            }
            for name, t in timings.items()
        },
        "notes": notes,
    }
    if used is not None:
        record["backend"] = used
    record["ran_on"] = {c.name: ran_on(c) for c in contenders if c.name.startswith("tograph")}
    record["ratios"] = compare.ratios(record["contenders"])
    if not variant.first_call:
        record["peak_bytes"] = {
            c.name: timing.peak_bytes(c) for c in contenders if c.name in ("numpy", "tograph")
        }
    return record


def ran_on(contender: timing.Contender) -> str:
    """What a tograph contender's graph runs on ("numpy", "numba", "eager", with the backend's
    note), or "compiler" for a first-call contender, which times conversion."""
    if contender.self_timed:
        return "compiler"
    cf = contender.fn.concrete(*contender.args)  # a to_static or a gradient function
    used = cf.backend or "eager"
    return f"{used} ({cf.backend_note})" if cf.backend_note else used


def environment(
    thread_info: dict[str, Any], loaded: list[peers.Peer], skipped: dict[str, str]
) -> dict[str, Any]:
    """Versions, machine and thread settings, recorded with the results."""
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": np.__version__,
        "tograph": importlib.metadata.version("tograph"),
        "peers": {p.name: p.version for p in loaded},
        "skipped_peers": skipped,
        "threads": thread_info,
    }


def run(options: Options, out: Any = None) -> dict[str, Any]:
    """Runs the selected workloads; prints progress and the table to ``out``; returns results."""
    out = out or sys.stdout
    thread_info = peers.configure_threads(options.threads)
    loaded, skipped = peers.load(
        [] if options.mode == "smoke" and options.peers is None else options.peers,
        options.threads,
    )
    size = "smoke" if options.mode == "smoke" else "full"
    results: list[dict[str, Any]] = []
    skipped_workloads: dict[str, str] = {}
    for workload in workloads.all_workloads():
        if options.only is not None and workload.name not in options.only:
            continue
        try:
            variants = workload.variants(size)
        except Exception as exc:  # noqa: BLE001 - a workload that cannot be built is skipped with its reason
            skipped_workloads[workload.name] = f"{type(exc).__name__}: {exc}"
            print(
                f"{workload.name}: skipped: {skipped_workloads[workload.name]}",
                file=out,
                flush=True,
            )
            continue
        for variant in variants:
            started = time.perf_counter()
            results.append(run_variant(variant, loaded, options.mode, options.backend))
            print(
                f"{variant.key}: done in {time.perf_counter() - started:.1f} s",
                file=out,
                flush=True,
            )
    data = {
        "mode": options.mode,
        "backend": options.backend,
        "environment": environment(thread_info, loaded, skipped),
        "results": results,
        "skipped_workloads": skipped_workloads,
    }
    # Tiny smoke sizes say nothing about the targets.
    data["targets"] = [] if options.mode == "smoke" else compare.targets(results)
    print(report.render(data), file=out, flush=True)
    return data
